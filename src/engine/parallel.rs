//! Intra-op threads, as ATen's `at::parallel_for`: an op over `n` independent items splits
//! them into at most [`num_threads`] contiguous ranges of at least `grain` items, run on a
//! shared pool (rayon's global one). PyTorch's intra-op thread count is [`num_threads`]
//! (`torch.get_num_threads()`): `OMP_NUM_THREADS` / `MKL_NUM_THREADS` when set, else the
//! machine's cores; `torch.set_num_threads(n)` changes it ([`set_num_threads`]).
//!
//! Only for work whose results do not depend on the split: each output element computed by
//! one range, in the same order whatever the thread count (elementwise ops, rows of a softmax,
//! output panels of a product). Reductions whose partial sums PyTorch splits by thread keep
//! their one-thread order elsewhere.
//!
//! What a range may not do: allocate memory a script's size decides (the memory budget counts
//! each thread's heap, and a worker's is not the run's: allocate outputs before the split).
//! Polling is the caller's: each worker polls the interrupt of the thread that started the op
//! ([`crate::engine::interrupt::inherit`]), and a stop one of them sees is kept for the op's
//! end on the calling thread, as a one-thread [`should_stop`] loop's would be.
//!
//! [`should_stop`]: crate::engine::interrupt::should_stop

use super::error::EngineError;
use super::interrupt;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// ATen's `at::internal::GRAIN_SIZE`: elementwise ops and reductions of fewer elements stay on
/// one thread.
pub(crate) const GRAIN_SIZE: usize = 32768;

/// 0 until first read or set.
static THREADS: AtomicUsize = AtomicUsize::new(0);

