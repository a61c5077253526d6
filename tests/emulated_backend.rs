//! `--backend emulated` gives the sim's report for every built-in lesson exercise: the
//! solution and the starting code (which is where the device-side asserts are) of each exercise
//! run on the sim in this process and on the emulated device (kernels/*.cu compiled for the
//! CPU) through the worker, as `cudatutor run --backend emulated` runs them, and the reports
//! must agree: stdout, stderr, the error (type, message, reported line, origin line, device
//! log), the allocator counters and the check results. Exercises that cannot agree yet are
//! listed with their reason in tests/emulated_known_gaps.txt (the test fails when a listed one
//! starts to agree, so the list cannot go stale).

use cudatutor::classroom::grade::exercise_options;
use cudatutor::lesson::{Catalog, Lang};
use cudatutor::run::worker::WorkerClient;
use cudatutor::run::{BackendChoice, RunOptions, RunReport, run_exercise_in_process};
use std::collections::BTreeMap;

/// The fields of a report the two backends must agree on, as `(field, text)`.
fn comparable(r: &RunReport) -> Vec<(&'static str, String)> {
    let mut v = vec![
        ("ok", r.ok.to_string()),
        ("stdout", r.stdout.clone()),
        ("stderr", r.stderr.clone()),
        ("internal_error", format!("{:?}", r.internal_error)),
    ];
    match &r.error {
        None => v.push(("error", "None".into())),
        Some(e) => {
            v.push(("error.type", e.type_name.clone()));
            v.push(("error.message", e.message.clone()));
            v.push(("error.line", format!("{:?}", e.line)));
            v.push(("error.origin_line", format!("{:?}", e.origin_line)));
            v.push(("error.device_log", e.device_log.join("\n")));
        }
    }
    // the counters, without the device's name (which says which backend ran)
    let mut memory = r.memory.clone();
    for d in &mut memory.devices {
        d.name.clear();
    }
    v.push(("memory", format!("{memory:?}")));
    v.push((
        "checks",
        r.checks
            .iter()
            .map(|c| format!("{} {} {:?}", c.line, c.passed, c.message))
            .collect::<Vec<_>>()
            .join("\n"),
    ));
    v
}

/// The first field where the two reports differ, with both texts.
fn first_difference(sim: &RunReport, emu: &RunReport) -> Option<(String, String, String)> {
    comparable(sim)
        .into_iter()
        .zip(comparable(emu))
        .find(|((_, a), (_, b))| a != b)
        .map(|((field, a), (_, b))| (field.to_string(), a, b))
}

/// tests/emulated_known_gaps.txt: `exercise-id/which  reason` lines (`#` comments).
fn known_gaps() -> BTreeMap<String, String> {
    let text = include_str!("emulated_known_gaps.txt");
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (key, reason) = l.split_once(char::is_whitespace).unwrap_or((l, ""));
            (key.to_string(), reason.trim().to_string())
        })
        .collect()
}

#[test]
fn every_lesson_exercise_runs_on_the_emulated_device_as_on_the_sim() {
    if !cudatutor::engine::cuda::emulated::built() {
        // build.rs found no C++ compiler: the emulated device does not exist in this build
        // (scripts/test.sh installs g++, so the suite never takes this branch)
        assert!(
            std::env::var_os("CUDATUTOR_REQUIRE_EMULATED").is_none(),
            "the emulated device is not built"
        );
        return;
    }
    let gaps = known_gaps();
    let mut client = WorkerClient::with_program(env!("CARGO_BIN_EXE_cudatutor").into());
    let catalog = Catalog::builtin(Lang::En).unwrap();
    let (mut same, mut runs) = (0, 0);
    let mut failures = Vec::new();
    let mut gaps_seen = Vec::new();
    for lesson in &catalog.lessons {
        for ex in &lesson.exercises {
            let mut codes = vec![("start", ex.start_code.clone())];
            if let Some(s) = &ex.solution {
                codes.push(("solution", s.clone()));
            }
            for (which, code) in codes {
                let key = format!("{}/{which}", ex.id);
                let sim_opts = exercise_options(lesson, ex, &RunOptions::default());
                let emu_opts = RunOptions {
                    backend: BackendChoice::Emulated,
                    ..sim_opts.clone()
                };
                let sim = run_exercise_in_process(&code, ex.check.as_deref(), &sim_opts);
                let emu = client.run(&code, ex.check.as_deref(), &emu_opts);
                runs += 1;
                assert_eq!(sim.backend, "sim", "{key}");
                assert_eq!(emu.backend, "emulated", "{key}: {:?}", emu.internal_error);
                match (first_difference(&sim, &emu), gaps.get(&key)) {
                    (None, None) => same += 1,
                    (None, Some(_)) => failures.push(format!(
                        "{key} now agrees with the sim: remove it from emulated_known_gaps.txt"
                    )),
                    (Some(_), Some(_)) => gaps_seen.push(key),
                    (Some((field, a, b)), None) => failures.push(format!(
                        "{key}: {field} differs\n--- sim\n{a}\n--- emulated\n{b}\n"
                    )),
                }
            }
        }
    }
    for key in gaps.keys() {
        if !gaps_seen.contains(key) && !failures.iter().any(|f| f.starts_with(key.as_str())) {
            failures.push(format!("{key} is in emulated_known_gaps.txt but was not run"));
        }
    }
    eprintln!(
        "emulated vs sim: {same} of {runs} runs identical, {} known gaps",
        gaps_seen.len()
    );
    assert!(runs >= 40, "only {runs} runs: were the lessons found?");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
