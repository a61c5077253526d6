//! One exercise's run can never take down a grade: `check` runs each exercise in a child
//! process (src/run/isolate.rs), so a run that aborts its process — here through the
//! `CUDATUTOR_TEST_ABORT_IN_RUN` hook, as an aborting allocation would — is graded failed with
//! its reason, and every format's results file is still complete and valid.

use cudatutor::lesson::{Catalog, Lang};
use cudatutor::progress::{ExerciseState, Progress, Store};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const MARKER: &str = "# abort-this-run";

fn temp(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("cudatutor-isolation-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Lesson 1's exercises hold their solutions; the first one's also holds the abort marker.
/// Returns the data folder, the aborting exercise's id and lesson 1's exercise ids.
fn submission(name: &str) -> (PathBuf, String, Vec<String>) {
    let dir = temp(name);
    let catalog = Catalog::builtin(Lang::En).unwrap();
    let lesson = &catalog.lessons[0];
    let mut progress = Progress::default();
    for (i, ex) in lesson.exercises.iter().enumerate() {
        let mut code = ex.solution.clone().unwrap();
        if i == 0 {
            code.push_str(&format!("\n{MARKER}\n"));
        }
        progress.exercises.insert(
            ex.id.clone(),
            ExerciseState {
                code: Some(code),
                passed: false,
            },
        );
    }
    Store::at(&dir).save(&progress).unwrap();
    let ids = lesson.exercises.iter().map(|e| e.id.clone()).collect();
    (dir, lesson.exercises[0].id.clone(), ids)
}

fn check(data: &Path, format: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cudatutor"))
        .args(["check", "1", "--format", format, "--backend", "sim"])
        .env("CUDATUTOR_DATA_DIR", data)
        .env("CUDATUTOR_TEST_ABORT_IN_RUN", MARKER)
        .env("LANG", "C.UTF-8")
        .output()
        .expect("the binary runs")
}

fn parsed(out: &Output) -> Value {
    assert_eq!(
        out.status.code(),
        Some(1),
        "check exits 1 (a failed exercise), not with a signal: {:?}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "the results file is not JSON ({e}): {}",
            String::from_utf8_lossy(&out.stdout)
        )
    })
}

#[test]
#[cfg_attr(
    not(feature = "fault-injection"),
    ignore = "needs the binary's test hooks: cargo test --features fault-injection (scripts/test.sh)"
)]
fn an_aborting_exercise_fails_alone_and_every_results_file_is_complete() {
    let (data, aborting, ids) = submission("abort");
    assert!(ids.len() >= 2, "lesson 1 has several exercises");

    // cudatutor's own schema: one object per exercise per line
    let out = check(&data, "json");
    assert_eq!(out.status.code(), Some(1), "{:?}", out.status);
    let lines: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    assert_eq!(lines.len(), ids.len(), "one line per exercise");
    for g in &lines {
        let id = g["exercise"].as_str().unwrap();
        if id == aborting {
            assert_eq!(g["status"], "failed");
            assert_eq!(g["score"], 0.0);
            let error = g["error"].as_str().unwrap_or_default();
            assert!(
                error.contains("killed by signal 6 (SIGABRT)"),
                "the reason is given: {g}"
            );
        } else {
            assert_eq!(
                g["status"], "passed",
                "the other exercises keep their grade: {g}"
            );
        }
    }

    // the platforms' files: complete, the aborting exercise failed with its reason
    let g = parsed(&check(&data, "gradescope"));
    let tests = g["tests"].as_array().expect("gradescope tests");
    assert_eq!(tests.len(), ids.len());
    let failed: Vec<&Value> = tests
        .iter()
        .filter(|t| t["score"].as_f64() != t["max_score"].as_f64())
        .collect();
    assert_eq!(
        failed.len(),
        1,
        "only the aborting exercise lost points: {g}"
    );
    assert!(
        failed[0]["output"]
            .as_str()
            .unwrap_or_default()
            .contains("SIGABRT"),
        "{}",
        failed[0]
    );

    let g = parsed(&check(&data, "github"));
    let tests = g["tests"].as_array().expect("github tests");
    assert_eq!(tests.len(), ids.len());
    // a test that could not run is "error" in GitHub's reporter format, as in exercism's
    assert_eq!(g["status"], "error", "{g}");
    assert_eq!(
        tests.iter().filter(|t| t["status"] != "pass").count(),
        1,
        "{g}"
    );

    let g = parsed(&check(&data, "exercism"));
    // one exercism test per check of the exercises that ran, one for the one that did not
    assert!(g["tests"].as_array().expect("exercism tests").len() > ids.len());
    // exercism's top status is "error" when a test could not run (an internal error)
    assert!(g["status"] == "error" || g["status"] == "fail", "{g}");
}

