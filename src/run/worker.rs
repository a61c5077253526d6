//! The worker subprocess that isolates real-GPU and emulated runs (`cudatutor __worker`).
//!
//! A device-side assert poisons the CUDA context for the rest of the process, exactly as in
//! PyTorch. So those runs happen in a child process speaking line-delimited JSON: one
//! [`WorkerRequest`] per line in, one [`RunReport`] per line out. After a run that broke its
//! context the worker answers and exits; the parent starts a fresh one for the next run. The
//! parent never crashes because of a kernel: a worker that dies mid-run (a kernel that faults
//! on the emulated device takes its process down) becomes a report whose error says so.
//!
//! The device writes to the process's own stdout and stderr (the CUDA driver prints a failed
//! device-side assert there). That text must never reach the learner's terminal raw, nor
//! corrupt the JSON channel: [`serve_process`] moves the protocol to a private copy of stdout
//! and points file descriptors 1 and 2 at a capture file; after each run the new lines go into
//! the report's `device_log`. Requests are validated before anything runs.

use super::{BackendChoice, RunOptions, RunReport};
pub use crate::engine::cuda::capture::DeviceCapture;
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
    /// The run's options (serialising leaves out its cancel flag and `python`, which stay in
    /// the parent).
    pub options: RunOptions,
}

/// Most (virtual) GPUs a request may ask for (the CLI's `--gpus` range).
pub(crate) const MAX_GPUS: u32 = 16;
/// Longest wall-clock limit a request may set.
pub(crate) const MAX_WALL_MS: u64 = 24 * 3600 * 1000;
/// Largest request line the worker reads (code, check and options together).
pub(crate) const MAX_REQUEST_BYTES: usize = 16 << 20;

impl RunOptions {
    /// Checks values a well-behaved parent always sends; anything else is refused with a
    /// message naming the field, before a runtime is built from it (4294967295 GPUs would
    /// try to allocate billions of device records).
    pub(crate) fn validate(&self) -> Result<(), String> {
        if self.gpus == 0 || self.gpus > MAX_GPUS {
            return Err(format!(
                "gpus must be between 1 and {MAX_GPUS}, got {}",
                self.gpus
            ));
        }
        let max_mem = super::MAX_GPU_MEMORY;
        if self.gpu_memory == 0 || self.gpu_memory > max_mem {
            return Err(format!(
                "gpu_memory must be between 1 and {max_mem}, got {}",
                self.gpu_memory
            ));
        }
        if self.mem_limit == Some(0) || self.mem_limit.is_some_and(|m| m > max_mem) {
            return Err(format!(
                "mem_limit must be between 1 and {max_mem} when set"
            ));
        }
        let max_wall_ms = u64::try_from(self.max_wall.as_millis()).unwrap_or(u64::MAX);
        if max_wall_ms == 0 || max_wall_ms > MAX_WALL_MS {
            return Err(format!(
                "max_wall_ms must be between 1 and {MAX_WALL_MS}, got {max_wall_ms}"
            ));
        }
        if self.max_steps == 0 {
            return Err("max_steps must be positive".into());
        }
        if self.filename.is_empty() || self.filename.contains('\0') {
            return Err("filename must be a non-empty name without NUL".into());
        }
        if self
            .env
            .iter()
            .any(|(k, v)| k.is_empty() || k.contains(['=', '\0']) || v.contains('\0'))
        {
            return Err(
                "env names must be non-empty without '=' or NUL, values without NUL".into(),
            );
        }
        Ok(())
    }
}

/// True when the run left its device context unusable (a device-side assert or another sticky
/// CUDA error on a real or emulated GPU): the worker must not take another run.
pub fn context_poisoned(report: &RunReport) -> bool {
    (report.backend == "cuda" || report.backend == "emulated")
        && (report.device_usage.as_ref().is_some_and(|u| u.poisoned)
            // (also when the script caught the CUDA error and ended normally)
            || report
                .error
                .as_ref()
                .is_some_and(|e| e.message.starts_with("CUDA error")))
}

/// Folds what the device printed during a run into its report: assert lines the engine did
/// not already record go into `device_log` (and the stderr the learner sees, before the
/// traceback, where python3 shows them); nothing is printed raw.
pub fn attach_device_output(report: &mut RunReport, lines: Vec<String>) {
    let new: Vec<String> = lines
        .into_iter()
        .filter(|l| {
            !report
                .error
                .as_ref()
                .is_some_and(|e| e.device_log.contains(l))
        })
        .collect();
    if new.is_empty() {
        return;
    }
    let mut prefix = String::new();
    for l in &new {
        prefix.push_str(l);
        prefix.push('\n');
    }
    report.stderr.insert_str(0, &prefix);
    // (the driver's capture says only that they were printed: first, as before)
    if !report.output_order.is_empty() {
        report.output_order.insert(0, (true, prefix.len()));
    }
    if let Some(e) = report.error.as_mut() {
        e.device_log.extend(new);
    }
}

