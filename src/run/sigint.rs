//! Ctrl-c for `cudatutor run`: SIGINT sets the run's cancel flag, which the interpreter checks
//! between statements and the engine's long loops between chunks (engine/interrupt.rs), so a
//! busy script stops at once with `KeyboardInterrupt`, as `python3 FILE` does. A second Ctrl-c
//! while the first is still unanswered ends the process the default way, so nothing can make
//! the terminal wait.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();

extern "C" fn on_sigint(_: libc::c_int) {
    // Only an atomic load (OnceLock::get) and an atomic swap: async-signal-safe.
    if let Some(flag) = FLAG.get()
        && flag.swap(true, Ordering::SeqCst)
    {
        // SAFETY: signal and raise are async-signal-safe; SIG_DFL ends the process.
        unsafe {
            libc::signal(libc::SIGINT, libc::SIG_DFL);
            libc::raise(libc::SIGINT);
        }
    }
}

/// The cancel flag SIGINT sets from now on (the same flag for every call).
pub(crate) fn cancel_on_sigint() -> Arc<AtomicBool> {
    let flag = FLAG
        .get_or_init(|| Arc::new(AtomicBool::new(false)))
        .clone();
    let handler: extern "C" fn(libc::c_int) = on_sigint;
    // SAFETY: the handler only touches atomics (see above).
    unsafe {
        libc::signal(libc::SIGINT, handler as libc::sighandler_t);
    }
    flag
}

/// The exit status of a run a Ctrl-c stopped: 128 + SIGINT, what a shell reports for
/// `python3 FILE` interrupted the same way.
pub(crate) const INTERRUPTED_STATUS: u8 = 128 + libc::SIGINT as u8;
