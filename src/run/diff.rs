//! `cudatutor diff FILE`: one script run on the engine and on real PyTorch, and what differs
//! between the two reports: stdout lines, the exception's type and message, the reported and
//! origin lines, the exit status, the memory counters (when that PyTorch has CUDA) and, for an
//! exercise, each check's verdict. This is how an instructor checks an exercise on the lab's
//! PyTorch version and how fidelity gaps of the engine are found.
//!
//! The pager's "run on both" key calls [`diff_exercise`] and shows [`render`] (see docs/ui.md).

use super::{BackendChoice, RunOptions, RunReport};
use crate::lesson::Lang;
use serde::Serialize;

/// What a [`Difference`] is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum What {
    /// Stdout line `n` (1-based); a missing line's value is `(no such line)`.
    StdoutLine(usize),
    /// More differing stdout lines than are listed (how many).
    StdoutMore(usize),
    ExceptionType,
    ExceptionMessage,
    ReportedLine,
    OriginLine,
    ExitStatus,
    /// An allocator counter, named by its torch.cuda function.
    #[default]
    Memory,
    /// Check `n` (1-based), at `line` of the check block; values `passed` / `failed`.
    Check {
        n: usize,
        line: u32,
    },
}

/// The fixed words of `cudatutor diff` and the pager's comparison, in one language.
pub struct DiffText {
    /// `{backend}`, `{device}`.
    pub engine_header: &'static str,
    /// `{device}`, `{note}`.
    pub pytorch_header: &'static str,
    pub unsandboxed: &'static str,
    /// `{why}`.
    pub could_not_run: &'static str,
    pub identical: &'static str,
    pub identical_memory: &'static str,
    pub identical_checks: &'static str,
    /// `{n}`.
    pub differences: &'static str,
    pub engine_value: &'static str,
    pub pytorch_value: &'static str,
    /// `{n}`.
    pub stdout_line: &'static str,
    pub stdout: &'static str,
    /// `{n}`.
    pub more_lines: &'static str,
    pub exception_type: &'static str,
    pub exception_message: &'static str,
    pub reported_line: &'static str,
    pub origin_line: &'static str,
    pub exit_status: &'static str,
    /// `{n}`, `{line}`.
    pub check: &'static str,
    pub none: &'static str,
    pub no_such_line: &'static str,
    pub passed: &'static str,
    pub failed: &'static str,
    /// `{n}` scripts, `{same}` identical, `{differ}` different, `{failed}` not run.
    pub summary: &'static str,
}

pub(crate) const EN: DiffText = DiffText {
    engine_header: "engine:  {backend} ({device})",
    pytorch_header: "pytorch: {device} — {note}",
    unsandboxed: super::pytorch::UNSANDBOXED_NOTE,
    could_not_run: "real PyTorch could not run the script: {why}",
    identical: "identical: stdout, exception, reported and origin lines, exit status",
    identical_memory: ", memory counters",
    identical_checks: ", checks",
    differences: "{n} difference(s):",
    engine_value: "engine: ",
    pytorch_value: "pytorch:",
    stdout_line: "stdout line {n}",
    stdout: "stdout",
    more_lines: "{n} more differing line(s)",
    exception_type: "exception type",
    exception_message: "exception message",
    reported_line: "reported line",
    origin_line: "origin line",
    exit_status: "exit status",
    check: "check {n} (check line {line})",
    none: "(none)",
    no_such_line: "(no such line)",
    passed: "passed",
    failed: "failed",
    summary: "{n} script(s): {same} identical, {differ} different, {failed} not run on PyTorch",
};

