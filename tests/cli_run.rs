//! `cudatutor run`: the python3-compatible contract (stdout, traceback on stderr, exit status),
//! the JSON report, and where a deferred device-side assert is reported.

#[path = "support/cli.rs"]
mod cli;
use cli::stdout_of_exit;

use std::io::Write;
use std::process::{Command, Output};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_cudatutor"))
}

fn script(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("cudatutor-cli-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// `cudatutor run` of a script `name` holding `text`.
fn run_script(name: &str, text: &str) -> Output {
    let path = script(name, text);
    run(&["run", path.to_str().unwrap()])
}

/// The stderr of a run that printed `stdout` and then a traceback that shows `place`
/// (`, line N, in <module>` and the source line) and whose last line ends with `last`.
fn stdout_then_traceback(out: &Output, stdout: &str, place: &str, last: &str) -> String {
    assert_eq!(String::from_utf8_lossy(&out.stdout), stdout);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(err.contains(place), "{err}");
    assert!(err.trim_end().ends_with(last), "{err}");
    err
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("binary runs")
}

fn json(args: &[&str]) -> serde_json::Value {
    let out = run(args);
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&out.stdout)))
}

/// `* 2` on line 3 launches the multiply kernel before the bug: CUDA loads a kernel at its
/// first launch and only that load notices a failed context, so line 6's `loss * 2` launches
/// without noticing and the error waits for the sync on line 8 (the script without it raises
/// on line 6, as PyTorch did on an H200: tests/fixtures/cuda/assert_deferred.json).
const DEFERRED: &str = "import torch
import torch.nn.functional as F
logits = torch.randn(10, 5, device='cuda') * 2
labels = torch.tensor([0, 1, 2, 3, 4, 5, 0, 1, 2, 3], device='cuda')
loss = F.cross_entropy(logits, labels)
doubled = loss * 2
print('still running')
print(doubled.item())
";

