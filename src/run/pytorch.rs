//! `--backend pytorch`: the script runs on the machine's own Python and PyTorch (UNSANDBOXED:
//! it can do anything the user can), reported through the same [`RunReport`].
//!
//! The runner is Python shipped inside the binary ([`RUNNER`], src/run/pytorch_runner.py) and
//! written to the cache folder. One resident Python process per cudatutor process imports
//! torch once (2.5–50 s on a loaded machine) and forks one child per run, before CUDA is ever
//! initialised in the parent; the child runs the script with its own stdout/stderr files and
//! the parent kills it at the wall limit. The resident process exits when its stdin closes,
//! i.e. when cudatutor exits or drops the client. Requests and reports are JSON lines.

use super::check_text::{CheckText, check_text, fill};
use super::checks::{self, CheckMessage, CheckStatement};
use super::{CheckResult, ErrorReport, RunOptions, RunReport};
use serde::{Deserialize, Serialize};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::Ordering;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The runner's source, written to the cache folder on first use.
pub(crate) const RUNNER: &str = include_str!("pytorch_runner.py");

/// The environment variable naming the Python interpreter (after `--python`).
pub(crate) const PYTHON_ENV: &str = "CUDATUTOR_PYTHON";

/// How long the resident process may take to import torch and answer its greeting. Importing
/// torch from the PyPI wheel takes 2.5–6 s on an idle machine and far longer on a loaded one.
const START_LIMIT: Duration = Duration::from_secs(240);

/// What the pager and summaries say about this backend wherever it is shown.
pub(crate) const UNSANDBOXED_NOTE: &str = "unsandboxed Python: the script can do anything you can";
/// [`UNSANDBOXED_NOTE`] in Chinese.
pub(crate) const UNSANDBOXED_NOTE_ZH: &str = "未经沙箱隔离的 Python：脚本能做你能做的任何事";

/// [`UNSANDBOXED_NOTE`] in `lang`.
pub(crate) fn unsandboxed_note(lang: crate::lesson::Lang) -> &'static str {
    lang.pick(UNSANDBOXED_NOTE, UNSANDBOXED_NOTE_ZH)
}

/// The environment variable `python -m cudatutor` sets to the interpreter that ran it
/// (python/cudatutor/__main__.py), so the binary it starts uses that Python by default.
pub(crate) const LAUNCHER_PYTHON_ENV: &str = "CUDATUTOR_LAUNCHER_PYTHON";

/// Where the interpreter of a run comes from, in the order they win.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PythonSource {
    /// `--python PATH`.
    Flag,
    /// `CUDATUTOR_PYTHON`.
    Env,
    /// The Python that ran `python -m cudatutor`.
    Launcher,
    /// The Python of the environment pip installed this binary into (its venv's bin/).
    BesideBinary,
    /// `python3` looked up on PATH.
    Path,
}

/// The Python interpreter a run uses (see [`python_choice`]).
pub(crate) fn python_program(opts: &RunOptions) -> PathBuf {
    python_choice(opts).0
}

/// The Python interpreter a run uses and why: `--python`, else `CUDATUTOR_PYTHON`, else the
/// Python of `python -m cudatutor`, else the Python beside this binary, else `python3`. The
/// two middle ones make a learner's own PyTorch the default once the wheel is installed in the
/// venv that holds torch, with no flag.
pub(crate) fn python_choice(opts: &RunOptions) -> (PathBuf, PythonSource) {
    if let Some(p) = &opts.python {
        return (p.clone(), PythonSource::Flag);
    }
    let env_path = |name| {
        std::env::var_os(name)
            .filter(|p| !p.is_empty())
            .map(PathBuf::from)
    };
    if let Some(p) = env_path(PYTHON_ENV) {
        return (p, PythonSource::Env);
    }
    if let Some(p) = env_path(LAUNCHER_PYTHON_ENV).filter(|p| p.is_file()) {
        return (p, PythonSource::Launcher);
    }
    if let Some(p) = std::env::current_exe()
        .ok()
        .and_then(|exe| python_beside(&exe))
    {
        return (p, PythonSource::BesideBinary);
    }
    (PathBuf::from("python3"), PythonSource::Path)
}

