//! The sim against real PyTorch on a real GPU: every tests/cuda/*.py script as recorded by
//! scripts/gpu-check.sh (tests/fixtures/cuda/<name>.json, and <name>.blocking.json with
//! CUDA_LAUNCH_BLOCKING=1; PyTorch 2.11+cu130 on an H200, the version is in each file) is run
//! on the simulated GPU, and the learner-visible outcome must agree: stdout, whether it failed,
//! the exception's type and first message line, the line the error surfaced on, and the device
//! log (kernel, block, thread and condition; the file path and line are 2.11's in the
//! recordings and 2.15's in the sim, so only `<File>.cu` is compared). Recordings that cannot
//! agree are listed in tests/cuda_recorded_gaps.txt with the reason; the test fails when one of
//! them starts to agree.

#[path = "support/report_compare.rs"]
mod report_compare;

use cudatutor::run::{RunOptions, RunReport, run_exercise_in_process};
use report_compare::{stale_gaps, without_locations};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// `Type: first message line` of the last exception in a python3 traceback.
fn recorded_exception(stderr: &str) -> Option<String> {
    let lines: Vec<&str> = stderr.lines().collect();
    let start = lines.iter().rposition(|l| l.starts_with("Traceback"))?;
    lines[start + 1..]
        .iter()
        .find(|l| !l.starts_with(' ') && l.contains(": "))
        .map(|l| {
            // `torch.AcceleratorError: ...` is printed with its module; the sim's type name
            // has none
            let (ty, msg) = l.split_once(": ").unwrap_or((l, ""));
            format!("{}: {msg}", ty.rsplit('.').next().unwrap_or(ty))
        })
}

fn sim_exception(r: &RunReport) -> Option<String> {
    r.error.as_ref().map(|e| {
        format!(
            "{}: {}",
            e.type_name,
            e.message.lines().next().unwrap_or_default()
        )
    })
}

/// The fields a learner sees, as (field, recorded, sim).
fn outcome(rec: &Value, sim: &RunReport) -> Vec<(&'static str, String, String)> {
    let rec_stderr = rec["stderr"].as_str().unwrap_or_default();
    let rec_log: Vec<String> = rec["device_log"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|l| l.as_str())
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    // what the learner's terminal shows, also when the script caught the error
    let sim_log: Vec<String> = sim
        .stderr
        .lines()
        .filter(|l| cudatutor::engine::cuda::capture::is_assert_line(l))
        .map(str::to_string)
        .collect();
    vec![
        (
            "stdout",
            rec["stdout"].as_str().unwrap_or_default().to_string(),
            sim.stdout.clone(),
        ),
        (
            "failed",
            (rec["exit_code"].as_i64() != Some(0)).to_string(),
            sim.error.is_some().to_string(),
        ),
        (
            "exception",
            format!("{:?}", recorded_exception(rec_stderr)),
            format!("{:?}", sim_exception(sim)),
        ),
        (
            "reported line",
            format!("{:?}", rec["reported_line"].as_u64()),
            format!("{:?}", sim.error.as_ref().and_then(|e| e.line)),
        ),
        (
            "device log",
            without_locations(&rec_log.join("\n")),
            without_locations(&sim_log.join("\n")),
        ),
    ]
}

fn known_gaps() -> BTreeMap<String, String> {
    include_str!("cuda_recorded_gaps.txt")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (name, reason) = l.split_once(char::is_whitespace).unwrap_or((l, ""));
            assert!(
                !reason.trim().is_empty(),
                "{name}: a known gap needs its reason"
            );
            (name.to_string(), reason.trim().to_string())
        })
        .collect()
}

#[test]
fn the_sim_tells_what_pytorch_on_a_gpu_told() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let fixtures = root.join("tests/fixtures/cuda");
    let gaps = known_gaps();
    let (mut same, mut runs) = (0, 0);
    let mut failures = Vec::new();
    let mut seen = Vec::new();
    let mut names: Vec<_> = std::fs::read_dir(&fixtures)
        .expect("tests/fixtures/cuda")
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|n| n.ends_with(".json") && n != "VERSION.json" && n != "random.json")
        .collect();
    names.sort();
    for file in names {
        let key = file.trim_end_matches(".json").to_string();
        let rec: Value =
            serde_json::from_str(&std::fs::read_to_string(fixtures.join(&file)).unwrap())
                .unwrap_or_else(|e| panic!("{file}: {e}"));
        let script = rec["script"].as_str().expect("script");
        let code = std::fs::read_to_string(root.join("tests/cuda").join(script))
            .unwrap_or_else(|e| panic!("tests/cuda/{script}: {e}"));
        let mut opts = RunOptions {
            filename: script.to_string(),
            ..RunOptions::default()
        };
        if rec["launch_blocking"].as_bool() == Some(true) {
            opts.env
                .push(("CUDA_LAUNCH_BLOCKING".to_string(), "1".to_string()));
        }
        let sim = run_exercise_in_process(&code, None, &opts);
        runs += 1;
        let diff = outcome(&rec, &sim).into_iter().find(|(_, a, b)| a != b);
        match (diff, gaps.get(&key)) {
            (None, None) => same += 1,
            (None, Some(_)) => failures.push(format!(
                "{key} now agrees with the recording: remove it from cuda_recorded_gaps.txt"
            )),
            (Some(_), Some(_)) => seen.push(key),
            (Some((field, a, b)), None) => failures.push(format!(
                "{key}: {field} differs\n--- PyTorch on a GPU\n{a}\n--- sim\n{b}\n"
            )),
        }
    }
    stale_gaps(
        gaps.keys(),
        &seen,
        &mut failures,
        "cuda_recorded_gaps.txt",
        "was not recorded",
    );
    eprintln!(
        "sim vs PyTorch on a GPU: {same} of {runs} recordings agree, {} known gaps",
        seen.len()
    );
    assert!(
        runs >= 40,
        "only {runs} recordings: is tests/fixtures/cuda there?"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
