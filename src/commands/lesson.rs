//! `cudatutor lesson N` and `cudatutor` alone: the pager, at lesson N or where the learner
//! stopped.

use super::Globals;
use super::learner::Learner;
use crate::run::RunOptions;
use crate::ui::{self, App, EngineRunner, Theme};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// A number such as 3, or an id such as device-asserts.
    which: String,
    /// Open it at this section: its heading (`"Labels out of range"`) or its slug
    /// (`labels-out-of-range`), as `cudatutor explain` prints them.
    #[arg(long, value_name = "HEADING")]
    section: Option<String>,
}

/// `cudatutor lesson N`: exit 2 when there is no lesson N.
pub fn run(args: Args, globals: &Globals) -> anyhow::Result<ExitCode> {
    let learner = super::or_exit!(Learner::load(globals, true));
    match learner.catalog.find(&args.which) {
        Some(index) => open_pager(globals, learner, Some(index), args.section.as_deref()),
        None => learner.no_lesson(&args.which, globals),
    }
}

/// `cudatutor` with no subcommand: the pager where the learner stopped.
pub fn resume(globals: &Globals) -> anyhow::Result<ExitCode> {
    match Learner::load(globals, true) {
        Ok(learner) => open_pager(globals, learner, None, None),
        Err(code) => Ok(code),
    }
}

fn open_pager(
    globals: &Globals,
    learner: Learner,
    start: Option<usize>,
    section: Option<&str>,
) -> anyhow::Result<ExitCode> {
    let opts = &globals.opts;
    let runner = EngineRunner::new(RunOptions {
        launch_blocking: false,
        ..opts.clone()
    });
    let mut app = App::new(
        learner.catalog,
        globals.lang,
        Theme::from_env(),
        learner.progress,
        start,
    )
    .with_runner(std::sync::Arc::new(runner));
    app.launch_blocking = opts.launch_blocking;
    app.status = learner.warning;
    if let (Some(index), Some(section)) = (start, section) {
        app.start_at_section(index, section);
    }
    ui::run(app, learner.store.as_ref())?;
    Ok(ExitCode::SUCCESS)
}