/// The interpreter installed beside the binary `exe`. pip puts a wheel's binary in the scripts
/// folder of the environment it installs into (a venv's or conda env's bin/), where that
/// environment's own python already is. Knowing its own path is what works for every way of
/// starting the binary (typed with the venv active, by full path, from a shell script), unlike
/// a Python wrapper, which only `python -m cudatutor` goes through. The path is kept as found,
/// not resolved: a venv's python is a symlink to the base interpreter, and only the link's path
/// makes Python use the venv's site-packages and its torch.
pub(crate) fn python_beside(exe: &Path) -> Option<PathBuf> {
    let dir = exe.parent()?;
    let names: &[&str] = if cfg!(windows) {
        // A venv's Scripts\python.exe; a base or conda install keeps python.exe one level up.
        &["python.exe", "../python.exe"]
    } else {
        &["python3", "python"]
    };
    names.iter().map(|n| dir.join(n)).find(|p| p.is_file())
}

/// Can `program` be started at all? (A name is looked up on PATH.) `Err` says why not.
pub(crate) fn python_found(program: &Path) -> Result<PathBuf, String> {
    if program.components().count() > 1 {
        return if program.is_file() {
            Ok(program.to_path_buf())
        } else {
            Err(format!("{} does not exist", program.display()))
        };
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&path) {
        let candidate = dir.join(program);
        if candidate.is_file() {
            return Ok(candidate);
        }
    }
    Err(format!(
        "`{}` is not on PATH (name the interpreter with --python PATH or {PYTHON_ENV})",
        program.display()
    ))
}

/// Where the runner is written: the cache folder (`CUDATUTOR_CACHE_DIR`, else the XDG cache
/// folder), else the temporary folder. The name carries a hash of the source, so two binaries
/// never overwrite each other's runner while it runs.
pub fn runner_path() -> std::io::Result<PathBuf> {
    let dir = super::kernel_cache_dir()
        .and_then(|d| d.parent().map(Path::to_path_buf))
        .unwrap_or_else(|| std::env::temp_dir().join("cudatutor"));
    let dir = if std::env::var_os("CUDATUTOR_CACHE_DIR").is_some_and(|d| !d.is_empty()) {
        PathBuf::from(std::env::var_os("CUDATUTOR_CACHE_DIR").unwrap_or_default())
    } else {
        dir
    };
    std::fs::create_dir_all(&dir)?;
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for b in RUNNER.bytes() {
        hash = (hash ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
    }
    let path = dir.join(format!("pytorch_runner-{hash:016x}.py"));
    if std::fs::read_to_string(&path).ok().as_deref() != Some(RUNNER) {
        let tmp = dir.join(format!(
            "pytorch_runner-{hash:016x}.{}.tmp",
            std::process::id()
        ));
        std::fs::write(&tmp, RUNNER)?;
        std::fs::rename(&tmp, &path)?;
    }
    Ok(path)
}

/// What the Python at hand offers (`runner.py probe`), for doctor and the labels.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
pub struct PythonProbe {
    pub python: String,
    #[serde(default)]
    pub executable: String,
    /// torch's version, None when it does not import.
    pub torch: Option<String>,
    /// Why `import torch` failed.
    pub error: Option<String>,
    pub cuda: bool,
    pub cuda_version: Option<String>,
    #[serde(default)]
    pub devices: Vec<ProbeDevice>,
    #[serde(default)]
    pub cuda_error: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize, Serialize)]
pub struct ProbeDevice {
    pub index: u32,
    pub name: String,
    pub memory: u64,
}

/// Runs `runner.py probe` with `program` (imports torch and asks CUDA: seconds).
pub fn probe(program: &Path) -> Result<PythonProbe, String> {
    let found = python_found(program)?;
    let runner = runner_path().map_err(|e| format!("cannot write the runner: {e}"))?;
    let out = Command::new(&found)
        .arg(&runner)
        .arg("probe")
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .map_err(|e| format!("cannot start {}: {e}", found.display()))?;
    let text = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(text.trim()).map_err(|_| {
        format!(
            "{} did not run cudatutor's runner (exit status {}); is it Python 3.8 or newer?",
            found.display(),
            out.status
        )
    })
}

/// torch's version for `program` without importing torch (package metadata, ~50 ms), cached.
pub(crate) fn torch_version(program: &Path) -> Option<String> {
    static CACHE: Mutex<Vec<(PathBuf, Option<String>)>> = Mutex::new(Vec::new());
    let mut cache = CACHE.lock().ok()?;
    if let Some((_, v)) = cache.iter().find(|(p, _)| p == program) {
        return v.clone();
    }
    let v = python_found(program).ok().and_then(|found| {
        let out = Command::new(found)
            .args([
                "-c",
                "import importlib.metadata as m; print(m.version('torch'))",
            ])
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .output()
            .ok()?;
        let v = String::from_utf8_lossy(&out.stdout).trim().to_string();
        (out.status.success() && !v.is_empty()).then_some(v)
    });
    cache.push((program.to_path_buf(), v.clone()));
    v
}

