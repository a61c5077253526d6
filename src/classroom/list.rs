//! `cudatutor list`: the lessons with their progress, and the words `list` and `check` print,
//! in the learner's language.

use crate::lesson::{Catalog, Lang};
use crate::progress::Progress;
use unicode_width::UnicodeWidthStr;

/// The fixed words of `list` and `check` in one language.
pub(crate) struct ClassroomText {
    /// `list`: after `done/total`.
    pub exercises: &'static str,
    /// `check` table headers: lesson, exercise, result, first failing check.
    pub headers: [&'static str; 4],
    pub passed: &'static str,
    pub failed: &'static str,
    pub not_started: &'static str,
    /// `check` summary: `{passed}`, `{failed}`, `{not_started}`.
    pub summary: &'static str,
    /// A failing check in the table: `{line}`, `{message}`.
    pub check_line: &'static str,
    /// The one result of a submission that is the exercise's starting code, unchanged.
    pub starting_code: &'static str,
    /// The one result of a submission with no code at all (empty, or only comments).
    pub no_code: &'static str,
}

const EN: ClassroomText = ClassroomText {
    exercises: "exercises",
    headers: ["lesson", "exercise", "result", "first failing check"],
    passed: "passed",
    failed: "failed",
    not_started: "not started",
    summary: "{passed} passed, {failed} failed, {not_started} not started",
    check_line: "check line {line}: {message}",
    starting_code: "this is the exercise's starting code, unchanged: nothing to grade yet",
    no_code: "the submitted file holds no code: nothing to grade",
};

const ZH: ClassroomText = ClassroomText {
    exercises: "个练习",
    headers: ["课", "练习", "结果", "第一个未通过的检查"],
    passed: "通过",
    failed: "未通过",
    not_started: "未开始",
    summary: "{passed} 个通过，{failed} 个未通过，{not_started} 个未开始",
    check_line: "检查第 {line} 行：{message}",
    starting_code: "这是练习的初始代码，没有任何修改：还没有可评分的内容",
    no_code: "提交的文件里没有代码：没有可评分的内容",
};

pub(crate) fn classroom_text(lang: Lang) -> &'static ClassroomText {
    lang.pick(&EN, &ZH)
}

/// One line per lesson: ✓ when every exercise passes (by [`Progress::passed`], the same ✓ the
/// pager and `report` show), its number, title, exercises passed and id.
pub fn list_text(catalog: &Catalog, progress: &Progress, lang: Lang) -> String {
    let words = classroom_text(lang);
    let mut text = String::new();
    let title_width = catalog
        .lessons
        .iter()
        .map(|l| l.title.width())
        .max()
        .unwrap_or(0);
    for (i, lesson) in catalog.lessons.iter().enumerate() {
        let total = lesson.exercises.len();
        let done = lesson
            .exercises
            .iter()
            .filter(|e| progress.passed(e))
            .count();
        let mark = if total > 0 && done == total {
            "✓"
        } else {
            " "
        };
        // Pad by display width so Chinese titles line up too.
        let pad = title_width.saturating_sub(lesson.title.width());
        text += &format!(
            "{mark} {}  {}{}  {done}/{total} {}  ({})\n",
            i + 1,
            lesson.title,
            " ".repeat(pad),
            words.exercises,
            lesson.id
        );
    }
    text
}
