//! Classroom tools: grading saved work (`check`), a hand-in report (`report`), the lesson list
//! (`list`) and validating an instructor's lesson folder (`lint`). All of them run exercises
//! through [`crate::run`] exactly as the pager does, so a grade is what the learner saw.

pub mod grade;
pub mod lint;
pub mod list;
pub mod report;

pub use grade::{ExerciseGrade, GradeStatus, grade_catalog};
