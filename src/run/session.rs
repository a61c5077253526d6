//! One in-process run: a fresh engine runtime and interpreter, the exercise, then its checks
//! in a namespace of their own (see `check_env`), folded into a [`RunReport`].

use super::check_env::{self, Pristine, RunFacts};
use super::check_text::{CheckText, check_text, fill};
use super::checks::{self, CheckMessage, CheckStatement};
use super::{CheckResult, ErrorReport, ExerciseContext, RunOptions, RunReport};
use crate::engine::interrupt::Interrupt;
use crate::engine::runtime::{GpuBackend, Runtime, RuntimeConfig};
use crate::lesson::terminal_text::without_controls;
use crate::script::{CallGuard, Interpreter, Limits, Module, ScriptError};
use std::rc::Rc;
use std::time::Instant;

/// The file name check blocks run under (their tracebacks say `check.py`).
const CHECK_FILE: &str = "check.py";

/// The seed a run's default CPU generator starts from, as `torch.initial_seed()` reports it:
/// `CUDATUTOR_SEED` (a decimal u64) when the host sets it, so tests and recorded sessions can
/// pin it; otherwise 64 fresh random bits, as PyTorch 2.15 reads them from /dev/urandom
/// (c10's getNonDeterministicRandom), so unseeded `torch.rand` differs from run to run.
pub(super) fn initial_cpu_seed() -> u64 {
    if let Some(seed) = std::env::var("CUDATUTOR_SEED")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
    {
        return seed;
    }
    crate::engine::random::nondeterministic_seed()
}

/// Is `CUDA_LAUNCH_BLOCKING` set to a value CUDA treats as on?
fn env_says_blocking(v: Option<&String>) -> bool {
    v.is_some_and(|v| v.trim() == "1")
}