pub(crate) const ZH: DiffText = DiffText {
    engine_header: "引擎：{backend}（{device}）",
    pytorch_header: "PyTorch：{device} — {note}",
    unsandboxed: super::pytorch::UNSANDBOXED_NOTE_ZH,
    could_not_run: "真实的 PyTorch 无法运行这个脚本：{why}",
    identical: "完全一致：标准输出、异常、报告行和来源行、退出状态",
    identical_memory: "、显存计数",
    identical_checks: "、检查",
    differences: "有 {n} 处不同：",
    engine_value: "引擎：   ",
    pytorch_value: "PyTorch：",
    stdout_line: "标准输出第 {n} 行",
    stdout: "标准输出",
    more_lines: "另有 {n} 行不同",
    exception_type: "异常类型",
    exception_message: "异常信息",
    reported_line: "报告错误的行",
    origin_line: "启动出错内核的行",
    exit_status: "退出状态",
    check: "检查 {n}（检查代码第 {line} 行）",
    none: "（无）",
    no_such_line: "（没有这一行）",
    passed: "通过",
    failed: "未通过",
    summary: "共 {n} 个脚本：{same} 个一致，{differ} 个不同，{failed} 个未能在 PyTorch 上运行",
};

/// The words of `diff` in `lang`.
pub fn text(lang: Lang) -> &'static DiffText {
    lang.pick(&EN, &ZH)
}

/// One thing the two runs disagree on.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Difference {
    /// What differs: `stdout line 3`, `exception type`, `reported line`, `memory_allocated` …
    pub what: String,
    /// The engine's value, as text (`(none)` when absent).
    pub engine: String,
    /// Real PyTorch's value.
    pub pytorch: String,
    /// `what` as data, so the text can be written in the reader's language ([`render_in`]).
    #[serde(skip)]
    pub kind: What,
}

/// Both reports and their differences.
#[derive(Debug, Clone, Serialize)]
pub struct DiffReport {
    pub engine: RunReport,
    pub pytorch: RunReport,
    pub differences: Vec<Difference>,
    /// Set when the PyTorch side could not run at all (no Python, no torch): nothing was
    /// compared.
    pub pytorch_failed: Option<String>,
}

impl DiffReport {
    /// True when both ran and nothing differs.
    pub fn identical(&self) -> bool {
        self.pytorch_failed.is_none() && self.differences.is_empty()
    }
}

/// Most differing stdout lines listed (the count of the rest is given).
const MAX_STDOUT_LINES: usize = 20;

fn none() -> String {
    "(none)".to_string()
}

fn opt<T: ToString>(v: Option<T>) -> String {
    v.map(|v| v.to_string()).unwrap_or_else(none)
}

