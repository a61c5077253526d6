//! `cudatutor report`: the learner's progress and results, for handing in.

use super::grade::{ExerciseGrade, GradeStatus};
use super::weights::round_points;
use crate::lesson::Catalog;
use crate::progress::Progress;
use serde::Serialize;

#[derive(Debug, Serialize)]
pub struct Report<'a> {
    pub schema: u32,
    pub cudatutor_version: &'static str,
    pub lessons: Vec<LessonSummary>,
    pub exercises: &'a [ExerciseGrade],
    /// Points over every exercise (partial credit, docs/classroom.md).
    pub score: f64,
    pub max_score: f64,
    /// How the learner worked on each exercise, in catalog order (added after schema 1's
    /// first fields).
    pub activity: Vec<ExerciseActivity>,
}

/// Attempts, hints and time to pass of one exercise, from progress.
#[derive(Debug, Serialize)]
pub struct ExerciseActivity {
    pub exercise: String,
    /// Graded runs (pager, `watch`, `edit`).
    pub attempts: u32,
    pub hints_revealed: u32,
    pub hints_total: usize,
    /// Attempts it took to pass the first time (None: never passed).
    pub attempts_to_pass: Option<u32>,
    /// Seconds from the first graded run to the first pass.
    pub seconds_to_pass: Option<u64>,
    /// The learner opened the solution in the pager.
    pub solution_viewed: bool,
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
    let activity = catalog
        .lessons
        .iter()
        .flat_map(|l| &l.exercises)
        .map(|ex| {
            let stats = progress.stats.get(&ex.id).cloned().unwrap_or_default();
            ExerciseActivity {
                exercise: ex.id.clone(),
                attempts: stats.attempts,
                hints_revealed: stats.hints_revealed,
                hints_total: ex.hints.len(),
                attempts_to_pass: stats.attempts_to_pass,
                seconds_to_pass: stats.time_to_pass(),
                solution_viewed: stats.solution_viewed,
            }
        })
        .collect();
    Report {
        schema: 1,
        cudatutor_version: env!("CARGO_PKG_VERSION"),
        lessons,
        exercises: grades,
        score: round_points(grades.iter().map(|g| g.score).sum()),
        max_score: round_points(grades.iter().map(|g| g.max_score).sum()),
        activity,
    }
}

pub(crate) fn render_markdown(report: &Report) -> String {
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
    s.push_str(&format!(
        "\nPoints: {} of {} (partial credit per check)\n",
        report.score, report.max_score
    ));
    s.push_str("\n## Exercises\n\n| lesson | exercise | result | points | attempts | hints | time to pass | first failing check |\n|---|---|---|---|---|---|---|---|\n");
    for g in report.exercises {
        let activity = report.activity.iter().find(|a| a.exercise == g.exercise);
        let attempts = activity.map_or(0, |a| a.attempts);
        let hints = activity.map_or(String::new(), |a| {
            let solution = if a.solution_viewed {
                ", solution seen"
            } else {
                ""
            };
            format!("{}/{}{solution}", a.hints_revealed, a.hints_total)
        });
        let time = activity
            .and_then(|a| {
                a.seconds_to_pass
                    .map(|t| (t, a.attempts_to_pass.unwrap_or(0)))
            })
            .map_or("–".to_string(), |(t, n)| {
                format!(
                    "{} ({n} attempt{})",
                    duration_text(t),
                    if n == 1 { "" } else { "s" }
                )
            });
        s.push_str(&format!(
            "| {} | `{}` | {} | {}/{} | {attempts} | {hints} | {time} | {} |\n",
            g.lesson,
            g.exercise,
            g.status.label(),
            g.score,
            g.max_score,
            g.first_failure
                .as_deref()
                .unwrap_or("")
                .replace('|', "\\|")
                .replace('\n', " ")
        ));
    }
    s
}

/// `42 s`, `3 min 5 s`, `2 h 10 min`.
pub(crate) fn duration_text(seconds: u64) -> String {
    match seconds {
        s if s < 60 => format!("{s} s"),
        s if s < 3600 => format!("{} min {} s", s / 60, s % 60),
        s => format!("{} h {} min", s / 3600, (s % 3600) / 60),
    }
}
