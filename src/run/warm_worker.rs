//! One GPU worker kept warm for the whole process: the pager, `watch` and `check --all` run
//! exercise after exercise, and each run used to start a worker process of its own (process
//! start, the driver's cuInit and the CUDA context, every time). Runs now go to the worker a
//! previous run left, which [`WorkerClient`] restarts by itself after a crash, a timeout, a
//! cancel or a poisoned context. A run that finds the warm worker busy (another thread's run)
//! gets a worker of its own for that run, so runs never wait for each other here.

use super::worker::WorkerClient;
use super::{RunOptions, RunReport};
use std::sync::{Mutex, TryLockError};

struct Warm {
    client: Option<WorkerClient>,
    /// The worker executable (None: this one, as [`WorkerClient::new`]).
    program: Option<std::path::PathBuf>,
}

static WARM: Mutex<Warm> = Mutex::new(Warm {
    client: None,
    program: None,
});

/// The program [`use_program`] set, readable while [`WARM`] is held by a run: a run that
/// finds the warm worker busy starts its own worker of the same program.
static PROGRAM: Mutex<Option<std::path::PathBuf>> = Mutex::new(None);

fn chosen_program() -> Option<std::path::PathBuf> {
    match PROGRAM.lock() {
        Ok(p) => p.clone(),
        Err(p) => p.into_inner().clone(),
    }
}

fn new_client(program: &Option<std::path::PathBuf>) -> std::io::Result<WorkerClient> {
    match program {
        Some(p) => Ok(WorkerClient::with_program(p.clone())),
        None => WorkerClient::new(),
    }
}

/// Runs the exercise on the warm worker (starting it at the first run).
pub fn run(code: &str, check: Option<&str>, opts: &RunOptions) -> RunReport {
    let mut warm = match WARM.try_lock() {
        Ok(w) => w,
        Err(TryLockError::Poisoned(p)) => p.into_inner(),
        Err(TryLockError::WouldBlock) => {
            // another thread's run holds it: this run takes a worker of its own (of the
            // program the warm one runs)
            let program = chosen_program();
            return match new_client(&program) {
                Ok(mut c) => c.run(code, check, opts),
                Err(e) => {
                    super::worker::failed_report(&format!("the GPU worker could not start: {e}"))
                }
            };
        }
    };
    if warm.client.is_none() {
        match new_client(&warm.program) {
            Ok(c) => warm.client = Some(c),
            Err(e) => {
                return super::worker::failed_report(&format!(
                    "the GPU worker could not start: {e}"
                ));
            }
        }
    }
    match warm.client.as_mut() {
        Some(c) => c.run(code, check, opts),
        None => super::worker::failed_report("the GPU worker could not start"),
    }
}

/// Stops the warm worker (and removes its log): called when the command ends.
pub fn release() {
    let mut warm = match WARM.lock() {
        Ok(w) => w,
        Err(p) => p.into_inner(),
    };
    warm.client = None;
}

/// Makes the warm worker run `program` (tests: the cudatutor binary, not the test's own).
pub fn use_program(program: std::path::PathBuf) {
    let mut warm = match WARM.lock() {
        Ok(w) => w,
        Err(p) => p.into_inner(),
    };
    warm.client = None;
    warm.program = Some(program.clone());
    match PROGRAM.lock() {
        Ok(mut p) => *p = Some(program),
        Err(p) => *p.into_inner() = Some(program),
    }
}

/// The warm worker's process id, while one runs.
pub fn pid() -> Option<u32> {
    let warm = match WARM.lock() {
        Ok(w) => w,
        Err(p) => p.into_inner(),
    };
    warm.client.as_ref().and_then(WorkerClient::worker_pid)
}
