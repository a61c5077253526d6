//! `cudatutor report`: the learner's progress and results, for handing in.

use super::grade::{ExerciseGrade, GradeStatus};
use crate::lesson::Catalog;
use crate::progress::Progress;
use serde::Serialize;

#[derive(Debug, Serialize)]
pub struct Report<'a> {
    pub schema: u32,
    pub cudatutor_version: &'static str,
    pub lessons: Vec<LessonSummary>,
    pub exercises: &'a [ExerciseGrade],
}

#[derive(Debug, Serialize)]
pub struct LessonSummary {
    pub lesson: usize,
    pub id: String,
    pub title: String,
    pub exercises_passed: usize,
    pub exercises_total: usize,
    pub quizzes_answered_correctly: usize,
    pub quizzes_total: usize,
}

pub fn build<'a>(
    catalog: &Catalog,
    progress: &Progress,
    grades: &'a [ExerciseGrade],
) -> Report<'a> {
    let lessons = catalog
        .lessons
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let mine = grades.iter().filter(|g| g.lesson == i + 1);
            let quizzes_answered_correctly = l
                .quizzes
                .iter()
                .enumerate()
                .filter(|(q, quiz)| {
                    progress
                        .quizzes
                        .get(&crate::progress::quiz_key(&l.id, q + 1))
                        .is_some_and(|a| a.answer == quiz.answer)
                })
                .count();
            LessonSummary {
                lesson: i + 1,
                id: l.id.clone(),
                title: l.title.clone(),
                exercises_passed: mine.filter(|g| g.status == GradeStatus::Passed).count(),
                exercises_total: l.exercises.len(),
                quizzes_answered_correctly,
                quizzes_total: l.quizzes.len(),
            }
        })
        .collect();
    Report {
        schema: 1,
        cudatutor_version: env!("CARGO_PKG_VERSION"),
        lessons,
        exercises: grades,
    }
}

pub fn render_markdown(report: &Report) -> String {
    let mut s = String::from("# cudatutor progress report\n\n");
    s.push_str("| lesson | title | exercises passed | quizzes correct |\n|---|---|---|---|\n");
    for l in &report.lessons {
        s.push_str(&format!(
            "| {} | {} | {}/{} | {}/{} |\n",
            l.lesson,
            l.title.replace('|', "\\|"),
            l.exercises_passed,
            l.exercises_total,
            l.quizzes_answered_correctly,
            l.quizzes_total
        ));
    }
    s.push_str("\n## Exercises\n\n| lesson | exercise | result | first failing check |\n|---|---|---|---|\n");
    for g in report.exercises {
        s.push_str(&format!(
            "| {} | `{}` | {} | {} |\n",
            g.lesson,
            g.exercise,
            g.status.label(),
            g.first_failure
                .as_deref()
                .unwrap_or("")
                .replace('|', "\\|")
                .replace('\n', " ")
        ));
    }
    s
}