/// What the status bar names after `pytorch · `: "real PyTorch 2.15.0 · unsandboxed Python
/// (python3)".
pub fn label(opts: &RunOptions) -> String {
    let program = python_program(opts);
    let version = torch_version(&program).unwrap_or_else(|| "(torch not found)".into());
    format!(
        "real PyTorch {version} · unsandboxed Python ({})",
        program.display()
    )
}

/// One statement of a check block, as the runner gets it.
#[derive(Debug, Serialize)]
struct WireCheck {
    padded_source: String,
    is_assert: bool,
    line: u32,
    message_expr: Option<String>,
}

#[derive(Debug, Serialize)]
struct Request<'a> {
    code: &'a str,
    filename: &'a str,
    argv0: Option<&'a str>,
    env: &'a [(String, String)],
    launch_blocking: bool,
    max_wall_ms: u64,
    checks: Option<Vec<WireCheck>>,
    predict: &'a [(String, String)],
    /// The checks' `code_unchanged()` (decided here, from the code alone).
    code_unchanged: bool,
}

/// What the runner says about one check statement.
#[derive(Debug, Deserialize)]
struct CheckOutcome {
    /// `ok`, `assert_failed`, `raised`, `skipped` (after a setup statement raised) or
    /// `setup_raised` (the check namespace itself could not be built).
    kind: String,
    /// The assert's message as evaluated (a message expression), or its AssertionError text.
    #[serde(default)]
    message: Option<String>,
    #[serde(default, rename = "type")]
    type_name: Option<String>,
    #[serde(default)]
    error_message: Option<String>,
    #[serde(default)]
    line: Option<u32>,
}

#[derive(Debug, Deserialize)]
struct Reply {
    #[serde(flatten)]
    report: RunReport,
    #[serde(default)]
    check_outcomes: Option<Vec<CheckOutcome>>,
    #[serde(default)]
    pid: Option<u32>,
}

#[derive(Debug, Deserialize)]
struct Hello {
    pid: u32,
    torch: Option<String>,
    torch_error: Option<String>,
}

/// A resident Python process with torch imported, forking one child per run.
pub(crate) struct Resident {
    program: PathBuf,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// torch's version as the resident process imported it.
    pub torch_version: String,
    pid: u32,
}

