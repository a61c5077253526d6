//! `check --format github|exercism|gradescope`: the grades in the result formats the classroom
//! platforms read (docs/classroom.md has a worked example for each).
//!
//! - `github`: the result object GitHub Classroom's autograding grading reporter reads from
//!   `<RUNNER>_RESULTS` (base64), version 1: one test per exercise, its `score` proportional to
//!   the weights of its checks that passed, `max_score` the sum over exercises. The reporter
//!   adds up the tests' `score` for the points it sends to the classroom.
//! - `exercism`: results.json of the Exercism test-runner interface, version 3: one test per
//!   check (its `test_code` is the check's message, never its source nor the solution), with
//!   `task_id` the exercise's position among those graded.
//! - `gradescope`: results.json of Gradescope's autograder specification: one test per
//!   exercise with `score` / `max_score`, an `output` listing each check, and `visibility`.
//!
//! The platforms' own example outputs are kept in tests/fixtures/classroom/ and the tests
//! validate both them and these renderings against the same field rules.

use super::grade::{ExerciseGrade, GradeStatus};
use super::weights::round_points;
use serde_json::{Value, json};

/// The grade formats of `check`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum GradeFormat {
    /// The table in the learner's language.
    Text,
    /// cudatutor's own schema: one JSON object per exercise per line (`--json`).
    Json,
    /// GitHub Classroom autograding reporter result object (version 1).
    Github,
    /// Exercism test-runner results.json (version 3).
    Exercism,
    /// Gradescope autograder results.json.
    Gradescope,
}

/// `exercise-id (lesson N)`: how a platform names one exercise.
fn test_name(g: &ExerciseGrade) -> String {
    format!("{} (lesson {})", g.exercise, g.lesson)
}

/// One line per check, `✓`/`✗`, its message and weight, then the exercise's own error: what
/// the learner sees on the card's checks pane.
pub(crate) fn checks_text(g: &ExerciseGrade) -> String {
    let mut s = String::new();
    match g.status {
        GradeStatus::NotStarted => s.push_str("not started: no saved code for this exercise\n"),
        _ if g.internal_error => {
            s.push_str(g.error.as_deref().unwrap_or("internal error"));
            s.push('\n');
        }
        _ => {
            for c in &g.checks {
                let mark = if c.passed { "✓" } else { "✗" };
                if c.line == 0 {
                    s.push_str(&format!("{mark} {}\n", c.message));
                } else {
                    s.push_str(&format!(
                        "{mark} check line {}: {} [{} of {} pt]\n",
                        c.line,
                        c.message,
                        if c.passed { c.weight } else { 0.0 },
                        c.weight
                    ));
                }
            }
            if let Some(e) = &g.error {
                s.push_str(&format!("your code raised {e}\n"));
            }
        }
    }
    s
}

fn total(grades: &[ExerciseGrade]) -> (f64, f64) {
    let score = round_points(grades.iter().map(|g| g.score).sum());
    let max = round_points(grades.iter().map(|g| g.max_score).sum());
    (score, max)
}

/// A JSON number that prints as an integer when it is one (`3`, not `3.0`).
fn number(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        json!(x as i64)
    } else {
        json!(x)
    }
}

/// GitHub Classroom's reporter result object, version 1.
pub(crate) fn github(grades: &[ExerciseGrade]) -> Value {
    let (_, max) = total(grades);
    let status_of = |g: &ExerciseGrade| {
        if g.internal_error {
            "error"
        } else if g.status == GradeStatus::Passed {
            "pass"
        } else {
            "fail"
        }
    };
    let tests: Vec<Value> = grades
        .iter()
        .map(|g| {
            let first_failing = g.checks.iter().find(|c| !c.passed).map_or(0, |c| c.line);
            json!({
                "name": test_name(g),
                "status": status_of(g),
                "score": number(g.score),
                "max_score": number(g.max_score),
                "message": checks_text(g),
                "test_code": format!("cudatutor check {}", g.lesson_id),
                "filename": format!("{}/{}.py", g.lesson_id, g.exercise),
                "line_no": first_failing,
                "execution_time": format!("{}ms", g.duration.as_millis()),
                "duration": g.duration.as_secs_f64(),
            })
        })
        .collect();
    let statuses: Vec<&str> = grades.iter().map(status_of).collect();
    let status = if statuses.contains(&"fail") {
        "fail"
    } else if statuses.contains(&"error") {
        "error"
    } else {
        "pass"
    };
    json!({
        "version": 1,
        "status": status,
        "max_score": number(max),
        "tests": tests,
    })
}

