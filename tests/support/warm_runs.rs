//! Timed runs of one small script through the warm worker (`run_exercise`, as the pager,
//! `watch` and `check --all` run exercises): tests/emulated_worker.rs on the emulated device,
//! tests/cuda/main.rs on a real GPU (the figures gpu-check.sh reports).

use cudatutor::run::{RunOptions, run_exercise, warm_worker};
use std::time::{Duration, Instant};

/// The script the timed runs run: a kernel launch and a read back to the host.
const CODE: &str = "import torch\nx = torch.ones(4, device='cuda') * 3\nprint(x.sum().item())\n";

/// `n` runs of the script through the warm worker with `opts`, each checked to have run on
/// `backend` and printed its result: the wall time of each, and the warm worker's pid after
/// each (one pid throughout when the worker was kept warm).
pub(crate) fn timed_warm_runs(
    opts: &RunOptions,
    backend: &str,
    n: usize,
) -> (Vec<Duration>, Vec<u32>) {
    let mut times = Vec::new();
    let mut pids = Vec::new();
    for _ in 0..n {
        let t = Instant::now();
        let r = run_exercise(CODE, None, opts);
        times.push(t.elapsed());
        assert_eq!(r.backend, backend, "{:?} {:?}", r.internal_error, r.error);
        assert_eq!(r.stdout, "12.0\n");
        pids.push(warm_worker::pid().expect("a warm worker after the run"));
    }
    (times, pids)
}
