//! `cudatutor import [DIR]`: the .py files `export` wrote, read back as the saved code.

use super::Globals;
use super::learner::{Learner, no_data_folder};
use super::output::emit;
use crate::classroom;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    #[arg(default_value = classroom::export::DEFAULT_DIR)]
    dir: PathBuf,
}

/// Exit 0 when every file was read, 1 when some were not, 2 when nothing could be.
pub fn run(args: Args, globals: &Globals) -> anyhow::Result<ExitCode> {
    let learner = match Learner::load(globals, false) {
        Ok(l) => l,
        Err(code) => return Ok(code),
    };
    let Some(store) = &learner.store else {
        return Ok(no_data_folder());
    };
    let dir = &args.dir;
    if !dir.is_dir() {
        return Ok(super::usage_error(format!(
            "{}: not a folder",
            dir.display()
        )));
    }
    let mut fresh = store.load().progress;
    let imported = classroom::export::import(dir, &learner.catalog, &mut fresh);
    if let Err(e) = store.save(&fresh) {
        return Ok(super::usage_error(format!("progress was not saved: {e}")));
    }
    emit(&imported.render(dir, globals.lang))?;
    Ok(super::status(imported.errors.is_empty()))
}
