//! End to end: the real binary in a real terminal (tmux). Opens lesson 3, scrolls, searches,
//! opens help, quits, and checks that the shell prompt is back and the terminal restored
//! (cooked mode, main screen). Fails, never skips, when tmux is missing.

#[path = "support/cli.rs"]
mod cli;
mod common;

use common::tmux::Tmux;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::thread::sleep;
use std::time::Duration;

/// A 100x30 shell whose cudatutor keeps its progress in `data_dir`.
fn e2e_shell(name: &str, data_dir: &Path) -> Tmux {
    sized_shell(name, data_dir, 100, 30)
}

/// A `width` x `height` shell whose cudatutor keeps its progress in `data_dir`.
fn sized_shell(name: &str, data_dir: &Path, width: u16, height: u16) -> Tmux {
    let data = format!("CUDATUTOR_DATA_DIR={}", data_dir.display());
    Tmux::start(&format!("e2e-{name}"), width, height, &[data])
}

fn temp_dir(name: &str) -> PathBuf {
    cli::scratch_dir("e2e", name)
}

/// `e2e_shell` on a fresh scratch data folder, and the folder.
fn scratch_shell(name: &str) -> (Tmux, PathBuf) {
    let data = temp_dir(name);
    (e2e_shell(name, &data), data)
}

/// The progress file the pager saved in `data`.
fn saved_progress(data: &Path) -> String {
    std::fs::read_to_string(data.join("progress.json")).expect("progress saved")
}

/// The pager saved lesson 2 (`devices`) as the learner's place.
fn assert_lesson_2_saved(data: &Path, what: &str) {
    let saved = saved_progress(data);
    assert!(
        saved.contains("\"last_lesson\": \"devices\""),
        "{what}: place saved: {saved}"
    );
}

#[test]
fn lesson_3_scroll_search_help_quit_restores_terminal() {
    let bin = env!("CARGO_BIN_EXE_cudatutor");
    let catalog = cudatutor::lesson::Catalog::builtin(cudatutor::lesson::Lang::En).unwrap();
    let title = catalog.lessons[2].title.clone();
    let (t, data) = scratch_shell("pager");
    let cooked = t.query("#{pane_id}");
    assert!(!cooked.is_empty());

    t.enter(&format!("{bin} --lang en lesson 3"));
    let first = t.wait_for(&format!("3/6 {title}"));
    assert_eq!(
        t.query("#{alternate_on}"),
        "1",
        "the pager uses the alternate screen"
    );

    // Scroll: the first heading line leaves the text area.
    for _ in 0..8 {
        t.send(&["j"]);
    }
    t.wait_until("the page to scroll", |s| s != first);

    // Search: the footer reports the hit count.
    t.enter("/ignore_index");
    t.wait_for("match");

    // Help overlay.
    t.send(&["?"]);
    t.wait_for("previous lesson");
    t.send(&["Escape"]);
    t.wait_until("help to close", |s| !s.contains("previous lesson"));

    t.send(&["q"]);
    let after = t.wait_until("the shell prompt after quitting", |s| {
        s.matches("TMUX-TEST-PROMPT$").count() >= 2
    });
    assert!(
        !after.contains(&format!("3/6 {title}")),
        "the pager's screen is gone:\n{after}"
    );
    assert_eq!(t.query("#{alternate_on}"), "0", "back on the main screen");

    // The terminal is in cooked mode again: stty reports canonical input and echo.
    t.enter(
        "stty -a | tr ' ' '\\n' | grep -E '^-?(icanon|echo)$' | tr '\\n' ' '; echo STTY-$((6*7))",
    );
    let stty = t.wait_for("STTY-42");
    let line = stty
        .lines()
        .rev()
        .find(|l| l.contains("icanon"))
        .unwrap_or_default()
        .to_string();
    assert!(
        line.contains("icanon") && !line.contains("-icanon"),
        "canonical mode restored: {line}"
    );
    assert!(
        line.contains("echo") && !line.contains("-echo "),
        "echo restored: {line}"
    );

    // The place was saved: starting without arguments reopens lesson 3.
    let progress =
        std::fs::read_to_string(data.join("progress.json")).expect("progress saved on quit");
    assert!(
        progress.contains("\"last_lesson\": \"device-asserts\""),
        "{progress}"
    );
    t.enter(&format!("clear; {bin} --lang en"));
    t.wait_for(&format!("3/6 {title}"));
    t.send(&["q"]);
    t.wait_until("the prompt again", |s| {
        s.contains("TMUX-TEST-PROMPT$") && !s.contains(&format!("3/6 {title}"))
    });
}

