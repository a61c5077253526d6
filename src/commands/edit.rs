//! `cudatutor edit EXERCISE`: the exercise in the learner's own editor, then run with its
//! checks.

use super::Globals;
use super::learner::{Learner, no_exercise};
use super::output::emit;
use crate::classroom;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// The exercise id (`cudatutor export` and the pager show them), e.g. l3-one-based.
    exercise: String,
    /// The editor command, e.g. "code -w" or "vim" (GUI editors must wait: -w).
    #[arg(long, value_name = "CMD")]
    edit_cmd: Option<String>,
}

/// Exit 0 when the checks pass, 1 when not, 2 when the editor or the file failed.
pub fn run(args: Args, globals: &Globals) -> anyhow::Result<ExitCode> {
    let (learner, store) = super::or_exit!(Learner::load_saving(globals));
    let lang = globals.lang;
    let words = classroom::card::card_text(lang);
    let Some((_, lesson, ex)) =
        classroom::workfile::find_exercise(&learner.catalog, &args.exercise)
    else {
        return Ok(no_exercise(&args.exercise, globals));
    };
    match classroom::workfile::edit_and_save(
        &store,
        lesson,
        ex,
        args.edit_cmd.as_deref(),
        &globals.opts,
    ) {
        Ok(outcome) => {
            let mut text = format!("── {} ──\n", outcome.path.display());
            if !outcome.changed {
                text += &format!("{}\n", words.unchanged);
            }
            text += &classroom::card::render_run(ex, &outcome.report, lang);
            emit(&text)?;
            Ok(super::status(outcome.report.checks_passed()))
        }
        Err(message) => Ok(super::usage_error(message)),
    }
}
