//! The worker subprocess that isolates a real-GPU run (`cudatutor __worker`).
//!
//! A device-side assert poisons the CUDA context for the rest of the process, exactly as in
//! PyTorch. So real-GPU runs happen in a child process speaking line-delimited JSON on
//! stdin/stdout: one [`WorkerRequest`] per line in, one [`RunReport`] per line out. After a run
//! that broke its context the worker answers and exits; the parent starts a fresh one for the
//! next run. The parent never crashes because of a kernel: a worker that dies mid-run becomes a
//! report whose error says so.

use super::{BackendChoice, RunOptions, RunReport};
use serde::{Deserialize, Serialize};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// One run, as sent to the worker.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct WorkerRequest {
    pub code: String,
    pub check: Option<String>,
    pub options: WireOptions,
}

/// The serialisable part of [`RunOptions`] (the cancel flag stays in the parent, which kills
/// the worker to cancel).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct WireOptions {
    pub backend: BackendChoice,
    pub gpus: u32,
    pub gpu_memory: u64,
    pub mem_limit: Option<u64>,
    pub launch_blocking: bool,
    pub env: Vec<(String, String)>,
    pub filename: String,
    #[serde(default)]
    pub argv0: Option<String>,
    pub max_steps: u64,
    pub max_wall_ms: u64,
    #[serde(default)]
    pub exercise: super::ExerciseContext,
}

impl From<&RunOptions> for WireOptions {
    fn from(o: &RunOptions) -> Self {
        WireOptions {
            backend: o.backend,
            gpus: o.gpus,
            gpu_memory: o.gpu_memory,
            mem_limit: o.mem_limit,
            launch_blocking: o.launch_blocking,
            env: o.env.clone(),
            filename: o.filename.clone(),
            argv0: o.argv0.clone(),
            max_steps: o.max_steps,
            max_wall_ms: u64::try_from(o.max_wall.as_millis()).unwrap_or(u64::MAX),
            exercise: o.exercise.clone(),
        }
    }
}

impl From<WireOptions> for RunOptions {
    fn from(w: WireOptions) -> Self {
        RunOptions {
            backend: w.backend,
            gpus: w.gpus,
            gpu_memory: w.gpu_memory,
            mem_limit: w.mem_limit,
            launch_blocking: w.launch_blocking,
            env: w.env,
            filename: w.filename,
            argv0: w.argv0,
            max_steps: w.max_steps,
            max_wall: Duration::from_millis(w.max_wall_ms),
            cancel: None,
            exercise: w.exercise,
        }
    }
}

/// True when the run left its CUDA context unusable (a device-side assert or another sticky
/// CUDA error on a real GPU): the worker must not take another run.
pub fn context_poisoned(report: &RunReport) -> bool {
    report.backend == "cuda"
        && report
            .error
            .as_ref()
            .is_some_and(|e| e.message.starts_with("CUDA error"))
}

/// The worker's main loop: serve requests from `input` until it closes or a run poisons the
/// context. Returns the process exit status.
pub fn serve(input: impl BufRead, mut output: impl Write) -> u8 {
    for line in input.lines() {
        let Ok(line) = line else { return 2 };
        if line.trim().is_empty() {
            continue;
        }
        let request: WorkerRequest = match serde_json::from_str(&line) {
            Ok(r) => r,
            Err(e) => {
                let _ = writeln!(output, "{}", protocol_error(&format!("bad request: {e}")));
                let _ = output.flush();
                continue;
            }
        };
        let opts = RunOptions::from(request.options);
        let report = super::run_exercise_in_process(&request.code, request.check.as_deref(), &opts);
        let poisoned = context_poisoned(&report);
        let text = serde_json::to_string(&report)
            .unwrap_or_else(|e| protocol_error(&format!("report not serialisable: {e}")));
        if writeln!(output, "{text}")
            .and_then(|_| output.flush())
            .is_err()
        {
            return 2;
        }
        if poisoned {
            return 0;
        }
    }
    0
}

fn protocol_error(message: &str) -> String {
    let report = failed_report(message);
    serde_json::to_string(&report).unwrap_or_default()
}

/// A report for a run that could not happen (worker crashed, could not start, was cancelled).
pub fn failed_report(message: &str) -> RunReport {
    RunReport {
        ok: false,
        stderr: format!("cudatutor: {message}\n"),
        error: Some(super::ErrorReport {
            type_name: "RuntimeError".into(),
            message: message.to_string(),
            traceback: format!("RuntimeError: {message}"),
            ..Default::default()
        }),
        ..Default::default()
    }
}