#[test]
#[cfg_attr(
    not(feature = "fault-injection"),
    ignore = "needs the binary's test hooks: cargo test --features fault-injection (scripts/test.sh)"
)]
fn terminal_is_restored_after_a_panic_in_the_ui() {
    let bin = env!("CARGO_BIN_EXE_cudatutor");
    let (t, _) = scratch_shell("panic");
    t.enter(&format!(
        "CUDATUTOR_TEST_PANIC_KEY=Z {bin} --lang en lesson 1; echo EXIT=$?"
    ));
    t.wait_for("1/6");
    t.send(&["Z"]);
    let after = t.wait_for("EXIT=");
    assert!(
        after.contains("test panic requested"),
        "the panic message is printed on the main screen:\n{after}"
    );
    assert_eq!(t.query("#{alternate_on}"), "0");
    assert_cooked(&t, "after the panic");
}

/// The learner's loop in lesson 3: enter the label exercise, run it and see the deferred
/// device-side assert, switch on launch blocking and see the report move to the origin line,
/// fix the labels, run, see every check pass; quit, reopen: the edit and the ✓ are kept.
#[test]
fn lesson_3_label_exercise_fail_fix_pass_and_keep() {
    let bin = env!("CARGO_BIN_EXE_cudatutor");
    let (t, data) = scratch_shell("exercise");
    t.enter(&format!("{bin} --lang en --backend sim lesson 3"));
    t.wait_for("3/6");
    t.send(&["Tab"]);
    t.wait_for("Exercise l3-one-based");

    // The starting code: the assert fires in cross_entropy (line 13) and is reported at
    // loss.item() (line 14).
    t.send(&["r"]);
    let failed = t.wait_for("torch.AcceleratorError: CUDA error: device-side assert");
    assert!(
        failed.contains("14 the error was reported here"),
        "{failed}"
    );
    assert!(
        failed.contains("13 this line launched the failing kernel"),
        "{failed}"
    );
    assert!(failed.contains("Exercise l3-one-based ✗"), "{failed}");

    // Launch blocking: the same code reports at its origin.
    // `b` arms blocking for this card's next run only (an experiment, not graded).
    t.send(&["b"]);
    t.wait_for("CUDA_LAUNCH_BLOCKING=1 next run");
    t.send(&["r"]);
    // (the traceback's `line 13, in <module>` frame may scroll out of the output pane: the
    // composite cross_entropy adds its own frame below it, as PyTorch's functional.py does)
    let blocking = t.wait_for("◆ 13 this line launched the failing kernel");
    assert!(
        blocking.contains("◆13 loss = F.cross_entropy"),
        "reported at the origin:\n{blocking}"
    );
    assert!(
        !blocking.contains("14 the error was reported here"),
        "{blocking}"
    );
    // That run used the blocking; the card's badge is gone and the next run is a normal one.
    assert!(
        !blocking.contains("CUDA_LAUNCH_BLOCKING=1 next run"),
        "{blocking}"
    );

    // Fix: after the function, bind to_targets to one that counts from 0 (line 10 is blank).
    t.send(&["Enter"]);
    for _ in 0..9 {
        t.send(&["Down"]);
    }
    t.send(&["Home"]);
    t.enter("to_targets = lambda labels: torch.tensor(labels, device='cuda') - 1");
    // Wait for Esc to land on its own: Esc followed at once by `r` reads as Alt-r.
    t.send(&["Escape"]);
    t.wait_until("the editor to close", |s| !s.contains("✎"));
    t.send(&["r"]);
    let passed = t.wait_for("All checks passed");
    assert!(passed.contains("Exercise l3-one-based ✓"), "{passed}");
    assert!(
        passed.contains("✓ l3-one-based"),
        "the contents pane marks it:\n{passed}"
    );

    escape_then_quit(&t);
    t.wait_until("the shell prompt", |s| {
        s.matches("TMUX-TEST-PROMPT$").count() >= 2
    });
    let saved = saved_progress(&data);
    assert!(saved.contains("to_targets = lambda labels"), "{saved}");

    // Reopen: the edit and the ✓ are still there.
    t.enter(&format!("clear; {bin} --lang en lesson 3"));
    t.wait_for("3/6");
    t.send(&["Tab"]);
    let reopened = t.wait_for("to_targets = lambda labels");
    assert!(reopened.contains("✓ l3-one-based"), "{reopened}");
    escape_then_quit(&t);
}