pub(super) fn run(code: &str, check: Option<&str>, opts: &RunOptions) -> RunReport {
    let mut env: std::collections::BTreeMap<String, String> = opts.env.iter().cloned().collect();
    let launch_blocking =
        opts.launch_blocking || env_says_blocking(env.get("CUDA_LAUNCH_BLOCKING"));
    if launch_blocking {
        env.insert("CUDA_LAUNCH_BLOCKING".into(), "1".into());
    }
    let gpu_backend = match opts.backend {
        super::BackendChoice::Emulated => GpuBackend::Emulated,
        super::BackendChoice::Cuda => GpuBackend::Cuda,
        super::BackendChoice::Auto if super::cuda_usable_here() => GpuBackend::Cuda,
        _ => GpuBackend::Sim,
    };
    let (gpu_backend, backend_note) = enough_real_gpus(gpu_backend, opts.gpus);
    let device_name = match gpu_backend {
        GpuBackend::Emulated => crate::engine::cuda::emulated::EMULATED_DEVICE_NAME.to_string(),
        _ => crate::engine::runtime::SIM_DEVICE_NAME.to_string(),
    };
    let rt = Runtime::new(RuntimeConfig {
        gpus: opts.gpus.max(1),
        gpu_memory: opts.gpu_memory,
        launch_blocking,
        gpu_backend,
        device_name,
        // The run's Ctrl-c and time limit reach into long kernels (a 4000x4000 matmul, a sum
        // over an expanded view), not only between the interpreter's steps.
        interrupt: Interrupt {
            cancel: opts.cancel.clone(),
            // (no deadline for a limit too large to add to a clock reading)
            deadline: Instant::now()
                .checked_add(opts.max_wall)
                .map(|at| (at, opts.max_wall)),
        },
        ..RuntimeConfig::default()
    });
    if let Some(why) = rt.gpu_error() {
        let message = format!(
            "the {} device could not be opened: {why}",
            gpu_backend.name()
        );
        return super::internal_error_report(&message, gpu_backend.name());
    }
    if let Some(cap) = opts.mem_limit {
        rt.set_memory_cap(Some(cap));
    }
    // PyTorch seeds a fresh process's CPU generator from /dev/urandom (docs/random.md)
    rt.default_generator()
        .borrow_mut()
        .manual_seed(initial_cpu_seed());
    let mut it = Interpreter::new(Limits {
        max_steps: opts.max_steps,
        max_wall: opts.max_wall,
        cancel: opts.cancel.clone(),
    });
    if let Some(limit) = super::run_thread_stack_limit() {
        it.set_stack_limit(limit);
    }
    *it.env().borrow_mut() = env;
    if let Some(argv0) = &opts.argv0 {
        it.set_argv0(argv0);
        // `python3 FILE` imports the modules next to FILE (sys.path[0]); `-` (stdin) has none
        if argv0 != "-" {
            let dir = std::path::Path::new(argv0).parent();
            it.set_script_dir(
                dir.filter(|d| !d.as_os_str().is_empty())
                    .unwrap_or(".".as_ref()),
            );
        }
    }
    for dir in &opts.allow_read {
        if let Err(why) = it.allow_read(dir) {
            return super::worker::failed_report(&why);
        }
    }
    crate::torch::install(&mut it, rt.clone());
    // A kernel's assert lines reach stderr at the synchronization that reports them, in
    // their place among what the script prints (a caught assert's line comes before the
    // script's later output, as on a terminal).
    let log_rt = rt.clone();
    it.set_stderr_source(Box::new(move || log_rt.take_printed_device_log(false)));
    // The checks' own torch, counters and helpers are taken before the learner's code runs.
    let pristine = check.map(|_| Rc::new(Pristine::capture(&mut it)));

    let outcome = it.run_main(code, &opts.filename);
    // Lines of an assert no synchronization reported come last, before the traceback.
    for line in rt.take_printed_device_log(true) {
        it.write_stderr(&format!("{line}\n"));
    }
    // What the learner sees is the exercise's own run: take everything before the checks.
    let stdout = it.take_stdout();
    let mut stderr = it.take_stderr();
    let mut output_order = it.take_output_order();
    let device_log = rt.device_log();
    // `sys.exit(0)` ends the run cleanly; another code is an error with that status.
    let exit_status = outcome.as_ref().err().and_then(|e| e.exit_status);
    let error = outcome
        .err()
        .filter(|e| e.exit_status != Some(0))
        .map(|e| error_report(e, &rt, device_log.clone()));
    if let Some(e) = &error {
        let before = stderr.len();
        stderr.push_str(&e.traceback);
        if !e.traceback.is_empty() && !e.traceback.ends_with('\n') {
            stderr.push('\n');
        }
        crate::run_report::extend_order(&mut output_order, true, stderr.len() - before);
    }
    let report_launch_blocking = rt.launch_blocking();
    let timeline = rt.timeline();
    // The checks below read the stream model's clock, as on every backend; the report shows
    // the device's own times where it has them.
    let measured_timeline = rt.measured_timeline(timeline.clone());
    let memory = rt.memory_report();

    if let Some(p) = &pristine {
        p.restore();
    }
    // Code that does not parse ran nothing: its traceback shows the syntax error, no answer.
    let unparsed = error
        .as_ref()
        .is_some_and(|e| is_syntax_error(&e.type_name));
    let prediction_pending = !unparsed && prediction_pending(&mut it, &opts.exercise);
    // A prediction is written, not computed, and judged against the code as given.
    let predictions = opts.exercise.judge_predictions(code);
    let checks = match (check, &pristine) {
        (Some(block), Some(pristine)) => {
            let facts = RunFacts {
                error: error.as_ref(),
                stdout: &stdout,
                timeline: &timeline,
                launch_blocking: report_launch_blocking,
                prediction_problem: predictions.problem,
                code_unchanged: predictions.code_unchanged,
            };
            let text = check_text(&opts.exercise.lang);
            let mut results = run_checks(&mut it, block, &facts, pristine, text);
            // An error the exercise does not expect is said first, with its place, so that no
            // check about the goal takes the blame for it.
            // (not when one result already speaks for the whole run: a SyntaxError, a stop)
            if let Some(e) = &error
                && run_as_a_whole_failed(Some(e), text).is_none()
                && let Some(note) = super::unexpected::unexpected_error_note(
                    e,
                    code,
                    &opts.exercise.start_code,
                    block,
                    &opts.filename,
                    text,
                )
                && let Some(first) = results.iter_mut().find(|c| !c.passed)
            {
                let own = first.message.take().unwrap_or_default();
                first.message = Some(note.replace("{check}", &own));
            }
            results
        }
        _ => Vec::new(),
    };
    let report = RunReport {
        backend: rt.gpu_backend().name().into(),
        device_name: rt.device_name().to_string(),
        // on a GPU backend the timeline's device times are measured (runtime/measured.rs)
        modelled: measured_timeline.is_none(),
        launch_blocking: report_launch_blocking,
        ok: error.is_none(),
        exit_status,
        stdout,
        stderr,
        output_order,
        error,
        memory,
        timeline: measured_timeline.unwrap_or(timeline),
        checks,
        prediction_pending,
        internal_error: None,
        device_usage: device_usage(&rt),
        backend_note,
    };
    if rt.gpu_backend() == GpuBackend::Sim {
        // A run stopped at its limit may hold gigabytes (a list of 10 MB strings up to the
        // budget): freeing them took 0.7 s and more on the loaded machine, all of it before
        // the traceback was printed. The run thread frees them after handing the report on;
        // a process that exits once it has printed the report (`cudatutor run`, the grading
        // worker) does not wait. (Not on a GPU: its memory goes back before the next run.)
        super::free_after_report(Box::new(RunHeap { it, rt }));
    } else {
        // Drop the namespaces while the runtime is alive, so every tensor returns its memory.
        it.clear_namespaces();
    }
    report
}