/// PyTorch's default intra-op thread count: `OMP_NUM_THREADS`, then `MKL_NUM_THREADS` (a
/// positive whole number), else the cores this process may run on.
fn default_threads() -> usize {
    ["OMP_NUM_THREADS", "MKL_NUM_THREADS"]
        .iter()
        .find_map(|v| {
            std::env::var(v)
                .ok()
                .and_then(|s| s.trim().parse::<usize>().ok())
                .filter(|&n| n > 0)
        })
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// The intra-op thread count (`torch.get_num_threads()`).
pub(crate) fn num_threads() -> usize {
    match THREADS.load(Ordering::Relaxed) {
        0 => {
            let n = default_threads();
            // another thread may have set it meanwhile: keep theirs
            match THREADS.compare_exchange(0, n, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => n,
                Err(set) => set,
            }
        }
        n => n,
    }
}

/// Back to the default count, for a new run in this process (PyTorch starts each process at
/// its default; an earlier run's `torch.set_num_threads` must not carry over).
pub(crate) fn reset_num_threads() {
    // unit tests share one process: a run starting beside a test that holds the count leaves it
    #[cfg(test)]
    let Ok(_held) = TEST_THREADS_LOCK.try_lock() else {
        return;
    };
    THREADS.store(default_threads(), Ordering::Relaxed);
}

/// Tests anywhere in the crate that set the thread count hold this lock while they run (the
/// count is the process's, and some tests assert how work splits at a count they set).
#[cfg(test)]
pub(crate) static TEST_THREADS_LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Sets the intra-op thread count (`torch.set_num_threads(n)`); 0 is taken as 1.
pub(crate) fn set_num_threads(n: usize) {
    THREADS.store(n.max(1), Ordering::Relaxed);
}

/// How `n` items split at this thread count: `(tasks, items per task)`, as `at::parallel_for`
/// (one task when `n` is at most `grain`, when one thread is asked for, or when this thread is
/// already a pool worker: ops never nest their splits).
fn split(n: usize, grain: usize) -> (usize, usize) {
    let threads = num_threads();
    if n <= grain.max(1) || threads <= 1 || rayon::current_thread_index().is_some() {
        return (1, n);
    }
    let tasks = threads.min(n.div_ceil(grain.max(1)));
    (tasks, n.div_ceil(tasks))
}

/// Splits `out` into rows of `row_len` elements and runs `f(first_row, rows)` over contiguous
/// runs of whole rows, in parallel when there are more than `grain` elements (counted as
/// elements, `at::parallel_for`'s grain for a row-wise op is rows × row length). `out.len()`
/// must be a multiple of `row_len` (a trailing partial row is handed over as a row of its own).
///
/// The runs are the same whatever happens at run time (the split depends only on the sizes and
/// the thread count), and each is computed by one call of `f`; which thread makes that call is
/// decided as they go: the calling thread and the pool workers claim the runs in order, the
/// caller until none is left. A worker that wakes late (rayon's sleep between ops, or a scheduler slice lost
/// to another process) then costs nothing: the caller does its run instead of sleeping until
/// the worker comes (at a load average of 10 on two cores a split op used to take 2-3x its
/// one-thread time that way).
pub(crate) fn parallel_rows_mut<T: Send>(
    out: &mut [T],
    row_len: usize,
    grain: usize,
    f: impl Fn(usize, &mut [T]) + Sync,
) {
    let row_len = row_len.max(1);
    let rows = out.len().div_ceil(row_len);
    let (tasks, per_rows) = split(rows, grain.div_ceil(row_len).max(1));
    if tasks <= 1 {
        f(0, out);
        return;
    }
    // each run behind its own lock, taken once by whichever thread claims its index
    let runs: Vec<Mutex<Option<&mut [T]>>> = out
        .chunks_mut(per_rows * row_len)
        .map(|run| Mutex::new(Some(run)))
        .collect();
    let inherited = interrupt::inherit();
    let stop: Mutex<Option<EngineError>> = Mutex::new(None);
    let caller = std::thread::current().id();
    let run_task = |t: usize| {
        let taken = runs.get(t).and_then(|r| r.lock().ok()?.take());
        let Some(run) = taken else { return };
        if std::thread::current().id() == caller {
            // this thread polls its own interrupt: a stop it sees is kept here already
            f(t * per_rows, run);
        } else if let Some(e) = inherited.run(|| f(t * per_rows, run)).1 {
            let mut kept = stop.lock().unwrap_or_else(|p| p.into_inner());
            kept.get_or_insert(e);
        }
    };
    claim_tasks(runs.len(), &run_task);
    if let Some(e) = stop.into_inner().unwrap_or_else(|p| p.into_inner()) {
        interrupt::keep_pending(e);
    }
}

/// What the pool workers of one split share with its caller.
struct Claims {
    /// the next task index to claim; indices past the last are claimed by no one
    next: AtomicUsize,
    /// tasks finished (claimed and run, or panicked)
    done: AtomicUsize,
    tasks: usize,
    /// the caller's `run_task`, its type and lifetime erased (see [`claim_tasks`]), and the
    /// function that calls it
    run_task: *const (),
    call: unsafe fn(*const (), usize),
    /// the first panic of a task, re-raised on the calling thread
    panic: Mutex<Option<Box<dyn std::any::Any + Send>>>,
}

// SAFETY: `run_task` points to a `Sync` closure (calling it from several threads at once is
// what `Sync` allows; `call` only calls it), and every other field is Send and Sync.
unsafe impl Send for Claims {}
// SAFETY: as for Send: the pointer is only used to call a Sync closure.
unsafe impl Sync for Claims {}

impl Claims {
    /// Claims and runs tasks until none is left. A panic is kept before its task is counted
    /// done, so the caller sees it once it has seen every task done.
    fn work(&self) {
        loop {
            let t = self.next.fetch_add(1, Ordering::AcqRel);
            if t >= self.tasks {
                return;
            }
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                // SAFETY: `call` is `call_erased::<F>` for the `F` that `run_task` points to. A
                // task index below `tasks` is claimed once, and [`claim_tasks`] does not return
                // (so the closure behind the pointer lives) until every such task is done.
                unsafe { (self.call)(self.run_task, t) }
            }));
            if let Err(p) = r {
                let mut kept = self.panic.lock().unwrap_or_else(|e| e.into_inner());
                kept.get_or_insert(p);
            }
            self.done.fetch_add(1, Ordering::AcqRel);
        }
    }
}

/// Calls the `F` behind `run_task` with `t`.
///
/// # Safety
/// `run_task` must point to a live `F`.
unsafe fn call_erased<F: Fn(usize) + Sync>(run_task: *const (), t: usize) {
    // SAFETY: the caller's promise: `run_task` points to a live `F`.
    let f = unsafe { &*(run_task as *const F) };
    f(t)
}

/// Runs `run_task(t)` once for every `t` in `0..tasks`, on this thread and on pool workers, each
/// claiming the next unclaimed index when it gets to run. Returns
/// when every task has finished; a panic in any of them is raised again here.
///
/// The workers get `run_task` as a pointer without its lifetime (rayon's jobs are `'static`).
/// They use it only for a task index they claimed below `tasks`, and this function waits below
/// until all those tasks are done, panics included (caught in `Claims::work`), before
/// `run_task` can go away. A worker that starts later finds every index claimed and never
/// touches the pointer.
fn claim_tasks<F: Fn(usize) + Sync>(tasks: usize, run_task: &F) {
    let claims = std::sync::Arc::new(Claims {
        next: AtomicUsize::new(0),
        done: AtomicUsize::new(0),
        tasks,
        run_task: (run_task as *const F).cast::<()>(),
        call: call_erased::<F>,
        panic: Mutex::new(None),
    });
    for _ in 1..tasks {
        let claims = std::sync::Arc::clone(&claims);
        rayon::spawn(move || claims.work());
    }
    claims.work();
    // The tasks left are running on workers (all were claimed): wait for them, spinning a
    // little first (a run takes at least a grain of work, microseconds), then yielding the core
    // (on a loaded machine the worker may need it).
    let mut spins = 0u32;
    while claims.done.load(Ordering::Acquire) < tasks {
        if spins < 1 << 12 {
            spins += 1;
            std::hint::spin_loop();
        } else {
            std::thread::yield_now();
        }
    }
    let panic = claims
        .panic
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take();
    if let Some(p) = panic {
        std::panic::resume_unwind(p);
    }
}

