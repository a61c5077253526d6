//! Driving the pager (`cudatutor::ui::App`) in tests as the event loop does: an App on a
//! lesson folder, a runner that answers every run with one fixed report, keys, and the frame
//! drawn at a size the App was told first (tests/ui_*.rs, tests/pager_snapshots.rs).
#![allow(dead_code)]

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use cudatutor::lesson::{Catalog, Lang};
use cudatutor::progress::Progress;
use cudatutor::run::{
    Backend, BackendLabel, CheckResult, DeviceMemory, ErrorReport, MemoryReport, RunOptions,
    RunReport, TimelineEntry,
};
use cudatutor::ui::{App, ExerciseRunner, Theme};
use ratatui::{Terminal, backend::TestBackend};
use std::path::Path;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The keys that move a cursor or the view, in the order the random key tests draw them from
/// (tests/ui_exercise_snapshots.rs, tests/fuzz_tui.rs).
pub(crate) const CURSOR_KEYS: [KeyCode; 8] = [
    KeyCode::Up,
    KeyCode::Down,
    KeyCode::Left,
    KeyCode::Right,
    KeyCode::Home,
    KeyCode::End,
    KeyCode::PageUp,
    KeyCode::PageDown,
];

/// The result of the assert on check line `line` (`source`, its text): passed or not, with the
/// message the learner sees; it raised nothing.
pub(crate) fn check_result(
    line: u32,
    source: &str,
    passed: bool,
    message: Option<&str>,
) -> CheckResult {
    CheckResult {
        source: source.into(),
        line,
        passed,
        message: message.map(Into::into),
        error: None,
    }
}

/// The deck of short lessons most pager tests walk through.
pub(crate) const DECK: &str = "tests/fixtures/lessons/deck";

pub(crate) fn catalog(dir: &str) -> Catalog {
    Catalog::from_dir(Path::new(dir)).unwrap()
}

/// A pager on the lessons of `dir`, without colour, opened at the start.
pub(crate) fn app_on(dir: &str, lang: Lang, progress: Progress) -> App {
    App::new(catalog(dir), lang, Theme { color: false }, progress, None)
}

/// A pager on `catalog` in English, without colour or progress, opened at `lesson` (an index).
pub(crate) fn fresh_app(catalog: Catalog, lesson: Option<usize>) -> App {
    App::new(
        catalog,
        Lang::En,
        Theme { color: false },
        Progress::default(),
        lesson,
    )
}

/// The label of a runner on the simulated backend, with `device` as its device's name.
pub(crate) fn sim_label(device: &str) -> BackendLabel {
    BackendLabel {
        backend: Backend::Sim,
        device: device.into(),
    }
}

/// Returns the report it holds (the last one set) for every run.
pub(crate) struct Fixed(pub Mutex<RunReport>);

impl ExerciseRunner for Fixed {
    fn run(&self, _: &str, _: Option<&str>, _: &RunOptions) -> RunReport {
        self.0.lock().unwrap().clone()
    }
    fn backend_label(&self) -> BackendLabel {
        sim_label("Simulated H200 (modelled)")
    }
}

/// Runs until its cancel flag is set (or `ignore` has passed and the flag is set), then
/// reports the KeyboardInterrupt the engine raises.
pub(crate) struct UntilCancelled {
    pub ignore: Duration,
}

impl ExerciseRunner for UntilCancelled {
    fn run(&self, _: &str, _: Option<&str>, opts: &RunOptions) -> RunReport {
        let cancel = opts.cancel.clone().expect("the UI passes a cancel flag");
        let start = Instant::now();
        while (start.elapsed() < self.ignore || !cancel.load(Ordering::SeqCst))
            && start.elapsed() < Duration::from_secs(20)
        {
            std::thread::sleep(Duration::from_millis(2));
        }
        RunReport {
            stderr: "KeyboardInterrupt\n".into(),
            error: Some(ErrorReport {
                type_name: "KeyboardInterrupt".into(),
                traceback: "KeyboardInterrupt\n".into(),
                ..ErrorReport::default()
            }),
            ..RunReport::default()
        }
    }
    fn backend_label(&self) -> BackendLabel {
        sim_label("test")
    }
}

