//! `check`, `report` and `lint` on prepared data folders: all passing, some failing, not
//! started, and a corrupt progress file; lint on the built-in lessons, a broken folder and the
//! example lesson in docs/authoring.md.

use cudatutor::lesson::{Catalog, Lang};
use cudatutor::progress::{ExerciseState, Progress, Store};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn temp(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("cudatutor-classroom-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn cudatutor(data: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cudatutor"))
        .args(args)
        .env("CUDATUTOR_DATA_DIR", data)
        .env("LANG", "C.UTF-8")
        .output()
        .expect("binary runs")
}

/// A data folder where each exercise holds its solution, except `broken` which holds its start.
fn data_dir(name: &str, broken: &[&str]) -> PathBuf {
    let dir = temp(name);
    let catalog = Catalog::builtin(Lang::En).unwrap();
    let mut progress = Progress::default();
    for lesson in &catalog.lessons {
        for ex in &lesson.exercises {
            let code = if broken.contains(&ex.id.as_str()) {
                ex.start_code.clone()
            } else {
                ex.solution.clone().unwrap()
            };
            progress.exercises.insert(
                ex.id.clone(),
                ExerciseState {
                    code: Some(code),
                    passed: true, // deliberately wrong for `broken`: check must not trust it
                },
            );
        }
    }
    Store::at(&dir).save(&progress).unwrap();
    dir
}

fn json_lines(out: &Output) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

