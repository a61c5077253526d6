//! `cudatutor import [DIR]`: the .py files `export` wrote, read back as the saved code.

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

/// Exit 0 when every file was read, 1 when some were not or none was there to read (nothing
/// imported), 2 when the folder could not be used.
pub fn run(args: Args, globals: &Globals) -> anyhow::Result<ExitCode> {
    let (learner, store) = super::or_exit!(Learner::load_saving(globals));
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
    let mut said = imported.render(dir, globals.lang);
    // Nothing imported: no exercise file where export puts them (a wrong folder), or none
    // changed while a .py file lies elsewhere (a misplaced file, which is not read).
    let nothing = imported.changed.is_empty()
        && (imported.unchanged.is_empty() || !imported.unknown.is_empty());
    if nothing {
        let words = classroom::card::card_text(globals.lang);
        said.push_str(&format!(
            "{}\n",
            words
                .imported_nothing
                .replace("{dir}", &dir.display().to_string())
        ));
    }
    emit(&said)?;
    Ok(super::status(imported.errors.is_empty() && !nothing))
}
