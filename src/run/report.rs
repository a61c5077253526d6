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
    /// True when the script ran to its end without an uncaught exception.
    pub ok: bool,
    /// What the script printed, exactly as `python3 script.py` would print it to stdout.
    pub stdout: String,
    /// The device log (kernel assertion lines) and the traceback, as python3 prints to stderr.
    pub stderr: String,
    pub error: Option<ErrorReport>,
    pub memory: MemoryReport,
    /// One entry per engine operation, in host order.
    pub timeline: Vec<TimelineEntry>,
    /// Exercise checks, in the order they appear in the check block; empty for a plain run.
    pub checks: Vec<CheckResult>,
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
    /// Lines the device wrote (e.g. `...Loss.cu:250: nll_loss_forward...: Assertion ... failed.`).
    pub device_log: Vec<String>,
    /// The full CPython-style traceback text.
    pub traceback: String,
}

/// One assertion of an exercise's check block.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CheckResult {
    /// The assertion's source text (`assert labels.max() < 5, "..."`).
    pub source: String,
    /// 1-based line within the check block.
    pub line: u32,
    pub passed: bool,
    /// The assertion message, or the exception that stopped the check, when it did not pass.
    pub message: Option<String>,
}

impl RunReport {
    /// True when every check ran and passed (and there was at least one).
    pub fn checks_passed(&self) -> bool {
        !self.checks.is_empty() && self.checks.iter().all(|c| c.passed)
    }
}