/// `kill -TERM` (and -INT, -HUP) end the pager like `q`: terminal restored, place saved.
#[test]
fn terminal_is_restored_after_sigterm_and_sigint() {
    let bin = env!("CARGO_BIN_EXE_cudatutor");
    for signal in ["TERM", "INT"] {
        let (t, data) = scratch_shell(&format!("signal-{signal}"));
        t.enter(&format!("{bin} --lang en lesson 2 & sleep 0.3; fg"));
        t.wait_for("2/6");
        assert_eq!(t.query("#{alternate_on}"), "1");
        // This pager only, by its pid: `pkill -f` on the command line also hit the pagers
        // of the other tests running at the same time (they quit as if signalled).
        let pid = pager_pid(&t);
        let kill = Command::new("kill")
            .args(["-s", signal, &pid])
            .status()
            .unwrap();
        assert!(kill.success(), "the pager process was found");
        t.wait_until("the shell prompt after the signal", |s| {
            s.matches("TMUX-TEST-PROMPT$").count() >= 2 && !s.contains("2/6")
        });
        assert_eq!(
            t.query("#{alternate_on}"),
            "0",
            "SIG{signal}: main screen again"
        );
        assert_cooked(&t, &format!("SIG{signal}"));
        assert_lesson_2_saved(&data, &format!("SIG{signal}"));
    }
}

/// Whether `pid` has ended (gone, or a zombie nobody reaped yet).
fn process_ended(pid: &str) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        // The state is the field after the parenthesised command name.
        Ok(stat) => stat
            .rsplit_once(") ")
            .is_some_and(|(_, rest)| rest.starts_with('Z') || rest.starts_with('X')),
    }
}

/// The terminal goes away under the pager (window closed, `tmux kill-session`, SSH dropped):
/// it must save the learner's place and exit, not spin on a dead terminal. Once with SIGHUP
/// delivered, once with SIGHUP blocked (a hang-up does not always come with the signal), so the
/// pager has to notice the hang-up on the terminal itself.
#[test]
fn pager_exits_and_saves_when_its_terminal_goes_away() {
    let bin = env!("CARGO_BIN_EXE_cudatutor");
    let block_sighup = "import os, signal, sys; \
        signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGHUP]); \
        os.execv(sys.argv[1], sys.argv[1:])";
    for (case, wrapper) in [
        ("sighup", String::new()),
        ("no-sighup", format!("python3 -c '{block_sighup}' ")),
    ] {
        let (t, data) = scratch_shell(&format!("hangup-{case}"));
        // exec: the pane's process is the pager itself, so its pid is the pane's.
        t.enter(&format!("exec {wrapper}{bin} --lang en lesson 2"));
        t.wait_for("2/6");
        let pid = t.query("#{pane_pid}");
        if case == "no-sighup" {
            let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
            let blocked = status
                .lines()
                .find_map(|l| l.strip_prefix("SigBlk:"))
                .map(|mask| u64::from_str_radix(mask.trim(), 16).unwrap())
                .unwrap();
            assert_eq!(
                blocked & 1,
                1,
                "{case}: SIGHUP (bit 0) is blocked in the pager"
            );
        }
        drop(t); // kill-session: the pane's terminal hangs up
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        while !process_ended(&pid) && std::time::Instant::now() < deadline {
            sleep(Duration::from_millis(50));
        }
        let ended = process_ended(&pid);
        if !ended {
            let _ = Command::new("kill").args(["-9", &pid]).status();
        }
        assert!(
            ended,
            "{case}: the pager still runs 5 s after its terminal went away"
        );
        assert_lesson_2_saved(&data, case);
    }
}

// ----- Keys, focus and resizes in a real terminal -----

fn deck_dir() -> String {
    format!("{}/tests/fixtures/lessons/deck", env!("CARGO_MANIFEST_DIR"))
}

/// Starts the pager on the deck (sim backend) and waits for its first screen.
fn open_deck(t: &Tmux) -> String {
    t.enter(&format!(
        "{} --lang en --backend sim --lessons {}",
        cli::BIN,
        deck_dir()
    ));
    t.wait_for("1/1 Two cards and a quiz")
}

