//! An explanation as text, in English or Chinese: the same sections for every family (what it
//! is, what it is not, where the origin probably is, what the paste's numbers say, the checks,
//! the lesson), wrapped to a width.

use super::origin::{Origin, Trust};
use super::{Explanation, Verdict};
use crate::lesson::Lang;
use unicode_width::UnicodeWidthChar;

pub(crate) struct Words {
    pub what: &'static str,
    pub not: &'static str,
    pub origin: &'static str,
    pub numbers: &'static str,
    pub checks: &'static str,
    pub learn: &'static str,
    pub exercise: &'static str,
    pub unknown_title: &'static str,
    /// `{closest}` `{id}`.
    pub unknown_body: &'static str,
    /// `{words}`.
    pub unknown_shared: &'static str,
    pub empty: &'static str,
    pub no_frame: &'static str,
    /// `{line}` `{file}` `{code}` of the last own frame.
    pub reported_at: &'static str,
    pub host_check: &'static str,
    pub launches_it: &'static str,
    pub blocking: &'static str,
    pub only_noticed: &'static str,
    /// `{line}` `{code}`.
    pub candidate: &'static str,
    /// `{n}` `{files}`.
    pub library: &'static str,
    /// `{command}`.
    pub open_in_pager: &'static str,
    pub no_lesson: &'static str,
}

pub(crate) const EN: Words = Words {
    what: "What it is",
    not: "What it is not",
    origin: "Where the origin probably is",
    numbers: "What your paste says",
    checks: "Checks to run",
    learn: "Where cudatutor teaches it",
    exercise: "exercise",
    unknown_title: "Not in cudatutor's catalogue",
    unknown_body: "No family of errors cudatutor knows matches this text. The closest is \"{closest}\" ({id}); read it only if it fits:",
    unknown_shared: "It shares these words with your paste: {words}.",
    empty: "Nothing to explain: paste a traceback or a log (the last lines, with the `Error:` line and any `Assertion ... failed.` lines above it).",
    no_frame: "The paste holds no `File \"...\", line N` frame of your code, so the line cannot be named from it.",
    reported_at: "The traceback ends in your code at {file}, line {line}: `{code}`.",
    host_check: "Trust that line: PyTorch checks this on the host when the call is made, so it is where the error starts.",
    launches_it: "Trust that line: it launches the very kind of kernel that failed, so the error was noticed where it happened.",
    blocking: "Trust that line: the message lacks the \"asynchronously reported\" advice, which PyTorch drops under CUDA_LAUNCH_BLOCKING=1 — the report is at the origin.",
    only_noticed: "Distrust that line: it is only where the host noticed the failure, at its next CUDA call that checks (.item(), .cpu(), print, a copy, a synchronize). The kernel that failed was launched earlier, by a line not in this traceback.",
    candidate: "Reading your script: the last line before it that launches that kind of kernel is line {line}: `{code}`.",
    library: "The {n} frame(s) below it are PyTorch's own code ({files}): the bug is in what your line passed in, not in them.",
    open_in_pager: "{command}",
    no_lesson: "(no lesson of this set teaches it)",
};

