//! A lesson folder is anyone's: thousands of files, a 50 MB lesson, deep nesting, thousands of
//! checks or predictions, and titles full of terminal control sequences. The loader, `list`,
//! `lint` and `check --solutions` stay linear in the folder's size, refuse what is too big
//! with a clear error, say where they are, and never print a control sequence.
//! The time bounds are generous (a loaded CI machine): they catch minutes, not milliseconds.

use cudatutor::lesson::Catalog;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[path = "support/cli.rs"]
mod cli;
use cli::{cudatutor, scratch_dir, stdout_of_exit};

fn temp(name: &str) -> PathBuf {
    scratch_dir("hostile-lessons", name)
}

/// A lesson with one exercise whose checks its solution passes and its starting code fails.
fn lesson(order: usize, title: &str) -> String {
    format!(
        "+++\nid = \"l{order}\"\ntitle = \"{title}\"\norder = {order}\n+++\n\n# {title}\n\n```python exercise id=ex{order}\nx = 1\n```\n\n```python check\nassert x == 2, \"x should be 2\"\n```\n\n```hint\nset x\n```\n\n```python solution\nx = 2\n```\n"
    )
}

/// Bytes a terminal acts on: ESC, BEL, backspace, CR, DEL and the C1 controls.
fn controls(text: &[u8]) -> Vec<u8> {
    let s = String::from_utf8_lossy(text);
    s.chars()
        .filter(|c| c.is_control() && *c != '\n' && *c != '\t')
        .map(|c| c as u32 as u8)
        .collect()
}

/// Loads the lessons of `dir`, which must be refused (`why`) with one error, in linear time
/// (well under 20 s for thousands of files): that error's message.
fn the_one_load_error(dir: &Path, why: &str) -> String {
    let started = Instant::now();
    let errors = Catalog::from_dir(dir).expect_err(why);
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{why}: {:?}",
        started.elapsed()
    );
    assert_eq!(errors.len(), 1, "{errors:?}");
    errors[0].message.clone()
}

#[test]
fn thousands_of_lessons_load_in_linear_time_and_one_too_many_is_refused() {
    let dir = temp("many");
    for i in 1..=2000 {
        std::fs::write(dir.join(format!("{i:05}.md")), lesson(i, "Many")).unwrap();
    }
    // one duplicate exercise id, found against the first lesson that has it
    std::fs::write(
        dir.join("99999.md"),
        lesson(9999, "Dup").replace("id=ex9999", "id=ex7"),
    )
    .unwrap();
    let message = the_one_load_error(&dir, "2001 files are too many");
    assert!(message.contains("more than 2000 lesson files"), "{message}");

    std::fs::remove_file(dir.join("02000.md")).unwrap();
    let message = the_one_load_error(&dir, "the duplicate id");
    assert!(
        message.contains("duplicate exercise id `ex7`") && message.contains("00007.md"),
        "{message}"
    );
    std::fs::remove_file(dir.join("99999.md")).unwrap();
    let catalog = Catalog::from_dir(&dir).unwrap();
    assert_eq!(catalog.lessons.len(), 1999);
}

