//! Checking an error a run reported by its type and the start of its message, where the rest
//! of the message holds specifics of the run (tests/script_eval.rs, tests/emulated_worker.rs,
//! tests/pytorch_backend.rs).
#![allow(dead_code)]

use cudatutor::run::{ErrorReport, RunReport};

/// The error is a `want_type` whose message starts with `start`.
pub(crate) fn assert_error_starts(type_name: &str, message: &str, want_type: &str, start: &str) {
    assert_eq!(type_name, want_type, "{message}");
    assert!(
        message.starts_with(start),
        "expected a message starting {start:?}, got:\n{message}"
    );
}

/// The error `report` ends with, checked to be a `want_type` whose message starts with `start`.
pub(crate) fn report_error_starting<'a>(
    report: &'a RunReport,
    want_type: &str,
    start: &str,
) -> &'a ErrorReport {
    let e = report
        .error
        .as_ref()
        .unwrap_or_else(|| panic!("expected a {want_type}; the run ended without an error"));
    assert_error_starts(&e.type_name, &e.message, want_type, start);
    e
}
