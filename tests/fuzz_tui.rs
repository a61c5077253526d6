//! The pager under random input: key sequences (printable and any Unicode chars, arrows,
//! PageUp/Down, Tab, Enter, Esc, F1–F12, Ctrl and Alt combos), pastes, mouse clicks and
//! wheel, and resize events, into the App's real entry point (`App::handle_event`, then
//! `tick` and a draw, as `ui::run`'s event loop does) at random terminal sizes from 0x0 up,
//! over every built-in lesson in both languages, with exercises really run (the sim engine
//! through the default runner). Invariants: nothing panics, every frame draws, the editor
//! cursor stays inside its buffer, the lesson index stays in range, the focus is only ever on a
//! card on screen, runs finish, Esc never quits and Ctrl-q (then y when it asks) always does.

#[path = "support/fuzz.rs"]
mod fuzz;
#[path = "support/pager.rs"]
mod pager;
use crossterm::event::{
    Event, KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use cudatutor::lesson::{Catalog, Lang};
use cudatutor::progress::Progress;
use cudatutor::run::{BackendChoice, RunOptions};
use cudatutor::ui::{App, EngineRunner, Theme};
use pager::CURSOR_KEYS;
use proptest::prelude::*;
use ratatui::{Terminal, backend::TestBackend};
use std::sync::Arc;
use std::time::{Duration, Instant};

const SIZES: &[(u16, u16)] = &[
    (0, 0),
    (1, 1),
    (2, 80),
    (80, 2),
    (300, 5),
    (5, 300),
    (40, 12),
    (80, 24),
    (120, 40),
    (250, 80),
];

fn app(lang: Lang, lesson: usize, color: bool) -> App {
    let catalog = Catalog::builtin(lang).expect("built-in lessons load");
    let n = catalog.lessons.len();
    let runner = EngineRunner::new(RunOptions {
        backend: BackendChoice::Sim,
        max_wall: Duration::from_secs(2),
        ..RunOptions::default()
    });
    App::new(
        catalog,
        lang,
        Theme { color },
        Progress::default(),
        Some(lesson % n),
    )
    .with_runner(Arc::new(runner))
}

fn draw(app: &App, (w, h): (u16, u16)) {
    assert_eq!(
        (app.size().width, app.size().height),
        (w, h),
        "the App knows the size it is drawn at"
    );
    let mut terminal = Terminal::new(TestBackend::new(w, h)).expect("terminal");
    terminal
        .draw(|f| f.render_widget(app, f.area()))
        .expect("frame draws");
}

fn invariants(app: &App) {
    assert!(app.pager.current < app.catalog.lessons.len().max(1));
    // A key acts only on a card on screen: the focus is never on a card out of view.
    if let Some(index) = app.focus() {
        let layout = app.layout();
        assert!(
            layout.too_small || layout.card_on_screen(index, app.pager.scroll),
            "card {index} focused but not on screen (scroll {})",
            app.pager.scroll
        );
    }
    for (id, card) in &app.deck.cards {
        let lines = card.lines();
        let (row, col) = card.cursor();
        assert!(
            row < lines.len().max(1),
            "{id}: cursor row {row} of {}",
            lines.len()
        );
        let len = lines.get(row).map_or(0, |l| l.chars().count());
        assert!(col <= len, "{id}: cursor col {col} past {len}");
    }
}

fn key_code() -> impl Strategy<Value = KeyCode> {
    prop_oneof![
        12 => any::<char>().prop_map(KeyCode::Char),
        18 => prop::sample::select(
            "abcdefhijklmnoprstuvwxyzGN0123456789 :()[]{}.,'\"#=+-*/\\%?_<>!@~`\t".chars().collect::<Vec<_>>()
        ).prop_map(KeyCode::Char),
        1 => Just(KeyCode::Char('q')),
        18 => prop::sample::select(
            [
                &[
                    KeyCode::Tab,
                    KeyCode::BackTab,
                    KeyCode::Enter,
                    KeyCode::Backspace,
                    KeyCode::Delete,
                    KeyCode::Insert,
                ][..],
                &CURSOR_KEYS,
                &[KeyCode::Null],
            ]
            .concat()
        ),
        1 => Just(KeyCode::Esc),
        9 => (1u8..=12).prop_map(KeyCode::F),
    ]
}

fn event() -> impl Strategy<Value = Event> {
    let modifiers = prop::sample::select(vec![
        KeyModifiers::NONE,
        KeyModifiers::NONE,
        KeyModifiers::NONE,
        KeyModifiers::SHIFT,
        KeyModifiers::CONTROL,
        KeyModifiers::ALT,
        KeyModifiers::CONTROL | KeyModifiers::SHIFT,
    ]);
    prop_oneof![
        20 => (key_code(), modifiers).prop_map(|(c, m)| Event::Key(KeyEvent::new(c, m))),
        2 => (0usize..SIZES.len()).prop_map(|i| Event::Resize(SIZES[i].0, SIZES[i].1)),
        1 => prop::sample::select(vec![
            "x = 1\n", "\t\tdeep\r\n", "print('é中文')", "", "\n\n\n", "(((((("
        ]).prop_map(|s| Event::Paste(s.to_string())),
        2 => (0u16..300, 0u16..90, 0u8..3).prop_map(|(column, row, k)| Event::Mouse(MouseEvent {
            kind: match k {
                0 => MouseEventKind::ScrollDown,
                1 => MouseEventKind::ScrollUp,
                _ => MouseEventKind::Down(MouseButton::Left),
            },
            column,
            row,
            modifiers: KeyModifiers::NONE,
        })),
    ]
}

/// One session as `ui::run` drives it; returns how many events it took before quitting.
fn session(app: &mut App, events: &[Event], mut size: (u16, u16)) -> usize {
    app.handle_event(&Event::Resize(size.0, size.1));
    draw(app, size);
    for (i, ev) in events.iter().enumerate() {
        if let Event::Resize(w, h) = ev {
            size = (*w, *h);
        }
        let changed = app.handle_event(ev);
        // Runs happen on the runner's thread; finish them here so their reports draw.
        if app.is_running() {
            assert!(app.wait_for_run(Duration::from_secs(30)), "a run finished");
        }
        if app.tick(Instant::now()) || changed {
            draw(app, size);
        }
        invariants(app);
        if app.quit {
            return i + 1;
        }
    }
    events.len()
}

/// Where proptest keeps the failing inputs it found, replayed first on every run.
const REGRESSIONS: &str = "tests/corpus/proptest-regressions/fuzz_tui.txt";

proptest! {
    #![proptest_config(fuzz::config(64, REGRESSIONS))]

    #[test]
    fn random_events_at_random_sizes(
        lesson in 0usize..64,
        zh in any::<bool>(),
        color in any::<bool>(),
        size in 0usize..SIZES.len(),
        events in prop::collection::vec(event(), 1..120),
    ) {
        let lang = if zh { Lang::Zh } else { Lang::En };
        let mut app = app(lang, lesson, color);
        let size = SIZES[size];
        let used = session(&mut app, &events, size);
        prop_assert!(used <= events.len());
        if !app.quit {
            // Esc backs out of whatever is open (editor, card, search, help, a question) and
            // never quits.
            let esc = Event::Key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE));
            for _ in 0..8 {
                session(&mut app, std::slice::from_ref(&esc), size);
                prop_assert!(!app.quit, "Esc quit");
            }
            prop_assert_eq!(app.overlay.clone(), cudatutor::ui::Overlay::None);
            prop_assert!(!app.editing());
            // Ctrl-q always leaves, after a yes when it asks (a run going, work unsaved).
            let quit = Event::Key(KeyEvent::new(KeyCode::Char('q'), KeyModifiers::CONTROL));
            let yes = Event::Key(KeyEvent::new(KeyCode::Char('y'), KeyModifiers::NONE));
            session(&mut app, std::slice::from_ref(&quit), size);
            if !app.quit {
                prop_assert!(app.confirm.is_some(), "Ctrl-q neither quit nor asked");
                session(&mut app, std::slice::from_ref(&yes), size);
            }
            prop_assert!(app.quit, "Ctrl-q, y did not quit");
        }
    }
}

