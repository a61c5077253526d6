//! `check --format github|exercism|gradescope`: each rendering validated against the rules of
//! its platform's documented format, the same rules run on the platforms' own example files
//! (tests/fixtures/classroom/, sources in its README), and partial credit per check with
//! weights on a lesson with some checks passing.

use cudatutor::lesson::{Catalog, Lang};
use cudatutor::progress::{Progress, Store, folder_set};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

#[path = "support/cli.rs"]
mod cli;
use cli::{builtin_attempts, builtin_exercise_count, command, save_attempt, scratch_dir};

fn temp(name: &str) -> PathBuf {
    scratch_dir("formats", name)
}

/// The sim backend, whatever the machine has.
fn cudatutor(data: &Path, args: &[&str]) -> Output {
    command(data)
        .args(args)
        .args(["--backend", "sim"])
        .output()
        .expect("binary runs")
}

fn fixture(name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/classroom")
        .join(name);
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

// ---- the platforms' field rules -------------------------------------------------------------

fn keys_within(v: &Value, allowed: &[&str], what: &str) -> Result<(), String> {
    let obj = v.as_object().ok_or(format!("{what} is not an object"))?;
    match obj.keys().find(|k| !allowed.contains(&k.as_str())) {
        Some(k) => Err(format!("{what}: unknown key `{k}`")),
        None => Ok(()),
    }
}

fn one_of(v: &Value, allowed: &[&str], what: &str) -> Result<(), String> {
    match v.as_str() {
        Some(s) if allowed.contains(&s) => Ok(()),
        _ => Err(format!("{what} is {v}, not one of {allowed:?}")),
    }
}

fn string_or_null(v: Option<&Value>, what: &str) -> Result<(), String> {
    match v {
        None | Some(Value::Null | Value::String(_)) => Ok(()),
        Some(other) => Err(format!("{what} is {other}, not a string or null")),
    }
}

fn number(v: Option<&Value>, what: &str) -> Result<f64, String> {
    v.and_then(Value::as_f64)
        .filter(|n| n.is_finite() && *n >= 0.0)
        .ok_or(format!("{what} is {v:?}, not a number ≥ 0"))
}

/// A status as GitHub's and Exercism's formats have them.
const STATUSES: [&str; 3] = ["pass", "fail", "error"];

/// The top of a versioned result (GitHub, Exercism): no keys but `allowed`, this `version`,
/// and a status from STATUSES.
fn versioned_result(v: &Value, allowed: &[&str], what: &str, version: u64) -> Result<(), String> {
    keys_within(v, allowed, what)?;
    if v["version"] != version {
        return Err(format!("version is {}", v["version"]));
    }
    one_of(&v["status"], &STATUSES, "status")
}

/// A test of a versioned result (`what`): no keys but its name, status, message and `more`;
/// a string name, a status from STATUSES, and a message that is a string or null.
fn versioned_test(t: &Value, more: &[&str], what: &str) -> Result<(), String> {
    let mut allowed = vec!["name", "status", "message"];
    allowed.extend_from_slice(more);
    keys_within(t, &allowed, what)?;
    t["name"].as_str().ok_or(format!("{what}.name"))?;
    one_of(&t["status"], &STATUSES, &format!("{what}.status"))?;
    string_or_null(t.get("message"), &format!("{what}.message"))
}

/// Each of `keys` that `v` (`what`) has is a string.
fn optional_strings(v: &Value, keys: &[&str], what: &str) -> Result<(), String> {
    for key in keys {
        if let Some(x) = v.get(key) {
            x.as_str().ok_or(format!("{what}.{key} is {x}"))?;
        }
    }
    Ok(())
}

/// The result object the GitHub Classroom grading reporter reads (version 1): `status` of the
/// run and of each test pass / fail / error, `max_score`, and each test's `score` (summed for
/// the points sent to the classroom), `message`, `line_no` (a number, or null), and the
/// optional fields the graders write.
fn validate_github(v: &Value) -> Result<(), String> {
    versioned_result(
        v,
        &["version", "status", "max_score", "message", "tests"],
        "result",
        1,
    )?;
    let max = number(v.get("max_score"), "max_score")?;
    let tests = v["tests"].as_array().ok_or("tests is not a list")?;
    let mut total = 0.0;
    let mut statuses = Vec::new();
    for (i, t) in tests.iter().enumerate() {
        let what = format!("tests[{i}]");
        versioned_test(
            t,
            &[
                "score",
                "max_score",
                "test_code",
                "filename",
                "line_no",
                "execution_time",
                "duration",
            ],
            &what,
        )?;
        statuses.push(t["status"].as_str().unwrap_or_default().to_string());
        total += number(t.get("score"), &format!("{what}.score"))?;
        match t.get("line_no") {
            None | Some(Value::Null) => {}
            Some(n) if n.as_u64().is_some() => {}
            Some(other) => return Err(format!("{what}.line_no is {other}")),
        }
        optional_strings(t, &["test_code", "filename", "execution_time"], &what)?;
    }
    if total > max + 1e-9 {
        return Err(format!(
            "the tests score {total}, more than max_score {max}"
        ));
    }
    // The reporter itself does not require the run's status to agree with its tests' (its
    // own test data has a passing run with a failing test); cudatutor's output does, which
    // `consistent_github` checks.
    let _ = statuses;
    Ok(())
}

/// cudatutor's github output: the run fails when a test fails, errors when one errors and none
/// fails, passes otherwise.
fn consistent_github(v: &Value) {
    let tests = v["tests"].as_array().unwrap();
    let any = |s: &str| tests.iter().any(|t| t["status"] == s);
    let want = if any("fail") {
        "fail"
    } else if any("error") {
        "error"
    } else {
        "pass"
    };
    assert_eq!(v["status"], want);
}

/// Exercism results.json, version 3 (the test-runner interface).
fn validate_exercism(v: &Value) -> Result<(), String> {
    versioned_result(v, &["version", "status", "message", "tests"], "results", 3)?;
    match (v["status"].as_str(), v.get("message")) {
        (Some("error"), Some(Value::String(m))) if !m.is_empty() => {}
        (Some("error"), m) => return Err(format!("status error needs a message, has {m:?}")),
        (_, m) => string_or_null(m, "message")?,
    }
    let tests = v["tests"].as_array().ok_or("tests is required")?;
    for (i, t) in tests.iter().enumerate() {
        let what = format!("tests[{i}]");
        versioned_test(t, &["output", "test_code", "task_id"], &what)?;
        if let Some(o) = t.get("output") {
            let o = o.as_str().ok_or(format!("{what}.output"))?;
            if o.chars().count() > 500 {
                return Err(format!("{what}.output has more than 500 characters"));
            }
        }
        optional_strings(t, &["test_code"], &what)?;
        if let Some(id) = t.get("task_id") {
            id.as_u64().ok_or(format!("{what}.task_id is {id}"))?;
        }
    }
    let any_not_pass = tests.iter().any(|t| t["status"] != "pass");
    match v["status"].as_str() {
        Some("pass") if any_not_pass => Err("status pass with a test that did not pass".into()),
        Some("fail") if !any_not_pass => Err("status fail with every test passing".into()),
        _ => Ok(()),
    }
}

const VISIBILITY: [&str; 4] = ["hidden", "after_due_date", "after_published", "visible"];

/// Gradescope's results.json (autograder specification, "Output format").
fn validate_gradescope(v: &Value) -> Result<(), String> {
    keys_within(
        v,
        &[
            "score",
            "execution_time",
            "output",
            "visibility",
            "stdout_visibility",
            "extra_data",
            "tests",
            "leaderboard",
        ],
        "results",
    )?;
    for key in ["visibility", "stdout_visibility"] {
        if let Some(x) = v.get(key) {
            one_of(x, &VISIBILITY, key)?;
        }
    }
    if let Some(o) = v.get("output") {
        o.as_str().ok_or("output")?;
    }
    if let Some(t) = v.get("execution_time") {
        number(Some(t), "execution_time")?;
    }
    let top_score = v.get("score");
    if let Some(s) = top_score {
        number(Some(s), "score")?;
    }
    let tests = v.get("tests").and_then(Value::as_array);
    if top_score.is_none() && tests.is_none() {
        return Err("neither a score nor tests".into());
    }
    for (i, t) in tests.into_iter().flatten().enumerate() {
        validate_gradescope_test(t, top_score.is_some(), &format!("tests[{i}]"))?;
    }
    Ok(())
}

fn validate_gradescope_test(t: &Value, top_score: bool, what: &str) -> Result<(), String> {
    keys_within(
        t,
        &[
            "score",
            "max_score",
            "name",
            "number",
            "output",
            "tags",
            "visibility",
            "extra_data",
        ],
        what,
    )?;
    match t.get("score") {
        Some(s) => {
            let s = number(Some(s), &format!("{what}.score"))?;
            if let Some(m) = t.get("max_score") {
                let m = number(Some(m), &format!("{what}.max_score"))?;
                if s > m + 1e-9 {
                    return Err(format!("{what}: score {s} above max_score {m}"));
                }
            }
        }
        None if !top_score => {
            return Err(format!(
                "{what}.score is required without a top-level score"
            ));
        }
        None => {}
    }
    optional_strings(t, &["name", "number", "output"], what)?;
    if let Some(tags) = t.get("tags") {
        let tags = tags.as_array().ok_or(format!("{what}.tags"))?;
        if tags.iter().any(|x| !x.is_string()) {
            return Err(format!("{what}.tags holds a non-string"));
        }
    }
    if let Some(x) = t.get("visibility") {
        one_of(x, &VISIBILITY, &format!("{what}.visibility"))?;
    }
    Ok(())
}

#[test]
fn the_rules_accept_the_platforms_own_examples() {
    validate_github(&fixture("github-reporter-runner-result.json")).unwrap();
    validate_github(&fixture("github-io-grader-result.json")).unwrap();
    validate_exercism(&fixture("exercism-v3-example.json")).unwrap();
    validate_exercism(&fixture("exercism-v3-python-partial-fail.json")).unwrap();
    validate_exercism(&fixture("exercism-v3-python-syntax-error.json")).unwrap();
    validate_gradescope(&fixture("gradescope-example.json")).unwrap();
    validate_gradescope_test(&fixture("gradescope-unittest-test.json"), false, "test").unwrap();
}

/// A platform's rules for its result file.
type Validator = fn(&Value) -> Result<(), String>;

/// A change to a platform's example that its rules must reject.
type Breakage = fn(&mut Value);

#[test]
fn the_rules_reject_what_the_platforms_would_not_read() {
    const GITHUB: &str = "github-reporter-runner-result.json";
    const EXERCISM: &str = "exercism-v3-example.json";
    const GRADESCOPE: &str = "gradescope-example.json";
    // (what is wrong, the platform's example it is made in, its rules, the change)
    let cases: [(&str, &str, Validator, Breakage); 8] = [
        ("a test status of its own", GITHUB, validate_github, |g| {
            g["tests"][0]["status"] = "passed".into()
        }),
        ("more than max_score", GITHUB, validate_github, |g| {
            g["tests"][0]["score"] = 5.into()
        }),
        (
            "error without a message",
            EXERCISM,
            validate_exercism,
            |e| e["status"] = "error".into(),
        ),
        (
            "an output over 500 characters",
            EXERCISM,
            validate_exercism,
            |e| e["tests"][0]["output"] = "x".repeat(501).into(),
        ),
        (
            "pass with a test that did not pass",
            EXERCISM,
            validate_exercism,
            |e| e["status"] = "pass".into(),
        ),
        (
            "a visibility of its own",
            GRADESCOPE,
            validate_gradescope,
            |s| s["tests"][0]["visibility"] = "sometimes".into(),
        ),
        (
            "score above max_score",
            GRADESCOPE,
            validate_gradescope,
            |s| s["tests"][0]["score"] = 3.into(),
        ),
        ("an unknown key", GRADESCOPE, validate_gradescope, |s| {
            s.as_object_mut().unwrap().insert("grade".into(), 1.into());
        }),
    ];
    for (wrong, example, validate, change) in cases {
        let mut v = fixture(example);
        change(&mut v);
        assert!(validate(&v).is_err(), "{wrong} in {example} was accepted");
    }
}

// ---- cudatutor's renderings -------------------------------------------------------------------

/// A data folder where every built-in exercise holds its solution except `broken` (its starting
/// code) and `absent` (never started).
fn builtin_data(name: &str, broken: &[&str], absent: &[&str]) -> PathBuf {
    let dir = temp(name);
    Store::at(&dir)
        .save(&builtin_attempts(broken, absent, false))
        .unwrap();
    dir
}

/// `check --all --format FORMAT` of the lessons in `lessons`, parsed.
fn graded(data: &Path, lessons: &str, format: &str) -> Value {
    json_of(&cudatutor(
        data,
        &["--lessons", lessons, "check", "--all", "--format", format],
    ))
}

fn json_of(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

#[test]
fn every_format_of_the_builtin_lessons_is_valid() {
    let data = builtin_data("builtin", &["l3-one-based"], &["l4-oom"]);
    let g = json_of(&cudatutor(&data, &["check", "--all", "--format", "github"]));
    validate_github(&g).unwrap();
    consistent_github(&g);
    assert_eq!(g["status"], "fail");
    let tests = g["tests"].as_array().unwrap();
    assert_eq!(
        tests.len(),
        builtin_exercise_count(),
        "one test per exercise"
    );
    let by_name = |n: &str| {
        tests
            .iter()
            // "l4-oom (lesson 4)": the id and a space, so l4-oom is not l4-oom-snapshot
            .find(|t| t["name"].as_str().unwrap().starts_with(&format!("{n} ")))
            .unwrap()
            .clone()
    };
    assert_eq!(by_name("l3-one-based")["status"], "fail");
    assert_eq!(by_name("l4-oom")["status"], "fail");
    assert_eq!(by_name("l4-oom")["score"], 0);
    assert_eq!(by_name("l1-sticky")["status"], "pass");
    assert_eq!(
        by_name("l1-sticky")["score"],
        by_name("l1-sticky")["max_score"]
    );
    let sum: f64 = tests.iter().map(|t| t["max_score"].as_f64().unwrap()).sum();
    assert_eq!(g["max_score"].as_f64().unwrap(), sum);

    let e = json_of(&cudatutor(
        &data,
        &["check", "--all", "--format", "exercism"],
    ));
    validate_exercism(&e).unwrap();
    assert_eq!(e["status"], "fail");
    // test_code is the check's message as the learner sees it, never the check's source.
    let lines = cudatutor(&data, &["check", "--all", "--json"]);
    let messages: Vec<String> = String::from_utf8_lossy(&lines.stdout)
        .lines()
        .flat_map(|l| {
            let row: Value = serde_json::from_str(l).unwrap();
            row["checks"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["message"].as_str().unwrap().to_string())
                .collect::<Vec<_>>()
        })
        .collect();
    for t in e["tests"].as_array().unwrap() {
        let code = t["test_code"].as_str().unwrap();
        assert!(
            code.is_empty() || messages.iter().any(|m| m == code),
            "{code}"
        );
        assert!(!code.starts_with("assert "), "{code}");
    }

    let s = json_of(&cudatutor(
        &data,
        &["check", "--all", "--format", "gradescope"],
    ));
    validate_gradescope(&s).unwrap();
    assert_eq!(
        s["tests"].as_array().unwrap().len(),
        builtin_exercise_count()
    );
    let score: f64 = s["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["score"].as_f64().unwrap())
        .sum();
    assert!((s["score"].as_f64().unwrap() - score).abs() < 1e-9);
}

#[test]
fn all_passing_is_pass_everywhere() {
    let data = builtin_data("all-pass", &[], &[]);
    let out = cudatutor(&data, &["check", "1", "--format", "github"]);
    assert_eq!(out.status.code(), Some(0));
    let g = json_of(&out);
    validate_github(&g).unwrap();
    consistent_github(&g);
    assert_eq!(g["status"], "pass");
    let e = json_of(&cudatutor(&data, &["check", "1", "--format", "exercism"]));
    validate_exercism(&e).unwrap();
    assert_eq!(e["status"], "pass");
    assert!(e["message"].is_null());
    let s = json_of(&cudatutor(&data, &["check", "1", "--format", "gradescope"]));
    validate_gradescope(&s).unwrap();
    let tests = s["tests"].as_array().unwrap();
    assert!(tests.iter().all(|t| t["score"] == t["max_score"]));
    // --json and --format json are the same lines.
    let a = cudatutor(&data, &["check", "1", "--json"]);
    let b = cudatutor(&data, &["check", "1", "--format", "json"]);
    assert_eq!(a.stdout, b.stdout);
}

/// A lesson folder (the `new lesson` scaffold: five checks, the first weighing 2) and a data
/// folder holding `code` for its exercise.
fn scaffold_with(name: &str, code: Option<&str>) -> (PathBuf, PathBuf, String) {
    let root = temp(name);
    let lessons = root.join("lessons");
    let path = cudatutor::classroom::scaffold::new_lesson(&lessons, "Weights").unwrap();
    let text = std::fs::read_to_string(path).unwrap();
    let data = root.join("data");
    let mut progress = Progress::default();
    if let Some(code) = code {
        save_attempt(&mut progress, "weights-labels", code.into(), false);
    }
    Store::at(&data)
        .for_set(&folder_set(&lessons))
        .save(&progress)
        .unwrap();
    (lessons, data, text)
}

/// The scaffold's code with the label fixed but the work moved to the CPU: the error check
/// (weight 2), the four samples (1) and the label range (1) pass; on_gpu(labels) and
/// ran_on_gpu fail: 4 of 6 points.
const CPU_FIX: &str = "import torch\nimport torch.nn.functional as F\n\nnum_classes = 3\ntorch.manual_seed(0)\nlogits = torch.randn(4, num_classes)\nlabels = torch.tensor([0, 1, 2, 0])\nloss = F.cross_entropy(logits, labels)\nprint(loss.item())\n";

#[test]
fn partial_credit_follows_the_weights_of_the_checks_that_pass() {
    let (lessons, data, _) = scaffold_with("partial", Some(CPU_FIX));
    let lessons_arg = lessons.to_str().unwrap();
    let out = cudatutor(
        &data,
        &["--lessons", lessons_arg, "check", "--all", "--json"],
    );
    let row: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(row["status"], "failed");
    assert_eq!(row["checks_passed"], 3);
    assert_eq!(row["checks_total"], 5);
    assert_eq!(row["score"], 4.0);
    assert_eq!(row["max_score"], 6.0);
    let weights: Vec<f64> = row["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["weight"].as_f64().unwrap())
        .collect();
    assert_eq!(weights, vec![2.0, 1.0, 1.0, 1.0, 1.0]);

    let g = graded(&data, lessons_arg, "github");
    validate_github(&g).unwrap();
    consistent_github(&g);
    assert_eq!(g["max_score"], 6);
    assert_eq!(g["tests"][0]["score"], 4);
    assert_eq!(g["tests"][0]["status"], "fail");
    // The first failing check's line in the check block.
    assert_eq!(g["tests"][0]["line_no"], 2);

    let e = graded(&data, lessons_arg, "exercism");
    validate_exercism(&e).unwrap();
    let statuses: Vec<&str> = e["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, vec!["pass", "fail", "pass", "pass", "fail"]);
    assert_eq!(e["tests"][1]["test_code"], "keep the labels on the GPU");
    assert_eq!(e["tests"][1]["message"], "keep the labels on the GPU");
    assert!(
        e["tests"][0]["output"].as_str().unwrap().len() > 3,
        "the printed loss"
    );

    let s = graded(&data, lessons_arg, "gradescope");
    validate_gradescope(&s).unwrap();
    assert_eq!(s["score"], 4);
    assert_eq!(s["tests"][0]["max_score"], 6);
    let output = s["tests"][0]["output"].as_str().unwrap();
    assert!(
        output.contains("✗ check line 2: keep the labels on the GPU [0 of 1 pt]"),
        "{output}"
    );
    assert!(
        output.contains("✓ check line 1: the script runs to its end without an error [2 of 2 pt]"),
        "{output}"
    );
}

#[test]
fn code_that_does_not_parse_earns_nothing_and_exercism_says_why() {
    let (lessons, data, _) = scaffold_with("syntax", Some("labels = (\n"));
    let lessons_arg = lessons.to_str().unwrap();
    let g = graded(&data, lessons_arg, "github");
    validate_github(&g).unwrap();
    consistent_github(&g);
    assert_eq!(g["tests"][0]["score"], 0);
    assert_eq!(g["max_score"], 6);
    let e = graded(&data, lessons_arg, "exercism");
    validate_exercism(&e).unwrap();
    assert_eq!(e["tests"].as_array().unwrap().len(), 1);
    assert!(
        e["tests"][0]["message"]
            .as_str()
            .unwrap()
            .contains("SyntaxError"),
        "{e}"
    );
}

#[test]
fn nothing_started_is_zero_of_the_full_score() {
    let (lessons, data, _) = scaffold_with("none", None);
    let lessons_arg = lessons.to_str().unwrap();
    let s = graded(&data, lessons_arg, "gradescope");
    validate_gradescope(&s).unwrap();
    assert_eq!(s["score"], 0);
    assert_eq!(s["tests"][0]["max_score"], 6);
    let e = graded(&data, lessons_arg, "exercism");
    validate_exercism(&e).unwrap();
    assert_eq!(e["status"], "fail");
}

// ---- the worked examples of docs/classroom.md, run as they are ---------------------------------

fn docs_example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("docs/classroom")
        .join(name)
}

/// PATH with the built binary first, as `cargo install` would leave it.
fn path_with_binary() -> String {
    let bin = Path::new(env!("CARGO_BIN_EXE_cudatutor")).parent().unwrap();
    format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

/// A finished run that must have succeeded (else the test fails, showing its stderr).
fn succeeded(out: Output) -> Output {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The exported exercise files of a data folder.
fn export_of(data: &Path, dir: &Path) {
    succeeded(cudatutor(data, &["export", dir.to_str().unwrap()]));
}

#[test]
fn the_documented_examples_are_the_files_the_tests_run() {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/classroom.md"))
            .unwrap();
    for name in [
        "classroom.yml",
        "gradescope/setup.sh",
        "gradescope/run_autograder",
        "exercism/run.sh",
    ] {
        let text = std::fs::read_to_string(docs_example(name)).unwrap();
        assert!(
            doc.contains(&text),
            "docs/classroom.md does not show {name} as it is"
        );
    }
}

#[test]
fn the_github_workflow_step_gives_the_reporter_a_valid_result() {
    let data = builtin_data("gh-workflow", &["l2-numpy"], &[]);
    let repo = temp("gh-repo");
    export_of(&data, &repo.join("exercises"));
    // The `run:` block of the step with `id: cudatutor`.
    let yml = std::fs::read_to_string(docs_example("classroom.yml")).unwrap();
    let lines: Vec<&str> = yml.lines().collect();
    let id = lines
        .iter()
        .position(|l| l.trim() == "id: cudatutor")
        .unwrap();
    let run = id
        + lines[id..]
            .iter()
            .position(|l| l.trim() == "run: |")
            .unwrap();
    let indent = lines[run].len() - lines[run].trim_start().len();
    let script: String = lines[run + 1..]
        .iter()
        .take_while(|l| l.len() - l.trim_start().len() > indent)
        .map(|l| format!("{}\n", l.trim_start()))
        .collect();
    assert!(script.contains("--format github"), "{script}");
    let runner_temp = temp("gh-runner-temp");
    let output_file = runner_temp.join("github_output");
    let status = Command::new("bash")
        .args(["-euo", "pipefail", "-c", &script])
        .current_dir(&repo)
        .env("PATH", path_with_binary())
        .env("RUNNER_TEMP", &runner_temp)
        .env("GITHUB_OUTPUT", &output_file)
        .env_remove("CUDATUTOR_DATA_DIR")
        .status()
        .unwrap();
    assert!(status.success());
    let written = std::fs::read_to_string(&output_file).unwrap();
    let encoded = written.trim().strip_prefix("result=").unwrap();
    let decoded = Command::new("base64")
        .arg("-d")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin.take().unwrap().write_all(encoded.as_bytes())?;
            c.wait_with_output()
        })
        .unwrap();
    let g: Value = serde_json::from_slice(&decoded.stdout).unwrap();
    validate_github(&g).unwrap();
    consistent_github(&g);
    let failing: Vec<&str> = g["tests"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["status"] != "pass")
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(failing, vec!["l2-numpy (lesson 2)"]);
}

#[test]
fn the_gradescope_run_autograder_writes_valid_results() {
    let data = builtin_data("gs-data", &["l4-peak"], &["l1-sticky"]);
    let root = temp("gs-autograder");
    // The learner zipped the exported folder itself.
    export_of(&data, &root.join("submission").join("cudatutor-exercises"));
    succeeded(
        Command::new("bash")
            .arg(docs_example("gradescope/run_autograder"))
            .env("AUTOGRADER", &root)
            .env("PATH", path_with_binary())
            .output()
            .unwrap(),
    );
    let s: Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("results/results.json")).unwrap())
            .unwrap();
    validate_gradescope(&s).unwrap();
    let tests = s["tests"].as_array().unwrap();
    let full = |name: &str| {
        let t = tests
            .iter()
            .find(|t| t["name"].as_str().unwrap().starts_with(name))
            .unwrap();
        t["score"] == t["max_score"]
    };
    assert!(!full("l4-peak"));
    assert!(
        !full("l1-sticky"),
        "an exported starting code is not graded as its solution"
    );
    assert!(full("l2-numpy"));
}

#[test]
fn the_exercism_runner_grades_one_exercise() {
    let root = temp("exercism");
    let input = root.join("in");
    let output = root.join("out");
    std::fs::create_dir_all(&input).unwrap();
    std::fs::create_dir_all(&output).unwrap();
    let catalog = Catalog::builtin(Lang::En).unwrap();
    let ex = catalog
        .lessons
        .iter()
        .flat_map(|l| &l.exercises)
        .find(|e| e.id == "l3-one-based")
        .unwrap();
    let runner = |code: &str| -> Value {
        std::fs::write(input.join("l3-one-based.py"), code).unwrap();
        let out = Command::new("bash")
            .arg(docs_example("exercism/run.sh"))
            .args([
                "l3-one-based",
                &format!("{}/", input.display()),
                &format!("{}/", output.display()),
            ])
            .env("PATH", path_with_binary())
            .env_remove("CUDATUTOR_DATA_DIR")
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_str(&std::fs::read_to_string(output.join("results.json")).unwrap())
            .unwrap()
    };
    let passed = runner(ex.solution.as_deref().unwrap());
    validate_exercism(&passed).unwrap();
    assert_eq!(passed["status"], "pass");
    assert!(
        passed["tests"].as_array().unwrap().len() >= 2,
        "one test per check"
    );
    let failed = runner(&ex.start_code);
    validate_exercism(&failed).unwrap();
    assert_eq!(failed["status"], "fail");
}

/// The workflow installs cudatutor from something real: the `cudatutor` submodule the
/// checkout step fetches (`submodules: true`), built with `cargo install --locked --path`. A
/// repository laid out as the docs say (the submodule is this source tree) resolves with that
/// path and its lock file, offline, to the `cudatutor` package and binary.
#[test]
fn the_github_workflow_installs_cudatutor_from_the_checked_out_submodule() {
    let yml = std::fs::read_to_string(docs_example("classroom.yml")).unwrap();
    assert!(!yml.contains("YOUR-ORG"), "no placeholder address:\n{yml}");
    let lines: Vec<&str> = yml.lines().collect();
    let checkout = lines
        .iter()
        .position(|l| l.trim() == "uses: actions/checkout@v4")
        .unwrap();
    assert!(
        lines[checkout..checkout + 4]
            .iter()
            .any(|l| l.trim() == "submodules: true"),
        "the checkout fetches the submodule:\n{yml}"
    );
    let step = lines
        .iter()
        .position(|l| l.trim() == "- name: Install cudatutor")
        .unwrap();
    let run = lines[step..]
        .iter()
        .find_map(|l| l.trim().strip_prefix("run: "))
        .unwrap();
    let words: Vec<&str> = run.split_whitespace().collect();
    assert_eq!(
        &words[..4],
        ["cargo", "install", "--locked", "--path"],
        "{run}"
    );
    let path = words[4];
    // The learner's repository: exercises and the submodule (this source tree).
    let repo = temp("gh-install");
    std::os::unix::fs::symlink(env!("CARGO_MANIFEST_DIR"), repo.join(path)).unwrap();
    // The runner's platform only (Ubuntu, like this one): the other platforms' crates are not
    // in an offline cache.
    let rustc = Command::new("rustc").arg("-vV").output().unwrap();
    let host = String::from_utf8_lossy(&rustc.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_string))
        .unwrap();
    let out = Command::new(env!("CARGO"))
        .args(["metadata", "--locked", "--offline", "--format-version", "1"])
        .args(["--filter-platform", &host])
        .arg("--manifest-path")
        .arg(Path::new(path).join("Cargo.toml"))
        .current_dir(&repo)
        .output()
        .unwrap();
    let out = succeeded(out);
    let meta: Value = serde_json::from_slice(&out.stdout).unwrap();
    let root = meta["resolve"]["root"].as_str().unwrap();
    let package = meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == root)
        .unwrap();
    assert_eq!(package["name"], "cudatutor");
    assert!(
        package["targets"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["name"] == "cudatutor" && t["kind"][0] == "bin"),
        "cargo install gets the cudatutor binary"
    );
}
