//! End to end: the real binary in a real terminal (tmux). Opens lesson 3, scrolls, searches,
//! opens help, quits, and checks that the shell prompt is back and the terminal restored
//! (cooked mode, main screen). Fails, never skips, when tmux is missing.

mod common;

use common::tmux::Tmux;
use std::path::PathBuf;
use std::process::Command;
use std::thread::sleep;
use std::time::Duration;

/// A 100x30 shell whose cudatutor keeps its progress in `data_dir`.
fn e2e_shell(name: &str, data_dir: &PathBuf) -> Tmux {
    let data = format!("CUDATUTOR_DATA_DIR={}", data_dir.display());
    Tmux::start(&format!("e2e-{name}"), 100, 30, &[data])
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cudatutor-e2e-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn lesson_3_scroll_search_help_quit_restores_terminal() {
    let bin = env!("CARGO_BIN_EXE_cudatutor");
    let catalog = cudatutor::lesson::Catalog::builtin(cudatutor::lesson::Lang::En).unwrap();
    let title = catalog.lessons[2].title.clone();
    let data = temp_dir("pager");
    let t = e2e_shell("pager", &data);
    let cooked = t.query("#{pane_id}");
    assert!(!cooked.is_empty());

    t.type_text(&format!("{bin} --lang en lesson 3"));
    t.send(&["Enter"]);
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
    t.type_text("/ignore_index");
    t.send(&["Enter"]);
    t.wait_for("match");

    // Help overlay.
    t.send(&["?"]);
    t.wait_for("next / previous lesson");
    t.send(&["Escape"]);
    t.wait_until("help to close", |s| !s.contains("next / previous lesson"));

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
    t.type_text(
        "stty -a | tr ' ' '\\n' | grep -E '^-?(icanon|echo)$' | tr '\\n' ' '; echo STTY-$((6*7))",
    );
    t.send(&["Enter"]);
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
    t.type_text(&format!("clear; {bin} --lang en"));
    t.send(&["Enter"]);
    t.wait_for(&format!("3/6 {title}"));
    t.send(&["q"]);
    t.wait_until("the prompt again", |s| {
        s.contains("TMUX-TEST-PROMPT$") && !s.contains(&format!("3/6 {title}"))
    });
}

#[test]
fn terminal_is_restored_after_a_panic_in_the_ui() {
    let bin = env!("CARGO_BIN_EXE_cudatutor");
    let data = temp_dir("panic");
    let t = e2e_shell("panic", &data);
    t.type_text(&format!(
        "CUDATUTOR_TEST_PANIC_KEY=Z {bin} --lang en lesson 1; echo EXIT=$?"
    ));
    t.send(&["Enter"]);
    t.wait_for("1/6");
    t.send(&["Z"]);
    let after = t.wait_for("EXIT=");
    assert!(
        after.contains("test panic requested"),
        "the panic message is printed on the main screen:\n{after}"
    );
    assert_eq!(t.query("#{alternate_on}"), "0");
    t.type_text("stty -a | tr ' ' '\\n' | grep -E '^-?icanon$'; echo STTY-$((6*7))");
    t.send(&["Enter"]);
    let stty = t.wait_for("STTY-42");
    assert!(
        stty.lines().any(|l| l.trim() == "icanon"),
        "cooked mode after the panic:\n{stty}"
    );
}

/// The learner's loop in lesson 3: enter the label exercise, run it and see the deferred
/// device-side assert, switch on launch blocking and see the report move to the origin line,
/// fix the labels, run, see every check pass; quit, reopen: the edit and the ✓ are kept.
#[test]
fn lesson_3_label_exercise_fail_fix_pass_and_keep() {
    let bin = env!("CARGO_BIN_EXE_cudatutor");
    let data = temp_dir("exercise");
    let t = e2e_shell("exercise", &data);
    t.type_text(&format!("{bin} --lang en --backend sim lesson 3"));
    t.send(&["Enter"]);
    t.wait_for("3/6");
    t.send(&["Tab"]);
    t.wait_for("Exercise l3-one-based");

    // The starting code: the assert fires in cross_entropy (line 6) and is reported at
    // loss.item() (line 7).
    t.send(&["r"]);
    let failed = t.wait_for("torch.AcceleratorError: CUDA error: device-side assert triggered");
    assert!(failed.contains("7 the error was reported here"), "{failed}");
    assert!(
        failed.contains("6 this line launched the failing kernel"),
        "{failed}"
    );
    assert!(failed.contains("Exercise l3-one-based ✗"), "{failed}");

    // Launch blocking: the same code reports at its origin.
    t.send(&["b"]);
    t.wait_for("b CUDA_LAUNCH_BLOCKING=1");
    t.send(&["r"]);
    let blocking = t.wait_for("line 6, in <module>");
    assert!(
        blocking.contains("◆ 6 this line launched the failing kernel"),
        "{blocking}"
    );
    assert!(
        blocking.contains("◆6 loss = F.cross_entropy"),
        "reported at the origin:\n{blocking}"
    );
    assert!(
        !blocking.contains("7 the error was reported here"),
        "{blocking}"
    );
    t.send(&["b"]);
    t.wait_for("blocking off");

    // Fix: insert `labels = labels - 1` before the loss line.
    t.send(&["Enter"]);
    for _ in 0..5 {
        t.send(&["Down"]);
    }
    t.send(&["Home"]);
    t.type_text("labels = labels - 1");
    t.send(&["Enter"]);
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

    t.send(&["Escape"]);
    sleep(Duration::from_millis(200));
    t.send(&["q"]);
    t.wait_until("the shell prompt", |s| {
        s.matches("TMUX-TEST-PROMPT$").count() >= 2
    });
    let saved = std::fs::read_to_string(data.join("progress.json")).unwrap();
    assert!(saved.contains("labels = labels - 1"), "{saved}");

    // Reopen: the edit and the ✓ are still there.
    t.type_text(&format!("clear; {bin} --lang en lesson 3"));
    t.send(&["Enter"]);
    t.wait_for("3/6");
    t.send(&["Tab"]);
    let reopened = t.wait_for("labels = labels - 1");
    assert!(reopened.contains("✓ l3-one-based"), "{reopened}");
    t.send(&["Escape"]);
    sleep(Duration::from_millis(200));
    t.send(&["q"]);
}

/// `kill -TERM` (and -INT, -HUP) end the pager like `q`: terminal restored, place saved.
#[test]
fn terminal_is_restored_after_sigterm_and_sigint() {
    let bin = env!("CARGO_BIN_EXE_cudatutor");
    for signal in ["TERM", "INT"] {
        let data = temp_dir(&format!("signal-{signal}"));
        let t = e2e_shell(&format!("signal-{signal}"), &data);
        t.type_text(&format!("{bin} --lang en lesson 2 & sleep 0.3; fg"));
        t.send(&["Enter"]);
        t.wait_for("2/6");
        assert_eq!(t.query("#{alternate_on}"), "1");
        let kill = Command::new("pkill")
            .args([
                &format!("-{signal}"),
                "-f",
                &format!("{bin} --lang en lesson 2"),
            ])
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
        t.type_text("stty -a | tr ' ' '\\n' | grep -E '^-?icanon$'; echo STTY-$((6*7))");
        t.send(&["Enter"]);
        let stty = t.wait_for("STTY-42");
        assert!(
            stty.lines().any(|l| l.trim() == "icanon"),
            "SIG{signal}: cooked mode:\n{stty}"
        );
        let saved = std::fs::read_to_string(data.join("progress.json")).unwrap();
        assert!(
            saved.contains("\"last_lesson\": \"devices\""),
            "SIG{signal}: {saved}"
        );
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
        let data = temp_dir(&format!("hangup-{case}"));
        let t = e2e_shell(&format!("hangup-{case}"), &data);
        // exec: the pane's process is the pager itself, so its pid is the pane's.
        t.type_text(&format!("exec {wrapper}{bin} --lang en lesson 2"));
        t.send(&["Enter"]);
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
        let saved = std::fs::read_to_string(data.join("progress.json")).unwrap();
        assert!(
            saved.contains("\"last_lesson\": \"devices\""),
            "{case}: place saved: {saved}"
        );
    }
}
