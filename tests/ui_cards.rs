//! The pager's cards beyond tests/ui_pager_behaviour.rs: predictions that hide the answer, the
//! code a reset replaced brought back with `u`, quitting that asks, the key table behind the
//! help, the lesson list, the output pane scrolled sideways, a report from older code, clicks
//! in the contents pane, and a real engine run cancelled from the pager.

use crossterm::event::{
    Event, KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use cudatutor::lesson::{Catalog, Lang};
use cudatutor::progress::Progress;
use cudatutor::run::{
    BackendChoice, BackendLabel, ErrorReport, MemoryReport, RunOptions, RunReport, TimelineEntry,
};
use cudatutor::ui::{App, EngineRunner, ExerciseRunner, Theme, keys};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[path = "support/cli.rs"]
mod cli;
#[path = "support/diff_report.rs"]
mod diff_report;
use diff_report::comparison;
#[path = "support/pager.rs"]
mod pager;
use pager::{
    app_on, check_result, deck_app, fresh_app, key, press, run_and_wait, screen, sim_label, typed,
};

const FIRST: &str = "deck-counters";

fn counters_report(pending: bool) -> RunReport {
    let traceback = "Traceback (most recent call last):\n  File \"exercise.py\", line 4, in <module>\n    print(torch.cuda.memory_allocated())\nRuntimeError: boom\n".to_string();
    RunReport {
        modelled: true,
        stdout: "512\n".into(),
        stderr: traceback.clone(),
        error: Some(ErrorReport {
            type_name: "RuntimeError".into(),
            message: "boom".into(),
            line: Some(4),
            origin_line: Some(2),
            traceback,
            ..ErrorReport::default()
        }),
        memory: MemoryReport {
            allocated: 512,
            reserved: 2 << 20,
            peak_allocated: 512,
            devices: Vec::new(),
        },
        timeline: vec![TimelineEntry {
            line: 2,
            op: "randn".into(),
            kind: "kernel".parse().expect("an event kind"),
            host_us: 1.0,
            host_end_us: 2.0,
            device_start_us: Some(3.0),
            device_end_us: Some(4.0),
            allocated: 512,
            reserved: 2 << 20,
            ..TimelineEntry::default()
        }],
        prediction_pending: pending,
        ..RunReport::default()
    }
}

/// While a predicted name still has its starting value, the run shows nothing that answers
/// it: not the output, the traceback's lines, the timeline, the counters, the gutter marks.
/// `app` drawn at 100x30 with its first exercise card focused (Tab), as a learner about to
/// work on it.
fn on_first_card(mut app: App) -> App {
    screen(&mut app, 100, 30);
    press(&mut app, KeyCode::Tab);
    app
}

/// The deck's first exercise, asking for a prediction (`predicted`), run on its card: the run
/// reports the prediction still to be made (`pending`) or made.
fn ran_the_predicting_exercise(pending: bool) -> App {
    let mut app = deck_app(counters_report(pending));
    app.catalog.lessons[0].exercises[0].predict = vec!["predicted".into()];
    let mut app = on_first_card(app);
    run_and_wait(&mut app);
    app
}

/// Each result pane (`o` output, `m` memory, `t` timeline) opened in turn and drawn at
/// 100x40: `check` is given the pane's key and the screen.
fn in_each_pane(app: &mut App, mut check: impl FnMut(char, &str)) {
    for pane in ['o', 'm', 't'] {
        press(app, KeyCode::Char(pane));
        check(pane, &screen(app, 100, 40));
    }
}

/// Types `text` into the focused card's editor (Enter opens it, Esc leaves it).
fn edit_focused(app: &mut App, text: &str) {
    press(app, KeyCode::Enter);
    typed(app, text);
    press(app, KeyCode::Esc);
}

#[test]
fn a_pending_prediction_hides_the_answer() {
    let mut app = ran_the_predicting_exercise(true);
    in_each_pane(&mut app, |pane, s| {
        assert!(s.contains("Write your prediction first"), "{pane}: {s}");
        assert!(s.contains("`predicted`"), "{pane}: {s}");
        for answer in ["512", "line 4", "▶4", "●2", "2.00 MiB", "host "] {
            assert!(!s.contains(answer), "{pane}: {answer} shows:\n{s}");
        }
    });
    // Once predicted, the same run shows everything.
    let mut app = ran_the_predicting_exercise(false);
    let s = screen(&mut app, 100, 40);
    assert!(s.contains("512") && s.contains("▶4"), "{s}");
}

/// A reset keeps the code it replaced; `u` brings it back (as a swap), also after a restart.
#[test]
fn u_brings_back_the_code_a_reset_replaced() {
    let mut app = on_first_card(deck_app(RunReport::default()));
    press(&mut app, KeyCode::Char('u'));
    assert!(screen(&mut app, 100, 30).contains("No earlier code"));
    edit_focused(&mut app, "# mine\n");
    press(&mut app, KeyCode::Char('x'));
    assert!(screen(&mut app, 100, 30).contains("Replace the code of deck-counters"));
    press(&mut app, KeyCode::Char('y'));
    assert!(app.card(FIRST).unwrap().code().starts_with("import torch"));
    let mine = app.progress().previous_code[FIRST].clone();
    assert!(mine.starts_with("# mine"), "{mine}");
    // A restart: the replaced code is still there to bring back.
    let mut again = App::new(
        app.catalog.clone(),
        Lang::En,
        Theme { color: false },
        app.progress().clone(),
        None,
    );
    screen(&mut again, 100, 30);
    press(&mut again, KeyCode::Tab);
    press(&mut again, KeyCode::Char('u'));
    assert!(screen(&mut again, 100, 30).contains("Bring back the code"));
    press(&mut again, KeyCode::Char('y'));
    assert!(again.card(FIRST).unwrap().code().starts_with("# mine"));
    // The swap: the starting code is what `u` would bring back now.
    assert!(again.progress().previous_code[FIRST].starts_with("import torch"));
}

/// Any key but y answers a question with no, and acts on nothing.
#[test]
fn a_question_is_answered_no_by_any_other_key() {
    let mut app = on_first_card(deck_app(RunReport::default()));
    edit_focused(&mut app, "# mine\n");
    for other in [
        KeyCode::Char('j'),
        KeyCode::Esc,
        KeyCode::Char('n'),
        KeyCode::Char('x'),
    ] {
        press(&mut app, KeyCode::Char('x'));
        press(&mut app, other);
        assert!(app.confirm.is_none() || other == KeyCode::Char('x'));
        assert!(
            app.card(FIRST).unwrap().code().starts_with("# mine"),
            "{other:?}"
        );
        app.confirm = None;
    }
}

/// Ctrl-q asks when the work cannot be saved, and y leaves.
#[test]
fn quitting_asks_when_the_work_would_be_lost() {
    let mut app = deck_app(RunReport::default());
    screen(&mut app, 100, 30);
    key(&mut app, KeyCode::Char('q'), KeyModifiers::CONTROL);
    assert!(app.quit, "nothing to lose: Ctrl-q quits at once");
    let mut app = on_first_card(deck_app(RunReport::default()));
    press(&mut app, KeyCode::Enter);
    typed(&mut app, "# mine");
    key(&mut app, KeyCode::Char('q'), KeyModifiers::CONTROL);
    assert!(!app.quit);
    let s = screen(&mut app, 100, 30);
    assert!(s.contains("not saved (no data folder)"), "{s}");
    press(&mut app, KeyCode::Char('n'));
    assert!(!app.quit);
    key(&mut app, KeyCode::Char('q'), KeyModifiers::CONTROL);
    press(&mut app, KeyCode::Char('y'));
    assert!(app.quit);
}

/// The help overlay lists every key of the key table, the one dispatch reads.
#[test]
fn the_help_lists_every_key_in_the_table() {
    let mut app = deck_app(RunReport::default());
    screen(&mut app, 100, 30);
    press(&mut app, KeyCode::Char('?'));
    let mut seen = String::new();
    for _ in 0..40 {
        seen.push_str(&screen(&mut app, 100, 30));
        press(&mut app, KeyCode::PageDown);
    }
    for (_, bindings) in keys::help_sections() {
        for binding in bindings {
            let text = keys::keys_text(binding);
            assert!(
                seen.contains(&text),
                "{text} ({:?}) not in the help",
                binding.action
            );
        }
    }
    press(&mut app, KeyCode::Esc);
    assert!(!screen(&mut app, 100, 30).contains("┌ Keys"));
}

/// The lesson list: a number opens that lesson; Esc closes it.
#[test]
fn the_lesson_list_opens_a_lesson_by_number() {
    let mut app = app_on("tests/fixtures/lessons/good", Lang::En, Progress::default());
    screen(&mut app, 80, 24);
    press(&mut app, KeyCode::Char('l'));
    assert!(screen(&mut app, 80, 24).contains("┌ Lessons"));
    press(&mut app, KeyCode::Esc);
    assert!(!screen(&mut app, 80, 24).contains("┌ Lessons"));
    press(&mut app, KeyCode::Char('l'));
    press(&mut app, KeyCode::Char('2'));
    assert!(screen(&mut app, 80, 24).contains("2/2 Labels out of range"));
}

/// Clicking a lesson in the contents pane opens that lesson, though the open lesson's
/// sections and exercises are listed above it.
#[test]
fn a_click_on_a_lesson_below_the_open_ones_sections_opens_it() {
    let catalog = Catalog::builtin(Lang::En).unwrap();
    let title = catalog.lessons[3].title.clone();
    let mut app = fresh_app(catalog, Some(2));
    let s = screen(&mut app, 100, 40);
    let row = s
        .lines()
        .position(|l| l.contains(&format!("4. {}", &title[..10])))
        .expect("lesson 4 in the contents");
    app.handle_event(&Event::Mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: 5,
        row: row as u16,
        modifiers: KeyModifiers::NONE,
    }));
    assert_eq!(app.pager.current, 3, "{s}");
}

