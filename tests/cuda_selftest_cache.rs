//! The cuda self-test's cache and its process, without a GPU: the cache key follows the
//! binary, driver, GPU and NVRTC; a verdict is cached (a failure stands until one of them
//! changes or doctor tests again); a test that could not run is not; a `__selftest` process
//! that hangs is killed at its deadline.

use cudatutor::engine::cuda::selftest::*;
use std::cell::Cell;

fn report(passed: bool) -> SelfTestReport {
    SelfTestReport {
        device_kind: "cuda".into(),
        device_name: "NVIDIA H200".into(),
        checks: vec![KernelCheck {
            kernel: "fill_f32".into(),
            passed,
            max_abs_diff: if passed { 0.0 } else { 1.5 },
            tolerance: 0.0,
            detail: None,
        }],
    }
}

fn fresh_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "cudatutor-selftest-cache-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn the_cache_key_changes_with_the_nvrtc_the_driver_the_binary_and_the_gpu() {
    let base = cache_key("bin|1|2", Some((13, 0)), "H200|1|sm_90", Some((13, 0)));
    for other in [
        cache_key("bin|1|2", Some((13, 0)), "H200|1|sm_90", Some((12, 9))),
        cache_key("bin|1|2", Some((13, 0)), "H200|1|sm_90", None),
        cache_key("bin|1|2", Some((13, 1)), "H200|1|sm_90", Some((13, 0))),
        cache_key("bin|1|3", Some((13, 0)), "H200|1|sm_90", Some((13, 0))),
        cache_key("bin|1|2", Some((13, 0)), "H100|1|sm_90", Some((13, 0))),
    ] {
        assert_ne!(base, other);
    }
    assert_eq!(
        base,
        cache_key("bin|1|2", Some((13, 0)), "H200|1|sm_90", Some((13, 0)))
    );
}

