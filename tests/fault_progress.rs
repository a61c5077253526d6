//! Fault tests: the real binary under the faults a learner's machine has.
//!
//! - kill -9 at random moments while it saves large progress: the file is always the old or
//!   the new one, and temp files of killed saves are removed at the next start;
//! - a read-only and a full data folder: `list`, `check`, `run`, `report` and the pager still
//!   work, the pager says at start-up and on each failed save, in one line, which path failed
//!   and the OS error, edits stay in memory, the old file is never touched;
//! - stdout closed by its reader (`cudatutor list | head -1`): every printing command stops
//!   quietly with status 141, never Rust's "failed printing to stdout" panic;
//!
//! Tests run as root in CI containers, where chmod 0555 stops nothing: the read-only folder is
//! then a read-only bind mount and the full one a tiny tmpfs, each in a private mount namespace
//! (`unshare -m`, or `unshare -rm` as a normal user). Where none of that is possible the test
//! prints SKIPPED and why. docs/robustness.md "Fault tests" has what each proves and timings.

#[path = "support/cli.rs"]
mod cli;
#[macro_use]
#[path = "support/hook_test.rs"]
mod hook_test;
mod common;
#[path = "support/pager.rs"]
mod pager;
use pager::app_on;

use common::tmux::Tmux;
#[cfg(feature = "fault-injection")]
use cudatutor::fault_injection::test_generation;
use cudatutor::lesson::{Catalog, Lang};
use cudatutor::progress::{Progress, Store};
use cudatutor::ui::App;
use std::io::Read;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_cudatutor");

fn temp_dir(name: &str) -> PathBuf {
    cli::scratch_dir("fault", name)
}

/// Names of save temp files (`.progress.json.<pid>.<n>.tmp`) in `dir`.
fn temp_files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".progress.json.") && n.ends_with(".tmp"))
        .collect();
    names.sort();
    names
}

/// Name, length and modification time of every file in `dir`.
fn dir_state(dir: &Path) -> std::collections::BTreeMap<String, (u64, std::time::SystemTime)> {
    std::fs::read_dir(dir)
        .unwrap()
        .filter_map(Result::ok)
        .filter_map(|e| {
            let m = e.metadata().ok()?;
            Some((
                e.file_name().to_string_lossy().into_owned(),
                (m.len(), m.modified().ok()?),
            ))
        })
        .collect()
}

/// Whether a file appeared in `dir` or changed since `before` (removals do not count: the
/// start-up removes the temp file a previous kill left).
fn written_since(
    dir: &Path,
    before: &std::collections::BTreeMap<String, (u64, std::time::SystemTime)>,
) -> bool {
    dir_state(dir)
        .iter()
        .any(|(name, state)| before.get(name) != Some(state))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// xorshift64*, seeded from the clock; the seed is printed so a failure can be replayed
/// with FAULT_SEED.
struct Rng(u64);

impl Rng {
    fn new() -> Rng {
        let seed = std::env::var("FAULT_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .unwrap()
                    .as_nanos() as u64
                    | 1
            });
        eprintln!("FAULT_SEED={seed}");
        Rng(seed)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n
    }
}

// ---------------------------------------------------------------------------------------------
// kill -9 during saves

hook_test! {
    /// The binary's hidden save loop (CUDATUTOR_TEST_SAVE_LOOP) writes ~0.5–1 MiB generations
    /// as fast as it can and prints `saved N` after each. Killed dozens of times, half at
    /// random moments of its run, half at random moments of a save's write-fsync-rename (just
    /// after its temp file appears):
    /// after each kill the file must parse and be exactly generation N (the last reported) or
    /// N+1 (saved, killed before it could say so); at most the one temp file of the save in
    /// flight may be left, and the next start removes it. Fails if too few kills land inside a
    /// save (a temp file left behind), since the test would then prove nothing.
    fn kill_9_during_saves_leaves_the_old_or_the_new_file() {
        kill_9_during_saves();
    }
}

