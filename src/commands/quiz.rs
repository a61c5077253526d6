//! `cudatutor quiz LESSON`: a lesson's quizzes, each with its numbered choices and the
//! learner's first answer.

use super::Globals;
use super::learner::Learner;
use super::output::emit;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// A number such as 3, or an id such as device-asserts.
    lesson: String,
}

pub fn run(args: Args, globals: &Globals) -> anyhow::Result<ExitCode> {
    let (learner, i) = super::or_exit!(Learner::load_lesson(globals, &args.lesson)?);
    emit(&crate::classroom::quiz::render_quizzes(
        &learner.catalog.lessons[i],
        i + 1,
        &learner.progress,
        globals.lang,
    ))?;
    Ok(ExitCode::SUCCESS)
}
