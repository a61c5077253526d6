//! `cudatutor lint DIR`: everything wrong with a lesson folder, each with file:line.
//!
//! Beyond what the loader rejects, every exercise must be honest: it has checks, each with a
//! message (the learner sees the message, never the check's source); its solution passes them;
//! its starting code does not (an exercise that already passes teaches nothing); every
//! ```` ```python wrong ```` fix fails them (a check that lets a known wrong fix through is a
//! bug); every ```` ```python right ```` fix passes them and differs from the solution (a
//! check that rejects a correct fix written another way is a bug too); and an exercise that
//! asks for a prediction has a solution that makes one.

use super::grade::{self, GradeStatus};
use crate::lesson::{Catalog, Exercise, Lesson, LessonError};
use crate::run::RunOptions;
use crate::run::checks::split_checks;
use std::path::Path;

/// Where lint is: the exercise it is about to run (`done` exercises before it, of `total`).
pub(crate) struct LintStep<'a> {
    pub done: usize,
    pub total: usize,
    pub lesson: &'a str,
    pub exercise: &'a str,
}

/// All problems found in `dir`, in file order (with `strict` also [`strict_problems`]; empty means
/// the folder is fine), telling `progress` before each exercise's runs.
pub(crate) fn lint_dir_reporting(
    dir: &Path,
    opts: &RunOptions,
    strict: bool,
    progress: &mut dyn FnMut(LintStep),
) -> Vec<LessonError> {
    let catalog = match Catalog::from_dir(dir) {
        Ok(c) => c,
        Err(errors) => return errors,
    };
    let mut problems = lint_catalog_reporting(&catalog, opts, progress);
    if strict {
        problems.extend(strict_problems(&catalog));
        problems.sort_by(|a, b| (&a.file, a.line).cmp(&(&b.file, b.line)));
    }
    problems
}

/// Right blocks `lint --strict` asks of every exercise.
pub(crate) const STRICT_RIGHT_FIXES: usize = 2;

/// What `lint --strict` adds to plain lint (which already asks for a message on every assert):
/// every exercise needs at least one ```` ```python wrong ```` block, since the checks are only
/// known to catch a wrong fix someone wrote down, and at least [`STRICT_RIGHT_FIXES`]
/// ```` ```python right ```` blocks, since they are only known to accept the fixes someone
/// wrote down.
pub(crate) fn strict_problems(catalog: &Catalog) -> Vec<LessonError> {
    let mut problems = Vec::new();
    for lesson in &catalog.lessons {
        for ex in &lesson.exercises {
            let at = |message: String| LessonError {
                file: lesson.source_name.clone(),
                line: ex.line,
                message: format!("exercise `{}`: {message}", ex.id),
            };
            if ex.wrongs.is_empty() {
                problems.push(at(
                    "has no ```python wrong``` block (--strict: write down at least one plausible wrong fix; lint checks that the checks fail it)".into(),
                ));
            }
            if ex.rights.len() < STRICT_RIGHT_FIXES {
                problems.push(at(format!(
                    "has {} ```python right``` block(s) (--strict: write down at least {STRICT_RIGHT_FIXES} correct fixes that differ from the solution; lint checks that the checks pass them)",
                    ex.rights.len()
                )));
            }
        }
    }
    problems
}

/// All problems of a loaded catalog, telling `progress` before each exercise's runs.
pub(crate) fn lint_catalog_reporting(
    catalog: &Catalog,
    opts: &RunOptions,
    progress: &mut dyn FnMut(LintStep),
) -> Vec<LessonError> {
    let mut problems = Vec::new();
    let total = catalog.lessons.iter().map(|l| l.exercises.len()).sum();
    let mut done = 0;
    for (i, lesson) in catalog.lessons.iter().enumerate() {
        for ex in &lesson.exercises {
            progress(LintStep {
                done,
                total,
                lesson: &lesson.id,
                exercise: &ex.id,
            });
            done += 1;
            let solved = grade::grade_one(i + 1, lesson, ex, ex.solution.as_deref(), opts);
            let started = grade::grade_one(i + 1, lesson, ex, Some(&ex.start_code), opts);
            let at = |line: usize, message: String| LessonError {
                file: lesson.source_name.clone(),
                line,
                message: format!("exercise `{}`: {message}", ex.id),
            };
            let Some(check) = &ex.check else {
                problems.push(at(ex.line, "has no ```python check``` block".into()));
                continue;
            };
            if let Ok(statements) = split_checks(check) {
                for s in statements
                    .iter()
                    .filter(|s| s.is_assert && s.message.is_none())
                {
                    problems.push(at(
                        ex.line,
                        format!(
                            "check line {}: an assert without a message (the learner sees the message, never the check's source)",
                            s.line
                        ),
                    ));
                }
            }
            for w in super::weights::check_weights(check).1 {
                problems.push(at(ex.line, format!("check line {}: {}", w.line, w.message)));
            }
            if ex.hints.is_empty() {
                problems.push(at(ex.line, "has no ```hint``` block".into()));
            }
            match &ex.solution {
                None => problems.push(at(ex.line, "has no ```python solution``` block".into())),
                Some(_) if solved.status != GradeStatus::Passed => problems.push(at(
                    ex.line,
                    format!(
                        "its solution does not pass its checks ({})",
                        solved
                            .first_failure
                            .clone()
                            .or_else(|| solved.error.clone())
                            .unwrap_or_default()
                    ),
                )),
                Some(solution) => {
                    if !ex.predict.is_empty()
                        && grade::run_graded(lesson, ex, solution, opts).prediction_pending
                    {
                        problems.push(at(
                            ex.line,
                            format!(
                                "its solution leaves a predicted variable ({}) at its starting value",
                                ex.predict.join(", ")
                            ),
                        ));
                    }
                }
            }
            if started.status == GradeStatus::Passed {
                problems.push(at(
                    ex.line,
                    "its starting code already passes its checks: the checks cannot tell a fix from no fix".into(),
                ));
            }
            problems.extend(wrong_fixes_that_pass(lesson, ex, opts));
            problems.extend(right_fixes_that_fail(lesson, ex, opts));
            problems.extend(right_fixes_like_the_solution(lesson, ex));
        }
        for quiz in &lesson.quizzes {
            if quiz.answer == 0 || quiz.answer > quiz.choices.len() {
                problems.push(LessonError {
                    file: lesson.source_name.clone(),
                    line: quiz.line,
                    message: format!(
                        "quiz answer {} is not one of its {} choices",
                        quiz.answer,
                        quiz.choices.len()
                    ),
                });
            }
        }
    }
    problems
}