/// What a finished run leaves to free: the interpreter first (its namespaces hold the
/// tensors), then the runtime their memory returns to (fields drop in order). Held only to be
/// dropped.
#[allow(dead_code)]
struct RunHeap {
    it: Interpreter,
    rt: Rc<Runtime>,
}

/// A run on real GPUs needs as many as the exercise models (`--gpus`, an exercise's `gpus`):
/// with fewer on this machine it runs on the sim, and the report says why.
fn enough_real_gpus(backend: GpuBackend, wanted: u32) -> (GpuBackend, Option<String>) {
    if backend != GpuBackend::Cuda || wanted <= 1 {
        return (backend, None);
    }
    let have = crate::engine::cuda::probe::probe_driver().devices.len() as u32;
    if have == 0 || have >= wanted {
        // (no GPU at all: opening the device says why)
        return (backend, None);
    }
    (
        GpuBackend::Sim,
        Some(format!(
            "this run models {wanted} GPUs and this machine has {have}: it ran on the simulated GPUs"
        )),
    )
}

/// What ran on the GPU backend's kernels and what on the host (None on the sim).
fn device_usage(rt: &Runtime) -> Option<super::report::DeviceUsage> {
    if rt.gpu_backend() == GpuBackend::Sim {
        return None;
    }
    let (launches, fallbacks) = rt.gpu_usage();
    let scratch = rt.gpu_scratch();
    Some(super::report::DeviceUsage {
        launches,
        fallbacks,
        poisoned: rt.gpu_poisoned(),
        scratch_peak_bytes: scratch.peak,
        scratch_pooled_bytes: scratch.pooled,
    })
}

fn error_report(e: ScriptError, rt: &Runtime, device_log: Vec<String>) -> ErrorReport {
    // The deferred error names its origin only when this exception is that CUDA failure.
    let origin_line = rt
        .cuda_failure()
        .filter(|_| e.message.starts_with("CUDA error"))
        .map(|f| f.origin_line);
    // What the failing check found: the deferred kernel's, or the op that raised on this line.
    let detail = match origin_line {
        Some(_) => rt.cuda_failure().and_then(|f| f.detail),
        None => rt.last_detail().filter(|d| Some(d.line()) == e.line),
    };
    ErrorReport {
        type_name: e.type_name,
        message: e.message,
        line: e.line,
        origin_line,
        column: e.column,
        device_log,
        traceback: e.traceback,
        detail,
    }
}

