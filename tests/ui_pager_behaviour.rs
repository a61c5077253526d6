//! The pager's behaviour where learners found it wrong: keys act only on what is on screen,
//! nothing quits unless asked, footers and panes say what they show (in Chinese too), the
//! editor keeps its place, and the last run and the reading place survive a restart. One test
//! per reported bug, each on a TestBackend through the App's real entry points (`handle_event`,
//! `tick`, a frame); every one failed on the code before its fix. The App calls these tests
//! make beyond events and drawing are gathered in `api`.

use crossterm::event::{KeyCode, KeyModifiers};
use cudatutor::lesson::{Catalog, Lang};
use cudatutor::progress::{Progress, Store};
use cudatutor::run::{CheckResult, ErrorReport, MemoryReport, RunReport, TimelineEntry};
use cudatutor::ui::{App, Theme};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The App API used besides events and drawing.
mod api {
    use cudatutor::progress::Progress;
    use cudatutor::ui::App;

    pub(crate) fn code(app: &App, id: &str) -> String {
        app.card(id).expect("the exercise exists").code()
    }
    pub(crate) fn progress(app: &App) -> &Progress {
        app.progress()
    }
    pub(crate) fn editing(app: &App) -> bool {
        app.editing()
    }
    pub(crate) fn focus(app: &App) -> Option<usize> {
        app.focus()
    }
}

#[path = "support/pager.rs"]
mod pager;
use pager::{
    Fixed, UntilCancelled, app_on, check_result, ctrl, deck_app, key, press, run_and_wait,
    screen_rows, sim_memory, timeline_entry, times, typed,
};

const FIRST: &str = "deck-counters";

// ----- Runners and reports -----

/// A timeline row with its status (as the engine names it) and, for work on the device, the
/// 512 bytes it holds of 2 MiB reserved.
fn entry(
    line: u32,
    op: &str,
    kind: &str,
    host: (f64, f64),
    dev: Option<(f64, f64)>,
    status: &str,
) -> TimelineEntry {
    TimelineEntry {
        status: status.parse().expect("an event status"),
        allocated: if dev.is_some() { 512 } else { 0 },
        reserved: if dev.is_some() { 2 << 20 } else { 0 },
        ..timeline_entry(line, op, kind, host, dev)
    }
}

fn memory() -> MemoryReport {
    sim_memory(1536, 8 << 20)
}

const CUDA_MESSAGE: &str = "CUDA error: device-side assert triggered\nCUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.";

/// The lesson-3 script's deferred assert, as the engine reports it: the kernel of line 7
/// fails, item() on line 8 reports it.
fn deferred(device_log_lines: usize, source: &str) -> RunReport {
    let log: Vec<String> = (0..device_log_lines.max(1))
        .map(|t| format!("/__w/pytorch/pytorch/aten/src/ATen/native/cuda/Loss.cu:244: nll_loss_forward_reduce_cuda_kernel_2d: block: [0,0,0], thread: [{t},0,0] Assertion `t >= 0 && t < n_classes` failed."))
        .collect();
    let caret = format!("{}{}", " ".repeat(10), "^".repeat(11));
    let traceback = format!(
        "Traceback (most recent call last):\n  File \"exercise.py\", line 8, in <module>\n    {source}\n{caret}\nRuntimeError: {CUDA_MESSAGE}\n"
    );
    RunReport {
        backend: "sim".into(),
        device_name: "Simulated H200 (modelled)".into(),
        modelled: true,
        stderr: format!("{}\n{traceback}", log.join("\n")),
        error: Some(ErrorReport {
            type_name: "RuntimeError".into(),
            message: CUDA_MESSAGE.into(),
            line: Some(8),
            origin_line: Some(7),
            device_log: log,
            traceback,
            ..ErrorReport::default()
        }),
        memory: memory(),
        timeline: vec![
            entry(4, "manual_seed", "host", (0.0, 2.0), None, "ok"),
            entry(5, "randn", "kernel", (3.0, 8.0), Some((9.0, 14.0)), "ok"),
            entry(
                6,
                "randint",
                "kernel",
                (9.0, 13.0),
                Some((14.0, 18.0)),
                "ok",
            ),
            entry(
                7,
                "cross_entropy",
                "kernel",
                (14.0, 22.0),
                Some((22.0, 40.0)),
                "assert",
            ),
            entry(
                8,
                "item",
                "d2h",
                (23.0, 46.5),
                Some((40.0, 41.0)),
                "reported",
            ),
        ],
        ..RunReport::default()
    }
}