/// Shift-→ moves a traceback's source line and its caret together.
#[test]
fn the_output_scrolls_sideways_with_its_caret() {
    let source =
        "loss = F.cross_entropy(model_output_for_this_batch, labels_from_the_csv_file_kept)";
    // Under everything from `F.` to the end of the line.
    let caret = format!("{}{}", " ".repeat(11), "^".repeat(4 + source.len() - 11));
    let traceback = format!(
        "Traceback (most recent call last):\n  File \"exercise.py\", line 3, in <module>\n    {source}\n{caret}\nRuntimeError: boom\n"
    );
    let report = RunReport {
        stderr: traceback.clone(),
        error: Some(ErrorReport {
            type_name: "RuntimeError".into(),
            message: "boom".into(),
            traceback,
            ..ErrorReport::default()
        }),
        ..RunReport::default()
    };
    let mut app = deck_app(report);
    screen(&mut app, 80, 30);
    press(&mut app, KeyCode::Tab);
    run_and_wait(&mut app);
    let before = screen(&mut app, 80, 30);
    assert!(!before.contains("kept)"), "{before}");
    for _ in 0..6 {
        key(&mut app, KeyCode::Right, KeyModifiers::SHIFT);
    }
    let after = screen(&mut app, 80, 30);
    assert!(after.contains("kept)"), "{after}");
    let rows: Vec<&str> = after.lines().collect();
    let at = rows.iter().position(|r| r.contains("kept)")).unwrap();
    let col = rows[at].find("kept)").unwrap();
    assert_eq!(&rows[at + 1][col..col + 5], "^^^^^", "{after}");
}

