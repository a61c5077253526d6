//! Full-precision float32 fixtures (issue 15): scripts that print float32 results with every
//! bit showing (`.item()`, `.tolist()`, `repr(float(x))`, `torch.set_printoptions(precision=10)`)
//! for elementwise math, reductions of many lengths, statistics, softmax, the losses, scans,
//! ranges, autograd gradients, optimiser steps and short training loops (tests/torch_exact/).
//! They are recorded with real PyTorch 2.15 on the CPU by scripts/record-pytorch.py
//! (`--dir tests/torch_exact`; the CPU capability its vectorised kernels used is in
//! expected/VERSION) and must match bit for bit: same stdout, last stderr line, exit status.
//!
//! Scripts named `blas_*` go through a matrix product whose summation order belongs to the BLAS
//! library PyTorch links: they may legitimately differ in the last bits and are listed in
//! KNOWN_GAPS with that reason while they do. Every other gap is a real one.
//! `FIXTURE_FILTER=substring` runs a subset.

mod common;

use common::differential::Suite;
use std::time::Duration;

#[test]
fn every_float32_script_matches_pytorch_bit_for_bit() {
    let suite = Suite {
        dir: "tests/torch_exact",
        min: 60,
        recorder: "scripts/record-pytorch.py --dir tests/torch_exact",
        truth: "PyTorch",
        timeout: Duration::from_secs(30),
        isolate: true,
    };
    suite.assert_matches();
}