/// The same under CUDA_LAUNCH_BLOCKING=1, as the engine records it: the launch of line 7
/// waits for its kernel (a `sync` of line 7) and reports the failure itself.
fn blocking() -> RunReport {
    let mut r = deferred(1, "loss = F.cross_entropy(logits, labels)");
    r.launch_blocking = true;
    r.timeline = vec![
        entry(4, "manual_seed", "host", (0.0, 2.0), None, "ok"),
        entry(5, "randn", "kernel", (3.0, 8.0), Some((9.0, 14.0)), "ok"),
        entry(
            6,
            "randint",
            "kernel",
            (14.0, 18.0),
            Some((18.0, 22.0)),
            "ok",
        ),
        entry(
            7,
            "cross_entropy",
            "kernel",
            (22.0, 28.0),
            Some((31.0, 73.0)),
            "assert",
        ),
        entry(7, "cross_entropy", "sync", (28.0, 73.0), None, "reported"),
    ];
    let e = r.error.as_mut().unwrap();
    e.line = Some(7);
    r
}

// ----- Driving the App -----

fn labels_app(lang: Lang, report: RunReport, progress: Progress) -> App {
    app_on("tests/fixtures/lessons/exercise", lang, progress)
        .with_runner(Arc::new(Fixed(Mutex::new(report))))
}

/// The exercise fixture's pager in English at `w` x `h`, its card run with `report` as the
/// run's report.
fn ran_the_labels_exercise(report: RunReport, w: u16, h: u16) -> App {
    let mut app = labels_app(Lang::En, report, Progress::default());
    screen_rows(&mut app, w, h);
    press(&mut app, KeyCode::Tab);
    run_and_wait(&mut app);
    app
}

/// A pager on the deck at `w` x `h` (its runs report nothing) with the first card's editor open.
fn editing_the_first_card(w: u16, h: u16) -> App {
    let mut app = deck_app(RunReport::default());
    screen_rows(&mut app, w, h);
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Enter);
    app
}

/// In the editor: a new line after the code's last (Ctrl-End, Enter).
fn new_last_line(app: &mut App) {
    key(app, KeyCode::End, KeyModifiers::CONTROL);
    press(app, KeyCode::Enter);
}

/// The first card's code is as `expected` says.
fn assert_first_code(app: &App, expected: impl Fn(&str) -> bool) {
    let code = api::code(app, FIRST);
    assert!(expected(&code), "{code:?}");
}

/// The exercise fixture at 100x30 with its card's run started (`r`) on a runner that goes on
/// until cancelled (ignoring the cancel for `ignore`).
fn running_until_cancelled(ignore: Duration) -> App {
    let mut app = labels_app(Lang::En, RunReport::default(), Progress::default())
        .with_runner(Arc::new(UntilCancelled { ignore }));
    screen_rows(&mut app, 100, 30);
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Char('r'));
    app
}

fn text(rows: &[String]) -> String {
    rows.join("\n")
}

fn footer(rows: &[String]) -> String {
    rows.last().cloned().unwrap_or_default()
}

// ----- Actions on what the learner cannot see -----

/// `lesson 2`, Tab, j x30, x: the footer asked to replace the code of a card no longer on
/// screen, and y replaced it.
#[test]
fn no_key_acts_on_a_card_scrolled_out_of_view() {
    let mut app = editing_the_first_card(100, 30);
    typed(&mut app, "# mine\n");
    press(&mut app, KeyCode::Esc);
    // (arrows: on a focused card `j` is code)
    times(&mut app, KeyCode::Down, 40);
    let rows = screen_rows(&mut app, 100, 30);
    assert!(!text(&rows).contains("import torch\n"), "{}", text(&rows));
    press(&mut app, KeyCode::Char('x'));
    let rows = screen_rows(&mut app, 100, 30);
    assert!(
        !footer(&rows).contains("starting code"),
        "{}",
        footer(&rows)
    );
    press(&mut app, KeyCode::Char('y'));
    assert!(
        api::code(&app, FIRST).starts_with("# mine"),
        "the code was replaced unseen"
    );
    assert_eq!(
        api::focus(&app),
        None,
        "scrolling the card away took its focus"
    );
}

