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
use std::cell::{Cell, RefCell};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Kernels poll about this often (elements of an elementwise chunk are counted by the
/// kernel, not here): reading the clock costs ~20 ns, so every call would be too much for
/// per-row polls of small rows.
pub const POLL_EVERY: u32 = 16;

/// Elements an elementwise or reduction kernel processes between polls.
pub const CHUNK: usize = 1 << 16;

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

/// `10`, `2.5` (as the interpreter prints its limit).
fn fmt_secs(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s.fract() == 0.0 {
        format!("{}", s as u64)
    } else {
        format!("{s:.1}")
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
pub fn poll_now() -> Result<()> {
    COUNTDOWN.with(|c| c.set(0));
    poll()
}

/// For loops that cannot return an error (engine::numerics' bit-exact kernels keep ATen's
/// infallible shape): true when the run must stop, and then true at every later call of the
/// op. The loop returns early with a partial result; the error is kept for the op's end,
/// where [`take_pending`] turns the whole op into it, so the partial result is never seen.
#[inline]
pub fn should_stop() -> bool {
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

/// `cmp` for a long sort (`sort_by`), polling every few thousand comparisons: once a stop is
/// due every comparison says Equal, so the sort finishes in a blink with a meaningless order
/// that nobody sees, since the op ends with the stop ([`should_stop`]).
pub fn polling_cmp<T>(
    mut cmp: impl FnMut(&T, &T) -> std::cmp::Ordering,
) -> impl FnMut(&T, &T) -> std::cmp::Ordering {
    let mut n = 0u32;
    let mut stopped = false;
    move |a, b| {
        if stopped {
            return std::cmp::Ordering::Equal;
        }
        n = n.wrapping_add(1);
        if n.is_multiple_of(4096) && should_stop() {
            stopped = true;
            return std::cmp::Ordering::Equal;
        }
        cmp(a, b)
    }
}

/// The stop a [`should_stop`] loop saw during this op, if any (cleared).
pub fn take_pending() -> Option<EngineError> {
    PENDING.with(|p| p.borrow_mut().take())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn polls_see_the_flag_and_the_deadline_only_inside_an_op() {
        let flag = Arc::new(AtomicBool::new(false));
        let i = Interrupt {
            cancel: Some(flag.clone()),
            deadline: None,
        };
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
        let flag = Arc::new(AtomicBool::new(false));
        let i = Interrupt {
            cancel: Some(flag.clone()),
            deadline: None,
        };
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
}