/// After an edit, the report says it is from the code as it was.
#[test]
fn a_report_from_older_code_says_so() {
    let mut app = on_first_card(deck_app(counters_report(false)));
    run_and_wait(&mut app);
    assert!(!screen(&mut app, 100, 30).contains("as it was at that run"));
    press(&mut app, KeyCode::Enter);
    typed(&mut app, "# edit");
    assert!(screen(&mut app, 100, 30).contains("as it was at that run"));
}

/// While a run is going, the footer names it and its cancel key, and only then.
#[test]
fn the_footer_names_the_run_in_flight() {
    struct Slow;
    impl ExerciseRunner for Slow {
        fn run(&self, _: &str, _: Option<&str>, _: &RunOptions) -> RunReport {
            std::thread::sleep(Duration::from_millis(300));
            RunReport::default()
        }
        fn backend_label(&self) -> BackendLabel {
            sim_label("test")
        }
    }
    let mut app = on_first_card(deck_app(RunReport::default()).with_runner(Arc::new(Slow)));
    press(&mut app, KeyCode::Char('r'));
    let s = screen(&mut app, 100, 30);
    let footer = s.lines().last().unwrap();
    assert!(footer.contains("deck-counters running"), "{footer}");
    assert!(footer.contains("Ctrl-c cancel the run"), "{footer}");
    assert!(app.wait_for_run(Duration::from_secs(5)));
    let s = screen(&mut app, 100, 30);
    let footer = s.lines().last().unwrap();
    assert!(
        !footer.contains("running") && !footer.contains("cancel"),
        "{footer}"
    );
}

/// A real run of a long tensor loop on the sim engine, cancelled from the pager with Ctrl-c:
/// it ends, with KeyboardInterrupt, and the pager is free again. (How fast the engine notices
/// is the engine's own test; this bound only catches a run that does not stop.)
#[test]
fn a_real_engine_run_stops_on_ctrl_c() {
    let loop_code = "import torch\na = torch.randn(256, 256, device='cuda')\nfor i in range(100000):\n    a = (a @ a).tanh()\nprint(a.sum().item())\n";
    let mut catalog = Catalog::from_dir(Path::new("tests/fixtures/lessons/deck")).unwrap();
    catalog.lessons[0].exercises[0].start_code = loop_code.into();
    let runner = EngineRunner::new(RunOptions {
        backend: BackendChoice::Sim,
        max_wall: Duration::from_secs(60),
        ..RunOptions::default()
    });
    let mut app = on_first_card(fresh_app(catalog, None).with_runner(Arc::new(runner)));
    press(&mut app, KeyCode::Char('r'));
    std::thread::sleep(Duration::from_millis(500));
    assert!(app.is_running(), "the loop runs");
    let pressed = Instant::now();
    key(&mut app, KeyCode::Char('c'), KeyModifiers::CONTROL);
    assert!(!app.quit);
    // As the event loop does: tick until the run has ended or been given up on.
    while app.is_running() && pressed.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(20));
        app.tick(Instant::now());
    }
    eprintln!("Ctrl-c to a free pager: {:?}", pressed.elapsed());
    assert!(!app.is_running(), "the run ended after Ctrl-c");
    let s = screen(&mut app, 100, 30);
    assert!(
        s.contains("KeyboardInterrupt") || s.contains("did not stop"),
        "{s}"
    );
    assert!(!s.contains("cancelling"), "{s}");
}

