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
use cudatutor::run::{BackendChoice, RunOptions, run_exercise_in_process};
use std::collections::BTreeMap;

#[path = "support/report_compare.rs"]
mod report_compare;
use report_compare::{Allowed, first_difference, known_gaps};

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
    let gaps = known_gaps(include_str!("emulated_known_gaps.txt"));
    let mut client = WorkerClient::with_program(env!("CARGO_BIN_EXE_cudatutor").into());
    let catalog = Catalog::builtin(Lang::En).unwrap();
    let (mut same, mut runs) = (0, 0);
    let mut failures = Vec::new();
    let mut gaps_seen = Vec::new();
    let (mut launches, mut fallbacks) = (0u64, BTreeMap::new());
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
                if let Some(u) = &emu.device_usage {
                    launches += u.launches;
                    for (op, n) in &u.fallbacks {
                        *fallbacks.entry(op.clone()).or_insert(0u64) += n;
                    }
                }
                let exact = first_difference(&sim, &emu, Allowed::default());
                match (exact, gaps.get(&key)) {
                    (None, None) => same += 1,
                    (None, Some(_)) => failures.push(format!(
                        "{key} now agrees with the sim: remove it from emulated_known_gaps.txt"
                    )),
                    (Some(_), Some((allowed, _))) => {
                        gaps_seen.push(key.clone());
                        if !allowed.differs
                            && let Some((field, a, b)) = first_difference(&sim, &emu, *allowed)
                        {
                            failures.push(format!(
                                "{key}: {field} differs beyond {allowed:?}\n--- sim\n{a}\n--- emulated\n{b}\n"
                            ));
                        }
                    }
                    (Some((field, a, b)), None) => failures.push(format!(
                        "{key}: {field} differs\n--- sim\n{a}\n--- emulated\n{b}\n"
                    )),
                }
            }
        }
    }
    for key in gaps.keys() {
        if !gaps_seen.contains(key) && !failures.iter().any(|f| f.starts_with(key.as_str())) {
            failures.push(format!(
                "{key} is in emulated_known_gaps.txt but was not run"
            ));
        }
    }
    eprintln!(
        "emulated vs sim: {same} of {runs} runs identical, {} known gaps",
        gaps_seen.len()
    );
    eprintln!("kernel launches: {launches}; host fallbacks (op: count): {fallbacks:?}");
    assert!(launches > 0, "no kernel ran on the emulated device");
    assert!(runs >= 40, "only {runs} runs: were the lessons found?");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