/// Every exercise of every built-in lesson: focus it, type into the editor, open the hints
/// and the solution, run it, cycle the panes, at the extreme sizes.
#[test]
fn every_exercise_focused_edited_and_run() {
    let mut reports = 0;
    for lang in [Lang::En, Lang::Zh] {
        let n = Catalog::builtin(lang).unwrap().lessons.len();
        for lesson in 0..n {
            let mut app = app(lang, lesson, true);
            let exercises = app.catalog.lessons[lesson].exercises.len();
            let key = |c: KeyCode| Event::Key(KeyEvent::new(c, KeyModifiers::NONE));
            let mut events = Vec::new();
            for _ in 0..exercises {
                events.extend([
                    key(KeyCode::Tab),
                    key(KeyCode::Char('h')),
                    key(KeyCode::F(2)),
                    key(KeyCode::Char('s')),
                    key(KeyCode::Char('y')),
                    key(KeyCode::Enter),
                    Event::Key(KeyEvent::new(KeyCode::End, KeyModifiers::CONTROL)),
                    key(KeyCode::Enter),
                    Event::Paste("s = 'x' * 10**10\n".into()),
                    key(KeyCode::F(5)),
                    key(KeyCode::Esc),
                    key(KeyCode::Char('o')),
                    key(KeyCode::Char('m')),
                    key(KeyCode::Char('t')),
                    key(KeyCode::F(5)),
                ]);
            }
            for &size in &[(0, 0), (1, 1), (2, 80), (300, 5), (100, 30)] {
                events.push(Event::Resize(size.0, size.1));
                events.push(key(KeyCode::PageDown));
            }
            let used = session(&mut app, &events, (100, 30));
            assert_eq!(used, events.len(), "lesson {lesson} quit early");
            for id in app.catalog.lessons[lesson].exercises.iter().map(|e| &e.id) {
                let card = &app.deck.cards[id];
                if let Some(r) = &card.report {
                    reports += 1;
                    // The pasted line raises MemoryError, a clean Python error.
                    if let Some(e) = &r.error {
                        assert!(
                            !e.type_name.is_empty() && !e.message.contains("internal error"),
                            "{e:?}"
                        );
                    }
                }
            }
        }
    }
    assert!(reports > 10, "only {reports} exercises ran");
}
