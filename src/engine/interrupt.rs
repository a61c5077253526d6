//! Stopping a busy tensor op: the run's cancel flag (Ctrl-c in the TUI, SIGINT to `run`) and
//! its wall-clock deadline are checked inside the kernels' outer loops (a matmul's rows, a
//! sort's rows, every chunk of a big elementwise op or reduction), so a 1024x1024 matmul
//! loop stops within milliseconds instead of running to the end of the op.
//!
//! The runtime enters its [`Interrupt`] for the duration of each op ([`enter`]); kernels call
//! [`poll`], which is a thread-local read and, at most once per [`POLL_EVERY`] calls, an
//! atomic load and a clock read. Outside an op (or in a runtime without limits) it does
//! nothing.

use super::error::{EngineError, ErrorKind, Result};
use crate::units::fmt_secs;
use std::cell::{Cell, RefCell};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Kernels poll about this often (elements of an elementwise chunk are counted by the
/// kernel, not here): reading the clock costs ~20 ns, so every call would be too much for
/// per-row polls of small rows.
pub(crate) const POLL_EVERY: u32 = 16;

/// Elements an elementwise or reduction kernel processes between polls.
pub(crate) const CHUNK: usize = 1 << 16;

/// What stops a run: the cancel flag and the wall-clock deadline.
#[derive(Clone, Debug, Default)]
pub struct Interrupt {
    pub cancel: Option<Arc<AtomicBool>>,
    /// When the run must stop, and the limit it came from (for the message).
    pub deadline: Option<(Instant, Duration)>,
}

impl Interrupt {
    pub fn is_empty(&self) -> bool {
        self.cancel.is_none() && self.deadline.is_none()
    }

    /// The error for a stop, or None to go on.
    pub fn check(&self, line: u32) -> Option<EngineError> {
        if let Some(c) = &self.cancel
            && c.load(Ordering::Relaxed)
        {
            return Some(EngineError::new(ErrorKind::KeyboardInterrupt, ""));
        }
        if let Some((at, limit)) = self.deadline
            && Instant::now() >= at
        {
            return Some(EngineError::new(
                ErrorKind::TimeoutError,
                format!(
                    "the script ran longer than {} seconds (line {line})",
                    fmt_secs(limit)
                ),
            ));
        }
        None
    }
}

struct Active {
    interrupt: Interrupt,
    line: u32,
}

thread_local! {
    static ACTIVE: RefCell<Option<Active>> = const { RefCell::new(None) };
    static COUNTDOWN: Cell<u32> = const { Cell::new(0) };
    /// The stop a [`should_stop`] loop saw, until the op's end takes it ([`take_pending`]).
    static PENDING: RefCell<Option<EngineError>> = const { RefCell::new(None) };
}

/// While alive, [`poll`] on this thread checks `interrupt` (reporting `line`).
pub struct Guard {
    previous: Option<Active>,
}

impl Drop for Guard {
    fn drop(&mut self) {
        let prev = self.previous.take();
        ACTIVE.with(|a| *a.borrow_mut() = prev);
    }
}

/// Make `interrupt` the one kernels on this thread poll, until the guard drops.
pub fn enter(interrupt: &Interrupt, line: u32) -> Guard {
    let next = (!interrupt.is_empty()).then(|| Active {
        interrupt: interrupt.clone(),
        line,
    });
    let previous = ACTIVE.with(|a| std::mem::replace(&mut *a.borrow_mut(), next));
    COUNTDOWN.with(|c| c.set(0));
    PENDING.with(|p| p.borrow_mut().take());
    Guard { previous }
}

/// Called by kernels between chunks of work: Err(KeyboardInterrupt or TimeoutError) when
/// the run must stop.
#[inline]
pub fn poll() -> Result<()> {
    let due = COUNTDOWN.with(|c| {
        let n = c.get();
        if n == 0 {
            c.set(POLL_EVERY);
            true
        } else {
            c.set(n - 1);
            false
        }
    });
    if !due {
        return Ok(());
    }
    ACTIVE.with(|a| match a.borrow().as_ref() {
        Some(act) => match act.interrupt.check(act.line) {
            Some(e) => Err(e),
            None => Ok(()),
        },
        None => Ok(()),
    })
}

/// Like [`poll`], but checks now (for coarse loops: one matmul, one sort row).
pub(crate) fn poll_now() -> Result<()> {
    COUNTDOWN.with(|c| c.set(0));
    poll()
}

/// For loops that cannot return an error (engine::numerics' bit-exact kernels keep ATen's
/// infallible shape): true when the run must stop, and then true at every later call of the
/// op. The loop returns early with a partial result; the error is kept for the op's end,
/// where [`take_pending`] turns the whole op into it, so the partial result is never seen.
#[inline]
pub(crate) fn should_stop() -> bool {
    if PENDING.with(|p| p.borrow().is_some()) {
        return true;
    }
    match poll() {
        Ok(()) => false,
        Err(e) => {
            PENDING.with(|p| *p.borrow_mut() = Some(e));
            true
        }
    }
}

/// A stable `sort_by` for long sorts that polls [`should_stop`]: runs of [`CHUNK`] elements
/// are sorted by the standard sort, then merged pairwise, with a poll between runs and every
/// [`CHUNK`] merged elements. On a stop it returns early, leaving `v` a permutation of itself
/// in no useful order; the op ends with the stop, so nobody sees it.
///
/// The poll cannot live in the comparator: a comparator that starts answering `Equal`
/// part-way is no longer a total order, and the standard sort may then panic ("user-provided
/// comparison function does not correctly implement a total order").
pub(crate) fn polling_sort_by<T: Copy>(
    v: &mut [T],
    mut cmp: impl FnMut(&T, &T) -> std::cmp::Ordering,
) {
    if v.len() <= CHUNK {
        v.sort_by(&mut cmp);
        return;
    }
    for run in v.chunks_mut(CHUNK) {
        if stop_due() {
            return;
        }
        run.sort_by(&mut cmp);
    }
    let mut buf: Vec<T> = Vec::new();
    if buf.try_reserve_exact(v.len()).is_err() {
        // no room for the merge buffer: the standard sort needs half as much
        v.sort_by(&mut cmp);
        return;
    }
    buf.extend_from_slice(v);
    // ping-pong between `v` and `buf`: `in_v` says which one holds the sorted runs
    let mut in_v = true;
    let mut width = CHUNK;
    while width < v.len() {
        let (src, dst): (&[T], &mut [T]) = if in_v {
            (&*v, &mut buf[..])
        } else {
            (&buf[..], &mut *v)
        };
        let mut start = 0;
        while start < src.len() {
            let mid = (start + width).min(src.len());
            let end = (start + 2 * width).min(src.len());
            if !merge_polled(
                &src[start..mid],
                &src[mid..end],
                &mut dst[start..end],
                &mut cmp,
            ) {
                if !in_v {
                    // `v` was half overwritten: the last whole pass is in `buf`
                    v.copy_from_slice(&buf);
                }
                return;
            }
            start = end;
        }
        in_v = !in_v;
        width *= 2;
    }
    if !in_v {
        v.copy_from_slice(&buf);
    }
}

/// [`should_stop`] checked now: a sort's runs and merges are a few milliseconds each, so the
/// clock is read at every one rather than every [`POLL_EVERY`].
fn stop_due() -> bool {
    COUNTDOWN.with(|c| c.set(0));
    should_stop()
}

/// Merges sorted `a` and `b` into `out` (ties from `a` first, so the sort stays stable),
/// polling every [`CHUNK`] elements: false when the run must stop.
fn merge_polled<T: Copy>(
    a: &[T],
    b: &[T],
    out: &mut [T],
    cmp: &mut impl FnMut(&T, &T) -> std::cmp::Ordering,
) -> bool {
    let (mut i, mut j) = (0, 0);
    for (k, slot) in out.iter_mut().enumerate() {
        if k % CHUNK == 0 && stop_due() {
            return false;
        }
        let take_b = i == a.len() || (j < b.len() && cmp(&b[j], &a[i]) == std::cmp::Ordering::Less);
        if take_b {
            *slot = b[j];
            j += 1;
        } else {
            *slot = a[i];
            i += 1;
        }
    }
    true
}

/// The caller's interrupt, handed to the worker threads of a parallel op
/// ([`crate::engine::parallel`]): a worker polls what the thread that started the op polls.
#[derive(Clone)]
pub(crate) struct Inherited(Option<(Interrupt, u32)>);

/// What this thread polls now, for its parallel op's workers.
pub(crate) fn inherit() -> Inherited {
    Inherited(ACTIVE.with(|a| {
        a.borrow()
            .as_ref()
            .map(|act| (act.interrupt.clone(), act.line))
    }))
}

impl Inherited {
    /// Runs `f` on this (worker) thread polling the inherited interrupt; returns its result and
    /// the stop a [`should_stop`] loop inside it saw, if any.
    pub(crate) fn run<R>(&self, f: impl FnOnce() -> R) -> (R, Option<EngineError>) {
        let _guard = match &self.0 {
            Some((interrupt, line)) => enter(interrupt, *line),
            None => enter(&Interrupt::default(), 0),
        };
        let r = f();
        (r, take_pending())
    }
}

/// Keeps a stop a worker thread saw for this thread's op end (as [`should_stop`] would have).
pub(crate) fn keep_pending(e: EngineError) {
    PENDING.with(|p| {
        let mut p = p.borrow_mut();
        if p.is_none() {
            *p = Some(e);
        }
    });
}

/// The stop a [`should_stop`] loop saw during this op, if any (cleared).
pub(crate) fn take_pending() -> Option<EngineError> {
    PENDING.with(|p| p.borrow_mut().take())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An interrupt with no deadline that a store to the returned flag cancels.
    fn cancellable() -> (Arc<AtomicBool>, Interrupt) {
        let flag = Arc::new(AtomicBool::new(false));
        let i = Interrupt {
            cancel: Some(flag.clone()),
            deadline: None,
        };
        (flag, i)
    }

    #[test]
    fn polls_see_the_flag_and_the_deadline_only_inside_an_op() {
        let (flag, i) = cancellable();
        assert!(poll_now().is_ok());
        {
            let _g = enter(&i, 3);
            assert!(poll_now().is_ok());
            flag.store(true, Ordering::Relaxed);
            let e = poll_now().unwrap_err();
            assert_eq!(e.kind, ErrorKind::KeyboardInterrupt);
        }
        assert!(poll_now().is_ok(), "outside the op nothing is checked");
        let late = Interrupt {
            cancel: None,
            deadline: Some((Instant::now(), Duration::from_secs(10))),
        };
        let _g = enter(&late, 7);
        let e = poll_now().unwrap_err();
        assert_eq!(e.kind, ErrorKind::TimeoutError);
        assert_eq!(e.message, "the script ran longer than 10 seconds (line 7)");
    }

    #[test]
    fn a_stop_seen_by_an_infallible_loop_is_kept_for_the_ops_end() {
        let (flag, i) = cancellable();
        let _g = enter(&i, 1);
        assert!(!should_stop());
        assert!(take_pending().is_none());
        flag.store(true, Ordering::Relaxed);
        // polls are due every POLL_EVERY calls: the stop is seen within that many
        assert!((0..=POLL_EVERY).any(|_| should_stop()));
        assert!(should_stop(), "once seen, every later call stops at once");
        let e = take_pending().expect("the stop is kept");
        assert_eq!(e.kind, ErrorKind::KeyboardInterrupt);
        assert!(take_pending().is_none());
    }

    /// A scrambled vector with many ties (so stability shows) longer than a few runs.
    fn scrambled(n: usize) -> Vec<(u32, usize)> {
        (0..n)
            .map(|i| (((i as u64 * 2_654_435_761) % 1009) as u32, i))
            .collect()
    }

    #[test]
    fn a_polled_sort_gives_the_standard_stable_order() {
        for n in [0, 5, CHUNK, CHUNK + 1, 3 * CHUNK + 17, 8 * CHUNK] {
            let mut v = scrambled(n);
            let mut want = v.clone();
            want.sort_by_key(|a| a.0);
            polling_sort_by(&mut v, |a, b| a.0.cmp(&b.0));
            assert_eq!(v, want, "n = {n}");
        }
    }

    #[test]
    fn a_sort_stopped_part_way_returns_a_permutation_without_panicking() {
        // a comparator that gave up part-way used to break the standard sort's total order
        // check; a stop now leaves the data as it is. The sort of 6 runs takes ~7.5 million
        // comparisons: the stops fall in the runs' sorts and in each merge pass.
        let n = 6 * CHUNK;
        let mut total = 0u64;
        polling_sort_by(&mut scrambled(n), |a, b| {
            total += 1;
            a.0.cmp(&b.0)
        });
        for stop_at in [
            total / 10,
            total / 2,
            total * 82 / 100,
            total * 88 / 100,
            total * 94 / 100,
        ] {
            let (flag, i) = cancellable();
            let _g = enter(&i, 1);
            let mut v = scrambled(n);
            let mut calls = 0u64;
            polling_sort_by(&mut v, |a, b| {
                calls += 1;
                if calls == stop_at {
                    flag.store(true, Ordering::Relaxed);
                }
                a.0.cmp(&b.0)
            });
            assert!(take_pending().is_some(), "the stop at {stop_at} was seen");
            assert!(calls < total, "the sort stopped early");
            let mut seen: Vec<usize> = v.iter().map(|p| p.1).collect();
            seen.sort_unstable();
            assert!(seen.iter().copied().eq(0..n), "nothing lost or doubled");
        }
    }
}