// ----- The pager's own tools: hints counted, output scrolled to its top, D, e -----

/// `h` in the pager reveals a hint and records it for `report` (Progress::record_hint), as
/// `cudatutor hint` does; a hint revealed with `cudatutor hint` shows on the card.
#[test]
fn a_hint_revealed_in_the_pager_is_counted_by_report() {
    let mut app = on_first_card(deck_app(RunReport::default()));
    press(&mut app, KeyCode::Char('h'));
    assert!(screen(&mut app, 100, 30).contains("Hint 1/1"));
    let stats = app.progress().stats.get(FIRST).cloned().unwrap_or_default();
    assert_eq!(stats.hints_revealed, 1, "recorded for report");
    let catalog = Catalog::from_dir(Path::new("tests/fixtures/lessons/deck")).unwrap();
    let report = cudatutor::classroom::report::build(&catalog, app.progress(), &[]);
    let json = serde_json::to_value(&report).unwrap();
    let activity = json["activity"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["exercise"] == FIRST)
        .unwrap()
        .clone();
    assert_eq!(activity["hints_revealed"], 1, "{activity}");
    // Revealed from the command line: the pager shows it too.
    let mut progress = Progress::default();
    progress.record_hint(FIRST, 1);
    let mut app = on_first_card(App::new(
        catalog,
        Lang::En,
        Theme { color: false },
        progress,
        None,
    ));
    assert!(screen(&mut app, 100, 30).contains("Hint 1/1"));
}

/// Output whose lines wrap in the pane: Shift-↑ scrolls back until the first row is at the
/// top, and not further (one Shift-↓ then moves the view). The limit counted unwrapped lines,
/// so the view stopped short of the first rows.
#[test]
fn shift_up_reaches_the_first_row_of_wrapped_output() {
    let long: String = (0..30)
        .map(|i| {
            format!(
                "line {i:02}: {}\n",
                "a long run of words that wraps in every output pane ".repeat(3)
            )
        })
        .collect();
    let report = RunReport {
        stdout: format!("FIRST-ROW of the output\n{long}"),
        ..RunReport::default()
    };
    for (w, h) in [(80, 24), (120, 40)] {
        let mut app = deck_app(report.clone());
        screen(&mut app, w, h);
        press(&mut app, KeyCode::Tab);
        run_and_wait(&mut app);
        let s = screen(&mut app, w, h);
        assert!(s.contains("line 29"), "{w}x{h}: the end shows first:\n{s}");
        assert!(!s.contains("FIRST-ROW"), "{w}x{h}:\n{s}");
        for _ in 0..400 {
            key(&mut app, KeyCode::Up, KeyModifiers::SHIFT);
        }
        let s = screen(&mut app, w, h);
        assert!(
            s.contains("FIRST-ROW"),
            "{w}x{h}: scrolled to the top:\n{s}"
        );
        key(&mut app, KeyCode::Down, KeyModifiers::SHIFT);
        let s = screen(&mut app, w, h);
        assert!(
            !s.contains("FIRST-ROW"),
            "{w}x{h}: the limit is the top, one Shift-↓ moves:\n{s}"
        );
    }
}

/// Returns a fixed comparison for `D` (and its engine report for `r`).
struct Compared(cudatutor::run::diff::DiffReport);

impl ExerciseRunner for Compared {
    fn run(&self, _: &str, _: Option<&str>, _: &RunOptions) -> RunReport {
        self.0.engine.clone()
    }
    fn backend_label(&self) -> BackendLabel {
        sim_label("Simulated H200 (modelled)")
    }
    fn compare(
        &self,
        _: &str,
        _: Option<&str>,
        opts: &RunOptions,
    ) -> cudatutor::run::diff::DiffReport {
        assert!(opts.cancel.is_some(), "a comparison can be cancelled");
        self.0.clone()
    }
}

fn compare_app(lang: Lang, diff: cudatutor::run::diff::DiffReport) -> App {
    app_on("tests/fixtures/lessons/deck", lang, Progress::default())
        .with_runner(Arc::new(Compared(diff)))
}

/// `D` on the first card of a pager whose comparisons give `diff`, in `lang`: the screen once
/// the comparison is in.
fn compared_on_screen(lang: Lang, diff: cudatutor::run::diff::DiffReport) -> String {
    let mut app = on_first_card(compare_app(lang, diff));
    press(&mut app, KeyCode::Char('D'));
    assert!(app.wait_for_run(Duration::from_secs(10)));
    screen(&mut app, 100, 30)
}

