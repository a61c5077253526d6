//! Live exercise cards in the pager, drawn on a TestBackend from RunReports built here (the
//! data a real run of the fixture would produce): focused, editing, a deferred device-side
//! assert (with and without CUDA_LAUNCH_BLOCKING), a pass, hints, the solution, a quiz, small
//! terminals, and random key sequences that must never panic.

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use cudatutor::lesson::Lang;
use cudatutor::progress::{Progress, Store, quiz_key};
use cudatutor::run::{BackendLabel, ErrorReport, RunOptions, RunReport, TimelineEntry};
use cudatutor::ui::{App, ExerciseRunner};
use proptest::prelude::*;
use std::sync::Arc;
use std::time::{Duration, Instant};

#[path = "support/pager.rs"]
mod pager;
use pager::{
    CURSOR_KEYS, UntilCancelled, app_on, check_result, draw, frame_text, key, press, sim_label,
    sim_memory, timeline_entry, typed,
};

const LABEL: &str = "sim · Simulated H200 (modelled)";
const LABEL_DEVICE: &str = "Simulated H200 (modelled)";
const ID: &str = "labels-range";

fn timeline() -> Vec<TimelineEntry> {
    let mut t = vec![
        timeline_entry(4, "manual_seed", "host", (0.0, 2.0), None),
        timeline_entry(5, "randn", "kernel", (3.0, 8.0), Some((9.0, 14.0))),
        timeline_entry(6, "randint", "kernel", (9.0, 13.0), Some((14.0, 18.0))),
        timeline_entry(
            7,
            "cross_entropy",
            "kernel",
            (14.0, 22.0),
            Some((22.0, 40.0)),
        ),
        timeline_entry(8, "item", "d2h", (23.0, 46.5), Some((40.0, 41.0))),
    ];
    let mut allocated = 0;
    for e in &mut t {
        if e.kind == "kernel" {
            allocated += 512;
        }
        e.allocated = allocated;
        e.reserved = if allocated > 0 { 2 << 20 } else { 0 };
    }
    t
}

const DEVICE_LOG: &str = "/__w/pytorch/pytorch/aten/src/ATen/native/cuda/Loss.cu:244: nll_loss_forward_reduce_cuda_kernel_2d: block: [0,0,0], thread: [4,0,0] Assertion `t >= 0 && t < n_classes` failed.";
const CUDA_MESSAGE: &str = cudatutor::engine::error::CUDA_ASSERT_MESSAGE;

/// Without CUDA_LAUNCH_BLOCKING: the kernel of line 7 fails, item() on line 8 reports it.
fn deferred_assert() -> RunReport {
    let mut timeline = timeline();
    timeline[3].status = cudatutor::run::OpStatus::Assert;
    timeline[4].status = cudatutor::run::OpStatus::Reported;
    let traceback = format!(
        "Traceback (most recent call last):\n  File \"exercise.py\", line 8, in <module>\n    print(loss.item())\n          ^^^^^^^^^^^\ntorch.AcceleratorError: {CUDA_MESSAGE}\n"
    );
    RunReport {
        backend: "sim".into(),
        device_name: "Simulated H200 (modelled)".into(),
        modelled: true,
        launch_blocking: false,
        ok: false,
        exit_status: None,
        stdout: String::new(),
        stderr: format!("{DEVICE_LOG}\n{traceback}"),
        // no write order recorded: the pane shows the device log, then the traceback
        output_order: Vec::new(),
        error: Some(ErrorReport {
            type_name: "AcceleratorError".into(),
            message: CUDA_MESSAGE.into(),
            line: Some(8),
            origin_line: Some(7),
            column: None,
            device_log: vec![DEVICE_LOG.into()],
            traceback,
            detail: None,
        }),
        memory: sim_memory(1536, 1536),
        timeline,
        checks: Vec::new(),
        prediction_pending: false,
        internal_error: None,
        device_usage: None,
        backend_note: None,
    }
}

