//! `cudatutor check`: grades saved work (or the lessons' solutions) against each exercise's
//! checks.

use super::Globals;
use super::learner::{Learner, no_exercise};
use super::output::emit;
use crate::classroom::formats::GradeFormat;
use crate::classroom::{self, grade};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Only this lesson (number or id).
    lesson: Option<String>,
    /// Every lesson (the default when no lesson is named).
    #[arg(long)]
    all: bool,
    /// One JSON object per exercise, one per line (the same as --format json).
    #[arg(long)]
    json: bool,
    /// text: a table; json: cudatutor's schema; github / exercism / gradescope: the result
    /// files those platforms read (docs/classroom.md).
    #[arg(long, value_enum, default_value = "text")]
    format: GradeFormat,
    /// Grade the lessons' own solutions instead of saved work (for authors and CI).
    #[arg(long)]
    solutions: bool,
    /// Only this exercise (its id), e.g. for a per-exercise runner such as Exercism's.
    #[arg(long, value_name = "ID", conflicts_with = "lesson")]
    exercise: Option<String>,
}

/// Exit 0 when every attempted exercise passes, 1 otherwise, 2 when the backend cannot run here.
pub fn run(args: Args, globals: &Globals) -> anyhow::Result<ExitCode> {
    // `--backend cuda` (or emulated, or pytorch) where it cannot run: one message and exit
    // 2, as `run` does, instead of every exercise graded as failed
    if let Err(message) = crate::run::backend_available(&globals.opts) {
        return Ok(super::usage_error(message));
    }
    let learner = super::or_exit!(Learner::load(globals, false));
    let (catalog, progress, opts, lang) = (
        &learner.catalog,
        &learner.progress,
        &globals.opts,
        globals.lang,
    );
    let only = match (&args.lesson, args.all) {
        (Some(which), false) => match catalog.find(which) {
            Some(i) => Some(i),
            None => return learner.no_lesson(which, globals),
        },
        _ => None,
    };
    let source = if args.solutions {
        grade::Source::Solution
    } else {
        grade::Source::Saved
    };
    let grades = match &args.exercise {
        // `--solutions` is an author's run over a whole folder: it says where it is on stderr.
        None if args.solutions => grade::grade_catalog_reporting(
            catalog,
            only,
            progress,
            source,
            opts,
            &mut |done, total, id| {
                eprintln!("check: {}/{total} {id}", done + 1);
            },
        ),
        None => grade::grade_catalog(catalog, only, progress, source, opts),
        Some(id) => {
            let Some((i, lesson, ex)) = classroom::workfile::find_exercise(catalog, id) else {
                return Ok(no_exercise(id, globals));
            };
            vec![grade::grade_from(source, progress, i + 1, lesson, ex, opts)]
        }
    };
    let format = if args.json {
        GradeFormat::Json
    } else {
        args.format
    };
    if format == GradeFormat::Text {
        emit(&grade::render_table(&grades, lang))?;
    } else {
        emit(&classroom::formats::render(&grades, format))?;
    }
    Ok(super::status(grade::all_attempted_pass(&grades)))
}
