//! SIGTERM, SIGINT and SIGHUP end the pager the same way `q` does: the event loop sees the flag
//! within one poll interval, saves the learner's place and restores the terminal. (In raw mode
//! Ctrl-C is a key press, not SIGINT; these signals come from `kill`, a closing terminal or a
//! lab's session manager.)

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set when one of the signals arrived.
#[derive(Clone)]
pub struct Termination(Arc<AtomicBool>);

impl Termination {
    /// Registers the handlers. Failure to register (very unusual) only loses this nicety.
    pub fn install() -> Termination {
        let flag = Arc::new(AtomicBool::new(false));
        for sig in [
            signal_hook::consts::SIGTERM,
            signal_hook::consts::SIGINT,
            signal_hook::consts::SIGHUP,
        ] {
            let _ = signal_hook::flag::register(sig, flag.clone());
        }
        Termination(flag)
    }

    pub fn requested(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}