/// With CUDA_LAUNCH_BLOCKING=1 the launch itself waits, so line 7 both launches and reports.
fn blocking_assert() -> RunReport {
    let mut report = deferred_assert();
    report.launch_blocking = true;
    report.timeline.truncate(4);
    report.timeline[3].status = cudatutor::run::OpStatus::Assert;
    report.timeline[3].host_end_us = 41.0;
    // with launch blocking PyTorch leaves out the two "asynchronously reported" lines
    let message = cudatutor::engine::error::CUDA_ASSERT_MESSAGE_BLOCKING;
    let traceback = format!(
        "Traceback (most recent call last):\n  File \"exercise.py\", line 7, in <module>\n    loss = F.cross_entropy(logits, labels)\ntorch.AcceleratorError: {message}\n"
    );
    report.stderr = format!("{DEVICE_LOG}\n{traceback}");
    let error = report.error.as_mut().unwrap();
    error.line = Some(7);
    error.origin_line = Some(7);
    error.message = message.into();
    error.traceback = traceback;
    report
}

fn passing() -> RunReport {
    RunReport {
        backend: "sim".into(),
        device_name: "Simulated H200 (modelled)".into(),
        modelled: true,
        ok: true,
        stdout: "1.8523\n".into(),
        memory: sim_memory(1536, 1536),
        timeline: timeline(),
        checks: vec![
            check_result(
                1,
                "assert labels.max().item() < 5, \"a label is still >= the number of classes\"",
                true,
                None,
            ),
            check_result(
                2,
                "assert loss.device.type == 'cuda', \"keep the computation on the GPU\"",
                true,
                None,
            ),
        ],
        ..RunReport::default()
    }
}

/// Returns the given reports: the blocking one when the run asks for CUDA_LAUNCH_BLOCKING.
struct Fixed {
    normal: RunReport,
    blocking: RunReport,
}

impl ExerciseRunner for Fixed {
    fn run(&self, _code: &str, _check: Option<&str>, opts: &RunOptions) -> RunReport {
        if opts.launch_blocking {
            self.blocking.clone()
        } else {
            self.normal.clone()
        }
    }

    fn backend_label(&self) -> BackendLabel {
        sim_label(LABEL_DEVICE)
    }
}

fn app_with(normal: RunReport, progress: Progress) -> App {
    app_on("tests/fixtures/lessons/exercise", Lang::En, progress).with_runner(Arc::new(Fixed {
        normal,
        blocking: blocking_assert(),
    }))
}

fn app() -> App {
    app_with(deferred_assert(), Progress::default())
}

/// Focus the exercise card, run it and wait for the report.
fn run_exercise(app: &mut App, width: u16, height: u16) {
    draw(app, width, height);
    press(app, KeyCode::Tab);
    press(app, KeyCode::F(5));
    assert!(app.wait_for_run(Duration::from_secs(5)), "the run finished");
}

#[test]
fn card_focused_100x30() {
    let mut app = app();
    draw(&mut app, 100, 30);
    press(&mut app, KeyCode::Tab);
    assert_eq!(app.focused_exercise().as_deref(), Some(ID));
    let s = frame_text(&mut app, 100, 30);
    assert!(s.contains("Exercise labels-range ·"), "{s}");
    assert!(s.contains(LABEL), "backend label in the status bar: {s}");
    assert!(
        s.contains("Enter edit"),
        "footer lists the card's keys: {s}"
    );
    insta::assert_snapshot!(s);
}

#[test]
fn editing_100x30() {
    let mut app = app();
    draw(&mut app, 100, 30);
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Enter);
    assert!(app.editing());
    // Letters that are commands outside the editor are text inside it.
    typed(&mut app, "# hsxbrtmoq ");
    assert!(!app.quit);
    let s = frame_text(&mut app, 100, 30);
    assert!(s.contains("# hsxbrtmoq import torch"), "{s}");
    assert!(s.contains("Esc leave editor"), "{s}");
    insta::assert_snapshot!(s);
}