/// Esc (waited for on its own: Esc followed at once by a key reads as Alt-key), then `q`.
fn escape_then_quit(t: &Tmux) {
    t.send(&["Escape"]);
    sleep(Duration::from_millis(200));
    t.send(&["q"]);
}

/// The shell prompt is back (the pager ended) or not.
fn pager_gone(screen: &str) -> bool {
    screen.matches("TMUX-TEST-PROMPT$").count() >= 2
}

/// Esc from the editor, the card and the pager, and Ctrl-c in the editor, never quit; a card
/// scrolled out of view takes no key (x asks nothing); q quits.
#[test]
fn esc_and_ctrl_c_never_quit_and_keys_act_only_on_what_is_seen() {
    let (t, _) = scratch_shell("pager-keys");
    open_deck(&t);
    t.send(&["Tab"]);
    t.wait_for("Enter edit");
    t.send(&["Enter"]);
    t.wait_for("✎ editing");
    t.send(&["C-c"]);
    for _ in 0..3 {
        sleep(Duration::from_millis(150));
        t.send(&["Escape"]);
    }
    sleep(Duration::from_millis(300));
    let screen = t.wait_for("Two cards and a quiz");
    assert!(!pager_gone(&screen), "Esc or Ctrl-c quit:\n{screen}");
    // Focus the first card, scroll it away, press x: nothing is asked.
    t.send(&["Tab"]);
    t.wait_for("Exercise deck-counters");
    // (arrows: on a focused card `j` is code)
    for _ in 0..40 {
        t.send(&["Down"]);
    }
    t.wait_until("the card to leave", |s| {
        !s.contains("Exercise deck-counters")
    });
    t.send(&["x"]);
    sleep(Duration::from_millis(300));
    let screen = t.screen();
    assert!(!screen.contains("starting code?"), "{screen}");
    t.send(&["q"]);
    t.wait_until("the shell prompt", pager_gone);
}

/// Ctrl-c during a long tensor loop: the run stops (or the pager stops waiting for it) and the
/// footer says so, with no "cancelling…" left.
#[test]
fn ctrl_c_stops_a_long_run_and_the_footer_tells_the_truth() {
    let bin = env!("CARGO_BIN_EXE_cudatutor");
    let data = temp_dir("pager-cancel");
    let lessons = data.join("lessons");
    std::fs::create_dir_all(&lessons).unwrap();
    std::fs::write(
        lessons.join("01-loop.md"),
        "+++\nid = \"loop\"\ntitle = \"A long loop\"\norder = 1\n+++\n\n# A long loop\n\n```python exercise id=long-loop\nimport torch\na = torch.randn(512, 512, device='cuda')\nfor i in range(100000):\n    a = (a @ a).tanh()\nprint(a.sum().item())\n```\n\n```python check\nassert True, \"fine\"\n```\n\n```hint\nIt is long on purpose.\n```\n",
    )
    .unwrap();
    let t = e2e_shell("pager-cancel", &data);
    t.enter(&format!(
        "{bin} --lang en --backend sim --lessons {}",
        lessons.display()
    ));
    t.wait_for("1/1 A long loop");
    t.send(&["Tab"]);
    t.wait_for("Exercise long-loop");
    t.send(&["r"]);
    t.wait_for("Ctrl-c cancel the run");
    sleep(Duration::from_millis(500));
    t.send(&["C-c"]);
    let after = t.wait_until("the run to end", |s| {
        !s.contains("Ctrl-c cancel the run") && !s.contains("running…")
    });
    assert!(!after.contains("cancelling"), "{after}");
    assert!(
        after.contains("Run cancelled") || after.contains("KeyboardInterrupt"),
        "{after}"
    );
    assert!(!pager_gone(&after), "Ctrl-c quit:\n{after}");
    escape_then_quit(&t);
    t.wait_until("the shell prompt", pager_gone);
}

/// From 160x50 to 40x12 inside an editor: the edited card stays on screen.
#[test]
fn a_resize_keeps_the_edited_card_on_screen() {
    let data = temp_dir("pager-resize");
    let t = sized_shell("pager-resize", &data, 160, 50);
    open_deck(&t);
    t.send(&["Tab"]);
    t.send(&["Tab"]);
    t.wait_for("Exercise deck-two-fixes");
    t.send(&["Enter"]);
    t.wait_for("✎ editing");
    t.resize(40, 12);
    let screen = t.wait_until("the edited card at 40x12", |s| {
        s.contains("x = torch.ones(3") && s.lines().count() <= 12
    });
    assert!(screen.contains("Esc leave editor"), "{screen}");
}

