//! Grading: run each exercise's saved code (or its solution, starting code or a wrong fix)
//! against its checks.

use super::list::classroom_text;
use super::weights;
use crate::lesson::{Catalog, Exercise, Lang, Lesson};
use crate::progress::Progress;
use crate::run::{self, BackendChoice, ExerciseContext, RunOptions, RunReport};
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
    /// The English label (`check`'s table and `report` in English).
    pub fn label(self) -> &'static str {
        self.label_in(Lang::En)
    }

    pub(crate) fn label_in(self, lang: Lang) -> &'static str {
        let words = classroom_text(lang);
        match self {
            GradeStatus::Passed => words.passed,
            GradeStatus::Failed => words.failed,
            GradeStatus::NotStarted => words.not_started,
        }
    }
}

/// One graded exercise: the stable JSON schema of `check --json` (docs/classroom.md). Fields
/// are only ever added, never renamed.
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
    /// The exercise's own uncaught exception, `Type: message`, if it raised; or, when the run
    /// failed inside cudatutor, `internal error on the <backend> backend: …`.
    pub error: Option<String>,
    pub backend: String,
    /// True when the run failed inside cudatutor (a panic, a GPU worker that died): the grade
    /// says nothing about the learner's code.
    pub internal_error: bool,
    /// Every check with its message (what the learner saw), in block order.
    pub checks: Vec<CheckLine>,
    /// Partial credit: the weights of the checks that passed ([`super::weights`]); 0 when not
    /// started, on an internal error, or when the code does not parse.
    pub score: f64,
    /// What the exercise is worth: the sum of its checks' weights (each 1 unless the check
    /// block says `# weight: N`), the same whether or not it was started.
    pub max_score: f64,
    /// How long the run took (not in the JSON: it would make grades differ run to run).
    #[serde(skip)]
    pub duration: std::time::Duration,
    /// What the exercise's code printed (for the platforms' `output` fields; not in the JSON).
    #[serde(skip)]
    pub output: String,
}

/// One check of a graded exercise, as the learner saw it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CheckLine {
    /// 1-based line in the check block (0: a result about the run as a whole).
    pub line: u32,
    pub passed: bool,
    pub message: String,
    /// Its weight ([`super::weights`]; 0 for a result about the whole run).
    pub weight: f64,
}

pub(crate) const SCHEMA_VERSION: u32 = 1;

/// The first failing check's message, `check line N: message` (`check: message` for a result
/// about the whole run), or why there are no passing checks.
pub fn first_failure(report: &RunReport) -> Option<String> {
    if report.internal_error.is_some() {
        return None;
    }
    if let Some(c) = report.checks.iter().find(|c| !c.passed) {
        let what = c
            .message
            .clone()
            .unwrap_or_else(|| "assertion failed".into());
        return Some(if c.line == 0 {
            format!("check: {what}")
        } else {
            format!("check line {}: {what}", c.line)
        });
    }
    if report.checks.is_empty() {
        return Some("the exercise has no checks".into());
    }
    None
}

/// The options an exercise runs with: at least the GPUs it asks for, and its check context.
pub fn exercise_options(lesson: &Lesson, ex: &Exercise, opts: &RunOptions) -> RunOptions {
    RunOptions {
        gpus: opts.gpus.max(ex.gpus),
        exercise: ExerciseContext::of(ex, &lesson.lang),
        ..opts.clone()
    }
}

/// Runs `code` as exercise `ex`'s code against its checks.
/// On the simulated backend it runs in a child process with its own limits
/// (run/isolate.rs), so a run that aborts or is killed is a failed grade, not a lost file.
pub fn run_graded(lesson: &Lesson, ex: &Exercise, code: &str, opts: &RunOptions) -> RunReport {
    run::isolate::run_exercise_isolated(
        code,
        ex.check.as_deref(),
        &exercise_options(lesson, ex, opts),
    )
}

/// The backend a run was meant for, for a report that does not say (a worker that never
/// answered).
pub(crate) fn backend_asked(opts: &RunOptions) -> &'static str {
    match opts.backend {
        BackendChoice::Cuda => "cuda",
        BackendChoice::Sim => "sim",
        BackendChoice::Emulated => "emulated",
        BackendChoice::Pytorch => "pytorch",
        BackendChoice::Auto if run::cuda_usable_here() => "cuda",
        BackendChoice::Auto => "sim",
    }
}

