//! `cudatutor hint EXERCISE`: the next hint of an exercise, recorded for `report` as the
//! pager records it.

use super::Globals;
use super::learner::{Learner, no_exercise};
use super::output::emit;
use crate::classroom;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    exercise: String,
}

pub fn run(args: Args, globals: &Globals) -> anyhow::Result<ExitCode> {
    let learner = super::or_exit!(Learner::load(globals, false));
    let exercise = &args.exercise;
    let words = classroom::card::card_text(globals.lang);
    let Some((_, _, ex)) = classroom::workfile::find_exercise(&learner.catalog, exercise) else {
        return Ok(no_exercise(exercise, globals));
    };
    if ex.hints.is_empty() {
        emit(&format!("{}\n", words.no_hints))?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut progress = learner.progress.clone();
    let shown = progress
        .stats
        .get(&ex.id)
        .map_or(0, |s| s.hints_revealed as usize);
    let n = (shown + 1).min(ex.hints.len());
    progress.record_hint(&ex.id, n);
    let mut text = format!(
        "{}\n{}\n",
        words
            .hint_heading
            .replace("{n}", &n.to_string())
            .replace("{total}", &ex.hints.len().to_string()),
        ex.hints[n - 1]
    );
    if n == ex.hints.len() {
        text += &format!("{}\n", words.no_more_hints);
    }
    emit(&text)?;
    if let Some(store) = &learner.store {
        let mut fresh = store.load().progress;
        fresh.record_hint(&ex.id, n);
        if let Err(e) = store.save(&fresh) {
            eprintln!("cudatutor: progress was not saved: {e}");
        }
    }
    Ok(ExitCode::SUCCESS)
}
