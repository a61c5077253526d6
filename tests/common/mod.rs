//! Helpers shared by integration tests (a folder, so cargo does not run it as a test).

pub mod differential;
pub mod tmux;
