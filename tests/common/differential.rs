//! The differential harness shared by tests/python_conformance.rs (CPython recordings) and
//! tests/torch_fixtures.rs (PyTorch recordings): every DIR/NAME.py runs through
//! `cudatutor run FILE`; stdout must equal DIR/expected/NAME.stdout byte for byte, and
//! DIR/expected/NAME.error (the last stderr line, or empty for a clean exit) must match too.
//! Every fixture runs and the failure lists every mismatch. DIR/KNOWN_GAPS lists names that
//! still differ, with reasons: they must keep failing (the list only shrinks), nothing else may,
//! and each must be a fixture. `FIXTURE_FILTER=substring` runs a subset.

// Each test binary that includes `common` uses a different part of it.
#![allow(dead_code)]

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const TIMEOUT: Duration = Duration::from_secs(60);

struct Outcome {
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    code: Option<i32>,
    timed_out: bool,
    spawn_error: Option<String>,
}

pub fn run_suite(dir: &str, min: usize, recorder: &str, truth: &str) -> Result<(), String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join(dir);
    let expected_dir = dir.join("expected");
    let mut scripts: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "py"))
        .collect();
    scripts.sort();
    if scripts.len() < min {
        return Err(format!(
            "{} holds {} fixture scripts; at least {min} are required",
            dir.display(),
            scripts.len()
        ));
    }
    let filter = std::env::var("FIXTURE_FILTER").ok();
    let scripts: Vec<PathBuf> = scripts
        .into_iter()
        .filter(|p| filter.as_deref().is_none_or(|f| stem(p).contains(f)))
        .collect();

    let total = scripts.len();
    let queue = Arc::new(Mutex::new(scripts));
    let failures = Arc::new(Mutex::new(Vec::<(String, String)>::new()));
    let workers = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2)
        .clamp(1, 4);
    let mut handles = Vec::new();
    for _ in 0..workers {
        let queue = Arc::clone(&queue);
        let failures = Arc::clone(&failures);
        let expected_dir = expected_dir.clone();
        let root = root.to_path_buf();
        let recorder = recorder.to_string();
        handles.push(std::thread::spawn(move || {
            loop {
                let Some(script) = queue.lock().unwrap().pop() else {
                    break;
                };
                let name = stem(&script);
                if let Some(problem) = check_one(&root, &script, &expected_dir, &recorder) {
                    failures.lock().unwrap().push((name, problem));
                }
            }
        }));
    }
    for h in handles {
        h.join().expect("worker thread panicked");
    }
    let mut failures = Arc::try_unwrap(failures).unwrap().into_inner().unwrap();
    // Known gaps are listed, with their reason, in DIR/KNOWN_GAPS: they must still fail (so
    // the list only shrinks) and nothing else may. A listed name must be a fixture.
    let gaps: Vec<String> = std::fs::read_to_string(dir.join("KNOWN_GAPS"))
        .unwrap_or_default()
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim().to_string())
        .filter(|l| !l.is_empty())
        .collect();
    let unknown: Vec<&String> = gaps
        .iter()
        .filter(|g| !dir.join(format!("{g}.py")).exists())
        .collect();
    if !unknown.is_empty() {
        return Err(format!(
            "{}/KNOWN_GAPS lists names that are not fixtures: {unknown:?}",
            dir.display()
        ));
    }
    let now_passing: Vec<&String> = gaps
        .iter()
        .filter(|g| filter.as_deref().is_none_or(|f| g.contains(f)))
        .filter(|g| !failures.iter().any(|(n, _)| n == *g))
        .collect();
    if !now_passing.is_empty() {
        return Err(format!(
            "these fixtures now match {truth}: remove them from {}/KNOWN_GAPS: {now_passing:?}",
            dir.display()
        ));
    }
    let known = failures.iter().filter(|(n, _)| gaps.contains(n)).count();
    failures.retain(|(n, _)| !gaps.contains(n));
    if failures.is_empty() {
        eprintln!(
            "{} of {total} fixtures in {} match; {known} known gaps (KNOWN_GAPS) still differ",
            total - known,
            dir.display()
        );
        return Ok(());
    }
    failures.sort();
    let mut msg = format!(
        "{} of {total} fixtures in {} do not match their recording:\n",
        failures.len(),
        dir.display()
    );
    for (name, problem) in &failures {
        msg.push_str(&format!("\n=== {name}\n{problem}\n"));
    }
    msg.push_str(&format!(
        "\n{} of {total} fixtures mismatched (FIXTURE_FILTER=name reruns some)\n",
        failures.len()
    ));
    Err(msg)
}

fn stem(p: &Path) -> String {
    p.file_stem().unwrap().to_string_lossy().into_owned()
}