/// At 80x24 the lesson list folds away by itself (`t` still opens it), and a letter that is
/// not a card key, typed on a focused card, opens the editor and is typed there.
#[test]
fn at_80x24_the_list_folds_away_and_a_letter_that_is_no_card_key_is_typed() {
    let data = temp_dir("pager-narrow");
    let t = sized_shell("pager-narrow", &data, 80, 24);
    let screen = open_deck(&t);
    assert!(
        !screen.contains("Lessons ─"),
        "the list is folded:\n{screen}"
    );
    t.send(&["Tab"]);
    t.wait_for("Enter edit");
    t.send(&["a"]);
    let screen = t.wait_for("went into the code");
    assert!(screen.contains("✎ editing"), "{screen}");
    t.send(&["Escape"]);
    sleep(Duration::from_millis(200));
    t.send(&["Escape"]);
    sleep(Duration::from_millis(200));
    t.send(&["t"]);
    t.wait_for("Lessons ─");
    t.send(&["q"]);
    t.wait_until("the shell prompt", pager_gone);
}

/// The Chinese help box over Chinese text keeps its border whole (a wide character that
/// straddled it used to cover it).
#[test]
fn the_chinese_help_box_has_a_whole_border() {
    use unicode_width::UnicodeWidthChar;
    let bin = env!("CARGO_BIN_EXE_cudatutor");
    let (t, _) = scratch_shell("pager-help");
    t.enter(&format!("{bin} --lang zh --backend sim lesson 2"));
    t.wait_for("2/6");
    t.send(&["?"]);
    // The character at a display column of a captured row.
    let at = |row: &str, x: usize| {
        let mut col = 0;
        for c in row.chars() {
            if col == x {
                return Some(c);
            }
            if col > x {
                return None;
            }
            col += c.width().unwrap_or(0).max(1);
        }
        None
    };
    // Whether the box is drawn and its left border whole on every row (waited for, since a
    // capture can catch a frame half drawn).
    let whole = |screen: &str| {
        let rows: Vec<&str> = screen.lines().collect();
        let Some(top) = rows.iter().position(|r| r.contains("┌ 按键")) else {
            return false;
        };
        let mut col = 0;
        let mut left = None;
        for c in rows[top].chars() {
            if c == '┌' {
                left = Some(col);
                break;
            }
            col += c.width().unwrap_or(0).max(1);
        }
        let Some(left) = left else {
            return false;
        };
        for (checked, row) in rows[top + 1..].iter().enumerate() {
            if at(row, left) == Some('└') {
                return checked > 5;
            }
            if at(row, left) != Some('│') {
                return false;
            }
        }
        false
    };
    t.wait_until("the help box with a whole left border", whole);
    escape_then_quit(&t);
}

// ----- Panics and signals never leave the terminal in the pager's state -----

/// Waits for the `echo EXIT=$?` after the pager (not the command line that types it).
fn wait_exit(t: &Tmux) -> String {
    t.wait_until("EXIT=<status>", |s| {
        s.lines().any(|l| l.trim_start().starts_with("EXIT="))
    })
}

/// The pager's process in the shell of `t` (the shell's only child).
fn pager_pid(t: &Tmux) -> String {
    let shell = t.query("#{pane_pid}");
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        let out = Command::new("pgrep").args(["-P", &shell]).output().unwrap();
        let pid = String::from_utf8_lossy(&out.stdout)
            .lines()
            .next()
            .unwrap_or_default()
            .trim()
            .to_string();
        if !pid.is_empty() {
            return pid;
        }
        assert!(std::time::Instant::now() < deadline, "no pager process");
        sleep(Duration::from_millis(50));
    }
}

