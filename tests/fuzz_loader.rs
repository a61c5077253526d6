//! Fuzzing the lesson loader: the real lessons (both languages) mutated byte by byte and line by
//! line, truncated, and with bad fences, attributes and quizzes inserted. The loader must never
//! panic; every rejection must name the file and a line inside it (fence errors: the fence's
//! own line). Lessons that still load are laid out and drawn, which must not panic either.
//! The fixed corpus in tests/corpus/lessons/ holds hand-made bad lessons with the expected
//! `file:line: message` in tests/corpus/lessons/EXPECTED.

#[path = "support/fuzz.rs"]
mod fuzz;
use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use cudatutor::lesson::{Catalog, Lang, Lesson, LessonError, parse_lesson};
use cudatutor::progress::Progress;
use cudatutor::ui::App;
use proptest::prelude::*;
use ratatui::{Terminal, backend::TestBackend};
use std::path::Path;
use std::sync::OnceLock;
#[path = "support/pager.rs"]
mod pager;
use pager::{app_on, fresh_app};

/// (file name, text) of every built-in lesson and fixture lesson.
fn sources() -> &'static [(String, String)] {
    static SOURCES: OnceLock<Vec<(String, String)>> = OnceLock::new();
    SOURCES.get_or_init(|| {
        let mut out = Vec::new();
        for dir in [
            "lessons/en",
            "lessons/zh",
            "tests/fixtures/lessons/good",
            "tests/fixtures/lessons/exercise",
        ] {
            let mut paths: Vec<_> = std::fs::read_dir(dir)
                .unwrap()
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "md"))
                .collect();
            paths.sort();
            for p in paths {
                out.push((
                    p.display().to_string(),
                    std::fs::read_to_string(&p).unwrap(),
                ));
            }
        }
        assert!(out.len() >= 12, "lessons found: {}", out.len());
        out
    })
}

/// Lines an attacker (or a hurried author) might put in a lesson.
const BAD_LINES: &[&str] = &[
    "```",
    "````",
    "~~~",
    "```python",
    "```python exercise",
    "```python exercise id=",
    "```python exercise id=a id=a",
    "```python exercise id=x gpus=0",
    "```python exercise id=x gpus=17",
    "```python exercise id=x gpus=-1",
    "```python exercise id=x gpus=99999999999999999999",
    "```python exercise id=\"quoted\"",
    "```python exercise id=a/b",
    "```python exercise id=é",
    "```python exercise id=dup",
    "```python exercise id=dup",
    "```python exercize id=x",
    "```python check",
    "```python check extra",
    "```python solution",
    "```python solution x=1",
    "```hint",
    "```hint extra",
    "```quiz",
    "```quiz now",
    "~~~quiz",
    "    ```quiz",
    "> ```python exercise id=q",
    "- ```python check",
    "question = \"q\"",
    "choices = [\"a\"]",
    "choices = [\"a\", \"b\", \"c\"]",
    "choices = []",
    "choices = 3",
    "answer = 0",
    "answer = 1",
    "answer = 4",
    "answer = -1",
    "answer = 99999999999999999999999",
    "answer = \"1\"",
    "explain = \"\"\"",
    "question = '''",
    "unknown = 1",
    "[table]",
    "+++",
    "id = \"x\"",
    "id = \"bad id\"",
    "title = \"\"",
    "order = 1",
    "order = -1",
    "order = 4294967296",
    "lang = 3",
    "\u{feff}",
    "\r",
    "\t\t```",
    "\u{0}",
    "<!-- ```python exercise id=c -->",
    "| a | b |",
    "|---|---|",
    "[link](",
    "# ",
    "***",
];

