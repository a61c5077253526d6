//! What an exercise card shows after a run, as plain text for `watch` and `edit`: the output,
//! the traceback, each check with ✓ or ✗ and its message, and the score. Also the fixed words
//! of `edit`, `watch`, `hint`, `export` and `import` in the learner's language.

use super::weights;
use crate::lesson::{Exercise, Lang};
use crate::run::RunReport;

/// The fixed words of the commands that work outside the pager, in one language.
pub(crate) struct CardText {
    pub output: &'static str,
    pub prediction_pending: &'static str,
    pub checks: &'static str,
    /// `{passed}` of `{total}` checks, `{score}` of `{max}` points.
    pub summary: &'static str,
    pub solved: &'static str,
    pub internal_error: &'static str,
    /// `{path}`.
    pub watching: &'static str,
    pub watch_keys: &'static str,
    pub watch_manual_keys: &'static str,
    /// `{why}`: the file watcher could not start.
    pub watch_fallback: &'static str,
    /// `{id}`, `{path}`.
    pub next_exercise: &'static str,
    pub all_done: &'static str,
    /// `{path}`: the file held newer work than progress, which was taken.
    pub took_file: &'static str,
    pub unchanged: &'static str,
    /// `{n}`, `{total}`.
    pub hint_heading: &'static str,
    pub no_more_hints: &'static str,
    pub no_hints: &'static str,
    /// `{id}`: no such exercise.
    pub no_exercise: &'static str,
    /// `{n}`, `{dir}`.
    pub exported: &'static str,
    /// `{changed}`, `{unchanged}`, `{dir}`.
    pub imported: &'static str,
    /// `{path}`.
    pub missing_file: &'static str,
    /// `{path}`.
    pub unknown_file: &'static str,
    /// `{path}`, `{dir}`: an exported file edited since `export` wrote it, not overwritten.
    pub export_kept: &'static str,
    /// `{dir}`: `import` changed nothing (and found no file to read, or a misplaced one).
    pub imported_nothing: &'static str,
}

const EN: CardText = CardText {
    output: "output:",
    prediction_pending: "(the answer stays hidden until you have written every prediction)",
    checks: "checks:",
    summary: "{passed} of {total} checks pass ({score} of {max} points)",
    solved: "✓ solved",
    internal_error: "internal error (not a result of your code):",
    watching: "watching {path}",
    watch_keys: "save the file to run it again; Enter runs it now, q then Enter quits",
    watch_manual_keys: "press Enter to run the file again, q then Enter to quit",
    watch_fallback: "file events are not available ({why}); press Enter after each save",
    next_exercise: "next exercise: {id}  ({path})",
    all_done: "every exercise passes its checks",
    took_file: "{path} holds work newer than your saved progress: it is now your saved code",
    unchanged: "the file did not change",
    hint_heading: "hint {n} of {total}:",
    no_more_hints: "(that was the last hint)",
    no_hints: "this exercise has no hints",
    no_exercise: "there is no exercise `{id}`; `cudatutor list` shows the lessons",
    exported: "wrote {n} exercise files under {dir}",
    imported: "{changed} exercise(s) updated, {unchanged} unchanged, from {dir}",
    missing_file: "{path}: missing, that exercise keeps its saved code",
    unknown_file: "{path}: not an exercise of these lessons, ignored",
    export_kept: "{path}: changed since it was exported, kept as it is (cudatutor import {dir} first, or export --force to overwrite it)",
    imported_nothing: "nothing was imported from {dir}: only files at <lesson id>/<exercise id>.py, where export puts them, are read",
};

const ZH: CardText = CardText {
    output: "输出：",
    prediction_pending: "（写下全部预测之后才会显示答案）",
    checks: "检查：",
    summary: "{total} 个检查中通过 {passed} 个（得分 {score} / {max}）",
    solved: "✓ 已完成",
    internal_error: "内部错误（与你的代码无关）：",
    watching: "正在监视 {path}",
    watch_keys: "保存文件即重新运行；按 Enter 立即运行，输入 q 再按 Enter 退出",
    watch_manual_keys: "每次保存后按 Enter 重新运行，输入 q 再按 Enter 退出",
    watch_fallback: "无法使用文件事件（{why}）；请在每次保存后按 Enter",
    next_exercise: "下一个练习：{id}（{path}）",
    all_done: "所有练习都已通过检查",
    took_file: "{path} 中的内容比已保存的进度更新：现已作为你保存的代码",
    unchanged: "文件没有变化",
    hint_heading: "提示 {n} / {total}：",
    no_more_hints: "（这是最后一条提示）",
    no_hints: "这个练习没有提示",
    no_exercise: "没有练习 `{id}`；`cudatutor list` 会列出所有课程",
    exported: "已在 {dir} 下写出 {n} 个练习文件",
    imported: "从 {dir} 导入：{changed} 个练习已更新，{unchanged} 个未变",
    missing_file: "{path}：文件不存在，该练习保留已保存的代码",
    unknown_file: "{path}：不是这些课程中的练习，已忽略",
    export_kept: "{path}：导出后被修改过，保持原样（请先运行 cudatutor import {dir}，或用 export --force 覆盖）",
    imported_nothing: "没有从 {dir} 导入任何内容：只读取位于 <课程 id>/<练习 id>.py（export 放置的位置）的文件",
};

pub(crate) fn card_text(lang: Lang) -> &'static CardText {
    lang.pick(&EN, &ZH)
}

/// The card after a run of `ex`, as text.
pub fn render_run(ex: &Exercise, report: &RunReport, lang: Lang) -> String {
    let t = card_text(lang);
    let mut s = String::new();
    if let Some(why) = &report.internal_error {
        s.push_str(&format!("{}\n{why}\n", t.internal_error));
        return s;
    }
    if report.prediction_pending {
        s.push_str(t.prediction_pending);
        s.push('\n');
    } else {
        if !report.stdout.is_empty() {
            s.push_str(t.output);
            s.push('\n');
            s.push_str(&report.stdout);
            if !report.stdout.ends_with('\n') {
                s.push('\n');
            }
        }
        if !report.stderr.is_empty() {
            s.push_str(&report.stderr);
            if !report.stderr.ends_with('\n') {
                s.push('\n');
            }
        }
    }
    let weight_of = weights::weight_lookup(ex.check.as_deref());
    s.push_str(t.checks);
    s.push('\n');
    for c in &report.checks {
        let mark = if c.passed { "✓" } else { "✗" };
        s.push_str(&format!(
            "  {mark} {}\n",
            c.message.as_deref().unwrap_or("assertion failed")
        ));
    }
    let passed = report.checks.iter().filter(|c| c.passed).count();
    let score: f64 = report
        .checks
        .iter()
        .filter(|c| c.passed)
        .map(|c| weight_of(c.line))
        .sum();
    let max = weights::max_points(ex.check.as_deref());
    s.push_str(
        &t.summary
            .replace("{passed}", &passed.to_string())
            .replace("{total}", &report.checks.len().to_string())
            .replace("{score}", &weights::round_points(score).to_string())
            .replace("{max}", &max.to_string()),
    );
    s.push('\n');
    if report.checks_passed() {
        s.push_str(t.solved);
        s.push('\n');
    }
    s
}