/// Whether a predicted variable is still at its starting value (or undefined): the starting
/// expression (`0`, `40 + 400 + 800`) is evaluated in a scratch namespace and compared as a
/// plain value. A starting expression that cannot be evaluated leaves its variable counted as
/// predicted.
fn prediction_pending(it: &mut Interpreter, exercise: &ExerciseContext) -> bool {
    exercise.predict.iter().any(|(name, start)| {
        let Some(now) = it.main_global(name) else {
            return true;
        };
        let scratch = Rc::new(Module::new("__start__"));
        let source = format!("start = ({start}\n)\n");
        if it.run_in_module(&source, "<start>", &scratch).is_err() {
            return false;
        }
        let start = scratch.dict.borrow().get_str("start").cloned();
        let pending = start.is_some_and(|v| check_env::plain_eq(&now, &v, 0));
        let old = scratch.dict.borrow_mut().clear();
        drop(old);
        pending
    })
}

/// A result about the run as a whole rather than one check (line 0, failed): what
/// [`run_as_a_whole_failed`] says, or a prediction problem.
pub(super) fn whole_run_result(message: Option<String>) -> CheckResult {
    CheckResult {
        source: String::new(),
        line: 0,
        passed: false,
        message,
        error: None,
    }
}

/// The one result shown when the check block itself does not parse: the offending line of
/// `block` and the parser's message, in the lesson's language.
pub(super) fn broken_block_result(
    block: &str,
    e: &checks::CheckSyntaxError,
    text: &CheckText,
) -> CheckResult {
    CheckResult {
        source: block
            .lines()
            .nth(e.line.saturating_sub(1) as usize)
            .unwrap_or("")
            .to_string(),
        line: e.line,
        passed: false,
        message: Some(fill(
            text.check_block_broken,
            &[("line", &e.line.to_string()), ("error", &e.message)],
        )),
        error: None,
    }
}

/// The one result shown instead of the checks when they cannot mean anything: the code does
/// not parse, or the run was stopped before its end.
pub(super) fn run_as_a_whole_failed(
    error: Option<&ErrorReport>,
    text: &CheckText,
) -> Option<String> {
    let e = error?;
    match e.type_name.as_str() {
        kind if is_syntax_error(kind) => Some(fill(text.fix_syntax_first, &[("kind", kind)])),
        "KeyboardInterrupt" | "TimeoutError" => {
            let what = if e.message.is_empty() {
                e.type_name.clone()
            } else {
                format!("{}: {}", e.type_name, first_line(&e.message))
            };
            Some(fill(text.run_stopped, &[("error", &what)]))
        }
        _ => None,
    }
}