/// `D` on a card runs it on both in the background, then shows the comparison over the page:
/// identical, or each differing line with both values; Esc closes it. It is in the key table,
/// so the help lists it and the editor treats `D` as text.
#[test]
fn d_compares_the_exercise_with_real_pytorch() {
    let mut app = on_first_card(compare_app(Lang::En, comparison("512\n", "512\n")));
    press(&mut app, KeyCode::Char('D'));
    assert!(app.is_running(), "D starts in the background");
    assert!(app.wait_for_run(Duration::from_secs(10)));
    let s = screen(&mut app, 100, 30);
    assert!(s.contains("Engine vs. real PyTorch"), "{s}");
    assert!(s.contains("identical: stdout"), "{s}");
    assert!(s.contains("unsandboxed"), "{s}");
    press(&mut app, KeyCode::Esc);
    let s = screen(&mut app, 100, 30);
    assert!(!s.contains("Engine vs. real PyTorch"), "{s}");
    assert_eq!(app.focused_exercise().as_deref(), Some(FIRST));

    let s = compared_on_screen(Lang::En, comparison("512\n", "1024\n"));
    assert!(s.contains("1 difference(s):"), "{s}");
    assert!(s.contains("stdout line 1"), "{s}");
    assert!(s.contains("engine:  \"512\""), "{s}");
    assert!(s.contains("pytorch: \"1024\""), "{s}");

    // In Chinese.
    let s = compared_on_screen(Lang::Zh, comparison("512\n", "1024\n"));
    assert!(s.contains("有 1 处不同"), "{s}");
    assert!(s.contains("标准输出第 1 行"), "{s}");

    // One key table: dispatch, help, and text in the editor.
    let ev = KeyEvent::new(KeyCode::Char('D'), KeyModifiers::SHIFT);
    assert_eq!(
        keys::lookup(keys::Context::Card, false, &ev),
        Some(keys::Action::Compare)
    );
    assert_eq!(keys::lookup(keys::Context::Editor, false, &ev), None);
    let e = KeyEvent::new(KeyCode::Char('e'), KeyModifiers::NONE);
    assert_eq!(
        keys::lookup(keys::Context::Card, false, &e),
        Some(keys::Action::EditOutside)
    );
    let mut app = deck_app(RunReport::default());
    screen(&mut app, 100, 60);
    press(&mut app, KeyCode::Char('?'));
    let mut help = String::new();
    for _ in 0..12 {
        help += &screen(&mut app, 100, 60);
        press(&mut app, KeyCode::PageDown);
    }
    assert!(help.contains("real PyTorch (unsandboxed)"), "{help}");
    assert!(help.contains("your own editor"), "{help}");
}

/// `D` where real PyTorch cannot run (no such Python): the engine side runs for real, and the
/// comparison says plainly that PyTorch could not run, in English and in Chinese.
#[test]
fn d_says_when_real_pytorch_is_unavailable() {
    for (lang, words) in [
        (Lang::En, "real PyTorch could not run the script"),
        (Lang::Zh, "真实的 PyTorch 无法运行这个脚本"),
    ] {
        let runner = EngineRunner::new(RunOptions {
            backend: BackendChoice::Sim,
            python: Some("/nonexistent/cudatutor-test/python3".into()),
            ..RunOptions::default()
        });
        let mut app = app_on("tests/fixtures/lessons/deck", lang, Progress::default())
            .with_runner(Arc::new(runner));
        screen(&mut app, 100, 30);
        press(&mut app, KeyCode::Tab);
        press(&mut app, KeyCode::Char('D'));
        assert!(app.wait_for_run(Duration::from_secs(60)));
        let (_, diff) = app.comparison.as_ref().expect("a comparison");
        assert!(diff.pytorch_failed.is_some());
        assert!(diff.engine.stdout.contains("512"), "the engine ran");
        let s = screen(&mut app, 100, 30);
        assert!(s.contains(words), "{s}");
        assert!(s.contains("/nonexistent/cudatutor-test/python3"), "{s}");
    }
}

fn temp(name: &str) -> std::path::PathBuf {
    cli::scratch_dir("uicards", name)
}

/// `sh` running cli::editor_script (see there).
fn editor_script(dir: &Path, new_code: &str, status: i32) -> String {
    format!("sh {}", cli::editor_script(dir, new_code, status).display())
}

