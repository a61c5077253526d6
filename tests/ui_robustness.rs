//! The pager keeps the learner's work: a panic inside a run is the run's internal error (no hook sees
//! it, the code is untouched), a run saves the pending edit first, two pagers on one data
//! folder keep each other's edits, and a real engine run gets the exercise's context (the
//! prediction stays hidden). The terminal side (modes after panics and signals) is in
//! tmux_e2e.rs.

use crossterm::event::{KeyCode, KeyModifiers};
use cudatutor::lesson::{Catalog, Lang};
use cudatutor::progress::Store;
use cudatutor::run::{BackendChoice, BackendLabel, RunOptions, RunReport};
use cudatutor::ui::{App, EngineRunner, ExerciseRunner, Theme};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

#[path = "support/cli.rs"]
mod cli;
#[path = "support/pager.rs"]
mod pager;
use pager::{DECK, catalog, check_result, fresh_app, key, press, screen, sim_label, typed};

const FIRST: &str = "deck-counters";
const SECOND: &str = "deck-two-fixes";

fn temp_dir(name: &str) -> PathBuf {
    cli::scratch_dir("uirob", name)
}

/// A pager on the deck with its progress in `dir`, as `cudatutor --lessons` starts one.
fn pager_on(dir: &Path, runner: Arc<dyn ExerciseRunner>) -> App {
    let store = Store::at(dir);
    let progress = store.load().progress;
    App::new(
        catalog(DECK),
        Lang::En,
        Theme { color: false },
        progress,
        None,
    )
    .with_runner(runner)
    .with_store(store)
}

/// A pager as `pager_on` makes it, drawn at 100x30 with its first exercise card focused (Tab):
/// a learner about to edit or run that exercise.
fn pager_on_first_card(dir: &Path, runner: Arc<dyn ExerciseRunner>) -> App {
    let mut app = pager_on(dir, runner);
    screen(&mut app, 100, 30);
    press(&mut app, KeyCode::Tab);
    app
}

/// Types `text` at the top of the focused card's code.
fn edit_focused(app: &mut App, text: &str) {
    press(app, KeyCode::Enter);
    key(app, KeyCode::Home, KeyModifiers::CONTROL);
    typed(app, text);
    press(app, KeyCode::Esc);
}

fn saved_code(dir: &Path, id: &str) -> Option<String> {
    Store::at(dir)
        .load()
        .progress
        .exercises
        .get(id)?
        .code
        .clone()
}

struct Panics;

impl ExerciseRunner for Panics {
    fn run(&self, _: &str, _: Option<&str>, _: &RunOptions) -> RunReport {
        let v: Vec<i64> = Vec::new();
        let i = v.len() + 1;
        RunReport {
            stdout: v[i].to_string(),
            ..RunReport::default()
        }
    }
    fn backend_label(&self) -> BackendLabel {
        sim_label("test")
    }
}

struct Quiet;

impl ExerciseRunner for Quiet {
    fn run(&self, _: &str, _: Option<&str>, _: &RunOptions) -> RunReport {
        RunReport {
            ok: true,
            ..RunReport::default()
        }
    }
    fn backend_label(&self) -> BackendLabel {
        sim_label("test")
    }
}

static HOOK_SAW: AtomicUsize = AtomicUsize::new(0);