/// G, Shift-Tab, k x40, 1: a quiz answered while off screen.
#[test]
fn a_quiz_out_of_view_cannot_be_answered() {
    let mut app = deck_app(RunReport::default());
    screen_rows(&mut app, 100, 30);
    press(&mut app, KeyCode::Char('G'));
    key(&mut app, KeyCode::BackTab, KeyModifiers::SHIFT);
    times(&mut app, KeyCode::Char('k'), 40);
    press(&mut app, KeyCode::Char('1'));
    assert!(api::progress(&app).quizzes.is_empty(), "answered unseen");
}

/// From 160x50 to 40x12 inside an editor: another card showed, with the editor's footer.
#[test]
fn a_resize_keeps_the_edited_card_on_screen() {
    let mut app = deck_app(RunReport::default());
    screen_rows(&mut app, 160, 50);
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Enter);
    assert!(api::editing(&app));
    let rows = screen_rows(&mut app, 40, 12);
    let all = text(&rows);
    assert!(all.contains("x = torch.ones(3"), "{all}");
    assert!(footer(&rows).contains("Esc"), "{}", footer(&rows));
}

// ----- Leaving by accident -----

#[test]
fn esc_never_quits() {
    let mut app = editing_the_first_card(100, 30);
    times(&mut app, KeyCode::Esc, 3);
    assert!(!app.quit, "Esc Esc Esc from the editor quit");
    // After a failed search.
    press(&mut app, KeyCode::Char('/'));
    typed(&mut app, "no such words anywhere");
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Esc);
    assert!(!app.quit, "Esc after a failed search quit");
}

#[test]
fn ctrl_c_in_the_editor_never_quits() {
    let mut app = editing_the_first_card(100, 30);
    ctrl(&mut app, 'c');
    assert!(!app.quit, "Ctrl-c with nothing selected quit");
    assert!(api::editing(&app));
}

/// q asks while a run is going instead of dropping it.
#[test]
fn q_asks_while_a_run_is_going() {
    let mut app = running_until_cancelled(Duration::ZERO);
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Char('q'));
    assert!(!app.quit, "q quit with a run going");
    let rows = screen_rows(&mut app, 100, 30);
    assert!(footer(&rows).contains("quit?"), "{}", footer(&rows));
    press(&mut app, KeyCode::Char('y'));
    assert!(app.quit);
}

// ----- Runs that do not stop -----

/// Ctrl-c during a run: the footer kept "cancelling…" after the run ended.
#[test]
fn the_footer_tells_the_truth_after_a_cancel() {
    let mut app = running_until_cancelled(Duration::ZERO);
    ctrl(&mut app, 'c');
    let during = text(&screen_rows(&mut app, 100, 30));
    assert!(during.contains("cancelling"), "{during}");
    assert!(app.wait_for_run(Duration::from_secs(10)));
    app.tick(Instant::now());
    let after = text(&screen_rows(&mut app, 100, 30));
    assert!(!after.contains("cancelling"), "{after}");
    assert!(!app.is_running());
}

/// A run that never checks its cancel flag (a long tensor op) had no wall limit: the pager
/// cancels it past the limit and stops waiting for it when it ignores that too.
#[test]
fn every_run_from_the_pager_has_a_wall_limit() {
    let mut app = running_until_cancelled(Duration::from_secs(15));
    assert!(app.is_running());
    let start = Instant::now();
    app.tick(start + Duration::from_secs(30));
    app.tick(start + Duration::from_secs(60));
    assert!(
        !app.is_running(),
        "still waiting for a run past its wall limit"
    );
    let rows = screen_rows(&mut app, 100, 30);
    assert!(footer(&rows).contains("limit"), "{}", footer(&rows));
}

