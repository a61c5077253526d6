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

/// Doctor's line about the interpreter: "python PROGRAM (HOW): ...".
fn doctor_python_line(out: &Output) -> String {
    let text = stdout(out);
    text.lines()
        .find(|l| l.trim_start().starts_with("python "))
        .unwrap_or_else(|| panic!("no python line in doctor's output:\n{text}"))
        .trim()
        .to_string()
}

#[test]
fn a_binary_installed_in_a_venv_uses_that_venvs_python() {
    let venv = FakeVenv::new("beside");
    let python = venv.bin("python3");
    let out = venv.cudatutor(&["doctor"]).output().unwrap();
    let line = doctor_python_line(&out);
    assert!(
        line.starts_with(&format!(
            "python {} (installed beside cudatutor, in its environment)",
            python.display()
        )),
        "{line}"
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
    let other = venv.root.join("other-python");
    write_fake_python(&other);

    let out = venv
        .cudatutor(&["doctor"])
        .env("CUDATUTOR_PYTHON", &other)
        .output()
        .unwrap();
    let line = doctor_python_line(&out);
    assert!(
        line.starts_with(&format!("python {} (CUDATUTOR_PYTHON)", other.display())),
        "{line}"
    );

    let out = venv
        .cudatutor(&["doctor", "--python"])
        .arg(&other)
        .env("CUDATUTOR_PYTHON", venv.bin("python3"))
        .output()
        .unwrap();
    let line = doctor_python_line(&out);
    assert!(
        line.starts_with(&format!("python {} (--python)", other.display())),
        "{line}"
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
    let launcher = venv.root.join("launcher-python");
    write_fake_python(&launcher);
    let out = venv
        .cudatutor(&["doctor"])
        .env("CUDATUTOR_LAUNCHER_PYTHON", &launcher)
        .output()
        .unwrap();
    let line = doctor_python_line(&out);
    assert!(
        line.starts_with(&format!(
            "python {} (the Python that ran `python -m cudatutor`)",
            launcher.display()
        )),
        "{line}"
    );

    // A launcher path that no longer exists is ignored, not started.
    let out = venv
        .cudatutor(&["doctor"])
        .env("CUDATUTOR_LAUNCHER_PYTHON", venv.root.join("gone"))
        .output()
        .unwrap();
    let line = doctor_python_line(&out);
    assert!(
        line.contains("(installed beside cudatutor, in its environment)"),
        "{line}"
    );
}

#[test]
fn a_binary_with_no_python_beside_it_uses_python3_from_path() {
    let venv = FakeVenv::new("none");
    std::fs::remove_file(venv.bin("python3")).unwrap();
    let out = venv.cudatutor(&["doctor"]).output().unwrap();
    let line = doctor_python_line(&out);
    assert!(line.starts_with("python python3 (the default)"), "{line}");
}