/// A panic inside a run: the report is an internal error naming the panic, the footer says
/// so, the code in the card and in progress is untouched, and no panic hook of the pager's
/// kind (the one that restores the terminal, then prints) is reached.
#[test]
fn a_panic_in_a_run_is_an_internal_error_that_no_hook_sees() {
    // The pager's hook: the run's panics are recorded by contain::record and go no further.
    std::panic::set_hook(Box::new(|info| {
        if cudatutor::run::contain::record(info) {
            return;
        }
        // A panic of the test itself (a failed assert) is printed as usual.
        if std::thread::current().name() == Some("cudatutor-run") {
            HOOK_SAW.fetch_add(1, Ordering::SeqCst);
        }
        eprintln!("{info}");
    }));
    let dir = temp_dir("panic");
    let mut app = pager_on_first_card(&dir, Arc::new(Panics));
    edit_focused(&mut app, "# mine\n");
    let code = app.card(FIRST).unwrap().code();
    press(&mut app, KeyCode::Char('r'));
    assert!(app.wait_for_run(Duration::from_secs(10)), "the run ended");
    assert_eq!(HOOK_SAW.load(Ordering::SeqCst), 0, "no hook saw the panic");
    let card = app.card(FIRST).unwrap();
    let report = card.report.as_ref().expect("a report");
    let why = report.internal_error.as_deref().expect("an internal error");
    assert!(why.contains("index out of bounds"), "{why}");
    assert!(why.contains("tests/ui_robustness.rs:"), "{why}");
    assert_eq!(card.code(), code, "the code is untouched");
    let s = screen(&mut app, 100, 30);
    assert!(s.contains("Internal error in cudatutor"), "{s}");
    // The pager goes on: keys still edit and runs still start.
    edit_focused(&mut app, "# more\n");
    assert!(
        app.card(FIRST)
            .unwrap()
            .code()
            .starts_with("# more\n# mine")
    );
    app.tick(Instant::now() + Duration::from_secs(1));
    let saved = saved_code(&dir, FIRST).unwrap();
    assert!(saved.starts_with("# more\n# mine\nimport torch"), "{saved}");
    assert!(!saved.contains("internal error"), "{saved}");
    assert!(
        !Store::at(&dir).load().progress.checks.contains_key(FIRST),
        "an internal error is no check result"
    );
}

/// `r` saves the edit made just before it at once, not after the debounce: a run that takes
/// the whole process down (an abort) cannot take the edit with it.
#[test]
fn a_run_saves_the_pending_edit_first() {
    let dir = temp_dir("flush");
    let mut app = pager_on_first_card(&dir, Arc::new(Quiet));
    edit_focused(&mut app, "# just typed\n");
    assert_eq!(saved_code(&dir, FIRST), None, "not yet saved (debounce)");
    press(&mut app, KeyCode::Char('r'));
    let saved = saved_code(&dir, FIRST).expect("saved as the run starts");
    assert!(saved.starts_with("# just typed\n"), "{saved}");
    assert!(app.wait_for_run(Duration::from_secs(10)));
}

/// Two pagers on one data folder, each editing a different exercise: both edits are in the
/// file after both saved, in either order, and a later save of the first keeps the second's.
#[test]
fn two_pagers_on_one_data_dir_keep_both_edits() {
    let dir = temp_dir("two-pagers");
    let (mut a, mut b) = two_windows_after_a_saved(&dir);
    press(&mut b, KeyCode::Tab);
    press(&mut b, KeyCode::Tab);
    assert_eq!(b.focused_exercise().as_deref(), Some(SECOND));
    edit_focused(&mut b, "# from B\n");
    b.tick(Instant::now() + Duration::from_secs(1));
    let first = saved_code(&dir, FIRST).expect("A's edit kept");
    let second = saved_code(&dir, SECOND).expect("B's edit kept");
    assert!(first.starts_with("# from A\n"), "{first}");
    assert!(second.starts_with("# from B\n"), "{second}");
    // A edits again and saves: B's edit stays.
    edit_focused(&mut a, "# again\n");
    a.tick(Instant::now() + Duration::from_secs(1));
    assert!(
        saved_code(&dir, FIRST)
            .unwrap()
            .starts_with("# again\n# from A")
    );
    assert!(saved_code(&dir, SECOND).unwrap().starts_with("# from B\n"));
    // Quitting each saves its place too, and still keeps the other's work.
    // (Esc first: on a focused card `q` is code)
    press(&mut b, KeyCode::Esc);
    press(&mut a, KeyCode::Esc);
    press(&mut b, KeyCode::Char('q'));
    press(&mut a, KeyCode::Char('q'));
    assert!(a.quit && b.quit);
    assert!(
        saved_code(&dir, FIRST)
            .unwrap()
            .starts_with("# again\n# from A")
    );
    assert!(saved_code(&dir, SECOND).unwrap().starts_with("# from B\n"));
}

