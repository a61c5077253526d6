//! Working outside the pager: `edit` with a scripted `$EDITOR`, `watch` picking up a save
//! (piped, manual, and in tmux), `export` / `import` round trip, `hint`, `report`'s attempts,
//! hints and time to pass, `new lesson` passing `lint --strict`, and `lint --strict` itself.

#[path = "support/cli.rs"]
mod cli;
mod common;

use cli::{builtin_exercise_count, command, save_attempt, scratch_dir};
use common::tmux::Tmux;
use cudatutor::lesson::{Catalog, Lang};
use cudatutor::progress::{Progress, Store};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

fn temp(name: &str) -> PathBuf {
    scratch_dir("workflow", name)
}

/// The sim backend, and no editor of the machine's.
fn cmd(data: &Path) -> Command {
    let mut c = command(data);
    c.env_remove("VISUAL")
        .env_remove("EDITOR")
        .args(["--backend", "sim"]);
    c
}

fn run(data: &Path, args: &[&str]) -> Output {
    cmd(data).args(args).output().expect("binary runs")
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn exercise(id: &str) -> cudatutor::lesson::Exercise {
    let catalog = Catalog::builtin(Lang::En).unwrap();
    catalog
        .lessons
        .iter()
        .flat_map(|l| l.exercises.clone())
        .find(|e| e.id == id)
        .unwrap()
}

/// What the binary said (stdout, then stderr) holds `words`.
fn assert_says(out: &Output, words: &str) {
    let said = text(out);
    assert!(said.contains(words), "expected {words:?} in:\n{said}");
}

/// `check 3 --json` on `data` reports exercise `id` passed: the grade comes from the saved code.
fn assert_check_passes(data: &Path, id: &str) {
    let out = run(data, &["check", "3", "--json"]);
    let exercise = format!("\"exercise\":\"{id}\"");
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .any(|l| l.contains(&exercise) && l.contains("\"passed\"")),
        "{}",
        text(&out)
    );
}

fn saved(data: &Path) -> Progress {
    Store::at(data).load().progress
}

/// cli::editor_script's path, as `$EDITOR` names it.
fn editor_script(dir: &Path, new_code: &str, status: i32) -> String {
    cli::editor_script(dir, new_code, status)
        .display()
        .to_string()
}

#[test]
fn the_editor_flow_saves_what_the_editor_wrote_and_runs_the_checks() {
    let root = temp("edit");
    let data = root.join("data");
    let ex = exercise("l3-one-based");
    let solution = ex.solution.clone().unwrap();
    let editor = editor_script(&root, &solution, 0);

    let out = cmd(&data)
        .args(["edit", "l3-one-based"])
        .env("EDITOR", &editor)
        .output()
        .unwrap();
    let said = text(&out);
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert!(said.contains("✓ solved"), "{said}");
    // The editor was shown the exercise's current code (its start), in the data folder.
    let file = data.join("device-asserts").join("l3-one-based.py");
    assert!(said.contains(&file.display().to_string()), "{said}");
    assert_eq!(
        std::fs::read_to_string(root.join("seen.py"))
            .unwrap()
            .trim_end(),
        ex.start_code.trim_end()
    );
    let progress = saved(&data);
    assert_eq!(
        progress.exercises["l3-one-based"].code.as_deref(),
        Some(solution.as_str())
    );
    assert!(progress.passed(&ex), "the ✓ the pager and list show");
    assert_eq!(progress.stats["l3-one-based"].attempts, 1);
    // check agrees: it is the same saved code.
    assert_check_passes(&data, "l3-one-based");
}

