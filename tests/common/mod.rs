//! Helpers shared by integration tests (a folder, so cargo does not run it as a test).

pub mod corpus_report;
pub mod differential;
pub mod tmux;
