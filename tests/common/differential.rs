//! The differential harness shared by tests/python_conformance.rs (CPython recordings),
//! tests/torch_fixtures.rs, tests/learner_corpus.rs and tests/torch_exact.rs (PyTorch
//! recordings; tests/conformance.rs runs its scripts with `run_isolated` and compares them sample
//! by sample itself): every DIR/NAME.py runs through `cudatutor run FILE`; stdout must equal
//! DIR/expected/NAME.stdout byte for byte, and DIR/expected/NAME.error must match too.
//! Two recording layouts exist:
//! - with DIR/expected/NAME.status (scripts/record-pytorch.py writes it): the exit status must
//!   equal it and the last non-empty stderr line must equal NAME.error, whatever the status
//!   (an empty NAME.error means stderr stayed empty);
//! - without it (older recordings): NAME.error is the last stderr line when the script raised
//!   (exit 1), or empty for a clean exit (exit 0).
//!
//! Every fixture runs and the failure lists every mismatch. DIR/KNOWN_GAPS lists names that
//! still differ, with reasons: they must keep failing (the list only shrinks), nothing else may,
//! and each must be a fixture. `FIXTURE_FILTER=substring` runs a subset.
//! `CORPUS_REPORT=FILE` writes a per-group pass count and the most common failure causes
//! (tests/common/corpus_report.rs); `CORPUS_GAPS_OUT=FILE` writes every failing name with its
//! cause, in the KNOWN_GAPS format, for a maintainer to review.

// Each test binary that includes `common` uses a different part of it.
#![allow(dead_code)]

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::corpus_report::{self, Checked};

/// What one run of `cudatutor run SCRIPT` did.
pub(crate) struct Outcome {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    /// None when it was killed by a signal.
    pub code: Option<i32>,
    pub timed_out: bool,
    /// Set when the binary could not be started at all.
    pub spawn_error: Option<String>,
}

/// Runs one script the way `Suite { isolate: true, .. }` does (from a scratch folder holding
/// only a copy of it, with the recorder's minimal environment), for harnesses that compare the
/// output themselves (tests/conformance.rs compares it sample by sample).
pub(crate) fn run_isolated(script: &Path, timeout: Duration) -> Outcome {
    let how = RunHow {
        root: Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf(),
        timeout,
        isolate: true,
    };
    run_binary(&how, script)
}

/// One differential suite: a folder of scripts and its recordings.
pub(crate) struct Suite<'a> {
    /// The folder, relative to the crate root.
    pub dir: &'a str,
    /// Fewer scripts than this is an error (a folder emptied by mistake must not pass).
    pub min: usize,
    /// The command that records the truth, named in the "no recording" message.
    pub recorder: &'a str,
    /// What the recordings come from ("PyTorch", "CPython"), for messages.
    pub truth: &'a str,
    /// A script still running after this long is killed and fails.
    pub timeout: Duration,
    /// Run each script as `cudatutor run NAME.py` from a fresh scratch folder holding only a
    /// copy of it, with the recorder's minimal environment: the way record-pytorch.py ran it.
    /// Otherwise it runs from the crate root with its path (the older suites).
    pub isolate: bool,
}

/// The older suites' call: 60 s a script, run from the crate root.
pub(crate) fn assert_suite(dir: &str, min: usize, recorder: &str, truth: &str) {
    Suite {
        dir,
        min,
        recorder,
        truth,
        timeout: Duration::from_secs(60),
        isolate: false,
    }
    .assert_matches();
}

impl Suite<'_> {
    /// Runs every script and fails the test with the report of those that differ from their
    /// recording (or of a suite too small or not recorded).
    pub(crate) fn assert_matches(&self) {
        if let Err(msg) = run_checked(self) {
            panic!("{msg}");
        }
    }
}

fn run_checked(suite: &Suite) -> Result<(), String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join(suite.dir);
    let expected_dir = dir.join("expected");
    let mut scripts: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "py"))
        .collect();
    scripts.sort();
    if scripts.len() < suite.min {
        return Err(format!(
            "{} holds {} fixture scripts; at least {} are required",
            dir.display(),
            scripts.len(),
            suite.min
        ));
    }
    let filter = std::env::var("FIXTURE_FILTER").ok();
    let scripts: Vec<PathBuf> = scripts
        .into_iter()
        .filter(|p| filter.as_deref().is_none_or(|f| stem(p).contains(f)))
        .collect();

    let total = scripts.len();
    let results = check_all(suite, root, scripts, &expected_dir);
    // Known gaps are listed, with their reason, in DIR/KNOWN_GAPS: they must still fail (so
    // the list only shrinks) and nothing else may. A listed name must be a fixture.
    let gaps = read_gaps(&dir.join("KNOWN_GAPS"));
    write_requested_reports(suite, &results, &gaps);
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
    let mut failures: Vec<&Checked> = results.iter().filter(|c| c.problem.is_some()).collect();
    let now_passing: Vec<&String> = gaps
        .iter()
        .filter(|g| filter.as_deref().is_none_or(|f| g.contains(f)))
        .filter(|g| !failures.iter().any(|c| &c.name == *g))
        .collect();
    if !now_passing.is_empty() {
        return Err(format!(
            "these fixtures now match {}: remove them from {}/KNOWN_GAPS: {now_passing:?}",
            suite.truth,
            dir.display()
        ));
    }
    let known = failures.iter().filter(|c| gaps.contains(&c.name)).count();
    failures.retain(|c| !gaps.contains(&c.name));
    if failures.is_empty() {
        eprintln!(
            "{} of {total} fixtures in {} match; {known} known gaps (KNOWN_GAPS) still differ",
            total - known,
            dir.display()
        );
        return Ok(());
    }
    failures.sort_by(|a, b| a.name.cmp(&b.name));
    let mut msg = format!(
        "{} of {total} fixtures in {} do not match their recording:\n",
        failures.len(),
        dir.display()
    );
    for c in &failures {
        let problem = c.problem.as_deref().unwrap_or_default();
        msg.push_str(&format!("\n=== {}\n{problem}\n", c.name));
    }
    msg.push_str(&format!(
        "\n{} of {total} fixtures mismatched (FIXTURE_FILTER=name reruns some)\n",
        failures.len()
    ));
    Err(msg)
}

