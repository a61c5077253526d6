//! The learner corpus (issue 17): short scripts written the way a beginner writes them, from
//! PyTorch's "Learn the Basics", the 60-minute blitz, "What is torch.nn really?", the MNIST
//! examples on synthetic tensors, d2l's early chapters, Stack Overflow's classic errors, numpy
//! interop and plain Python (tests/learner/*.py, grouped by file-name prefix). Every script runs
//! through `cudatutor run NAME.py` from a scratch folder, as scripts/record-pytorch.py ran it
//! under real PyTorch 2.15 (CPU), and must give the same stdout byte for byte, the same last
//! stderr line and the same exit status (tests/learner/expected/).
//!
//! Unlike tests/torch, these scripts print seeded random numbers, save and load models and
//! call the API a tutorial calls, whether or not the engine has it: tests/learner/KNOWN_GAPS
//! names what still differs (with a reason); the test fails when a listed script starts to
//! match (delete its line) or an unlisted one stops matching.
//! `FIXTURE_FILTER=substring` runs a subset; scripts/corpus-report.sh prints the pass count
//! per group and the commonest failure causes.

mod common;

use common::differential::Suite;
use std::time::Duration;

#[test]
fn every_learner_script_matches_pytorch_cpu() {
    let suite = Suite {
        dir: "tests/learner",
        min: 400,
        recorder: "scripts/record-pytorch.py --dir tests/learner",
        truth: "PyTorch",
        timeout: Duration::from_secs(30),
        isolate: true,
    };
    suite.assert_matches();
}
