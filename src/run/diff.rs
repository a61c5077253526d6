//! `cudatutor diff FILE`: one script run on the engine and on real PyTorch, and what differs
//! between the two reports: stdout lines, the exception's type and message, the reported and
//! origin lines, the exit status, the memory counters (when that PyTorch has CUDA) and, for an
//! exercise, each check's verdict. This is how an instructor checks an exercise on the lab's
//! PyTorch version and how fidelity gaps of the engine are found.
//!
//! The pager's "run on both" key calls [`diff_exercise`] and shows [`render`] (see docs/ui.md).

use super::{BackendChoice, RunOptions, RunReport};
use serde::Serialize;

/// One thing the two runs disagree on.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Difference {
    /// What differs: `stdout line 3`, `exception type`, `reported line`, `memory_allocated` …
    pub what: String,
    /// The engine's value, as text (`(none)` when absent).
    pub engine: String,
    /// Real PyTorch's value.
    pub pytorch: String,
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
    let mut push = |what: String, e: String, p: String| {
        if e != p {
            out.push(Difference {
                what,
                engine: e,
                pytorch: p,
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
        push(format!("stdout line {}", i + 1), show(e), show(p));
    }
    if unlisted > 0 {
        push(
            "stdout".into(),
            format!("{unlisted} more differing line(s)"),
            String::new(),
        );
    }
    let (ee, pe) = (engine.error.as_ref(), pytorch.error.as_ref());
    push(
        "exception type".into(),
        opt(ee.map(|e| e.type_name.clone())),
        opt(pe.map(|e| e.type_name.clone())),
    );
    push(
        "exception message".into(),
        opt(ee.map(|e| e.message.clone())),
        opt(pe.map(|e| e.message.clone())),
    );
    push(
        "reported line".into(),
        opt(ee.and_then(|e| e.line)),
        opt(pe.and_then(|e| e.line)),
    );
    push(
        "origin line".into(),
        opt(ee.and_then(|e| e.origin_line)),
        opt(pe.and_then(|e| e.origin_line)),
    );
    let status = |r: &RunReport| r.exit_status.unwrap_or(i32::from(!r.ok));
    push(
        "exit status".into(),
        status(engine).to_string(),
        status(pytorch).to_string(),
    );
    // The allocator counters mean something only where this PyTorch has CUDA; without it
    // (CPU torch) both sides report zero unless the script used CUDA, which the error shows.
    if !pytorch.memory.devices.is_empty() {
        let (em, pm) = (&engine.memory, &pytorch.memory);
        push(
            "memory_allocated".into(),
            em.allocated.to_string(),
            pm.allocated.to_string(),
        );
        push(
            "memory_reserved".into(),
            em.reserved.to_string(),
            pm.reserved.to_string(),
        );
        push(
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
            format!("check {} (check line {line})", i + 1),
            verdict(engine, i),
            verdict(pytorch, i),
        );
    }
    out
}

/// Runs the exercise (or plain script, `check` None) on the engine's simulated GPU and on real
/// PyTorch with the same options, and compares the two reports.
pub fn diff_exercise(code: &str, check: Option<&str>, opts: &RunOptions) -> DiffReport {
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

/// The text `cudatutor diff` prints (and the pager's diff view shows).
pub fn render(d: &DiffReport) -> String {
    let mut s = format!(
        "engine:  {} ({})\npytorch: {} — {}\n",
        d.engine.backend,
        d.engine.device_name,
        d.pytorch.device_name,
        super::pytorch::UNSANDBOXED_NOTE
    );
    if let Some(why) = &d.pytorch_failed {
        s.push_str(&format!("real PyTorch could not run the script: {why}\n"));
        return s;
    }
    if d.differences.is_empty() {
        s.push_str("identical: stdout, exception, reported and origin lines, exit status");
        if !d.pytorch.memory.devices.is_empty() {
            s.push_str(", memory counters");
        }
        if !d.engine.checks.is_empty() {
            s.push_str(", checks");
        }
        s.push('\n');
        return s;
    }
    s.push_str(&format!("{} difference(s):\n", d.differences.len()));
    for diff in &d.differences {
        s.push_str(&format!(
            "  {}\n    engine:  {}\n    pytorch: {}\n",
            diff.what, diff.engine, diff.pytorch
        ));
    }
    s
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