/// Runs every script on a few threads (each waits on its own child process) and returns the
/// verdicts sorted by name.
fn check_all(
    suite: &Suite,
    root: &Path,
    scripts: Vec<PathBuf>,
    expected_dir: &Path,
) -> Vec<Checked> {
    let queue = Arc::new(Mutex::new(scripts));
    let results = Arc::new(Mutex::new(Vec::<Checked>::new()));
    let workers = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2)
        .clamp(1, 4);
    let how = RunHow {
        root: root.to_path_buf(),
        timeout: suite.timeout,
        isolate: suite.isolate,
    };
    let mut handles = Vec::new();
    for _ in 0..workers {
        let queue = Arc::clone(&queue);
        let results = Arc::clone(&results);
        let expected_dir = expected_dir.to_path_buf();
        let recorder = suite.recorder.to_string();
        let how = how.clone();
        handles.push(std::thread::spawn(move || {
            loop {
                let Some(script) = queue.lock().unwrap().pop() else {
                    break;
                };
                let checked = check_one(&how, &script, &expected_dir, &recorder);
                results.lock().unwrap().push(checked);
            }
        }));
    }
    for h in handles {
        h.join().expect("worker thread panicked");
    }
    let mut results = Arc::try_unwrap(results).unwrap().into_inner().unwrap();
    results.sort_by(|a, b| a.name.cmp(&b.name));
    results
}