/// Two pagers editing the same exercise: the save keeps this window's code and the other's is
/// not lost (it is what `u` brings back, in the window and in the file); then the window asks
/// which to keep. `m` keeps mine.
#[test]
fn two_pagers_on_the_same_exercise_lose_neither_edit() {
    let dir = temp_dir("two-pagers-same");
    let (_a, mut b) = two_windows_on_one_exercise(&dir);
    let s = screen(&mut b, 100, 30);
    assert!(
        s.contains("Another window saved other code for deck-counters: keep which?"),
        "{s}"
    );
    assert!(
        s.contains("m mine") && s.contains("t theirs") && s.contains("b both"),
        "{s}"
    );
    let saved = Store::at(&dir).load().progress;
    let code = saved.exercises[FIRST].code.clone().unwrap();
    assert!(code.starts_with("# from B\n"), "{code}");
    let theirs = saved.previous_code.get(FIRST).expect("A's code kept");
    assert!(theirs.starts_with("# from A\n"), "{theirs}");
    // Other keys leave the question up and do nothing.
    press(&mut b, KeyCode::Char('x'));
    press(&mut b, KeyCode::Char('q'));
    assert!(!b.quit);
    assert!(screen(&mut b, 100, 30).contains("keep which?"));
    press(&mut b, KeyCode::Char('m'));
    let s = screen(&mut b, 100, 30);
    assert!(
        s.contains("Kept this window's code for deck-counters"),
        "{s}"
    );
    assert!(b.card(FIRST).unwrap().code().starts_with("# from B\n"));
    // `u` in B brings A's code back, as a swap.
    press(&mut b, KeyCode::Char('u'));
    press(&mut b, KeyCode::Char('y'));
    assert!(b.card(FIRST).unwrap().code().starts_with("# from A\n"));
    // B's later saves do not ask again.
    b.tick(Instant::now() + Duration::from_secs(2));
    assert!(!screen(&mut b, 100, 30).contains("Another window"));
}

/// Two windows (A, B) on `dir`, both loaded and drawn before either saves; then A puts
/// "# from A" at the top of the first exercise and saves it.
fn two_windows_after_a_saved(dir: &Path) -> (App, App) {
    let mut a = pager_on(dir, Arc::new(Quiet));
    let mut b = pager_on(dir, Arc::new(Quiet));
    screen(&mut a, 100, 30);
    screen(&mut b, 100, 30);
    press(&mut a, KeyCode::Tab);
    edit_focused(&mut a, "# from A\n");
    a.tick(Instant::now() + Duration::from_secs(1));
    (a, b)
}

/// A edits and saves deck-counters, then B (loaded before A saved) edits it and saves: B's
/// save finds A's version. Returns both windows, B asking.
fn two_windows_on_one_exercise(dir: &Path) -> (App, App) {
    let (a, mut b) = two_windows_after_a_saved(dir);
    press(&mut b, KeyCode::Tab);
    edit_focused(&mut b, "# from B\n");
    b.tick(Instant::now() + Duration::from_secs(1));
    (a, b)
}

/// `t` takes the other window's code (and `u` brings this window's back); `b` keeps both:
/// this window's code, then the other's commented out under a header. Either is saved.
#[test]
fn a_conflict_can_take_theirs_or_keep_both() {
    let dir = temp_dir("two-pagers-theirs");
    let (_a, mut b) = two_windows_on_one_exercise(&dir);
    press(&mut b, KeyCode::Char('t'));
    let code = b.card(FIRST).unwrap().code();
    assert!(code.starts_with("# from A\n"), "{code}");
    assert!(screen(&mut b, 100, 30).contains("Took the other window's code"));
    b.tick(Instant::now() + Duration::from_secs(2));
    assert!(saved_code(&dir, FIRST).unwrap().starts_with("# from A\n"));
    press(&mut b, KeyCode::Char('u'));
    press(&mut b, KeyCode::Char('y'));
    assert!(b.card(FIRST).unwrap().code().starts_with("# from B\n"));

    let dir = temp_dir("two-pagers-both");
    let (_a, mut b) = two_windows_on_one_exercise(&dir);
    press(&mut b, KeyCode::Char('b'));
    let code = b.card(FIRST).unwrap().code();
    assert!(code.starts_with("# from B\n"), "{code}");
    let header = code
        .find("# ---- the other window's version")
        .expect("the header");
    assert!(code[header..].contains("\n# # from A\n"), "{code}");
    assert!(
        code[header..].lines().skip(1).all(|l| l.starts_with('#')),
        "theirs is commented out: {code}"
    );
    b.tick(Instant::now() + Duration::from_secs(2));
    assert!(saved_code(&dir, FIRST).unwrap().contains("# # from A"));
}