#[cfg(test)]
mod tests {
    use super::TEST_THREADS_LOCK as COUNT;
    use super::*;

    #[test]
    fn small_work_stays_in_one_range_and_large_work_splits_per_thread() {
        let _g = COUNT.lock().unwrap_or_else(|e| e.into_inner());
        set_num_threads(4);
        assert_eq!(split(GRAIN_SIZE, GRAIN_SIZE), (1, GRAIN_SIZE));
        assert_eq!(split(GRAIN_SIZE + 1, GRAIN_SIZE), (2, GRAIN_SIZE / 2 + 1));
        assert_eq!(split(10 * GRAIN_SIZE, GRAIN_SIZE), (4, 10 * GRAIN_SIZE / 4));
        set_num_threads(1);
        assert_eq!(split(10 * GRAIN_SIZE, GRAIN_SIZE), (1, 10 * GRAIN_SIZE));
        set_num_threads(0);
        assert_eq!(num_threads(), 1, "0 is taken as 1");
    }

    #[test]
    fn every_row_is_written_once_whatever_the_thread_count() {
        let _g = COUNT.lock().unwrap_or_else(|e| e.into_inner());
        for threads in [1, 2, 3, 8] {
            set_num_threads(threads);
            let n = 5 * GRAIN_SIZE + 7;
            let mut out = vec![0usize; n];
            parallel_rows_mut(&mut out, 10, GRAIN_SIZE, |first, rows| {
                for (i, v) in rows.iter_mut().enumerate() {
                    *v = first * 10 + i;
                }
            });
            assert!(
                out.iter().enumerate().all(|(i, &v)| v == i),
                "{threads} threads"
            );
        }
    }

    #[test]
    fn a_split_op_finishes_on_the_calling_thread_while_every_pool_worker_is_busy() {
        let _g = COUNT.lock().unwrap_or_else(|e| e.into_inner());
        set_num_threads(3);
        let release =
            std::sync::Arc::new(std::sync::Barrier::new(rayon::current_num_threads() + 1));
        for _ in 0..rayon::current_num_threads() {
            let release = std::sync::Arc::clone(&release);
            rayon::spawn(move || {
                release.wait();
            });
        }
        let mut out = vec![0usize; 3 * GRAIN_SIZE];
        parallel_rows_mut(&mut out, 1, GRAIN_SIZE, |first, rows| {
            for (i, v) in rows.iter_mut().enumerate() {
                *v = first + i + 1;
            }
        });
        release.wait();
        assert!(out.iter().enumerate().all(|(i, &v)| v == i + 1));
    }

    #[test]
    fn a_panic_in_a_run_reaches_the_caller_after_every_run_ended() {
        let _g = COUNT.lock().unwrap_or_else(|e| e.into_inner());
        set_num_threads(2);
        let mut out = vec![0u8; 4 * GRAIN_SIZE];
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            parallel_rows_mut(&mut out, 1, GRAIN_SIZE, |first, rows| {
                rows.fill(1);
                assert!(first == 0, "the second run fails");
            })
        }));
        assert!(r.is_err());
        assert!(out.iter().all(|&v| v == 1), "both runs ran to their end");
    }

    #[test]
    fn a_workers_stop_reaches_the_ops_end_on_the_calling_thread() {
        use crate::engine::interrupt::{Interrupt, enter, should_stop, take_pending};
        use std::sync::Arc;
        use std::sync::atomic::AtomicBool;
        let _g = COUNT.lock().unwrap_or_else(|e| e.into_inner());
        set_num_threads(2);
        let flag = Arc::new(AtomicBool::new(true));
        let i = Interrupt {
            cancel: Some(flag),
            deadline: None,
        };
        let _op = enter(&i, 5);
        let mut out = vec![0u8; 4 * GRAIN_SIZE];
        parallel_rows_mut(&mut out, 1, GRAIN_SIZE, |_, _| while !should_stop() {});
        let stop = take_pending().expect("the workers' stop is kept for the op's end");
        assert_eq!(
            stop.kind,
            crate::engine::error::ErrorKind::KeyboardInterrupt
        );
    }
}