/// `cmd`'s output, or a failure naming `what` when it runs past `secs` (a FIFO read would
/// block for ever).
fn output_within(mut cmd: Command, secs: u64, what: &str) -> Output {
    use std::process::Stdio;
    use std::time::{Duration, Instant};
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(secs) {
            let _ = child.kill();
            panic!("{what} ran past {secs} s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

/// The documented Gradescope flow (`export`, the learner's folder, `import`, `check --format
/// gradescope`) on a hostile folder: one exercise file is a link to /dev/zero, one a FIFO,
/// one patches the names checks use (`same`, `torch.allclose`, `torch.equal`,
/// `torch.Tensor.__eq__`) over unsolved code, one aborts its process. The import reads
/// neither the link nor the FIFO (and does not hang), and the results file is complete: those
/// four fail, every other exercise keeps its pass.
#[test]
#[cfg_attr(
    not(feature = "fault-injection"),
    ignore = "needs the binary's test hooks: cargo test --features fault-injection (scripts/test.sh)"
)]
fn a_hostile_submission_folder_imports_without_following_links_and_grades_completely() {
    let root = temp("hostile-folder");
    let catalog = Catalog::builtin(Lang::En).unwrap();
    let lesson = &catalog.lessons[0];
    assert!(lesson.exercises.len() >= 5, "lesson 1 has five exercises");
    const PATCHES: &str = "\nimport torch\nsame = lambda *a, **k: True\ntorch.allclose = lambda *a, **k: True\ntorch.equal = lambda *a, **k: True\ntorch.Tensor.__eq__ = lambda *a, **k: True\n";
    let mut progress = Progress::default();
    for (i, ex) in lesson.exercises.iter().enumerate() {
        let code = match i {
            0 => format!("{}\n{MARKER}\n", ex.solution.clone().unwrap()),
            3 => format!("{}{PATCHES}", ex.start_code),
            _ => ex.solution.clone().unwrap(),
        };
        progress.exercises.insert(
            ex.id.clone(),
            ExerciseState {
                code: Some(code),
                passed: false,
            },
        );
    }
    let learner = root.join("learner");
    Store::at(&learner).save(&progress).unwrap();
    let folder = root.join("submission");
    let export = Command::new(env!("CARGO_BIN_EXE_cudatutor"))
        .args(["export", folder.to_str().unwrap(), "--backend", "sim"])
        .env("CUDATUTOR_DATA_DIR", &learner)
        .output()
        .unwrap();
    assert!(export.status.success(), "{export:?}");
    let file =
        |i: usize| cudatutor::classroom::export::export_path(&folder, lesson, &lesson.exercises[i]);
    std::fs::remove_file(file(1)).unwrap();
    std::os::unix::fs::symlink("/dev/zero", file(1)).unwrap();
    std::fs::remove_file(file(2)).unwrap();
    let fifo = std::ffi::CString::new(file(2).to_str().unwrap()).unwrap();
    // SAFETY: mkfifo reads the NUL-terminated path and nothing else.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);

    // the grader's side: a fresh data folder
    let grader = root.join("grader");
    let mut import = Command::new(env!("CARGO_BIN_EXE_cudatutor"));
    import
        .args(["import", folder.to_str().unwrap(), "--backend", "sim"])
        .env("CUDATUTOR_DATA_DIR", &grader)
        .env("LANG", "C.UTF-8");
    let out = output_within(import, 60, "import of a folder holding a FIFO");
    let said =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(1),
        "some files were refused: {said}"
    );
    assert!(said.contains("a symbolic link, not imported"), "{said}");
    assert!(said.contains("not a regular file, not imported"), "{said}");
    let stored = Store::at(&grader).load().progress;
    for i in [1, 2] {
        let ex = &lesson.exercises[i];
        let code = stored.current_code(ex);
        assert!(
            code.len() < 100_000 && !code.contains('\0'),
            "{}: nothing was read through the link or the FIFO",
            ex.id
        );
    }

    let g = parsed(&check(&grader, "gradescope"));
    let tests = g["tests"].as_array().expect("gradescope tests");
    assert_eq!(
        tests.len(),
        lesson.exercises.len(),
        "one test per exercise: {g}"
    );
    for (i, (t, ex)) in tests.iter().zip(&lesson.exercises).enumerate() {
        let name = t["name"].as_str().unwrap_or_default();
        assert!(
            name.contains(&ex.id),
            "tests in exercise order: {name} / {}",
            ex.id
        );
        let passed = t["score"].as_f64() == t["max_score"].as_f64();
        assert_eq!(passed, i > 3, "{}: {t}", ex.id);
    }
    assert!(
        tests[0]["output"]
            .as_str()
            .unwrap_or_default()
            .contains("SIGABRT"),
        "{}",
        tests[0]
    );
    let _ = std::fs::remove_dir_all(&root);
}