struct Running {
    /// Shared with the cancel watchdog, which kills the child to stop a run.
    child: Arc<Mutex<Child>>,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

/// The parent's side: starts `cudatutor __worker` when needed and restarts it after it exits.
pub struct WorkerClient {
    program: std::path::PathBuf,
    running: Option<Running>,
}

impl WorkerClient {
    /// A client that runs this very executable as the worker.
    pub fn new() -> std::io::Result<WorkerClient> {
        Ok(WorkerClient::with_program(std::env::current_exe()?))
    }

    pub fn with_program(program: std::path::PathBuf) -> WorkerClient {
        WorkerClient {
            program,
            running: None,
        }
    }

    fn start(&mut self) -> std::io::Result<&mut Running> {
        if self.running.is_none() {
            let mut child = Command::new(&self.program)
                .arg("__worker")
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::inherit())
                .spawn()?;
            let stdin = child
                .stdin
                .take()
                .ok_or_else(|| std::io::Error::other("no stdin"))?;
            let stdout = child
                .stdout
                .take()
                .ok_or_else(|| std::io::Error::other("no stdout"))?;
            self.running = Some(Running {
                child: Arc::new(Mutex::new(child)),
                stdin,
                stdout: BufReader::new(stdout),
            });
        }
        self.running
            .as_mut()
            .ok_or_else(|| std::io::Error::other("worker did not start"))
    }

    /// Process id of the live worker, if one is running (tests use it to see restarts).
    pub fn worker_pid(&self) -> Option<u32> {
        self.running
            .as_ref()
            .and_then(|r| r.child.lock().ok().map(|c| c.id()))
    }

    /// Runs one request in the worker. Cancelling (the flag in `opts`) kills the worker.
    pub fn run(&mut self, code: &str, check: Option<&str>, opts: &RunOptions) -> RunReport {
        let request = WorkerRequest {
            code: code.to_string(),
            check: check.map(str::to_string),
            options: WireOptions::from(opts),
        };
        let Ok(line) = serde_json::to_string(&request) else {
            return failed_report("the run request could not be encoded");
        };
        let running = match self.start() {
            Ok(r) => r,
            Err(e) => return failed_report(&format!("the GPU worker could not start: {e}")),
        };
        if writeln!(running.stdin, "{line}")
            .and_then(|_| running.stdin.flush())
            .is_err()
        {
            self.stop();
            return failed_report("the GPU worker exited before it took the run");
        }
        let watchdog = opts
            .cancel
            .clone()
            .map(|flag| spawn_canceller(flag, running.child.clone()));
        let mut reply = String::new();
        let read = running.stdout.read_line(&mut reply);
        if let Some(w) = watchdog {
            w.store(true, Ordering::SeqCst);
        }
        let report = match read {
            Ok(n) if n > 0 => serde_json::from_str::<RunReport>(&reply).unwrap_or_else(|e| {
                failed_report(&format!("unreadable reply from the GPU worker: {e}"))
            }),
            _ => {
                let cancelled = opts
                    .cancel
                    .as_ref()
                    .is_some_and(|c| c.load(Ordering::SeqCst));
                self.stop();
                return if cancelled {
                    let mut r = failed_report("KeyboardInterrupt");
                    if let Some(e) = r.error.as_mut() {
                        e.type_name = "KeyboardInterrupt".into();
                        e.message.clear();
                        e.traceback = "KeyboardInterrupt".into();
                    }
                    r
                } else {
                    failed_report(
                        "the GPU worker crashed during the run; the next run starts a fresh one",
                    )
                };
            }
        };
        if context_poisoned(&report) {
            // The worker exits by itself after a poisoned run; reap it now.
            self.stop();
        }
        report
    }

    fn stop(&mut self) {
        if let Some(r) = self.running.take()
            && let Ok(mut child) = r.child.lock()
        {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for WorkerClient {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Kills the worker when `cancel` becomes true; stops watching when the returned flag is set.
fn spawn_canceller(cancel: Arc<AtomicBool>, child: Arc<Mutex<Child>>) -> Arc<AtomicBool> {
    let done = Arc::new(AtomicBool::new(false));
    let done2 = done.clone();
    std::thread::spawn(move || {
        while !done2.load(Ordering::SeqCst) {
            if cancel.load(Ordering::SeqCst) {
                if let Ok(mut c) = child.lock() {
                    let _ = c.kill();
                }
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    });
    done
}