#[cfg(feature = "fault-injection")]
fn kill_9_during_saves() {
    const KIB: usize = 1024;
    // At least MIN_KILLS kills, and more (up to MAX_KILLS) until MIN_MID_SAVE of them have
    // landed inside a save: how many land there depends on the machine's disk and load, and a
    // run that proved too little keeps killing rather than failing.
    const MIN_KILLS: usize = 40;
    const MAX_KILLS: usize = 400;
    const MIN_MID_SAVE: usize = 5;
    let dir = temp_dir("kill");
    let mut rng = Rng::new();
    let started = Instant::now();
    let mut generation = 0u64; // what the file holds (0: no file yet)
    let mut mid_save = 0;
    let mut aimed_mid_save = 0;
    let mut kills = 0;
    for kill in 0..MAX_KILLS {
        if kill >= MIN_KILLS && mid_save >= MIN_MID_SAVE {
            break;
        }
        kills += 1;
        let before = dir_state(&dir);
        let mut child = Command::new(BIN)
            .env("CUDATUTOR_DATA_DIR", &dir)
            .env("CUDATUTOR_TEST_SAVE_LOOP", KIB.to_string())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let reader = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = stdout.read_to_string(&mut s);
            s
        });
        let aimed = kill % 2 == 1;
        if aimed {
            // Wait for this save to touch the folder (its temp file appears; a writer that
            // wrote in place would change progress.json), then kill within the next 1 ms: the
            // write, fsync, rename and folder fsync take about 1–3 ms of each ~40 ms cycle
            // (serialising dominates; less on a fast disk), so unaimed kills rarely land
            // inside them.
            let deadline = Instant::now() + Duration::from_secs(5);
            while !written_since(&dir, &before) {
                assert!(Instant::now() < deadline, "kill {kill}: no save started");
                std::thread::yield_now();
            }
            sleep(Duration::from_micros(rng.below(1000)));
        } else {
            sleep(Duration::from_millis(rng.below(400)));
        }
        child.kill().unwrap();
        let output = child.wait_with_output().unwrap();
        assert_eq!(
            output.status.signal(),
            Some(9),
            "kill {kill}: the save loop ended before the kill: {:?}\n{}",
            output.status,
            text(&output.stderr)
        );
        let printed = reader.join().unwrap();
        let saved: Vec<u64> = printed
            .lines()
            .map(|l| l.strip_prefix("saved ").unwrap().parse().unwrap())
            .collect();
        let expected: Vec<u64> = (generation + 1..generation + 1 + saved.len() as u64).collect();
        assert_eq!(
            saved, expected,
            "kill {kill}: the loop continues from the file"
        );
        let last = saved.last().copied().unwrap_or(generation);

        let left = temp_files(&dir);
        assert!(
            left.len() <= 1,
            "kill {kill}: temp files accumulate: {left:?}"
        );
        if !left.is_empty() {
            mid_save += 1;
            aimed_mid_save += usize::from(aimed);
        }
        let path = dir.join("progress.json");
        match std::fs::read(&path) {
            Err(e) => {
                assert_eq!(e.kind(), std::io::ErrorKind::NotFound, "kill {kill}: {e}");
                assert_eq!(last, 0, "kill {kill}: saves were reported, yet no file");
            }
            Ok(bytes) => {
                let progress: Progress = cudatutor::progress::read_set(
                    &bytes,
                    cudatutor::progress::BUILTIN_SET,
                )
                .unwrap_or_else(|e| {
                    panic!(
                        "kill {kill}: a broken file ({} bytes): {e}; last reported save {last}",
                        bytes.len()
                    )
                });
                let k: u64 = progress
                    .last_lesson
                    .as_deref()
                    .and_then(|l| l.strip_prefix("gen-"))
                    .and_then(|n| n.parse().ok())
                    .unwrap();
                assert!(
                    k == last || k == last + 1,
                    "kill {kill}: file holds generation {k}, last reported {last}"
                );
                assert!(
                    progress == test_generation(k, KIB),
                    "kill {kill}: generation {k} is not what was saved"
                );
                generation = k;
            }
        }
    }
    // A real start reads the file cleanly and removes what the last kill left.
    let list = Command::new(BIN)
        .args(["--lang", "en", "list"])
        .env("CUDATUTOR_DATA_DIR", &dir)
        .output()
        .unwrap();
    assert!(list.status.success(), "{}", text(&list.stderr));
    assert_eq!(text(&list.stderr), "", "the file loads without a warning");
    assert_eq!(temp_files(&dir), Vec::<String>::new(), "cleaned at start");
    eprintln!(
        "{kills} kills in {:.1} s: {mid_save} inside a save (temp file left; {aimed_mid_save} of the {} aimed), {generation} generations saved",
        started.elapsed().as_secs_f64(),
        kills / 2
    );
    assert!(
        mid_save >= MIN_MID_SAVE,
        "only {mid_save} of {kills} kills landed inside a save: the test proved too little"
    );
    assert!(
        generation >= MIN_KILLS as u64 / 8,
        "only {generation} saves completed"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------------------------------------
// read-only and full data folders

#[derive(Clone, Copy, Debug, PartialEq)]
enum Fault {
    ReadOnly,
    Full,
}

/// How a fault is made here: a shell script run as `sh -c SCRIPT sh DIR SEED PROGRAM ARGS…`,
/// optionally inside `unshare`. The script puts SEED in DIR as progress.json, makes the fault,
/// runs the program, then prints whether progress.json is still SEED byte for byte and what is
/// left in DIR (FAULT-OLD-FILE-INTACT / FAULT-LEFT: names).
struct Confinement {
    unshare: Option<&'static str>,
    setup: &'static str,
    /// The OS error a write in DIR gets, as Rust prints it.
    os_error: &'static str,
    how: String,
}

const EPILOGUE: &str = r#"cmp -s "$seed" "$d/progress.json" && echo FAULT-OLD-FILE-INTACT || echo FAULT-OLD-FILE-CHANGED
echo "FAULT-LEFT: $(ls -A "$d" | tr '\n' ' ')""#;

const CHMOD: &str = r#"cp "$seed" "$d/progress.json" && chmod 0555 "$d""#;
const RO_BIND: &str = r#"cp "$seed" "$d/progress.json" && mount --bind "$d" "$d" && mount -o remount,bind,ro "$d" && ! touch "$d/.probe" 2>/dev/null"#;
const TINY_TMPFS: &str = r#"mount -t tmpfs -o size=256k tmpfs "$d" && cp "$seed" "$d/progress.json" && { dd if=/dev/zero of="$d/filler" bs=4096 2>/dev/null; true; } && ! dd if=/dev/zero of="$d/.probe" bs=1 count=1 2>/dev/null && rm -f "$d/.probe""#;

impl Confinement {
    fn script(&self) -> String {
        let undo = if self.setup == CHMOD {
            "chmod 0755 \"$d\"; "
        } else {
            ""
        };
        format!(
            "d=$1; seed=$2; shift 2\n{{ {}; }} || {{ echo FAULT-SETUP-FAILED; exit 97; }}\n\"$@\"; rc=$?\n{undo}{EPILOGUE}\nexit $rc",
            self.setup
        )
    }

    fn argv(&self, dir: &Path, seed: &Path, program: &[&str]) -> Vec<String> {
        let mut v = Vec::new();
        if let Some(flags) = self.unshare {
            v.push("unshare".to_string());
            v.push(flags.to_string());
        }
        v.extend(["sh".into(), "-c".into(), self.script(), "sh".into()]);
        v.push(dir.display().to_string());
        v.push(seed.display().to_string());
        v.extend(program.iter().map(|s| s.to_string()));
        v
    }

    fn command(&self, dir: &Path, seed: &Path, program: &[&str]) -> Command {
        let argv = self.argv(dir, seed, program);
        let mut c = Command::new(&argv[0]);
        c.args(&argv[1..]).env("CUDATUTOR_DATA_DIR", dir);
        c
    }

    /// The same as one shell line, for typing into tmux; the script goes in a file so that
    /// the markers it prints are not on the screen before it runs.
    fn shell_line(&self, dir: &Path, seed: &Path, program: &[&str]) -> String {
        let file = dir.with_extension("sh");
        std::fs::write(&file, self.script()).unwrap();
        let mut argv = self.argv(dir, seed, program);
        let at = argv.iter().position(|a| a == "-c").unwrap();
        argv.splice(at..at + 3, [file.display().to_string()]);
        argv.iter()
            .map(|a| format!("'{}'", a.replace('\'', r"'\''")))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The first way that works here, or why none does.
    fn find(fault: Fault) -> Result<Confinement, String> {
        let root = Command::new("id")
            .arg("-u")
            .output()
            .map(|o| text(&o.stdout).trim() == "0")
            .unwrap_or(false);
        let mut candidates = Vec::new();
        if fault == Fault::ReadOnly && !root {
            candidates.push(Confinement {
                unshare: None,
                setup: CHMOD,
                os_error: "Permission denied (os error 13)",
                how: "chmod 0555 (not root)".into(),
            });
        }
        for flags in if root { ["-m", "-rm"] } else { ["-rm", "-m"] } {
            candidates.push(match fault {
                Fault::ReadOnly => Confinement {
                    unshare: Some(flags),
                    setup: RO_BIND,
                    os_error: "Read-only file system (os error 30)",
                    how: format!("unshare {flags} + read-only bind mount"),
                },
                Fault::Full => Confinement {
                    unshare: Some(flags),
                    setup: TINY_TMPFS,
                    os_error: "No space left on device (os error 28)",
                    how: format!("unshare {flags} + a full 256 KiB tmpfs"),
                },
            });
        }
        let mut tried = Vec::new();
        for c in candidates {
            static PROBES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
            let n = PROBES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let dir = temp_dir(&format!("probe-{n}"));
            let seed = dir.with_extension("seed");
            std::fs::write(&seed, b"{}").unwrap();
            // `sh -c 'touch "$1/x"'`: the write must fail inside the confinement.
            let out = c
                .command(
                    &dir,
                    &seed,
                    &[
                        "sh",
                        "-c",
                        r#"! dd if=/dev/zero of="$0/x" bs=1 count=1 2>/dev/null"#,
                    ],
                )
                .arg(&dir)
                .output();
            let _ = std::fs::remove_file(&seed);
            let ok = out.as_ref().is_ok_and(|o| {
                o.status.success() && text(&o.stdout).contains("FAULT-OLD-FILE-INTACT")
            });
            let _ = Command::new("chmod").arg("0755").arg(&dir).status();
            let _ = std::fs::remove_dir_all(&dir);
            if ok {
                return Ok(c);
            }
            tried.push(format!(
                "{}: {}",
                c.how,
                match out {
                    Ok(o) => format!("{}{}", text(&o.stdout).trim(), text(&o.stderr).trim()),
                    Err(e) => e.to_string(),
                }
            ));
        }
        Err(tried.join("; "))
    }
}

/// Progress with saved code for lesson 3's first exercise, as the seed file.
fn seed_progress() -> Progress {
    let mut p = Progress {
        last_lesson: Some("device-asserts".into()),
        ..Progress::default()
    };
    cli::save_attempt(
        &mut p,
        "l3-one-based",
        "# seeded-before-the-fault\nimport torch\n".into(),
        false,
    );
    p
}

fn assert_epilogue(out: &str, fault: Fault, what: &str) {
    assert!(
        out.contains("FAULT-OLD-FILE-INTACT"),
        "{what}: the old file changed:\n{out}"
    );
    let left = match fault {
        Fault::ReadOnly => "FAULT-LEFT: progress.json \n",
        Fault::Full => "FAULT-LEFT: filler progress.json \n",
    };
    assert!(out.contains(left), "{what}: temp files left?\n{out}");
}

/// `list`, `check`, `run` and `report` in a faulty folder: they only read progress, so they
/// work as usual and say nothing about saving.
fn commands_still_work(c: &Confinement, fault: Fault) {
    let dir = temp_dir(&format!("{fault:?}-commands"));
    let seed = dir.with_extension("seed");
    std::fs::write(&seed, serde_json::to_vec_pretty(&seed_progress()).unwrap()).unwrap();
    let script_file = dir.with_extension("py");
    std::fs::write(&script_file, "print(6 * 7)\n").unwrap();
    let script = script_file.display().to_string();
    let cases: [(&[&str], &str, i32); 4] = [
        (&["list"], "0/5 exercises  (device-asserts)", 0),
        (&["check", "3", "--json"], "\"l3-one-based\"", 1),
        (&["run", &script], "42\n", 0),
        (&["report"], "| 3 | `l3-one-based` | failed |", 0),
    ];
    for (args, needle, code) in cases {
        let mut program = vec![BIN, "--lang", "en", "--backend", "sim"];
        program.extend(args);
        let out = c.command(&dir, &seed, &program).output().unwrap();
        let stdout = text(&out.stdout);
        let stderr = text(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(code),
            "{args:?}:\n{stdout}\n{stderr}"
        );
        assert!(
            stdout.contains(needle),
            "{args:?}: no {needle:?} in\n{stdout}"
        );
        assert_eq!(stderr, "", "{args:?}: nothing to say on stderr");
        assert_epilogue(&stdout, fault, &format!("{args:?}"));
    }
    let _ = std::fs::remove_file(&script_file);
    let _ = std::fs::remove_file(&seed);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The pager in a faulty folder (in tmux): the start-up line names the folder and the OS
/// error; an edit is kept on screen while its save fails with a line naming progress.json;
/// at quit the last save fails the same way on stderr; the old file is intact.
fn pager_still_works(c: &Confinement, fault: Fault) {
    let dir = temp_dir(&format!("{fault:?}-pager"));
    let seed = dir.with_extension("seed");
    std::fs::write(&seed, serde_json::to_vec_pretty(&seed_progress()).unwrap()).unwrap();
    let t = Tmux::start(&format!("fault-{fault:?}").to_lowercase(), 200, 40, &[])
        .joining_wrapped_lines();
    let line = c.shell_line(
        &dir,
        &seed,
        &[BIN, "--lang", "en", "--backend", "sim", "lesson", "3"],
    );
    t.enter(&format!("CUDATUTOR_DATA_DIR='{}' {line}", dir.display()));
    let start = format!(
        "progress will not be saved: {}: {}",
        dir.display(),
        c.os_error
    );
    // The line goes to stderr too, before the pager's screen: wait for the pager (3/6)
    // showing it in its footer.
    t.wait_until(&format!("the pager's footer with {start:?}"), |s| {
        s.contains(&start) && s.contains("3/6")
    });
    t.send(&["Tab"]);
    t.wait_for("Exercise l3-one-based");
    t.send(&["Enter"]);
    t.type_text("# typed-in-the-fault ");
    // No further key: the debounced save fails and its message stays.
    let failed = format!(
        "Could not save progress: {}: {}",
        dir.join("progress.json").display(),
        c.os_error
    );
    let screen = t.wait_for(&failed);
    assert!(
        screen.contains("# typed-in-the-fault"),
        "the edit is still there:\n{screen}"
    );
    assert!(
        screen.contains("# seeded-before-the-fault"),
        "the saved code was loaded:\n{screen}"
    );
    t.send(&["Escape"]);
    t.wait_until("the editor to close", |s| !s.contains("✎"));
    // Esc again leaves the card: on a focused card `q` is code.
    t.send(&["Escape"]);
    std::thread::sleep(std::time::Duration::from_millis(200));
    t.send(&["q"]);
    // The edit cannot be saved: the pager asks before leaving, naming why.
    let asked = t.wait_for("quit anyway?");
    assert!(asked.contains(c.os_error), "{asked}");
    t.send(&["y"]);
    // Until the prompt is back after the epilogue: the capture can otherwise land while
    // the FAULT-LEFT line is still being drawn.
    let end = t.wait_until("the epilogue and the prompt after it", |s| {
        s.split_once("FAULT-LEFT:")
            .is_some_and(|(_, rest)| rest.contains(common::tmux::PROMPT))
    });
    let last = format!(
        "cudatutor: could not save your place: {}: {}",
        dir.join("progress.json").display(),
        c.os_error
    );
    assert!(end.contains(&last), "no {last:?} in:\n{end}");
    assert!(!end.contains("panicked"), "{end}");
    // tmux wraps long lines at 200 columns; the markers are short and on their own lines.
    assert_epilogue(&format!("{}\n", end.trim_end()), fault, "pager");
    let _ = std::fs::remove_file(dir.with_extension("sh"));
    let _ = std::fs::remove_file(&seed);
    let _ = std::fs::remove_dir_all(&dir);
}

fn fault_test(fault: Fault) {
    let started = Instant::now();
    let c = match Confinement::find(fault) {
        Ok(c) => c,
        Err(why) => {
            eprintln!("SKIPPED {fault:?}: no way to make that fault here: {why}");
            return;
        }
    };
    eprintln!("{fault:?} via {}", c.how);
    commands_still_work(&c, fault);
    pager_still_works(&c, fault);
    eprintln!("{fault:?}: {:.1} s", started.elapsed().as_secs_f64());
}

#[test]
fn read_only_data_dir_keeps_the_tutorial_running() {
    fault_test(Fault::ReadOnly);
}

#[test]
fn full_data_dir_keeps_the_tutorial_running() {
    fault_test(Fault::Full);
}

/// A corrupt file in a read-only folder cannot be moved aside: it is reported with both
/// reasons, left byte for byte as it was, and `list` still runs on fresh progress.
#[test]
fn corrupt_file_in_a_read_only_dir_is_reported_and_left_alone() {
    let c = match Confinement::find(Fault::ReadOnly) {
        Ok(c) => c,
        Err(why) => {
            eprintln!("SKIPPED: no read-only folder possible here: {why}");
            return;
        }
    };
    let dir = temp_dir("ro-corrupt");
    let seed = dir.with_extension("seed");
    std::fs::write(&seed, b"{\"last_lesson\": \"devi").unwrap();
    let out = c
        .command(&dir, &seed, &[BIN, "--lang", "en", "list"])
        .output()
        .unwrap();
    let stdout = text(&out.stdout);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    let lessons = Catalog::builtin(Lang::En).unwrap().lessons.len();
    assert_eq!(stdout.matches(" exercises  (").count(), lessons, "{stdout}");
    let path = dir.join("progress.json");
    let expected = format!(
        "cudatutor: {} could not be read (EOF while parsing a string at line 1 column 21) nor moved aside ({}); progress starts fresh and will not be saved over it\n",
        path.display(),
        c.os_error
    );
    assert_eq!(stderr, expected);
    assert_epilogue(&stdout, Fault::ReadOnly, "list");
    let _ = std::fs::remove_file(&seed);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The pager's handling, for any user and without mounts: a data "folder" that is a regular
/// file. The start-up check names it, a failed save shows where and why, the edit stays in the
/// card, and the file in the way is untouched.
#[test]
fn unwritable_store_in_the_app_keeps_edits_and_says_where() {
    use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
    use ratatui::{Terminal, backend::TestBackend};
    let base = temp_dir("app");
    let data = base.join("data");
    std::fs::write(&data, b"in the way").unwrap();
    let store = Store::at(&data);
    let mut app = app_on(
        "tests/fixtures/lessons/exercise",
        Lang::En,
        Progress::default(),
    )
    .with_store(store.clone());
    app.status = store.check_writable(app.progress()).err();
    let screen = |app: &App| {
        let mut terminal = Terminal::new(TestBackend::new(160, 30)).unwrap();
        terminal.draw(|f| f.render_widget(app, f.area())).unwrap();
        format!("{}", terminal.backend())
    };
    let start = format!(
        "progress will not be saved: {}: it is a file, not a folder",
        data.display()
    );
    assert!(screen(&app).contains(&start), "{}", screen(&app));
    let press = |app: &mut App, code| {
        app.handle_event(&Event::Key(KeyEvent::new(code, KeyModifiers::NONE)));
    };
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Enter);
    for ch in "# mine".chars() {
        press(&mut app, KeyCode::Char(ch));
    }
    app.tick(Instant::now() + Duration::from_secs(1));
    let failed = format!(
        "Could not save progress: {}: it is a file, not a folder",
        data.display()
    );
    let s = screen(&app);
    assert!(s.contains(&failed), "{s}");
    assert!(app.deck.cards["labels-range"].code().starts_with("# mine"));
    assert!(s.contains("# mine"), "{s}");
    assert_eq!(std::fs::read(&data).unwrap(), b"in the way");
    let _ = std::fs::remove_dir_all(&base);
}

// ---------------------------------------------------------------------------------------------
// stdout closed early

/// Runs the binary with stdout a pipe whose read end is already closed: its first write gets
/// EPIPE, deterministically (a `| head -1` may or may not close before a short output is
/// written).
fn with_closed_stdout(args: &[&str], data: &Path) -> Output {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    Command::new(BIN)
        .args(args)
        .env("CUDATUTOR_DATA_DIR", data)
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .unwrap()
}

/// A progress line of lint or check --solutions: `check: 2/5 l1-notebook`.
fn is_progress_line(line: &str) -> bool {
    let Some((command, rest)) = line.split_once(": ") else {
        return false;
    };
    let count = rest.split(' ').next().unwrap_or("");
    matches!(command, "check" | "lint")
        && count
            .split_once('/')
            .is_some_and(|(a, b)| a.parse::<u32>().is_ok() && b.parse::<u32>().is_ok())
}

#[test]
fn every_printing_command_exits_quietly_when_stdout_is_closed() {
    let data = temp_dir("pipe");
    let script = data.join("loop.py");
    std::fs::write(&script, "for i in range(3):\n    print(i)\n").unwrap();
    let script = script.display().to_string();
    let sim = ["--lang", "en", "--backend", "sim"];
    // (arguments, status, what stderr must say apart from nothing)
    let cases: Vec<(Vec<&str>, i32, &str)> = vec![
        (vec!["list"], 141, ""),
        (vec!["check"], 141, ""),
        (vec!["check", "--json"], 141, ""),
        (vec!["check", "--solutions", "1"], 141, ""),
        (vec!["report"], 141, ""),
        (vec!["report", "--format", "json"], 141, ""),
        (vec!["run", &script], 141, ""),
        (vec!["run", "--format", "json", &script], 141, ""),
        (vec!["lint", "tests/fixtures/lessons/good"], 141, ""),
        (vec!["lint", "tests/fixtures/lessons/exercise"], 141, ""),
        (vec!["doctor"], 141, ""),
        (
            vec!["lesson", "nosuch"],
            141,
            "cudatutor: there is no lesson `nosuch`. The lessons are:\n",
        ),
        // clap writes help and version itself and ignores the error: status 0, silent.
        (vec!["--help"], 0, ""),
        (vec!["--version"], 0, ""),
        (vec!["check", "--help"], 0, ""),
    ];
    for (args, status, stderr) in cases {
        let mut all = sim.to_vec();
        all.extend(&args);
        let out = with_closed_stdout(&all, &data);
        let err = text(&out.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        // lint and check --solutions say on stderr where they are ("check: 2/5 l1-notebook"):
        // that is their progress, not a complaint about the closed pipe.
        let err: String = err
            .lines()
            .filter(|l| !is_progress_line(l))
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(err, stderr, "{args:?}");
        assert_eq!(out.status.code(), Some(status), "{args:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&data);
}

/// The real pipeline: a script printing far more than a pipe holds, cut by `head -1`.
#[test]
fn run_piped_into_head_stops_at_the_broken_pipe() {
    let data = temp_dir("head");
    let script = data.join("many.py");
    std::fs::write(&script, "for i in range(200000):\n    print(i)\n").unwrap();
    let out = Command::new("bash")
        .args([
            "-c",
            r#""$0" --backend sim run "$1" | head -1; echo "STATUS=${PIPESTATUS[0]}""#,
            BIN,
        ])
        .arg(&script)
        .env("CUDATUTOR_DATA_DIR", &data)
        .output()
        .unwrap();
    assert_eq!(text(&out.stdout), "0\nSTATUS=141\n");
    assert_eq!(text(&out.stderr), "");
    let _ = std::fs::remove_dir_all(&data);
}

/// Not a closed pipe but a failing one: stdout on a full disk is an error, said as such.
#[test]
fn stdout_on_a_full_disk_is_a_clear_error() {
    let data = temp_dir("devfull");
    for args in [&["list"][..], &["check"], &["report", "--format", "json"]] {
        let out = Command::new(BIN)
            .args(args)
            .env("CUDATUTOR_DATA_DIR", &data)
            .stdout(std::fs::File::create("/dev/full").unwrap())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(
            text(&out.stderr),
            "cudatutor: cannot write to stdout: No space left on device (os error 28)\n",
            "{args:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&data);
}