/// The card's first error line said `KeyboardInterrupt:` with a trailing colon.
#[test]
fn keyboard_interrupt_has_no_trailing_colon() {
    let mut app = running_until_cancelled(Duration::ZERO);
    ctrl(&mut app, 'c');
    assert!(app.wait_for_run(Duration::from_secs(10)));
    let all = text(&screen_rows(&mut app, 100, 30));
    assert!(all.contains("✗ KeyboardInterrupt"), "{all}");
    assert!(!all.contains("KeyboardInterrupt:"), "{all}");
}

// ----- Nothing lost by a key -----

/// y to the reset replaced the saved code, and undo in the editor could not bring it back.
#[test]
fn a_reset_can_be_undone_in_the_editor() {
    let mut app = editing_the_first_card(100, 30);
    typed(&mut app, "# mine\n");
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Char('x'));
    press(&mut app, KeyCode::Char('y'));
    assert!(api::code(&app, FIRST).starts_with("import torch"));
    press(&mut app, KeyCode::Enter);
    ctrl(&mut app, 'z');
    assert!(
        api::code(&app, FIRST).starts_with("# mine"),
        "undo lost the code"
    );
}

/// Outputs were lost on quitting.
#[test]
fn the_last_runs_output_survives_a_restart() {
    let dir = std::env::temp_dir().join(format!("cudatutor-pager-output-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = Store::at(&dir);
    let report = deferred(1, "print(loss.item())");
    let mut app =
        labels_app(Lang::En, report.clone(), Progress::default()).with_store(store.clone());
    screen_rows(&mut app, 100, 30);
    press(&mut app, KeyCode::Tab);
    run_and_wait(&mut app);
    press(&mut app, KeyCode::Esc);
    app.remember_place();
    app.tick(Instant::now() + Duration::from_secs(5));
    let before = text(&screen_rows(&mut app, 100, 30));
    assert!(before.contains("RuntimeError: CUDA error"), "{before}");
    let loaded = store.load().progress;
    let mut again = labels_app(Lang::En, RunReport::default(), loaded);
    let after = text(&screen_rows(&mut again, 100, 30));
    assert!(after.contains("RuntimeError: CUDA error"), "{after}");
    assert!(after.contains("▶8"), "the gutter marks came back: {after}");
    let _ = std::fs::remove_dir_all(&dir);
}

// ----- Panes that do not explain -----

/// A traceback wrapped inside the narrow output pane, so the caret pointed at the wrong code.
#[test]
fn the_caret_stays_under_its_source_line() {
    let source = "loss = F.cross_entropy(model_output_for_this_batch, labels_from_the_csv_file)";
    let mut app = labels_app(Lang::En, deferred(1, source), Progress::default());
    screen_rows(&mut app, 80, 30);
    // The lesson list open (it folds away by itself at 80 columns): the narrow pane of the bug.
    press(&mut app, KeyCode::Char('t'));
    press(&mut app, KeyCode::Tab);
    run_and_wait(&mut app);
    let rows = screen_rows(&mut app, 80, 30);
    let at = rows
        .iter()
        .position(|r| r.contains("    loss = F.cross_entropy("))
        .unwrap_or_else(|| panic!("{}", text(&rows)));
    let below = &rows[at + 1];
    let inside: String = below.chars().skip_while(|c| *c != '│').skip(1).collect();
    let inside: String = inside.chars().skip_while(|c| *c != '│').skip(1).collect();
    assert!(
        inside.trim_start().starts_with('^'),
        "the row under the source line is its caret line:\n{}",
        text(&rows)
    );
}

/// With all panes stacked, only the output's last lines showed: the `File …, line N` line
/// and the exception line were hidden.
#[test]
fn short_output_panes_show_the_file_and_exception_lines() {
    let mut report = deferred(12, "print(loss.item())");
    report.checks = (1..=8)
        .map(|n| CheckResult {
            line: n,
            passed: false,
            message: Some(format!("check {n} could not run")),
            ..CheckResult::default()
        })
        .collect();
    let mut app = labels_app(Lang::En, report, Progress::default());
    screen_rows(&mut app, 120, 40);
    press(&mut app, KeyCode::Char('t'));
    press(&mut app, KeyCode::Tab);
    run_and_wait(&mut app);
    let all = text(&screen_rows(&mut app, 120, 40));
    assert!(all.contains("File \"exercise.py\", line 8"), "{all}");
    assert!(all.contains("RuntimeError: CUDA error"), "{all}");
}

/// The timeline looked the same with CUDA_LAUNCH_BLOCKING on and off (the same gap).
#[test]
fn the_timeline_shows_what_blocking_changes() {
    let mut app = ran_the_labels_exercise(blocking(), 100, 30);
    press(&mut app, KeyCode::Char('t'));
    let all = text(&screen_rows(&mut app, 100, 40));
    assert!(!all.contains('╰'), "no gap to join under blocking:\n{all}");
    assert!(all.contains("no gap"), "{all}");
}

/// Marks without their line (the report's ✗ among them), labels drifting away, no legend,
/// the explanation cut.
#[test]
fn every_timeline_mark_is_labelled_and_the_glyphs_explained() {
    for width in [80u16, 100, 160] {
        let mut app = ran_the_labels_exercise(deferred(1, "print(loss.item())"), width, 40);
        press(&mut app, KeyCode::Char('t'));
        let rows = screen_rows(&mut app, width, 40);
        let all = text(&rows);
        let host = rows
            .iter()
            .find(|r| r.contains("host "))
            .expect("host lane");
        let above = &rows[rows.iter().position(|r| r == host).unwrap() - 1];
        let host: Vec<char> = host.chars().collect();
        let above: Vec<char> = above.chars().collect();
        let unlabelled = all.contains("too close to label");
        for (x, c) in host.iter().enumerate() {
            if matches!(c, '●' | '✗') {
                assert!(
                    unlabelled || above.get(x).is_some_and(char::is_ascii_digit),
                    "{width}: the mark at {x} has no line above it:\n{all}"
                );
            }
        }
        let x = host.iter().rposition(|c| *c == '✗').unwrap();
        assert_eq!(
            above[x], '8',
            "{width}: the report's ✗ names line 8:\n{all}"
        );
        assert!(all.contains("● host call"), "{width}: legend:\n{all}");
        assert!(
            all.contains("returned."),
            "{width}: the explanation whole:\n{all}"
        );
        let below = rows.iter().position(|r| r.contains("host ")).unwrap();
        assert!(
            rows[below..].iter().all(|r| !r.contains('…')),
            "{width}: nothing cut:\n{all}"
        );
    }
}

/// The memory sparkline had no line axis, zero was blank, and "peak 8…" was cut.
#[test]
fn the_memory_pane_has_an_axis_a_visible_zero_and_whole_counters() {
    let mut app = ran_the_labels_exercise(deferred(1, "print(loss.item())"), 100, 30);
    press(&mut app, KeyCode::Char('m'));
    let rows = screen_rows(&mut app, 100, 40);
    let all = text(&rows);
    assert!(all.contains("peak 8.00 MiB"), "{all}");
    let allocated = rows
        .iter()
        .find(|r| r.contains("allocated ·"))
        .unwrap_or_else(|| panic!("zero drawn as ·:\n{all}"));
    assert!(allocated.contains('█'), "{all}");
    let axis = rows
        .iter()
        .find(|r| r.contains("line ") && r.contains(" 4 ") && r.contains(" 8"))
        .unwrap_or_else(|| panic!("an axis of script lines:\n{all}"));
    assert!(axis.contains('5') && axis.contains('7'), "{axis}");
}

/// The checks pane showed the check's source, expected values included.
#[test]
fn the_checks_pane_shows_messages_not_sources() {
    let report = RunReport {
        ok: true,
        checks: vec![
            check_result(
                1,
                "assert torch.cuda.memory_allocated() == 2048, \"count again\"",
                false,
                Some("count again"),
            ),
            check_result(
                2,
                "assert predicted > 0, \"predict a number of bytes\"",
                true,
                None,
            ),
        ],
        ..RunReport::default()
    };
    let mut app = deck_app(report);
    screen_rows(&mut app, 100, 30);
    press(&mut app, KeyCode::Tab);
    run_and_wait(&mut app);
    press(&mut app, KeyCode::Char('c'));
    let all = text(&screen_rows(&mut app, 100, 30));
    assert!(all.contains("✗ count again"), "{all}");
    assert!(!all.contains("2048"), "{all}");
    assert!(!all.contains("assert "), "{all}");
}

// ----- Smaller -----

#[test]
fn ctrl_home_and_ctrl_end_go_to_the_ends_of_the_code() {
    let mut app = editing_the_first_card(100, 30);
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Right);
    key(&mut app, KeyCode::End, KeyModifiers::CONTROL);
    typed(&mut app, "Z");
    assert_first_code(&app, |code| code.ends_with("allocated())Z"));
    key(&mut app, KeyCode::Home, KeyModifiers::CONTROL);
    typed(&mut app, "A");
    assert_first_code(&app, |code| code.starts_with("Aimport torch"));
}

#[test]
fn the_editor_comes_back_from_the_side_once_the_line_is_short() {
    let mut app = editing_the_first_card(80, 30);
    new_last_line(&mut app);
    typed(&mut app, &format!("s = '{}'", "w".repeat(80)));
    screen_rows(&mut app, 80, 30);
    times(&mut app, KeyCode::Backspace, 80);
    let all = text(&screen_rows(&mut app, 80, 30));
    assert!(all.contains("5 s = 'w "), "{all}");
}

#[test]
fn backspace_in_indentation_goes_back_one_indent_stop() {
    let mut app = editing_the_first_card(100, 30);
    new_last_line(&mut app);
    typed(&mut app, "if x:");
    press(&mut app, KeyCode::Enter);
    typed(&mut app, "    ");
    press(&mut app, KeyCode::Backspace);
    typed(&mut app, "y");
    assert_first_code(&app, |code| code.ends_with("if x:\n    y"));
}

/// Code blocks were cut with … and could not scroll sideways.
#[test]
fn code_blocks_scroll_sideways() {
    let mut app = deck_app(RunReport::default());
    screen_rows(&mut app, 80, 24);
    press(&mut app, KeyCode::Char('/'));
    typed(&mut app, "some_function");
    press(&mut app, KeyCode::Enter);
    let rows = screen_rows(&mut app, 80, 24);
    assert!(!text(&rows).contains("the_end_of_the_line)"));
    times(&mut app, KeyCode::Right, 20);
    let all = text(&screen_rows(&mut app, 80, 24));
    assert!(all.contains("the_end_of_the_line)"), "{all}");
}

#[test]
fn table_cells_do_not_break_inside_identifiers() {
    let mut app = deck_app(RunReport::default());
    for (w, h) in [(80, 60), (100, 60), (120, 60)] {
        screen_rows(&mut app, w, h);
        press(&mut app, KeyCode::Char('/'));
        typed(&mut app, "what it returns");
        press(&mut app, KeyCode::Enter);
        let all = text(&screen_rows(&mut app, w, h));
        assert!(all.contains("torch.cuda.memory_allocated()"), "{w}:\n{all}");
        assert!(all.contains("torch.cuda.memory_reserved()"), "{w}:\n{all}");
        press(&mut app, KeyCode::Esc);
    }
}

/// Tab scrolled the card to the top, hiding its goal.
#[test]
fn tab_keeps_the_cards_goal_in_view() {
    let mut app = deck_app(RunReport::default());
    screen_rows(&mut app, 80, 24);
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Tab);
    let all = text(&screen_rows(&mut app, 80, 24));
    assert!(all.contains("Exercise deck-two-fixes"), "{all}");
    assert!(all.contains("Goal: make y the sum"), "{all}");
}

