//! Exercises as real files, for the learner's own editor: `<data dir>/<lesson id>/<exercise
//! id>.py` holds exactly the exercise's code (no header, so a traceback's line 7 is the file's
//! line 7), and what is saved there becomes the exercise's saved code, the same code the
//! pager's editor saves.
//!
//! For the pager (`e` on a card): after leaving the alternate screen, call [`edit_in_editor`]
//! with the pager's own [`Progress`]; it writes the file, runs the editor (`--edit-cmd`, else
//! `$VISUAL`, else `$EDITOR`) in the terminal, reads the file back into `progress` and runs the
//! exercise's checks, recording the result exactly as a run in the pager would. The pager then
//! saves `progress` as usual and shows the returned report on the card. `cudatutor edit EXERCISE`
//! is the same flow from the command line ([`edit_and_save`]), and `cudatutor watch` re-runs
//! on every save of the same file.

use super::grade;
use crate::lesson::{Catalog, Exercise, Lesson};
use crate::progress::{Progress, Store};
use crate::run::{RunOptions, RunReport};
use std::path::{Path, PathBuf};

/// Where exercise `ex` of `lesson` is written for an editor: `<data dir>/<lesson id>/<exercise
/// id>.py`.
pub(crate) fn work_file(data_dir: &Path, lesson: &Lesson, ex: &Exercise) -> PathBuf {
    data_dir.join(&lesson.id).join(format!("{}.py", ex.id))
}

/// The lesson (0-based index) and exercise with id `id`.
pub fn find_exercise<'a>(
    catalog: &'a Catalog,
    id: &str,
) -> Option<(usize, &'a Lesson, &'a Exercise)> {
    catalog
        .lessons
        .iter()
        .enumerate()
        .find_map(|(i, l)| l.exercises.iter().find(|e| e.id == id).map(|e| (i, l, e)))
}

/// Sets `code` as the learner's code for `ex` (none kept when it is the starting code, as the
/// pager does). Returns whether anything changed.
pub(crate) fn set_code(progress: &mut Progress, ex: &Exercise, code: &str) -> bool {
    let start = ex.start_code.trim_end_matches('\n');
    let new = (code.trim_end_matches('\n') != start).then(|| code.to_string());
    let old = progress
        .exercises
        .get(&ex.id)
        .and_then(|s| s.code.as_deref());
    if old.map(|c| c.trim_end_matches('\n')) == new.as_deref().map(|c| c.trim_end_matches('\n')) {
        return false;
    }
    progress.exercises.entry(ex.id.clone()).or_default().code = new;
    true
}

/// Writes `ex`'s current code to its work file, creating the folder. When the file already
/// holds other code and was written after `since` (the progress file's time: work saved in the
/// editor while cudatutor was not looking), that code is kept and taken into `progress`
/// instead. Returns the path and whether the file's code was taken.
pub fn prepare(
    data_dir: &Path,
    progress: &mut Progress,
    lesson: &Lesson,
    ex: &Exercise,
    since: Option<std::time::SystemTime>,
) -> Result<(PathBuf, bool), String> {
    let path = work_file(data_dir, lesson, ex);
    let current = progress.current_code(ex).to_string();
    if let Ok(on_disk) = read_code(&path) {
        if on_disk.trim_end_matches('\n') == current.trim_end_matches('\n') {
            return Ok((path, false));
        }
        let newer = match (std::fs::metadata(&path).and_then(|m| m.modified()), since) {
            (Ok(file), Some(since)) => file > since,
            (Ok(_), None) => true,
            (Err(_), _) => false,
        };
        if newer {
            set_code(progress, ex, &on_disk);
            return Ok((path, true));
        }
    }
    write_code(&path, &current)?;
    Ok((path, false))
}

/// Reads a work file (UTF-8; a BOM is dropped, CRLF line ends become LF).
pub(crate) fn read_code(path: &Path) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| format!("{}: the file is not UTF-8 text", path.display()))?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    Ok(text.replace("\r\n", "\n"))
}

/// Writes `code` to `path` (creating its folder), ending it with a newline.
pub(crate) fn write_code(path: &Path, code: &str) -> Result<(), String> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let mut text = code.to_string();
    if !text.ends_with('\n') {
        text.push('\n');
    }
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The editor command: `--edit-cmd`, else `$VISUAL`, else `$EDITOR` (the first that is set and
/// not blank). A shell command line: `code -w`, `vim`, `emacsclient -t` all work.
pub(crate) fn editor_command(edit_cmd: Option<&str>) -> Result<String, String> {
    edit_cmd
        .map(str::to_string)
        .or_else(|| std::env::var("VISUAL").ok())
        .into_iter()
        .chain(std::env::var("EDITOR").ok())
        .find(|c| !c.trim().is_empty())
        .ok_or_else(|| {
            "no editor: set $VISUAL or $EDITOR, or give one with --edit-cmd \"code -w\"".to_string()
        })
}

/// Runs `command` on `path` through `sh -c` with the terminal's stdin/stdout/stderr, and waits
/// for it to exit. A GUI editor must be told to wait (`code -w`, `subl -w`, `gedit -s`).
pub(crate) fn open_editor(command: &str, path: &Path) -> Result<(), String> {
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("{command} \"$1\""))
        .arg("sh")
        .arg(path)
        .status()
        .map_err(|e| format!("cannot start the editor `{command}`: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!(
            "the editor `{command}` exited with {status}; the file was not read back"
        ))
    }
}