#[test]
fn editor_undo_redo_indent_and_tab() {
    let mut app = app();
    draw(&mut app, 100, 30);
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Enter);
    key(&mut app, KeyCode::End, KeyModifiers::CONTROL);
    for _ in 0..12 {
        press(&mut app, KeyCode::Down);
    }
    press(&mut app, KeyCode::End);
    press(&mut app, KeyCode::Enter);
    typed(&mut app, "if True:");
    press(&mut app, KeyCode::Enter);
    typed(&mut app, "x = 1");
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Tab);
    typed(&mut app, "y");
    let code = app.deck.cards[ID].code();
    assert!(
        code.ends_with("print(loss.item())\nif True:\n    x = 1\n        y"),
        "{code:?}"
    );
    key(&mut app, KeyCode::Char('z'), KeyModifiers::CONTROL);
    let undone = app.deck.cards[ID].code();
    assert!(undone.ends_with("    x = 1\n        "), "{undone:?}");
    key(&mut app, KeyCode::Char('y'), KeyModifiers::CONTROL);
    assert_eq!(app.deck.cards[ID].code(), code);
    // Select the last line with Shift+Home, copy, paste it twice.
    key(&mut app, KeyCode::Home, KeyModifiers::SHIFT);
    key(&mut app, KeyCode::Char('c'), KeyModifiers::CONTROL);
    assert!(!app.quit, "Ctrl-c with a selection copies");
    press(&mut app, KeyCode::End);
    key(&mut app, KeyCode::Char('v'), KeyModifiers::CONTROL);
    assert!(app.deck.cards[ID].code().ends_with("        y        y"));
    press(&mut app, KeyCode::Esc);
    assert!(!app.editing());
}

#[test]
fn the_cursor_stays_on_screen_as_the_code_grows() {
    for (w, h) in [(80, 24), (40, 12), (100, 30)] {
        let mut app = app();
        draw(&mut app, w, h);
        press(&mut app, KeyCode::Tab);
        press(&mut app, KeyCode::Enter);
        for _ in 0..8 {
            press(&mut app, KeyCode::Down);
        }
        press(&mut app, KeyCode::End);
        for _ in 0..25 {
            press(&mut app, KeyCode::Enter);
            draw(&mut app, w, h);
        }
        typed(&mut app, "zz");
        let s = frame_text(&mut app, w, h);
        assert!(s.contains("zz"), "{w}x{h}: {s}");
    }
}

#[test]
fn clicking_a_card_focuses_it_and_a_second_click_edits() {
    use crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
    let mut app = app();
    let terminal = draw(&mut app, 100, 30);
    let buf = terminal.backend().buffer();
    let row = (0..30u16)
        .find(|&y| {
            (0..100u16)
                .map(|x| buf[(x, y)].symbol())
                .collect::<String>()
                .contains("import torch")
        })
        .expect("code on screen");
    let click = Event::Mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: 50,
        row,
        modifiers: KeyModifiers::NONE,
    });
    assert!(app.handle_event(&click));
    assert_eq!(app.focused_exercise().as_deref(), Some(ID));
    assert!(!app.editing());
    app.handle_event(&click);
    assert!(app.editing());
}

#[test]
fn bracketed_paste_goes_into_the_editor_verbatim() {
    let mut app = app();
    draw(&mut app, 100, 30);
    // Outside the editor a paste does nothing.
    assert!(!app.handle_event(&Event::Paste("zzz".into())));
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Enter);
    app.handle_event(&Event::Paste("if x:\r\n    y = 1\n".into()));
    assert!(
        app.deck.cards[ID]
            .code()
            .starts_with("if x:\n    y = 1\nimport torch")
    );
    assert!(app.progress().exercises[ID].code.is_some());
}

#[test]
fn failing_deferred_assert_100x30() {
    let mut app = app();
    run_exercise(&mut app, 100, 30);
    let s = frame_text(&mut app, 100, 30);
    assert!(s.contains("▶8"), "reported line marked in the gutter: {s}");
    assert!(s.contains("●7"), "origin line marked in the gutter: {s}");
    assert!(
        s.contains("AcceleratorError: CUDA error: device-side assert triggered"),
        "{s}"
    );
    insta::assert_snapshot!(s);
}

#[test]
fn failing_deferred_assert_120x40() {
    let mut app = app();
    // With the contents pane, the card is too narrow for panes beside the code: below.
    run_exercise(&mut app, 120, 40);
    let below = frame_text(&mut app, 120, 40);
    assert!(below.contains("├──"), "{below}");
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Char('t'));
    press(&mut app, KeyCode::Tab);
    let s = frame_text(&mut app, 120, 40);
    // Wide: the panes sit beside the editor, all four at once.
    for needle in [
        "─ checks",
        "─ output",
        "─ memory",
        "─ timeline",
        "modelled",
        "6.5 µs",
    ] {
        assert!(s.contains(needle), "{needle}: {s}");
    }
    insta::assert_snapshot!(s);
}