#[test]
fn edit_cmd_wins_over_visual_and_editor_and_a_failing_editor_changes_nothing() {
    let root = temp("edit-cmd");
    let data = root.join("data");
    let ex = exercise("l3-one-based");
    let good = editor_script(&root, &ex.solution.clone().unwrap(), 0);
    let out = cmd(&data)
        .args(["edit", "l3-one-based", "--edit-cmd", &good])
        .env("VISUAL", "false")
        .env("EDITOR", "false")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));

    // $VISUAL before $EDITOR; an editor that fails leaves the saved code alone.
    let other = temp("edit-cmd-bad");
    let bad = editor_script(&other, "x = 1\n", 3);
    let out = cmd(&data)
        .args(["edit", "l3-one-based"])
        .env("VISUAL", &bad)
        .env("EDITOR", &good)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("exited with"), "{}", text(&out));
    assert_eq!(
        saved(&data).exercises["l3-one-based"].code,
        ex.solution.clone()
    );

    // No editor at all: say how to name one.
    let out = run(&data, &["edit", "l3-one-based"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("--edit-cmd"), "{}", text(&out));
    // No such exercise.
    let out = run(&data, &["edit", "no-such-exercise"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("no-such-exercise"));
}

#[test]
fn attempts_hints_and_time_to_pass_reach_the_report() {
    let root = temp("report");
    let data = root.join("data");
    let ex = exercise("l3-one-based");
    // A first attempt that does not pass, a hint, a second hint, then the solution.
    let wrong = editor_script(&root, &ex.start_code.replace("import", "import  "), 0);
    let out = cmd(&data)
        .args(["edit", "l3-one-based", "--edit-cmd", &wrong])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let hints = ex.hints.len();
    assert!(hints >= 2, "l3-one-based has two hints or more");
    for n in 1..=2 {
        let out = run(&data, &["hint", "l3-one-based"]);
        let said = text(&out);
        assert!(said.contains(&format!("hint {n} of {hints}")), "{said}");
        assert!(
            said.contains(ex.hints[n - 1].lines().next().unwrap()),
            "{said}"
        );
    }
    let zh = run(&data, &["--lang", "zh", "hint", "l3-one-based"]);
    assert!(text(&zh).contains("提示"), "{}", text(&zh));
    let other = temp("report-2");
    let good = editor_script(&other, &ex.solution.clone().unwrap(), 0);
    let out = cmd(&data)
        .args(["edit", "l3-one-based", "--edit-cmd", &good])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));

    let stats = saved(&data).stats["l3-one-based"].clone();
    assert_eq!(stats.attempts, 2);
    assert_eq!(stats.attempts_to_pass, Some(2));
    assert_eq!(stats.hints_revealed, 3.min(hints as u32));
    assert!(stats.time_to_pass().is_some());

    let out = run(&data, &["report", "--format", "json"]);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let row = report["activity"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["exercise"] == "l3-one-based")
        .unwrap()
        .clone();
    assert_eq!(row["attempts"], 2);
    assert_eq!(row["attempts_to_pass"], 2);
    assert_eq!(row["hints_total"], hints);
    assert!(row["seconds_to_pass"].is_u64());
    let md = text(&run(&data, &["report"]));
    assert!(md.contains("| attempts | hints | time to pass |"), "{md}");
    assert!(md.contains("(2 attempts)"), "{md}");
}

/// The output of a running `watch`, collected by a thread.
struct Watching {
    child: std::process::Child,
    seen: Arc<Mutex<String>>,
}