fn read_gaps(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

/// `CORPUS_REPORT=FILE` and `CORPUS_GAPS_OUT=FILE`: written whether or not the suite passes,
/// so a maintainer can read what fails most before deciding what to fix.
fn write_requested_reports(suite: &Suite, results: &[Checked], gaps: &[String]) {
    if let Some(path) = std::env::var_os("CORPUS_REPORT") {
        let text = corpus_report::render(suite.dir, results, gaps);
        if let Err(e) = std::fs::write(&path, text) {
            eprintln!(
                "cannot write CORPUS_REPORT {}: {e}",
                Path::new(&path).display()
            );
        }
    }
    if let Some(path) = std::env::var_os("CORPUS_GAPS_OUT") {
        let text = corpus_report::suggested_gaps(results);
        if let Err(e) = std::fs::write(&path, text) {
            eprintln!(
                "cannot write CORPUS_GAPS_OUT {}: {e}",
                Path::new(&path).display()
            );
        }
    }
}

fn stem(p: &Path) -> String {
    p.file_stem().unwrap().to_string_lossy().into_owned()
}

/// What the recording says the script does.
struct Expected {
    stdout: Vec<u8>,
    /// The last non-empty stderr line ("" when none / when it exited 0 in the older layout).
    last_err: String,
    code: i32,
    /// The newer layout (NAME.status present): the last stderr line is compared whatever the
    /// exit status, even when empty.
    strict_stderr: bool,
}

fn read_expected(expected_dir: &Path, name: &str) -> Option<Expected> {
    let stdout = std::fs::read(expected_dir.join(format!("{name}.stdout"))).ok()?;
    let err = std::fs::read_to_string(expected_dir.join(format!("{name}.error"))).ok()?;
    let last_err = err.trim_end_matches(['\n', '\r']).to_string();
    match std::fs::read_to_string(expected_dir.join(format!("{name}.status"))) {
        Ok(s) => Some(Expected {
            stdout,
            last_err,
            code: s.trim().parse().ok()?,
            strict_stderr: true,
        }),
        Err(_) => Some(Expected {
            stdout,
            code: if last_err.is_empty() { 0 } else { 1 },
            last_err,
            strict_stderr: false,
        }),
    }
}

/// The verdict on one script: `problem` is None when it behaves as recorded, else a readable
/// description of every difference; `cause` is the one-line reason the report groups by.
fn check_one(how: &RunHow, script: &Path, expected_dir: &Path, recorder: &str) -> Checked {
    let name = stem(script);
    let fail = |problem: String, (cause, reason): (String, String)| Checked {
        name: name.clone(),
        problem: Some(problem),
        cause,
        reason,
    };
    let plain = |s: &str| (s.to_string(), s.to_string());
    let Some(want) = read_expected(expected_dir, &name) else {
        return fail(
            format!("no recording in {}: run {recorder}", expected_dir.display()),
            plain("no recording"),
        );
    };
    let got = run_binary(how, script);
    if let Some(e) = got.spawn_error {
        return fail(
            format!("could not start the binary: {e}"),
            plain("binary did not start"),
        );
    }
    let got_last = last_line(&got.stderr);
    let mut problems = Vec::new();
    if got.timed_out {
        problems.push(format!(
            "timed out after {}s (killed)",
            how.timeout.as_secs()
        ));
    }
    if got.stdout != want.stdout {
        problems.push(describe_stdout_diff(&want.stdout, &got.stdout));
    }
    if !got.timed_out && got.code != Some(want.code) {
        problems.push(format!(
            "exit status: expected {}, got {}",
            want.code,
            got.code
                .map_or("none (killed by a signal)".to_string(), |c| c.to_string())
        ));
    }
    let compare_err = want.strict_stderr || !want.last_err.is_empty();
    if compare_err && got_last != want.last_err {
        problems.push(format!(
            "last stderr line:\n  expected: {:?}\n  got:      {got_last:?}",
            want.last_err
        ));
    }
    if !compare_err && got.code != Some(0) && !got_last.is_empty() {
        problems.push(format!("unexpected error: {got_last:?}"));
    }
    if problems.is_empty() {
        return Checked {
            name,
            problem: None,
            cause: String::new(),
            reason: String::new(),
        };
    }
    let cause = corpus_report::cause(&corpus_report::Observed {
        want_stdout: &want.stdout,
        got_stdout: &got.stdout,
        want_last_err: &want.last_err,
        got_last_err: &got_last,
        want_code: want.code,
        got_code: got.code,
        timed_out: got.timed_out,
        seeded: std::fs::read_to_string(script)
            .is_ok_and(|src| src.contains("manual_seed") || src.contains("random.seed")),
    });
    fail(problems.join("\n"), cause)
}

pub(crate) fn last_line(bytes: &[u8]) -> String {
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

/// How the binary is started for every script of a suite.
#[derive(Clone)]
struct RunHow {
    root: PathBuf,
    timeout: Duration,
    isolate: bool,
}

/// A scratch folder per isolated run, removed when dropped.
/// Copies `script` into `folder` with the modules next to it that it imports (`import NAME` or
/// `from NAME import ...` at the start of a line, NAME.py beside it), as scripts/record-pytorch.py
/// copies them: the conformance scripts share tests/conformance/prelude.py this way.
fn copy_with_local_imports(script: &Path, folder: &Path) -> std::io::Result<()> {
    let name = script.file_name().unwrap_or_default();
    std::fs::copy(script, folder.join(name))?;
    let text = std::fs::read_to_string(script)?;
    let beside = script.parent().unwrap_or(Path::new("."));
    for line in text.lines() {
        let module = line
            .strip_prefix("import ")
            .or_else(|| line.strip_prefix("from "))
            .and_then(|rest| rest.split([' ', ',']).next())
            .unwrap_or("");
        if module.is_empty() || !module.chars().all(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let file = format!("{module}.py");
        if beside.join(&file).is_file() {
            std::fs::copy(beside.join(&file), folder.join(&file))?;
        }
    }
    Ok(())
}

struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

static SCRATCH_SEQ: AtomicUsize = AtomicUsize::new(0);

fn run_binary(how: &RunHow, script: &Path) -> Outcome {
    let spawn_failed = |e: String| Outcome {
        stdout: vec![],
        stderr: vec![],
        code: None,
        timed_out: false,
        spawn_error: Some(e),
    };
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cudatutor"));
    cmd.arg("run");
    // Held until the child has exited, then removed.
    let _scratch = if how.isolate {
        let folder = std::env::temp_dir().join(format!(
            "cudatutor-corpus-{}-{}",
            std::process::id(),
            SCRATCH_SEQ.fetch_add(1, Ordering::Relaxed)
        ));
        let file_name = script.file_name().unwrap();
        if let Err(e) =
            std::fs::create_dir_all(&folder).and_then(|_| copy_with_local_imports(script, &folder))
        {
            return spawn_failed(format!("cannot prepare {}: {e}", folder.display()));
        }
        cmd.arg(file_name)
            .current_dir(&folder)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", std::env::var_os("HOME").unwrap_or_default())
            .env("LANG", "C.UTF-8")
            .env("PYTHONHASHSEED", "0");
        Some(Scratch(folder))
    } else {
        cmd.arg(script)
            .current_dir(&how.root)
            .env_remove("CUDATUTOR_TEST_VAR");
        None
    };
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => return spawn_failed(e.to_string()),
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
            Ok(None) if start.elapsed() > how.timeout => {
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
