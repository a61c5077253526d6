//! Run one script (or one exercise with its checks) and produce a [`RunReport`]; the worker
//! subprocess that isolates real-GPU runs lives here too.

pub mod checks;
pub mod doctor;
pub mod report;

pub use report::{CheckResult, DeviceMemory, ErrorReport, MemoryReport, RunReport, TimelineEntry};

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// Which engine backend runs CUDA tensors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BackendChoice {
    /// cuda when a usable GPU is present, else sim.
    #[default]
    Auto,
    Sim,
    Cuda,
}

/// How to run a script. `Default` is what `cudatutor run FILE` uses without flags.
#[derive(Debug, Clone)]
pub struct RunOptions {
    pub backend: BackendChoice,
    /// Number of (virtual) GPUs on the sim backend.
    pub gpus: u32,
    /// Capacity of each simulated GPU, in bytes.
    pub gpu_memory: u64,
    /// CUDA_LAUNCH_BLOCKING=1 from the command line or the UI's `b` toggle.
    pub launch_blocking: bool,
    /// Environment the script sees in `os.environ` (CUDA_LAUNCH_BLOCKING may be set here).
    pub env: Vec<(String, String)>,
    /// The file name tracebacks show (`exercise.py` for exercises).
    pub filename: String,
    /// Interpreter step limit (statements + calls) before the run is stopped.
    pub max_steps: u64,
    /// Wall-clock limit for the run.
    pub max_wall: std::time::Duration,
    /// Set from another thread to stop the run (the UI's Ctrl-C); it ends with KeyboardInterrupt.
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            backend: BackendChoice::Auto,
            gpus: 1,
            gpu_memory: 80 << 30,
            launch_blocking: false,
            env: Vec::new(),
            filename: "exercise.py".to_string(),
            max_steps: 20_000_000,
            max_wall: std::time::Duration::from_secs(10),
            cancel: None,
        }
    }
}

/// Whether this build contains the kernel launcher for real GPUs. Until it does, `auto` always
/// picks sim and `--backend cuda` is refused with a clear message (doctor says so too).
pub const CUDA_RUNTIME_BUILT: bool = false;
