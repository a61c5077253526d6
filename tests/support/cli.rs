//! Running the cudatutor binary as a learner or a teacher does, on a scratch data folder
//! (tests/classroom*.rs, tests/tmux_e2e.rs, the pager tests that keep progress on disk).
#![allow(dead_code)]

use cudatutor::lesson::{Catalog, Lang};
use cudatutor::progress::{ExerciseState, Progress};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

pub(crate) const BIN: &str = env!("CARGO_BIN_EXE_cudatutor");

/// An empty folder of its own for one test: `cudatutor-SUITE-NAME-PID` in the temp dir,
/// emptied first (a previous run of the same test leaves its files).
pub(crate) fn scratch_dir(suite: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cudatutor-{suite}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The binary with its progress in `data` and a UTF-8 locale (the output is English).
pub(crate) fn command(data: &Path) -> Command {
    let mut c = Command::new(BIN);
    c.env("CUDATUTOR_DATA_DIR", data).env("LANG", "C.UTF-8");
    c
}

/// `cudatutor ARGS` on `data`, run to its end.
pub(crate) fn cudatutor(data: &Path, args: &[&str]) -> Output {
    command(data).args(args).output().expect("binary runs")
}

/// The stdout of a finished run that must have exited with `code` (else the test fails,
/// showing what it wrote to stdout and stderr).
pub(crate) fn stdout_of_exit(out: &Output, code: i32) -> String {
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(
        out.status.code(),
        Some(code),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

/// How many exercises the built-in lessons hold (English and Chinese hold the same ids).
pub(crate) fn builtin_exercise_count() -> usize {
    Catalog::builtin(Lang::En)
        .expect("the built-in lessons load")
        .lessons
        .iter()
        .map(|l| l.exercises.len())
        .sum()
}

/// A saved attempt at exercise `id`: `code`, marked `passed` as given (the checks must not
/// trust the mark).
pub(crate) fn save_attempt(progress: &mut Progress, id: &str, code: String, passed: bool) {
    progress.exercises.insert(
        id.to_string(),
        ExerciseState {
            code: Some(code),
            passed,
        },
    );
}

/// Progress on the built-in lessons where every exercise holds its solution except `broken`
/// (its starting code and a comment: an attempt that keeps the bug, since the starting code
/// unchanged would not even run) and `absent` (never started); each marked `passed` as given.
pub(crate) fn builtin_attempts(broken: &[&str], absent: &[&str], passed: bool) -> Progress {
    let catalog = Catalog::builtin(Lang::En).unwrap();
    let mut progress = Progress::default();
    for ex in catalog.lessons.iter().flat_map(|l| &l.exercises) {
        if absent.contains(&ex.id.as_str()) {
            continue;
        }
        let code = if broken.contains(&ex.id.as_str()) {
            format!("{}\n# my attempt\n", ex.start_code)
        } else {
            ex.solution.clone().unwrap()
        };
        save_attempt(&mut progress, &ex.id, code, passed);
    }
    progress
}

/// An editor for `$EDITOR` tests, a shell script written in `dir`: keeps what it was shown in
/// `dir/seen.py`, writes `new_code` (kept in `dir/new.py`) over the file and exits with
/// `status`. Executable; its path.
pub(crate) fn editor_script(dir: &Path, new_code: &str, status: i32) -> PathBuf {
    let d = dir.display();
    let body = format!("cp \"$1\" '{d}/seen.py'\ncp '{d}/new.py' \"$1\"\nexit {status}\n");
    editor_shell_script(dir, new_code, &body)
}

/// `dir/editor.sh`, executable, running the shell commands `body` (which may copy
/// `new_code`, kept in `dir/new.py`, over the file it is given as `$1`); its path.
pub(crate) fn editor_shell_script(dir: &Path, new_code: &str, body: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(dir.join("new.py"), new_code).unwrap();
    let script = dir.join("editor.sh");
    std::fs::write(&script, format!("#!/bin/sh\n{body}")).unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script
}

/// `cmd` started with its stdin, stdout and stderr all pipes to this test.
pub(crate) fn spawn_piped(cmd: &mut Command) -> Child {
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// `cmd` run to its end with `input` on its stdin, its stdout and stderr captured.
pub(crate) fn output_with_stdin(cmd: &mut Command, input: &[u8]) -> Output {
    use std::io::Write;
    let mut child = spawn_piped(cmd);
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}
