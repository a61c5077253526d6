//! `cudatutor __worker` (hidden): the isolated GPU worker, line-delimited JSON on stdin and
//! stdout (see run/worker.rs).

use std::process::ExitCode;

pub fn run() -> ExitCode {
    ExitCode::from(crate::run::worker::serve_process())
}
