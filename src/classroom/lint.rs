//! `cudatutor lint DIR`: everything wrong with a lesson folder, each with file:line.
//!
//! Beyond what the loader rejects, every exercise must be honest: it has checks, its solution
//! passes them and its starting code does not (an exercise that already passes teaches nothing).

use super::grade::{self, GradeStatus, Source};
use crate::lesson::{Catalog, LessonError};
use crate::progress::Progress;
use crate::run::RunOptions;
use std::path::Path;

/// All problems found, in file order; empty means the folder is fine.
pub fn lint_dir(dir: &Path, opts: &RunOptions) -> Vec<LessonError> {
    let catalog = match Catalog::from_dir(dir) {
        Ok(c) => c,
        Err(errors) => return errors,
    };
    lint_catalog(&catalog, opts)
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
            let at = |message: String| LessonError {
                file: lesson.source_name.clone(),
                line: ex.line,
                message: format!("exercise `{}`: {message}", ex.id),
            };
            if ex.check.is_none() {
                problems.push(at("has no ```python check``` block".into()));
                continue;
            }
            if ex.hints.is_empty() {
                problems.push(at("has no ```hint``` block".into()));
            }
            match &ex.solution {
                None => problems.push(at("has no ```python solution``` block".into())),
                Some(_) if solved.status != GradeStatus::Passed => problems.push(at(format!(
                    "its solution does not pass its checks ({})",
                    solved
                        .first_failure
                        .clone()
                        .or_else(|| solved.error.clone())
                        .unwrap_or_default()
                ))),
                Some(_) => {}
            }
            if started.status == GradeStatus::Passed {
                problems.push(at(
                    "its starting code already passes its checks: the checks cannot tell a fix from no fix".into(),
                ));
            }
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
