//! Every subcommand of the `cudatutor` binary, one module each: its clap arguments and its
//! `run`, which does the work through the library and returns the exit status. main.rs only
//! parses the command line and dispatches here.
//!
//! Exit statuses: 0 success; 1 the command's "no" (a check failed, a script raised, the reports
//! differ); 2 usage or I/O errors (`cudatutor: …` on stderr); 141 when stdout's reader went
//! away (see [`output`]).

pub mod answer;
pub mod check;
pub mod diff;
pub mod doctor;
pub mod edit;
pub(crate) mod engine_args;
pub mod explain;
pub mod export;
pub mod hint;
pub mod import;
pub(crate) mod learner;
pub mod lesson;
pub mod lint;
pub mod list;
pub mod new;
pub mod output;
pub mod quiz;
pub mod report;
pub mod run;
pub mod selftest;
pub(crate) mod size;
pub mod watch;
pub mod worker;

pub use engine_args::EngineArgs;

use crate::lesson::Lang;
use crate::run::RunOptions;
use std::path::PathBuf;
use std::process::ExitCode;

/// What every subcommand gets besides its own arguments: the global options.
pub struct Globals {
    /// `--lessons DIR`: an instructor's lessons instead of the built-in ones.
    pub lessons: Option<PathBuf>,
    /// `--lang`, else the environment's.
    pub lang: Lang,
    /// How scripts and exercises run (`--backend`, `--gpus`, …).
    pub opts: RunOptions,
}

/// The value of a loaded `Result<T, ExitCode>`, or else the command returns `Ok` of that exit
/// status: the loaders of [`learner`] say the problem themselves (a broken lesson set, an
/// unknown lesson, no data folder), so nothing is left to do.
macro_rules! or_exit {
    ($loaded:expr) => {
        match $loaded {
            Ok(value) => value,
            Err(code) => return Ok(code),
        }
    };
}
pub(crate) use or_exit;

/// Says `message` on stderr as `cudatutor: <message>` and gives the usage/I-O status, 2.
pub(crate) fn usage_error(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("cudatutor: {message}");
    ExitCode::from(2)
}

/// 0 when `ok`, else 1.
pub fn status(ok: bool) -> ExitCode {
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
