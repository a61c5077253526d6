//! `check`, `report` and `lint` on prepared data folders: all passing, some failing, not
//! started, and a corrupt progress file; lint on the built-in lessons, a broken folder and the
//! example lesson in docs/authoring.md.

use cudatutor::lesson::{Catalog, Exercise, Lang, Lesson, LessonError, RightFix, WrongFix};
use cudatutor::progress::{Progress, Store};
use cudatutor::run::RunOptions;
use std::path::{Path, PathBuf};
use std::process::Output;

#[path = "support/cli.rs"]
mod cli;
use cli::{
    builtin_attempts, builtin_exercise_count, cudatutor, save_attempt, scratch_dir, stdout_of_exit,
};

fn temp(name: &str) -> PathBuf {
    scratch_dir("classroom", name)
}

/// A data folder where each exercise holds its solution, except `broken` which holds its start;
/// all marked passed (deliberately wrong for `broken`: check must not trust it).
fn data_dir(name: &str, broken: &[&str]) -> PathBuf {
    let dir = temp(name);
    Store::at(&dir)
        .save(&builtin_attempts(broken, &[], true))
        .unwrap();
    dir
}

/// The row of exercise `id` among `rows` (`check --json` lines).
fn row_of<'a>(rows: &'a [serde_json::Value], id: &str) -> &'a serde_json::Value {
    rows.iter()
        .find(|r| r["exercise"] == id)
        .unwrap_or_else(|| panic!("no row for {id}: {rows:?}"))
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
        text.contains(&format!(
            "{} passed, 0 failed, 0 not started",
            builtin_exercise_count()
        )),
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
    let bad = row_of(&rows, "l3-one-based");
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
    assert_eq!(rows.len(), builtin_exercise_count());
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
        md.contains("| 1 | CUDA errors and asynchronous reporting | 4/5 |"),
        "{md}"
    );
    assert!(md.contains("| 1 | `l1-sticky` | failed |"), "{md}");

    let out = cudatutor(&dir, &["report", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["lessons"][0]["exercises_passed"], 4);
    assert_eq!(v["lessons"][0]["exercises_total"], 5);
    assert_eq!(
        v["exercises"].as_array().unwrap().len(),
        builtin_exercise_count()
    );
}

#[test]
fn the_built_in_lessons_pass_lint() {
    let dir = temp("lint-builtin");
    let out = cudatutor(&dir, &["lint", "lessons/en"]);
    stdout_of_exit(&out, 0);
    let zh = cudatutor(&dir, &["lint", "lessons/zh"]);
    stdout_of_exit(&zh, 0);
}

