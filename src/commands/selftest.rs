//! `cudatutor __selftest` (hidden): the cuda self-test on GPU 0, in a process of its own (it
//! poisons its context).

use std::process::ExitCode;

pub fn run() -> ExitCode {
    ExitCode::from(crate::run::cuda_selftest_process())
}
