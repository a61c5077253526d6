//! The global options that say how exercises and scripts run (the pager, `run`, `check`,
//! `lint` and `diff` all use them).

use super::size::parse_gpu_size;
use crate::run::{BackendChoice, RunOptions};
use std::path::PathBuf;

/// How exercises and scripts run (the pager, `run`, `check` and `lint` all use these).
#[derive(clap::Args, Clone)]
pub struct EngineArgs {
    /// Where CUDA tensors live: a real GPU (cuda), the simulated GPU (sim), the real kernels run
    /// on the CPU (emulated), or cuda when usable. `pytorch` runs the script on this machine's
    /// own Python and PyTorch, UNSANDBOXED (never chosen by auto).
    #[arg(long, global = true, value_enum, default_value = "auto")]
    backend: BackendArg,
    /// Number of simulated GPUs (cuda:0 … cuda:N-1).
    #[arg(long, global = true, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=16))]
    gpus: u32,
    /// Memory of each simulated GPU, e.g. 80GiB, 24GiB, 512MiB; the default is a real H200's
    /// (139.80 GiB).
    #[arg(long, global = true, default_value = "143156MiB", value_parser = parse_gpu_size)]
    gpu_memory: u64,
    /// Cap this process's GPU memory (for labs sharing one card); also CUDATUTOR_GPU_MEM_LIMIT.
    #[arg(long, global = true, value_parser = parse_gpu_size, env = "CUDATUTOR_GPU_MEM_LIMIT")]
    gpu_mem_limit: Option<u64>,
    /// Make every kernel launch synchronous, as CUDA_LAUNCH_BLOCKING=1 does.
    #[arg(long, global = true)]
    launch_blocking: bool,
    /// The Python interpreter of `--backend pytorch` and `diff` [default: CUDATUTOR_PYTHON, else
    /// the Python of the venv cudatutor is installed in, else python3].
    #[arg(long, global = true, value_name = "PATH")]
    python: Option<PathBuf>,
    /// The most host memory a run may hold (tensors, lists, strings together), e.g. 2GiB,
    /// 512MiB; also CUDATUTOR_MEMORY_LIMIT [default: half the machine's memory, at most 3GiB;
    /// less when the process's cgroup or address-space limit allows less].
    #[arg(long, global = true, value_name = "SIZE", value_parser = parse_memory_limit)]
    memory_limit: Option<u64>,
}

fn parse_memory_limit(s: &str) -> Result<u64, String> {
    crate::budget::parse_size(s)
        .ok_or_else(|| format!("`{s}` is not a size: write bytes or e.g. 512MiB, 2GiB"))
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum BackendArg {
    Auto,
    Sim,
    Cuda,
    Emulated,
    Pytorch,
}

impl EngineArgs {
    pub fn options(&self) -> RunOptions {
        if let Some(bytes) = self.memory_limit {
            // before anything reads the limit: options are built first thing in main
            crate::budget::set_limit(bytes);
        }
        // The limit caps this process's allocator (PyTorch's per-process memory fraction); the
        // device keeps its capacity, which the OOM message reports as "total capacity".
        RunOptions {
            backend: match self.backend {
                BackendArg::Auto => BackendChoice::Auto,
                BackendArg::Sim => BackendChoice::Sim,
                BackendArg::Cuda => BackendChoice::Cuda,
                BackendArg::Emulated => BackendChoice::Emulated,
                BackendArg::Pytorch => BackendChoice::Pytorch,
            },
            python: self.python.clone(),
            gpus: self.gpus,
            gpu_memory: self.gpu_memory,
            mem_limit: self.gpu_mem_limit,
            launch_blocking: self.launch_blocking,
            ..RunOptions::default()
        }
    }
}
