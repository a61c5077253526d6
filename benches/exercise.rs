//! A simulated exercise run, as the pager does it on F5: every lesson's solution plus its check
//! block, in process on the sim backend (the same `run_exercise_in_process` the UI calls, with
//! its big-stack run thread). Goal: each ≤ 20 ms (issue 10). One benchmark per exercise, so the
//! slowest one is visible; `scripts/bench.sh` reports the median and the slowest.

use criterion::{Criterion, criterion_group, criterion_main};
use cudatutor::lesson::{Catalog, Lang};
use cudatutor::run::{BackendChoice, RunOptions, run_exercise_in_process};
use std::hint::black_box;
use std::time::Duration;

fn exercise_runs(c: &mut Criterion) {
    let catalog = Catalog::builtin(Lang::En).expect("the built-in lessons load");
    let mut group = c.benchmark_group("exercise_run");
    group.sample_size(20);
    group.warm_up_time(Duration::from_millis(300));
    group.measurement_time(Duration::from_secs(1));
    for lesson in &catalog.lessons {
        for ex in &lesson.exercises {
            let Some(solution) = ex.solution.as_deref() else {
                continue;
            };
            let opts = RunOptions {
                backend: BackendChoice::Sim,
                gpus: ex.gpus.max(1),
                ..RunOptions::default()
            };
            // A bench of a failing solution would measure the wrong thing.
            let report = run_exercise_in_process(solution, ex.check.as_deref(), &opts);
            assert!(
                report.checks_passed(),
                "solution of {} does not pass its checks",
                ex.id
            );
            group.bench_function(&ex.id, |b| {
                b.iter(|| {
                    black_box(run_exercise_in_process(
                        solution,
                        ex.check.as_deref(),
                        &opts,
                    ))
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, exercise_runs);
criterion_main!(benches);
