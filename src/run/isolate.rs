//! Graded runs in a child process, so one exercise can never take down a grade.
//!
//! A learner's line may still find a way to end its process: an allocation that aborts, the
//! kernel's OOM killer, a bug in cudatutor that aborts instead of panicking. In-process, that
//! takes every other exercise's grade with it (`check --format gradescope > results.json`
//! would leave the file empty). So `check` runs each exercise as this very executable's hidden
//! `__worker` (the GPU worker's protocol, run.rs's `serve`: one request in, one report out),
//! with limits the kernel enforces whatever the code does:
//!
//! * `RLIMIT_AS`: the run's memory budget plus [`ADDRESS_SPACE_HEADROOM`] for the binary, its
//!   thread stacks and allocator arenas;
//! * `RLIMIT_CPU`: the wall limit plus [`GRACE`] (a run that spins in native code past its
//!   deadline is ended by SIGXCPU);
//! * `RLIMIT_FSIZE` ([`MAX_FILE_BYTES`]) and `RLIMIT_CORE` 0 (an abort writes no core file);
//! * a wall deadline the parent keeps: the wall limit plus [`GRACE`], then SIGKILL.
//!
//! The parent always gets a report: the child's own, or one that says why there is none
//! ("the run used more memory than …", "killed by signal 6 (SIGABRT)"), which grades as failed.
//! Only the simulated backend runs here; cuda and emulated runs already have their worker,
//! and `--backend pytorch` its own Python process.

use super::check_text::check_text;
use super::worker::WorkerRequest;
use super::{BackendChoice, CheckResult, ErrorReport, RunOptions, RunReport};
use std::io::{Read, Write};
#[cfg(unix)]
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Address space beyond the memory budget: the binary's own mappings, the run thread's
/// 256 MiB stack, glibc's per-thread arenas.
pub(crate) const ADDRESS_SPACE_HEADROOM: u64 = 2 << 30;
/// How long past its wall limit a run may go before the parent kills it (the interpreter
/// stops a run at its limit by itself; this bounds native code that does not).
pub(crate) const GRACE: Duration = Duration::from_secs(5);
/// The largest file a graded run may write.
pub(crate) const MAX_FILE_BYTES: u64 = 64 << 20;
/// The largest report read back (a run's captured output is bounded well below it).
const MAX_REPLY_BYTES: usize = 256 << 20;
/// The most of the child's stderr kept (its last line names an abort's cause).
const MAX_STDERR: usize = 64 << 10;

static SEQ: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
static SELF_EXEC: AtomicBool = AtomicBool::new(false);

/// Called by the binary's `main`: this executable is cudatutor, so graded runs may re-execute
/// it as `__worker`. Test binaries link the library without being cudatutor; they never call
/// this and grade in process.
pub fn allow_self_exec() {
    SELF_EXEC.store(true, Ordering::SeqCst);
}

/// Does a graded run with these options go to a child process?
pub fn isolates(opts: &RunOptions) -> bool {
    SELF_EXEC.load(Ordering::SeqCst)
        && match opts.backend {
            BackendChoice::Sim => true,
            BackendChoice::Auto => !super::cuda_usable_here(),
            _ => false,
        }
}

/// Runs an exercise as [`super::run_exercise`] does, in a child process with the limits in
/// the module docs when [`isolates`] says so.
pub(crate) fn run_exercise_isolated(
    code: &str,
    check: Option<&str>,
    opts: &RunOptions,
) -> RunReport {
    if !isolates(opts) {
        return super::run_exercise(code, check, opts);
    }
    let program = match std::env::current_exe() {
        Ok(p) => p,
        Err(_) => return super::run_exercise(code, check, opts),
    };
    run_in_child(&program, code, check, opts)
}

/// How a child that gave no report ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Death {
    /// The parent's wall deadline passed.
    Deadline,
    /// SIGXCPU: the CPU-time limit.
    CpuTime,
    /// SIGKILL not sent by the parent (the kernel's OOM killer) or SIGSEGV/SIGABRT at the
    /// address-space limit.
    Memory,
    /// Any other signal.
    Signal(i32),
    /// Exited with this status without a report.
    Exit(i32),
}

