//! `cudatutor doctor` on this machine: its exit status agrees with the backend it says `auto`
//! picks, and a machine without an NVIDIA driver is told so plainly.

use std::process::Command;

#[test]
fn doctor_exit_status_matches_its_verdict() {
    let out = Command::new(env!("CARGO_BIN_EXE_cudatutor"))
        .arg("doctor")
        .env(
            "CUDATUTOR_CACHE_DIR",
            std::env::temp_dir().join("cudatutor-doctor-test"),
        )
        .output()
        .expect("the binary runs");
    let text = String::from_utf8_lossy(&out.stdout);
    for section in [
        "Driver and GPUs",
        "NVRTC",
        "cuBLAS",
        "Emulated device",
        "Kernel cache",
        "Backend",
    ] {
        assert!(text.contains(section), "section {section} missing:\n{text}");
    }
    let picks_sim = text.contains("--backend auto picks sim");
    let picks_cuda = text.contains("--backend auto picks cuda");
    assert!(
        picks_sim ^ picks_cuda,
        "exactly one verdict expected:\n{text}"
    );
    assert_eq!(
        out.status.code(),
        Some(if picks_cuda { 0 } else { 1 }),
        "{text}"
    );
    if !cudatutor::engine::cuda::probe::driver_library_present() {
        assert!(text.contains("no NVIDIA driver"), "{text}");
        assert!(picks_sim, "{text}");
    }
}

#[test]
fn doctor_lists_the_emulated_device_and_its_self_test() {
    let out = Command::new(env!("CARGO_BIN_EXE_cudatutor"))
        .arg("doctor")
        .env(
            "CUDATUTOR_CACHE_DIR",
            std::env::temp_dir().join("cudatutor-doctor-test"),
        )
        .output()
        .expect("the binary runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let entries: usize = cudatutor::engine::cuda::emulated::entry_names()
        .iter()
        .map(|(_, e)| e.len())
        .sum();
    assert!(
        text.contains(&format!(
            "built in: 10 kernel files, {entries} entry points"
        )),
        "{text}"
    );
    assert!(
        text.contains("self-test passed: 14 kernels agree with the host"),
        "{text}"
    );
}

#[test]
fn doctor_compares_the_nvrtc_version_with_the_drivers() {
    use cudatutor::run::doctor::nvrtc_vs_driver;
    // NVRTC 13.5 writes PTX ISA 9.5, which driver 580 (CUDA 13.0) rejects: CUBIN instead.
    let newer_minor = nvrtc_vs_driver((13, 5), (13, 0));
    assert!(
        newer_minor.contains("PTX would be rejected"),
        "{newer_minor}"
    );
    assert!(newer_minor.contains("CUBIN"), "{newer_minor}");
    let newer_major = nvrtc_vs_driver((13, 0), (12, 8));
    assert!(
        newer_major.contains("nvidia-cuda-nvrtc-cu12"),
        "{newer_major}"
    );
    assert!(nvrtc_vs_driver((13, 0), (13, 0)).contains("agree"));
    assert!(nvrtc_vs_driver((12, 9), (13, 0)).contains("agree"));
}

#[test]
fn the_gpu_self_test_process_without_a_driver_reports_why_and_fails() {
    if cudatutor::engine::cuda::probe::driver_library_present() {
        return; // a GPU machine: scripts/gpu-check.sh runs the real self-test
    }
    let out = Command::new(env!("CARGO_BIN_EXE_cudatutor"))
        .arg("__selftest")
        .env(
            "CUDATUTOR_CACHE_DIR",
            std::env::temp_dir().join("cudatutor-selftest-test"),
        )
        .output()
        .expect("the binary runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let report: cudatutor::engine::cuda::selftest::SelfTestReport =
        serde_json::from_str(text.trim()).expect("one JSON report");
    assert!(!report.passed());
    assert!(
        report
            .first_failure()
            .is_some_and(|f| f.contains("no NVIDIA driver")),
        "{report:?}"
    );
    assert_eq!(out.status.code(), Some(2));
}
