//! Which Python `--backend pytorch`, `diff` and `doctor` use when none is named: a binary that
//! pip installed into a venv uses that venv's python (the learner's own torch), `python -m
//! cudatutor` passes its interpreter, and `--python` / CUDATUTOR_PYTHON still win over both.
//!
//! The "venv" here is a folder holding a copy of the binary and a stand-in `python3` that
//! records being started: what matters is which interpreter cudatutor starts, not torch.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A venv-like folder: `bin/cudatutor` (this build's binary) beside a `bin/python3` script that
/// appends its arguments to `bin/python3.calls` and fails, as a Python without the runner would.
struct FakeVenv {
    root: PathBuf,
}

impl FakeVenv {
    fn new(name: &str) -> FakeVenv {
        let root = std::env::temp_dir().join(format!(
            "cudatutor-python-default-{name}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&root);
        let bin = root.join("bin");
        std::fs::create_dir_all(&bin).unwrap();
        let exe = bin.join("cudatutor");
        // A hard link when the temporary folder is on the same file system, else a copy: the
        // binary must really be in bin/ (a symlink resolves back to target/).
        if std::fs::hard_link(env!("CARGO_BIN_EXE_cudatutor"), &exe).is_err() {
            std::fs::copy(env!("CARGO_BIN_EXE_cudatutor"), &exe).unwrap();
        }
        write_fake_python(&bin.join("python3"));
        FakeVenv { root }
    }

    fn bin(&self, name: &str) -> PathBuf {
        self.root.join("bin").join(name)
    }

    /// Another stand-in python (it logs its calls and fails as bin/python3 does), `name` in
    /// the venv's root: not the one beside the binary.
    fn other_python(&self, name: &str) -> PathBuf {
        let path = self.root.join(name);
        write_fake_python(&path);
        path
    }

    /// `bin/cudatutor ARGS` with no Python named by the environment.
    fn cudatutor(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(self.bin("cudatutor"));
        cmd.args(args)
            .env_remove("CUDATUTOR_PYTHON")
            .env_remove("CUDATUTOR_LAUNCHER_PYTHON")
            .env("CUDATUTOR_CACHE_DIR", self.root.join("cache"))
            .env("CUDATUTOR_DATA_DIR", self.root.join("data"));
        cmd
    }
}

impl Drop for FakeVenv {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

fn write_fake_python(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, "#!/bin/sh\necho \"$@\" >> \"$0.calls\"\nexit 3\n").unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// How many times the stand-in python at `path` was started.
fn calls(path: &Path) -> usize {
    let mut log = path.as_os_str().to_owned();
    log.push(".calls");
    std::fs::read_to_string(log).map_or(0, |t| t.lines().count())
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Doctor's line about the interpreter ("python PROGRAM (HOW): ...") when `cmd` (a doctor
/// run) runs.
fn doctor_python_line(cmd: &mut Command) -> String {
    let text = stdout(&cmd.output().unwrap());
    text.lines()
        .find(|l| l.trim_start().starts_with("python "))
        .unwrap_or_else(|| panic!("no python line in doctor's output:\n{text}"))
        .trim()
        .to_string()
}

/// `cmd`, a doctor run, says it picks `python`, found the way `how` says.
fn assert_doctor_picks(cmd: &mut Command, python: &Path, how: &str) {
    let line = doctor_python_line(cmd);
    let expected = format!("python {} ({how})", python.display());
    assert!(line.starts_with(&expected), "{line}\nexpected: {expected}");
}

#[test]
fn a_binary_installed_in_a_venv_uses_that_venvs_python() {
    let venv = FakeVenv::new("beside");
    let python = venv.bin("python3");
    assert_doctor_picks(
        &mut venv.cudatutor(&["doctor"]),
        &python,
        "installed beside cudatutor, in its environment",
    );
    assert_eq!(calls(&python), 1, "doctor probes the venv's python once");

    // A run on --backend pytorch starts the same interpreter.
    let script = venv.root.join("script.py");
    std::fs::write(&script, "print(1)\n").unwrap();
    let out = venv
        .cudatutor(&["run", "--backend", "pytorch"])
        .arg(&script)
        .output()
        .unwrap();
    assert!(!out.status.success(), "the stand-in python cannot run it");
    assert_eq!(calls(&python), 2, "the run started the venv's python");
}

#[test]
fn python_flag_and_env_var_win_over_the_venv_python() {
    let venv = FakeVenv::new("override");
    let other = venv.other_python("other-python");

    assert_doctor_picks(
        venv.cudatutor(&["doctor"]).env("CUDATUTOR_PYTHON", &other),
        &other,
        "CUDATUTOR_PYTHON",
    );
    assert_doctor_picks(
        venv.cudatutor(&["doctor", "--python"])
            .arg(&other)
            .env("CUDATUTOR_PYTHON", venv.bin("python3")),
        &other,
        "--python",
    );
    assert_eq!(calls(&other), 2);
    assert_eq!(
        calls(&venv.bin("python3")),
        0,
        "the venv's python lost both times"
    );
}

#[test]
fn python_dash_m_passes_its_interpreter_which_beats_the_one_beside() {
    let venv = FakeVenv::new("launcher");
    let launcher = venv.other_python("launcher-python");
    assert_doctor_picks(
        venv.cudatutor(&["doctor"])
            .env("CUDATUTOR_LAUNCHER_PYTHON", &launcher),
        &launcher,
        "the Python that ran `python -m cudatutor`",
    );

    // A launcher path that no longer exists is ignored, not started.
    let line = doctor_python_line(
        venv.cudatutor(&["doctor"])
            .env("CUDATUTOR_LAUNCHER_PYTHON", venv.root.join("gone")),
    );
    assert!(
        line.contains("(installed beside cudatutor, in its environment)"),
        "{line}"
    );
}

#[test]
fn a_binary_with_no_python_beside_it_uses_python3_from_path() {
    let venv = FakeVenv::new("none");
    std::fs::remove_file(venv.bin("python3")).unwrap();
    assert_doctor_picks(
        &mut venv.cudatutor(&["doctor"]),
        Path::new("python3"),
        "the default",
    );
}
