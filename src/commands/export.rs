//! `cudatutor export [DIR]`: every exercise as a .py file (its goal as a comment), for any
//! IDE.

use super::Globals;
use super::learner::Learner;
use super::output::emit;
use crate::classroom;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    #[arg(default_value = classroom::export::DEFAULT_DIR)]
    dir: PathBuf,
}

pub fn run(args: Args, globals: &Globals) -> anyhow::Result<ExitCode> {
    let learner = match Learner::load(globals, false) {
        Ok(l) => l,
        Err(code) => return Ok(code),
    };
    let dir = &args.dir;
    match classroom::export::export(dir, &learner.catalog, &learner.progress) {
        Ok(files) => {
            let words = classroom::card::card_text(globals.lang);
            emit(&format!(
                "{}\n",
                words
                    .exported
                    .replace("{n}", &files.len().to_string())
                    .replace("{dir}", &dir.display().to_string())
            ))?;
            Ok(ExitCode::SUCCESS)
        }
        Err(message) => Ok(super::usage_error(message)),
    }
}