#[test]
fn failing_deferred_assert_80x24_panes_cycle() {
    let mut app = app();
    run_exercise(&mut app, 80, 24);
    let output = frame_text(&mut app, 80, 24);
    insta::assert_snapshot!("deferred_80x24_output", output);
    // The end of the traceback shows first; Shift-↑ scrolls back to the device log.
    assert!(!output.contains("/pytorch/aten"), "{output}");
    for _ in 0..30 {
        key(&mut app, KeyCode::Up, KeyModifiers::SHIFT);
    }
    let top = frame_text(&mut app, 80, 24);
    assert!(top.contains("/pytorch/aten"), "{top}");
    for _ in 0..30 {
        key(&mut app, KeyCode::Down, KeyModifiers::SHIFT);
    }
    assert_eq!(frame_text(&mut app, 80, 24), output);
    press(&mut app, KeyCode::Char('t'));
    let timeline = frame_text(&mut app, 80, 24);
    insta::assert_snapshot!("deferred_80x24_timeline", timeline);
    assert!(timeline.contains("host"), "{timeline}");
    assert!(timeline.contains("device"), "{timeline}");
    press(&mut app, KeyCode::Char('m'));
    let memory = frame_text(&mut app, 80, 24);
    insta::assert_snapshot!("deferred_80x24_memory", memory);
    assert!(memory.contains("1.50 KiB"), "{memory}");
    assert!(memory.contains("2.00 MiB"), "{memory}");
}

#[test]
fn failing_with_launch_blocking_120x40() {
    let mut app = app();
    draw(&mut app, 120, 40);
    press(&mut app, KeyCode::Char('t'));
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Char('b'));
    assert_eq!(
        app.blocking_next.as_deref(),
        Some(ID),
        "for this card's next run"
    );
    assert!(frame_text(&mut app, 120, 40).contains("CUDA_LAUNCH_BLOCKING=1"));
    press(&mut app, KeyCode::F(5));
    assert!(app.wait_for_run(Duration::from_secs(5)));
    let report = app.deck.cards[ID].report.clone().unwrap();
    let error = report.error.unwrap();
    assert_eq!(error.line, error.origin_line);
    let s = frame_text(&mut app, 120, 40);
    assert!(
        s.contains("◆7"),
        "one mark when launch and report are the same line: {s}"
    );
    insta::assert_snapshot!(s);
}

#[test]
fn passing_report_100x30() {
    let mut app = app_with(passing(), Progress::default());
    run_exercise(&mut app, 100, 30);
    let exercise = app.exercise(ID).expect("the exercise").clone();
    assert!(
        app.progress().passed(&exercise),
        "the ✓ of the code that ran"
    );
    let s = frame_text(&mut app, 100, 30);
    assert!(s.contains("Exercise labels-range ✓"), "{s}");
    assert!(
        s.contains("✓ 1. Labels out of range"),
        "lesson done in the contents: {s}"
    );
    insta::assert_snapshot!(s);
}

#[test]
fn passing_report_120x40() {
    let mut app = app_with(passing(), Progress::default());
    draw(&mut app, 120, 40);
    press(&mut app, KeyCode::Char('t'));
    run_exercise(&mut app, 120, 40);
    insta::assert_snapshot!(frame_text(&mut app, 120, 40));
}

#[test]
fn hint_revealed_80x24() {
    let mut app = app();
    draw(&mut app, 80, 24);
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Char('h'));
    let s = frame_text(&mut app, 80, 24);
    assert!(s.contains("Hint 1/2"), "{s}");
    assert!(!s.contains("Hint 2/2"), "one at a time: {s}");
    insta::assert_snapshot!(s);
    // In the editor, F2 reveals the next one.
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::F(2));
    assert!(frame_text(&mut app, 80, 40).contains("Hint 2/2"));
}

