//! The worker that isolates emulated and real-GPU runs: it validates its input, keeps the
//! device's raw output off the learner's terminal, and a poisoned context ends it so the next
//! run gets a fresh one, without the parent ever failing.

use cudatutor::run::worker::{
    self, DeviceCapture, WorkerClient, WorkerRequest, attach_device_output,
};
use cudatutor::run::{BackendChoice, ErrorReport, RunOptions, RunReport};
use std::io::Write;
use std::process::Command;

#[path = "support/cli.rs"]
mod cli;
#[path = "support/error_start.rs"]
mod error_start;
use error_start::report_error_starting;
#[path = "support/warm_runs.rs"]
mod warm_runs;
use warm_runs::timed_warm_runs;

/// The default run options on `backend`.
fn on(backend: BackendChoice) -> RunOptions {
    RunOptions {
        backend,
        ..RunOptions::default()
    }
}

fn request(code: &str) -> WorkerRequest {
    WorkerRequest {
        code: code.into(),
        check: None,
        options: on(BackendChoice::Sim),
    }
}

/// An empty folder of its own for one test (`name`) in the temp dir.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("cudatutor-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A stand-in worker: `text`, a shell script, written to `path` and made executable.
fn write_worker_script(path: &std::path::Path, text: &str) {
    std::fs::write(path, text).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}

fn serve_lines(lines: &[String]) -> (u8, Vec<RunReport>) {
    let input = lines.join("\n") + "\n";
    let mut out = Vec::new();
    let code = worker::serve(std::io::Cursor::new(input), &mut out);
    let reports = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (code, reports)
}

#[test]
fn hostile_options_are_refused_and_the_worker_goes_on() {
    let mut bad = serde_json::to_value(request("print(1)")).unwrap();
    bad["options"]["gpus"] = serde_json::json!(4294967295u64);
    let mut zero_wall = serde_json::to_value(request("print(1)")).unwrap();
    zero_wall["options"]["max_wall_ms"] = serde_json::json!(0);
    let mut nul_env = serde_json::to_value(request("print(1)")).unwrap();
    nul_env["options"]["env"] = serde_json::json!([["A\u{0}B", "1"]]);
    let lines = vec![
        bad.to_string(),
        zero_wall.to_string(),
        nul_env.to_string(),
        "{not json".to_string(),
        serde_json::to_string(&request("print(6 * 7)")).unwrap(),
    ];
    let (code, reports) = serve_lines(&lines);
    assert_eq!(code, 0);
    assert_eq!(reports.len(), 5);
    let msg = |r: &RunReport| {
        r.error
            .as_ref()
            .map(|e| e.message.clone())
            .unwrap_or_default()
    };
    assert_eq!(
        msg(&reports[0]),
        "bad request: gpus must be between 1 and 16, got 4294967295"
    );
    assert!(
        msg(&reports[1]).contains("max_wall_ms"),
        "{}",
        msg(&reports[1])
    );
    assert!(
        msg(&reports[2]).contains("env names"),
        "{}",
        msg(&reports[2])
    );
    assert!(msg(&reports[3]).starts_with("bad request:"));
    assert!(reports[4].ok, "{reports:?}");
    assert_eq!(reports[4].stdout, "42\n");
}