/// The question and its answers in Chinese.
#[test]
fn the_conflict_question_is_asked_in_chinese_too() {
    let dir = temp_dir("two-pagers-zh");
    let (_a, mut b) = two_windows_on_one_exercise(&dir);
    b.lang = Lang::Zh;
    let s = screen(&mut b, 100, 30);
    assert!(
        s.contains("另一个窗口为 deck-counters 保存了不同的代码"),
        "{s}"
    );
    assert!(s.contains("我的") && s.contains("都保留"), "{s}");
    press(&mut b, KeyCode::Char('b'));
    let code = b.card(FIRST).unwrap().code();
    assert!(code.contains("# ---- 另一个窗口的版本"), "{code}");
}

/// A real engine run from the pager carries the exercise's context: lesson 2's l2-counters,
/// run with its starting predictions, shows no counters (the engine set prediction_pending).
#[test]
fn a_real_run_keeps_an_unmade_prediction_hidden() {
    let runner = EngineRunner::new(RunOptions {
        backend: BackendChoice::Sim,
        max_wall: Duration::from_secs(60),
        ..RunOptions::default()
    });
    let mut app =
        fresh_app(Catalog::builtin(Lang::En).unwrap(), Some(1)).with_runner(Arc::new(runner));
    screen(&mut app, 100, 40);
    press(&mut app, KeyCode::Tab);
    assert_eq!(app.focused_exercise().as_deref(), Some("l2-counters"));
    press(&mut app, KeyCode::Char('r'));
    assert!(app.wait_for_run(Duration::from_secs(60)), "the run ended");
    let report = app.card("l2-counters").unwrap().report.clone().unwrap();
    assert!(report.prediction_pending, "{report:?}");
    press(&mut app, KeyCode::Char('o'));
    let s = screen(&mut app, 100, 40);
    assert!(s.contains("Write your prediction first"), "{s}");
    assert!(!s.contains("allocated: 2048"), "{s}");
}

struct AllPass;

impl ExerciseRunner for AllPass {
    fn run(&self, _: &str, _: Option<&str>, _: &RunOptions) -> RunReport {
        RunReport {
            ok: true,
            checks: vec![check_result(1, "assert True", true, Some("fine"))],
            ..RunReport::default()
        }
    }
    fn backend_label(&self) -> BackendLabel {
        sim_label("test")
    }
}

/// A ✓ used to stay in the pager after the code was broken again. The ✓ is now the check
/// record of the code the card holds (Progress::passed): an edit takes it away, undoing the
/// edit brings it back, and it survives a restart only with that code.
#[test]
fn the_tick_follows_the_code_in_the_card() {
    let dir = temp_dir("tick");
    let mut app = pager_on_first_card(&dir, Arc::new(AllPass));
    press(&mut app, KeyCode::Char('r'));
    assert!(app.wait_for_run(Duration::from_secs(10)));
    let ticked = format!("{FIRST} ✓");
    assert!(screen(&mut app, 100, 30).contains(&ticked));
    edit_focused(&mut app, "pass; ");
    let s = screen(&mut app, 100, 30);
    assert!(
        !s.contains(&ticked),
        "no ✓ for code that was never checked:\n{s}"
    );
    // Back to the code that passed: its record counts again.
    press(&mut app, KeyCode::Enter);
    for _ in 0.."pass; ".len() {
        press(&mut app, KeyCode::Backspace);
    }
    press(&mut app, KeyCode::Esc);
    assert!(screen(&mut app, 100, 30).contains(&ticked));
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Char('q'));
    assert!(app.quit);
    let again = pager_on(&dir, Arc::new(AllPass));
    let ex = again.exercise(FIRST).unwrap().clone();
    assert!(again.progress().passed(&ex), "kept with its code");
}