#[test]
fn solution_shown_100x30() {
    let mut app = app();
    draw(&mut app, 100, 30);
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Char('s'));
    let asking = frame_text(&mut app, 100, 30);
    assert!(asking.contains("Show the solution?"), "{asking}");
    press(&mut app, KeyCode::Char('n'));
    assert!(!app.deck.cards[ID].solution_shown);
    press(&mut app, KeyCode::Char('s'));
    press(&mut app, KeyCode::Char('y'));
    assert!(app.deck.cards[ID].solution_shown);
    // (arrows: on a focused card `j` is code)
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Down);
    let s = frame_text(&mut app, 100, 30);
    assert!(s.contains("solution (read-only)"), "{s}");
    insta::assert_snapshot!(s);
}

#[test]
fn reset_asks_then_restores_the_start_code() {
    let mut app = app();
    draw(&mut app, 100, 30);
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Enter);
    typed(&mut app, "oops");
    press(&mut app, KeyCode::Esc);
    assert!(app.progress().exercises[ID].code.is_some());
    press(&mut app, KeyCode::Char('x'));
    assert!(frame_text(&mut app, 100, 30).contains("starting code?"));
    press(&mut app, KeyCode::Char('y'));
    assert!(app.deck.cards[ID].code().starts_with("import torch"));
    assert_eq!(app.progress().exercises[ID].code, None);
}

#[test]
fn quiz_answered_80x24() {
    let mut app = app();
    draw(&mut app, 80, 24);
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Tab);
    assert_eq!(app.focused_quiz(), Some(1));
    press(&mut app, KeyCode::Char('3'));
    let s = frame_text(&mut app, 80, 24);
    assert!(s.contains("Correct."), "{s}");
    assert!(app.progress().quizzes[&quiz_key("labels-live", 1)].correct);
    insta::assert_snapshot!(s);
}

#[test]
fn chinese_strings_in_the_card() {
    let mut app = app_on(
        "tests/fixtures/lessons/exercise",
        Lang::Zh,
        Progress::default(),
    );
    draw(&mut app, 100, 30);
    press(&mut app, KeyCode::Tab);
    let s = frame_text(&mut app, 100, 30);
    assert!(s.contains("练习 labels-range"), "{s}");
    assert!(s.contains("编辑"), "{s}");
}

#[test]
fn chinese_after_a_deferred_assert_100x30() {
    let mut app = app_on(
        "tests/fixtures/lessons/exercise",
        Lang::Zh,
        Progress::default(),
    )
    .with_runner(Arc::new(Fixed {
        normal: deferred_assert(),
        blocking: blocking_assert(),
    }));
    run_exercise(&mut app, 100, 30);
    press(&mut app, KeyCode::Char('t'));
    let s = frame_text(&mut app, 100, 30);
    assert!(s.contains("错误在这一行被报告"), "{s}");
    assert!(s.contains("主机"), "{s}");
    insta::assert_snapshot!(s);
}

#[test]
fn ctrl_c_cancels_a_run_and_the_ui_keeps_drawing() {
    let mut app = app_on(
        "tests/fixtures/lessons/exercise",
        Lang::En,
        Progress::default(),
    )
    .with_runner(Arc::new(UntilCancelled {
        ignore: Duration::ZERO,
    }));
    draw(&mut app, 80, 24);
    press(&mut app, KeyCode::Tab);
    key(&mut app, KeyCode::Char('r'), KeyModifiers::CONTROL);
    assert!(app.is_running());
    // Still responsive: keys and frames while the run is in flight.
    press(&mut app, KeyCode::Down);
    assert!(app.tick(Instant::now()), "the spinner asks for frames");
    let s = frame_text(&mut app, 80, 24);
    assert!(s.contains("running"), "{s}");
    assert!(s.contains("Ctrl-c cancel the run"), "{s}");
    key(&mut app, KeyCode::Char('c'), KeyModifiers::CONTROL);
    assert!(!app.quit, "Ctrl-c cancels the run rather than quitting");
    assert!(app.wait_for_run(Duration::from_secs(5)));
    assert!(!app.is_running());
    let report = app.deck.cards[ID].report.as_ref().unwrap();
    assert_eq!(
        report.error.as_ref().unwrap().type_name,
        "KeyboardInterrupt"
    );
}

