//! Test hooks, compiled only with the `fault-injection` feature: the integration tests enable
//! it (Cargo.toml lists the crate as its own dev-dependency with the feature), `cargo build`
//! for users does not, so no product binary reads these variables. Each hook proves a way of
//! failing that the tests cannot cause from outside:
//! - `CUDATUTOR_TEST_SAVE_LOOP=<KiB>`: the binary saves large progress over and over until
//!   killed (tests/fault_progress.rs kills it with SIGKILL mid-save);
//! - `CUDATUTOR_TEST_PANIC_KEY=<char>`: the pager panics on that key (tests/tmux_e2e.rs: the
//!   terminal is restored after a panic);
//! - `CUDATUTOR_TEST_PANIC_IN_RUN=1`: every in-process run panics inside the engine session,
//!   as a bug in the engine would (tests/tmux_e2e.rs: the pager survives it);
//! - `CUDATUTOR_TEST_EMULATED_FAULT=ENTRY:KIND`: the emulated device faults at the first launch
//!   of a kernel whose name contains ENTRY (KIND `oob-write`, `misaligned-load` or `trap`: CUDA
//!   errors 700, 716, 719), read in src/engine/cuda/emulated/mod.rs (tests/emulated_faults.rs).
//! - `CUDATUTOR_TEST_ABORT_IN_RUN=<marker>`: a run whose code contains the marker aborts its
//!   process, as an allocation failure would (tests/grading_isolation.rs: `check` still
//!   writes every exercise's grade).

use crate::progress::{ExerciseState, Progress, Store};
use std::ffi::OsStr;
use std::io::Write;
use std::process::ExitCode;

/// The save loop's size when `CUDATUTOR_TEST_SAVE_LOOP` asks for it: then the binary runs
/// [`save_loop`] instead of its command.
pub fn save_loop_requested() -> Option<std::ffi::OsString> {
    std::env::var_os("CUDATUTOR_TEST_SAVE_LOOP")
}

/// The hidden mode of the kill -9 fault test (tests/fault_progress.rs): saves large progress
/// over and over in `CUDATUTOR_DATA_DIR` until killed.
pub fn save_loop(kib: &OsStr) -> anyhow::Result<ExitCode> {
    let kib: usize = kib
        .to_str()
        .and_then(|k| k.parse().ok())
        .ok_or_else(|| anyhow::anyhow!("CUDATUTOR_TEST_SAVE_LOOP must be a size in KiB"))?;
    let store = Store::default_location().ok_or_else(|| anyhow::anyhow!("no data folder"))?;
    test_save_loop(&store, kib, 100_000).map_err(anyhow::Error::msg)?;
    Ok(ExitCode::SUCCESS)
}

/// The key `CUDATUTOR_TEST_PANIC_KEY` names: the pager panics when it is pressed.
pub(crate) fn panic_key() -> Option<char> {
    std::env::var_os("CUDATUTOR_TEST_PANIC_KEY")
        .and_then(|v| v.into_string().ok())
        .and_then(|s| s.chars().next())
}

/// Panics when `CUDATUTOR_TEST_PANIC_IN_RUN` is set: called by every in-process run inside the
/// engine session, as a bug in the engine would panic.
pub(crate) fn panic_in_run_if_requested() {
    if std::env::var_os("CUDATUTOR_TEST_PANIC_IN_RUN").is_some_and(|v| !v.is_empty()) {
        panic!("test panic requested with CUDATUTOR_TEST_PANIC_IN_RUN");
    }
}

/// Aborts the process when `CUDATUTOR_TEST_ABORT_IN_RUN` is set and `code` contains it.
pub(crate) fn abort_in_run_if_requested(code: &str) {
    if let Some(marker) = std::env::var_os("CUDATUTOR_TEST_ABORT_IN_RUN")
        .and_then(|v| v.into_string().ok())
        .filter(|m| !m.is_empty())
        && code.contains(&marker)
    {
        std::process::abort();
    }
}

/// For the kill -9 fault test (tests/fault_progress.rs) only, reached through the hidden
/// `CUDATUTOR_TEST_SAVE_LOOP=<KiB>` variable: starts as the program does (load, which removes
/// stale temp files), then saves [`test_generation`] 1, 2, 3… as fast as it can, printing
/// `saved N` after each save returns, until stdout closes or `limit` saves.
pub(crate) fn test_save_loop(store: &Store, kib: usize, limit: u64) -> Result<(), String> {
    let loaded = store.load();
    if let Some(w) = loaded.warning {
        return Err(w);
    }
    let start = match loaded.progress.last_lesson.as_deref() {
        None => 0,
        Some(name) => name
            .strip_prefix("gen-")
            .and_then(|n| n.parse::<u64>().ok())
            .ok_or_else(|| format!("not a test file: last_lesson {name:?}"))?,
    };
    if start > 0 && loaded.progress != test_generation(start, kib) {
        return Err(format!(
            "the file holds generation {start} but not its content"
        ));
    }
    let mut out = std::io::stdout().lock();
    for k in start + 1..=start + limit {
        store
            .save(&test_generation(k, kib))
            .map_err(|e| e.to_string())?;
        if writeln!(out, "saved {k}")
            .and_then(|()| out.flush())
            .is_err()
        {
            break;
        }
    }
    Ok(())
}

/// Generation `k` of the kill test's progress: about `kib` KiB (varying with k, so an old and a
/// new file differ in length too), every part of it naming k.
pub fn test_generation(k: u64, kib: usize) -> Progress {
    let mut p = Progress {
        last_lesson: Some(format!("gen-{k}")),
        ..Progress::default()
    };
    let total = kib * 1024 / 2 + (k as usize % 7) * kib * 1024 / 12;
    let parts = 8;
    for i in 0..parts {
        let line = format!("x_{i} = {k}  # généré \"{k}\"\n");
        let code = line.repeat((total / parts / line.len()).max(1));
        p.exercises.insert(
            format!("exercise-{i}"),
            ExerciseState {
                code: Some(code),
                passed: (k + i as u64).is_multiple_of(2),
            },
        );
        p.scroll
            .insert(format!("lesson-{i}"), (k as usize) * 10 + i);
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_generations_differ_and_round_trip() {
        let dir = std::env::temp_dir().join(format!(
            "cudatutor-fault-generations-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        let store = Store::at(dir);
        for k in [1, 2, 3] {
            store.save(&test_generation(k, 8)).unwrap();
            assert_eq!(store.load().progress, test_generation(k, 8));
        }
        assert_ne!(test_generation(1, 8), test_generation(2, 8));
        let len = |k| {
            serde_json::to_vec_pretty(&test_generation(k, 8))
                .unwrap()
                .len()
        };
        assert_ne!(len(1), len(2), "lengths differ too");
    }
}
