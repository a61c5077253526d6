//! `cudatutor list`: the lessons with their number, title and progress.

use super::Globals;
use super::learner::Learner;
use super::output::emit;
use std::process::ExitCode;

pub fn run(globals: &Globals) -> anyhow::Result<ExitCode> {
    let learner = super::or_exit!(Learner::load(globals, false));
    emit(&crate::classroom::list::list_text(
        &learner.catalog,
        &learner.progress,
        globals.lang,
    ))?;
    Ok(ExitCode::SUCCESS)
}
