//! PyTorch fixtures (issue 5): every script in tests/torch/*.py is run through
//! `cudatutor run FILE` and must behave exactly as real PyTorch (CPU) did when it was recorded
//! (scripts/record-pytorch.py writes tests/torch/expected/, with the torch version in VERSION):
//!
//! - stdout byte for byte equal to `expected/NAME.stdout`;
//! - when `expected/NAME.error` is non-empty, exit status 1 and the last non-empty stderr line
//!   equal to it (the `ExceptionType: message` line of the traceback);
//! - when it is empty, exit status 0.
//!
//! All snippets run; the failure lists every mismatch (name, expected vs got), not just the
//! first. Set `FIXTURE_FILTER=substring` to run only the snippets whose name contains it.
//! Fixtures listed in tests/torch/KNOWN_GAPS (one name a line, `# reason`) must still differ
//! and are not reported; every other one must match.
//! The recordings are the truth: this test never runs python3 or torch itself. No script uses
//! CUDA or prints random values (the engine does not reproduce PyTorch's RNG stream).

mod common;

use common::differential::assert_suite;

const DIR: &str = "tests/torch";
const MIN_FIXTURES: usize = 80;

#[test]
fn every_torch_script_matches_pytorch_cpu() {
    assert_suite(DIR, MIN_FIXTURES, "scripts/record-pytorch.py", "PyTorch");
}