/// Exercism's results.json, version 3.
pub(crate) fn exercism(grades: &[ExerciseGrade]) -> Value {
    let mut tests = Vec::new();
    for (task, g) in grades.iter().enumerate() {
        let task_id = task + 1;
        let output = truncate_output(&g.output);
        let mut push = |name: String, status: &str, message: Option<String>, code: String| {
            let mut t = json!({
                "name": name,
                "status": status,
                "test_code": code,
                "task_id": task_id,
            });
            if let Some(m) = message {
                t["message"] = json!(m);
            }
            if !output.is_empty() {
                t["output"] = json!(output);
            }
            tests.push(t);
        };
        if g.status == GradeStatus::NotStarted {
            push(
                g.exercise.clone(),
                "fail",
                Some("not started: there is no saved code for this exercise".into()),
                String::new(),
            );
            continue;
        }
        if g.internal_error {
            push(g.exercise.clone(), "error", g.error.clone(), String::new());
            continue;
        }
        for c in &g.checks {
            let message = (!c.passed).then(|| match &g.error {
                Some(e) => format!("{}\n(your code raised {e})", c.message),
                None => c.message.clone(),
            });
            let name = if c.line == 0 {
                format!("{}: {}", g.exercise, c.message)
            } else {
                format!("{} check {}: {}", g.exercise, c.line, c.message)
            };
            push(
                name,
                if c.passed { "pass" } else { "fail" },
                message,
                c.message.clone(),
            );
        }
    }
    let all_error = !tests.is_empty() && tests.iter().all(|t| t["status"] == "error");
    let status = if tests.is_empty() || all_error {
        "error"
    } else if tests.iter().any(|t| t["status"] != "pass") {
        "fail"
    } else {
        "pass"
    };
    let message = match status {
        "error" if tests.is_empty() => json!("there are no exercises to grade"),
        "error" => json!(
            grades
                .iter()
                .find_map(|g| g.error.clone())
                .unwrap_or_else(|| "internal error".into())
        ),
        _ => Value::Null,
    };
    json!({
        "version": 3,
        "status": status,
        "message": message,
        "tests": tests,
    })
}

/// Exercism: "The output must be limited to 500 chars", truncated with its own message.
fn truncate_output(output: &str) -> String {
    const LIMIT: usize = 500;
    const NOTE: &str = "... Output was truncated. Please limit to 500 chars";
    if output.chars().count() <= LIMIT {
        return output.to_string();
    }
    let keep: String = output.chars().take(LIMIT - NOTE.len()).collect();
    keep + NOTE
}

/// Gradescope's results.json.
pub(crate) fn gradescope(grades: &[ExerciseGrade]) -> Value {
    let (score, max) = total(grades);
    let passed = grades
        .iter()
        .filter(|g| g.status == GradeStatus::Passed)
        .count();
    let tests: Vec<Value> = grades
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let number_in_lesson = grades[..i].iter().filter(|o| o.lesson == g.lesson).count() + 1;
            let mut output = checks_text(g);
            if !g.output.is_empty() {
                output.push_str("\nyour code printed:\n");
                output.push_str(&g.output);
            }
            json!({
                "name": test_name(g),
                "number": format!("{}.{}", g.lesson, number_in_lesson),
                "score": number(g.score),
                "max_score": number(g.max_score),
                "output": output,
                "tags": [g.lesson_id.clone()],
                "visibility": "visible",
            })
        })
        .collect();
    let seconds: f64 = grades.iter().map(|g| g.duration.as_secs_f64()).sum();
    json!({
        "score": number(score),
        "execution_time": seconds.ceil() as u64,
        "output": format!(
            "cudatutor {}: {passed} of {} exercises pass; {score} of {max} points",
            env!("CARGO_PKG_VERSION"),
            grades.len()
        ),
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "tests": tests,
    })
}

/// The rendering of `grades` in `format` (not `Text`, which is [`super::grade::render_table`]).
pub(crate) fn render(grades: &[ExerciseGrade], format: GradeFormat) -> String {
    let value = match format {
        GradeFormat::Text | GradeFormat::Json => {
            return super::grade::render_json_lines(grades);
        }
        GradeFormat::Github => github(grades),
        GradeFormat::Exercism => exercism(grades),
        GradeFormat::Gradescope => gradescope(grades),
    };
    serde_json::to_string_pretty(&value).unwrap_or_default() + "\n"
}