/// The pane's terminal modes as stty reads them from outside (`-icanon` in raw mode).
fn pane_modes(t: &Tmux) -> String {
    let tty = t.query("#{pane_tty}");
    let out = Command::new("stty")
        .args(["-F", &tty, "-a"])
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn raw(modes: &str) -> bool {
    modes.split_whitespace().any(|w| w == "-icanon")
}

/// Canonical input again, as the shell's stty reads it.
fn assert_cooked(t: &Tmux, what: &str) {
    t.enter("stty -a | tr ' ' '\\n' | grep -E '^-?icanon$'; echo STTY-$((6*7))");
    let stty = t.wait_for("STTY-42");
    assert!(
        stty.lines().any(|l| l.trim() == "icanon"),
        "{what}: cooked mode:\n{stty}"
    );
}

/// Starts `ENV cudatutor --lang en --backend sim lesson 2; echo EXIT=$?` (ENV: test hooks,
/// or nothing) and focuses the lesson's l2-counters card.
fn open_l2_counters(t: &Tmux, env: &str) {
    t.enter(&format!(
        "{env}{} --lang en --backend sim lesson 2; echo EXIT=$?",
        cli::BIN
    ));
    t.wait_for("2/6");
    t.send(&["Tab"]);
    t.wait_for("Exercise l2-counters");
}

/// Opens the focused card's editor with the cursor on a new line after its code.
fn edit_on_a_new_last_line(t: &Tmux) {
    t.send(&["Enter"]);
    t.send(&["C-End"]);
    t.send(&["Enter"]);
}

/// Still the pager's alternate screen, still in raw mode.
fn assert_still_the_pager(t: &Tmux) {
    assert_eq!(t.query("#{alternate_on}"), "1", "still the pager's screen");
    assert!(raw(&pane_modes(t)), "still raw mode:\n{}", pane_modes(t));
}

/// Main screen, no mouse reporting, cooked mode: what the shell needs after the pager.
fn assert_restored(t: &Tmux, what: &str) {
    assert_eq!(t.query("#{alternate_on}"), "0", "{what}: main screen");
    assert_eq!(
        t.query("#{mouse_any_flag}#{mouse_button_flag}#{mouse_standard_flag}"),
        "000",
        "{what}: mouse reporting off"
    );
    assert_cooked(t, what);
}

/// Every signal: the terminating ones (SIGQUIT, SIGUSR1, SIGALRM, ...) end the pager as `q`
/// does, with its place saved and status 0; the fatal ones (SIGABRT as an allocation failure
/// raises it, SIGSEGV, SIGBUS) end it at once with the signal's status. Each time the shell
/// gets back the main screen, no mouse reporting and cooked mode.
#[test]
fn the_terminal_is_restored_on_every_signal() {
    let bin = env!("CARGO_BIN_EXE_cudatutor");
    for (sig, number, graceful) in [
        ("QUIT", 3, true),
        ("USR1", 10, true),
        ("ALRM", 14, true),
        ("ABRT", 6, false),
        ("SEGV", 11, false),
        ("BUS", 7, false),
    ] {
        let (t, data) = scratch_shell(&format!("sig-{sig}"));
        t.enter(&format!("{bin} --lang en lesson 2; echo EXIT=$?"));
        t.wait_for("2/6");
        assert_eq!(t.query("#{alternate_on}"), "1");
        let pid = pager_pid(&t);
        let started = std::time::Instant::now();
        let status = Command::new("kill")
            .args(["-s", sig, &pid])
            .status()
            .unwrap();
        assert!(status.success());
        let after = wait_exit(&t);
        eprintln!("SIG{sig}: shell back after {:?}", started.elapsed());
        let expected = if graceful { 0 } else { 128 + number };
        assert!(
            after.contains(&format!("EXIT={expected}")),
            "SIG{sig}: status {expected}:\n{after}"
        );
        assert_restored(&t, &format!("SIG{sig}"));
        if graceful {
            assert_lesson_2_saved(&data, &format!("SIG{sig}"));
        }
    }
}

/// SIGTSTP (a job-control stop): the shell gets its screen back while the pager is stopped,
/// and `fg` brings the pager back in raw mode on the alternate screen.
#[test]
fn a_stopped_pager_gives_the_terminal_back_and_takes_it_again() {
    let bin = env!("CARGO_BIN_EXE_cudatutor");
    let (t, _) = scratch_shell("tstp");
    t.enter(&format!("{bin} --lang en lesson 2"));
    t.wait_for("2/6");
    let pid = pager_pid(&t);
    assert!(
        Command::new("kill")
            .args(["-s", "TSTP", &pid])
            .status()
            .unwrap()
            .success()
    );
    t.wait_for("Stopped");
    assert_restored(&t, "stopped");
    t.enter("clear; fg");
    t.wait_for("2/6");
    assert_eq!(
        t.query("#{alternate_on}"),
        "1",
        "back on the alternate screen"
    );
    assert!(raw(&pane_modes(&t)), "raw mode again");
    t.send(&["j"]);
    t.send(&["q"]);
    t.wait_until("the prompt", |s| !s.contains("2/6"));
    assert_restored(&t, "after fg and q");
}

/// A panic inside a run (as a bug in the engine would be): the footer says internal error,
/// nothing is printed over the pager, the terminal stays raw on the alternate screen, the
/// keys that follow are keys (Ctrl-q quits at once), and the exercise's saved code is
/// untouched.
#[test]
#[cfg_attr(
    not(feature = "fault-injection"),
    ignore = "needs the binary's test hooks: cargo test --features fault-injection (scripts/test.sh)"
)]
fn a_panic_inside_a_run_leaves_the_pager_and_its_terminal_alone() {
    let (t, data) = scratch_shell("run-panic");
    open_l2_counters(&t, "CUDATUTOR_TEST_PANIC_IN_RUN=1 ");
    t.send(&["r"]);
    let s = t.wait_for("Internal error in cudatutor");
    assert!(
        !s.contains("panicked at"),
        "nothing printed over the pager:\n{s}"
    );
    assert!(!s.contains("stack backtrace"), "{s}");
    assert_still_the_pager(&t);
    t.send(&["C-q"]);
    let after = wait_exit(&t);
    assert!(after.contains("EXIT=0"), "{after}");
    assert_restored(&t, "after the quit");
    let saved = saved_progress(&data);
    let progress = cudatutor::progress::read_set(saved.as_bytes(), "builtin").unwrap();
    assert!(
        progress
            .exercises
            .get("l2-counters")
            .is_none_or(|e| e.code.is_none()),
        "the saved code is untouched: {saved}"
    );
}