/// Runs one request in `program __worker` with the limits and returns its report, or one
/// that says why there is none.
pub(crate) fn run_in_child(
    program: &std::path::Path,
    code: &str,
    check: Option<&str>,
    opts: &RunOptions,
) -> RunReport {
    let backend = "sim";
    let request = WorkerRequest {
        code: code.to_string(),
        check: check.map(str::to_string),
        options: RunOptions {
            backend: BackendChoice::Sim,
            ..opts.clone()
        },
    };
    let Ok(line) = serde_json::to_string(&request) else {
        return super::internal_error_report("the run request could not be encoded", backend);
    };
    let budget = crate::budget::limit();
    #[cfg(unix)]
    let address_space = budget.saturating_add(ADDRESS_SPACE_HEADROOM);
    #[cfg(unix)]
    let cpu_secs = opts.max_wall.saturating_add(GRACE).as_secs().max(1);
    // A worker built with the device capture moves its stdout and stderr into this file
    // (worker.rs); what an abort printed is read back from it.
    let log = std::env::temp_dir().join(format!(
        "cudatutor-graded-{}-{}.log",
        std::process::id(),
        SEQ.fetch_add(1, Ordering::SeqCst)
    ));
    let _ = std::fs::remove_file(&log);
    let mut cmd = Command::new(program);
    cmd.arg("__worker")
        .env("CUDATUTOR_WORKER_LOG", &log)
        // the child's budget is this process's (`--memory-limit` included)
        .env(crate::budget::LIMIT_VAR, budget.to_string())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // The limits are Unix resource limits; elsewhere (Windows) the child has the wall deadline
    // and the memory budget it reads from the environment, and no address-space cap.
    // SAFETY: the closure runs in the child between fork and exec and only calls getrlimit
    // and setrlimit, which are async-signal-safe, on plain stack values.
    #[cfg(unix)]
    unsafe {
        cmd.pre_exec(move || {
            lower_limit(libc::RLIMIT_AS, address_space);
            lower_limit(libc::RLIMIT_CPU, cpu_secs);
            lower_limit(libc::RLIMIT_FSIZE, MAX_FILE_BYTES);
            lower_limit(libc::RLIMIT_CORE, 0);
            Ok(())
        });
    }
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            return super::internal_error_report(
                &format!("the run's process could not start: {e}"),
                backend,
            );
        }
    };
    // Writing and reading on threads of their own: a child that never reads its request or
    // fills its stderr must not block the parent past the deadline.
    let stdin = child.stdin.take();
    let writer = std::thread::spawn(move || {
        if let Some(mut s) = stdin {
            let _ = writeln!(s, "{line}").and_then(|()| s.flush());
        }
    });
    let stdout = child.stdout.take();
    let reader = std::thread::spawn(move || read_bounded(stdout, MAX_REPLY_BYTES));
    let stderr = child.stderr.take();
    let err_reader = std::thread::spawn(move || read_tail(stderr, MAX_STDERR));
    let deadline = Instant::now() + opts.max_wall + GRACE;
    let mut killed = false;
    let mut cancelled = false;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) => {}
            Err(_) => break None,
        }
        let cancel = opts
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::SeqCst));
        if (Instant::now() >= deadline || cancel) && !killed {
            cancelled = cancel;
            let _ = child.kill();
            killed = true;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let _ = writer.join();
    let reply = reader.join().unwrap_or_default();
    let mut stderr = err_reader.join().unwrap_or_default();
    if let Ok(mut f) = std::fs::File::open(&log) {
        stderr.extend(read_tail(Some(&mut f), MAX_STDERR));
    }
    let _ = std::fs::remove_file(&log);
    let reply = String::from_utf8_lossy(&reply);
    if !killed
        && let Some(report) = reply
            .lines()
            .find(|l| !l.trim().is_empty())
            .and_then(|l| serde_json::from_str::<RunReport>(l).ok())
    {
        return report;
    }
    if cancelled {
        return stopped_report("KeyboardInterrupt", "", opts);
    }
    let death = if killed {
        Death::Deadline
    } else {
        death_of(status, &stderr)
    };
    death_report(death, &stderr, budget, opts)
}

