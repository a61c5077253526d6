//! A shell in a detached tmux session, for tests that run the real binary in a real terminal.
//! Fails, never skips, when tmux is missing (scripts/test.sh installs it).

// Each test binary that includes `common` uses a different part of it.
#![allow(dead_code)]

use std::process::Command;
use std::thread::sleep;
use std::time::{Duration, Instant};

/// What the shell prints when it is ready for a command.
pub(crate) const PROMPT: &str = "TMUX-TEST-PROMPT$";

pub(crate) struct Tmux {
    session: String,
    join_wrapped: bool,
}

impl Tmux {
    /// A `width` x `height` bash with `env` (`NAME=value` strings) and nothing from the user's
    /// rc files. Waits for the prompt.
    pub(crate) fn start(name: &str, width: u16, height: u16, env: &[String]) -> Tmux {
        let session = format!("cudatutor-test-{name}-{}", std::process::id());
        let status = Command::new("tmux")
            .args(["-L", &session])
            .args(["-f", "/dev/null", "new-session", "-d", "-s", &session])
            .args(["-x", &width.to_string(), "-y", &height.to_string()])
            // The environment is given to the shell explicitly: a tmux server that is already
            // running would otherwise hand new sessions its own environment, not ours.
            .args([
                "env",
                "-u",
                "NO_COLOR",
                "TERM=xterm-256color",
                "RUST_BACKTRACE=0",
            ])
            .arg(format!("PS1={PROMPT} "))
            .args(env)
            .args(["bash", "--norc", "--noprofile"])
            .status()
            .expect("tmux must be installed for this test (scripts/test.sh installs it)");
        assert!(status.success(), "tmux new-session failed");
        let t = Tmux {
            session,
            join_wrapped: false,
        };
        t.wait_for(PROMPT);
        t
    }

    /// Captures join lines the terminal wrapped (for long shell output rather than a TUI).
    pub(crate) fn joining_wrapped_lines(mut self) -> Tmux {
        self.join_wrapped = true;
        self
    }

    /// A tmux command on this session's own server (`-L`): each test session has a server of
    /// its own, so killing one never stops the server under another test's session (a shared
    /// server exits with its last session, and a session started meanwhile dies with it).
    fn tmux(&self) -> Command {
        let mut c = Command::new("tmux");
        c.args(["-L", &self.session]);
        c
    }

    /// Keys by tmux name (`Enter`, `C-c`, `F5`, ...).
    pub(crate) fn send(&self, keys: &[&str]) {
        let status = self
            .tmux()
            .args(["send-keys", "-t", &self.session])
            .args(keys)
            .status()
            .unwrap();
        assert!(status.success());
    }

    /// Resizes the window (the program in it gets SIGWINCH, as when a terminal is resized).
    pub(crate) fn resize(&self, width: u16, height: u16) {
        let status = self
            .tmux()
            .args(["resize-window", "-t", &self.session])
            .args(["-x", &width.to_string(), "-y", &height.to_string()])
            .status()
            .unwrap();
        assert!(status.success(), "tmux resize-window failed");
    }

    /// Literal text, no key names.
    pub(crate) fn type_text(&self, text: &str) {
        let status = self
            .tmux()
            .args(["send-keys", "-t", &self.session, "-l", text])
            .status()
            .unwrap();
        assert!(status.success());
    }

    /// A command line: its text, then Enter.
    pub(crate) fn enter(&self, line: &str) {
        self.type_text(line);
        self.send(&["Enter"]);
    }

    pub(crate) fn screen(&self) -> String {
        let mut capture = self.tmux();
        capture.args(["capture-pane", "-p", "-t", &self.session]);
        if self.join_wrapped {
            capture.arg("-J");
        }
        let out = capture.output().unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// A tmux format about the pane, e.g. `#{alternate_on}`.
    pub(crate) fn query(&self, format: &str) -> String {
        let out = self
            .tmux()
            .args(["display-message", "-p", "-t", &self.session, format])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    pub(crate) fn wait_for(&self, needle: &str) -> String {
        self.wait_until(&format!("{needle:?}"), |s| s.contains(needle))
    }

    pub(crate) fn wait_until(&self, what: &str, ok: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let screen = self.screen();
            if ok(&screen) {
                return screen;
            }
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {what}; screen:\n{screen}"
            );
            sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self
            .tmux()
            .args(["kill-session", "-t", &self.session])
            .status();
    }
}
