//! Grading: run each exercise's saved code (or its solution) against its checks.

use crate::lesson::{Catalog, Exercise, Lesson};
use crate::progress::Progress;
use crate::run::{self, RunOptions, RunReport};
use serde::Serialize;

/// Which code of each exercise is graded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The learner's saved edit (`not_started` when there is none).
    Saved,
    /// The lesson's own solution (`check --solutions`, for authors and CI).
    Solution,
    /// The starting code (lint: it must fail its checks).
    Start,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GradeStatus {
    Passed,
    Failed,
    NotStarted,
}

impl GradeStatus {
    pub fn label(self) -> &'static str {
        match self {
            GradeStatus::Passed => "passed",
            GradeStatus::Failed => "failed",
            GradeStatus::NotStarted => "not started",
        }
    }
}

/// One graded exercise: the stable JSON schema of `check --json` (docs/classroom.md).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExerciseGrade {
    /// Schema version of this object.
    pub schema: u32,
    /// 1-based lesson number in the catalog.
    pub lesson: usize,
    pub lesson_id: String,
    pub exercise: String,
    pub status: GradeStatus,
    pub checks_passed: usize,
    pub checks_total: usize,
    /// The first failing check's message (or the error that stopped the checks).
    pub first_failure: Option<String>,
    /// The exercise's own uncaught exception, `Type: message`, if it raised.
    pub error: Option<String>,
    pub backend: String,
}

pub const SCHEMA_VERSION: u32 = 1;

/// The first failing check's message, or why there are no passing checks.
pub fn first_failure(report: &RunReport) -> Option<String> {
    if let Some(c) = report.checks.iter().find(|c| !c.passed) {
        let what = c
            .message
            .clone()
            .unwrap_or_else(|| "assertion failed".into());
        return Some(format!("check line {}: {what}", c.line));
    }
    if report.checks.is_empty() {
        return Some("the exercise has no checks".into());
    }
    None
}

/// Grades one exercise. `None` code means the learner has not started it.
pub fn grade_one(
    lesson_no: usize,
    lesson: &Lesson,
    ex: &Exercise,
    code: Option<&str>,
    opts: &RunOptions,
) -> ExerciseGrade {
    let mut grade = ExerciseGrade {
        schema: SCHEMA_VERSION,
        lesson: lesson_no,
        lesson_id: lesson.id.clone(),
        exercise: ex.id.clone(),
        status: GradeStatus::NotStarted,
        checks_passed: 0,
        checks_total: 0,
        first_failure: None,
        error: None,
        backend: String::new(),
    };
    let Some(code) = code else {
        return grade;
    };
    let opts = RunOptions {
        gpus: opts.gpus.max(ex.gpus),
        ..opts.clone()
    };
    let report = run::run_exercise(code, ex.check.as_deref(), &opts);
    grade.backend = report.backend.clone();
    grade.checks_total = report.checks.len();
    grade.checks_passed = report.checks.iter().filter(|c| c.passed).count();
    grade.error = report.error.as_ref().map(|e| {
        crate::script::errors::final_line(&e.type_name, e.message.lines().next().unwrap_or(""))
    });
    grade.status = if report.checks_passed() {
        GradeStatus::Passed
    } else {
        GradeStatus::Failed
    };
    grade.first_failure = first_failure(&report);
    grade
}

/// Grades every exercise of the given lessons (all when `only` is None).
pub fn grade_catalog(
    catalog: &Catalog,
    only: Option<usize>,
    progress: &Progress,
    source: Source,
    opts: &RunOptions,
) -> Vec<ExerciseGrade> {
    let mut out = Vec::new();
    for (i, lesson) in catalog.lessons.iter().enumerate() {
        if only.is_some_and(|o| o != i) {
            continue;
        }
        for ex in &lesson.exercises {
            let code = match source {
                Source::Saved => progress
                    .exercises
                    .get(&ex.id)
                    .and_then(|s| s.code.as_deref()),
                Source::Solution => ex.solution.as_deref(),
                Source::Start => Some(ex.start_code.as_str()),
            };
            out.push(grade_one(i + 1, lesson, ex, code, opts));
        }
    }
    out
}

/// `check`'s exit rule: every attempted exercise passed (not-started ones do not fail).
pub fn all_attempted_pass(grades: &[ExerciseGrade]) -> bool {
    grades.iter().all(|g| g.status != GradeStatus::Failed)
}

/// The human table `check` prints.
pub fn render_table(grades: &[ExerciseGrade]) -> String {
    use unicode_width::UnicodeWidthStr;
    let id_w = grades
        .iter()
        .map(|g| g.exercise.width())
        .chain(std::iter::once("exercise".len()))
        .max()
        .unwrap_or(8);
    let mut s = format!(
        "{:<6}  {:<id_w$}  {:<11}  {}\n",
        "lesson", "exercise", "result", "first failing check"
    );
    for g in grades {
        let pad = id_w.saturating_sub(g.exercise.width());
        s.push_str(&format!(
            "{:<6}  {}{}  {:<11}  {}\n",
            g.lesson,
            g.exercise,
            " ".repeat(pad),
            g.status.label(),
            g.first_failure.as_deref().unwrap_or("")
        ));
    }
    let passed = grades
        .iter()
        .filter(|g| g.status == GradeStatus::Passed)
        .count();
    let failed = grades
        .iter()
        .filter(|g| g.status == GradeStatus::Failed)
        .count();
    let not_started = grades.len() - passed - failed;
    s.push_str(&format!(
        "\n{passed} passed, {failed} failed, {not_started} not started\n"
    ));
    s
}

/// `check --json`: one JSON object per exercise, one per line (easy to concatenate over a class).
pub fn render_json_lines(grades: &[ExerciseGrade]) -> String {
    grades
        .iter()
        .filter_map(|g| serde_json::to_string(g).ok())
        .map(|l| l + "\n")
        .collect()
}