/// Grades one exercise. `None` code means the learner has not started it.
pub(crate) fn grade_one(
    lesson_no: usize,
    lesson: &Lesson,
    ex: &Exercise,
    code: Option<&str>,
    opts: &RunOptions,
) -> ExerciseGrade {
    match code {
        None => not_started(lesson_no, lesson, ex),
        Some(code) => {
            let started = std::time::Instant::now();
            let report = run_graded(lesson, ex, code, opts);
            let mut grade = grade_report(lesson_no, lesson, ex, &report, backend_asked(opts));
            grade.duration = started.elapsed();
            grade
        }
    }
}

/// Grades the code of one exercise that `source` names: the learner's saved code (none: not
/// started) as a submission, or the lesson's solution or starting code as it is.
pub(crate) fn grade_from(
    source: Source,
    progress: &Progress,
    lesson_no: usize,
    lesson: &Lesson,
    ex: &Exercise,
    opts: &RunOptions,
) -> ExerciseGrade {
    let code = match source {
        Source::Saved => match progress
            .exercises
            .get(&ex.id)
            .and_then(|s| s.code.as_deref())
        {
            Some(code) => return grade_submission(lesson_no, lesson, ex, code, opts),
            None => None,
        },
        Source::Solution => ex.solution.as_deref(),
        Source::Start => Some(ex.start_code.as_str()),
    };
    grade_one(lesson_no, lesson, ex, code, opts)
}

/// Grades a learner's submission of one exercise. A submission that changes nothing (the
/// starting code as given, or a file without code) scores 0 without running: the starting
/// code may pass some checks (they show what already works), and those points are not the
/// learner's.
pub fn grade_submission(
    lesson_no: usize,
    lesson: &Lesson,
    ex: &Exercise,
    code: &str,
    opts: &RunOptions,
) -> ExerciseGrade {
    let words = classroom_text(lesson_lang(lesson));
    let why = if !has_code(code) {
        words.no_code
    } else if same_code(code, &ex.start_code) {
        words.starting_code
    } else {
        return grade_one(lesson_no, lesson, ex, Some(code), opts);
    };
    let mut grade = not_started(lesson_no, lesson, ex);
    grade.status = GradeStatus::Failed;
    grade.backend = backend_asked(opts).to_string();
    grade.checks_total = 1;
    grade.first_failure = Some(format!("check: {why}"));
    grade.checks = vec![CheckLine {
        line: 0,
        passed: false,
        message: why.to_string(),
        weight: 0.0,
    }];
    grade
}

fn lesson_lang(lesson: &Lesson) -> Lang {
    if lesson.lang == "zh" {
        Lang::Zh
    } else {
        Lang::En
    }
}

/// Whether `code` holds a statement (not only blank lines and comments).
fn has_code(code: &str) -> bool {
    code.lines().any(|l| {
        let l = l.trim();
        !l.is_empty() && !l.starts_with('#')
    })
}

/// The same code apart from trailing spaces and blank lines (what an editor may add or drop).
fn same_code(a: &str, b: &str) -> bool {
    let lines = |s: &str| -> Vec<String> {
        s.lines()
            .map(|l| l.trim_end().to_string())
            .filter(|l| !l.is_empty())
            .collect()
    };
    lines(a) == lines(b)
}

fn not_started(lesson_no: usize, lesson: &Lesson, ex: &Exercise) -> ExerciseGrade {
    ExerciseGrade {
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
        internal_error: false,
        checks: Vec::new(),
        score: 0.0,
        max_score: weights::max_points(ex.check.as_deref()),
        duration: std::time::Duration::ZERO,
        output: String::new(),
    }
}

/// The grade of one run of an exercise. A run that failed inside cudatutor is `failed` with
/// `internal_error` set and `error` naming the backend (`backend` when the report names none),
/// never "the exercise has no checks".
pub fn grade_report(
    lesson_no: usize,
    lesson: &Lesson,
    ex: &Exercise,
    report: &RunReport,
    backend: &str,
) -> ExerciseGrade {
    let mut grade = not_started(lesson_no, lesson, ex);
    grade.backend = if report.backend.is_empty() {
        backend.to_string()
    } else {
        report.backend.clone()
    };
    grade.status = if report.checks_passed() {
        GradeStatus::Passed
    } else {
        GradeStatus::Failed
    };
    if let Some(why) = &report.internal_error {
        grade.internal_error = true;
        grade.error = Some(format!(
            "internal error on the {} backend: {why}",
            grade.backend
        ));
        return grade;
    }
    grade.checks_total = report.checks.len();
    grade.checks_passed = report.checks.iter().filter(|c| c.passed).count();
    grade.error = report.error.as_ref().map(|e| {
        crate::script::errors::final_line(&e.type_name, e.message.lines().next().unwrap_or(""))
    });
    grade.first_failure = first_failure(report);
    grade.output = report.stdout.clone();
    let weight_of = weights::weight_lookup(ex.check.as_deref());
    grade.checks = report
        .checks
        .iter()
        .map(|c| CheckLine {
            line: c.line,
            passed: c.passed,
            message: c.message.clone().unwrap_or_default(),
            weight: weight_of(c.line),
        })
        .collect();
    grade.score = weights::round_points(
        grade
            .checks
            .iter()
            .filter(|c| c.passed)
            .map(|c| c.weight)
            .sum(),
    );
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
    grade_catalog_reporting(catalog, only, progress, source, opts, &mut |_, _, _| {})
}

