//! One in-process run: a fresh engine runtime and interpreter, the exercise, then its checks
//! in the same namespace, folded into a [`RunReport`].

use super::checks::{self, CheckStatement};
use super::{CheckResult, ErrorReport, RunOptions, RunReport};
use crate::engine::runtime::{Runtime, RuntimeConfig};
use crate::script::{Interpreter, Limits, ScriptError, Value};

/// The file name check blocks run under (their tracebacks say `check.py`).
const CHECK_FILE: &str = "check.py";

/// Is `CUDA_LAUNCH_BLOCKING` set to a value CUDA treats as on?
fn env_says_blocking(v: Option<&String>) -> bool {
    v.is_some_and(|v| v.trim() == "1")
}

pub fn run(code: &str, check: Option<&str>, opts: &RunOptions) -> RunReport {
    let mut env: std::collections::BTreeMap<String, String> = opts.env.iter().cloned().collect();
    let launch_blocking =
        opts.launch_blocking || env_says_blocking(env.get("CUDA_LAUNCH_BLOCKING"));
    if launch_blocking {
        env.insert("CUDA_LAUNCH_BLOCKING".into(), "1".into());
    }
    let rt = Runtime::new(RuntimeConfig {
        gpus: opts.gpus.max(1),
        gpu_memory: opts.gpu_memory,
        launch_blocking,
        ..RuntimeConfig::default()
    });
    if let Some(cap) = opts.mem_limit {
        rt.set_memory_cap(Some(cap));
    }
    let mut it = Interpreter::new(Limits {
        max_steps: opts.max_steps,
        max_wall: opts.max_wall,
        cancel: opts.cancel.clone(),
    });
    *it.env().borrow_mut() = env;
    crate::torch::install(&mut it, rt.clone());

    let outcome = it.run_main(code, &opts.filename);
    // What the learner sees is the exercise's own run: take everything before the checks.
    let stdout = it.take_stdout();
    let mut stderr = String::new();
    let device_log = rt.device_log();
    for line in &device_log {
        stderr.push_str(line);
        stderr.push('\n');
    }
    stderr.push_str(&it.take_stderr());
    let error = outcome
        .err()
        .map(|e| error_report(e, &rt, device_log.clone()));
    if let Some(e) = &error {
        stderr.push_str(&e.traceback);
        if !e.traceback.ends_with('\n') {
            stderr.push('\n');
        }
    }
    let report_launch_blocking = rt.launch_blocking();
    let timeline = rt.timeline();
    let memory = rt.memory_report();

    let checks = match check {
        Some(block) => run_checks(&mut it, block, error.as_ref(), &stdout),
        None => Vec::new(),
    };
    // Drop the namespaces while the runtime is alive, so every tensor returns its memory.
    it.clear_namespaces();
    RunReport {
        backend: "sim".into(),
        device_name: rt.device_name().to_string(),
        modelled: true,
        launch_blocking: report_launch_blocking,
        ok: error.is_none(),
        stdout,
        stderr,
        error,
        memory,
        timeline,
        checks,
        prediction_pending: false,
    }
}

fn error_report(e: ScriptError, rt: &Runtime, device_log: Vec<String>) -> ErrorReport {
    // The deferred error names its origin only when this exception is that CUDA failure.
    let origin_line = rt
        .cuda_failure()
        .filter(|_| e.message.starts_with("CUDA error"))
        .map(|f| f.origin_line);
    ErrorReport {
        type_name: e.type_name,
        message: e.message,
        line: e.line,
        origin_line,
        column: e.column,
        device_log,
        traceback: e.traceback,
    }
}

/// The helpers a check block may call: what the exercise raised, where, and what it printed.
fn install_check_helpers(it: &mut Interpreter, error: Option<&ErrorReport>, stdout: &str) {
    let opt_str = |s: Option<String>| s.map(|s| Value::str(&s)).unwrap_or(Value::None);
    let opt_int = |n: Option<u32>| n.map(|n| Value::Int(i64::from(n))).unwrap_or(Value::None);
    let helpers: [(&str, Value); 5] = [
        ("error_type", opt_str(error.map(|e| e.type_name.clone()))),
        ("error_message", opt_str(error.map(|e| e.message.clone()))),
        ("error_line", opt_int(error.and_then(|e| e.line))),
        ("origin_line", opt_int(error.and_then(|e| e.origin_line))),
        ("output", Value::str(stdout)),
    ];
    for (name, value) in helpers {
        it.set_main_global(
            name,
            Value::native_fn(name, move |_it, _args| Ok(value.clone())),
        );
    }
}

fn run_checks(
    it: &mut Interpreter,
    block: &str,
    error: Option<&ErrorReport>,
    stdout: &str,
) -> Vec<CheckResult> {
    install_check_helpers(it, error, stdout);
    let statements = match checks::split_checks(block) {
        Ok(s) => s,
        Err(e) => {
            return vec![CheckResult {
                source: block
                    .lines()
                    .nth(e.line.saturating_sub(1) as usize)
                    .unwrap_or("")
                    .to_string(),
                line: e.line,
                passed: false,
                message: Some(format!("the check block does not parse: {}", e.message)),
            }];
        }
    };
    let mut results = Vec::new();
    let mut setup_failure: Option<String> = None;
    for stmt in &statements {
        if let Some(why) = &setup_failure {
            if stmt.is_assert {
                results.push(failed(stmt, why.clone()));
            }
            continue;
        }
        let outcome = it.run_in_main(&stmt.padded_source(), CHECK_FILE);
        let _ = it.take_stdout();
        match (outcome, stmt.is_assert) {
            (Ok(()), true) => results.push(CheckResult {
                source: stmt.source.clone(),
                line: stmt.line,
                passed: true,
                message: None,
            }),
            (Ok(()), false) => {}
            (Err(e), true) => results.push(failed(stmt, check_failure_message(&e))),
            (Err(e), false) => {
                setup_failure = Some(format!(
                    "the check could not run: line {} raised {}",
                    stmt.line,
                    check_failure_message(&e)
                ));
            }
        }
    }
    results
}

fn failed(stmt: &CheckStatement, message: String) -> CheckResult {
    CheckResult {
        source: stmt.source.clone(),
        line: stmt.line,
        passed: false,
        message: Some(message),
    }
}

/// An AssertionError shows its own message; any other exception shows `Type: message`.
fn check_failure_message(e: &ScriptError) -> String {
    if e.type_name == "AssertionError" {
        if e.message.is_empty() {
            "assertion failed".into()
        } else {
            e.message.clone()
        }
    } else {
        let first = e.message.lines().next().unwrap_or("");
        format!("{}: {first}", e.type_name)
    }
}