fn run_checks(
    it: &mut Interpreter,
    block: &str,
    facts: &RunFacts,
    pristine: &Rc<Pristine>,
    text: &CheckText,
) -> Vec<CheckResult> {
    let whole =
        run_as_a_whole_failed(facts.error, text).or_else(|| facts.prediction_problem.clone());
    if whole.is_some() {
        return vec![whole_run_result(whole)];
    }
    let statements = match checks::split_checks(block) {
        Ok(s) => s,
        Err(e) => return vec![broken_block_result(block, &e, text)],
    };
    let ns = check_env::check_namespace(it, pristine, facts);
    // Every call from the checks into the learner's code is bracketed by a restore.
    let mut trusted = pristine.trusted();
    trusted.push(ns.dict.clone());
    it.set_call_guard(Some(CallGuard::new(&trusted, pristine.clone())));
    let mut results = Vec::new();
    // Why the setup before the remaining checks failed, in the learner's terms.
    let mut setup_failure: Option<String> = None;
    let mut number = 0;
    for stmt in &statements {
        if stmt.is_assert {
            number += 1;
        }
        if let Some(why) = &setup_failure {
            if stmt.is_assert {
                let own = own_message(it, &ns, stmt, number, text);
                results.push(failed(stmt, own, Some(why.clone())));
            }
            continue;
        }
        // A learner's function that an earlier check called may have patched a module since.
        pristine.restore();
        let outcome = it.run_in_module(&stmt.padded_source(), CHECK_FILE, &ns);
        let _ = it.take_stdout();
        match (outcome, stmt.is_assert) {
            (Ok(()), true) => {
                let own = own_message(it, &ns, stmt, number, text);
                results.push(CheckResult {
                    source: stmt.source.clone(),
                    line: stmt.line,
                    passed: true,
                    message: Some(own),
                    error: None,
                });
            }
            (Ok(()), false) => {}
            // The assert itself failed (not an AssertionError raised inside the learner's code).
            (Err(e), true) if e.type_name == "AssertionError" && e.line.is_none() => {
                let own = if e.message.is_empty() {
                    own_message(it, &ns, stmt, number, text)
                } else {
                    e.message.clone()
                };
                results.push(failed(stmt, own, None));
            }
            (Err(e), true) => {
                let own = own_message(it, &ns, stmt, number, text);
                results.push(failed(stmt, own, Some(learner_terms(&e, text))));
            }
            (Err(e), false) => setup_failure = Some(learner_terms(&e, text)),
        }
    }
    it.set_call_guard(None);
    let old = ns.dict.borrow_mut().clear();
    drop(old);
    // A message can hold what the learner's values print as (an f-string message): nothing
    // in it may drive the terminal `check` or the pager prints it on.
    for r in &mut results {
        for text in [&mut r.message, &mut r.error].into_iter().flatten() {
            if let std::borrow::Cow::Owned(clean) = without_controls(text) {
                *text = clean;
            }
        }
    }
    results
}

/// The assert's own message: its string literal, or its message expression evaluated in the
/// check namespace, or "check N" when it has none (lint asks for one).
fn own_message(
    it: &mut Interpreter,
    ns: &Rc<Module>,
    stmt: &CheckStatement,
    number: usize,
    text: &CheckText,
) -> String {
    let unnamed = || fill(text.unnamed_check, &[("n", &number.to_string())]);
    match &stmt.message {
        Some(CheckMessage::Literal(m)) => m.clone(),
        Some(CheckMessage::Expr(expr)) => {
            let source = format!("__cudatutor_message__ = str({expr}\n)\n");
            match it.run_in_module(&source, CHECK_FILE, ns) {
                Ok(()) => ns
                    .dict
                    .borrow_mut()
                    .remove_str("__cudatutor_message__")
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_else(unnamed),
                Err(_) => unnamed(),
            }
        }
        None => unnamed(),
    }
}

fn failed(stmt: &CheckStatement, own: String, error: Option<String>) -> CheckResult {
    let message = match &error {
        Some(why) => format!("{own} — {why}"),
        None => own,
    };
    CheckResult {
        source: stmt.source.clone(),
        line: stmt.line,
        passed: false,
        message: Some(message),
        error,
    }
}

/// What went wrong while a check ran, said about the learner's code: the line of theirs that
/// raised, the variable they never defined, the GPU their code broke; never a line of the
/// check block.
fn learner_terms(e: &ScriptError, text: &CheckText) -> String {
    let what = if e.message.is_empty() {
        e.type_name.clone()
    } else {
        crate::script::errors::final_line(&e.type_name, first_line(&e.message))
    };
    if let Some(line) = e.line {
        return fill(
            text.your_line_raised,
            &[("line", &line.to_string()), ("error", &what)],
        );
    }
    if e.type_name == "NameError"
        && let Some(name) = e
            .message
            .strip_prefix("name '")
            .and_then(|m| m.split_once('\'').map(|(n, _)| n))
    {
        return fill(text.not_defined, &[("name", name)]);
    }
    if e.message.starts_with("CUDA error") {
        return text.gpu_broken.to_string();
    }
    fill(text.check_raised, &[("error", &what)])
}

fn is_syntax_error(type_name: &str) -> bool {
    matches!(type_name, "SyntaxError" | "IndentationError" | "TabError")
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}