/// `e` on a card: the event loop is asked to hand the terminal over; the editor gets the
/// card's code in `<data dir>/<lesson>/<exercise>.py`; what it saved becomes the card's code
/// (one undo step), is saved to progress.json at once, and the checks run as with `r`. An
/// editor that fails changes nothing and says why.
#[test]
fn e_edits_the_exercise_in_the_learners_editor() {
    let root = temp("e");
    let data = root.join("data");
    let fixed = "import torch\nx = torch.randn(10, device='cuda')\npredicted = 512\nprint(torch.cuda.memory_allocated())";
    let catalog = Catalog::from_dir(Path::new("tests/fixtures/lessons/deck")).unwrap();
    let exercise = catalog.lessons[0].exercises[0].clone();
    let runner = EngineRunner::new(RunOptions {
        backend: BackendChoice::Sim,
        ..RunOptions::default()
    });
    let mut app = fresh_app(catalog, None)
        .with_runner(Arc::new(runner))
        .with_store(cudatutor::progress::Store::at(&data));
    app.edit_cmd = Some(editor_script(&root, fixed, 0));
    screen(&mut app, 100, 30);
    assert_eq!(app.take_outside_edit(), None);
    press(&mut app, KeyCode::Tab);
    let before = app.card(FIRST).unwrap().code();
    press(&mut app, KeyCode::Char('e'));
    let id = app
        .take_outside_edit()
        .expect("e asks for the outside editor");
    assert_eq!(id, FIRST);
    assert_eq!(app.take_outside_edit(), None, "asked once");
    app.edit_outside(&id);
    let seen = std::fs::read_to_string(root.join("seen.py")).unwrap();
    assert_eq!(
        seen.trim_end(),
        before.trim_end(),
        "the editor got the card's code"
    );
    assert!(data.join("two-cards").join("deck-counters.py").is_file());
    assert_eq!(app.card(FIRST).unwrap().code(), fixed);
    let saved = cudatutor::progress::Store::at(&data).load().progress;
    assert_eq!(
        saved.exercises[FIRST].code.as_deref(),
        Some(fixed),
        "saved at once"
    );
    assert!(app.is_running(), "the checks run");
    assert!(app.wait_for_run(Duration::from_secs(30)));
    assert_eq!(app.progress().stats[FIRST].attempts, 1);
    assert!(
        app.progress().passed(&exercise),
        "the checks passed on the edited code"
    );
    let s = screen(&mut app, 100, 30);
    assert!(s.contains("All checks passed"), "{s}");
    // Ctrl-z in the editor brings back the code from before.
    press(&mut app, KeyCode::Enter);
    key(&mut app, KeyCode::Char('z'), KeyModifiers::CONTROL);
    assert_eq!(app.card(FIRST).unwrap().code(), before);
    press(&mut app, KeyCode::Esc);

    // An editor that fails: nothing read back, and the footer says so.
    app.edit_cmd = Some(editor_script(&root, "garbage", 3));
    press(&mut app, KeyCode::Char('e'));
    let id = app.take_outside_edit().unwrap();
    app.edit_outside(&id);
    assert_eq!(app.card(FIRST).unwrap().code(), before);
    assert!(!app.is_running());
    let s = screen(&mut app, 100, 30);
    assert!(s.contains("Your editor did not run"), "{s}");
}

// ----- Modes a learner cannot confuse -----

/// A printable key that is not one of the card's own keys, typed on a focused card whose
/// editor is closed, is code: it opens the editor and is typed there (never swallowed, never
/// a reading command such as `p` for the previous lesson or `q` for quit), and the footer
/// says so.
#[test]
fn a_key_that_is_not_a_card_key_opens_the_editor_and_is_typed() {
    let mut app = on_first_card(deck_app(RunReport::default()));
    let lesson = app.pager.current;
    let before = app.card(FIRST).unwrap().code();
    typed(&mut app, "print(1)");
    assert!(app.editing(), "the first letter opened the editor");
    assert_eq!(app.pager.current, lesson, "`p` did not turn the page");
    let code = app.card(FIRST).unwrap().code();
    assert!(code.contains("print(1)"), "every key was typed: {code}");
    assert_eq!(code.replacen("print(1)", "", 1), before);
    // `q` types `q`: the pager does not quit under a focused card.
    press(&mut app, KeyCode::Esc);
    assert!(!app.editing());
    press(&mut app, KeyCode::Char('q'));
    assert!(!app.quit, "q on a card is code");
    assert!(app.editing());
    let s = screen(&mut app, 100, 30);
    assert!(
        s.contains("`q` is not a card key, so it went into the code"),
        "{s}"
    );
    // In Chinese too.
    let mut app = deck_app(RunReport::default());
    app.lang = Lang::Zh;
    screen(&mut app, 100, 30);
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Char('a'));
    assert!(app.editing());
    assert!(screen(&mut app, 100, 30).contains("不是卡片上的按键"));
}

/// "origin = 9" typed on a focused card: `o` and `r` are card keys and act (a pane, a run),
/// but not silently: when `i`, which is not a card key, opens the editor, the footer names
/// the two that acted before it, and from there on every key is code.
#[test]
fn card_keys_typed_before_code_are_named_when_the_code_starts() {
    let mut app = on_first_card(deck_app(RunReport::default()));
    typed(&mut app, "ori");
    assert!(app.editing());
    let s = screen(&mut app, 100, 30);
    assert!(
        s.contains("`o` `r` acted as card keys; `i` is not one"),
        "{s}"
    );
    typed(&mut app, "gin = 9");
    assert!(app.card(FIRST).unwrap().code().contains("igin = 9"));
    // A card key alone, then another card key: nothing is typed, nothing named.
    let mut app = on_first_card(deck_app(RunReport::default()));
    press(&mut app, KeyCode::Char('o'));
    press(&mut app, KeyCode::Char('m'));
    assert!(!app.editing());
    assert!(!screen(&mut app, 100, 30).contains("acted as card keys"));
    // Chinese names them too.
    let mut app = deck_app(RunReport::default());
    app.lang = Lang::Zh;
    screen(&mut app, 100, 30);
    press(&mut app, KeyCode::Tab);
    typed(&mut app, "oa");
    assert!(
        screen(&mut app, 100, 30).contains("`o` 作为卡片按键执行了"),
        "{}",
        screen(&mut app, 100, 30)
    );
}