#[derive(Debug, Clone)]
enum Mutation {
    /// Set one byte (may break UTF-8; the text is then decoded lossily, as a file would be
    /// rejected by `from_dir` but an editor would show it).
    Byte(usize, u8),
    DeleteBytes(usize, usize),
    Truncate(usize),
    InsertLine(usize, &'static str),
    ReplaceLine(usize, &'static str),
    DeleteLines(usize, usize),
    DuplicateLine(usize),
    SwapLines(usize, usize),
    /// Replace the info string of the n-th fence.
    Refence(usize, &'static str),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let line = || proptest::sample::select(BAD_LINES);
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(p, b)| Mutation::Byte(p, b)),
        (any::<usize>(), 1usize..64).prop_map(|(p, n)| Mutation::DeleteBytes(p, n)),
        any::<usize>().prop_map(Mutation::Truncate),
        (any::<usize>(), line()).prop_map(|(p, l)| Mutation::InsertLine(p, l)),
        (any::<usize>(), line()).prop_map(|(p, l)| Mutation::ReplaceLine(p, l)),
        (any::<usize>(), 1usize..8).prop_map(|(p, n)| Mutation::DeleteLines(p, n)),
        any::<usize>().prop_map(Mutation::DuplicateLine),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Mutation::SwapLines(a, b)),
        (any::<usize>(), line()).prop_map(|(n, l)| Mutation::Refence(n, l)),
    ]
}

