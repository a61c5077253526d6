//! What one run of a script produced. The UI, `cudatutor run --format json` and `check` all
//! render this one structure; nothing else crosses from the engine to the screen.

use serde::{Deserialize, Serialize};

// The engine owns its event vocabulary; the report carries it as is.
pub use crate::engine::event::{
    AssertGap, DeviceMemory, MemoryReport, OpKind, OpStatus, TimelineEntry, assert_gap,
};

/// The outcome of running one script (and, for an exercise, its checks).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RunReport {
    /// `"sim"` or `"cuda"`.
    pub backend: String,
    /// The device the script's `cuda:0` was, e.g. "Simulated H200 (modelled)".
    pub device_name: String,
    /// True when device times come from the model (sim backend), not from CUDA events.
    pub modelled: bool,
    pub launch_blocking: bool,
    /// True when the script ran to its end without an uncaught exception (or ended with
    /// `sys.exit()` / `sys.exit(0)`).
    pub ok: bool,
    /// The status python3 would exit with when the script called `sys.exit(code)` (None: 0
    /// when `ok`, else 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_status: Option<i32>,
    /// What the script printed, exactly as `python3 script.py` would print it to stdout.
    pub stdout: String,
    /// The device log (kernel assertion lines) and the traceback, as python3 prints to stderr.
    pub stderr: String,
    /// The order stdout and stderr were written in: `[to_stderr, bytes]` per run of writes
    /// to one stream, adding up to `stdout` and `stderr` (see [`RunReport::interleaved`]).
    /// Empty when unknown: stdout, then stderr.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub output_order: Vec<(bool, usize)>,
    pub error: Option<ErrorReport>,
    pub memory: MemoryReport,
    /// One entry per engine operation, in host order.
    pub timeline: Vec<TimelineEntry>,
    /// Exercise checks, in the order they appear in the check block; empty for a plain run.
    pub checks: Vec<CheckResult>,
    /// True when the exercise asks for a prediction (`predict=` names) and one of those
    /// variables is still at its starting value or undefined after the run: the answer
    /// (traceback lines, timeline, gutter marks, output) is not to be shown yet. Never set when
    /// the code does not parse (its traceback shows only the syntax error, which the learner
    /// needs to see).
    #[serde(default)]
    pub prediction_pending: bool,
    /// Set when the run could not be carried out at all (a panic inside cudatutor, a worker
    /// that could not start): the message, which `error` repeats. Grading reports it as an
    /// error of the backend, never as a result of the checks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub internal_error: Option<String>,
    /// On the emulated and cuda backends, where the ops ran: kernel launches, and the ops
    /// that had no kernel and ran on the host instead (None on the sim).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device_usage: Option<DeviceUsage>,
    /// Why this run is on another backend than the one asked for (e.g. an exercise for two
    /// GPUs asked for on a machine with one real GPU runs on the sim).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backend_note: Option<String>,
}

/// What ran on a GPU backend's kernels and what fell back to the host (docs/cuda-backend.md
/// lists the fallbacks).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct DeviceUsage {
    /// Kernel launches on the device (kernels/*.cu).
    pub launches: u64,
    /// Ops computed on the host (download, host kernel, upload), with how often: the op's
    /// name as the GPU storage knows it (`softmax_backward`, `random`, ...).
    pub fallbacks: Vec<(String, u64)>,
    /// A device's context ended the run poisoned (a device-side assert or another sticky
    /// error, even one the script caught): the worker must not take another run.
    #[serde(default)]
    pub poisoned: bool,
    /// Device memory the engine held outside the caching allocator's segments (op results on
    /// their way into their blocks, temporaries, the pool of freed scratch), in bytes: the
    /// most at once during the run, and what was left pooled at its end. PyTorch's process
    /// holds none of it (its ops write into allocator blocks).
    #[serde(default)]
    pub scratch_peak_bytes: u64,
    #[serde(default)]
    pub scratch_pooled_bytes: u64,
}

/// The uncaught exception of a run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ErrorReport {
    /// The Python exception type, e.g. `RuntimeError`, `IndexError`, `OutOfMemoryError`.
    #[serde(rename = "type")]
    pub type_name: String,
    /// The message after `Type: ` on the last traceback line (may span several lines).
    pub message: String,
    /// 1-based script line where the host reported the error (the last frame in the script).
    pub line: Option<u32>,
    /// For a deferred CUDA error: the 1-based line that launched the failing kernel.
    pub origin_line: Option<u32>,
    /// Column (1-based) for syntax errors, when known.
    pub column: Option<u32>,
    /// Lines the device wrote (e.g. `...Loss.cu:244: nll_loss_forward...: Assertion ... failed.`).
    pub device_log: Vec<String>,
    /// The full CPython-style traceback text.
    pub traceback: String,
    /// What the failing op's check found (the offending element and where its values came
    /// from, or the operands on two devices), when the engine knows: `run --explain` reads it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<crate::engine::provenance::Detail>,
}

/// One assertion of an exercise's check block.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CheckResult {
    /// The assertion's source text (`assert labels.max() < 5, "..."`), for instructors only:
    /// it may hold the expected values, so a learner-facing view shows `message` instead.
    pub source: String,
    /// 1-based line within the check block (0 for a result about the run as a whole, such as
    /// "fix the SyntaxError first").
    pub line: u32,
    pub passed: bool,
    /// What the check is about, in the lesson's language: the assert's own message, passed or
    /// not. When the check could not be evaluated (it raised), what went wrong follows, in the
    /// learner's terms ("your line 7 raised …"). Always set by the check runner.
    pub message: Option<String>,
    /// When the check raised instead of asserting: what went wrong, in the learner's terms
    /// (also appended to `message`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl RunReport {
    /// True when every check ran and passed (and there was at least one).
    pub fn checks_passed(&self) -> bool {
        !self.checks.is_empty() && self.checks.iter().all(|c| c.passed)
    }
}

/// Adds `bytes` written to one stream to a [`RunReport::output_order`].
pub(crate) fn extend_order(order: &mut Vec<(bool, usize)>, to_stderr: bool, bytes: usize) {
    if bytes == 0 {
        return;
    }
    match order.last_mut() {
        Some((err, n)) if *err == to_stderr => *n += bytes,
        _ => order.push((to_stderr, bytes)),
    }
}

impl RunReport {
    /// stdout and stderr as a terminal showed them: `(is_stderr, text)` pieces in write
    /// order. Without a usable `output_order` (an older report, or output cut to its tail):
    /// stdout, then stderr.
    pub(crate) fn interleaved(&self) -> Vec<(bool, &str)> {
        let fits = |err: bool, text: &str| {
            self.output_order
                .iter()
                .filter(|(e, _)| *e == err)
                .map(|(_, n)| n)
                .sum::<usize>()
                == text.len()
        };
        let usable =
            !self.output_order.is_empty() && fits(false, &self.stdout) && fits(true, &self.stderr);
        if !usable {
            return [(false, self.stdout.as_str()), (true, self.stderr.as_str())]
                .into_iter()
                .filter(|(_, t)| !t.is_empty())
                .collect();
        }
        let (mut out_at, mut err_at) = (0, 0);
        let mut pieces = Vec::new();
        for &(err, n) in &self.output_order {
            let (text, at) = if err {
                (&self.stderr, &mut err_at)
            } else {
                (&self.stdout, &mut out_at)
            };
            // (every piece ends on a character boundary: whole writes are counted)
            if let Some(piece) = text.get(*at..*at + n) {
                pieces.push((err, piece));
            }
            *at += n;
        }
        pieces
    }
}