/// The restored position after a restart was ~20 lines off.
#[test]
fn the_place_is_restored_exactly_after_a_restart() {
    let mut app = labels_app(
        Lang::En,
        deferred(1, "print(loss.item())"),
        Progress::default(),
    );
    screen_rows(&mut app, 100, 24);
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Char('h'));
    press(&mut app, KeyCode::Char('h'));
    run_and_wait(&mut app);
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Char('G'));
    times(&mut app, KeyCode::Char('k'), 3);
    let before = screen_rows(&mut app, 100, 24);
    app.remember_place();
    let saved = api::progress(&app).clone();
    let json = serde_json::to_string(&saved).unwrap();
    let loaded: Progress = serde_json::from_str(&json).unwrap();
    let mut again = labels_app(Lang::En, RunReport::default(), loaded);
    let after = screen_rows(&mut again, 100, 24);
    assert_eq!(
        before[1..8],
        after[1..8],
        "{}\n----\n{}",
        text(&before),
        text(&after)
    );
}

/// The lesson list could not be driven from the keyboard.
#[test]
fn the_lesson_list_works_from_the_keyboard() {
    let mut app = app_on("tests/fixtures/lessons/good", Lang::En, Progress::default());
    screen_rows(&mut app, 80, 24);
    press(&mut app, KeyCode::Char('l'));
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Enter);
    let rows = screen_rows(&mut app, 80, 24);
    assert!(rows[0].contains("2/2 Labels out of range"), "{}", rows[0]);
}