/// What editing an exercise in an outside editor did.
#[derive(Debug, Clone)]
pub struct EditOutcome {
    pub path: PathBuf,
    /// The code read back from the file (now the exercise's code in progress).
    pub code: String,
    /// Whether the code differs from what it was before the editor opened.
    pub changed: bool,
    /// The run of the exercise and its checks on that code (recorded in progress).
    pub report: RunReport,
}

/// The options of a run of the work file at `path`: its tracebacks name that file (absolute, as
/// `cudatutor run FILE` names it), not `exercise.py`, so an editor can jump to the line.
pub(crate) fn file_options(opts: &RunOptions, path: &Path) -> RunOptions {
    let name = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    RunOptions {
        filename: name.display().to_string(),
        ..opts.clone()
    }
}

/// Runs `code` as `ex`'s code against its checks and records the result in `progress` (the ✓,
/// attempts, time to pass), as a run in the pager does.
pub(crate) fn run_and_record(
    progress: &mut Progress,
    lesson: &Lesson,
    ex: &Exercise,
    code: &str,
    opts: &RunOptions,
) -> RunReport {
    let report = grade::run_graded(lesson, ex, code, opts);
    progress.record_check(ex, code, &report);
    report
}

/// The pager's `e` and `cudatutor edit`: writes `ex`'s current code to its work file under
/// `data_dir`, opens the editor on it, and when the editor exits takes the file's code into
/// `progress` and runs the checks. `progress` is changed in memory only: the caller saves it.
pub fn edit_in_editor(
    data_dir: &Path,
    progress: &mut Progress,
    lesson: &Lesson,
    ex: &Exercise,
    edit_cmd: Option<&str>,
    opts: &RunOptions,
) -> Result<EditOutcome, String> {
    let command = editor_command(edit_cmd)?;
    let before = progress.current_code(ex).to_string();
    let path = work_file(data_dir, lesson, ex);
    write_code(&path, &before)?;
    open_editor(&command, &path)?;
    let code = read_code(&path)?;
    set_code(progress, ex, &code);
    let report = run_and_record(progress, lesson, ex, &code, &file_options(opts, &path));
    Ok(EditOutcome {
        changed: code.trim_end_matches('\n') != before.trim_end_matches('\n'),
        path,
        code,
        report,
    })
}

/// `cudatutor edit EXERCISE`: [`edit_in_editor`] on the saved progress of `store`'s lesson
/// set, saved afterwards (read again just before the save, so work saved meanwhile by a pager
/// on another exercise is kept).
pub(crate) fn edit_and_save(
    store: &Store,
    lesson: &Lesson,
    ex: &Exercise,
    edit_cmd: Option<&str>,
    opts: &RunOptions,
) -> Result<EditOutcome, String> {
    let mut progress = store.load().progress;
    let outcome = edit_in_editor(store.dir(), &mut progress, lesson, ex, edit_cmd, opts)?;
    save_exercise(store, &progress, ex)?;
    Ok(outcome)
}

/// Saves what `progress` holds for exercise `ex` (its code, check record and stats) into the
/// progress file as it is now, leaving everything else there as it finds it.
pub(crate) fn save_exercise(
    store: &Store,
    progress: &Progress,
    ex: &Exercise,
) -> Result<(), String> {
    let mut fresh = store.load().progress;
    copy_exercise(progress, &mut fresh, &ex.id);
    store
        .save(&fresh)
        .map_err(|e| format!("progress was not saved: {e}"))
}

/// Copies exercise `id`'s code, check record and stats from `from` to `to`.
pub(crate) fn copy_exercise(from: &Progress, to: &mut Progress, id: &str) {
    let id = id.to_string();
    match from.exercises.get(&id) {
        Some(s) => to.exercises.insert(id.clone(), s.clone()),
        None => to.exercises.remove(&id),
    };
    match from.checks.get(&id) {
        Some(c) => to.checks.insert(id.clone(), c.clone()),
        None => to.checks.remove(&id),
    };
    match from.stats.get(&id) {
        Some(s) => to.stats.insert(id, s.clone()),
        None => to.stats.remove(&id),
    };
}