fn apply(text: &str, mutations: &[Mutation]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for m in mutations {
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let mut lines: Vec<String> = text.split('\n').map(str::to_string).collect();
        match m {
            Mutation::Byte(p, b) => {
                if !bytes.is_empty() {
                    let p = p % bytes.len();
                    bytes[p] = *b;
                }
                continue;
            }
            Mutation::DeleteBytes(p, len) => {
                let p = p % (bytes.len() + 1);
                let end = (p + len).min(bytes.len());
                bytes.drain(p..end);
                continue;
            }
            Mutation::Truncate(p) => {
                bytes.truncate(p % (bytes.len() + 1));
                continue;
            }
            Mutation::InsertLine(p, l) => lines.insert(p % (lines.len() + 1), l.to_string()),
            Mutation::ReplaceLine(p, l) => {
                if !lines.is_empty() {
                    let p = p % lines.len();
                    lines[p] = l.to_string();
                }
            }
            Mutation::DeleteLines(p, k) => {
                if !lines.is_empty() {
                    let p = p % lines.len();
                    let end = (p + k).min(lines.len());
                    lines.drain(p..end);
                }
            }
            Mutation::DuplicateLine(p) => {
                if !lines.is_empty() {
                    let p = p % lines.len();
                    let l = lines[p].clone();
                    lines.insert(p, l);
                }
            }
            Mutation::SwapLines(a, b) => {
                if !lines.is_empty() {
                    let (a, b) = (a % lines.len(), b % lines.len());
                    lines.swap(a, b);
                }
            }
            Mutation::Refence(k, l) => {
                let fences: Vec<usize> = lines
                    .iter()
                    .enumerate()
                    .filter(|(_, l)| {
                        let t = l.trim_start();
                        t.starts_with("```") || t.starts_with("~~~")
                    })
                    .map(|(i, _)| i)
                    .collect();
                if !fences.is_empty() {
                    let i = fences[k % fences.len()];
                    lines[i] = l.to_string();
                }
            }
        }
        bytes = lines.join("\n").into_bytes();
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// What every rejection must look like: this file, a line that exists (1-based), a reason;
/// an error about a block points at a fence line.
fn check_error(name: &str, text: &str, e: &LessonError) {
    assert_eq!(e.file, name, "{e}");
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lines: Vec<&str> = text.split('\n').collect();
    assert!(
        e.line >= 1 && e.line <= lines.len(),
        "line {} is outside the file ({} lines): {e}",
        e.line,
        lines.len()
    );
    assert!(!e.message.trim().is_empty(), "{e}");
    assert_eq!(e.to_string(), format!("{name}:{}: {}", e.line, e.message));
    let about_front_matter = e.message.contains("front matter")
        || e.message.starts_with("lesson id")
        || e.message.starts_with("the lesson title");
    if e.message.starts_with("not UTF-8") {
        assert!(
            lines[e.line - 1].contains('\u{fffd}'),
            "the bad byte is on line {}: {e}",
            e.line
        );
    } else if !about_front_matter {
        let at = lines[e.line - 1];
        assert!(
            at.contains("```") || at.contains("~~~"),
            "a block error should point at its fence, line {} is {at:?}: {e}",
            e.line
        );
    }
}

fn parse_checked(name: &str, text: &str) -> Option<Lesson> {
    match parse_lesson(name, text) {
        Ok(l) => Some(l),
        Err(e) => {
            check_error(name, text, &e);
            None
        }
    }
}

/// Which built-in lesson to mutate (any number: `parse_mutant` takes it modulo their count)
/// and a list of `mutations` of a length in `count`.
fn mutant(count: std::ops::Range<usize>) -> impl Strategy<Value = (usize, Vec<Mutation>)> {
    (any::<usize>(), prop::collection::vec(mutation(), count))
}

/// Lesson number `which` (modulo how many there are) with `mutations` applied, through
/// `parse_checked`: the lesson when the mutant still loads.
fn parse_mutant(which: usize, mutations: &[Mutation]) -> Option<Lesson> {
    let (name, text) = &sources()[which % sources().len()];
    parse_checked(name, &apply(text, mutations))
}

fn draw(app: &App, w: u16, h: u16) {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(|f| f.render_widget(app, f.area())).unwrap();
}

/// A lesson that loads must also lay out and draw, with its cards focused and opened.
fn render(lesson: Lesson) {
    let catalog = Catalog {
        lessons: vec![lesson],
        set: cudatutor::progress::BUILTIN_SET.to_string(),
    };
    let mut app = fresh_app(catalog, None);
    for (w, h) in [(80, 24), (23, 7)] {
        draw(&app, w, h);
        for code in [
            KeyCode::Tab,
            KeyCode::Char('h'),
            KeyCode::Char('1'),
            KeyCode::Tab,
            KeyCode::Char('G'),
            KeyCode::Char('{'),
            KeyCode::Esc,
        ] {
            app.handle_event(&Event::Key(KeyEvent::new(code, KeyModifiers::NONE)));
            app.quit = false;
            draw(&app, w, h);
        }
    }
}

/// Where proptest keeps the failing inputs it found, replayed first on every run.
const REGRESSIONS: &str = "tests/corpus/proptest-regressions/fuzz_loader.txt";

proptest! {
    #![proptest_config(fuzz::config(256, REGRESSIONS))]

    #[test]
    fn mutated_lessons_never_panic_and_name_file_and_line(
        (which, mutations) in mutant(1..8),
    ) {
        parse_mutant(which, &mutations);
    }

    #[test]
    fn random_bytes_after_a_front_matter(body in prop::collection::vec(any::<u8>(), 0..600)) {
        let mut text = String::from("+++\nid = \"r\"\ntitle = \"R\"\norder = 1\n+++\n");
        text.push_str(&String::from_utf8_lossy(&body));
        parse_checked("random.md", &text);
    }

    #[test]
    fn fence_soup(lines in prop::collection::vec(proptest::sample::select(BAD_LINES), 0..40)) {
        let text = format!("+++\nid = \"s\"\ntitle = \"S\"\norder = 1\n+++\n{}\n", lines.join("\n"));
        if let Some(lesson) = parse_checked("soup.md", &text) {
            render(lesson);
        }
    }
}

proptest! {
    #![proptest_config(fuzz::config(48, REGRESSIONS))]

    /// Mutants that still load are drawn too (slower, so fewer cases).
    #[test]
    fn mutated_lessons_that_load_also_draw(
        (which, mutations) in mutant(1..4),
    ) {
        if let Some(lesson) = parse_mutant(which, &mutations) {
            render(lesson);
        }
    }

    /// Through the folder loader, with raw bytes: invalid UTF-8 is reported with a line too.
    #[test]
    fn lesson_folders_with_raw_mutated_bytes(
        which in any::<usize>(),
        edits in prop::collection::vec((any::<usize>(), any::<u8>()), 1..6),
    ) {
        let (_, text) = &sources()[which % sources().len()];
        let mut bytes = text.as_bytes().to_vec();
        for (p, b) in edits {
            let p = p % bytes.len();
            bytes[p] = b;
        }
        let dir = std::env::temp_dir().join(format!("cudatutor-fuzz-loader-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("01-mutant.md");
        std::fs::write(&path, &bytes).unwrap();
        let result = Catalog::from_dir(&dir);
        let _ = std::fs::remove_dir_all(&dir);
        if let Err(errors) = result {
            let name = path.display().to_string();
            let text = String::from_utf8_lossy(&bytes).into_owned();
            for e in &errors {
                check_error(&name, &text, e);
            }
        }
    }
}

/// Each `name.md` in the corpus is rejected exactly as EXPECTED says: `name.md:LINE: fragment`.
#[test]
fn corpus_of_bad_lessons() {
    let dir = Path::new("tests/corpus/lessons");
    let expected = std::fs::read_to_string(dir.join("EXPECTED")).unwrap();
    let mut seen = 0;
    for entry in expected
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let (name, rest) = entry.split_once(':').expect("name:line: fragment");
        let (line, fragment) = rest.split_once(':').expect("name:line: fragment");
        let line: usize = line.trim().parse().unwrap();
        let bytes = std::fs::read(dir.join(name)).unwrap();
        let text = String::from_utf8(bytes).unwrap();
        let e = parse_lesson(name, &text).expect_err(name);
        check_error(name, &text, &e);
        assert_eq!(e.line, line, "{e}");
        assert!(e.message.contains(fragment.trim()), "{e}");
        seen += 1;
    }
    let files = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "md"))
        .count();
    assert_eq!(seen, files, "every corpus lesson has a line in EXPECTED");
}

/// The unmutated lessons load (so the mutations above start from something valid).
#[test]
fn the_sources_themselves_load() {
    for (name, text) in sources() {
        parse_lesson(name, text).unwrap_or_else(|e| panic!("{e}"));
    }
}

/// Regression (found by `fence_soup`): a NUL in an exercise reached a buffer cell and from
/// there the terminal. No cell may hold a control character, focused, editing or not; a tab
/// is drawn as spaces to the next multiple of 4, as the editor does.
#[test]
fn control_characters_never_reach_the_screen() {
    let mut app = app_on("tests/corpus/lessons-draw", Lang::En, Progress::default());
    let keys = [
        KeyCode::Tab,
        KeyCode::Enter,
        KeyCode::Esc,
        KeyCode::Tab,
        KeyCode::Char('1'),
    ];
    for (w, h) in [(80, 24), (120, 40), (30, 10)] {
        for code in keys {
            let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
            terminal.draw(|f| f.render_widget(&app, f.area())).unwrap();
            let buf = terminal.backend().buffer();
            for cell in buf.content() {
                assert!(
                    !cell.symbol().chars().any(char::is_control),
                    "control character {:?} in a cell at {w}x{h}:\n{}",
                    cell.symbol(),
                    terminal.backend()
                );
            }
            app.handle_event(&Event::Key(KeyEvent::new(code, KeyModifiers::NONE)));
            app.quit = false;
        }
    }
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    app.handle_event(&Event::Key(KeyEvent::new(
        KeyCode::BackTab,
        KeyModifiers::NONE,
    )));
    terminal.draw(|f| f.render_widget(&app, f.area())).unwrap();
    let screen = terminal.backend().to_string();
    assert!(
        screen.contains("    y = 1"),
        "the tab is 4 spaces:\n{screen}"
    );
}

/// Regression: a file with a bad byte was reported at line 0, plus a bogus
/// "(built-in lessons):0: no lessons found" when it was the only file.
#[test]
fn a_bad_byte_is_reported_at_its_line_and_alone() {
    let errors = Catalog::from_dir(Path::new("tests/corpus/lessons-bytes")).unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].line, 6, "{}", errors[0]);
    assert!(
        errors[0]
            .to_string()
            .ends_with("01-bad-byte.md:6: not UTF-8 text (the bad byte is at offset 76)"),
        "{}",
        errors[0]
    );
}