/// After a reset the old output and gutter marks stayed.
#[test]
fn a_reset_clears_the_old_output_and_marks() {
    let mut app = ran_the_labels_exercise(deferred(1, "print(loss.item())"), 100, 30);
    assert!(text(&screen_rows(&mut app, 100, 30)).contains("▶8"));
    press(&mut app, KeyCode::Char('x'));
    press(&mut app, KeyCode::Char('y'));
    let all = text(&screen_rows(&mut app, 100, 30));
    assert!(!all.contains("▶8"), "{all}");
    assert!(!all.contains("RuntimeError"), "{all}");
}

/// During a search the footer still said "n/p lesson".
#[test]
fn a_search_footer_shows_the_search_keys() {
    let mut app = deck_app(RunReport::default());
    screen_rows(&mut app, 80, 24);
    press(&mut app, KeyCode::Char('/'));
    typed(&mut app, "filler");
    press(&mut app, KeyCode::Enter);
    let f = footer(&screen_rows(&mut app, 80, 24));
    assert!(!f.contains("lesson"), "{f}");
    assert!(f.contains("n/N"), "{f}");
}

/// A wrong answer, then the right one, counted as correct.
#[test]
fn a_second_answer_never_counts() {
    let mut app = labels_app(Lang::En, RunReport::default(), Progress::default());
    screen_rows(&mut app, 80, 24);
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Char('2'));
    let all = text(&screen_rows(&mut app, 80, 30));
    assert!(all.contains("The answer is 3"), "{all}");
    press(&mut app, KeyCode::Char('3'));
    let state = api::progress(&app)
        .quizzes
        .values()
        .next()
        .cloned()
        .unwrap();
    assert_eq!(state.answer, 2);
    assert!(!state.correct);
}

