//! Grading that the graded code cannot fool, and checks that speak the learner's language:
//! monkeypatching learner code fails, a SyntaxError gives one result, a check that raises names
//! the learner's line, passed checks carry their message, predictions hide the answer.

use cudatutor::run::{
    CheckResult, ExerciseContext, RunOptions, RunReport, run_exercise_in_process,
};

fn run_with(code: &str, check: &str, exercise: ExerciseContext) -> RunReport {
    let opts = RunOptions {
        gpus: 2,
        exercise,
        ..RunOptions::default()
    };
    run_exercise_in_process(code, Some(check), &opts)
}

fn run(code: &str, check: &str) -> RunReport {
    run_with(code, check, ExerciseContext::default())
}

fn messages(r: &RunReport) -> Vec<(bool, String)> {
    r.checks
        .iter()
        .map(|c: &CheckResult| (c.passed, c.message.clone().unwrap_or_default()))
        .collect()
}

/// For authors: `LESSON=lessons/en/01-cuda-errors.md cargo test --test grading dump -- \
/// --ignored --nocapture` prints every check result of the starting code, the solution and
/// each wrong block of every exercise in that file (EXERCISE=id narrows it).
#[test]
#[ignore]
fn dump() {
    use cudatutor::classroom::grade::run_graded;
    let path = std::env::var("LESSON").expect("LESSON=path");
    let only = std::env::var("EXERCISE").ok();
    let text = std::fs::read_to_string(&path).unwrap();
    let lesson = cudatutor::lesson::parse_lesson(&path, &text).unwrap();
    let opts = RunOptions::default();
    for ex in &lesson.exercises {
        if only.as_ref().is_some_and(|o| *o != ex.id) {
            continue;
        }
        let mut codes = vec![
            ("start".to_string(), ex.start_code.clone()),
            (
                "solution".to_string(),
                ex.solution.clone().unwrap_or_default(),
            ),
        ];
        for w in &ex.wrongs {
            codes.push((format!("wrong: {}", w.reason), w.code.clone()));
        }
        for (what, code) in codes {
            let r = run_graded(&lesson, ex, &code, &opts);
            println!(
                "== {} [{what}] passed={} pending={} error={:?}",
                ex.id,
                r.checks_passed(),
                r.prediction_pending,
                r.error.as_ref().map(|e| format!(
                    "{}: {} (line {:?})",
                    e.type_name,
                    e.message.lines().next().unwrap_or(""),
                    e.line
                ))
            );
            for c in &r.checks {
                println!(
                    "   {} {}",
                    if c.passed { "ok  " } else { "FAIL" },
                    c.message.clone().unwrap_or_default()
                );
            }
        }
    }
}