/// The worker process's entry point (`cudatutor __worker`): moves the protocol to a private
/// copy of stdout, points stdout and stderr at a capture file (the device's output), and
/// serves requests. Falls back to plain stdio when the descriptors cannot be moved.
pub(crate) fn serve_process() -> u8 {
    // A worker serves run after run: the GPU's context and kernels stay loaded between them.
    crate::engine::cuda::real::keep_contexts_between_runs();
    let stdin = std::io::stdin().lock();
    match crate::engine::cuda::capture::redirect_device_output() {
        Some((protocol, capture)) => serve_with_capture(stdin, protocol, Some(capture)),
        None => serve(stdin, std::io::stdout().lock()),
    }
}

/// The worker's main loop: serve requests from `input` until it closes or a run poisons the
/// context. Returns the process exit status.
pub fn serve(input: impl BufRead, output: impl Write) -> u8 {
    serve_with_capture(input, output, None)
}

/// [`serve`], folding what the device printed (`capture`) into each report.
pub(crate) fn serve_with_capture(
    mut input: impl BufRead,
    mut output: impl Write,
    capture: Option<DeviceCapture>,
) -> u8 {
    // Shared with the cuda device, which takes the driver's assert lines as they appear.
    let captured = capture.is_some();
    if let Some(c) = capture {
        crate::engine::cuda::capture::share(c);
    }
    loop {
        let line = match read_request_line(&mut input) {
            Ok(Some(line)) => line,
            Ok(None) => return 0,
            Err(message) => {
                let _ = writeln!(output, "{}", protocol_error(&message));
                let _ = output.flush();
                continue;
            }
        };
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
        if let Err(why) = request.options.validate() {
            let _ = writeln!(output, "{}", protocol_error(&format!("bad request: {why}")));
            let _ = output.flush();
            continue;
        }
        let opts = request.options;
        let mut report =
            super::run_exercise_in_process(&request.code, request.check.as_deref(), &opts);
        if captured {
            attach_device_output(
                &mut report,
                crate::engine::cuda::capture::take_shared_lines(),
            );
        }
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
}

/// One request line, at most [`MAX_REQUEST_BYTES`]; `Ok(None)` at the end of input. A longer
/// line is skipped whole and refused.
fn read_request_line(input: &mut impl BufRead) -> Result<Option<String>, String> {
    let mut buf = Vec::new();
    let mut too_long = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(format!("bad request: {e}")),
        };
        if chunk.is_empty() {
            if buf.is_empty() && !too_long {
                return Ok(None);
            }
            break;
        }
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        if !too_long {
            buf.extend_from_slice(&chunk[..take]);
            if buf.len() > MAX_REQUEST_BYTES {
                too_long = true;
                buf = Vec::new();
            }
        }
        input.consume(take);
        if done {
            break;
        }
    }
    if too_long {
        return Err(format!(
            "bad request: longer than {MAX_REQUEST_BYTES} bytes"
        ));
    }
    String::from_utf8(buf)
        .map(Some)
        .map_err(|_| "bad request: not UTF-8".to_string())
}

fn protocol_error(message: &str) -> String {
    let report = failed_report(message);
    serde_json::to_string(&report).unwrap_or_default()
}