#[test]
fn the_real_worker_answers_on_its_protocol_channel_and_prints_nothing_raw() {
    let mut child = cli::spawn_piped(Command::new(cli::BIN).arg("__worker"));
    let mut stdin = child.stdin.take().unwrap();
    let mut bad = serde_json::to_value(request("x = 1")).unwrap();
    bad["options"]["gpus"] = serde_json::json!(4294967295u64);
    writeln!(stdin, "{bad}").unwrap();
    writeln!(
        stdin,
        "{}",
        serde_json::to_string(&request("print('hi')")).unwrap()
    )
    .unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    assert!(
        out.stderr.is_empty(),
        "raw output: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let reports: Vec<RunReport> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(reports.len(), 2, "{text}");
    assert!(!reports[0].ok);
    assert_eq!(reports[1].stdout, "hi\n");
}

/// The report of a run on `backend` that a device-side assert ended (its context poisoned).
fn device_assert_report(backend: &str) -> RunReport {
    RunReport {
        backend: backend.into(),
        error: Some(ErrorReport {
            type_name: "torch.AcceleratorError".into(),
            message: "CUDA error: device-side assert triggered".into(),
            ..Default::default()
        }),
        ..Default::default()
    }
}

#[test]
fn device_output_becomes_device_log_lines_not_raw_text() {
    let path = std::env::temp_dir().join(format!("cudatutor-capture-{}", std::process::id()));
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(true)
        .read(true)
        .write(true)
        .open(&path)
        .unwrap();
    let mut writer = file.try_clone().unwrap();
    let mut capture = DeviceCapture::new(file);
    let line = "/__w/pytorch/pytorch/aten/src/ATen/native/cuda/Loss.cu:244: nll_loss_forward_reduce_cuda_kernel_2d: block: [0,0,0], thread: [1,0,0] Assertion `t >= 0 && t < n_classes` failed.";
    writeln!(writer, "{line}").unwrap();
    let mut report = device_assert_report("cuda");
    report.stderr = "Traceback (most recent call last):\n".into();
    attach_device_output(&mut report, capture.take_new_lines());
    assert_eq!(
        report.error.as_ref().unwrap().device_log,
        vec![line.to_string()]
    );
    assert!(report.stderr.starts_with(line), "{}", report.stderr);
    // Only new lines are taken next time; a line the engine already logged is not doubled.
    assert!(capture.take_new_lines().is_empty());
    writeln!(writer, "{line}").unwrap();
    attach_device_output(&mut report, capture.take_new_lines());
    assert_eq!(report.error.as_ref().unwrap().device_log.len(), 1);
    let _ = std::fs::remove_file(path);
}

/// A stand-in worker (a shell script speaking the protocol): its first run poisons its
/// context, then it exits as a real worker does; the client must start a fresh one.
#[test]
fn a_poisoned_context_ends_the_worker_and_the_next_run_gets_a_fresh_one() {
    let poisoned = serde_json::to_string(&device_assert_report("emulated")).unwrap();
    let fine = serde_json::to_string(&RunReport {
        backend: "emulated".into(),
        ok: true,
        stdout: "fresh\n".into(),
        ..Default::default()
    })
    .unwrap();
    let dir = scratch("fake-worker");
    let counter = dir.join("starts");
    let script = dir.join("fake-worker.sh");
    write_worker_script(
        &script,
        &format!(
            "#!/bin/bash\necho start >> '{}'\nread -r line\nif [ $(wc -l < '{}') -eq 1 ]; then echo '{}'; exit 0; fi\necho '{}'\nread -r line\n",
            counter.display(),
            counter.display(),
            poisoned.replace('\'', "'\\''"),
            fine.replace('\'', "'\\''")
        ),
    );
    let mut client = WorkerClient::with_program(script);
    let opts = on(BackendChoice::Emulated);
    let first = client.run("bad()", None, &opts);
    assert!(worker::context_poisoned(&first), "{first:?}");
    assert_eq!(client.worker_pid(), None, "the poisoned worker was reaped");
    let second = client.run("ok()", None, &opts);
    assert!(second.ok, "{second:?}");
    assert_eq!(second.stdout, "fresh\n");
    assert_eq!(
        std::fs::read_to_string(&counter).unwrap().lines().count(),
        2
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_worker_that_dies_mid_run_is_a_report_not_a_crash() {
    let mut client = WorkerClient::with_program("/bin/false".into());
    let r = client.run("x = 1", None, &RunOptions::default());
    assert!(!r.ok);
    let e = r.error.unwrap();
    assert!(e.message.contains("worker"), "{}", e.message);
}

/// A worker that takes the request and never answers, as one waiting on a kernel that never
/// ends would; it appends its pid to `pids` first.
fn hanging_worker(dir: &std::path::Path, pids: &std::path::Path) -> std::path::PathBuf {
    let script = dir.join("hanging-worker.sh");
    write_worker_script(
        &script,
        &format!(
            "#!/bin/sh\necho $$ >> '{}'\nread -r line\nexec sleep 600\n",
            pids.display()
        ),
    );
    script
}

#[test]
fn a_hung_worker_is_killed_at_the_deadline_and_the_run_ends_with_timeout_error() {
    let dir = scratch("hung-worker");
    let pids = dir.join("pids");
    let mut client = WorkerClient::with_program(hanging_worker(&dir, &pids))
        .with_grace(std::time::Duration::from_millis(300));
    let opts = RunOptions {
        backend: BackendChoice::Cuda,
        max_wall: std::time::Duration::from_secs(1),
        ..RunOptions::default()
    };
    for run in 1..=2 {
        let t0 = std::time::Instant::now();
        let r = client.run("torch.cuda.synchronize()", None, &opts);
        let took = t0.elapsed();
        assert!(!r.ok);
        assert_eq!(r.backend, "cuda");
        report_error_starting(
            &r,
            "TimeoutError",
            "the script ran longer than 1 seconds (its GPU work did not finish",
        );
        assert!(
            r.stderr
                .starts_with("TimeoutError: the script ran longer than 1 seconds")
        );
        assert_eq!(r.internal_error, None, "the learner's result, not a bug");
        assert!(took >= std::time::Duration::from_millis(1300), "{took:?}");
        assert!(took < std::time::Duration::from_secs(20), "{took:?}");
        assert_eq!(client.worker_pid(), None, "the hung worker was stopped");
        // killed and reaped, and the next run got a worker of its own
        let started: Vec<u32> = std::fs::read_to_string(&pids)
            .unwrap()
            .lines()
            .map(|l| l.parse().unwrap())
            .collect();
        assert_eq!(started.len(), run);
        let last = started[run - 1];
        assert!(
            !std::path::Path::new(&format!("/proc/{last}")).exists(),
            "worker {last} still exists"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_cancelled_run_is_a_keyboard_interrupt_not_a_timeout() {
    let dir = scratch("cancel-worker");
    let pids = dir.join("pids");
    let mut client = WorkerClient::with_program(hanging_worker(&dir, &pids));
    let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = cancel.clone();
    std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(300));
        flag.store(true, std::sync::atomic::Ordering::SeqCst);
    });
    let opts = RunOptions {
        backend: BackendChoice::Cuda,
        cancel: Some(cancel),
        ..RunOptions::default()
    };
    let r = client.run("while True: pass", None, &opts);
    assert_eq!(r.error.unwrap().type_name, "KeyboardInterrupt");
    assert_eq!(client.worker_pid(), None);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs through `run_exercise` (the pager, `watch`, `check --all`) share one warm worker:
/// the second run is served by the process the first one started, and both reports are the
/// emulated device's. Prints the first and the warm run's wall time (the figures in
/// docs/cuda-backend.md).
#[test]
fn exercise_runs_reuse_one_warm_worker() {
    let Some(_one_at_a_time) = warm_worker_turn() else {
        return;
    };
    use cudatutor::run::warm_worker;
    let (times, pids) = timed_warm_runs(&on(BackendChoice::Emulated), "emulated", 3);
    assert_eq!(pids[0], pids[1], "the second run started a new worker");
    assert_eq!(pids[1], pids[2], "the third run started a new worker");
    eprintln!(
        "emulated run through run_exercise: first {:.1} ms (worker start), warm {:.1} ms and {:.1} ms",
        times[0].as_secs_f64() * 1e3,
        times[1].as_secs_f64() * 1e3,
        times[2].as_secs_f64() * 1e3
    );
    warm_worker::release();
    assert_eq!(warm_worker::pid(), None, "release stops the warm worker");
}

/// This test's turn at the process's one warm worker, set to run this build's binary: the
/// tests that use it take turns (each checks which worker served its runs). None where the
/// emulated device is not built (a failure instead where CUDATUTOR_REQUIRE_EMULATED says it
/// must be).
fn warm_worker_turn() -> Option<std::sync::MutexGuard<'static, ()>> {
    if !cudatutor::engine::cuda::emulated::built() {
        assert!(
            std::env::var_os("CUDATUTOR_REQUIRE_EMULATED").is_none(),
            "the emulated device is not built"
        );
        return None;
    }
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let turn = LOCK
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    cudatutor::run::warm_worker::use_program(env!("CARGO_BIN_EXE_cudatutor").into());
    Some(turn)
}

/// A run that finds the warm worker busy with another thread's run gets a worker of its own,
/// of the program the warm worker runs (`use_program`), not of the running executable (here
/// the test binary, which knows no `__worker` and would answer no report).
#[test]
fn a_run_beside_a_busy_warm_worker_gets_a_worker_of_the_same_program() {
    let Some(_one_at_a_time) = warm_worker_turn() else {
        return;
    };
    use cudatutor::run::{run_exercise, warm_worker};
    let opts = on(BackendChoice::Emulated);
    let long_opts = opts.clone();
    let (started_tx, started_rx) = std::sync::mpsc::channel();
    let long = std::thread::spawn(move || {
        let _ = started_tx.send(());
        run_exercise(
            "import time\ntime.sleep(3)\nprint('long')\n",
            None,
            &long_opts,
        )
    });
    started_rx.recv().expect("the long run's thread started");
    // Whichever of the two runs comes second finds the warm worker busy (the long one sleeps
    // 3 s in its worker): either way one run goes through the busy branch.
    std::thread::sleep(std::time::Duration::from_millis(300));
    let beside = run_exercise(
        "import torch\nprint(torch.ones(3, device='cuda').sum().item())\n",
        None,
        &opts,
    );
    let long = long.join().expect("the long run's thread");
    assert_eq!(long.stdout, "long\n", "{:?}", long.internal_error);
    assert_eq!(beside.backend, "emulated", "{:?}", beside.internal_error);
    assert_eq!(beside.internal_error, None);
    assert_eq!(beside.stdout, "3.0\n");
    warm_worker::release();
}

/// Runs on the warm worker are isolated as separate processes are: a tensor the first run
/// left alive, its peak and its segment are gone from the next run's counters (each run has its
/// own caching allocator, whose segments are freed with it, also where the device itself is
/// kept open between runs).
#[test]
fn a_warm_workers_next_run_starts_with_fresh_memory_counters() {
    let Some(_one_at_a_time) = warm_worker_turn() else {
        return;
    };
    use cudatutor::run::{run_exercise, warm_worker};
    let opts = on(BackendChoice::Emulated);
    let first = run_exercise(
        "import torch\nx = torch.ones(300000, device='cuda')\nprint(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())\n",
        None,
        &opts,
    );
    assert_eq!(
        first.stdout, "1200128 20971520\n",
        "{:?}",
        first.internal_error
    );
    let pid = warm_worker::pid();
    let next = run_exercise(
        "import torch\nprint(torch.cuda.memory_allocated(), torch.cuda.memory_reserved(), torch.cuda.max_memory_allocated())\nfree, total = torch.cuda.mem_get_info()\nprint(total - free)\n",
        None,
        &opts,
    );
    assert_eq!(warm_worker::pid(), pid, "the same warm worker ran both");
    assert_eq!(next.stdout, "0 0 0\n0\n", "{:?}", next.internal_error);
    warm_worker::release();
}