impl Watching {
    fn start(data: &Path, args: &[&str]) -> Watching {
        let mut child = cli::spawn_piped(cmd(data).arg("watch").args(args));
        let seen = Arc::new(Mutex::new(String::new()));
        for stream in [
            Box::new(child.stdout.take().unwrap()) as Box<dyn std::io::Read + Send>,
            Box::new(child.stderr.take().unwrap()),
        ] {
            let seen = seen.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(stream).lines() {
                    let Ok(line) = line else { return };
                    let mut s = seen.lock().unwrap();
                    s.push_str(&line);
                    s.push('\n');
                }
            });
        }
        Watching { child, seen }
    }

    /// Waits until the output holds `needle` `count` times.
    fn wait_for(&self, needle: &str, count: usize) -> String {
        let started = Instant::now();
        loop {
            let s = self.seen.lock().unwrap().clone();
            if s.matches(needle).count() >= count {
                return s;
            }
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "no {count}× `{needle}` in:\n{s}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.child.stdin.as_mut().unwrap();
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.flush().unwrap();
    }

    fn finish(mut self) -> std::process::ExitStatus {
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            if started.elapsed() > Duration::from_secs(20) {
                let _ = self.child.kill();
                panic!("watch did not exit:\n{}", self.seen.lock().unwrap());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

#[test]
fn watch_reruns_on_every_save() {
    let data = temp("watch");
    let ex = exercise("l3-one-based");
    let mut w = Watching::start(&data, &["l3-one-based"]);
    let file = data.join("device-asserts").join("l3-one-based.py");
    w.wait_for("watching", 1);
    w.wait_for("checks:", 1);
    assert!(!w.seen.lock().unwrap().contains("✓ solved"));
    // A save in place (truncate and write), as many editors do.
    std::fs::write(&file, ex.solution.clone().unwrap()).unwrap();
    let s = w.wait_for("✓ solved", 1);
    assert_eq!(s.matches("checks:").count(), 2, "{s}");
    // A save by rename (vim's backupcopy=no, VS Code's atomic save).
    let tmp = data.join("device-asserts").join(".l3-one-based.py.swp");
    std::fs::write(&tmp, &ex.start_code).unwrap();
    std::fs::rename(&tmp, &file).unwrap();
    w.wait_for("checks:", 3);
    // Enter re-runs without a save; q quits.
    w.send("\n");
    w.wait_for("checks:", 4);
    w.send("q\n");
    assert!(w.finish().success());
    assert_eq!(saved(&data).stats["l3-one-based"].attempts, 4);
    assert_eq!(
        saved(&data).exercises["l3-one-based"].code.as_deref(),
        None,
        "back at the starting code"
    );
}

#[test]
fn manual_run_waits_for_enter_and_without_an_exercise_moves_on() {
    let data = temp("watch-manual");
    // Everything solved but two exercises: watch starts at the first of them.
    let catalog = Catalog::builtin(Lang::En).unwrap();
    let mut progress = Progress::default();
    for ex in catalog.lessons.iter().flat_map(|l| &l.exercises) {
        if ex.id == "l3-one-based" || ex.id == "l3-embedding" {
            continue;
        }
        let code = ex.solution.clone().unwrap();
        save_attempt(&mut progress, &ex.id, code.clone(), false);
        let report = cudatutor::classroom::grade::run_graded(
            catalog
                .lessons
                .iter()
                .find(|l| l.exercises.contains(ex))
                .unwrap(),
            ex,
            &code,
            &cudatutor::run::RunOptions {
                backend: cudatutor::run::BackendChoice::Sim,
                ..Default::default()
            },
        );
        progress.record_check(ex, &code, &report);
    }
    Store::at(&data).save(&progress).unwrap();

    let mut w = Watching::start(&data, &["--manual-run"]);
    let s = w.wait_for("watching", 1);
    assert!(s.contains("l3-one-based.py"), "{s}");
    assert!(s.contains("press Enter"), "{s}");
    w.wait_for("checks:", 1);
    let file = data.join("device-asserts").join("l3-one-based.py");
    std::fs::write(&file, exercise("l3-one-based").solution.unwrap()).unwrap();
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(
        w.seen.lock().unwrap().matches("checks:").count(),
        1,
        "no run before Enter"
    );
    w.send("\n");
    w.wait_for("✓ solved", 1);
    let s = w.wait_for("next exercise: l3-embedding", 1);
    assert!(s.contains("l3-embedding.py"), "{s}");
    w.wait_for("checks:", 3);
    let embedding = data.join("device-asserts").join("l3-embedding.py");
    std::fs::write(&embedding, exercise("l3-embedding").solution.unwrap()).unwrap();
    w.send("\n");
    w.wait_for("every exercise passes its checks", 1);
    assert!(w.finish().success());
    let progress = saved(&data);
    assert!(progress.passed(&exercise("l3-embedding")));
}

#[test]
fn watch_in_a_terminal_picks_up_a_save() {
    let data = temp("watch-tmux");
    let file = data.join("device-asserts").join("l3-one-based.py");
    let t = Tmux::start(
        "watch",
        100,
        40,
        &[format!("CUDATUTOR_DATA_DIR={}", data.display())],
    )
    .joining_wrapped_lines();
    t.enter(&format!(
        "{} --backend sim watch l3-one-based",
        env!("CARGO_BIN_EXE_cudatutor")
    ));
    t.wait_for("q then Enter quits");
    t.wait_for("checks pass");
    std::fs::write(&file, exercise("l3-one-based").solution.unwrap()).unwrap();
    t.wait_for("✓ solved");
    t.enter("q");
    t.wait_until("the prompt again", |s| {
        s.trim_end().ends_with(common::tmux::PROMPT)
    });
}

#[test]
fn export_then_import_changes_nothing_and_edits_come_back() {
    let root = temp("export");
    let data = root.join("data");
    let catalog = Catalog::builtin(Lang::En).unwrap();
    // Solutions, starting code, and odd code (no final newline, blank lines at the end, a
    // line like the marker's but not it, Chinese comments).
    let mut progress = Progress::default();
    for (i, ex) in catalog
        .lessons
        .iter()
        .flat_map(|l| &l.exercises)
        .enumerate()
    {
        let code = match i % 4 {
            0 => Some(ex.solution.clone().unwrap()),
            1 => None,
            2 => Some(format!("# 我的注释\n{}\n\n\n", ex.start_code.trim_end())),
            _ => Some(format!("# ---- your code\nx = {i}")),
        };
        if let Some(code) = code {
            save_attempt(&mut progress, &ex.id, code, false);
        }
    }
    Store::at(&data).save(&progress).unwrap();
    let dir = root.join("hw");
    let out = run(&data, &["export", dir.to_str().unwrap()]);
    assert_says(
        &out,
        &format!("wrote {} exercise files", builtin_exercise_count()),
    );
    let file = dir.join("device-asserts").join("l3-one-based.py");
    let exported = std::fs::read_to_string(&file).unwrap();
    assert!(exported.contains("# Goal:"), "{exported}");
    assert!(exported.contains(cudatutor::classroom::export::MARKER));

    // Into a fresh data folder: the same code for every exercise.
    let fresh = root.join("fresh");
    let out = run(&fresh, &["import", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let imported = saved(&fresh);
    for ex in catalog.lessons.iter().flat_map(|l| &l.exercises) {
        assert_eq!(
            imported.current_code(ex).trim_end_matches('\n'),
            progress.current_code(ex).trim_end_matches('\n'),
            "{}",
            ex.id
        );
    }
    // Into the original folder: nothing changes.
    let out = run(&data, &["import", dir.to_str().unwrap()]);
    assert_says(
        &out,
        &format!(
            "0 exercise(s) updated, {} unchanged",
            builtin_exercise_count()
        ),
    );
    assert_eq!(saved(&data).exercises, progress.exercises);

    // An edit in the IDE comes back and is graded.
    let solution = exercise("l3-one-based").solution.unwrap();
    let header = &exported[..exported.find(cudatutor::classroom::export::MARKER).unwrap()];
    std::fs::write(
        &file,
        format!(
            "{header}{}\n{solution}",
            cudatutor::classroom::export::MARKER
        ),
    )
    .unwrap();
    std::fs::write(dir.join("stray.py"), "x = 1\n").unwrap();
    std::fs::remove_file(dir.join("cuda-errors").join("l1-sticky.py")).unwrap();
    let out = run(&data, &["import", dir.to_str().unwrap()]);
    let said = text(&out);
    assert!(
        // one updated, one missing, the rest unchanged
        said.contains(&format!(
            "1 exercise(s) updated, {} unchanged",
            builtin_exercise_count() - 2
        )),
        "{said}"
    );
    assert!(said.contains("stray.py: not an exercise"), "{said}");
    assert!(said.contains("l1-sticky.py: missing"), "{said}");
    assert_check_passes(&data, "l3-one-based");
    // Chinese words for the same summary.
    let out = run(&data, &["--lang", "zh", "import", dir.to_str().unwrap()]);
    assert!(text(&out).contains("个练习已更新"), "{}", text(&out));
}

#[test]
fn a_new_lesson_passes_lint_strict() {
    let root = temp("new-lesson");
    let dir = root.join("course");
    let out = run(
        &root,
        &[
            "new",
            "lesson",
            "My First Lesson",
            "--dir",
            dir.to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(dir.join("my-first-lesson.md").is_file());
    let out = run(&root, &["lint", "--strict", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    // A second one gets the next order and passes too; the same name again is refused.
    let out = run(
        &root,
        &["new", "lesson", "Second", "--dir", dir.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let second = std::fs::read_to_string(dir.join("second.md")).unwrap();
    assert!(second.contains("order = 2"), "{second}");
    let out = run(
        &root,
        &["new", "lesson", "Second", "--dir", dir.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(2));
    let out = run(&root, &["lint", "--strict", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
}

#[test]
fn lint_strict_asks_for_wrong_blocks_and_plain_lint_for_messages_and_weights() {
    let root = temp("strict");
    let dir = root.join("course");
    cudatutor::classroom::scaffold::new_lesson(&dir, "Strict").unwrap();
    let path = dir.join("strict.md");
    let text_of = std::fs::read_to_string(&path).unwrap();
    // Drop both wrong blocks, take a message off an assert, break a weight.
    let mut edited = String::new();
    let mut skipping = false;
    for line in text_of.lines() {
        if line == "```python wrong" {
            skipping = true;
            continue;
        }
        if skipping {
            if line == "```" {
                skipping = false;
            }
            continue;
        }
        edited.push_str(line);
        edited.push('\n');
    }
    let edited = edited
        .replace(
            "assert on_gpu(labels), \"keep the labels on the GPU\"",
            "assert on_gpu(labels)",
        )
        .replace("# weight: 2", "# weight: two");
    std::fs::write(&path, edited).unwrap();
    let plain = run(&root, &["lint", dir.to_str().unwrap()]);
    let said = text(&plain);
    assert_eq!(plain.status.code(), Some(1), "{said}");
    assert!(said.contains("an assert without a message"), "{said}");
    assert!(said.contains("a check's weight must be a number"), "{said}");
    assert!(!said.contains("no ```python wrong``` block"), "{said}");
    let strict = run(&root, &["lint", "--strict", dir.to_str().unwrap()]);
    let said = text(&strict);
    assert_eq!(strict.status.code(), Some(1));
    assert!(said.contains("has no ```python wrong``` block"), "{said}");
    assert!(said.contains("strict.md:"), "{said}");
}

#[test]
fn the_builtin_lessons_pass_lint_strict() {
    let root = temp("builtin-strict");
    for lang in ["en", "zh"] {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("lessons")
            .join(lang);
        let out = run(&root, &["lint", "--strict", dir.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(0), "{lang}: {}", text(&out));
    }
}

/// The function the pager's `e` calls on built-in exercise `id`, with `editor` as the editor,
/// on the sim backend.
fn edit_in_editor(
    data: &Path,
    progress: &mut Progress,
    id: &str,
    editor: &str,
) -> cudatutor::classroom::workfile::EditOutcome {
    let catalog = Catalog::builtin(Lang::En).unwrap();
    let (_, lesson, ex) = cudatutor::classroom::workfile::find_exercise(&catalog, id).unwrap();
    let opts = cudatutor::run::RunOptions {
        backend: cudatutor::run::BackendChoice::Sim,
        ..Default::default()
    };
    cudatutor::classroom::workfile::edit_in_editor(data, progress, lesson, ex, Some(editor), &opts)
        .unwrap()
}

/// Exercise l3-one-based edited once, by an editor that writes `code`, through
/// `edit_in_editor` on an empty data folder of its own (`temp(name)/data`): (that data folder,
/// the progress the edit changed, what the edit returned).
fn first_edit(
    name: &str,
    code: &str,
) -> (
    PathBuf,
    Progress,
    cudatutor::classroom::workfile::EditOutcome,
) {
    let root = temp(name);
    let data = root.join("data");
    let editor = editor_script(&root, code, 0);
    let mut progress = Progress::default();
    let outcome = edit_in_editor(&data, &mut progress, "l3-one-based", &editor);
    (data, progress, outcome)
}

/// The function the pager's `e` calls: it changes the pager's progress in memory (code, check
/// record, stats) and leaves saving to the pager.
#[test]
fn edit_in_editor_works_on_the_callers_progress_and_saves_nothing() {
    let ex = exercise("l3-one-based");
    let (data, mut progress, outcome) = first_edit("edit-api", ex.solution.as_deref().unwrap());
    assert!(outcome.changed);
    assert!(outcome.report.checks_passed());
    assert_eq!(
        outcome.path,
        data.join("device-asserts").join("l3-one-based.py")
    );
    assert!(progress.passed(&ex));
    assert_eq!(progress.stats["l3-one-based"].attempts, 1);
    assert!(!data.join("progress.json").exists(), "the caller saves");
    // Closing the editor without a change: not changed, still run and counted.
    let same = editor_script(&temp("edit-api-2"), ex.solution.as_deref().unwrap(), 0);
    let again = edit_in_editor(&data, &mut progress, &ex.id, &same);
    assert!(!again.changed);
    assert_eq!(progress.stats["l3-one-based"].attempts, 2);
    assert_eq!(progress.stats["l3-one-based"].attempts_to_pass, Some(1));
}

/// Quizzes without the pager: `quiz` shows a lesson's quizzes, `answer` answers one. The first
/// answer is the grade (a second, right one changes nothing and says so), it is saved in
/// progress where the pager and `report` read it, and both commands speak Chinese too.
#[test]
fn quizzes_can_be_answered_from_the_command_line() {
    let root = temp("quiz");
    let data = root.join("data");
    let catalog = Catalog::builtin(Lang::En).unwrap();
    let lesson = &catalog.lessons[0];
    let quiz = &lesson.quizzes[0];
    let wrong = if quiz.answer == 1 { 2 } else { 1 };

    let out = run(&data, &["--lang", "en", "quiz", "1"]);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert!(said.contains(quiz.question.trim()), "{said}");
    assert!(
        said.contains("not answered yet: cudatutor answer 1 1 CHOICE"),
        "{said}"
    );

    let out = run(
        &data,
        &["--lang", "en", "answer", "1", "1", &wrong.to_string()],
    );
    let said = text(&out);
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert!(said.starts_with("Not quite."), "{said}");
    assert!(
        said.contains(&format!("The answer is {}.", quiz.answer)),
        "{said}"
    );
    // The right answer now does not count.
    let out = run(
        &data,
        &[
            "--lang",
            "en",
            "answer",
            lesson.id.as_str(),
            "1",
            &quiz.answer.to_string(),
        ],
    );
    let said = text(&out);
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert!(said.contains("does not count"), "{said}");
    let key = cudatutor::progress::quiz_key(&lesson.id, 1);
    let progress = saved(&data);
    assert_eq!(
        progress.quizzes[&key].answer, wrong,
        "the first answer is kept"
    );
    assert!(!progress.quizzes[&key].correct);

    // A right first answer on quiz 2 counts in the report.
    let second = &lesson.quizzes[1];
    let out = run(&data, &["answer", "1", "2", &second.answer.to_string()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let out = run(&data, &["report", "--format", "json"]);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        report["lessons"][0]["quizzes_answered_correctly"], 1,
        "{report}"
    );
    let out = run(&data, &["--lang", "en", "quiz", "1"]);
    let said = text(&out);
    assert!(
        said.contains(&format!(
            "your first answer: {wrong} (Not quite); it is the grade"
        )),
        "{said}"
    );
    assert!(said.contains(&format!("› {wrong}) ")), "{said}");

    // Mistakes are told, nothing is recorded.
    let out = run(&data, &["--lang", "en", "answer", "1", "99", "1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("has no quiz 99"), "{}", text(&out));
    let out = run(&data, &["--lang", "en", "answer", "1", "3", "99"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("choices 1 to"), "{}", text(&out));
    assert!(
        !saved(&data)
            .quizzes
            .contains_key(&cudatutor::progress::quiz_key(&lesson.id, 3))
    );

    // In Chinese.
    let out = run(&data, &["--lang", "zh", "answer", "1", "3", "1"]);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert!(said.contains("正确答案是"), "{said}");
    let out = run(&data, &["--lang", "zh", "quiz", "1"]);
    assert!(text(&out).contains("你的第一次作答"), "{}", text(&out));
}

/// `export` never overwrites a file edited since it wrote it (it says which, exits 1, and
/// `--force` overwrites); `import` that imports nothing (a misplaced file) exits 1.
#[test]
fn export_keeps_edited_files_and_an_import_of_nothing_fails() {
    let root = temp("export-keeps");
    let data = root.join("data");
    let dir = root.join("hw");
    let out = run(&data, &["export", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let file = dir.join("device-asserts").join("l3-one-based.py");
    let mut edited = std::fs::read_to_string(&file).unwrap();
    edited.push_str("# my edit, not imported yet\n");
    std::fs::write(&file, &edited).unwrap();
    let out = run(&data, &["export", dir.to_str().unwrap()]);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(
        said.contains("l3-one-based.py: changed since it was exported"),
        "{said}"
    );
    assert!(
        said.contains(&format!(
            "wrote {} exercise files",
            builtin_exercise_count() - 1
        )),
        "{said}"
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), edited, "kept");
    let out = run(&data, &["export", "--force", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(!std::fs::read_to_string(&file).unwrap().contains("my edit"));

    // A file moved out of its place: nothing is imported, and the exit says so.
    std::fs::write(&file, &edited).unwrap();
    std::fs::rename(&file, dir.join("l3-one-based.py")).unwrap();
    let out = run(&data, &["import", dir.to_str().unwrap()]);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains("nothing was imported"), "{said}");
    let empty = root.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let out = run(&data, &["import", empty.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
}

/// `edit` (and `watch`, through the same run) name the work file in tracebacks, as `run FILE`
/// does, not `exercise.py`; a SyntaxError's summary says 0 points, never "-0".
#[test]
fn edit_tracebacks_name_the_work_file_and_no_points_are_0() {
    let (_, _, outcome) = first_edit("edit-traceback", "import torch\nx = (\n");
    let stderr = &outcome.report.stderr;
    let file = std::path::absolute(&outcome.path).unwrap();
    assert!(
        stderr.contains(&format!("File \"{}\"", file.display())),
        "{stderr}"
    );
    assert!(!stderr.contains("exercise.py"), "{stderr}");
    let ex = exercise("l3-one-based");
    let text = cudatutor::classroom::card::render_run(&ex, &outcome.report, Lang::En);
    assert!(!text.contains("-0"), "{text}");
    assert!(text.contains("(0 of "), "{text}");
}
