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
    let learner = match Learner::load(globals, false) {
        Ok(l) => l,
        Err(code) => return Ok(code),
    };
    let Some(i) = learner.catalog.find(&args.lesson) else {
        return learner.no_lesson(&args.lesson, globals);
    };
    emit(&crate::classroom::quiz::render_quizzes(
        &learner.catalog.lessons[i],
        i + 1,
        &learner.progress,
        globals.lang,
    ))?;
    Ok(ExitCode::SUCCESS)
}