/// Every wrong block of `ex` that passes its checks, named by the block's line and reason.
pub fn wrong_fixes_that_pass(
    lesson: &Lesson,
    ex: &Exercise,
    opts: &RunOptions,
) -> Vec<LessonError> {
    ex.wrongs
        .iter()
        .filter(|w| grade::run_graded(lesson, ex, &w.code, opts).checks_passed())
        .map(|w| LessonError {
            file: lesson.source_name.clone(),
            line: w.line,
            message: format!(
                "exercise `{}`: a wrong fix passes its checks (\"{}\"): the checks cannot tell it from a fix",
                ex.id, w.reason
            ),
        })
        .collect()
}

/// Every right block of `ex` that fails its checks, named by the block's line, its note and
/// the first failing check.
pub fn right_fixes_that_fail(
    lesson: &Lesson,
    ex: &Exercise,
    opts: &RunOptions,
) -> Vec<LessonError> {
    ex.rights
        .iter()
        .filter_map(|r| {
            let report = grade::run_graded(lesson, ex, &r.code, opts);
            if report.checks_passed() {
                return None;
            }
            let why = run_failure(&report)
                .or_else(|| grade::first_failure(&report))
                .unwrap_or_default();
            Some(LessonError {
                file: lesson.source_name.clone(),
                line: r.line,
                message: format!(
                    "exercise `{}`: a right fix fails its checks (\"{}\"): {why}",
                    ex.id, r.note
                ),
            })
        })
        .collect()
}

/// Why a run has no check results at all, when it failed before its checks (a worker that
/// could not start or answer, an internal error): that, and not "the exercise has no checks",
/// is what the author needs to read.
fn run_failure(report: &crate::run::RunReport) -> Option<String> {
    if let Some(why) = &report.internal_error {
        return Some(format!("the run failed inside cudatutor: {why}"));
    }
    if !report.checks.is_empty() {
        return None;
    }
    let e = report.error.as_ref()?;
    Some(format!(
        "the run ended before its checks: {}: {}",
        e.type_name, e.message
    ))
}

/// Right blocks that are the solution again (or another right block again), comments and
/// spacing aside: they prove nothing the solution does not.
pub fn right_fixes_like_the_solution(lesson: &Lesson, ex: &Exercise) -> Vec<LessonError> {
    let mut seen: Vec<Vec<String>> = ex.solution.iter().map(|s| program_tokens(s)).collect();
    let mut problems = Vec::new();
    for r in &ex.rights {
        let tokens = program_tokens(&r.code);
        if seen.contains(&tokens) {
            problems.push(LessonError {
                file: lesson.source_name.clone(),
                line: r.line,
                message: format!(
                    "exercise `{}`: a right fix (\"{}\") is the solution or another right fix again: write the fix differently",
                    ex.id, r.note
                ),
            });
        }
        seen.push(tokens);
    }
    problems
}

/// The code's tokens without comments and line breaks that carry no meaning: the same program
/// however it is spaced or commented (empty when it does not parse).
fn program_tokens(code: &str) -> Vec<String> {
    use rustpython_ruff_python_ast::token::TokenKind;
    use rustpython_ruff_text_size::Ranged;
    let Ok(parsed) = rustpython_ruff_python_parser::parse_module(code) else {
        return vec![code.trim().to_string()];
    };
    parsed
        .tokens()
        .iter()
        .filter(|t| !matches!(t.kind(), TokenKind::Comment | TokenKind::NonLogicalNewline))
        .map(|t| {
            code.get(usize::from(t.start())..usize::from(t.end()))
                .unwrap_or_default()
                .to_string()
        })
        .collect()
}
