//! Helpers shared by integration tests (a folder, so cargo does not run it as a test).

pub(crate) mod corpus_report;
pub(crate) mod differential;
pub(crate) mod tmux;
