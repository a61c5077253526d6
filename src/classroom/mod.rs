//! Classroom tools: grading saved work (`check`, in cudatutor's own JSON or a platform's format),
//! a hand-in report (`report`), the lesson list (`list`), validating an instructor's lesson
//! folder (`lint`) and scaffolding one (`new lesson`), and working outside the pager: exercise
//! files for your own editor (`edit`, `watch`, `hint`) and `export` / `import`. All of them run
//! exercises through [`crate::run`] exactly as the pager does, so a grade is what the learner
//! saw.

pub mod card;
pub mod export;
pub(crate) mod formats;
pub mod grade;
pub mod lint;
pub mod list;
pub(crate) mod quiz;
pub mod report;
pub mod scaffold;
pub(crate) mod watch;
pub(crate) mod weights;
pub mod workfile;

pub use grade::{ExerciseGrade, GradeStatus, grade_catalog};
