//! The sanitizer job over the emulated kernels (CI runs it: it needs g++, no GPU).
//!
//! The kernel files that synchronise a block (reduce.cu, softmax.cu, loss.cu, matmul.cu) are
//! compiled exactly as build.rs compiles them (same shim, same generated translation units),
//! but with `CT_EMU_THREADS`: every GPU thread of a block is an OS thread and `__syncthreads`
//! a real barrier. kernels/emu/sanitize_main.cpp launches each of them and checks the values.
//! - under ThreadSanitizer the run must be clean: no access to shared memory is left
//!   unordered, so the fiber schedule of the normal build gives what any schedule gives;
//! - with one `__syncthreads` removed from reduce.cu's block reduction, ThreadSanitizer must
//!   report the data race (the job can fail);
//! - under AddressSanitizer + UndefinedBehaviorSanitizer the run must be clean.

use cudatutor::engine::cuda::emulated::source;
use cudatutor::engine::cuda::kernels;
use std::path::{Path, PathBuf};
use std::process::Command;

const FILES: &[&str] = &["reduce.cu", "softmax.cu", "loss.cu", "matmul.cu"];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn work_dir(tag: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("sanitizer-{tag}"));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Writes the translation units (optionally editing one file's text) and builds the driver
/// with `flags`; returns the executable.
/// A kernel file's name and an edit of its text.
type Edit<'a> = (&'a str, &'a dyn Fn(&str) -> String);

fn build(tag: &str, flags: &[&str], edit: Option<Edit>) -> PathBuf {
    let dir = work_dir(tag);
    let mut sources = vec![
        root().join("kernels/emu/emu.cpp"),
        root().join("kernels/emu/sanitize_main.cpp"),
    ];
    for file in FILES {
        let k = kernels::kernel_file(file).unwrap();
        let text = match edit {
            Some((f, change)) if f == *file => change(k.source),
            _ => k.source.to_string(),
        };
        let full = kernels::full_source(k.file, &text);
        let tu = source::host_translation_unit(k.file, &text, &full, &k.entries());
        let path = dir.join(format!("{}.cpp", file.trim_end_matches(".cu")));
        std::fs::write(&path, tu).unwrap();
        sources.push(path);
    }
    let exe = dir.join("sanitize");
    let out = Command::new("g++")
        .args(["-std=c++17", "-O1", "-g", "-pthread", "-DCT_EMU_THREADS"])
        .args(flags)
        .arg("-I")
        .arg(root().join("kernels/emu"))
        .args(&sources)
        .arg("-o")
        .arg(&exe)
        .output()
        .expect("g++ runs (the sanitizer job needs a C++ compiler)");
    assert!(
        out.status.success(),
        "g++ failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    exe
}

fn run(exe: &Path) -> (i32, String, String) {
    let out = Command::new(exe)
        .env(
            "TSAN_OPTIONS",
            "halt_on_error=0 exitcode=66 second_deadlock_stack=1",
        )
        .env("ASAN_OPTIONS", "detect_leaks=1 exitcode=67")
        .env(
            "UBSAN_OPTIONS",
            "halt_on_error=1 print_stacktrace=1 exitcode=68",
        )
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn thread_sanitizer_finds_no_race_in_the_barrier_kernels() {
    let exe = build("tsan", &["-fsanitize=thread"], None);
    let (code, stdout, stderr) = run(&exe);
    assert!(
        !stderr.contains("ThreadSanitizer"),
        "ThreadSanitizer reported:\n{stderr}"
    );
    assert_eq!(code, 0, "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert!(
        stdout.contains("sanitize: 9 launches, 0 failures"),
        "{stdout}"
    );
}

#[test]
fn thread_sanitizer_catches_a_removed_syncthreads() {
    // The barrier after each thread writes its partial value, before others read it.
    let needle = "  smem[tid] = v;\n  __syncthreads();\n";
    let reduce = kernels::kernel_file("reduce.cu").unwrap().source;
    assert!(
        reduce.contains(needle),
        "reduce.cu changed: update this test"
    );
    let drop_barrier = |s: &str| s.replacen(needle, "  smem[tid] = v;\n", 1);
    let exe = build(
        "tsan-nosync",
        &["-fsanitize=thread"],
        Some(("reduce.cu", &drop_barrier)),
    );
    let (code, _stdout, stderr) = run(&exe);
    assert!(
        stderr.contains("WARNING: ThreadSanitizer: data race"),
        "the race went unnoticed (exit {code}):\n{stderr}"
    );
    assert!(stderr.contains("ct_block_reduce"), "{stderr}");
    assert_ne!(code, 0);
}

#[test]
fn address_and_undefined_behaviour_sanitizers_are_clean() {
    let exe = build(
        "asan",
        &[
            "-fsanitize=address,undefined",
            "-fno-sanitize-recover=undefined",
        ],
        None,
    );
    let (code, stdout, stderr) = run(&exe);
    assert_eq!(code, 0, "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert!(
        stdout.contains("sanitize: 9 launches, 0 failures"),
        "{stdout}"
    );
}