/// What differs between an engine report and a PyTorch report of the same script.
pub fn differences(engine: &RunReport, pytorch: &RunReport) -> Vec<Difference> {
    let mut out = Vec::new();
    let mut push = |kind: What, what: String, e: String, p: String| {
        if e != p {
            out.push(Difference {
                what,
                engine: e,
                pytorch: p,
                kind,
            });
        }
    };
    let el: Vec<&str> = engine.stdout.split_inclusive('\n').collect();
    let pl: Vec<&str> = pytorch.stdout.split_inclusive('\n').collect();
    let mut listed = 0;
    let mut unlisted = 0;
    for i in 0..el.len().max(pl.len()) {
        let (e, p) = (el.get(i).copied(), pl.get(i).copied());
        if e == p {
            continue;
        }
        if listed == MAX_STDOUT_LINES {
            unlisted += 1;
            continue;
        }
        listed += 1;
        let show = |l: Option<&str>| match l {
            Some(l) => format!("{:?}", l.strip_suffix('\n').unwrap_or(l)),
            None => "(no such line)".to_string(),
        };
        push(
            What::StdoutLine(i + 1),
            format!("stdout line {}", i + 1),
            show(e),
            show(p),
        );
    }
    if unlisted > 0 {
        push(
            What::StdoutMore(unlisted),
            "stdout".into(),
            format!("{unlisted} more differing line(s)"),
            String::new(),
        );
    }
    let (ee, pe) = (engine.error.as_ref(), pytorch.error.as_ref());
    push(
        What::ExceptionType,
        "exception type".into(),
        opt(ee.map(|e| e.type_name.clone())),
        opt(pe.map(|e| e.type_name.clone())),
    );
    push(
        What::ExceptionMessage,
        "exception message".into(),
        opt(ee.map(|e| e.message.clone())),
        opt(pe.map(|e| e.message.clone())),
    );
    push(
        What::ReportedLine,
        "reported line".into(),
        opt(ee.and_then(|e| e.line)),
        opt(pe.and_then(|e| e.line)),
    );
    push(
        What::OriginLine,
        "origin line".into(),
        opt(ee.and_then(|e| e.origin_line)),
        opt(pe.and_then(|e| e.origin_line)),
    );
    let status = |r: &RunReport| r.exit_status.unwrap_or(i32::from(!r.ok));
    push(
        What::ExitStatus,
        "exit status".into(),
        status(engine).to_string(),
        status(pytorch).to_string(),
    );
    // The allocator counters mean something only where this PyTorch has CUDA; without it
    // (CPU torch) both sides report zero unless the script used CUDA, which the error shows.
    if !pytorch.memory.devices.is_empty() {
        let (em, pm) = (&engine.memory, &pytorch.memory);
        push(
            What::Memory,
            "memory_allocated".into(),
            em.allocated.to_string(),
            pm.allocated.to_string(),
        );
        push(
            What::Memory,
            "memory_reserved".into(),
            em.reserved.to_string(),
            pm.reserved.to_string(),
        );
        push(
            What::Memory,
            "max_memory_allocated".into(),
            em.peak_allocated.to_string(),
            pm.peak_allocated.to_string(),
        );
    }
    let verdict = |r: &RunReport, i: usize| {
        r.checks
            .get(i)
            .map(|c| if c.passed { "passed" } else { "failed" }.to_string())
            .unwrap_or_else(none)
    };
    for i in 0..engine.checks.len().max(pytorch.checks.len()) {
        let line = engine
            .checks
            .get(i)
            .or(pytorch.checks.get(i))
            .map_or(0, |c| c.line);
        push(
            What::Check { n: i + 1, line },
            format!("check {} (check line {line})", i + 1),
            verdict(engine, i),
            verdict(pytorch, i),
        );
    }
    out
}

/// Runs the exercise (or plain script, `check` None) on the engine's simulated GPU and on real
/// PyTorch with the same options, and compares the two reports.
pub(crate) fn diff_exercise(code: &str, check: Option<&str>, opts: &RunOptions) -> DiffReport {
    let engine_backend = match opts.backend {
        BackendChoice::Pytorch | BackendChoice::Auto => BackendChoice::Sim,
        other => other,
    };
    let engine = super::run_exercise(
        code,
        check,
        &RunOptions {
            backend: engine_backend,
            ..opts.clone()
        },
    );
    let pytorch = super::run_exercise(
        code,
        check,
        &RunOptions {
            backend: BackendChoice::Pytorch,
            ..opts.clone()
        },
    );
    let pytorch_failed = pytorch.internal_error.clone();
    let differences = if pytorch_failed.is_some() {
        Vec::new()
    } else {
        differences(&engine, &pytorch)
    };
    DiffReport {
        engine,
        pytorch,
        differences,
        pytorch_failed,
    }
}

/// The text `cudatutor diff` prints (and the pager's comparison shows), in English.
pub fn render(d: &DiffReport) -> String {
    render_in(d, Lang::En)
}

