//! numpy fixtures (issue 17 item 4): every script in tests/numpy/*.py exercises cudatutor's
//! numpy subset (printing, promotion, indexing, reductions, the legacy np.random stream, the
//! torch<->numpy bridge) and must behave exactly as real numpy 2.4 + PyTorch 2.15 did when
//! scripts/record-pytorch.py --dir tests/numpy recorded it (tests/numpy/expected/): stdout
//! byte for byte, the last stderr line, the exit status. tests/numpy/KNOWN_GAPS names what
//! still differs. `FIXTURE_FILTER=substring` runs a subset.

mod common;

use common::differential::assert_suite;

#[test]
fn every_numpy_script_matches_numpy() {
    assert_suite(
        "tests/numpy",
        6,
        "scripts/record-pytorch.py --dir tests/numpy",
        "numpy",
    );
}
