//! `cudatutor lint DIR`: a lesson folder's format errors, and every exercise's solution, wrong
//! fixes and right fixes run against its checks.

use super::Globals;
use super::output::emit;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    dir: PathBuf,
    /// Also require a ```python wrong``` block and two ```python right``` blocks on every
    /// exercise.
    #[arg(long)]
    strict: bool,
    /// Each run's wall-clock limit in seconds (default 10): a loaded machine or the emulated
    /// device may need more.
    #[arg(long, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..=3600))]
    time_limit: Option<u64>,
}

/// Exit 0 when nothing is wrong, 1 on any problem.
pub fn run(args: Args, globals: &Globals) -> anyhow::Result<ExitCode> {
    let dir = &args.dir;
    let opts = crate::run::RunOptions {
        max_wall: args
            .time_limit
            .map_or(globals.opts.max_wall, std::time::Duration::from_secs),
        ..globals.opts.clone()
    };
    // One line per exercise on stderr: a big folder takes minutes, and says where it is.
    let problems =
        crate::classroom::lint::lint_dir_reporting(dir, &opts, args.strict, &mut |step| {
            eprintln!(
                "lint: {}/{} {} {}",
                step.done + 1,
                step.total,
                step.lesson,
                step.exercise
            );
        });
    let mut text: String = problems.iter().map(|p| format!("{p}\n")).collect();
    if problems.is_empty() {
        text += &format!(
            "{}: every lesson loads, every exercise's solution and right fix passes its checks and every wrong fix fails them\n",
            dir.display()
        );
        emit(&text)?;
        return Ok(ExitCode::SUCCESS);
    }
    text += &format!("{} problem(s)\n", problems.len());
    emit(&text)?;
    Ok(ExitCode::from(1))
}