/// The text of `d` in `lang`. The values compared (stdout lines, messages, numbers) are shown
/// as the runs produced them; only the words around them are translated.
pub fn render_in(d: &DiffReport, lang: Lang) -> String {
    let t = text(lang);
    let device = |r: &RunReport| device_name(&r.device_name, lang);
    let mut s = t
        .engine_header
        .replace("{backend}", &d.engine.backend)
        .replace("{device}", &device(&d.engine));
    s.push('\n');
    s.push_str(
        &t.pytorch_header
            .replace("{device}", &device(&d.pytorch))
            .replace("{note}", t.unsandboxed),
    );
    s.push('\n');
    if let Some(why) = &d.pytorch_failed {
        s.push_str(&t.could_not_run.replace("{why}", why));
        s.push('\n');
        return s;
    }
    if d.differences.is_empty() {
        s.push_str(t.identical);
        if !d.pytorch.memory.devices.is_empty() {
            s.push_str(t.identical_memory);
        }
        if !d.engine.checks.is_empty() {
            s.push_str(t.identical_checks);
        }
        s.push('\n');
        return s;
    }
    s.push_str(
        &t.differences
            .replace("{n}", &d.differences.len().to_string()),
    );
    s.push('\n');
    for diff in &d.differences {
        let (what, engine, pytorch) = words(diff, t);
        s.push_str(&format!(
            "  {what}\n    {} {engine}\n    {} {pytorch}\n",
            t.engine_value, t.pytorch_value
        ));
    }
    s
}

/// A device name in `lang`: the simulated GPU's and "real PyTorch" translated, a real GPU's
/// name kept.
pub fn device_name(name: &str, lang: Lang) -> String {
    match lang {
        Lang::En => name.to_string(),
        Lang::Zh => name
            .replace(
                crate::engine::runtime::SIM_DEVICE_NAME,
                "模拟的 H200（时间为模型估算）",
            )
            .replace("real PyTorch", "真实的 PyTorch"),
    }
}

/// A difference's name and values in the words of `t` (the values themselves as they were).
fn words(d: &Difference, t: &DiffText) -> (String, String, String) {
    let value = |v: &str| -> String {
        match (d.kind, v) {
            (What::StdoutLine(_), "(no such line)") => t.no_such_line.to_string(),
            (What::Check { .. }, "passed") => t.passed.to_string(),
            (What::Check { .. }, "failed") => t.failed.to_string(),
            (What::StdoutLine(_) | What::StdoutMore(_), _) => v.to_string(),
            (_, "(none)") => t.none.to_string(),
            _ => v.to_string(),
        }
    };
    match d.kind {
        What::StdoutMore(n) => (
            t.stdout.to_string(),
            t.more_lines.replace("{n}", &n.to_string()),
            String::new(),
        ),
        kind => {
            let what = match kind {
                What::StdoutLine(n) => t.stdout_line.replace("{n}", &n.to_string()),
                What::ExceptionType => t.exception_type.to_string(),
                What::ExceptionMessage => t.exception_message.to_string(),
                What::ReportedLine => t.reported_line.to_string(),
                What::OriginLine => t.origin_line.to_string(),
                What::ExitStatus => t.exit_status.to_string(),
                What::Check { n, line } => t
                    .check
                    .replace("{n}", &n.to_string())
                    .replace("{line}", &line.to_string()),
                What::Memory | What::StdoutMore(_) => d.what.clone(),
            };
            (what, value(&d.engine), value(&d.pytorch))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::ErrorReport;

    fn report(stdout: &str, error: Option<(&str, &str, u32)>) -> RunReport {
        RunReport {
            ok: error.is_none(),
            stdout: stdout.into(),
            error: error.map(|(t, m, l)| ErrorReport {
                type_name: t.into(),
                message: m.into(),
                line: Some(l),
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    #[test]
    fn identical_reports_have_no_differences() {
        let a = report("1\n2\n", Some(("IndexError", "boom", 3)));
        assert!(differences(&a, &a.clone()).is_empty());
    }

    #[test]
    fn each_kind_of_difference_is_named() {
        let a = report("1\n2\n", Some(("IndexError", "boom", 3)));
        let b = report("1\n3\nextra\n", Some(("RuntimeError", "boom", 4)));
        let d = differences(&a, &b);
        let what: Vec<&str> = d.iter().map(|d| d.what.as_str()).collect();
        assert_eq!(
            what,
            [
                "stdout line 2",
                "stdout line 3",
                "exception type",
                "reported line"
            ]
        );
        assert_eq!(d[0].engine, "\"2\"");
        assert_eq!(d[0].pytorch, "\"3\"");
        assert_eq!(d[1].engine, "(no such line)");
    }
}
