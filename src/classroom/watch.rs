//! `cudatutor watch [EXERCISE]`: re-runs an exercise and its checks each time its work file
//! (`<data dir>/<lesson>/<exercise>.py`, [`super::workfile`]) is saved, printing what the card
//! shows. Without an exercise it starts at the first one that does not pass and moves on to
//! the next each time one passes. File events come from the `notify` crate (inotify, FSEvents,
//! ReadDirectoryChangesW); with `--manual-run`, or when the watcher cannot start (some network
//! and WSL2 file systems), the learner presses Enter after each save instead.

use super::card::{card_text, render_run};
use super::workfile;
use crate::lesson::{Catalog, Exercise, Lang, Lesson};
use crate::progress::Store;
use crate::run::RunOptions;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

enum Event {
    /// Something happened to a file in the watched folders (named by its path).
    Changed(PathBuf),
    /// Enter on stdin: run now.
    RunNow,
    /// `q` on stdin, or stdin closed in manual mode.
    Quit,
    /// The watcher reported an error.
    WatchError(String),
}

/// Settings of one `watch`.
pub(crate) struct WatchSettings<'a> {
    /// The exercise to watch; None: the first that does not pass, then the next ones.
    pub exercise: Option<&'a str>,
    /// Enter instead of file events.
    pub manual: bool,
    pub lang: Lang,
    pub opts: &'a RunOptions,
}

/// Runs the watch loop until `q`, stdin closing (manual mode), or every exercise passing (when
/// no exercise was named). Prints to `out`. Err: a message for the command line.
pub(crate) fn watch(
    catalog: &Catalog,
    store: &Store,
    settings: &WatchSettings,
    out: &mut dyn Write,
) -> Result<(), String> {
    let t = card_text(settings.lang);
    let say = |out: &mut dyn Write, text: &str| -> Result<(), String> {
        out.write_all(text.as_bytes())
            .and_then(|()| out.flush())
            .map_err(|e| e.to_string())
    };
    let mut current = match settings.exercise {
        Some(id) => match workfile::find_exercise(catalog, id) {
            Some((_, l, e)) => (l, e),
            None => return Err(t.no_exercise.replace("{id}", id)),
        },
        None => match next_unpassed(catalog, store, None) {
            Some(found) => found,
            None => {
                say(out, &format!("{}\n", t.all_done))?;
                return Ok(());
            }
        },
    };
    let (tx, rx) = mpsc::channel::<Event>();
    spawn_stdin_reader(tx.clone(), settings.manual);
    std::fs::create_dir_all(store.dir()).map_err(|e| format!("{}: {e}", store.dir().display()))?;
    let mut manual = settings.manual;
    // Kept alive for as long as the loop runs: dropping it stops the events.
    let mut _watcher = None;
    if !manual {
        match start_watcher(store.dir(), tx.clone()) {
            Ok(w) => _watcher = Some(w),
            Err(why) => {
                manual = true;
                say(
                    out,
                    &format!("{}\n", t.watch_fallback.replace("{why}", &why)),
                )?;
            }
        }
    }
    loop {
        let (lesson, ex) = current;
        let path = start_exercise(store, lesson, ex, settings, out)?;
        say(
            out,
            &format!(
                "{}\n{}\n",
                t.watching.replace("{path}", &path.display().to_string()),
                if manual {
                    t.watch_manual_keys
                } else {
                    t.watch_keys
                }
            ),
        )?;
        let mut last_run = run_file(store, lesson, ex, &path, settings, out)?;
        loop {
            if last_run.1 && settings.exercise.is_none() {
                break;
            }
            let Ok(event) = rx.recv() else {
                return Ok(());
            };
            let run = match event {
                Event::Quit => return Ok(()),
                Event::RunNow => true,
                Event::WatchError(why) => {
                    say(
                        out,
                        &format!("{}\n", t.watch_fallback.replace("{why}", &why)),
                    )?;
                    false
                }
                Event::Changed(p) => {
                    if !same_file(&p, &path) {
                        continue;
                    }
                    // Editors save in bursts (truncate, write, rename): let the burst end.
                    std::thread::sleep(Duration::from_millis(100));
                    while let Ok(e) = rx.try_recv() {
                        if matches!(e, Event::Quit) {
                            return Ok(());
                        }
                    }
                    match workfile::read_code(&path) {
                        Ok(code) => code != last_run.0,
                        Err(_) => false,
                    }
                }
            };
            if run {
                last_run = run_file(store, lesson, ex, &path, settings, out)?;
            }
        }
        match next_unpassed(catalog, store, Some(&ex.id)) {
            Some((l, e)) => {
                let next = workfile::work_file(store.dir(), l, e);
                say(
                    out,
                    &format!(
                        "\n{}\n",
                        t.next_exercise
                            .replace("{id}", &e.id)
                            .replace("{path}", &next.display().to_string())
                    ),
                )?;
                current = (l, e);
            }
            None => {
                say(out, &format!("\n{}\n", t.all_done))?;
                return Ok(());
            }
        }
    }
}