#[test]
fn small_40x12_never_panics() {
    let mut app = app();
    insta::assert_snapshot!(frame_text(&mut app, 40, 12));
    run_exercise(&mut app, 40, 12);
    for (w, h) in [
        (40, 12),
        (20, 6),
        (1, 1),
        (41, 13),
        (300, 12),
        (40, 200),
        (119, 12),
        (120, 12),
    ] {
        draw(&mut app, w, h);
        for k in ['o', 'm', 't', 'c', 'h', 's', 'y'] {
            press(&mut app, KeyCode::Char(k));
            draw(&mut app, w, h);
        }
        press(&mut app, KeyCode::Enter);
        typed(&mut app, "xy:");
        press(&mut app, KeyCode::Enter);
        draw(&mut app, w, h);
        press(&mut app, KeyCode::Esc);
    }
    insta::assert_snapshot!("small_40x12_after_run", frame_text(&mut app, 40, 12));
}

#[test]
fn edits_and_answers_are_saved_debounced_and_restored() {
    let dir = std::env::temp_dir().join(format!("cudatutor-ui-progress-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = Store::at(&dir);
    let mut app = app().with_store(store.clone());
    draw(&mut app, 100, 30);
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Enter);
    typed(&mut app, "# mine\n");
    press(&mut app, KeyCode::Esc);
    // Not saved before the debounce, saved after it.
    assert!(!app.tick(Instant::now()) || !store.path().exists());
    assert!(app.busy());
    app.tick(Instant::now() + Duration::from_secs(1));
    assert!(!app.busy());
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Char('3'));
    app.tick(Instant::now() + Duration::from_secs(1));
    // A crash now loses nothing: a new App from what is on disk has the code and the answer.
    let loaded = store.load();
    assert!(loaded.warning.is_none());
    let saved = loaded.progress.exercises[ID].code.clone().unwrap();
    assert!(saved.starts_with("# mine\nimport torch"), "{saved:?}");
    assert!(loaded.progress.quizzes[&quiz_key("labels-live", 1)].correct);
    let restored = app_with(deferred_assert(), loaded.progress);
    assert_eq!(restored.deck.cards[ID].code(), saved);
    let _ = std::fs::remove_dir_all(&dir);
}

fn any_key() -> impl Strategy<Value = KeyEvent> {
    let code = prop_oneof![
        any::<char>().prop_map(KeyCode::Char),
        prop::sample::select(vec![
            'a', 'h', 's', 'x', 'y', 'n', 'b', 'o', 'm', 't', 'c', 'r', 'q', '1', '3', ':', ' ',
            'j', 'k', 'G', '/', '?'
        ])
        .prop_map(KeyCode::Char),
        prop::sample::select(
            [
                &[
                    KeyCode::Tab,
                    KeyCode::BackTab,
                    KeyCode::Enter,
                    KeyCode::Esc,
                    KeyCode::Backspace,
                    KeyCode::Delete,
                ][..],
                &CURSOR_KEYS,
                &[KeyCode::F(2), KeyCode::F(5), KeyCode::F(6)],
            ]
            .concat()
        ),
    ];
    let modifiers = prop::sample::select(vec![
        KeyModifiers::NONE,
        KeyModifiers::NONE,
        KeyModifiers::SHIFT,
        KeyModifiers::CONTROL,
        KeyModifiers::ALT,
    ]);
    (code, modifiers).prop_map(|(c, m)| KeyEvent::new(c, m))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
    #[test]
    fn random_keys_at_random_sizes_never_panic(
        keys in prop::collection::vec(any_key(), 1..60),
        sizes in prop::collection::vec((1u16..160, 1u16..60), 1..4),
    ) {
        let mut app = app();
        for (i, k) in keys.iter().enumerate() {
            // Never let the sequence quit early: q / Esc / Ctrl-c would end the session.
            app.quit = false;
            let (w, h) = sizes[i % sizes.len()];
            app.handle_event(&Event::Key(*k));
            app.wait_for_run(Duration::from_secs(5));
            app.tick(Instant::now());
            draw(&mut app, w, h);
        }
    }
}
