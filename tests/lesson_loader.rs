//! The lesson loader: good files in both languages, and every malformed case named with
//! file:line and a reason.

use cudatutor::lesson::{Catalog, Exercise, Lang, Lesson, parse_lesson};
use std::path::Path;

/// Asserts that a lesson of HEAD then `body` is refused with the error `want`.
fn assert_err(body: &str, want: &str) {
    assert_eq!(err(&format!("{HEAD}{body}")), want);
}

/// tests/fixtures/lessons/FOLDER/FILE, which must load.
fn fixture_lesson(folder: &str, file: &str) -> Lesson {
    let text = std::fs::read_to_string(format!("tests/fixtures/lessons/{folder}/{file}")).unwrap();
    parse_lesson(file, &text).unwrap()
}

/// The first exercise of a lesson of HEAD then `body`, which must load.
fn first_exercise(body: &str) -> Exercise {
    let mut lesson = parse_lesson("ok.md", &format!("{HEAD}{body}")).unwrap();
    lesson.exercises.remove(0)
}

/// Asserts that a lesson of HEAD then `body` is refused with an error starting with `start`.
fn assert_err_starts(body: &str, start: &str) {
    let e = err(&format!("{HEAD}{body}"));
    assert!(e.starts_with(start), "{e}");
}

fn err(text: &str) -> String {
    parse_lesson("bad.md", text)
        .expect_err("should be rejected")
        .to_string()
}

#[test]
fn example_lesson_parses_with_all_its_parts() {
    let lesson = fixture_lesson("good", "03-labels.md");
    assert_eq!(lesson.id, "labels");
    assert_eq!(lesson.title, "Labels out of range");
    assert_eq!(lesson.order, 3);
    assert_eq!(lesson.lang, "en");
    assert_eq!(lesson.exercises.len(), 1);
    let ex = &lesson.exercises[0];
    assert_eq!(ex.id, "labels-range");
    assert!(
        ex.start_code
            .contains("torch.randint(0, 6, (10,), device='cuda')")
    );
    assert!(
        ex.check
            .as_deref()
            .unwrap()
            .contains("labels.max().item() < 5")
    );
    assert_eq!(ex.hints.len(), 2);
    assert!(ex.solution.as_deref().unwrap().contains("logits.shape[1]"));
    assert_eq!(ex.line, 19, "the exercise fence is on line 19 of the file");
    assert_eq!(lesson.quizzes.len(), 1);
    assert_eq!(lesson.quizzes[0].answer, 3);
    assert_eq!(lesson.quizzes[0].choices.len(), 3);
}

#[test]
fn chinese_lesson_parses() {
    let lesson = fixture_lesson("zh", "01-errors.md");
    assert_eq!(lesson.lang, "zh");
    assert_eq!(lesson.title, "CUDA 错误与异步报告");
    assert_eq!(
        lesson.exercises[0].hints,
        vec!["读一读错误信息。".to_string()]
    );
}

#[test]
fn builtin_catalogs_hold_six_lessons_in_order() {
    for lang in [Lang::En, Lang::Zh] {
        let catalog = Catalog::builtin(lang).unwrap_or_else(|e| panic!("{e:?}"));
        let orders: Vec<u32> = catalog.lessons.iter().map(|l| l.order).collect();
        assert_eq!(orders, [1, 2, 3, 4, 5, 6], "{lang:?}");
        assert_eq!(catalog.find("3"), Some(2));
        assert_eq!(catalog.find("device-asserts"), Some(2));
        assert_eq!(catalog.find("6"), Some(5));
        assert_eq!(catalog.find("7"), None);
        assert_eq!(catalog.find("0"), None);
    }
}

#[test]
fn folder_catalog_loads_and_sorts_by_order() {
    let catalog = Catalog::from_dir(Path::new("tests/fixtures/lessons/good")).unwrap();
    let ids: Vec<&str> = catalog.lessons.iter().map(|l| l.id.as_str()).collect();
    assert_eq!(ids, ["tables", "labels"]);
}

#[test]
fn missing_front_matter() {
    assert_eq!(
        err("# Hello\n"),
        "bad.md:1: a lesson must start with a `+++` line opening its TOML front matter"
    );
}

#[test]
fn unclosed_front_matter() {
    assert!(
        err("+++\nid = \"a\"\n")
            .starts_with("bad.md:1: the front matter opened on this line is never closed")
    );
}

#[test]
fn bad_front_matter_names_the_line() {
    let e = err("+++\nid = \"a\"\ntitle = \"T\"\norder = \"one\"\n+++\n");
    assert!(e.starts_with("bad.md:4: bad front matter"), "{e}");
}

