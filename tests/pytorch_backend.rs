//! `--backend pytorch` and `cudatutor diff` against real PyTorch (CPU torch from PyPI).
//!
//! The interpreter comes from `CUDATUTOR_TEST_PYTHON` (scripts/test.sh installs torch 2.15.0
//! into the repo-local `.venv-torch/` and sets it), else `.venv-torch/bin/python` when present.
//! Without either the tests say so and pass, unless `CUDATUTOR_REQUIRE_PYTORCH=1` (test.sh sets
//! it), which makes a missing PyTorch a failure.
//!
//! The library tests share one resident Python process (importing torch costs seconds); the
//! CLI tests start a few processes of their own.

use cudatutor::run::{self, BackendChoice, OpKind, OpStatus, RunOptions, RunReport};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

#[path = "support/cli.rs"]
mod cli;
use cli::stdout_of_exit;
#[path = "support/error_start.rs"]
mod error_start;
use error_start::report_error_starting;

fn python() -> Option<PathBuf> {
    let from_env = std::env::var_os("CUDATUTOR_TEST_PYTHON").filter(|p| !p.is_empty());
    let local = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(".venv-torch/bin/python");
    let found = from_env
        .map(PathBuf::from)
        .or_else(|| local.is_file().then_some(local));
    if found.is_none() {
        assert!(
            std::env::var("CUDATUTOR_REQUIRE_PYTORCH").as_deref() != Ok("1"),
            "CUDATUTOR_REQUIRE_PYTORCH=1 but no PyTorch: set CUDATUTOR_TEST_PYTHON"
        );
        eprintln!("pytorch_backend: no PyTorch (CUDATUTOR_TEST_PYTHON unset): not tested here");
    }
    found
}

fn opts(py: &Path, filename: &str) -> RunOptions {
    RunOptions {
        backend: BackendChoice::Pytorch,
        python: Some(py.to_path_buf()),
        filename: filename.into(),
        max_wall: Duration::from_secs(60),
        ..RunOptions::default()
    }
}