#[test]
fn all_solutions_saved_means_all_pass() {
    let dir = data_dir("all-pass", &[]);
    let out = cudatutor(&dir, &["check", "--all"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("24 passed, 0 failed, 0 not started"),
        "{text}"
    );
}

#[test]
fn a_saved_broken_exercise_fails_even_if_marked_passed() {
    let dir = data_dir("some-fail", &["l3-one-based"]);
    let out = cudatutor(&dir, &["check", "3", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let rows = json_lines(&out);
    assert_eq!(rows.len(), 5, "lesson 3 has five exercises");
    let bad = rows
        .iter()
        .find(|r| r["exercise"] == "l3-one-based")
        .unwrap();
    assert_eq!(bad["status"], "failed");
    assert_eq!(bad["schema"], 1);
    assert_eq!(bad["lesson"], 3);
    assert_eq!(bad["lesson_id"], "device-asserts");
    assert!(
        bad["first_failure"]
            .as_str()
            .unwrap()
            .starts_with("check line "),
        "{bad}"
    );
    assert!(bad["checks_passed"].as_u64().unwrap() < bad["checks_total"].as_u64().unwrap());
    for r in rows.iter().filter(|r| r["exercise"] != "l3-one-based") {
        assert_eq!(r["status"], "passed", "{r}");
        assert_eq!(r["first_failure"], serde_json::Value::Null);
    }
}

#[test]
fn nothing_saved_is_not_started_and_not_a_failure() {
    let dir = temp("empty");
    let out = cudatutor(&dir, &["check", "--all", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let rows = json_lines(&out);
    assert_eq!(rows.len(), 24);
    assert!(rows.iter().all(|r| r["status"] == "not_started"));
}

#[test]
fn a_corrupt_progress_file_is_kept_aside_and_reported() {
    let dir = temp("corrupt");
    std::fs::write(dir.join("progress.json"), "{ this is not json").unwrap();
    let out = cudatutor(&dir, &["check", "--all"]);
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("corrupt"), "the learner is told: {err}");
    let kept: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("progress.json.corrupt-")
        })
        .collect();
    assert_eq!(kept.len(), 1, "the unreadable file is kept, not dropped");
    assert_eq!(
        std::fs::read_to_string(kept[0].path()).unwrap(),
        "{ this is not json"
    );
}

#[test]
fn report_in_markdown_and_json() {
    let dir = data_dir("report", &["l1-sticky"]);
    let out_file = dir.join("report.md");
    let out = cudatutor(&dir, &["report", "--out", out_file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    let md = std::fs::read_to_string(&out_file).unwrap();
    assert!(md.starts_with("# cudatutor progress report"));
    assert!(
        md.contains("| 1 | CUDA errors and asynchronous reporting | 3/4 |"),
        "{md}"
    );
    assert!(md.contains("| 1 | `l1-sticky` | failed |"), "{md}");

    let out = cudatutor(&dir, &["report", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["lessons"][0]["exercises_passed"], 3);
    assert_eq!(v["lessons"][0]["exercises_total"], 4);
    assert_eq!(v["exercises"].as_array().unwrap().len(), 24);
}

#[test]
fn the_built_in_lessons_pass_lint() {
    let dir = temp("lint-builtin");
    let out = cudatutor(&dir, &["lint", "lessons/en"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let zh = cudatutor(&dir, &["lint", "lessons/zh"]);
    assert_eq!(
        zh.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&zh.stdout)
    );
}

#[test]
fn lint_names_every_problem_with_file_and_line() {
    let dir = temp("lint-broken");
    let lessons = dir.join("lessons");
    std::fs::create_dir_all(&lessons).unwrap();
    std::fs::write(
        lessons.join("01-weak.md"),
        "+++\nid = \"weak\"\ntitle = \"Weak checks\"\norder = 1\n+++\n\n# Weak\n\n```python exercise id=weak-ex\nx = 1\n```\n\n```python check\nassert x == 1, \"x is one\"\n```\n\n```python solution\nx = 1\n```\n",
    )
    .unwrap();
    let out = cudatutor(&dir, &["lint", lessons.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("01-weak.md:9: exercise `weak-ex`: has no ```hint``` block"),
        "{text}"
    );
    assert!(
        text.contains(
            "01-weak.md:9: exercise `weak-ex`: its starting code already passes its checks"
        ),
        "{text}"
    );

    std::fs::write(lessons.join("02-bad.md"), "+++\nid = 3\n+++\n").unwrap();
    let out = cudatutor(&dir, &["lint", lessons.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1));
    assert!(text.contains("02-bad.md:"), "{text}");
}

#[test]
fn the_authoring_guide_example_passes_lint() {
    let guide = std::fs::read_to_string("docs/authoring.md").unwrap();
    let start = guide
        .find("<!-- example-lesson:start -->\n````markdown\n")
        .unwrap();
    let body = &guide[start..];
    let body = &body[body.find("````markdown\n").unwrap() + "````markdown\n".len()..];
    let example = &body[..body.find("\n````\n<!-- example-lesson:end -->").unwrap()];
    let dir = temp("lint-example");
    std::fs::write(dir.join("03-labels.md"), format!("{example}\n")).unwrap();
    let out = cudatutor(&dir, &["lint", dir.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn every_built_in_lesson_has_three_exercises_and_a_quiz_in_both_languages() {
    let en = Catalog::builtin(Lang::En).unwrap();
    let zh = Catalog::builtin(Lang::Zh).unwrap();
    assert_eq!(en.lessons.len(), 5);
    assert_eq!(zh.lessons.len(), 5);
    for (e, z) in en.lessons.iter().zip(&zh.lessons) {
        assert_eq!(e.id, z.id);
        assert_eq!(z.lang, "zh", "{} is the Chinese lesson", z.source_name);
        for lesson in [e, z] {
            assert!(
                lesson.exercises.len() >= 3,
                "{} has fewer than three exercises",
                lesson.source_name
            );
            assert!(
                !lesson.quizzes.is_empty(),
                "{} has no quiz",
                lesson.source_name
            );
            for ex in &lesson.exercises {
                assert!(
                    !ex.hints.is_empty(),
                    "{}: {} has no hint",
                    lesson.source_name,
                    ex.id
                );
                assert!(ex.solution.is_some() && ex.check.is_some(), "{}", ex.id);
            }
        }
        let ids = |l: &cudatutor::lesson::Lesson| {
            l.exercises
                .iter()
                .map(|x| (x.id.clone(), x.start_code.clone(), x.check.clone(), x.gpus))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            ids(e),
            ids(z),
            "lesson {}: the same exercises, code and checks in both languages",
            e.id
        );
    }
}