#[test]
fn a_passed_test_is_run_once_per_key() {
    let dir = fresh_dir("passed");
    let runs = Cell::new(0);
    let run = || {
        runs.set(runs.get() + 1);
        Ok(report(true))
    };
    for retest in [Retest::Never, Retest::Failures, Retest::Never] {
        assert!(cached_or_run(&dir, "k1", retest, run).unwrap().passed());
    }
    assert_eq!(runs.get(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_failure_stands_until_the_key_changes_or_doctor_retests() {
    let dir = fresh_dir("failed");
    let runs = Cell::new(0);
    let run = |passed| {
        runs.set(runs.get() + 1);
        Ok(report(passed))
    };
    assert!(
        !cached_or_run(&dir, "old", Retest::Never, || run(false))
            .unwrap()
            .passed()
    );
    // start-up: the cached failure stands (no second run)
    assert!(
        !cached_or_run(&dir, "old", Retest::Never, || run(true))
            .unwrap()
            .passed()
    );
    assert_eq!(runs.get(), 1);
    // a new driver, binary or NVRTC is a new key: tested again
    assert!(
        cached_or_run(&dir, "new", Retest::Never, || run(true))
            .unwrap()
            .passed()
    );
    assert_eq!(runs.get(), 2);
    // doctor tests a cached failure again, and its new verdict is cached
    assert!(
        !cached_or_run(&dir, "old", Retest::Failures, || run(false))
            .unwrap()
            .passed()
    );
    assert!(
        cached_or_run(&dir, "old", Retest::Failures, || run(true))
            .unwrap()
            .passed()
    );
    assert!(
        cached_or_run(&dir, "old", Retest::Never, || run(false))
            .unwrap()
            .passed()
    );
    assert_eq!(runs.get(), 4);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_test_that_could_not_run_is_not_cached() {
    let dir = fresh_dir("norun");
    let got = cached_or_run(&dir, "k", Retest::Never, || Err("did not start".into()));
    assert_eq!(got, Err("did not start".to_string()));
    assert!(cached(&dir, "k").is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_self_test_process_that_hangs_is_killed_at_its_deadline() {
    let mut command = std::process::Command::new("/bin/sh");
    command.args(["-c", "echo started; exec sleep 60"]);
    let t0 = std::time::Instant::now();
    let got = output_within(command, std::time::Duration::from_millis(500));
    let took = t0.elapsed();
    let why = got.unwrap_err();
    assert!(why.contains("did not finish within"), "{why}");
    assert!(took < std::time::Duration::from_secs(10), "took {took:?}");
}

#[test]
fn a_self_test_process_that_answers_is_read() {
    let line = serde_json::to_string(&report(true)).unwrap();
    let mut command = std::process::Command::new("/bin/sh");
    command.args(["-c", &format!("echo 'noise'; echo '{line}'; exit 0")]);
    let (out, code) = output_within(command, std::time::Duration::from_secs(30)).unwrap();
    assert_eq!(code, Some(0));
    assert_eq!(report_from_output(&out, code), Ok(report(true)));
}

// ---------------------------------------------------------------- the `auto` decision

use cudatutor::engine::cuda::nvrtc::Nvrtc;
use cudatutor::engine::cuda::probe::{DeviceInfo, DriverProbe, DriverStatus};
use cudatutor::run::doctor::Diagnosis;

/// What doctor would find on an H200 machine whose self-test said `self_test`.
fn gpu_machine(self_test: Option<Result<SelfTestReport, String>>) -> Diagnosis {
    Diagnosis {
        driver: DriverProbe {
            status: DriverStatus::Ready,
            driver_version: Some((13, 0)),
            devices: vec![DeviceInfo {
                ordinal: 0,
                name: "NVIDIA H200".into(),
                total_memory_bytes: 150_110_011_392,
                compute_capability: (9, 0),
            }],
        },
        nvrtc: Ok(Nvrtc {
            path: None,
            found_by: "test".into(),
            version: (13, 0),
        }),
        cublas: true,
        cache_dir: None,
        cached_ptx_files: 0,
        cuda_runtime_built: true,
        emulated: None,
        cuda_self_test: self_test,
    }
}

#[test]
fn auto_picks_cuda_when_the_self_test_passed() {
    let d = gpu_machine(Some(Ok(report(true))));
    assert_eq!(d.cuda_usable(), Ok(()));
    assert!(d.auto_picks_cuda());
    assert!(
        d.render()
            .contains("--backend auto picks cuda: the GPU passed its self-test")
    );
}

#[test]
fn auto_stays_on_the_sim_when_the_self_test_failed_and_doctor_says_which_check() {
    let d = gpu_machine(Some(Ok(report(false))));
    assert!(!d.auto_picks_cuda());
    let why = d.cuda_usable().unwrap_err();
    assert!(
        why.starts_with("the GPU self-test failed: fill_f32: differs from the host by 1.5e0"),
        "{why}"
    );
    let text = d.render();
    assert!(
        text.contains("--backend auto picks sim (the simulated GPU): the GPU self-test failed"),
        "{text}"
    );
    assert!(
        text.contains("GPU self-test on NVIDIA H200: 1 of 1 checks failed"),
        "{text}"
    );
    assert!(
        text.contains("    fill_f32: |device - host| = 1.5e0 > 0e0"),
        "{text}"
    );
    assert!(
        text.contains("`cudatutor doctor` runs it again now"),
        "{text}"
    );
}

#[test]
fn auto_stays_on_the_sim_when_the_self_test_could_not_run_or_did_not() {
    let d = gpu_machine(Some(
        Err("the self-test did not finish within 120 s".into()),
    ));
    assert!(!d.auto_picks_cuda());
    assert_eq!(
        d.cuda_usable(),
        Err("the GPU self-test could not run: the self-test did not finish within 120 s".into())
    );
    // trust, then use: no verdict is no cuda
    assert!(!gpu_machine(None).auto_picks_cuda());
}

#[test]
fn auto_stays_on_the_sim_without_a_gpu_even_with_a_passed_test() {
    let mut d = gpu_machine(Some(Ok(report(true))));
    d.driver = DriverProbe {
        status: DriverStatus::NoDriver,
        driver_version: None,
        devices: Vec::new(),
    };
    assert!(!d.auto_picks_cuda());
    assert_eq!(
        d.cuda_usable(),
        Err("there is no NVIDIA driver on this machine".into())
    );
}