pub(crate) const ZH: Words = Words {
    what: "这是什么",
    not: "这不是什么",
    origin: "真正的源头可能在哪里",
    numbers: "从你粘贴的内容看",
    checks: "要做的检查",
    learn: "cudatutor 在哪里讲这个",
    exercise: "练习",
    unknown_title: "不在 cudatutor 的目录中",
    unknown_body: "cudatutor 已知的错误类别中没有与这段文字相符的。最接近的是“{closest}”（{id}）；只有在相符时才参考：",
    unknown_shared: "它与你粘贴的内容共有这些词：{words}。",
    empty: "没有可解释的内容：请粘贴 traceback 或日志（最后几行，包括 `Error:` 那一行以及它上方的 `Assertion ... failed.` 行）。",
    no_frame: "粘贴的内容里没有你的代码的 `File \"...\", line N` 帧，因此无法从中指出是哪一行。",
    reported_at: "traceback 在你的代码中结束于 {file} 第 {line} 行：`{code}`。",
    host_check: "相信这一行：PyTorch 在调用时就在主机上做这个检查，所以错误就从这里开始。",
    launches_it: "相信这一行：它启动的正是失败的那类内核，所以错误在发生的地方就被发现了。",
    blocking: "相信这一行：消息里没有“asynchronously reported”那两行建议，PyTorch 在 CUDA_LAUNCH_BLOCKING=1 时会去掉它们——报告的位置就是源头。",
    only_noticed: "不要相信这一行：它只是主机发现失败的地方，即下一个会检查状态的 CUDA 调用（.item()、.cpu()、print、拷贝、synchronize）。失败的内核是更早由另一行启动的，那一行不在这个 traceback 里。",
    candidate: "读了你的脚本：在它之前最后一个启动这类内核的是第 {line} 行：`{code}`。",
    library: "它下面的 {n} 帧是 PyTorch 自己的代码（{files}）：问题出在你这一行传进去的东西，而不在它们。",
    open_in_pager: "{command}",
    no_lesson: "（这套课程中没有讲它的课）",
};

pub(crate) fn words(lang: Lang) -> &'static Words {
    lang.pick(&EN, &ZH)
}

/// The "where the origin is" sentences for the paste's traceback.
pub(crate) fn origin_sentences(o: &Origin, lang: Lang) -> Vec<String> {
    let w = words(lang);
    let mut out = Vec::new();
    let Some(f) = &o.reported else {
        out.push(w.no_frame.to_string());
        return out;
    };
    out.push(
        w.reported_at
            .replace("{file}", &super::origin::short_path(&f.file))
            .replace("{line}", &f.line.to_string())
            .replace("{code}", f.code.as_deref().unwrap_or("…")),
    );
    out.push(
        match o.trust {
            Trust::HostCheck | Trust::NoTraceback => w.host_check,
            Trust::LaunchesIt => w.launches_it,
            Trust::Blocking => w.blocking,
            Trust::OnlyNoticed => w.only_noticed,
        }
        .to_string(),
    );
    if let Some((line, code)) = &o.candidate {
        out.push(
            w.candidate
                .replace("{line}", &line.to_string())
                .replace("{code}", code),
        );
    }
    if o.library_below > 0 && o.trust != Trust::OnlyNoticed {
        out.push(
            w.library
                .replace("{n}", &o.library_below.to_string())
                .replace("{files}", &o.library_files.join(", ")),
        );
    }
    out
}

