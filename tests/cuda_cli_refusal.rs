//! `run` and `check` with `--backend cuda` on a machine where it cannot run: one message with
//! doctor's reason and exit 2, never a run (nor 29 exercises graded as failed).

use std::process::Command;

fn cudatutor(args: &[&str]) -> std::process::Output {
    let dir = std::env::temp_dir().join(format!("cudatutor-cuda-refusal-{}", std::process::id()));
    Command::new(env!("CARGO_BIN_EXE_cudatutor"))
        .args(args)
        .env("CUDATUTOR_DATA_DIR", dir.join("data"))
        .env("CUDATUTOR_CACHE_DIR", dir.join("cache"))
        .output()
        .expect("the binary runs")
}

/// Doctor's reason on this machine, or None where cuda can run (nothing to refuse).
fn why_not() -> Option<String> {
    cudatutor::run::doctor::Diagnosis::gather_for_cuda()
        .cuda_usable()
        .err()
}

fn assert_refused(out: &std::process::Output, why: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(
        err,
        format!(
            "cudatutor: --backend cuda cannot run here: {why}. Run `cudatutor doctor` for details, or use --backend sim.\n"
        )
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "",
        "nothing graded or run"
    );
}

#[test]
fn check_with_the_cuda_backend_and_no_usable_gpu_exits_2_with_doctors_reason() {
    let Some(why) = why_not() else { return };
    assert_refused(
        &cudatutor(&["--backend", "cuda", "check", "--all", "--solutions"]),
        &why,
    );
    assert_refused(
        &cudatutor(&["check", "--backend", "cuda", "--solutions"]),
        &why,
    );
}

#[test]
fn run_with_the_cuda_backend_and_no_usable_gpu_exits_2_with_doctors_reason() {
    let Some(why) = why_not() else { return };
    let script = std::env::temp_dir().join(format!("cudatutor-refusal-{}.py", std::process::id()));
    std::fs::write(&script, "print(1)\n").unwrap();
    assert_refused(
        &cudatutor(&["run", "--backend", "cuda", script.to_str().unwrap()]),
        &why,
    );
    let _ = std::fs::remove_file(script);
}

#[test]
fn without_a_driver_the_reason_says_so() {
    if cudatutor::engine::cuda::probe::driver_library_present() {
        return;
    }
    assert_eq!(
        why_not().as_deref(),
        Some("there is no NVIDIA driver on this machine")
    );
}
