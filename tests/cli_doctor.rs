//! `cudatutor doctor` on this machine: its exit status agrees with the backend it says `auto`
//! picks, and a machine without an NVIDIA driver is told so plainly.

use std::process::Command;

#[path = "support/diff_report.rs"]
mod diff_report;
#[path = "support/scratch.rs"]
mod scratch;

/// `cudatutor ARGS doctor`, its kernel cache in a scratch folder of its own.
fn doctor(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_cudatutor"));
    c.args(args).arg("doctor").env(
        "CUDATUTOR_CACHE_DIR",
        std::env::temp_dir().join("cudatutor-doctor-test"),
    );
    c
}

/// Every one of `sections` (headings, or words that must stand in them) is in doctor's `text`.
fn assert_has_sections(text: &str, sections: &[&str]) {
    for section in sections {
        assert!(text.contains(section), "section {section} missing:\n{text}");
    }
}

#[test]
fn doctor_exit_status_matches_its_verdict() {
    let out = doctor(&[]).output().expect("the binary runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_has_sections(
        &text,
        &[
            "Driver and GPUs",
            "NVRTC",
            "cuBLAS",
            "Emulated device",
            "Kernel cache",
            "Backend",
        ],
    );
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
    let out = doctor(&[]).output().expect("the binary runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let entries: usize = cudatutor::engine::cuda::emulated::entry_names()
        .iter()
        .map(|(_, e)| e.len())
        .sum();
    assert!(
        text.contains(&format!(
            "built in: {} kernel files, {entries} entry points",
            cudatutor::engine::cuda::emulated::entry_names().len()
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

/// `doctor --lang zh`: every word of doctor's own in Chinese (what the driver and the probes
/// say is quoted as they say it), including the real-PyTorch section; the exit status is the
/// same verdict as in English.
#[test]
fn doctor_speaks_chinese() {
    let run = |lang: &str| {
        doctor(&["--lang", lang])
            .env("CUDATUTOR_PYTHON", "/nonexistent/cudatutor-doctor/python3")
            .output()
            .expect("the binary runs")
    };
    let (en, zh) = (run("en"), run("zh"));
    assert_eq!(en.status.code(), zh.status.code());
    let text = String::from_utf8_lossy(&zh.stdout);
    assert_has_sections(
        &text,
        &[
            "环境检查",
            "驱动与 GPU",
            "NVRTC（首次使用时编译 kernels/*.cu）",
            "cuBLAS（矩阵乘法",
            "仿真设备",
            "内核缓存",
            "后端",
            "--backend auto 选择",
            "真实的 PyTorch（--backend pytorch 和 `cudatutor diff`；未经沙箱隔离的 Python",
            "python /nonexistent/cudatutor-doctor/python3（CUDATUTOR_PYTHON）：",
        ],
    );
    for english in [
        "Driver and GPUs",
        "Kernel cache",
        "Backend",
        "picks",
        "Real PyTorch",
        "self-test passed",
        "built in:",
    ] {
        assert!(
            !text.contains(english),
            "{english} left in English:\n{text}"
        );
    }
    if !cudatutor::engine::cuda::probe::driver_library_present() {
        assert!(text.contains("这台机器上没有 NVIDIA 驱动"), "{text}");
    }
    for (n, d) in [((13, 5), (13, 0)), ((14, 0), (13, 0)), ((13, 0), (13, 0))] {
        use cudatutor::lesson::Lang;
        use cudatutor::run::doctor::nvrtc_vs_driver_in;
        let zh = nvrtc_vs_driver_in(n, d, Lang::Zh);
        assert!(!zh.contains('{') && !zh.contains("driver"), "{zh}");
        assert_eq!(
            nvrtc_vs_driver_in(n, d, Lang::En),
            cudatutor::run::doctor::nvrtc_vs_driver(n, d)
        );
    }
}

/// `diff --lang zh` says what differs in Chinese; without a usable Python it still says why.
#[test]
fn diff_speaks_chinese() {
    let file = scratch::scratch_file("cudatutor-diff-zh", "hello.py", "print('hi')\n");
    let out = Command::new(env!("CARGO_BIN_EXE_cudatutor"))
        .args(["--lang", "zh", "diff"])
        .arg(&file)
        .args(["--python", "/nonexistent/cudatutor-diff/python3"])
        .output()
        .expect("the binary runs");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(2), "{said}");
    // The text of a comparison, from the library (both sides as a run would report them).
    use cudatutor::lesson::Lang;
    use cudatutor::run::diff::render_in;
    let d = diff_report::comparison("1\n2\n", "1\n");
    let zh = render_in(&d, Lang::Zh);
    for words in [
        "引擎：sim（模拟的 H200（时间为模型估算））",
        "PyTorch：真实的 PyTorch 2.15.0 · CPU — 未经沙箱隔离的 Python",
        "有 1 处不同：",
        "标准输出第 2 行",
        "（没有这一行）",
    ] {
        assert!(zh.contains(words), "{words}:\n{zh}");
    }
    let en = render_in(&d, Lang::En);
    assert!(
        en.contains("stdout line 2") && en.contains("(no such line)"),
        "{en}"
    );
}