/// The whole explanation as text lines of at most `width` columns.
pub(crate) fn render(e: &Explanation, lang: Lang, width: usize) -> String {
    let w = words(lang);
    let mut out = String::new();
    let heading = |out: &mut String, title: &str| {
        out.push('\n');
        out.push_str(title);
        out.push('\n');
    };
    let para = |out: &mut String, text: &str, indent: &str| {
        for line in wrap(text, width.saturating_sub(indent.len()).max(20)) {
            out.push_str(indent);
            out.push_str(&line);
            out.push('\n');
        }
    };
    let exception_line = e.parsed.exception.as_ref().map(|x| {
        let first = x.message.lines().next().unwrap_or("");
        if first.is_empty() {
            x.type_name.clone()
        } else {
            format!("{}: {first}", x.type_name)
        }
    });
    match &e.verdict {
        None => {
            para(&mut out, w.empty, "");
            return out;
        }
        Some(Verdict::Unknown { closest, shared }) => {
            out.push_str(&format!("── {} ──\n", w.unknown_title));
            if let Some(x) = &exception_line {
                para(&mut out, x, "  ");
            }
            heading(&mut out, w.origin);
            for s in origin_sentences(&e.origin, lang) {
                para(&mut out, &s, "  ");
            }
            out.push('\n');
            let fw = closest.words(lang);
            para(
                &mut out,
                &w.unknown_body
                    .replace("{closest}", &fw.title)
                    .replace("{id}", &closest.id),
                "",
            );
            if !shared.is_empty() {
                para(
                    &mut out,
                    &w.unknown_shared.replace("{words}", &shared.join(", ")),
                    "",
                );
            }
            para(&mut out, &fw.what, "  ");
        }
        Some(Verdict::Known { family, .. }) => {
            let fw = family.words(lang);
            out.push_str(&format!("── {} ── [{}]\n", fw.title, family.id));
            if let Some(x) = &exception_line {
                para(&mut out, x, "  ");
            }
            heading(&mut out, w.what);
            para(&mut out, &fw.what, "  ");
            heading(&mut out, w.not);
            para(&mut out, &fw.not, "  ");
            heading(&mut out, w.origin);
            for s in origin_sentences(&e.origin, lang) {
                para(&mut out, &s, "  ");
            }
            para(&mut out, &fw.origin, "  ");
            if !e.findings.is_empty() {
                heading(&mut out, w.numbers);
                for f in &e.findings {
                    para(&mut out, f, "  ");
                }
            }
            heading(&mut out, w.checks);
            for (i, c) in fw.checks.iter().enumerate() {
                let lines = wrap(c, width.saturating_sub(5).max(20));
                for (k, l) in lines.iter().enumerate() {
                    if k == 0 {
                        out.push_str(&format!("  {}. {l}\n", i + 1));
                    } else {
                        out.push_str(&format!("     {l}\n"));
                    }
                }
            }
        }
    }
    heading(&mut out, w.learn);
    match &e.link {
        Some(link) => {
            let lesson = match lang {
                Lang::En => format!("Lesson {}", link.lesson_index + 1),
                Lang::Zh => format!("第 {} 课", link.lesson_index + 1),
            };
            para(
                &mut out,
                &format!("{lesson} · {} › {}", link.lesson_title, link.section),
                "  ",
            );
            para(
                &mut out,
                &w.open_in_pager.replace("{command}", &link.command(lang)),
                "  ",
            );
            if let Some(x) = &link.exercise {
                para(
                    &mut out,
                    &format!("{} {x}: cudatutor edit {x}", w.exercise),
                    "  ",
                );
            }
        }
        None => para(&mut out, w.no_lesson, "  "),
    }
    out
}

/// Greedy wrapping by display width: at the last space when there is one on the line, else
/// anywhere (Chinese has no spaces).
pub(crate) fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(8);
    let mut lines = Vec::new();
    for raw in text.split('\n') {
        let mut line = String::new();
        let mut used = 0usize;
        for ch in raw.chars() {
            let cw = ch.width().unwrap_or(0);
            if used + cw > width && !line.is_empty() {
                match line.rfind(' ').filter(|&i| i > 0) {
                    Some(i) => {
                        let rest = line[i + 1..].to_string();
                        line.truncate(i);
                        lines.push(std::mem::take(&mut line));
                        line = rest;
                    }
                    None => lines.push(std::mem::take(&mut line)),
                }
                used = line.chars().map(|c| c.width().unwrap_or(0)).sum();
                if ch == ' ' && line.is_empty() {
                    continue;
                }
            }
            line.push(ch);
            used += cw;
        }
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::wrap;
    use unicode_width::UnicodeWidthStr;

    #[test]
    fn wrapping_keeps_every_character_and_the_width() {
        let text = "设备日志写的是：内核 `nll_loss_forward_reduce_cuda_kernel_2d`（Loss.cu:244），条件 `t >= 0 && t < n_classes` and some English words to wrap";
        let lines = wrap(text, 20);
        assert!(lines.iter().all(|l| l.width() <= 20), "{lines:?}");
        let joined: String = lines.concat().replace(' ', "");
        assert_eq!(joined, text.replace(' ', ""));
    }
}