/// A run that aborts the whole process (a 16 TiB allocation in F.one_hot, which the engine
/// could not refuse when this was written): the edit typed just before Ctrl-r is saved, and
/// the terminal is restored. If the engine refuses the allocation by then, the pager simply
/// goes on; the edit and the terminal are checked the same way.
#[test]
fn an_aborting_run_keeps_the_edit_and_restores_the_terminal() {
    let (t, data) = scratch_shell("abort");
    open_l2_counters(&t, "");
    edit_on_a_new_last_line(&t);
    t.enter("import torch.nn.functional as F");
    t.type_text("big = F.one_hot(torch.tensor([2**40]))");
    t.send(&["C-r"]);
    let after = t.wait_until("the abort or the run's end", |s| {
        // The card's ✗: the run ended (its output stays hidden: the prediction is not made).
        s.lines().any(|l| l.trim_start().starts_with("EXIT=")) || s.contains("l2-counters ✗")
    });
    let aborted = after.lines().any(|l| l.trim_start().starts_with("EXIT="));
    eprintln!("aborted: {aborted}");
    if aborted {
        assert!(after.contains("EXIT=134"), "SIGABRT's status:\n{after}");
    } else {
        t.send(&["Escape"]);
        t.send(&["C-q"]);
        wait_exit(&t);
    }
    assert_restored(&t, "after the run");
    let saved = saved_progress(&data);
    let progress = cudatutor::progress::read_set(saved.as_bytes(), "builtin").unwrap();
    let code = progress.exercises["l2-counters"].code.clone().unwrap();
    assert!(
        code.contains("big = F.one_hot(torch.tensor([2**40]))"),
        "the edit typed before Ctrl-r is saved: {code}"
    );
}

