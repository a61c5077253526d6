//! Sizes a script decides never abort the process: tests/allocation/sweep.py asks every
//! creation, random, sort-family, copy and numpy op (and CPython's list and str repetition)
//! for 10^9 to 10^12 elements, plain and as expanded views, and checks each raises the error
//! PyTorch, numpy or CPython raises when that allocation fails (the script holds the expected
//! texts, measured with PyTorch 2.15 and numpy under `ulimit -v`). The run has a 2 GiB budget
//! and a 4 GiB address space, so a case that allocated before asking would abort or raise the
//! wrong error; the whole sweep must take seconds, since each error must come before any work.

#[path = "support/rlimit.rs"]
mod rlimit;
use rlimit::ADDRESS_SPACE;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[test]
fn every_huge_allocation_raises_the_libraries_error_before_any_work() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/allocation/sweep.py");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cudatutor"));
    cmd.args(["run", "--backend", "sim", "--time-limit", "120", script])
        .env("CUDATUTOR_HOST_MEM_LIMIT", "2G")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    rlimit::limit_address_space(&mut cmd, ADDRESS_SPACE);
    let start = Instant::now();
    let out = cmd.output().expect("the binary starts");
    let took = start.elapsed();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "the sweep ended with {:?}\nstdout:\n{stdout}\nstderr:\n{stderr}",
        out.status
    );
    let mismatches: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("MISMATCH"))
        .collect();
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
    let ok = stdout.lines().filter(|l| l.starts_with("ok ")).count();
    let total: usize = stdout
        .lines()
        .find_map(|l| l.strip_prefix("done "))
        .and_then(|n| n.trim().parse().ok())
        .expect("the sweep reached its end");
    assert_eq!(ok, total, "{stdout}");
    assert!(total >= 128, "the sweep shrank to {total} cases");
    println!("{total} cases in {took:?}");
    assert!(
        took < Duration::from_secs(60),
        "the sweep took {took:?}: some op worked before raising"
    );
}
