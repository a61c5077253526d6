//! CPython conformance (issue 4): every snippet in tests/python/*.py is run through
//! `cudatutor run FILE` and must behave exactly as `python3 FILE` did when it was recorded
//! (scripts/record-python.sh writes tests/python/expected/):
//!
//! - stdout byte for byte equal to `expected/NAME.stdout`;
//! - when `expected/NAME.error` is non-empty, exit status 1 and the last non-empty stderr line
//!   equal to it (the `ExceptionType: message` line of the traceback);
//! - when it is empty, exit status 0.
//!
//! All snippets run; the failure lists every mismatch (name, expected vs got), not just the
//! first. Set `FIXTURE_FILTER=substring` to run only the snippets whose name contains it.
//! The recordings are the truth: this test never runs python3 itself.

mod common;

use common::differential::assert_suite;

const DIR: &str = "tests/python";
const MIN_FIXTURES: usize = 150;

#[test]
fn every_snippet_matches_cpython() {
    assert_suite(DIR, MIN_FIXTURES, "scripts/record-python.sh", "CPython");
}