// ----- Chinese -----

/// Lines started with 。 and ，.
#[test]
fn no_chinese_line_starts_with_a_full_stop_or_comma() {
    let catalog = Catalog::builtin(Lang::Zh).unwrap();
    for lesson in 0..catalog.lessons.len() {
        for w in [50u16, 63, 80, 97, 120] {
            let mut app = App::new(
                Catalog::builtin(Lang::Zh).unwrap(),
                Lang::Zh,
                Theme { color: false },
                Progress::default(),
                Some(lesson),
            );
            press(&mut app, KeyCode::Char('t'));
            let mut seen = 0;
            for _ in 0..200 {
                let rows = screen_rows(&mut app, w, 40);
                for row in &rows[1..rows.len() - 1] {
                    let first = row.trim_start().chars().next();
                    assert!(
                        !matches!(first, Some('。' | '，' | '、' | '；' | '：' | '）')),
                        "lesson {lesson} at {w}: {row}"
                    );
                }
                let before = rows.clone();
                press(&mut app, KeyCode::PageDown);
                seen += 1;
                if screen_rows(&mut app, w, 40) == before {
                    break;
                }
            }
            assert!(seen > 1);
        }
    }
}

/// The help overlay's border broke where a wide character crossed it.
#[test]
fn the_help_border_is_whole_in_chinese() {
    // Lesson 2's contents pane is Chinese, under the box's left border.
    let mut app = App::new(
        Catalog::builtin(Lang::Zh).unwrap(),
        Lang::Zh,
        Theme { color: false },
        Progress::default(),
        Some(1),
    );
    for w in [60u16, 80, 100, 101, 120] {
        screen_rows(&mut app, w, 30);
        press(&mut app, KeyCode::Char('?'));
        let rows = screen_rows(&mut app, w, 30);
        // Each row as its characters at their terminal columns.
        let columns = |row: &str| -> Vec<(usize, char)> {
            let mut col = 0;
            row.chars()
                .map(|c| {
                    let at = col;
                    col += unicode_width::UnicodeWidthChar::width(c)
                        .unwrap_or(0)
                        .max(1);
                    (at, c)
                })
                .collect()
        };
        let at = |row: &str, x: usize| {
            columns(row)
                .into_iter()
                .find(|(c, _)| *c == x)
                .map(|(_, ch)| ch)
        };
        let top = rows.iter().position(|r| r.contains('┌')).expect("the box");
        // The box's own corners: the contents pane left of it has a ┐ of its own.
        let top_row = columns(&rows[top]);
        let left = top_row.iter().find(|(_, ch)| *ch == '┌').unwrap().0;
        let right = top_row
            .iter()
            .find(|(x, ch)| *x > left && *ch == '┐')
            .unwrap()
            .0;
        for row in &rows[top + 1..] {
            if at(row, left) == Some('└') {
                assert_eq!(at(row, right), Some('┘'), "{w}: {row}");
                break;
            }
            assert_eq!(at(row, left), Some('│'), "{w}: {row}");
            assert_eq!(at(row, right), Some('│'), "{w}: {row}");
            // A wide character just left of the box would cover its border on a terminal.
            let straddles = columns(row).into_iter().any(|(x, c)| {
                x + 1 == left && unicode_width::UnicodeWidthChar::width(c) == Some(2)
            });
            assert!(!straddles, "{w}: a wide character over the border: {row}");
        }
        press(&mut app, KeyCode::Esc);
    }
}