#[test]
fn unknown_front_matter_key() {
    let e = err("+++\nid = \"a\"\ntitle = \"T\"\norder = 1\ncolour = \"red\"\n+++\n");
    assert!(
        e.starts_with("bad.md:5: bad front matter") && e.contains("colour"),
        "{e}"
    );
}

#[test]
fn missing_front_matter_key() {
    let e = err("+++\nid = \"a\"\norder = 1\n+++\n");
    assert!(e.contains("bad front matter") && e.contains("title"), "{e}");
}

const HEAD: &str = "+++\nid = \"a\"\ntitle = \"T\"\norder = 1\n+++\n\n";

#[test]
fn unknown_block_attribute() {
    assert_err(
        "```python exercise id=x level=3\npass\n```\n",
        "bad.md:7: unknown attribute `level=3` on an exercise block (expected `id=NAME` and optionally `gpus=N`, `predict=NAMES`)",
    );
}

#[test]
fn unknown_block_kind() {
    assert_err_starts(
        "```python exercize id=x\npass\n```\n",
        "bad.md:7: unknown block kind `python exercize`",
    );
}

#[test]
fn exercise_without_id() {
    assert_err(
        "```python exercise\npass\n```\n",
        "bad.md:7: an exercise block needs `id=NAME`",
    );
}

#[test]
fn check_without_an_exercise() {
    assert_err(
        "Text.\n\n```python check\nassert True\n```\n",
        "bad.md:9: a `check` block with no exercise before it",
    );
}

#[test]
fn hint_and_solution_without_an_exercise() {
    assert!(err(&format!("{HEAD}```hint\nx\n```\n")).contains("a `hint` block with no exercise"));
    assert!(
        err(&format!("{HEAD}```python solution\nx\n```\n"))
            .contains("a `solution` block with no exercise")
    );
}

#[test]
fn duplicate_exercise_id_in_one_lesson() {
    assert_err(
        "```python exercise id=x\npass\n```\n\n```python exercise id=x\npass\n```\n",
        "bad.md:11: duplicate exercise id `x` (first used on line 7)",
    );
}

#[test]
fn second_check_for_one_exercise() {
    assert_err(
        "```python exercise id=x\npass\n```\n```python check\na\n```\n```python check\nb\n```\n",
        "bad.md:13: exercise `x` already has a `check` block",
    );
}

#[test]
fn bad_quizzes() {
    assert_err(
        "```quiz\nquestion = \"Q\"\nchoices = [\"a\", \"b\"]\nanswer = 3\n```\n",
        "bad.md:7: quiz answer 3 is not one of the choices 1..2",
    );
    assert_err(
        "```quiz\nquestion = \"Q\"\nchoices = [\"a\"]\nanswer = 1\n```\n",
        "bad.md:7: a quiz needs at least two choices",
    );
    assert_err_starts(
        "```quiz\nquestion = Q\n```\n",
        "bad.md:7: bad quiz (its line 1)",
    );
}

#[test]
fn duplicates_across_lessons_are_reported_with_both_places() {
    let a = format!("{HEAD}```python exercise id=shared\npass\n```\n");
    let b = "+++\nid = \"b\"\ntitle = \"B\"\norder = 1\n+++\n\n```python exercise id=shared\npass\n```\n".to_string();
    let errors =
        Catalog::from_sources([("a.md".to_string(), a), ("b.md".to_string(), b)]).unwrap_err();
    let text: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert!(
        text.contains(&"b.md:2: duplicate lesson order 1 (also in a.md)".to_string()),
        "{text:?}"
    );
    assert!(
        text.contains(&"b.md:7: duplicate exercise id `shared` (also in a.md:7)".to_string()),
        "{text:?}"
    );
}

#[test]
fn a_folder_without_lessons_is_an_error_not_a_panic() {
    let errors = Catalog::from_dir(Path::new("tests/fixtures/does-not-exist")).unwrap_err();
    assert!(errors[0].message.contains("cannot read the folder"));
}

#[test]
fn an_exercise_may_ask_for_several_gpus() {
    use cudatutor::lesson::{FenceKind, classify_fence};
    assert_eq!(
        classify_fence("python exercise id=dp gpus=2"),
        Ok(FenceKind::Exercise {
            id: "dp".into(),
            gpus: 2,
            predict: vec![],
        })
    );
    assert_eq!(
        classify_fence("python exercise id=dp"),
        Ok(FenceKind::Exercise {
            id: "dp".into(),
            gpus: 1,
            predict: vec![],
        })
    );
    assert!(classify_fence("python exercise id=dp gpus=0").is_err());
    assert!(classify_fence("python exercise id=dp gpus=many").is_err());
}