/// None when the script behaves as recorded, else a readable description of every difference.
fn check_one(root: &Path, script: &Path, expected_dir: &Path, recorder: &str) -> Option<String> {
    let name = stem(script);
    let (Ok(want_out), Ok(want_err)) = (
        std::fs::read(expected_dir.join(format!("{name}.stdout"))),
        std::fs::read_to_string(expected_dir.join(format!("{name}.error"))),
    ) else {
        return Some(format!(
            "no recording in {}: run {recorder}",
            expected_dir.display()
        ));
    };
    let want_err = want_err.trim_end_matches(['\n', '\r']).to_string();
    let got = run_binary(root, script);
    if let Some(e) = got.spawn_error {
        return Some(format!("could not start the binary: {e}"));
    }
    let mut problems = Vec::new();
    if got.timed_out {
        problems.push(format!("timed out after {}s (killed)", TIMEOUT.as_secs()));
    }
    if got.stdout != want_out {
        problems.push(describe_stdout_diff(&want_out, &got.stdout));
    }
    let got_last = last_line(&got.stderr);
    // A recorded NAME.status is the status of `sys.exit(code)`; otherwise 1 when it raised.
    let want_code = match std::fs::read_to_string(expected_dir.join(format!("{name}.status"))) {
        Ok(s) => s.trim().parse().unwrap_or(-1),
        Err(_) => i32::from(!want_err.is_empty()),
    };
    if !got.timed_out && got.code != Some(want_code) {
        problems.push(format!(
            "exit status: expected {want_code}, got {}",
            got.code
                .map_or("none (killed by a signal)".to_string(), |c| c.to_string())
        ));
    }
    if !want_err.is_empty() && got_last != want_err {
        problems.push(format!(
            "last stderr line:\n  expected: {want_err:?}\n  got:      {got_last:?}"
        ));
    }
    if want_err.is_empty() && want_code == 0 && got.code != Some(0) && !got_last.is_empty() {
        problems.push(format!("unexpected error: {got_last:?}"));
    }
    if problems.is_empty() {
        None
    } else {
        Some(problems.join("\n"))
    }
}

fn last_line(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes)
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim_end()
        .to_string()
}

fn describe_stdout_diff(want: &[u8], got: &[u8]) -> String {
    let want = String::from_utf8_lossy(want);
    let got = String::from_utf8_lossy(got);
    let w: Vec<&str> = want.split_inclusive('\n').collect();
    let g: Vec<&str> = got.split_inclusive('\n').collect();
    let first = (0..w.len().max(g.len()))
        .find(|&i| w.get(i) != g.get(i))
        .unwrap_or(0);
    let show = |v: &Vec<&str>, i: usize| {
        v.get(i)
            .map_or("<end of output>".to_string(), |s| format!("{s:?}"))
    };
    let mut s = format!(
        "stdout differs at line {} ({} lines expected, {} got):\n  expected: {}\n  got:      {}",
        first + 1,
        w.len(),
        g.len(),
        show(&w, first),
        show(&g, first)
    );
    let clip = |t: &str| -> String {
        if t.len() > 1500 {
            let mut end = 1500;
            while !t.is_char_boundary(end) {
                end -= 1;
            }
            format!("{}... ({} bytes in all)", &t[..end], t.len())
        } else {
            t.to_string()
        }
    };
    s.push_str(&format!(
        "\n  --- expected stdout ---\n{}\n  --- got stdout ---\n{}",
        clip(&want),
        clip(&got)
    ));
    s
}

fn run_binary(root: &Path, script: &Path) -> Outcome {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cudatutor"));
    cmd.arg("run")
        .arg(script)
        .current_dir(root)
        .env_remove("CUDATUTOR_TEST_VAR")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            return Outcome {
                stdout: vec![],
                stderr: vec![],
                code: None,
                timed_out: false,
                spawn_error: Some(e.to_string()),
            };
        }
    };
    let mut out_pipe = child.stdout.take().unwrap();
    let mut err_pipe = child.stderr.take().unwrap();
    let out_t = std::thread::spawn(move || {
        let mut b = Vec::new();
        let _ = out_pipe.read_to_end(&mut b);
        b
    });
    let err_t = std::thread::spawn(move || {
        let mut b = Vec::new();
        let _ = err_pipe.read_to_end(&mut b);
        b
    });
    let start = Instant::now();
    let mut timed_out = false;
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) if start.elapsed() > TIMEOUT => {
                timed_out = true;
                let _ = child.kill();
                break child.wait().ok();
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(_) => break None,
        }
    };
    Outcome {
        stdout: out_t.join().unwrap_or_default(),
        stderr: err_t.join().unwrap_or_default(),
        code: status.and_then(|s| s.code()),
        timed_out,
        spawn_error: None,
    }
}