#[test]
fn a_clean_script_prints_like_python_and_exits_0() {
    let out = run_script(
        "ok.py",
        "import torch\nprint(torch.tensor([1.0, 2.5]))\nprint(1 + 2)\n",
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "tensor([1.0000, 2.5000])\n3\n"
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn a_raising_script_prints_a_traceback_and_exits_1() {
    let out = run_script("raise.py", "print('before')\nx = [1, 2]\nprint(x[5])\n");
    let err = stdout_then_traceback(
        &out,
        "before\n",
        ", line 3, in <module>\n    print(x[5])\n",
        "IndexError: list index out of range",
    );
    assert!(
        err.starts_with("Traceback (most recent call last):\n"),
        "{err}"
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn unsupported_syntax_is_reported_at_its_line_with_the_source() {
    let out = run_script(
        "unsupported.py",
        "import torch\nx = 1\n\nasync def f():\n    pass\n",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.ends_with(
            ", line 4, in <module>\n    async def f():\n\
             NotImplementedError: cudatutor does not support async def (line 4)\n"
        ),
        "{err}"
    );
    assert_eq!(out.status.code(), Some(1));
}

/// torch.amax, torch.linalg.inv and torch.cat are C functions in PyTorch: its traceback goes
/// from the learner's line straight to the error, though ours run through Python preludes
/// (torch._extra, torch.linalg). Each expected text is PyTorch 2.15's stderr for the script.
#[test]
fn errors_inside_torch_c_functions_show_only_the_learners_frame() {
    for (name, line, message) in [
        (
            "amax_dim.py",
            "y = torch.amax(torch.zeros(2, 3), dim=5)",
            "IndexError: Dimension out of range (expected to be in range of [-2, 1], but got 5)",
        ),
        (
            "inv_shape.py",
            "b = torch.linalg.inv(torch.zeros(2, 3))",
            "RuntimeError: linalg.inv: A must be batches of square matrices, but they are 2 by 3 \
             matrices",
        ),
        (
            "cat_sizes.py",
            "t = torch.cat([torch.zeros(2, 3), torch.zeros(2, 4)])",
            "RuntimeError: Sizes of tensors must match except in dimension 0. Expected size 3 but \
             got size 4 for tensor number 1 in the list.",
        ),
    ] {
        let path = script(name, &format!("import torch\n{line}\n"));
        let out = run(&["run", path.to_str().unwrap()]);
        let carets = "^".repeat(line.len() - line.find(" = ").unwrap() - 3);
        let indent = " ".repeat(line.find(" = ").unwrap() + 3);
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            format!(
                "Traceback (most recent call last):\n  File \"{}\", line 2, in <module>\n    \
                 {line}\n    {indent}{carets}\n{message}\n",
                path.display()
            ),
            "{name}"
        );
        assert_eq!(out.status.code(), Some(1), "{name}");
    }
}

#[test]
fn tracebacks_name_the_script_as_python3_does() {
    // CPython >= 3.9 prefixes a relative script path with the working folder, unnormalised.
    let p = script("named.py", "x = [1]\nprint(x[2])\n")
        .canonicalize()
        .unwrap();
    let dir = p.parent().unwrap();
    for (arg, shown) in [
        (
            "named.py".to_string(),
            format!("{}/named.py", dir.display()),
        ),
        (
            "./named.py".to_string(),
            format!("{}/./named.py", dir.display()),
        ),
        (p.display().to_string(), p.display().to_string()),
    ] {
        let out = bin().current_dir(dir).args(["run", &arg]).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(&format!("  File \"{shown}\", line 2, in <module>\n")),
            "{arg}: {err}"
        );
    }
}

#[test]
fn usage_and_io_errors_exit_2() {
    let out = run(&["run", "/nonexistent/script.py"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read /nonexistent/script.py"));
    let p = script("latin1.py", "");
    std::fs::write(&p, b"print('caf\xe9')\n").unwrap();
    let out = run(&["run", p.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not UTF-8"));
}

#[test]
fn dash_reads_the_script_from_stdin() {
    let out = cli::output_with_stdin(bin().args(["run", "-"]), b"print(sum(range(10)))\n");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "45\n");
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn deferred_assert_is_reported_at_the_sync_not_at_the_launch() {
    let p = script("deferred.py", DEFERRED);
    let out = run(&["run", p.to_str().unwrap()]);
    let err = stdout_then_traceback(
        &out,
        "still running\n",
        ", line 8, in <module>\n    print(doubled.item())",
        "For debugging consider passing CUDA_LAUNCH_BLOCKING=1",
    );
    assert!(
        err.contains("Assertion `t >= 0 && t < n_classes` failed."),
        "device log missing: {err}"
    );
    assert!(
        err.contains("torch.AcceleratorError: CUDA error: device-side assert triggered\nSearch for `cudaErrorAssert' in ")
            && !err.contains("TORCH_USE_CUDA_DSA"),
        "{err}"
    );
    assert_eq!(out.status.code(), Some(1));

    let r = json(&["run", "--format", "json", p.to_str().unwrap()]);
    assert_eq!(r["backend"], "sim");
    assert_eq!(r["modelled"], true);
    assert_eq!(r["ok"], false);
    assert_eq!(r["error"]["type"], "AcceleratorError");
    assert_eq!(r["error"]["line"], 8);
    assert_eq!(r["error"]["origin_line"], 5);
    let timeline = r["timeline"].as_array().unwrap();
    assert!(
        timeline
            .iter()
            .any(|t| t["status"] == "assert" && t["line"] == 5)
    );
    assert!(
        timeline
            .iter()
            .any(|t| t["status"] == "reported" && t["line"] == 8)
    );
}

#[test]
fn launch_blocking_reports_at_the_origin_line_by_flag_env_or_script() {
    let p = script("deferred-b.py", DEFERRED);
    let by_flag = json(&[
        "run",
        "--launch-blocking",
        "--format",
        "json",
        p.to_str().unwrap(),
    ]);
    assert_eq!(by_flag["error"]["line"], 5);
    assert_eq!(by_flag["launch_blocking"], true);

    let in_script = script(
        "deferred-env.py",
        &format!("import os\nos.environ['CUDA_LAUNCH_BLOCKING'] = '1'\n{DEFERRED}"),
    );
    let r = json(&["run", "--format", "json", in_script.to_str().unwrap()]);
    assert_eq!(
        r["error"]["line"], 7,
        "the cross_entropy line, shifted by the two added lines"
    );
    assert_eq!(r["error"]["origin_line"], 7);
}

#[test]
fn moving_the_sync_moves_the_reported_line() {
    // The same bug; the first synchronising call is now two lines further down.
    let later = DEFERRED.replace(
        "print('still running')\nprint(doubled.item())\n",
        "print('still running')\nx = 1\ny = 2\nprint(doubled.item())\n",
    );
    let p = script("deferred-later.py", &later);
    let r = json(&["run", "--format", "json", p.to_str().unwrap()]);
    assert_eq!(r["error"]["line"], 10);
    assert_eq!(r["error"]["origin_line"], 5);
}

#[test]
fn the_error_is_sticky() {
    let sticky = format!(
        "{}try:\n    print(doubled.item())\nexcept RuntimeError as e:\n    print('caught')\nprint(torch.ones(2, device='cuda').sum().item())\n",
        DEFERRED.replace("print(doubled.item())\n", "")
    );
    let p = script("sticky.py", &sticky);
    let r = json(&["run", "--format", "json", p.to_str().unwrap()]);
    assert_eq!(r["stdout"], "still running\ncaught\n");
    assert_eq!(r["error"]["line"], 12);
    assert!(
        r["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("CUDA error: device-side assert triggered")
    );
}

#[test]
fn memory_counters_follow_pytorch() {
    // What PyTorch printed for it on a GPU: tests/fixtures/cuda/alloc_small.json.
    let out = run_script("mem.py", include_str!("cuda/alloc_small.py"));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "512 2097152\n0 2097152\n0 0\n"
    );
}

#[test]
fn cuda_backend_without_a_gpu_is_refused_with_exit_2() {
    if cudatutor::run::cuda_usable_here() {
        return; // a machine with a usable GPU: nothing to refuse
    }
    let p = script("any.py", "print(1)\n");
    let out = run(&["run", "--backend", "cuda", p.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--backend cuda cannot run here"));
}

#[test]
fn several_virtual_gpus_and_a_smaller_card() {
    let p = script(
        "gpus.py",
        "import torch\nprint(torch.cuda.device_count())\nx = torch.empty(3 * 1024**3 // 4, device='cuda:1')\n",
    );
    let out = run(&[
        "run",
        "--gpus",
        "2",
        "--gpu-memory",
        "2GiB",
        p.to_str().unwrap(),
    ]);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "2\n");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("OutOfMemoryError: CUDA out of memory. Tried to allocate 3.00 GiB. GPU 1 has a total capacity of 2.00 GiB"), "{err}");
}

/// A lab's per-process cap (`--gpu-mem-limit` or `CUDATUTOR_GPU_MEM_LIMIT`) works like PyTorch's
/// per-process memory fraction: the caching allocator refuses to reserve past it, and the OOM
/// text keeps the card's own capacity and adds "<cap> allowed; ".
#[test]
fn a_per_process_memory_cap_limits_reserved_memory() {
    let p = script(
        "cap.py",
        "import torch\nx = torch.zeros(30 * 1024 * 1024, device='cuda')\nprint(torch.cuda.memory_reserved())\ny = torch.zeros(30 * 1024 * 1024, device='cuda')\n",
    );
    let expect_oom = "CUDA out of memory. Tried to allocate 120.00 MiB. GPU 0 has a total capacity \
of 139.80 GiB of which 139.68 GiB is free. Including non-PyTorch memory, this process has 120.00 MiB \
memory in use. 200.00 MiB allowed; Of the allocated memory 120.00 MiB is allocated by PyTorch";
    let by_flag = run(&["--gpu-mem-limit", "200MiB", "run", p.to_str().unwrap()]);
    let by_env = bin()
        .env("CUDATUTOR_GPU_MEM_LIMIT", "200MiB")
        .args(["run", p.to_str().unwrap()])
        .output()
        .unwrap();
    for out in [by_flag, by_env] {
        assert_eq!(out.status.code(), Some(1));
        assert_eq!(String::from_utf8_lossy(&out.stdout), "125829120\n");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(expect_oom), "{err}");
    }
    // Without the cap the same script fits on the 139.80 GiB card (a real H200's, the sim's
    // default).
    let free = run(&["run", p.to_str().unwrap()]);
    assert_eq!(free.status.code(), Some(0));
    let bad = run(&["--gpu-mem-limit", "lots", "run", p.to_str().unwrap()]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("`lots` is not a size"));
}

/// `run /dev/zero` and an endless stdin (`yes | cudatutor run -`) stop reading one byte past
/// the 1 MB source limit: the run's SyntaxError, at once, in a few MB of memory (issue 20:
/// both used to read 2.1 GB before the check).
#[test]
fn endless_sources_stop_at_the_source_limit() {
    let want = "SyntaxError: source too long for cudatutor (over 1 MB)";
    let t = std::time::Instant::now();
    let out = run(&["run", "--backend", "sim", "/dev/zero"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().last(), Some(want), "{err}");
    assert_eq!(out.status.code(), Some(1));
    assert!(t.elapsed() < std::time::Duration::from_secs(10));

    let mut child = cli::spawn_piped(bin().args(["run", "--backend", "sim", "-"]));
    let mut stdin = child.stdin.take().unwrap();
    // `yes`: writes until the reader goes away (then EPIPE ends it).
    let writer = std::thread::spawn(move || {
        let line = b"y\n".repeat(4096);
        let mut sent = 0u64;
        while stdin.write_all(&line).is_ok() {
            sent += line.len() as u64;
            if sent > 64 << 20 {
                break;
            }
        }
        sent
    });
    let out = child.wait_with_output().unwrap();
    let sent = writer.join().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().last(), Some(want), "{err}");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        sent < 8 << 20,
        "the reader stopped early; {sent} bytes were written"
    );
}

/// `--gpu-memory 18446744073709551615` is refused (memory counts are signed 64-bit in
/// PyTorch; the total used to print as -1 and allocations wrapped).
#[test]
fn gpu_memory_past_the_bound_is_refused() {
    let p = script("mem.py", "print(1)\n");
    for big in ["18446744073709551615", "9223372036854775808", "2000TiB"] {
        for flag in ["--gpu-memory", "--gpu-mem-limit"] {
            let out = run(&["run", "--backend", "sim", flag, big, p.to_str().unwrap()]);
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{flag} {big}: {err}");
            assert!(err.contains("at most 1PiB"), "{flag} {big}: {err}");
        }
    }
    let out = run(&[
        "run",
        "--backend",
        "sim",
        "--gpu-memory",
        "1TiB",
        p.to_str().unwrap(),
    ]);
    stdout_of_exit(&out, 0);
}

/// `run` hands the shell's environment to the script as `python FILE` does: the classic
/// advice `CUDA_LAUNCH_BLOCKING=1 python train.py` works as `CUDA_LAUNCH_BLOCKING=1 cudatutor
/// run train.py`, and CUDA_VISIBLE_DEVICES hides and renumbers the simulated GPUs.
#[test]
fn the_shells_cuda_variables_reach_the_script() {
    let p = script("deferred_env.py", DEFERRED);
    let out = bin()
        .args(["run", p.to_str().unwrap()])
        .env("CUDA_LAUNCH_BLOCKING", "1")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    // synchronous launches: the error is raised at the cross_entropy line, not at .item()
    assert!(err.contains("line 5, in <module>"), "{err}");
    assert!(!out.stdout.starts_with(b"still running"), "{err}");

    let p = script(
        "visible.py",
        "import os\nimport torch\nprint(os.environ.get('CUDA_VISIBLE_DEVICES'), torch.cuda.device_count())\nx = torch.ones(2, device='cuda:1')\n",
    );
    let with = |v: &str, gpus: &str| {
        bin()
            .args(["run", "--gpus", gpus, p.to_str().unwrap()])
            .env("CUDA_VISIBLE_DEVICES", v)
            .output()
            .unwrap()
    };
    // both GPUs visible: cuda:1 exists
    let out = with("0,1", "2");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "0,1 2\n");
    assert_eq!(out.status.code(), Some(0));
    // one visible GPU, renumbered cuda:0: cuda:1 is PyTorch's invalid device ordinal
    let out = with("1", "2");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "1 1\n");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("torch.AcceleratorError: CUDA error: invalid device ordinal"),
        "{err}"
    );
    // an entry past the last GPU ends the list (CUDA's rule): "0,7,1" is one GPU
    let out = with("0,7,1", "2");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "0,7,1 1\n");
    // nothing visible
    let out = with("", "2");
    assert_eq!(String::from_utf8_lossy(&out.stdout), " 0\n");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.trim_end()
            .ends_with("RuntimeError: No CUDA GPUs are available"),
        "{err}"
    );
}

