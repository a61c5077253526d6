//! The self-test `--backend auto` demands of a real GPU, run on the emulated device in CI:
//! a dozen kernels agree with the host, and the failing launch prints PyTorch's assert line
//! and poisons the context.

use cudatutor::engine::cuda::emulated::EmulatedDevice;
use cudatutor::engine::cuda::selftest;

#[test]
fn the_emulated_device_passes_the_self_test() {
    let d = EmulatedDevice::new(1 << 30, 1 << 30).expect("the emulated device is built");
    let report = selftest::run(&d, 132);
    for c in &report.checks {
        eprintln!(
            "{:<55} {} max diff {:e}{}",
            c.kernel,
            if c.passed { "ok  " } else { "FAIL" },
            c.max_abs_diff,
            c.detail
                .as_deref()
                .map(|d| format!(" ({d})"))
                .unwrap_or_default()
        );
    }
    assert!(report.checks.len() >= 13, "{}", report.checks.len());
    assert!(report.passed(), "{:?}", report.first_failure());
    assert_eq!(report.device_kind, "emulated");
}