/// A card's key with no card focused says why nothing happened, instead of nothing.
#[test]
fn a_card_key_with_no_card_focused_says_why() {
    let mut app = deck_app(RunReport::default());
    screen(&mut app, 100, 30);
    assert_eq!(app.focus(), None);
    for (code, name) in [
        (KeyCode::Char('r'), "`r`"),
        (KeyCode::Char('x'), "`x`"),
        (KeyCode::Enter, "`Enter`"),
    ] {
        press(&mut app, code);
        let s = screen(&mut app, 100, 30);
        assert!(
            s.contains(&format!("{name} acts on an exercise card")),
            "{s}"
        );
        assert!(!app.is_running());
    }
}

/// F5 in the editor runs and leaves the editor the keys (letters stay text, no command fires);
/// the footer says so, so a `c` meant for the checks pane is no surprise.
#[test]
fn the_editor_keeps_the_keys_after_f5_and_says_so() {
    let mut app = on_first_card(deck_app(counters_report(false)));
    press(&mut app, KeyCode::Enter);
    assert!(app.editing());
    press(&mut app, KeyCode::F(5));
    assert!(
        screen(&mut app, 100, 30).contains("You are still editing"),
        "the footer says the editor has the keys"
    );
    assert!(app.wait_for_run(Duration::from_secs(10)));
    let pane = app.card(FIRST).unwrap().pane;
    let before = app.card(FIRST).unwrap().code();
    press(&mut app, KeyCode::Char('c'));
    assert!(app.editing());
    assert_eq!(app.card(FIRST).unwrap().pane, pane, "no pane switch");
    let after = app.card(FIRST).unwrap().code();
    assert_eq!(after.len(), before.len() + 1, "`c` is text: {after}");
}

/// Returns `passing` normally and `failing` under CUDA_LAUNCH_BLOCKING; records each run's
/// blocking.
struct BlockingFails {
    seen: Mutex<Vec<bool>>,
}

impl BlockingFails {
    fn new() -> Arc<BlockingFails> {
        Arc::new(BlockingFails {
            seen: Mutex::new(Vec::new()),
        })
    }
}

impl ExerciseRunner for BlockingFails {
    fn run(&self, _: &str, _: Option<&str>, opts: &RunOptions) -> RunReport {
        self.seen.lock().unwrap().push(opts.launch_blocking);
        let passed = !opts.launch_blocking;
        RunReport {
            launch_blocking: opts.launch_blocking,
            ok: passed,
            checks: vec![check_result(
                1,
                "assert ok",
                passed,
                Some(if passed {
                    "fine"
                } else {
                    "launch blocking should be off"
                }),
            )],
            ..RunReport::default()
        }
    }
    fn backend_label(&self) -> BackendLabel {
        sim_label("Simulated H200 (modelled)")
    }
}

/// `b` is for the next run of that card only, shows on the card while it is on, and that run
/// is an experiment: it never turns a ✓ into a ✗ nor counts as an attempt.
#[test]
fn blocking_is_one_experiment_run_of_one_card() {
    let runner = BlockingFails::new();
    let mut app = on_first_card(deck_app(RunReport::default()).with_runner(runner.clone()));
    run_and_wait(&mut app);
    let ex = app.exercise(FIRST).unwrap().clone();
    assert!(app.progress().passed(&ex));
    assert_eq!(app.progress().stats[FIRST].attempts, 1);
    press(&mut app, KeyCode::Char('b'));
    let s = screen(&mut app, 100, 30);
    assert!(
        s.contains("CUDA_LAUNCH_BLOCKING=1 next run"),
        "on the card:\n{s}"
    );
    run_and_wait(&mut app);
    let s = screen(&mut app, 100, 40);
    assert!(app.progress().passed(&ex), "still ✓:\n{s}");
    assert!(s.contains("Exercise deck-counters ✓"), "{s}");
    assert_eq!(app.progress().stats[FIRST].attempts, 1, "not an attempt");
    assert!(s.contains("Experiment with CUDA_LAUNCH_BLOCKING=1"), "{s}");
    assert!(
        !s.contains("CUDA_LAUNCH_BLOCKING=1 next run"),
        "off again:\n{s}"
    );
    assert_eq!(app.blocking_next, None);
    run_and_wait(&mut app);
    assert_eq!(*runner.seen.lock().unwrap(), vec![false, true, false]);
    // `b` twice turns it off before any run.
    press(&mut app, KeyCode::Char('b'));
    press(&mut app, KeyCode::Char('b'));
    assert_eq!(app.blocking_next, None);
}