/// How a child that wrote no report ended: killed by the kernel at a limit (SIGXCPU for CPU
/// time, SIGKILL from the OOM killer or the address-space cap), an allocation failure its
/// stderr names, another signal, or an exit status.
fn death_of(status: Option<std::process::ExitStatus>, stderr: &[u8]) -> Death {
    #[cfg(unix)]
    if let Some(signal) = status.and_then(|s| std::os::unix::process::ExitStatusExt::signal(&s)) {
        return match signal {
            libc::SIGXCPU => Death::CpuTime,
            libc::SIGKILL => Death::Memory,
            _ if at_memory_limit(stderr) => Death::Memory,
            s => Death::Signal(s),
        };
    }
    if at_memory_limit(stderr) {
        Death::Memory
    } else {
        // No status at all (waiting failed) reads as an exit without a report.
        Death::Exit(status.and_then(|s| s.code()).unwrap_or(-1))
    }
}

/// Did the child's stderr say an allocation failed (Rust's "memory allocation of N bytes
/// failed" before its abort)?
fn at_memory_limit(stderr: &[u8]) -> bool {
    let text = String::from_utf8_lossy(stderr);
    text.contains("memory allocation of") || text.contains("Cannot allocate memory")
}

/// The report of a child that ended without one: a run stopped by a limit is the learner's
/// (TimeoutError or MemoryError, graded failed with a line-0 result saying why); a crash is
/// cudatutor's (an internal error).
pub(crate) fn death_report(
    death: Death,
    stderr: &[u8],
    budget: u64,
    opts: &RunOptions,
) -> RunReport {
    let secs = opts.max_wall.as_secs_f64();
    match death {
        Death::Deadline => stopped_report(
            "TimeoutError",
            &format!("the script ran longer than {secs} seconds and was stopped"),
            opts,
        ),
        Death::CpuTime => stopped_report(
            "TimeoutError",
            &format!("the script used more than {secs} seconds of CPU time and was stopped"),
            opts,
        ),
        Death::Memory => stopped_report(
            "MemoryError",
            &format!(
                "the script used more than {} of memory and was stopped",
                crate::budget::human_bytes(budget)
            ),
            opts,
        ),
        Death::Signal(s) => {
            let last = String::from_utf8_lossy(stderr)
                .lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .map(|l| format!(" ({})", l.trim()))
                .unwrap_or_default();
            super::internal_error_report(
                &format!(
                    "the run's process was killed by signal {s} ({}){last}",
                    signal_name(s)
                ),
                "sim",
            )
        }
        Death::Exit(code) => super::internal_error_report(
            &format!("the run's process exited with status {code} without a report"),
            "sim",
        ),
    }
}

/// A run stopped before its end by a limit: its error, and the one check result that says
/// the checks need a run that finishes (as for a TimeoutError raised in process).
fn stopped_report(kind: &str, message: &str, opts: &RunOptions) -> RunReport {
    let what = if message.is_empty() {
        kind.to_string()
    } else {
        format!("{kind}: {message}")
    };
    let text = check_text(&opts.exercise.lang);
    RunReport {
        backend: "sim".into(),
        ok: false,
        exit_status: Some(1),
        stderr: format!("{what}\n"),
        error: Some(ErrorReport {
            type_name: kind.into(),
            message: message.into(),
            traceback: what.clone(),
            ..Default::default()
        }),
        checks: vec![CheckResult {
            source: String::new(),
            line: 0,
            passed: false,
            message: Some(text.run_stopped.replace("{error}", &what)),
            error: None,
        }],
        ..Default::default()
    }
}

#[cfg(not(unix))]
fn signal_name(_: i32) -> &'static str {
    "a signal"
}

#[cfg(unix)]
fn signal_name(s: i32) -> &'static str {
    match s {
        libc::SIGABRT => "SIGABRT",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGBUS => "SIGBUS",
        libc::SIGILL => "SIGILL",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGTERM => "SIGTERM",
        libc::SIGXFSZ => "SIGXFSZ",
        _ => "a signal",
    }
}

