//! `cudatutor export [DIR] [--force]`: every exercise as a .py file (its goal as a comment),
//! for any IDE. A file edited since the last export is kept, never overwritten, unless
//! `--force`.

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
    /// Overwrite files edited since the last export (their edits are lost unless imported).
    #[arg(long)]
    force: bool,
}

pub fn run(args: Args, globals: &Globals) -> anyhow::Result<ExitCode> {
    let learner = super::or_exit!(Learner::load(globals, false));
    let dir = &args.dir;
    match classroom::export::export(dir, &learner.catalog, &learner.progress, args.force) {
        Ok(done) => {
            let words = classroom::card::card_text(globals.lang);
            let mut said = String::new();
            for path in &done.kept {
                said.push_str(&format!(
                    "{}\n",
                    words
                        .export_kept
                        .replace("{path}", &path.display().to_string())
                        .replace("{dir}", &dir.display().to_string())
                ));
            }
            said.push_str(&format!(
                "{}\n",
                words
                    .exported
                    .replace("{n}", &done.written.len().to_string())
                    .replace("{dir}", &dir.display().to_string())
            ));
            emit(&said)?;
            // Files kept: the export did not do all it was asked (exit 1), and lost nothing.
            Ok(super::status(done.kept.is_empty()))
        }
        Err(message) => Ok(super::usage_error(message)),
    }
}
