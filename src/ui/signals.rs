//! Signals never leave the terminal in the pager's state: on Unix every catchable signal that
//! would end the process ends the pager the way `q` does, a stop gives the terminal back, and
//! a fatal signal restores it from its handler (unix.rs). Windows has no such signals: there
//! Ctrl-C and Ctrl-Break (console events, which the C runtime delivers as SIGINT and
//! SIGBREAK) end the pager as `q` does, and a panic restores the terminal through the panic
//! hook as on every system.

#[cfg(unix)]
mod unix;
#[cfg(unix)]
pub(super) use unix::{Termination, install_fatal_handlers, stop_self};

#[cfg(not(unix))]
mod other;
#[cfg(not(unix))]
pub use other::{Termination, install_fatal_handlers, stop_self};
