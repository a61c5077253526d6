//! `cudatutor lint DIR`: a lesson folder's format errors, and every exercise's solution and
//! wrong fixes run against its checks.

use super::Globals;
use super::output::emit;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    dir: PathBuf,
    /// Also require a ```python wrong``` block on every exercise.
    #[arg(long)]
    strict: bool,
}

/// Exit 0 when nothing is wrong, 1 on any problem.
pub fn run(args: Args, globals: &Globals) -> anyhow::Result<ExitCode> {
    let dir = &args.dir;
    let problems = crate::classroom::lint::lint_dir_with(dir, &globals.opts, args.strict);
    let mut text: String = problems.iter().map(|p| format!("{p}\n")).collect();
    if problems.is_empty() {
        text += &format!(
            "{}: every lesson loads, every exercise's solution passes its checks and every wrong fix fails them\n",
            dir.display()
        );
        emit(&text)?;
        return Ok(ExitCode::SUCCESS);
    }
    text += &format!("{} problem(s)\n", problems.len());
    emit(&text)?;
    Ok(ExitCode::from(1))
}