/// The footer was cut at 80 columns: every footer keeps whole entries, in both languages.
#[test]
fn footers_fit_eighty_columns_with_whole_entries() {
    for lang in [Lang::En, Lang::Zh] {
        let mut app = labels_app(lang, RunReport::default(), Progress::default());
        let mut contexts = Vec::new();
        contexts.push((
            "pager",
            footer(&screen_rows(&mut app, 80, 24)),
            footer(&screen_rows(&mut app, 220, 24)),
        ));
        press(&mut app, KeyCode::Tab);
        contexts.push((
            "card",
            footer(&screen_rows(&mut app, 80, 24)),
            footer(&screen_rows(&mut app, 220, 24)),
        ));
        press(&mut app, KeyCode::Enter);
        contexts.push((
            "editor",
            footer(&screen_rows(&mut app, 80, 24)),
            footer(&screen_rows(&mut app, 220, 24)),
        ));
        for (what, narrow, wide) in contexts {
            let narrow = narrow.trim_end().to_string();
            assert!(
                wide.starts_with(&narrow),
                "{lang:?} {what}: {narrow}\n{wide}"
            );
            let rest = &wide[narrow.len()..];
            assert!(
                rest.trim().is_empty() || rest.starts_with("  "),
                "{lang:?} {what}: cut inside an entry: {narrow}|{rest}"
            );
        }
    }
}

#[test]
fn the_backend_label_is_in_chinese() {
    let mut app = labels_app(Lang::Zh, RunReport::default(), Progress::default());
    let rows = screen_rows(&mut app, 100, 30);
    assert!(rows[0].contains("模拟"), "{}", rows[0]);
    assert!(!rows[0].contains("Simulated"), "{}", rows[0]);
}

#[test]
fn the_first_card_on_screen_is_the_one_tab_focuses() {
    let mut app = deck_app(RunReport::default());
    screen_rows(&mut app, 100, 30);
    times(&mut app, KeyCode::Char('j'), 10);
    press(&mut app, KeyCode::Tab);
    let all = text(&screen_rows(&mut app, 100, 30));
    assert!(all.contains("Exercise deck-counters"), "{all}");
    assert_eq!(api::focus(&app), Some(0));
}