impl Resident {
    /// Starts `program runner.py serve` and waits for its greeting (torch imported).
    pub(crate) fn start(program: &Path) -> Result<Resident, String> {
        let found = python_found(program)?;
        let runner = runner_path().map_err(|e| format!("cannot write the runner: {e}"))?;
        let mut child = Command::new(&found)
            .arg("-u")
            .arg(&runner)
            .arg("serve")
            .env("PYTORCH_NVML_BASED_CUDA_CHECK", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", found.display()))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::Builder::new()
            .name("cudatutor-pytorch-reader".into())
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                loop {
                    let mut line = String::new();
                    match reader.read_line(&mut line) {
                        Ok(0) | Err(_) => return,
                        Ok(_) => {
                            if tx.send(line).is_err() {
                                return;
                            }
                        }
                    }
                }
            })
            .map_err(|e| format!("cannot start a reader thread: {e}"))?;
        let mut resident = Resident {
            program: program.to_path_buf(),
            child,
            stdin,
            lines: rx,
            torch_version: String::new(),
            pid: 0,
        };
        let hello = match resident.lines.recv_timeout(START_LIMIT) {
            Ok(line) => line,
            Err(_) => {
                resident.kill();
                return Err(format!(
                    "{} did not start cudatutor's runner within {} s",
                    found.display(),
                    START_LIMIT.as_secs()
                ));
            }
        };
        let hello: Hello = serde_json::from_str(hello.trim())
            .map_err(|e| format!("the runner's greeting was not understood: {e}"))?;
        match (hello.torch, hello.torch_error) {
            (Some(v), _) => resident.torch_version = v,
            (None, why) => {
                resident.kill();
                return Err(format!(
                    "{} cannot import torch: {}",
                    found.display(),
                    why.unwrap_or_else(|| "no reason given".into())
                ));
            }
        }
        resident.pid = hello.pid;
        Ok(resident)
    }

    /// Process id of the resident Python process (tests watch it survive runs).
    pub(crate) fn pid(&self) -> u32 {
        self.pid
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Runs one script (with its checks). `Err` means the resident process is unusable (it
    /// died, or it was killed to cancel the run) and the report says why.
    fn run(
        &mut self,
        code: &str,
        check: Option<&str>,
        opts: &RunOptions,
    ) -> Result<RunReport, Box<RunReport>> {
        let split = check.map(checks::split_checks);
        let wire_checks = match &split {
            Some(Ok(statements)) => Some(statements.iter().map(wire_check).collect()),
            _ => None,
        };
        let predictions = opts.exercise.judge_predictions(code);
        let wall_ms = u64::try_from(opts.max_wall.as_millis())
            .unwrap_or(u64::MAX)
            .clamp(1, super::worker::MAX_WALL_MS);
        let request = Request {
            code,
            filename: &opts.filename,
            argv0: opts.argv0.as_deref(),
            env: &opts.env,
            launch_blocking: opts.launch_blocking,
            max_wall_ms: wall_ms,
            checks: wire_checks,
            predict: &opts.exercise.predict,
            code_unchanged: predictions.code_unchanged,
        };
        let line = serde_json::to_string(&request).map_err(|e| {
            Box::new(failed(&format!(
                "the run request could not be encoded: {e}"
            )))
        })?;
        if writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .is_err()
        {
            return Err(Box::new(failed("the resident Python process has exited")));
        }
        // The runner kills the script at its wall limit; this margin covers the fork, the
        // report, and a machine under load.
        let deadline = Instant::now() + Duration::from_millis(wall_ms) + Duration::from_secs(30);
        let reply = loop {
            if opts
                .cancel
                .as_ref()
                .is_some_and(|c| c.load(Ordering::SeqCst))
            {
                self.kill();
                let mut r = failed("KeyboardInterrupt");
                if let Some(e) = r.error.as_mut() {
                    e.type_name = "KeyboardInterrupt".into();
                    e.message.clear();
                    e.traceback = "KeyboardInterrupt\n".into();
                }
                r.stderr = "KeyboardInterrupt\n".into();
                r.internal_error = None;
                return Err(Box::new(r));
            }
            match self.lines.recv_timeout(Duration::from_millis(50)) {
                Ok(line) => break line,
                Err(RecvTimeoutError::Timeout) if Instant::now() < deadline => {}
                Err(RecvTimeoutError::Timeout) => {
                    self.kill();
                    return Err(Box::new(failed(
                        "the resident Python process did not answer in time and was stopped",
                    )));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    self.kill();
                    return Err(Box::new(failed(
                        "the resident Python process died during the run",
                    )));
                }
            }
        };
        let reply: Reply = match serde_json::from_str(reply.trim()) {
            Ok(r) => r,
            Err(e) => {
                return Ok(failed(&format!(
                    "the runner's report was not understood: {e}"
                )));
            }
        };
        if let Some(pid) = reply.pid {
            self.pid = pid;
        }
        let mut report = reply.report;
        report.backend = "pytorch".into();
        report.device_name = format!("real PyTorch {} · {}", self.torch_version, {
            if report.device_name.is_empty() {
                "CPU".to_string()
            } else {
                report.device_name.clone()
            }
        });
        report.modelled = false;
        report.checks = match (check, split) {
            (Some(block), Some(Err(e))) => vec![super::session::broken_block_result(
                block,
                &e,
                check_text(&opts.exercise.lang),
            )],
            // (code that does not parse has no problem: its SyntaxError comes first)
            (Some(_), Some(Ok(_))) if predictions.problem.is_some() => {
                vec![super::session::whole_run_result(
                    predictions.problem.clone(),
                )]
            }
            (Some(_), Some(Ok(statements))) => check_results(
                &statements,
                reply.check_outcomes.unwrap_or_default(),
                report.error.as_ref(),
                check_text(&opts.exercise.lang),
            ),
            _ => Vec::new(),
        };
        Ok(report)
    }
}

impl Drop for Resident {
    fn drop(&mut self) {
        self.kill();
    }
}

fn wire_check(s: &CheckStatement) -> WireCheck {
    WireCheck {
        padded_source: s.padded_source(),
        is_assert: s.is_assert,
        line: s.line,
        message_expr: match &s.message {
            Some(CheckMessage::Expr(e)) => Some(e.clone()),
            _ => None,
        },
    }
}

/// The checks pane's results from the runner's outcomes, worded as the engine's check runner
/// words them (see session.rs).
fn check_results(
    statements: &[CheckStatement],
    outcomes: Vec<CheckOutcome>,
    error: Option<&ErrorReport>,
    text: &CheckText,
) -> Vec<CheckResult> {
    if let Some(message) = super::session::run_as_a_whole_failed(error, text) {
        return vec![super::session::whole_run_result(Some(message))];
    }
    if let Some(o) = outcomes.first().filter(|o| o.kind == "setup_raised") {
        return vec![CheckResult {
            source: String::new(),
            line: 0,
            passed: false,
            message: Some(fill(
                text.check_raised,
                &[(
                    "error",
                    &final_line(o.type_name.as_deref(), o.error_message.as_deref()),
                )],
            )),
            error: None,
        }];
    }
    let mut results = Vec::new();
    let mut setup_failure: Option<String> = None;
    let mut number = 0;
    for (stmt, outcome) in statements.iter().zip(outcomes) {
        if stmt.is_assert {
            number += 1;
        }
        let own = || -> String {
            match (&stmt.message, &outcome.message) {
                (Some(CheckMessage::Literal(m)), _) => m.clone(),
                (Some(CheckMessage::Expr(_)), Some(m)) => m.clone(),
                _ => fill(text.unnamed_check, &[("n", &number.to_string())]),
            }
        };
        if !stmt.is_assert {
            if outcome.kind == "raised" && setup_failure.is_none() {
                setup_failure = Some(learner_terms(&outcome, text));
            }
            continue;
        }
        let (passed, error) = match outcome.kind.as_str() {
            "ok" => (true, None),
            "assert_failed" => (false, None),
            "skipped" => (false, setup_failure.clone()),
            _ => (false, Some(learner_terms(&outcome, text))),
        };
        let own = if outcome.kind == "assert_failed" {
            outcome
                .message
                .clone()
                .filter(|m| !m.is_empty())
                .unwrap_or_else(own)
        } else {
            own()
        };
        let message = match &error {
            Some(why) => format!("{own} — {why}"),
            None => own,
        };
        results.push(CheckResult {
            source: stmt.source.clone(),
            line: stmt.line,
            passed,
            message: Some(message),
            error,
        });
    }
    results
}

fn final_line(type_name: Option<&str>, message: Option<&str>) -> String {
    crate::script::errors::final_line(
        type_name.unwrap_or("Exception"),
        message.and_then(|m| m.lines().next()).unwrap_or(""),
    )
}

/// What went wrong while a check ran, in the learner's terms (as session.rs says it).
fn learner_terms(o: &CheckOutcome, text: &CheckText) -> String {
    let what = final_line(o.type_name.as_deref(), o.error_message.as_deref());
    if let Some(line) = o.line {
        return fill(
            text.your_line_raised,
            &[("line", &line.to_string()), ("error", &what)],
        );
    }
    let message = o.error_message.as_deref().unwrap_or("");
    if o.type_name.as_deref() == Some("NameError")
        && let Some(name) = message
            .strip_prefix("name '")
            .and_then(|m| m.split_once('\'').map(|(n, _)| n))
    {
        return fill(text.not_defined, &[("name", name)]);
    }
    if message.starts_with("CUDA error") {
        return text.gpu_broken.to_string();
    }
    fill(text.check_raised, &[("error", &what)])
}

fn failed(message: &str) -> RunReport {
    super::internal_error_report(message, "pytorch")
}

/// The resident process of this cudatutor process (one per interpreter path), started on the
/// first run and kept for the next; it exits with cudatutor (its stdin closes).
fn resident() -> &'static Mutex<Option<Resident>> {
    static RESIDENT: OnceLock<Mutex<Option<Resident>>> = OnceLock::new();
    RESIDENT.get_or_init(|| Mutex::new(None))
}

/// Runs an exercise (or a plain script, `check` None) on real PyTorch.
pub fn run_exercise(code: &str, check: Option<&str>, opts: &RunOptions) -> RunReport {
    let program = python_program(opts);
    let Ok(mut slot) = resident().lock() else {
        return failed("the resident Python process is unavailable (a run panicked)");
    };
    if slot.as_ref().is_some_and(|r| r.program != program) {
        *slot = None;
    }
    if slot.is_none() {
        match Resident::start(&program) {
            Ok(r) => *slot = Some(r),
            Err(why) => return failed(&why),
        }
    }
    let Some(r) = slot.as_mut() else {
        return failed("the resident Python process could not start");
    };
    match r.run(code, check, opts) {
        Ok(report) => report,
        Err(report) => {
            // Cancelled, or the process died: the next run starts a fresh one.
            *slot = None;
            *report
        }
    }
}

/// Process id of the resident Python process, if one is running (tests use it).
pub fn resident_pid() -> Option<u32> {
    resident()
        .lock()
        .ok()
        .and_then(|s| s.as_ref().map(Resident::pid))
}
