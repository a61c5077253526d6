//! Whole tracebacks against CPython: every tests/tracebacks/*.py is run with `cudatutor run`
//! and its stderr must equal CPython 3.11's, recorded next to it as `<name>.stderr` by
//! scripts/record-tracebacks.sh (the folder written as `<DIR>`). This checks what the
//! conformance suite does not: the frames, the source lines, CPython's `~~^~~` markers under
//! them, collapsed recursion and chained exceptions.

use std::path::Path;
use std::process::Command;

#[test]
fn every_traceback_matches_cpython() {
    // Canonical: the binary names scripts by getcwd(), which resolves symlinks.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/tracebacks")
        .canonicalize()
        .unwrap();
    let mut scripts: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "py"))
        .collect();
    scripts.sort();
    assert!(scripts.len() >= 40, "the recorded scripts are there");
    let mut failures = Vec::new();
    for script in &scripts {
        let expected = std::fs::read_to_string(script.with_extension("stderr"))
            .unwrap_or_else(|e| panic!("{}: no recorded stderr: {e}", script.display()));
        let name = script.file_name().unwrap().to_str().unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_cudatutor"))
            .current_dir(&dir)
            .args(["run", "--backend", "sim", name])
            .output()
            .unwrap();
        let got = String::from_utf8_lossy(&out.stderr).replace(&*dir.to_string_lossy(), "<DIR>");
        if got != expected {
            failures.push(format!(
                "{name}\n--- CPython\n{expected}--- cudatutor\n{got}"
            ));
        }
        assert_eq!(out.status.code(), Some(1), "{name} raises");
    }
    assert!(
        failures.is_empty(),
        "{} of {} differ:\n{}",
        failures.len(),
        scripts.len(),
        failures.join("\n")
    );
}