/// A learner's line that aborts its process (the test hook aborts any run whose code holds a
/// marker, as an allocation failure did): the run happens in its own worker process, so the
/// pager goes on, says that the run's process was killed by signal 6, keeps the edit typed
/// before Ctrl-r, and takes the next run as usual.
#[test]
#[cfg_attr(
    not(feature = "fault-injection"),
    ignore = "needs the binary's test hooks: cargo test --features fault-injection (scripts/test.sh)"
)]
fn a_line_that_aborts_ends_its_worker_and_the_pager_goes_on() {
    let (t, data) = scratch_shell("worker-abort");
    open_l2_counters(&t, "CUDATUTOR_TEST_ABORT_IN_RUN=ABORT_HERE ");
    edit_on_a_new_last_line(&t);
    t.type_text("marker = 'ABORT_HERE'");
    t.send(&["C-r"]);
    let s = t.wait_for("killed by signal 6");
    assert!(s.contains("Internal error in cudatutor"), "{s}");
    assert!(!pager_gone(&s), "the pager is still there:\n{s}");
    assert_still_the_pager(&t);
    // The pager still takes keys and runs: remove the marker line (Ctrl-z undoes the typing
    // one step at a time, so select the line instead) and run again.
    t.send(&["Home"]);
    t.send(&["S-End"]);
    t.send(&["BSpace"]);
    t.type_text("after = 1");
    t.send(&["C-r"]);
    let s = t.wait_until("the second run's end", |s| {
        !s.contains("running…") && !s.contains("killed by signal 6")
    });
    assert!(!pager_gone(&s), "{s}");
    t.send(&["Escape"]);
    t.send(&["C-q"]);
    let after = wait_exit(&t);
    assert!(after.contains("EXIT=0"), "{after}");
    assert_restored(&t, "after the quit");
    let saved = saved_progress(&data);
    let progress = cudatutor::progress::read_set(saved.as_bytes(), "builtin").unwrap();
    let code = progress.exercises["l2-counters"].code.clone().unwrap();
    assert!(
        code.contains("after = 1"),
        "the edit after the abort is saved: {code}"
    );
    assert!(!code.contains("ABORT_HERE"), "{code}");
}

/// `e` on a card in a real terminal: while the learner's editor ($EDITOR, a script here) runs,
/// the terminal is the shell's again (main screen, cooked mode, no mouse reporting); when it
/// exits the pager takes the terminal back (alternate screen, raw mode), redraws, saves the
/// edited code and runs the checks.
#[test]
fn e_hands_the_terminal_to_the_editor_and_takes_it_back() {
    let data = temp_dir("outside-editor");
    let work = temp_dir("outside-editor-work");
    let fixed = "import torch\nx = torch.randn(10, device='cuda')\npredicted = 512\nprint(torch.cuda.memory_allocated())\n";
    // Says it started, waits for the test's go, then writes the fixed code.
    let script = cli::editor_shell_script(
        &work,
        fixed,
        &format!(
            "echo EDITOR-RUNNING\ntouch '{w}/started'\ni=0\nwhile [ ! -e '{w}/go' ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i+1)); done\ncp '{w}/new.py' \"$1\"\n",
            w = work.display()
        ),
    );
    let t = Tmux::start(
        "e2e-outside-editor",
        100,
        30,
        &[
            format!("CUDATUTOR_DATA_DIR={}", data.display()),
            format!("EDITOR=sh {}", script.display()),
            "VISUAL=".to_string(),
        ],
    );
    open_deck(&t);
    t.send(&["Tab"]);
    t.wait_for("Exercise deck-counters");
    t.send(&["e"]);
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while !work.join("started").exists() {
        assert!(std::time::Instant::now() < deadline, "the editor never ran");
        sleep(Duration::from_millis(50));
    }
    t.wait_for("EDITOR-RUNNING");
    assert_eq!(
        t.query("#{alternate_on}"),
        "0",
        "the editor has the main screen"
    );
    assert!(!raw(&pane_modes(&t)), "the editor gets a cooked terminal");
    assert_eq!(
        t.query("#{mouse_any_flag}#{mouse_button_flag}#{mouse_standard_flag}"),
        "000",
        "no mouse reporting while the editor runs"
    );
    std::fs::write(work.join("go"), "").unwrap();
    let screen = t.wait_for("All checks passed");
    assert!(screen.contains("predicted = 512"), "{screen}");
    assert!(!screen.contains("EDITOR-RUNNING"), "redrawn:\n{screen}");
    assert_eq!(t.query("#{alternate_on}"), "1", "the pager's screen again");
    assert!(raw(&pane_modes(&t)), "raw mode again");
    let saved = saved_progress(&data);
    assert!(saved.contains("predicted = 512"), "saved at once: {saved}");
    assert!(
        data.join("two-cards").join("deck-counters.py").is_file(),
        "the exercise's file"
    );
    // The keys are the pager's again.
    // Esc first: on a focused card `q` is code.
    escape_then_quit(&t);
    t.wait_until("the shell prompt", pager_gone);
    assert_restored(&t, "after e and q");
}