/// `cudatutor lint FLAGS dir/lessons` after writing `files` (name, text) there: its exit code
/// and what it printed.
fn lint_lessons(dir: &Path, files: &[(&str, &str)], flags: &[&str]) -> (Option<i32>, String) {
    let lessons = dir.join("lessons");
    std::fs::create_dir_all(&lessons).unwrap();
    for (name, text) in files {
        std::fs::write(lessons.join(name), text).unwrap();
    }
    let mut args = vec!["lint"];
    args.extend_from_slice(flags);
    args.push(lessons.to_str().unwrap());
    let out = cudatutor(dir, &args);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// `lint_lessons`, which must fail (exit 1) naming each of `findings` (a line of its output,
/// or the start of one) and none of `absent` (places whose code is fine).
fn lint_fails_naming(
    dir: &Path,
    files: &[(&str, &str)],
    flags: &[&str],
    findings: &[&str],
    absent: &[&str],
) {
    let (code, text) = lint_lessons(dir, files, flags);
    assert_eq!(code, Some(1), "{text}");
    for finding in findings {
        assert!(
            text.contains(finding),
            "lint did not say {finding:?}:\n{text}"
        );
    }
    for place in absent {
        assert!(!text.contains(place), "lint named {place:?}:\n{text}");
    }
}

#[test]
fn lint_names_every_problem_with_file_and_line() {
    let dir = temp("lint-broken");
    lint_fails_naming(
        &dir,
        &[(
            "01-weak.md",
            "+++\nid = \"weak\"\ntitle = \"Weak checks\"\norder = 1\n+++\n\n# Weak\n\n```python exercise id=weak-ex\nx = 1\n```\n\n```python check\nassert x == 1, \"x is one\"\n```\n\n```python solution\nx = 1\n```\n",
        )],
        &[],
        &[
            "01-weak.md:9: exercise `weak-ex`: has no ```hint``` block",
            "01-weak.md:9: exercise `weak-ex`: its starting code already passes its checks",
        ],
        &[],
    );
    lint_fails_naming(
        &dir,
        &[("02-bad.md", "+++\nid = 3\n+++\n")],
        &[],
        &["02-bad.md:"],
        &[],
    );
}

#[test]
fn lint_names_a_wrong_fix_that_passes_a_silent_assert_and_an_unmade_prediction() {
    let dir = temp("lint-wrong");
    lint_fails_naming(
        &dir,
        &[(
            "01-weak.md",
            "+++\nid = \"weak\"\ntitle = \"Weak\"\norder = 1\n+++\n\n```python exercise id=weak-ex predict=guess\nguess = 0\nx = 1\n```\n\n```python check\nassert x >= 2, \"x should be at least 2\"\nassert x < 10\n```\n\n```hint\nh\n```\n\n```python wrong\n# three is not two\nx = 3\n```\n\n```python wrong\n# one is still one\nx = 1\n```\n\n```python solution\nguess = 0\nx = 2\n```\n",
        )],
        &[],
        &[
            "01-weak.md:21: exercise `weak-ex`: a wrong fix passes its checks (\"three is not two\")",
            "01-weak.md:7: exercise `weak-ex`: check line 2: an assert without a message",
            "01-weak.md:7: exercise `weak-ex`: its solution leaves a predicted variable (guess) at its starting value",
        ],
        // the other wrong fix fails
        &["01-weak.md:26"],
    );
}

#[test]
fn saved_code_that_monkeypatches_the_counters_is_graded_failed() {
    // Issue 20's case: the saved code replaces torch.cuda.memory_allocated and answers with an
    // object equal to everything.
    let dir = temp("monkeypatch");
    let attack = "import torch\n\nclass Anything:\n    def __eq__(self, other):\n        return True\n\nx = torch.randn(10)\ny = torch.randn(10, device='cuda')\na = torch.zeros(100, device='cuda')\nb = torch.zeros(200, device='cuda')\ntorch.cuda.memory_allocated = lambda *args: 2048\ntorch.cuda.memory_reserved = lambda *args: 2048\npredicted_allocated = Anything()\npredicted_reserved = Anything()\n";
    let mut progress = Progress::default();
    save_attempt(&mut progress, "l2-counters", attack.into(), true);
    Store::at(&dir).save(&progress).unwrap();
    let out = cudatutor(&dir, &["check", "2", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let rows = json_lines(&out);
    let counters = row_of(&rows, "l2-counters");
    assert_eq!(counters["status"], "failed", "{counters}");
    assert_eq!(counters["internal_error"], false);
    // An object equal to everything is no written value: one result says so, before any
    // check could be fooled (grading.rs tests replaced counters with written predictions).
    let checks = counters["checks"].as_array().unwrap();
    assert_eq!(checks.len(), 1, "{counters}");
    assert_eq!(checks[0]["passed"], false);
    assert!(
        checks[0]["message"]
            .as_str()
            .unwrap()
            .starts_with("`predicted_allocated` should be a prediction you write down"),
        "{counters}"
    );
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
    stdout_of_exit(&out, 0);
}

#[test]
fn every_built_in_lesson_has_three_exercises_and_a_quiz_in_both_languages() {
    let en = Catalog::builtin(Lang::En).unwrap();
    let zh = Catalog::builtin(Lang::Zh).unwrap();
    assert_eq!(en.lessons.len(), 6);
    assert_eq!(zh.lessons.len(), 6);
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
        assert_same_exercises(e, z);
    }
}

/// Every built-in exercise with its lesson, in English, then in Chinese.
fn each_builtin_exercise(mut f: impl FnMut(&Lesson, &Exercise)) {
    for lang in [Lang::En, Lang::Zh] {
        for lesson in Catalog::builtin(lang).unwrap().lessons {
            for ex in &lesson.exercises {
                f(&lesson, ex);
            }
        }
    }
}

/// Every built-in exercise (both languages) holds at least two `kind` ("wrong", "right") fix
/// blocks, `fixes` counting them, and `problems` (run with the default options) finds nothing
/// wrong with them; all of them were counted (at least two per exercise per language).
fn check_fixes_of_every_builtin_exercise(
    kind: &str,
    fixes: impl Fn(&Exercise) -> usize,
    problems: impl Fn(&Lesson, &Exercise, &RunOptions) -> Vec<LessonError>,
) {
    let opts = RunOptions::default();
    let mut total = 0;
    each_builtin_exercise(|lesson, ex| {
        let count = fixes(ex);
        assert!(
            count >= 2,
            "{}: {} has {count} {kind} fixes, fewer than two",
            lesson.source_name,
            ex.id
        );
        let problems = problems(lesson, ex, &opts);
        assert!(problems.is_empty(), "{problems:?}");
        total += count;
    });
    assert!(
        total >= 2 * 2 * builtin_exercise_count(),
        "{total} {kind} fixes"
    );
}

#[test]
fn every_built_in_exercise_has_two_wrong_fixes_and_each_fails_its_checks() {
    use cudatutor::classroom::lint::wrong_fixes_that_pass;
    check_fixes_of_every_builtin_exercise("wrong", |ex| ex.wrongs.len(), wrong_fixes_that_pass);
}

#[test]
fn every_built_in_exercise_has_two_right_fixes_and_each_passes_its_checks() {
    use cudatutor::classroom::lint::{right_fixes_like_the_solution, right_fixes_that_fail};
    check_fixes_of_every_builtin_exercise(
        "right",
        |ex| ex.rights.len(),
        |lesson, ex, opts| {
            // a right fix must pass, and must not be the solution (or another right fix) again
            let mut problems = right_fixes_that_fail(lesson, ex, opts);
            problems.extend(right_fixes_like_the_solution(lesson, ex));
            problems
        },
    );
}

#[test]
fn lint_names_a_right_fix_that_fails_or_repeats_the_solution_and_strict_wants_two() {
    let dir = temp("lint-right");
    lint_fails_naming(
        &dir,
        &[(
            "01-r.md",
            "+++\nid = \"r\"\ntitle = \"R\"\norder = 1\n+++\n\n```python exercise id=r-ex\nx = 1\n```\n\n```python check\nassert x == 2, \"x should be 2\"\n```\n\n```hint\nh\n```\n\n```python wrong\n# one is not two\nx = 1 + 0\n```\n\n```python right\n# arithmetic\nx = 1 + 1\n```\n\n```python right\n# a right fix that is wrong\nx = 3\n```\n\n```python right\n# the solution again, commented\nx = 2  # two\n```\n\n```python solution\nx = 2\n```\n",
        )],
        &[],
        &[
            "01-r.md:29: exercise `r-ex`: a right fix fails its checks (\"a right fix that is wrong\"): check line 1: x should be 2",
            "01-r.md:34: exercise `r-ex`: a right fix (\"the solution again, commented\") is the solution or another right fix again",
        ],
        // the arithmetic fix passes
        &["01-r.md:24"],
    );
    // --strict: fewer than two right blocks is a problem of its own.
    let one_right = [(
        "01-r.md",
        "+++\nid = \"r\"\ntitle = \"R\"\norder = 1\n+++\n\n```python exercise id=r-ex\nx = 1\n```\n\n```python check\nassert x == 2, \"x should be 2\"\n```\n\n```hint\nh\n```\n\n```python wrong\n# one is not two\nx = 1 + 0\n```\n\n```python right\n# arithmetic\nx = 1 + 1\n```\n\n```python solution\nx = 2\n```\n",
    )];
    let (code, text) = lint_lessons(&dir, &one_right, &[]);
    assert_eq!(code, Some(0), "{text}");
    lint_fails_naming(
        &dir,
        &[],
        &["--strict"],
        &["01-r.md:7: exercise `r-ex`: has 1 ```python right``` block(s) (--strict"],
        &[],
    );
}

/// The built-in English lesson holding exercise `id`, and the exercise.
fn builtin_exercise(id: &str) -> (Lesson, Exercise) {
    let catalog = Catalog::builtin(Lang::En).unwrap();
    for lesson in catalog.lessons {
        if let Some(ex) = lesson.exercises.iter().find(|e| e.id == id).cloned() {
            return (lesson, ex);
        }
    }
    panic!("no exercise {id}");
}

const MINE: &str = "+++\nid = \"mine\"\ntitle = \"Mine\"\norder = 1\n+++\n\n# Mine\n\n```python exercise id=l1-where-reported\nx = 1\n```\n\n```python check\nassert x == 2, \"x should be 2\"\n```\n\n```hint\nTwo.\n```\n\n```python wrong\n# three is not two\nx = 3\n```\n\n```python solution\nx = 2\n```\n";

#[test]
fn an_instructor_lesson_that_reuses_a_built_in_id_keeps_its_own_progress() {
    use cudatutor::progress::{BUILTIN_SET, folder_set, read_set};
    let dir = temp("scoped");
    let lessons = dir.join("lessons");
    std::fs::create_dir_all(&lessons).unwrap();
    std::fs::write(lessons.join("01-mine.md"), MINE).unwrap();
    // Built-in work saved by a version from before lesson sets (a version 1 file).
    let (_, builtin) = builtin_exercise("l1-where-reported");
    let solution = builtin.solution.clone().unwrap();
    let v1 = serde_json::json!({
        "last_lesson": "cuda-errors",
        "exercises": {"l1-where-reported": {"code": solution, "passed": true}}
    });
    std::fs::write(dir.join("progress.json"), v1.to_string()).unwrap();

    // The instructor's exercise does not open with the built-in code.
    let lessons_arg = lessons.to_str().unwrap();
    let out = cudatutor(&dir, &["--lessons", lessons_arg, "check", "--json"]);
    let rows = json_lines(&out);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["status"], "not_started", "{}", rows[0]);
    // The built-in one still does, migrated from the old file.
    let out = cudatutor(&dir, &["check", "1", "--json"]);
    let rows = json_lines(&out);
    let built_in = row_of(&rows, "l1-where-reported");
    assert_eq!(built_in["status"], "passed", "{built_in}");

    // Editing the instructor's exercise does not touch the built-in work.
    let set = folder_set(&lessons);
    assert_eq!(
        set,
        folder_set(&lessons.join("..").join("lessons")),
        "one folder, one set"
    );
    let store = Store::at(&dir).for_set(&set);
    let mut mine = store.load().progress;
    assert!(
        mine.exercises.is_empty() && mine.last_lesson.is_none(),
        "{mine:?}"
    );
    save_attempt(&mut mine, "l1-where-reported", "x = 2\n".into(), false);
    store.save(&mine).unwrap();
    let bytes = std::fs::read(dir.join("progress.json")).unwrap();
    let file: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(file["version"], 2, "{file}");
    assert_eq!(
        read_set(&bytes, BUILTIN_SET).unwrap().exercises["l1-where-reported"]
            .code
            .as_deref(),
        Some(solution.as_str())
    );
    assert_eq!(read_set(&bytes, &set).unwrap(), mine);
    let out = cudatutor(&dir, &["--lessons", lessons_arg, "check", "--json"]);
    assert_eq!(json_lines(&out)[0]["status"], "passed");
    let out = cudatutor(&dir, &["check", "1", "--json"]);
    let rows = json_lines(&out);
    let built_in = row_of(&rows, "l1-where-reported");
    assert_eq!(
        built_in["status"], "passed",
        "the built-in work is intact: {built_in}"
    );
    // And saving the built-in set keeps the folder's.
    let builtin_store = Store::at(&dir);
    let loaded = builtin_store.load().progress;
    assert_eq!(loaded.last_lesson.as_deref(), Some("cuda-errors"));
    builtin_store.save(&loaded).unwrap();
    assert_eq!(store.load().progress, mine);
}

#[test]
fn the_tick_follows_the_current_code() {
    use cudatutor::classroom::grade::run_graded;
    use cudatutor::classroom::list::list_text;
    use cudatutor::run::RunOptions;
    let catalog = Catalog::builtin(Lang::En).unwrap();
    let (lesson, ex) = builtin_exercise("l1-sticky");
    let solution = ex.solution.clone().unwrap();
    let mut progress = Progress::default();
    save_attempt(
        &mut progress,
        &ex.id,
        solution.trim_end().to_string(),
        false,
    );
    assert!(!progress.passed(&ex), "no run yet");
    let report = run_graded(
        &lesson,
        &ex,
        &(solution.clone() + "\n\n"),
        &RunOptions::default(),
    );
    assert!(report.checks_passed());
    progress.record_check(&ex, &solution, &report);
    assert!(
        progress.passed(&ex),
        "trailing blank lines are the same code"
    );
    assert!(list_text(&catalog, &progress, Lang::En).contains("  1/5 exercises  (cuda-errors)"));

    // The code is broken again and saved, not run: the ✓ goes at once.
    progress.exercises.get_mut(&ex.id).unwrap().code = Some(ex.start_code.clone());
    assert!(!progress.passed(&ex));
    assert!(list_text(&catalog, &progress, Lang::En).contains("  0/5 exercises  (cuda-errors)"));
    // Back to the code that passed: its record counts again.
    progress.exercises.get_mut(&ex.id).unwrap().code = Some(solution.clone());
    assert!(progress.passed(&ex));
    // A failing run replaces the record.
    let failing = run_graded(&lesson, &ex, &ex.start_code, &RunOptions::default());
    progress.record_check(&ex, &solution, &failing);
    assert!(!progress.passed(&ex));
    // A passed flag from an older version alone never shows a ✓.
    let (_, other) = builtin_exercise("l1-intermittent");
    save_attempt(&mut progress, &other.id, ex.start_code.clone(), true);
    assert!(!progress.passed(&other));

    // The issue's case through the binary: the saved code passed once, then was broken again;
    // list and check agree that it is not done.
    let dir = temp("tick");
    let mut saved = Progress::default();
    save_attempt(&mut saved, &ex.id, solution.clone(), true);
    saved.record_check(&ex, &solution, &report);
    Store::at(&dir).save(&saved).unwrap();
    let list = cudatutor(&dir, &["list"]);
    assert!(String::from_utf8_lossy(&list.stdout).contains("1/5 exercises  (cuda-errors)"));
    saved.exercises.get_mut(&ex.id).unwrap().code = Some(ex.start_code.clone());
    Store::at(&dir).save(&saved).unwrap();
    let list = String::from_utf8_lossy(&cudatutor(&dir, &["list"]).stdout).into_owned();
    assert!(list.contains("0/5 exercises  (cuda-errors)"), "{list}");
    let rows = json_lines(&cudatutor(&dir, &["check", "1", "--json"]));
    let sticky = row_of(&rows, "l1-sticky");
    assert_eq!(sticky["status"], "failed");
}

#[test]
fn a_quiz_is_graded_by_its_first_answer() {
    let catalog = Catalog::builtin(Lang::En).unwrap();
    let lesson = &catalog.lessons[0];
    let right = lesson.quizzes[0].answer;
    let wrong = if right == 1 { 2 } else { 1 };
    let mut progress = Progress::default();
    let first = progress.answer_quiz(lesson, 1, wrong).unwrap();
    assert!(!first.correct && first.first_answer && !first.graded_correct);
    assert_eq!(first.right_choice, right);
    let second = progress.answer_quiz(lesson, 1, right).unwrap();
    assert!(second.correct, "the second answer is right…");
    assert!(
        !second.first_answer && !second.graded_correct,
        "…but never counts"
    );
    let state = &progress.quizzes[&cudatutor::progress::quiz_key(&lesson.id, 1)];
    assert_eq!((state.answer, state.correct), (wrong, false));
    // A first right answer counts.
    let ok = progress
        .answer_quiz(lesson, 2, lesson.quizzes[1].answer)
        .unwrap();
    assert!(ok.first_answer && ok.graded_correct);
    // No such quiz or choice: nothing recorded.
    assert!(progress.answer_quiz(lesson, 99, 1).is_none());
    assert!(progress.answer_quiz(lesson, 3, 0).is_none());
    assert!(progress.answer_quiz(lesson, 3, 99).is_none());
    assert_eq!(progress.quizzes.len(), 2);
    let report = cudatutor::classroom::report::build(&catalog, &progress, &[]);
    assert_eq!(report.lessons[0].quizzes_answered_correctly, 1);
}

#[test]
fn list_and_check_speak_chinese() {
    let dir = data_dir("zh", &["l1-sticky"]);
    let list =
        String::from_utf8_lossy(&cudatutor(&dir, &["--lang", "zh", "list"]).stdout).into_owned();
    assert!(list.contains("个练习"), "{list}");
    assert!(!list.contains("exercises"), "{list}");
    let out = cudatutor(&dir, &["--lang", "zh", "check", "1"]);
    let table = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(table.starts_with("课"), "{table}");
    assert!(
        table.contains("第一个未通过的检查")
            && table.contains("未通过")
            && table.contains("检查第"),
        "{table}"
    );
    assert!(table.contains("个通过，"), "{table}");
    // The failing check's message is the Chinese lesson's own.
    assert!(table.contains("GPU"), "{table}");
    // JSON stays machine-readable English keys and statuses, whatever the language.
    let rows = json_lines(&cudatutor(&dir, &["--lang", "zh", "check", "1", "--json"]));
    assert!(rows.iter().any(|r| r["status"] == "failed"));
}

/// The code's tokens without its comments, and with every string literal that holds words of
/// a language (the text it prints) replaced by one placeholder: the same program whatever
/// language its comments and messages are written in. Strings outside `print(...)` without a
/// space (`'cuda:0'`, `'x'`) stay as they are, so a changed device or key still shows.
fn code_tokens(code: &str) -> Vec<String> {
    use rustpython_ruff_python_ast::token::TokenKind;
    use rustpython_ruff_text_size::Ranged;
    let parsed = rustpython_ruff_python_parser::parse_module(code)
        .unwrap_or_else(|e| panic!("does not parse: {e:?}\n{code}"));
    let words = |text: &str| {
        let inner = literal_text(text);
        has_cjk(inner) || english_words(inner) >= 2
    };
    // inside print(...), any literal with a letter is text for the reader ("allocated:")
    let printed = |text: &str| {
        let inner = literal_text(text);
        has_cjk(inner) || inner.chars().any(|c| c.is_ascii_alphabetic())
    };
    let (mut depth, mut print_depth) = (0usize, None::<usize>);
    let mut previous = String::new();
    let mut out = Vec::new();
    // an f-string is one piece: its words may sit around the fields in another order
    let mut fstring: Option<(Vec<String>, bool)> = None;
    for t in parsed.tokens().iter() {
        let text = code[t.range()].to_string();
        match t.kind() {
            TokenKind::Lpar => {
                depth += 1;
                if previous == "print" && print_depth.is_none() {
                    print_depth = Some(depth);
                }
            }
            TokenKind::Rpar => {
                if print_depth == Some(depth) {
                    print_depth = None;
                }
                depth = depth.saturating_sub(1);
            }
            _ => {}
        }
        if !matches!(t.kind(), TokenKind::Comment | TokenKind::NonLogicalNewline) {
            previous = text.clone();
        }
        let words = |text: &str| words(text) || (print_depth.is_some() && printed(text));
        match t.kind() {
            TokenKind::Comment | TokenKind::NonLogicalNewline => {}
            TokenKind::FStringStart => fstring = Some((vec![text], false)),
            TokenKind::FStringEnd => {
                if let Some((mut parts, worded)) = fstring.take() {
                    parts.push(text);
                    if worded {
                        out.push("<text>".to_string());
                    } else {
                        out.extend(parts);
                    }
                }
            }
            _ => match fstring.as_mut() {
                Some((parts, worded)) => {
                    *worded |= t.kind() == TokenKind::FStringMiddle && words(&text);
                    parts.push(text);
                }
                None if t.kind() == TokenKind::String && words(&text) => {
                    out.push("<text>".to_string())
                }
                None => out.push(text),
            },
        }
    }
    out
}

/// How many words of two letters or more a text holds (`cell 3 done`: two).
fn english_words(s: &str) -> usize {
    s.split_whitespace()
        .filter(|w| w.chars().filter(|c| c.is_ascii_alphabetic()).count() >= 2)
        .count()
}

/// A string literal's own text, without its prefix and quotes.
fn literal_text(token: &str) -> &str {
    token
        .trim_start_matches(|c: char| c.is_ascii_alphabetic())
        .trim_matches(|c| c == '"' || c == '\'')
}

/// The string literals the code passes to `print`.
fn printed_texts(code: &str) -> Vec<String> {
    use rustpython_ruff_python_ast::token::TokenKind;
    use rustpython_ruff_text_size::Ranged;
    let parsed = rustpython_ruff_python_parser::parse_module(code).unwrap();
    let tokens = parsed.tokens();
    let mut out = Vec::new();
    let mut depth_in_print: Option<usize> = None;
    let mut depth = 0usize;
    for (i, t) in tokens.iter().enumerate() {
        match t.kind() {
            TokenKind::Lpar => {
                depth += 1;
                if i > 0 && &code[tokens[i - 1].range()] == "print" && depth_in_print.is_none() {
                    depth_in_print = Some(depth);
                }
            }
            TokenKind::Rpar => {
                if depth_in_print == Some(depth) {
                    depth_in_print = None;
                }
                depth = depth.saturating_sub(1);
            }
            TokenKind::String | TokenKind::FStringMiddle if depth_in_print.is_some() => {
                out.push(code[t.range()].to_string())
            }
            _ => {}
        }
    }
    out
}

/// The comments of the code, without their `#`.
fn comments(code: &str) -> Vec<String> {
    use rustpython_ruff_python_ast::token::TokenKind;
    use rustpython_ruff_text_size::Ranged;
    let parsed = rustpython_ruff_python_parser::parse_module(code).unwrap();
    parsed
        .tokens()
        .iter()
        .filter(|t| t.kind() == TokenKind::Comment)
        .map(|t| code[t.range()].trim_start_matches('#').trim().to_string())
        .collect()
}

fn has_cjk(s: &str) -> bool {
    s.chars().any(|c| {
        ('\u{4e00}'..='\u{9fff}').contains(&c)
            || ('\u{3000}'..='\u{303f}').contains(&c)
            || ('\u{ff00}'..='\u{ffef}').contains(&c)
    })
}

/// English prose: two words of letters in a row ("the guide"), not `0..num_classes-1`.
fn has_english_words(s: &str) -> bool {
    let words: Vec<&str> = s.split_whitespace().collect();
    words.windows(2).any(|w| {
        w.iter()
            .all(|x| x.len() >= 2 && x.chars().all(|c| c.is_ascii_alphabetic()))
    })
}

/// A wrong fix's code, reason and line.
fn wrong_fix(w: &WrongFix) -> (&str, &str, usize) {
    (&w.code, &w.reason, w.line)
}

/// A right fix's code, note and line.
fn right_fix(r: &RightFix) -> (&str, &str, usize) {
    (&r.code, &r.note, r.line)
}

/// The `kind` ("wrong", "right") fixes of an exercise in English and in Chinese (`parts` gives
/// a fix's code, words and line): as many, the same program text (comments aside) pair by
/// pair, and each reason or note in its lesson's language.
fn assert_same_fixes<F>(
    at: &str,
    kind: &str,
    en: &[F],
    zh: &[F],
    parts: fn(&F) -> (&str, &str, usize),
) {
    assert_eq!(en.len(), zh.len(), "{at}: {kind} fixes");
    for (e, z) in en.iter().zip(zh) {
        let ((en_code, en_words, _), (zh_code, zh_words, line)) = (parts(e), parts(z));
        assert_eq!(
            code_tokens(en_code),
            code_tokens(zh_code),
            "{at}: {kind} fix {line}"
        );
        assert!(
            has_cjk(zh_words) && !has_cjk(en_words),
            "{at}: the words of {kind} fix {line} are not in its lesson's language: {zh_words:?} / {en_words:?}"
        );
    }
}

/// The Chinese lesson holds the same exercises as the English one: the same ids, GPUs,
/// predictions, program text (comments aside) in the starting code, solution and each wrong
/// fix, and the same checks (assert tests and setup) — only the words differ, and those are
/// Chinese: every check message, wrong-fix reason and code comment.
fn assert_same_exercises(en: &Lesson, zh: &Lesson) {
    use cudatutor::run::checks::{CheckMessage, split_checks};
    let ids = |l: &Lesson| l.exercises.iter().map(|x| x.id.clone()).collect::<Vec<_>>();
    assert_eq!(ids(en), ids(zh), "lesson {}: the same exercises", en.id);
    for (e, z) in en.exercises.iter().zip(&zh.exercises) {
        let at = format!("{} / {}", zh.source_name, z.id);
        assert_eq!((e.gpus, &e.predict), (z.gpus, &z.predict), "{at}");
        assert_eq!(
            code_tokens(&e.start_code),
            code_tokens(&z.start_code),
            "{at}: starting code"
        );
        let (es, zs) = (
            e.solution.as_deref().unwrap(),
            z.solution.as_deref().unwrap(),
        );
        assert_eq!(code_tokens(es), code_tokens(zs), "{at}: solution");
        assert_same_fixes(&at, "wrong", &e.wrongs, &z.wrongs, wrong_fix);
        assert_same_fixes(&at, "right", &e.rights, &z.rights, right_fix);
        let ec = split_checks(e.check.as_deref().unwrap()).unwrap();
        let zc = split_checks(z.check.as_deref().unwrap()).unwrap();
        assert_eq!(ec.len(), zc.len(), "{at}: checks");
        for (a, b) in ec.iter().zip(&zc) {
            if a.is_assert {
                assert_eq!(
                    code_tokens(a.test.as_deref().unwrap()),
                    code_tokens(b.test.as_deref().unwrap()),
                    "{at}: check line {}",
                    b.line
                );
                let (Some(CheckMessage::Literal(em)), Some(CheckMessage::Literal(zm))) =
                    (&a.message, &b.message)
                else {
                    panic!(
                        "{at}: check line {} needs a message in both languages",
                        b.line
                    );
                };
                assert!(
                    has_cjk(zm) && !has_cjk(em),
                    "{at}: check line {}: {zm}",
                    b.line
                );
            } else {
                assert_eq!(
                    code_tokens(&a.source),
                    code_tokens(&b.source),
                    "{at}: check line {}",
                    b.line
                );
            }
        }
        let mut zh_code = vec![z.start_code.as_str(), zs];
        zh_code.extend(z.wrongs.iter().map(|w| w.code.as_str()));
        zh_code.extend(z.rights.iter().map(|r| r.code.as_str()));
        for code in zh_code {
            for c in comments(code) {
                assert!(
                    has_cjk(&c) || !has_english_words(&c),
                    "{at}: an English comment: # {c}"
                );
            }
            for p in printed_texts(code) {
                assert!(
                    has_cjk(&p) || english_words(literal_text(&p)) < 2,
                    "{at}: printed in English: {p}"
                );
            }
        }
    }
}
