//! `cudatutor report`: progress and results for handing in.

use super::Globals;
use super::learner::Learner;
use super::output::emit;
use crate::classroom::{self, grade};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    #[arg(long, value_enum, default_value = "md")]
    format: Format,
    /// Write to this file instead of stdout.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Format {
    Md,
    Json,
}

pub fn run(args: Args, globals: &Globals) -> anyhow::Result<ExitCode> {
    let learner = super::or_exit!(Learner::load(globals, false));
    let (catalog, progress) = (&learner.catalog, &learner.progress);
    let grades = grade::grade_catalog(catalog, None, progress, grade::Source::Saved, &globals.opts);
    let report = classroom::report::build(catalog, progress, &grades);
    let text = match args.format {
        Format::Md => classroom::report::render_markdown(&report),
        Format::Json => serde_json::to_string_pretty(&report)? + "\n",
    };
    match &args.out {
        Some(path) => {
            if let Err(e) = std::fs::write(path, text) {
                return Ok(super::usage_error(format!(
                    "cannot write {}: {e}",
                    path.display()
                )));
            }
        }
        None => emit(&text)?,
    }
    Ok(ExitCode::SUCCESS)
}