/// A pager on the deck whose every run reports `report`.
pub(crate) fn deck_app(report: RunReport) -> App {
    app_on(DECK, Lang::En, Progress::default()).with_runner(Arc::new(Fixed(Mutex::new(report))))
}

/// The terminal is `w` x `h` (as the event loop tells the App), then a frame.
pub(crate) fn draw(app: &mut App, w: u16, h: u16) -> Terminal<TestBackend> {
    app.handle_event(&Event::Resize(w, h));
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(|f| f.render_widget(&*app, f.area())).unwrap();
    terminal
}

/// The frame as ratatui's test backend prints it (each row quoted), for snapshots.
pub(crate) fn frame_text(app: &mut App, w: u16, h: u16) -> String {
    format!("{}", draw(app, w, h).backend())
}

/// The frame's rows as the learner reads them: a wide character's blank second cell skipped.
pub(crate) fn screen_rows(app: &mut App, w: u16, h: u16) -> Vec<String> {
    let terminal = draw(app, w, h);
    let buf = terminal.backend().buffer();
    (0..h)
        .map(|y| {
            let mut row = String::new();
            let mut x = 0;
            while x < w {
                let symbol = buf[(x, y)].symbol();
                row.push_str(symbol);
                x += unicode_width::UnicodeWidthStr::width(symbol).max(1) as u16;
            }
            row
        })
        .collect()
}

/// `screen_rows`, one row a line.
pub(crate) fn screen(app: &mut App, w: u16, h: u16) -> String {
    screen_rows(app, w, h).join("\n")
}

pub(crate) fn key(app: &mut App, code: KeyCode, mods: KeyModifiers) {
    app.handle_event(&Event::Key(KeyEvent::new(code, mods)));
}

pub(crate) fn press(app: &mut App, code: KeyCode) {
    key(app, code, KeyModifiers::NONE);
}

pub(crate) fn ctrl(app: &mut App, c: char) {
    key(app, KeyCode::Char(c), KeyModifiers::CONTROL);
}

pub(crate) fn typed(app: &mut App, text: &str) {
    for c in text.chars() {
        press(app, KeyCode::Char(c));
    }
}

pub(crate) fn times(app: &mut App, code: KeyCode, n: usize) {
    for _ in 0..n {
        press(app, code);
    }
}

/// `r` on the focused card, then the report.
pub(crate) fn run_and_wait(app: &mut App) {
    press(app, KeyCode::Char('r'));
    assert!(app.wait_for_run(Duration::from_secs(10)), "the run ended");
}

/// One row of a run's timeline: `kind` as the engine names it ("host", "kernel", "sync"), the
/// host span and, for work on the device, the device span (on device 0); status Ok, no memory.
pub(crate) fn timeline_entry(
    line: u32,
    op: &str,
    kind: &str,
    host: (f64, f64),
    dev: Option<(f64, f64)>,
) -> TimelineEntry {
    TimelineEntry {
        line,
        op: op.into(),
        kind: kind.parse().expect("an event kind"),
        device: dev.map(|_| 0),
        host_us: host.0,
        host_end_us: host.1,
        device_start_us: dev.map(|d| d.0),
        device_end_us: dev.map(|d| d.1),
        status: cudatutor::run::OpStatus::Ok,
        allocated: 0,
        reserved: 0,
    }
}

/// The memory report of a run on the simulated H200: `allocated` and `peak` bytes, 2 MiB
/// reserved, on its one device.
pub(crate) fn sim_memory(allocated: u64, peak: u64) -> MemoryReport {
    MemoryReport {
        allocated,
        reserved: 2 << 20,
        peak_allocated: peak,
        devices: vec![DeviceMemory {
            index: 0,
            name: "Simulated H200 (modelled)".into(),
            allocated,
            reserved: 2 << 20,
            peak_allocated: peak,
            capacity: 80 << 30,
        }],
    }
}
