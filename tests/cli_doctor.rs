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