/// Lowers a resource's soft and hard limits to `value` (never raises one: a parent already
/// under a tighter limit keeps it). Async-signal-safe.
#[cfg(unix)]
fn lower_limit(resource: crate::budget::RlimitResource, value: u64) {
    let mut rl = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit/setrlimit write and read only the struct passed.
    unsafe {
        if libc::getrlimit(resource, &mut rl) != 0 {
            return;
        }
        let v = value as libc::rlim_t;
        let cur = if rl.rlim_cur == libc::RLIM_INFINITY {
            v
        } else {
            rl.rlim_cur.min(v)
        };
        let max = if rl.rlim_max == libc::RLIM_INFINITY {
            v
        } else {
            rl.rlim_max.min(v)
        };
        let cur = cur.min(max);
        let _ = libc::setrlimit(
            resource,
            &libc::rlimit {
                rlim_cur: cur,
                rlim_max: max,
            },
        );
    }
}

/// Reads `r` to its end, keeping at most `max` bytes.
fn read_bounded(r: Option<impl Read>, max: usize) -> Vec<u8> {
    let mut out = Vec::new();
    if let Some(r) = r {
        let _ = r.take(max as u64).read_to_end(&mut out);
    }
    out
}

/// Reads `r` to its end, keeping its last `max` bytes.
fn read_tail(r: Option<impl Read>, max: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let Some(mut r) = r else {
        return out;
    };
    let mut buf = [0u8; 8192];
    loop {
        match r.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                out.extend_from_slice(&buf[..n]);
                if out.len() > 2 * max {
                    out.drain(..out.len() - max);
                }
            }
        }
    }
    if out.len() > max {
        out.drain(..out.len() - max);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts() -> RunOptions {
        RunOptions {
            backend: BackendChoice::Sim,
            max_wall: Duration::from_secs(10),
            ..RunOptions::default()
        }
    }

    #[test]
    fn a_child_stopped_by_a_limit_is_the_learners_failed_run() {
        let r = death_report(Death::Memory, b"", 3 << 30, &opts());
        let e = r.error.as_ref().unwrap();
        assert_eq!(e.type_name, "MemoryError");
        assert_eq!(
            e.message,
            "the script used more than 3 GiB of memory and was stopped"
        );
        assert!(r.internal_error.is_none());
        assert!(!r.checks_passed());
        assert_eq!(r.checks.len(), 1, "one result about the run as a whole");
        assert!(
            r.checks[0]
                .message
                .as_deref()
                .unwrap()
                .contains("MemoryError: the script used more than 3 GiB"),
            "{:?}",
            r.checks[0]
        );
        let t = death_report(Death::Deadline, b"", 3 << 30, &opts());
        assert_eq!(
            t.error.unwrap().message,
            "the script ran longer than 10 seconds and was stopped"
        );
        let c = death_report(Death::CpuTime, b"", 3 << 30, &opts());
        assert_eq!(c.error.unwrap().type_name, "TimeoutError");
    }

    #[test]
    #[cfg(unix)]
    fn a_crashed_child_is_an_internal_error_naming_its_signal() {
        let r = death_report(
            Death::Signal(libc::SIGSEGV),
            b"noise\nthe last words\n\n",
            3 << 30,
            &opts(),
        );
        let why = r.internal_error.unwrap();
        assert_eq!(
            why,
            "the run's process was killed by signal 11 (SIGSEGV) (the last words)"
        );
        let r = death_report(Death::Exit(3), b"", 3 << 30, &opts());
        assert!(r.internal_error.unwrap().contains("exited with status 3"));
    }

    #[test]
    fn stderr_is_read_to_its_tail_and_an_allocation_failure_is_recognised() {
        assert!(at_memory_limit(
            b"memory allocation of 800000000000 bytes failed\n"
        ));
        assert!(!at_memory_limit(b"Segmentation fault\n"));
        assert_eq!(read_tail(Some(&b"abcdef"[..]), 3), b"def");
        assert_eq!(read_bounded(Some(&b"abcdef"[..]), 4), b"abcd");
    }

    #[test]
    fn without_self_exec_a_graded_run_stays_in_process() {
        // test binaries are not cudatutor: they never allow re-executing themselves
        assert!(!isolates(&opts()));
        let r = run_exercise_isolated("print(6 * 7)", None, &opts());
        assert_eq!(r.stdout, "42\n");
    }
}