#[test]
fn a_huge_lesson_or_folder_is_refused_with_its_size_and_nesting_is_harmless() {
    let dir = temp("huge");
    std::fs::write(dir.join("01.md"), lesson(1, "Small")).unwrap();
    let mut big = lesson(2, "Big");
    big.push_str(&"word ".repeat(10 << 20)); // 50 MB
    std::fs::write(dir.join("02.md"), &big).unwrap();
    let errors = Catalog::from_dir(&dir).expect_err("a 50 MB lesson");
    assert!(
        errors
            .iter()
            .any(|e| e.file.ends_with("02.md") && e.message.contains("at most 8 MiB")),
        "{errors:?}"
    );
    std::fs::remove_file(dir.join("02.md")).unwrap();

    // each file under the per-file bound, together over the folder's
    let filler = "word ".repeat((7 << 20) / 5); // 7 MB
    for i in 2..=6 {
        std::fs::write(
            dir.join(format!("{i:02}.md")),
            format!("{}\n{filler}", lesson(i, "Filler")),
        )
        .unwrap();
    }
    let errors = Catalog::from_dir(&dir).expect_err("35 MB of lessons");
    assert!(errors[0].message.contains("more than 32 MiB"), "{errors:?}");
    for i in 2..=6 {
        std::fs::remove_file(dir.join(format!("{i:02}.md"))).unwrap();
    }

    // deep folders are not walked; deeply nested Markdown is text
    let mut deep = dir.clone();
    for _ in 0..200 {
        deep = deep.join("d");
    }
    std::fs::create_dir_all(&deep).unwrap();
    std::fs::write(deep.join("00.md"), lesson(50, "Deep")).unwrap();
    let nested = format!(
        "{}\n{}\n{}\n",
        lesson(3, "Nested"),
        "> ".repeat(20_000),
        (0..1_500)
            .map(|i| format!("{}- item\n", "  ".repeat(i)))
            .collect::<String>()
    );
    std::fs::write(dir.join("03.md"), nested).unwrap();
    // through the binary: a stack overflow would be a signal here, not a lost test process
    let data = temp("huge-data");
    let out = cudatutor(&data, &["--lessons", dir.to_str().unwrap(), "list"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("03.md:") && err.contains("nested deeper than"),
        "{err}"
    );
    std::fs::remove_file(dir.join("03.md")).unwrap();
    let out = cudatutor(&data, &["--lessons", dir.to_str().unwrap(), "list"]);
    let text = stdout_of_exit(&out, 0);
    assert!(text.contains("Small"), "{text}");
    assert!(
        !text.contains("Deep"),
        "sub-folders are not lessons: {text}"
    );
}

#[test]
fn control_sequences_in_a_lesson_never_reach_the_terminal() {
    let dir = temp("escapes");
    let lessons = dir.join("lessons");
    std::fs::create_dir_all(&lessons).unwrap();
    let title = "Evil\u{1b}]0;pwned\u{7}\u{1b}[2J\u{1b}[31m title\u{8}\u{8}\u{9b}1m\r!";
    let text = lesson(1, title)
        .replace("x should be 2", "x should be 2\u{1b}[5m")
        .replace("set x", "set \u{1b}]8;;http://x\u{1b}\\x");
    std::fs::write(lessons.join("01-evil.md"), text).unwrap();
    // a second exercise whose message is made at run time from what the code holds
    std::fs::write(
        lessons.join("02-runtime.md"),
        lesson(2, "Runtime")
            .replace(
                "assert x == 2, \"x should be 2\"",
                "assert x == 2, f\"x should be 2, not {x}\"",
            )
            .replace(
                "```python solution\nx = 2",
                "```python solution\nx = '\\x1b[2J'",
            ),
    )
    .unwrap();
    let dir_arg = lessons.to_str().unwrap();
    let catalog = Catalog::from_dir(&lessons).unwrap();
    assert_eq!(catalog.lessons[0].title, "Evil title!");

    let list = cudatutor(&dir, &["--lessons", dir_arg, "list"]);
    assert!(String::from_utf8_lossy(&list.stdout).contains("Evil title!"));
    let lint = cudatutor(&dir, &["lint", dir_arg]);
    let check = cudatutor(&dir, &["--lessons", dir_arg, "check", "--solutions"]);
    let check_text = String::from_utf8_lossy(&check.stdout);
    assert!(
        check_text.contains("x should be 2, not"),
        "the runtime message is shown, cleaned: {check_text}"
    );
    for (what, out) in [("list", &list), ("lint", &lint), ("check", &check)] {
        assert_eq!(controls(&out.stdout), b"", "{what} stdout");
        assert_eq!(controls(&out.stderr), b"", "{what} stderr");
    }
}

#[test]
fn lint_and_check_solutions_say_where_they_are() {
    let dir = temp("progress");
    let lessons = dir.join("lessons");
    std::fs::create_dir_all(&lessons).unwrap();
    for i in 1..=3 {
        std::fs::write(lessons.join(format!("{i:02}.md")), lesson(i, "Step")).unwrap();
    }
    let dir_arg = lessons.to_str().unwrap();
    let lint = cudatutor(&dir, &["lint", dir_arg]);
    assert_eq!(
        lint.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&lint.stdout)
    );
    let err = String::from_utf8_lossy(&lint.stderr);
    for line in ["lint: 1/3 l1 ex1", "lint: 2/3 l2 ex2", "lint: 3/3 l3 ex3"] {
        assert!(err.contains(line), "{err}");
    }
    let check = cudatutor(&dir, &["--lessons", dir_arg, "check", "--solutions"]);
    let err = String::from_utf8_lossy(&check.stderr);
    assert!(
        err.contains("check: 1/3 ex1") && err.contains("check: 3/3 ex3"),
        "{err}"
    );
    // a learner's own `check` prints only its table
    let own = cudatutor(&dir, &["--lessons", dir_arg, "check"]);
    assert!(!String::from_utf8_lossy(&own.stderr).contains("check: 1/3"));
}

#[test]
fn thousands_of_checks_or_predictions_are_refused_not_run_for_minutes() {
    let dir = temp("checks");
    let lessons = dir.join("lessons");
    std::fs::create_dir_all(&lessons).unwrap();
    let many_checks = "assert x == 2, \"x should be 2\"\n".repeat(20_000);
    std::fs::write(
        lessons.join("01.md"),
        lesson(1, "Checks").replace("assert x == 2, \"x should be 2\"\n", &many_checks),
    )
    .unwrap();
    let started = Instant::now();
    let lint = cudatutor(&dir, &["lint", lessons.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&lint.stdout);
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(lint.status.code(), Some(1), "{text}");
    assert!(
        text.contains("more than 1000 top-level statements"),
        "{text}"
    );

    let names: Vec<String> = (0..3000).map(|i| format!("p{i}")).collect();
    let predicted =
        lesson(2, "Predict").replace("id=ex2", &format!("id=ex2 predict={}", names.join(",")));
    std::fs::write(lessons.join("01.md"), predicted).unwrap();
    let errors = Catalog::from_dir(&lessons).expect_err("3000 predictions");
    assert!(errors[0].message.contains("at most 32"), "{errors:?}");
}