/// A report for a run that could not happen (worker crashed, could not start, was cancelled).
pub(crate) fn failed_report(message: &str) -> RunReport {
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

/// How long past its own wall limit a run in the worker may take before the parent stops it:
/// the worker's start (cuInit and the context, 0.4 s on an H200), one op the interpreter cannot
/// interrupt (a cold cache's NVRTC compile), the report, and a loaded machine. A kernel that
/// never ends is the case it exists for: the interpreter waits inside the driver and never
/// reaches its own time check.
pub(crate) const WORKER_GRACE: Duration = Duration::from_secs(30);

/// The parent's side: starts `cudatutor __worker` when needed and restarts it after it exits.
pub struct WorkerClient {
    program: std::path::PathBuf,
    running: Option<Running>,
    /// The file the live worker captures the device's output into (read after a crash).
    log: Option<std::path::PathBuf>,
    /// See [`WORKER_GRACE`].
    grace: Duration,
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
            log: None,
            grace: WORKER_GRACE,
        }
    }

    /// The same client allowing `grace` past a run's wall limit instead of [`WORKER_GRACE`]
    /// (the deadline tests use a short one).
    pub fn with_grace(mut self, grace: Duration) -> WorkerClient {
        self.grace = grace;
        self
    }

    fn start(&mut self) -> std::io::Result<&mut Running> {
        if self.running.is_none() {
            let log = std::env::temp_dir().join(format!(
                "cudatutor-worker-{}-{}.log",
                std::process::id(),
                WORKER_SEQ.fetch_add(1, Ordering::SeqCst)
            ));
            let _ = std::fs::remove_file(&log);
            if let Some(old) = self.log.take() {
                let _ = std::fs::remove_file(old);
            }
            // The worker points its stdout/stderr at `log` itself; until it has, anything it
            // prints must not reach the learner's terminal either.
            let mut child = Command::new(&self.program)
                .arg("__worker")
                .env("CUDATUTOR_WORKER_LOG", &log)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()?;
            self.log = Some(log);
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
            options: opts.clone(),
        };
        let Ok(line) = serde_json::to_string(&request) else {
            return failed_report("the run request could not be encoded");
        };
        // (None: a limit too far away to represent, i.e. none)
        let deadline =
            std::time::Instant::now().checked_add(opts.max_wall.saturating_add(self.grace));
        let running = match self.start() {
            Ok(r) => r,
            Err(e) => return failed_report(&format!("the GPU worker could not start: {e}")),
        };
        // Watching from before the request is written: a worker that hangs before it reads
        // would otherwise block the write of a large request too.
        let watch = spawn_watchdog(opts.cancel.clone(), deadline, running.child.clone());
        let mut reply = String::new();
        let read = writeln!(running.stdin, "{line}")
            .and_then(|_| running.stdin.flush())
            .and_then(|_| running.stdout.read_line(&mut reply));
        watch.done.store(true, Ordering::SeqCst);
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
                return if watch.timed_out.load(Ordering::SeqCst) {
                    timeout_report(opts)
                } else if cancelled {
                    let mut r = failed_report("KeyboardInterrupt");
                    if let Some(e) = r.error.as_mut() {
                        e.type_name = "KeyboardInterrupt".into();
                        e.message.clear();
                        e.traceback = "KeyboardInterrupt".into();
                    }
                    r
                } else {
                    let mut r = failed_report(
                        "the GPU worker crashed during the run; the next run starts a fresh one",
                    );
                    if let Some(e) = r.error.as_mut() {
                        e.device_log = self.log_tail(20);
                    }
                    r
                };
            }
        };
        if context_poisoned(&report) {
            // The worker exits by itself after a poisoned run; reap it now.
            self.stop();
        }
        report
    }

    /// The last `n` lines the worker's device wrote (after a crash: what it said before dying).
    fn log_tail(&self, n: usize) -> Vec<String> {
        let Some(text) = self.log.as_ref().and_then(|p| std::fs::read(p).ok()) else {
            return Vec::new();
        };
        let text = String::from_utf8_lossy(&text);
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        lines[lines.len().saturating_sub(n)..]
            .iter()
            .map(|l| l.to_string())
            .collect()
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
        if let Some(log) = self.log.take() {
            let _ = std::fs::remove_file(log);
        }
    }
}

static WORKER_SEQ: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// What the parent's watchdog shares with the run it watches.
struct Watch {
    /// Set by the run when the worker answered (or died): the watchdog ends.
    done: Arc<AtomicBool>,
    /// Set by the watchdog when it killed the worker at the deadline.
    timed_out: Arc<AtomicBool>,
}

/// Kills the worker when `cancel` becomes true or `deadline` passes (then `timed_out` is set);
/// stops watching when `done` is set.
fn spawn_watchdog(
    cancel: Option<Arc<AtomicBool>>,
    deadline: Option<std::time::Instant>,
    child: Arc<Mutex<Child>>,
) -> Watch {
    let watch = Watch {
        done: Arc::new(AtomicBool::new(false)),
        timed_out: Arc::new(AtomicBool::new(false)),
    };
    let (done, timed_out) = (watch.done.clone(), watch.timed_out.clone());
    std::thread::spawn(move || {
        while !done.load(Ordering::SeqCst) {
            let late = deadline.is_some_and(|d| std::time::Instant::now() >= d);
            if late || cancel.as_ref().is_some_and(|c| c.load(Ordering::SeqCst)) {
                timed_out.store(late, Ordering::SeqCst);
                if let Ok(mut c) = child.lock() {
                    let _ = c.kill();
                }
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    });
    watch
}

/// The report of a run the parent stopped at its deadline: a TimeoutError as the interpreter
/// raises at its own limit (the learner's result, graded as a run that was stopped), saying
/// the GPU's work is what did not end.
pub(crate) fn timeout_report(opts: &RunOptions) -> RunReport {
    let secs = opts.max_wall.as_secs_f64();
    let secs = if secs.fract() == 0.0 {
        format!("{secs:.0}")
    } else {
        format!("{secs}")
    };
    let message = format!(
        "the script ran longer than {secs} seconds (its GPU work did not finish: cudatutor \
         stopped the GPU worker, and the next run starts a fresh one)"
    );
    let mut r = failed_report(&message);
    r.backend = match opts.backend {
        BackendChoice::Emulated => "emulated",
        _ => "cuda",
    }
    .into();
    r.stderr = format!("TimeoutError: {message}\n");
    if let Some(e) = r.error.as_mut() {
        e.type_name = "TimeoutError".into();
        e.traceback = format!("TimeoutError: {message}");
    }
    r
}