/// [`grade_catalog`], telling `step(done, total, exercise id)` before each exercise.
pub(crate) fn grade_catalog_reporting(
    catalog: &Catalog,
    only: Option<usize>,
    progress: &Progress,
    source: Source,
    opts: &RunOptions,
    step: &mut dyn FnMut(usize, usize, &str),
) -> Vec<ExerciseGrade> {
    let mut out = Vec::new();
    let chosen = |i: usize| only.is_none_or(|o| o == i);
    let total = catalog
        .lessons
        .iter()
        .enumerate()
        .filter(|(i, _)| chosen(*i))
        .map(|(_, l)| l.exercises.len())
        .sum();
    for (i, lesson) in catalog.lessons.iter().enumerate() {
        if !chosen(i) {
            continue;
        }
        for ex in &lesson.exercises {
            step(out.len(), total, &ex.id);
            out.push(grade_from(source, progress, i + 1, lesson, ex, opts));
        }
    }
    out
}

/// `check`'s exit rule: every attempted exercise passed (not-started ones do not fail).
pub(crate) fn all_attempted_pass(grades: &[ExerciseGrade]) -> bool {
    grades.iter().all(|g| g.status != GradeStatus::Failed)
}

/// The human table `check` prints, in `lang`.
pub(crate) fn render_table(grades: &[ExerciseGrade], lang: Lang) -> String {
    use unicode_width::UnicodeWidthStr;
    let words = classroom_text(lang);
    let [h_lesson, h_exercise, h_result, h_failure] = words.headers;
    let pad_to = |s: &str, w: usize| format!("{s}{}", " ".repeat(w.saturating_sub(s.width())));
    let id_w = grades
        .iter()
        .map(|g| g.exercise.width())
        .chain(std::iter::once(h_exercise.width()))
        .max()
        .unwrap_or(8);
    let lesson_w = h_lesson.width().max(6);
    let result_w = [
        GradeStatus::Passed,
        GradeStatus::Failed,
        GradeStatus::NotStarted,
    ]
    .iter()
    .map(|s| s.label_in(lang).width())
    .chain(std::iter::once(h_result.width()))
    .max()
    .unwrap_or(11);
    let mut s = format!(
        "{}  {}  {}  {h_failure}\n",
        pad_to(h_lesson, lesson_w),
        pad_to(h_exercise, id_w),
        pad_to(h_result, result_w)
    );
    for g in grades {
        // a message may quote what the learner's code printed or raised: nothing in it may
        // drive the terminal
        let failure = localized_failure(g, lang);
        let failure = crate::lesson::terminal_text::without_controls(&failure);
        s.push_str(&format!(
            "{}  {}  {}  {failure}\n",
            pad_to(&g.lesson.to_string(), lesson_w),
            pad_to(&g.exercise, id_w),
            pad_to(g.status.label_in(lang), result_w),
        ));
    }
    let count = |status| grades.iter().filter(|g| g.status == status).count();
    let summary = words
        .summary
        .replace("{passed}", &count(GradeStatus::Passed).to_string())
        .replace("{failed}", &count(GradeStatus::Failed).to_string())
        .replace("{not_started}", &count(GradeStatus::NotStarted).to_string());
    s.push_str(&format!("\n{summary}\n"));
    s
}

/// The first failure as the table shows it: `check line N: …` in the learner's language, or
/// the internal error.
fn localized_failure(g: &ExerciseGrade, lang: Lang) -> String {
    if g.internal_error {
        return g.error.clone().unwrap_or_default();
    }
    let Some(first) = g.checks.iter().find(|c| !c.passed) else {
        return g.first_failure.clone().unwrap_or_default();
    };
    if first.line == 0 {
        return first.message.clone();
    }
    classroom_text(lang)
        .check_line
        .replace("{line}", &first.line.to_string())
        .replace("{message}", &first.message)
}

/// `check --json`: one JSON object per exercise, one per line (easy to concatenate over a class).
pub fn render_json_lines(grades: &[ExerciseGrade]) -> String {
    grades
        .iter()
        .filter_map(|g| serde_json::to_string(g).ok())
        .map(|l| l + "\n")
        .collect()
}
