//! `cudatutor answer LESSON QUIZ CHOICE`: answers a quiz; the first answer is the grade, as in
//! the pager.

use super::Globals;
use super::learner::{Learner, no_data_folder};
use super::output::emit;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// The lesson: a number such as 3, or an id such as device-asserts.
    lesson: String,
    /// The quiz's number in the lesson (1, 2, … as `cudatutor quiz` shows them).
    quiz: usize,
    /// The choice's number.
    choice: usize,
}

pub fn run(args: Args, globals: &Globals) -> anyhow::Result<ExitCode> {
    let (learner, i) = super::or_exit!(Learner::load_lesson(globals, &args.lesson)?);
    let Some(store) = &learner.store else {
        return Ok(no_data_folder());
    };
    // Read again just before the save, as `hint` does: a pager open meanwhile keeps its
    // work, and an answer given there first stays the grade.
    let mut fresh = store.load().progress;
    match crate::classroom::quiz::answer(
        &mut fresh,
        &learner.catalog.lessons[i],
        i + 1,
        args.quiz,
        args.choice,
        globals.lang,
    ) {
        Ok(text) => {
            if let Err(e) = store.save(&fresh) {
                return Ok(super::usage_error(format!("progress was not saved: {e}")));
            }
            emit(&text)?;
            Ok(ExitCode::SUCCESS)
        }
        Err(message) => Ok(super::usage_error(message)),
    }
}
