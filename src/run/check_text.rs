//! The few messages the check runner writes itself (everything else a learner reads in the
//! checks pane is the assert's own message, written by the lesson's author in the lesson's
//! language), in English and Chinese.

/// The check runner's own words in one language.
pub(super) struct CheckText {
    /// The one result shown when the learner's code does not parse: `{kind}` is SyntaxError,
    /// IndentationError or TabError.
    pub fix_syntax_first: &'static str,
    /// The one result shown when the run was stopped (Ctrl-C, time or step limit).
    pub run_stopped: &'static str,
    /// A check raised inside the learner's code: `{line}` and `{error}`.
    pub your_line_raised: &'static str,
    /// A check needs a variable the learner's code never defined: `{name}`.
    pub not_defined: &'static str,
    /// A check touched the GPU after the learner's code broke its context.
    pub gpu_broken: &'static str,
    /// A check raised in its own code: `{error}`.
    pub check_raised: &'static str,
    /// An assert written without a message: `{n}` counts the checks from 1.
    pub unnamed_check: &'static str,
    /// The check block itself does not parse (the lesson's fault): `{line}`, `{error}`.
    pub check_block_broken: &'static str,
    /// Leads the first failed check when the script raised an error the exercise does not
    /// expect (unexpected.rs): `{file}`, `{line}`, `{error}`, and `{check}` the check's own
    /// message.
    pub unexpected_error: &'static str,
}

const EN: CheckText = CheckText {
    fix_syntax_first: "fix the {kind} first: the checks run once the code parses",
    run_stopped: "the run was stopped before its end ({error}): the checks need a run that finishes",
    your_line_raised: "your line {line} raised {error}",
    not_defined: "your code does not define `{name}`",
    gpu_broken: "the GPU is unusable after the device-side assert in your code",
    check_raised: "checking raised {error}",
    unnamed_check: "check {n}",
    check_block_broken: "the lesson's check block does not parse (its line {line}): {error}",
    unexpected_error: "{file}:{line} raised {error}, which this exercise does not expect: this is not about the goal yet, fix that line first (this check said: {check})",
};

const ZH: CheckText = CheckText {
    fix_syntax_first: "先修正 {kind}：代码能被解析之后，检查才会运行",
    run_stopped: "运行在结束前被停止（{error}）：检查需要一次完整结束的运行",
    your_line_raised: "你的代码第 {line} 行抛出 {error}",
    not_defined: "你的代码没有定义 `{name}`",
    gpu_broken: "你的代码触发了设备端断言，之后 GPU 已无法再使用",
    check_raised: "检查时出错：{error}",
    unnamed_check: "检查 {n}",
    check_block_broken: "课程的检查代码块无法解析（其第 {line} 行）：{error}",
    unexpected_error: "{file}:{line} 抛出了 {error}，这是本练习并不预期的错误：这还与目标无关，请先修正那一行（此项检查的结果：{check}）",
};

/// The texts for a language code (`zh`, else English).
pub(super) fn check_text(lang: &str) -> &'static CheckText {
    if lang == "zh" { &ZH } else { &EN }
}

/// `template` with each `{key}` replaced by its value.
pub(super) fn fill(template: &str, pairs: &[(&str, &str)]) -> String {
    let mut out = template.to_string();
    for (key, value) in pairs {
        out = out.replace(&format!("{{{key}}}"), value);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_text_exists_in_both_languages_with_the_same_placeholders() {
        let holes = |t: &CheckText| {
            [
                t.fix_syntax_first,
                t.run_stopped,
                t.your_line_raised,
                t.not_defined,
                t.gpu_broken,
                t.check_raised,
                t.unnamed_check,
                t.check_block_broken,
                t.unexpected_error,
            ]
            .map(|s| {
                let mut keys: Vec<&str> = s
                    .split('{')
                    .skip(1)
                    .filter_map(|p| p.split_once('}').map(|(k, _)| k))
                    .collect();
                keys.sort();
                keys
            })
        };
        assert_eq!(holes(check_text("en")), holes(check_text("zh")));
        assert_eq!(
            fill(
                check_text("en").your_line_raised,
                &[("line", "7"), ("error", "E")]
            ),
            "your line 7 raised E"
        );
        assert!(check_text("zh").fix_syntax_first.contains("先修正"));
    }
}