#[test]
fn an_exercise_may_ask_for_predictions() {
    use cudatutor::lesson::{FenceKind, classify_fence};
    assert_eq!(
        classify_fence("python exercise id=w predict=origin,reported"),
        Ok(FenceKind::Exercise {
            id: "w".into(),
            gpus: 1,
            predict: vec!["origin".into(), "reported".into()],
        })
    );
    let e = classify_fence("python exercise id=w predict=origin,2x").unwrap_err();
    assert!(e.contains("`2x` is not a variable name"), "{e}");
    assert!(classify_fence("python exercise id=w predict=a predict=b").is_err());
    let ex = &first_exercise(
        "```python exercise id=w predict=origin,reported\norigin = 0   # line?\nreported: int = 0\nx = origin\n```\n",
    );
    assert_eq!(ex.predict, ["origin", "reported"]);
    assert_eq!(
        cudatutor::lesson::predicted_start(&ex.start_code, "origin").as_deref(),
        Some("0")
    );
    assert_eq!(
        cudatutor::lesson::predicted_start(&ex.start_code, "x").as_deref(),
        Some("origin")
    );
    // A predicted name the starting code never assigns has no starting value to compare with.
    assert_err_starts(
        "```python exercise id=w predict=nowhere\nx = 1\n```\n",
        "bad.md:7: `predict=nowhere`: the starting code never assigns",
    );
}

#[test]
fn wrong_blocks_carry_their_reason_and_code() {
    let ex = first_exercise(
        "```python exercise id=x\nx = 5\n```\n\n```python wrong\n#  clamping hides the bug\nx = 4\n```\n\n```python wrong\n# deleting the line\npass\n```\n",
    );
    let wrongs = &ex.wrongs;
    assert_eq!(wrongs.len(), 2);
    assert_eq!(wrongs[0].reason, "clamping hides the bug");
    assert_eq!(wrongs[0].code, "x = 4\n");
    assert_eq!(wrongs[0].line, 11);
    assert_eq!(wrongs[1].reason, "deleting the line");
}

#[test]
fn a_wrong_block_needs_a_reason_line_and_code_and_an_exercise() {
    assert_err(
        "```python exercise id=x\nx = 5\n```\n```python wrong\nx = 4\n```\n",
        "bad.md:10: a `wrong` block must start with a comment line giving the reason the fix is wrong (`# ...`)",
    );
    let e = err(&format!(
        "{HEAD}```python exercise id=x\nx = 5\n```\n```python wrong\n#\nx = 4\n```\n"
    ));
    assert!(e.contains("must start with a comment line"), "{e}");
    assert_fix_block_rules("wrong", "reason");
}

/// What a `kind` fix block (`wrong`, `right`) needs besides its first comment line (`what`:
/// its reason, its note): code after that line, an exercise before it, and no other attribute.
fn assert_fix_block_rules(kind: &str, what: &str) {
    let e = err(&format!(
        "{HEAD}```python exercise id=x\nx = 5\n```\n```python {kind}\n# only a {what}\n```\n"
    ));
    assert_eq!(
        e,
        format!("bad.md:10: a `{kind}` block holds no code after its {what} line")
    );
    let e = err(&format!("{HEAD}```python {kind}\n# why\nx = 1\n```\n"));
    assert_eq!(
        e,
        format!("bad.md:7: a `{kind}` block with no exercise before it")
    );
    let e = err(&format!(
        "{HEAD}```python exercise id=x\nx = 5\n```\n```python {kind} extra\n# why\nx = 1\n```\n"
    ));
    assert!(
        e.contains(&format!("unknown attribute `extra` on a `{kind}` block")),
        "{e}"
    );
}

#[test]
fn right_blocks_carry_their_note_and_code() {
    use cudatutor::lesson::{FenceKind, classify_fence};
    assert_eq!(classify_fence("python right"), Ok(FenceKind::Right));
    let ex = &first_exercise(
        "```python exercise id=x\nx = 5\n```\n\n```python right\n# the same value, as arithmetic\nx = 2 + 2\n```\n\n```python wrong\n# clamping\nx = 9\n```\n",
    );
    assert_eq!(ex.rights.len(), 1);
    assert_eq!(ex.rights[0].note, "the same value, as arithmetic");
    assert_eq!(ex.rights[0].code, "x = 2 + 2\n");
    assert_eq!(ex.rights[0].line, 11);
    assert_eq!(ex.wrongs.len(), 1, "wrong and right blocks are kept apart");
}

