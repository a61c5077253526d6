//! The pager's signals where there are no Unix signals (Windows): the console's Ctrl-C and
//! Ctrl-Break, as the C runtime delivers them, ask the pager to quit; there is no job-control
//! stop and no fatal-signal handler to install.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set when the console asked the process to end.
#[derive(Clone)]
pub(crate) struct Termination {
    quit: Arc<AtomicBool>,
}

impl Termination {
    /// Registers the handlers. Failure to register (very unusual) only loses this nicety.
    pub fn install() -> Termination {
        let quit = Arc::new(AtomicBool::new(false));
        for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
            let _ = signal_hook::flag::register(sig, quit.clone());
        }
        Termination { quit }
    }

    pub fn requested(&self) -> bool {
        self.quit.load(Ordering::SeqCst)
    }

    /// Windows has no job-control stop: never asked for.
    pub(crate) fn take_suspend(&self) -> bool {
        false
    }
}

/// Never called where `take_suspend` is always false.
pub(crate) fn stop_self() {}

/// Nothing to install: a crash ends the process without a signal handler, and the panic hook
/// restores the terminal.
pub(crate) fn install_fatal_handlers() {}
