//! `cudatutor watch [EXERCISE]`: re-runs an exercise and its checks each time its file is
//! saved.

use super::Globals;
use super::learner::Learner;
use crate::classroom;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    exercise: Option<String>,
    /// No file events: press Enter after each save (for file systems without them, as on
    /// WSL2 with files under /mnt).
    #[arg(long)]
    manual_run: bool,
}

pub fn run(args: Args, globals: &Globals) -> anyhow::Result<ExitCode> {
    let (learner, store) = super::or_exit!(Learner::load_saving(globals));
    let settings = classroom::watch::WatchSettings {
        exercise: args.exercise.as_deref(),
        manual: args.manual_run,
        lang: globals.lang,
        opts: &globals.opts,
    };
    let mut out = std::io::stdout();
    match classroom::watch::watch(&learner.catalog, &store, &settings, &mut out) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(message) => Ok(super::usage_error(message)),
    }
}