/// Writes the exercise's work file (or takes newer work from it) and says so.
fn start_exercise(
    store: &Store,
    lesson: &Lesson,
    ex: &Exercise,
    settings: &WatchSettings,
    out: &mut dyn Write,
) -> Result<PathBuf, String> {
    let since = std::fs::metadata(store.path())
        .and_then(|m| m.modified())
        .ok();
    let mut progress = store.load().progress;
    let (path, took) = workfile::prepare(store.dir(), &mut progress, lesson, ex, since)?;
    if took {
        workfile::save_exercise(store, &progress, ex)?;
        let t = card_text(settings.lang);
        let _ = writeln!(
            out,
            "{}",
            t.took_file.replace("{path}", &path.display().to_string())
        );
    }
    Ok(path)
}

/// Reads the file, saves it as the exercise's code, runs it with its checks, records and prints
/// the result. Returns the code run and whether it passed.
fn run_file(
    store: &Store,
    lesson: &Lesson,
    ex: &Exercise,
    path: &Path,
    settings: &WatchSettings,
    out: &mut dyn Write,
) -> Result<(String, bool), String> {
    let code = workfile::read_code(path)?;
    let mut progress = store.load().progress;
    workfile::set_code(&mut progress, ex, &code);
    let opts = workfile::file_options(settings.opts, path);
    let report = workfile::run_and_record(&mut progress, lesson, ex, &code, &opts);
    workfile::save_exercise(store, &progress, ex)?;
    let text = format!(
        "\n── {} ──\n{}",
        ex.id,
        render_run(ex, &report, settings.lang)
    );
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| e.to_string())?;
    Ok((
        code,
        report.checks_passed() && report.internal_error.is_none(),
    ))
}

/// The first exercise after `after` (from the start when None, wrapping around) that does not
/// pass by the saved progress.
fn next_unpassed<'a>(
    catalog: &'a Catalog,
    store: &Store,
    after: Option<&str>,
) -> Option<(&'a Lesson, &'a Exercise)> {
    let progress = store.load().progress;
    let all: Vec<(&Lesson, &Exercise)> = catalog
        .lessons
        .iter()
        .flat_map(|l| l.exercises.iter().map(move |e| (l, e)))
        .collect();
    let start = after
        .and_then(|id| all.iter().position(|(_, e)| e.id == id))
        .map_or(0, |i| i + 1);
    (0..all.len())
        .map(|k| all[(start + k) % all.len()])
        .find(|(_, e)| !progress.passed(e))
}

fn same_file(event_path: &Path, path: &Path) -> bool {
    event_path == path
        || (event_path.file_name() == path.file_name()
            && event_path.parent().and_then(Path::file_name)
                == path.parent().and_then(Path::file_name))
}

/// Enter → run now, `q` → quit. In manual mode stdin closing quits (nothing else can trigger
/// a run); with file events it only stops reading.
fn spawn_stdin_reader(tx: mpsc::Sender<Event>, manual: bool) {
    std::thread::spawn(move || {
        let stdin = std::io::stdin();
        let mut line = String::new();
        loop {
            line.clear();
            match stdin.read_line(&mut line) {
                Ok(0) | Err(_) => {
                    if manual {
                        let _ = tx.send(Event::Quit);
                    }
                    return;
                }
                Ok(_) => {
                    let word = line.trim();
                    let event = if word.eq_ignore_ascii_case("q") || word == "quit" {
                        Event::Quit
                    } else {
                        Event::RunNow
                    };
                    if tx.send(event).is_err() {
                        return;
                    }
                }
            }
        }
    });
}

/// A recursive watcher on the data folder, sending every path an event names.
fn start_watcher(
    dir: &Path,
    tx: mpsc::Sender<Event>,
) -> Result<notify::RecommendedWatcher, String> {
    use notify::{EventKind, RecursiveMode, Watcher};
    let mut watcher =
        notify::recommended_watcher(move |res: notify::Result<notify::Event>| match res {
            Ok(event) => {
                if matches!(event.kind, EventKind::Access(_)) {
                    return;
                }
                for p in event.paths {
                    let _ = tx.send(Event::Changed(p));
                }
            }
            Err(e) => {
                let _ = tx.send(Event::WatchError(e.to_string()));
            }
        })
        .map_err(|e| e.to_string())?;
    watcher
        .watch(dir, RecursiveMode::Recursive)
        .map_err(|e| e.to_string())?;
    Ok(watcher)
}