/// A caught device-side assert: the kernel's line reaches stderr at the synchronization
/// that reported it (`loss.item()`), so on a terminal it shows after what the script printed
/// before that line and before what it printed after, as with PyTorch on a GPU.
const CAUGHT: &str = "import torch
import torch.nn.functional as F
logits = torch.randn(10, 5, device='cuda')
labels = torch.tensor([0, 1, 2, 3, 4, 5, 0, 1, 2, 3], device='cuda')
print('before')
loss = F.cross_entropy(logits, labels)
print('launched')
try:
    loss.item()
except RuntimeError:
    print('caught')
print('after')
";

/// `cudatutor run SCRIPT` with stderr sent into stdout's pipe, as a terminal shows both.
fn run_merged(script: &std::path::Path) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg(format!(
            "'{}' run '{}' 2>&1",
            env!("CARGO_BIN_EXE_cudatutor"),
            script.display()
        ))
        .output()
        .expect("sh runs")
}

#[test]
fn a_caught_asserts_device_line_shows_where_the_sync_reported_it() {
    let p = script("caught.py", CAUGHT);
    // one pipe for both streams, as a terminal shows them
    let out = run_merged(&p);
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    let at = |what: &str| {
        lines
            .iter()
            .position(|l| l.contains(what))
            .unwrap_or_else(|| panic!("no {what:?} in {text}"))
    };
    let assertion = at("Assertion `t >= 0 && t < n_classes` failed.");
    assert!(at("launched") < assertion, "{text}");
    assert!(
        assertion < at("caught") && at("caught") < at("after"),
        "{text}"
    );
    assert_eq!(out.status.code(), Some(0), "{text}");
    // each stream alone is still what python3 writes to it
    let apart = run(&["run", p.to_str().unwrap()]);
    assert_eq!(
        String::from_utf8_lossy(&apart.stdout),
        "before\nlaunched\ncaught\nafter\n"
    );
    // the report keeps the order: [to_stderr, bytes] runs adding up to stdout and stderr
    let r = json(&["run", "--format", "json", p.to_str().unwrap()]);
    let order = r["output_order"].as_array().expect("output_order");
    let (stdout, stderr) = (r["stdout"].as_str().unwrap(), r["stderr"].as_str().unwrap());
    let (mut o, mut e, mut merged) = (0, 0, String::new());
    for run in order {
        let n = run[1].as_u64().unwrap() as usize;
        if run[0].as_bool().unwrap() {
            merged.push_str(&stderr[e..e + n]);
            e += n;
        } else {
            merged.push_str(&stdout[o..o + n]);
            o += n;
        }
    }
    assert_eq!((o, e), (stdout.len(), stderr.len()));
    assert_eq!(merged, text, "the report's order is the terminal's");
}

#[test]
fn an_uncaught_asserts_device_line_stays_above_the_traceback() {
    let p = script("deferred_merged.py", DEFERRED);
    let out = run_merged(&p);
    let text = String::from_utf8_lossy(&out.stdout);
    let running = text.find("still running").expect("stdout");
    let assertion = text.find("Assertion `t >= 0").expect("device line");
    let traceback = text
        .find("Traceback (most recent call last)")
        .expect("traceback");
    assert!(running < assertion && assertion < traceback, "{text}");
}