fn dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("cudatutor-pytorch-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn write(name: &str, text: &str) -> PathBuf {
    let p = dir().join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// Prints, then PyTorch raises on the CPU inside cross_entropy (a C++ op).
const PRINT_THEN_RAISE: &str = "import torch
import torch.nn.functional as F
print('logits', torch.tensor([[1.0, 2.0], [0.5, 0.25]]))
logits = torch.zeros(4, 3)
labels = torch.tensor([0, 1, 2, 3])
print({'n': len(labels)}, 2 ** 70, 0.1 + 0.2)
loss = F.cross_entropy(logits, labels)
print('never')
";

/// A device mismatch whose check is written in Python inside torch (frames of torch's own).
const DEVICE_MISMATCH: &str = "import torch
a = torch.zeros(2, device='meta')
b = torch.zeros(2)
c = a + b
";

const NO_DRIVER: &str = "import torch
x = torch.ones(3)
print(x.sum().item())
y = x.to('cuda')
";

/// `source` written to `file` and run twice: by the pytorch backend under that file's name,
/// and by plain `python` on the file.
fn run_beside_python(py: &Path, file: &str, source: &str) -> (RunReport, std::process::Output) {
    let path = write(file, source);
    let report = run::run_script(source, &opts(py, &path.display().to_string()));
    let plain = Command::new(py).arg(&path).output().unwrap();
    (report, plain)
}

#[test]
fn the_runner_prints_and_raises_exactly_as_python_does() {
    let Some(py) = python() else { return };
    let (report, plain) = run_beside_python(&py, "print_raise.py", PRINT_THEN_RAISE);
    assert_eq!(report.stdout, String::from_utf8_lossy(&plain.stdout));
    assert_eq!(report.stderr, String::from_utf8_lossy(&plain.stderr));
    assert_eq!(plain.status.code(), Some(1));
    assert_eq!(report.backend, "pytorch");
    assert!(
        report.device_name.starts_with("real PyTorch 2.15"),
        "{}",
        report.device_name
    );
    assert!(!report.modelled);
    assert!(!report.ok);
    let e = report.error.as_ref().unwrap();
    assert_eq!(e.type_name, "IndexError");
    assert_eq!(e.message, "Target 3 is out of bounds.");
    assert_eq!(e.line, Some(7));
    assert_eq!(e.origin_line, None);
    assert_eq!(e.traceback, report.stderr);
    assert!(report.internal_error.is_none());
}

#[test]
fn a_device_mismatch_and_a_missing_driver_are_pytorchs_own_errors() {
    let Some(py) = python() else { return };
    let (report, plain) = run_beside_python(&py, "mismatch.py", DEVICE_MISMATCH);
    // torch's own Python frames are kept, the runner's function/dispatch modes are not.
    assert_eq!(report.stderr, String::from_utf8_lossy(&plain.stderr));
    let e = report.error.as_ref().unwrap();
    assert_eq!(e.type_name, "RuntimeError");
    assert_eq!(
        e.message,
        "Tensor on device cpu is not on the expected device meta!"
    );
    assert_eq!(e.line, Some(4));

    let report = run::run_script(NO_DRIVER, &opts(&py, "exercise.py"));
    assert_eq!(report.stdout, "3.0\n");
    let e = report_error_starting(
        &report,
        "RuntimeError",
        "Found no NVIDIA driver on your system.",
    );
    assert_eq!(e.line, Some(4));
    assert!(
        report
            .stderr
            .contains("  File \"exercise.py\", line 4, in <module>\n    y = x.to('cuda')\n"),
        "{}",
        report.stderr
    );
}

#[test]
fn the_timeline_names_the_ops_by_line_with_measured_host_times() {
    let Some(py) = python() else { return };
    let code = "import torch
import torch.nn.functional as F
x = torch.randn(8, 5)
t = torch.tensor([0, 1, 2, 3, 4, 0, 1, 2])
loss = F.cross_entropy(x, t)
v = loss.item()
print(v > 0)
";
    let r = run::run_script(code, &opts(&py, "exercise.py"));
    assert!(r.ok, "{:?}", r.error);
    assert_eq!(r.stdout, "True\n");
    let ops: Vec<(u32, &str)> = r.timeline.iter().map(|t| (t.line, t.op.as_str())).collect();
    assert_eq!(
        ops,
        [
            (3, "randn"),
            (4, "tensor"),
            (5, "cross_entropy"),
            (6, "item")
        ]
    );
    let mut last = 0.0;
    for t in &r.timeline {
        assert!(t.host_us >= last, "host times go forward: {:?}", r.timeline);
        assert!(t.host_end_us >= t.host_us, "{t:?}");
        assert_eq!(t.kind, OpKind::Host, "CPU torch: {t:?}");
        assert_eq!(t.device, None);
        assert_eq!(t.device_start_us, None);
        assert_eq!(t.status, OpStatus::Ok);
        last = t.host_us;
    }
    // Measured, not modelled; a CPU torch has no CUDA allocator to count.
    assert!(!r.modelled);
    assert_eq!(r.memory.allocated, 0);
    assert!(r.memory.devices.is_empty());
}

#[test]
fn the_resident_process_forks_per_run_and_survives_failing_runs() {
    let Some(py) = python() else { return };
    let o = opts(&py, "exercise.py");
    let first = run::run_script("print('one')\n", &o);
    assert_eq!(first.stdout, "one\n");
    let pid = run::pytorch::resident_pid().expect("a resident process after a run");
    // A run that raises, one whose process is killed, one that hangs past the wall limit, one
    // that exits with a status: the resident process lives on and the next run works.
    let raised = run::run_script("import torch\nraise ValueError('bad')\n", &o);
    assert_eq!(raised.error.as_ref().unwrap().type_name, "ValueError");
    let killed = run::run_script(
        "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n",
        &o,
    );
    let e = killed.error.as_ref().unwrap();
    assert!(e.message.contains("killed by signal 9"), "{}", e.message);
    assert!(killed.internal_error.is_some());
    let hung = run::run_script(
        "print('start', flush=True)\nwhile True:\n    pass\n",
        &RunOptions {
            max_wall: Duration::from_millis(1500),
            ..o.clone()
        },
    );
    let e = hung.error.as_ref().unwrap();
    assert_eq!(e.type_name, "TimeoutError", "{e:?}");
    assert_eq!(hung.stdout, "start\n");
    let exited = run::run_script("import sys\nprint('x')\nsys.exit(3)\n", &o);
    assert_eq!(exited.exit_status, Some(3));
    assert!(!exited.ok);
    // Each run is a fresh child: what one run set is not there in the next.
    let set = run::run_script("import torch\ntorch.marker = 1\n", &o);
    assert!(set.ok);
    let after = run::run_script("import torch\nprint(hasattr(torch, 'marker'))\n", &o);
    assert_eq!(after.stdout, "False\n");
    assert_eq!(
        run::pytorch::resident_pid(),
        Some(pid),
        "the same resident process throughout"
    );
}

#[test]
fn checks_run_against_real_pytorch() {
    let Some(py) = python() else { return };
    let code = "import torch\nx = torch.arange(6).reshape(2, 3)\nn = x.shape[1]\nprint(n)\n";
    let check = "assert n == 3, 'n is the number of columns'\nassert same(n, 4), 'n is four'\nassert ran_on_cpu('arange') == 1\nassert output() == '3\\n', 'prints n'\nassert missing == 1, 'needs missing'\n";
    let r: RunReport = run::run_exercise(code, Some(check), &opts(&py, "exercise.py"));
    assert!(r.ok, "{:?}", r.error);
    let verdicts: Vec<(bool, String)> = r
        .checks
        .iter()
        .map(|c| (c.passed, c.message.clone().unwrap_or_default()))
        .collect();
    assert_eq!(
        verdicts,
        [
            (true, "n is the number of columns".to_string()),
            (false, "n is four".to_string()),
            (true, "check 3".to_string()),
            (true, "prints n".to_string()),
            (
                false,
                "needs missing — your code does not define `missing`".to_string()
            ),
        ]
    );
}

fn bin(py: &PathBuf) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_cudatutor"));
    c.env("CUDATUTOR_PYTHON", py);
    c
}