/// The prediction note shows once (under the editor), not again in the pane.
#[test]
fn the_prediction_message_shows_once() {
    let mut app = ran_the_predicting_exercise(true);
    in_each_pane(&mut app, |pane, s| {
        assert_eq!(
            s.matches("Write your prediction first").count(),
            1,
            "{pane}:\n{s}"
        );
        assert!(
            s.contains("Hidden until you write your prediction"),
            "{pane}:\n{s}"
        );
    });
}

/// F5 from the editor brings the result into view, as `r` does.
#[test]
fn f5_in_the_editor_scrolls_to_the_result() {
    let report = RunReport {
        stdout: (0..40).map(|i| format!("line {i}\n")).collect::<String>() + "END-OF-OUTPUT\n",
        ..RunReport::default()
    };
    let mut app = deck_app(report);
    screen(&mut app, 100, 40);
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::F(5));
    assert!(app.wait_for_run(Duration::from_secs(10)));
    let s = screen(&mut app, 100, 40);
    assert!(s.contains("END-OF-OUTPUT"), "the result is on screen:\n{s}");
    assert!(app.editing());
}

/// README.md's key tables are the key table's (`keys::readme_tables`); with
/// UPDATE_README_KEYS=1 this test writes them.
#[test]
fn readme_key_tables_are_generated_from_the_key_table() {
    let readme = std::fs::read_to_string("README.md").unwrap();
    let begin = readme
        .find(cudatutor::ui::README_BEGIN)
        .expect("the begin marker")
        + cudatutor::ui::README_BEGIN.len();
    let end = readme
        .find(cudatutor::ui::README_END)
        .expect("the end marker");
    let wanted = cudatutor::ui::readme_tables();
    if std::env::var_os("UPDATE_README_KEYS").is_some() {
        let new = format!("{}\n{}{}", &readme[..begin], wanted, &readme[end..]);
        std::fs::write("README.md", new).unwrap();
        return;
    }
    assert_eq!(
        readme[begin..end].trim(),
        wanted.trim(),
        "README.md's key tables are stale: UPDATE_README_KEYS=1 cargo test --release --test ui_cards readme"
    );
    for text in ["`q` `Ctrl-q`", "`t`", "`l`", "`b` `F6`"] {
        assert!(wanted.contains(text), "{text}");
    }
    assert!(!wanted.contains("| `q` `Esc`"), "Esc never quits");
}

/// After a pass, a reset takes the ✓ (it is for the code the card holds) but the card still
/// says the exercise was solved, and `u` brings the passing code and its ✓ back.
#[test]
fn a_reset_after_a_pass_says_solved_before_and_u_brings_the_check_back() {
    let runner = BlockingFails::new();
    let mut app = on_first_card(deck_app(RunReport::default()).with_runner(runner));
    edit_focused(&mut app, "# mine\n");
    run_and_wait(&mut app);
    assert!(screen(&mut app, 100, 30).contains("Exercise deck-counters ✓"));
    press(&mut app, KeyCode::Char('x'));
    press(&mut app, KeyCode::Char('y'));
    let s = screen(&mut app, 100, 30);
    assert!(
        s.contains("Exercise deck-counters · (solved before)"),
        "{s}"
    );
    press(&mut app, KeyCode::Char('u'));
    press(&mut app, KeyCode::Char('y'));
    let s = screen(&mut app, 100, 30);
    assert!(s.contains("Exercise deck-counters ✓"), "{s}");
    assert!(!s.contains("solved before"), "{s}");
}

/// A run of the same code again (a stray `r`) is not a new attempt; a run of changed code is.
#[test]
fn running_unchanged_code_again_is_not_an_attempt() {
    let runner = BlockingFails::new();
    let mut app = on_first_card(deck_app(RunReport::default()).with_runner(runner));
    run_and_wait(&mut app);
    run_and_wait(&mut app);
    assert_eq!(app.progress().stats[FIRST].attempts, 1);
    edit_focused(&mut app, "# changed\n");
    run_and_wait(&mut app);
    assert_eq!(app.progress().stats[FIRST].attempts, 2);
}

/// Opening the solution is recorded for `report`.
#[test]
fn a_viewed_solution_is_recorded_for_report() {
    let mut app = on_first_card(deck_app(RunReport::default()));
    press(&mut app, KeyCode::Char('s'));
    assert!(
        !app.progress()
            .stats
            .get(FIRST)
            .is_some_and(|s| s.solution_viewed)
    );
    press(&mut app, KeyCode::Char('y'));
    assert!(app.progress().stats[FIRST].solution_viewed);
}