#[test]
fn a_right_block_needs_a_note_line_code_and_an_exercise() {
    assert_err(
        "```python exercise id=x\nx = 5\n```\n```python right\nx = 4\n```\n",
        "bad.md:10: a `right` block must start with a comment line saying how this fix differs from the solution (`# ...`)",
    );
    assert_fix_block_rules("right", "note");
}

#[test]
fn a_starting_code_that_computes_its_prediction_is_refused() {
    let e = err(&format!(
        "{HEAD}```python exercise id=w predict=guess\nimport torch\nguess = torch.cuda.memory_allocated()\n```\n"
    ));
    assert!(
        e.starts_with("bad.md:7: the starting code's predictions must be written values: `guess` should be a prediction you write down")
            && e.contains("(line 2)"),
        "{e}"
    );
    // A starting value written as arithmetic, or as another prediction, is a prediction.
    assert!(
        parse_lesson(
            "ok.md",
            &format!("{HEAD}```python exercise id=w predict=a,b\na = 40 + 400 + 800\nb = a\n```\n"),
        )
        .is_ok()
    );
}

#[test]
fn nesting_past_the_limit_names_its_line() {
    // 16 quote levels are accepted; the 17th is named with its line
    let ok = format!("{HEAD}text\n\n{} deep enough\n", "> ".repeat(16));
    parse_lesson("ok.md", &ok).expect("16 levels load");
    let e = err(&format!("{HEAD}text\n\n{} too deep\n", "> ".repeat(10_000)));
    assert_eq!(
        e,
        "bad.md:9: quotes and lists nested deeper than 16 levels (the pager could not show them; flatten the nesting)"
    );
    // lists count as levels too
    let list: String = (0..40)
        .map(|i| format!("{}- item\n", "  ".repeat(i)))
        .collect();
    let e = err(&format!("{HEAD}{list}"));
    assert!(e.starts_with("bad.md:"), "{e}");
    assert!(e.contains("nested deeper than 16 levels"), "{e}");
}

#[test]
fn many_exercises_keep_their_line_numbers() {
    // The line counter reads forward from fence to fence: each exercise's line must be its own.
    let body: String = (0..2000)
        .map(|i| format!("## E{i}\n\n```python exercise id=e{i}\nx = 1\n```\n\n"))
        .collect();
    let lesson = parse_lesson("many.md", &format!("{HEAD}{body}")).unwrap();
    assert_eq!(lesson.exercises.len(), 2000);
    for (i, ex) in lesson.exercises.iter().enumerate() {
        assert_eq!(ex.line, 9 + 6 * i, "exercise e{i}");
    }
    let e = err(&format!(
        "{HEAD}{body}```python exercise id=e1234\nx = 1\n```\n"
    ));
    assert_eq!(
        e,
        format!(
            "bad.md:{}: duplicate exercise id `e1234` (first used on line {})",
            7 + 6 * 2000,
            9 + 6 * 1234
        )
    );
}

fn scratch_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("cudatutor-loader-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[cfg(unix)]
#[test]
fn a_fifo_named_like_a_lesson_is_refused_not_waited_on() {
    let dir = scratch_dir("fifo");
    std::fs::write(dir.join("a.md"), format!("{HEAD}text\n")).unwrap();
    let fifo = dir.join("b.md");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: `c` is a NUL-terminated path that outlives the call.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    // A blocking read of the FIFO would never return: the test would hang, not fail.
    let errors = Catalog::from_dir(&dir).expect_err("the FIFO is an error");
    assert_eq!(errors.len(), 1, "{errors:?}");
    let e = errors[0].to_string();
    assert!(e.starts_with(&format!("{}", fifo.display())), "{e}");
    assert!(e.contains("not a regular file"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_oversized_lesson_is_refused_before_it_is_read() {
    let dir = scratch_dir("big");
    let big = format!("{HEAD}{}", "word ".repeat(2 << 20));
    std::fs::write(dir.join("a.md"), big).unwrap();
    let errors = Catalog::from_dir(&dir).expect_err("too big");
    let e = errors[0].to_string();
    assert!(e.contains("a lesson may hold at most 8 MiB"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn both_languages_hold_the_same_exercise_ids() {
    let ids = |lang| -> Vec<String> {
        Catalog::builtin(lang)
            .unwrap()
            .lessons
            .iter()
            .flat_map(|l| l.exercises.iter().map(|e| e.id.clone()))
            .collect()
    };
    assert_eq!(ids(Lang::En), ids(Lang::Zh));
}