#[test]
fn cli_run_diff_and_doctor() {
    let Some(py) = python() else { return };
    // `run --backend pytorch FILE` prints what `python FILE` prints, with its status.
    let path = write("cli_print_raise.py", PRINT_THEN_RAISE);
    let ours = bin(&py)
        .args(["run", "--backend", "pytorch"])
        .arg(&path)
        .output()
        .unwrap();
    let plain = Command::new(&py).arg(&path).output().unwrap();
    assert_eq!(ours.stdout, plain.stdout);
    assert_eq!(ours.stderr, plain.stderr);
    assert_eq!(ours.status.code(), Some(1));

    // Engine and PyTorch agree: exit 0.
    let agree = write(
        "agree.py",
        "import torch\nx = torch.tensor([1.0, 2.0, 3.0])\nprint(x.sum().item(), x.shape)\nprint([i * i for i in range(4)])\nlabels = torch.tensor([0, 5])\nloss = torch.nn.functional.cross_entropy(torch.zeros(2, 3), labels)\n",
    );
    let out = bin(&py).arg("diff").arg(&agree).output().unwrap();
    let text = stdout_of_exit(&out, 0);
    assert!(text.contains("identical"), "{text}");
    assert!(text.contains("unsandboxed"), "{text}");

    // They differ (the engine's simulated GPU is there, a CPU torch has none): exit 1, shown.
    let differ = write(
        "differ.py",
        "import torch\nprint('cuda', torch.cuda.is_available())\nprint('same line')\n",
    );
    let out = bin(&py)
        .args(["diff", "--python"])
        .arg(&py)
        .arg(&differ)
        .output()
        .unwrap();
    let text = stdout_of_exit(&out, 1);
    assert!(
        text.contains("1 difference(s):\n  stdout line 1\n    engine:  \"cuda True\"\n    pytorch: \"cuda False\"\n"),
        "{text}"
    );

    // doctor names the Python and what its torch offers.
    let out = bin(&py).arg("doctor").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Real PyTorch (--backend pytorch"), "{text}");
    assert!(text.contains("torch 2.15.0"), "{text}");
    assert!(text.contains("CUDA available: no"), "{text}");

    // A Python that does not exist is refused with status 2 before anything runs.
    let out = bin(&py)
        .args([
            "run",
            "--backend",
            "pytorch",
            "--python",
            "/nonexistent/python",
        ])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--backend pytorch cannot run here"));
}

/// On a GPU the driver's assert line names PyTorch's kernel; the runner matches it to the last
/// CUDA launch of an aten op that kernel belongs to (no GPU here: the matcher alone, on the
/// assert lines PyTorch 2.15 prints).
#[test]
fn origin_line_is_the_last_launch_of_the_asserting_kernel() {
    let Some(py) = python() else { return };
    let runner = run::pytorch::runner_path().unwrap();
    let program = format!(
        r#"
import importlib.util, json
spec = importlib.util.spec_from_file_location("runner", {runner:?})
r = importlib.util.module_from_spec(spec); spec.loader.exec_module(r)
nll = ["/__w/pytorch/pytorch/aten/src/ATen/native/cuda/Loss.cu:244: nll_loss_forward_reduce_cuda_kernel_2d: block: [0,0,0], thread: [3,0,0] Assertion `t >= 0 && t < n_classes` failed."]
idx = ["/pytorch/aten/src/ATen/native/cuda/IndexKernel.cu:92: operator(): block: [0,0,0], thread: [1,0,0] Assertion `-sizes[i] <= index && index < sizes[i] && \"index out of bounds\"` failed."]
tl = [dict(line=3, op="randn", device=0, aten=["randn"]),
      dict(line=5, op="cross_entropy", device=0, aten=["_log_softmax", "nll_loss_forward"]),
      dict(line=7, op="cross_entropy", device=0, aten=["_log_softmax", "nll_loss_forward"]),
      dict(line=8, op="getitem", device=0, aten=["index"]),
      dict(line=9, op="item", device=0, aten=["_local_scalar_dense"])]
cpu = [dict(line=5, op="cross_entropy", device=None, aten=["nll_loss_forward"])]
print(json.dumps([r.match_origin(nll, tl), r.match_origin(idx, tl), r.match_origin(nll, cpu), r.match_origin(["not an assert"], tl)]))
"#,
        runner = runner.display().to_string()
    );
    let out = Command::new(&py).args(["-c", &program]).output().unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "[7, 8, null, null]",
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
