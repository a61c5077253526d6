//! `cudatutor lint DIR`: everything wrong with a lesson folder, each with file:line.
//!
//! Beyond what the loader rejects, every exercise must be honest: it has checks, each with a
//! message (the learner sees the message, never the check's source); its solution passes them;
//! its starting code does not (an exercise that already passes teaches nothing); every
//! ```` ```python wrong ```` fix fails them (a check that lets a known wrong fix through is a
//! bug); and an exercise that asks for a prediction has a solution that makes one.

use super::grade::{self, GradeStatus, Source};
use crate::lesson::{Catalog, Exercise, Lesson, LessonError};
use crate::progress::Progress;
use crate::run::RunOptions;
use crate::run::checks::split_checks;
use std::path::Path;

/// All problems found, in file order; empty means the folder is fine.
pub fn lint_dir(dir: &Path, opts: &RunOptions) -> Vec<LessonError> {
    lint_dir_with(dir, opts, false)
}

/// [`lint_dir`], and with `strict` also [`strict_problems`].
pub fn lint_dir_with(dir: &Path, opts: &RunOptions, strict: bool) -> Vec<LessonError> {
    let catalog = match Catalog::from_dir(dir) {
        Ok(c) => c,
        Err(errors) => return errors,
    };
    let mut problems = lint_catalog(&catalog, opts);
    if strict {
        problems.extend(strict_problems(&catalog));
        problems.sort_by(|a, b| (&a.file, a.line).cmp(&(&b.file, b.line)));
    }
    problems
}

/// What `lint --strict` adds to plain lint (which already asks for a message on every assert):
/// every exercise needs at least one ```` ```python wrong ```` block, since the checks are only
/// known to catch a wrong fix someone wrote down.
pub fn strict_problems(catalog: &Catalog) -> Vec<LessonError> {
    let mut problems = Vec::new();
    for lesson in &catalog.lessons {
        for ex in &lesson.exercises {
            if ex.wrongs.is_empty() {
                problems.push(LessonError {
                    file: lesson.source_name.clone(),
                    line: ex.line,
                    message: format!(
                        "exercise `{}`: has no ```python wrong``` block (--strict: write down at least one plausible wrong fix; lint checks that the checks fail it)",
                        ex.id
                    ),
                });
            }
        }
    }
    problems
}

pub fn lint_catalog(catalog: &Catalog, opts: &RunOptions) -> Vec<LessonError> {
    let mut problems = Vec::new();
    let progress = Progress::default();
    let solutions = grade::grade_catalog(catalog, None, &progress, Source::Solution, opts);
    let starts = grade::grade_catalog(catalog, None, &progress, Source::Start, opts);
    let mut graded = solutions.iter().zip(&starts);
    for lesson in &catalog.lessons {
        for ex in &lesson.exercises {
            let Some((solved, started)) = graded.next() else {
                break;
            };
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
