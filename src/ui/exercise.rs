//! Live exercises: the runner the UI calls (an engine behind a trait, so the pager does not
//! depend on how scripts run) and the state of one exercise card: its code buffer with an undo
//! history, the part of it in view, the last run's report and which pane shows it. Drawing the
//! cards is in `card.rs`; the keys that act on them are in `app.rs`.

use crate::run::diff::DiffReport;
use crate::run::{BackendLabel, RunOptions, RunReport};
use ratatui_textarea::{CursorMove, TextArea};
use std::time::Duration;
use unicode_width::UnicodeWidthChar;

/// What runs an exercise. The UI only ever sees the [`RunReport`] it returns.
pub trait ExerciseRunner: Send + Sync + 'static {
    /// Runs `code` then (if given) the check block; blocking; called on a background thread.
    fn run(&self, code: &str, check: Option<&str>, opts: &RunOptions) -> RunReport;
    /// Where runs go, e.g. "sim · Simulated H200 (modelled)" in the status bar; its backend
    /// names the report of a run that panicked.
    fn backend_label(&self) -> BackendLabel;
    /// How long a run may take. The engine stops a run at this limit by itself; the pager
    /// cancels one that runs on past it, and gives up on one that ignores the cancel.
    fn wall_limit(&self) -> Duration {
        RunOptions::default().max_wall
    }
    /// Runs `code` (then `check`) on the engine and on real PyTorch and compares them (`D`);
    /// blocking; called on a background thread.
    fn compare(&self, code: &str, check: Option<&str>, opts: &RunOptions) -> DiffReport {
        crate::run::diff::diff_exercise(code, check, opts)
    }
}

/// Runs exercises through [`crate::run`] with the options from the command line (backend,
/// GPUs, memory, the wall limit); the pager's own per-run settings (launch blocking, cancel,
/// the exercise's GPU count) are laid over them.
pub struct EngineRunner {
    base: RunOptions,
    label: BackendLabel,
}

impl EngineRunner {
    pub fn new(base: RunOptions) -> EngineRunner {
        let label = crate::run::backend_label(&base);
        EngineRunner { base, label }
    }
}

impl EngineRunner {
    /// The command line's options with the pager's per-run settings laid over them.
    fn merged(&self, opts: &RunOptions) -> RunOptions {
        let mut env = self.base.env.clone();
        env.extend(opts.env.iter().cloned());
        RunOptions {
            gpus: self.base.gpus.max(opts.gpus),
            launch_blocking: self.base.launch_blocking || opts.launch_blocking,
            env,
            cancel: opts.cancel.clone(),
            // The lesson's language and the predicted names (prediction_pending).
            exercise: opts.exercise.clone(),
            ..self.base.clone()
        }
    }
}

impl ExerciseRunner for EngineRunner {
    /// The run goes to the same isolated worker process as `check`, `lint`, `edit` and
    /// `watch` (run/isolate.rs): a line that aborts, exhausts memory or spins in native code
    /// ends that process, never the pager, and the report says what ended it. Cancelling
    /// (Ctrl-c) kills the worker. The report crosses the pipe whole (output, timeline,
    /// allocator counters), so the panes are fed as by an in-process run.
    fn run(&self, code: &str, check: Option<&str>, opts: &RunOptions) -> RunReport {
        crate::run::isolate::run_exercise_isolated(code, check, &self.merged(opts))
    }

    fn compare(&self, code: &str, check: Option<&str>, opts: &RunOptions) -> DiffReport {
        // The engine side runs on the simulated GPU unless --backend names another engine
        // backend; the other side is the Python of --python / CUDATUTOR_PYTHON / python3.
        crate::run::diff::diff_exercise(code, check, &self.merged(opts))
    }

    fn backend_label(&self) -> BackendLabel {
        self.label.clone()
    }

    fn wall_limit(&self) -> Duration {
        self.base.max_wall
    }
}

/// The result panes of a card; on small cards one is shown at a time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pane {
    Output,
    Memory,
    Timeline,
    Checks,
}

impl Pane {
    pub const ALL: [Pane; 4] = [Pane::Output, Pane::Memory, Pane::Timeline, Pane::Checks];
}

/// The text and cursor at one moment, for undo.
#[derive(Clone)]
struct Snapshot {
    lines: Vec<String>,
    cursor: (usize, usize),
}

const UNDO_DEPTH: usize = 300;
/// Indentation step for Tab, Shift-Tab and Backspace in indentation.
pub(super) const INDENT: usize = 4;

/// One exercise as the learner works on it.
pub struct Card {
    /// The text buffer, cursor, selection and clipboard. Its own undo history and viewport are
    /// not used: undo is [`Card::undo`] (a reset is one step), and the part in view is
    /// `view_top` / `view_left`, kept by the event handlers so drawing changes nothing.
    editor: TextArea<'static>,
    pub start_code: String,
    pub hints_shown: usize,
    pub solution_shown: bool,
    /// The report is from `b`'s run with CUDA_LAUNCH_BLOCKING=1: an experiment, not graded.
    pub experiment: bool,
    pub report: Option<RunReport>,
    /// The code the report came from, to say when the code has changed since.
    pub ran_code: Option<String>,
    pub pane: Pane,
    /// Output lines scrolled back from the end (Shift-↑ / Shift-↓).
    pub output_back: usize,
    /// Output columns scrolled sideways (Shift-← / Shift-→).
    pub output_left: usize,
    /// First code line and first display column in view.
    pub view_top: usize,
    pub view_left: usize,
    undo: Vec<Snapshot>,
    redo: Vec<Snapshot>,
}

impl Card {
    pub fn new(start_code: &str, saved: Option<&str>) -> Card {
        let mut card = Card {
            editor: TextArea::default(),
            start_code: start_code.to_string(),
            hints_shown: 0,
            solution_shown: false,
            experiment: false,
            report: None,
            ran_code: None,
            pane: Pane::Output,
            output_back: 0,
            output_left: 0,
            view_top: 0,
            view_left: 0,
            undo: Vec::new(),
            redo: Vec::new(),
        };
        card.load(&split_code(saved.unwrap_or(start_code)), (0, 0));
        card
    }

    /// A fresh buffer with `lines`, the cursor at `cursor`; the clipboard is kept.
    fn load(&mut self, lines: &[String], cursor: (usize, usize)) {
        let yank = self.editor.yank_text();
        let mut editor = TextArea::new(lines.to_vec());
        editor.set_tab_length(INDENT as u8);
        editor.set_hard_tab_indent(false);
        // The textarea's own history is not used (see `undo`).
        editor.set_max_histories(0);
        editor.set_yank_text(yank);
        let row = cursor.0.min(lines.len().saturating_sub(1));
        let col = cursor
            .1
            .min(lines.get(row).map_or(0, |l| l.chars().count()));
        editor.move_cursor(CursorMove::Jump(clamp16(row), clamp16(col)));
        self.editor = editor;
    }

    pub fn code(&self) -> String {
        self.editor.lines().join("\n")
    }

    pub fn lines(&self) -> &[String] {
        self.editor.lines()
    }

    pub fn cursor(&self) -> (usize, usize) {
        let c = self.editor.cursor();
        (c.0, c.1)
    }

    pub fn selection(&self) -> Option<((usize, usize), (usize, usize))> {
        self.editor.selection_range()
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot {
            lines: self.editor.lines().to_vec(),
            cursor: self.cursor(),
        }
    }

    /// Applies one change to the buffer as one undo step. `change` returns whether it
    /// modified the text; returns the same.
    pub fn edit(&mut self, change: impl FnOnce(&mut TextArea<'static>) -> bool) -> bool {
        let before = self.snapshot();
        let modified = change(&mut self.editor);
        if modified && self.editor.lines() != before.lines.as_slice() {
            self.undo.push(before);
            if self.undo.len() > UNDO_DEPTH {
                self.undo.remove(0);
            }
            self.redo.clear();
            return true;
        }
        false
    }

    /// Moves the cursor (never a change to the text).
    pub(crate) fn move_cursor(&mut self, m: CursorMove) {
        self.editor.move_cursor(m);
    }

    /// Any other key: the textarea's own handling (text, arrows, emacs movements).
    pub fn input(&mut self, key: crossterm::event::KeyEvent) -> bool {
        self.edit(|e| e.input(key))
    }

    /// Replaces the whole code as one undoable step (a reset, a restore).
    pub(crate) fn replace_code(&mut self, code: &str) -> bool {
        let lines = split_code(code);
        if self.editor.lines() == lines.as_slice() {
            return false;
        }
        self.undo.push(self.snapshot());
        self.redo.clear();
        self.load(&lines, (0, 0));
        self.view_top = 0;
        self.view_left = 0;
        true
    }

    pub fn undo(&mut self) -> bool {
        let Some(previous) = self.undo.pop() else {
            return false;
        };
        self.redo.push(self.snapshot());
        self.load(&previous.lines, previous.cursor);
        true
    }

    pub(crate) fn redo(&mut self) -> bool {
        let Some(next) = self.redo.pop() else {
            return false;
        };
        self.undo.push(self.snapshot());
        self.load(&next.lines, next.cursor);
        true
    }

    pub fn copy(&mut self) -> bool {
        if !self.editor.is_selecting() {
            return false;
        }
        self.editor.copy();
        true
    }

    pub(crate) fn select_all(&mut self) {
        self.editor.select_all();
    }

    /// Enter: a new line keeping the indent, one level deeper after a `:`.
    pub(crate) fn newline_with_indent(&mut self) -> bool {
        let (row, col) = self.cursor();
        let line = self.lines().get(row).cloned().unwrap_or_default();
        let before: String = line.chars().take(col).collect();
        let indent: String = before.chars().take_while(|c| *c == ' ').collect();
        let extra = if before.trim_end().ends_with(':') {
            " ".repeat(INDENT)
        } else {
            String::new()
        };
        self.edit(|e| e.insert_str(format!("\n{indent}{extra}")))
    }

    /// Shift-Tab: removes up to one indent step from the cursor's line.
    pub(crate) fn dedent(&mut self) -> bool {
        let (row, col) = self.cursor();
        let line = self.lines().get(row).cloned().unwrap_or_default();
        let n = line.chars().take_while(|c| *c == ' ').count().min(INDENT);
        if n == 0 {
            return false;
        }
        self.edit(|e| {
            e.cancel_selection();
            e.move_cursor(CursorMove::Head);
            let removed = e.delete_str(n);
            e.move_cursor(CursorMove::Jump(
                clamp16(row),
                clamp16(col.saturating_sub(n)),
            ));
            removed
        })
    }

    /// Backspace: in the indentation (only spaces before the cursor), back to the previous
    /// indent stop; elsewhere one character.
    pub fn backspace(&mut self) -> bool {
        let (row, col) = self.cursor();
        let line = self.lines().get(row).cloned().unwrap_or_default();
        let in_indent = col > 0 && line.chars().take(col).all(|c| c == ' ');
        if in_indent && !self.editor.is_selecting() {
            let n = (col - 1) % INDENT + 1;
            return self.edit(|e| {
                let mut removed = false;
                for _ in 0..n {
                    removed |= e.delete_char();
                }
                removed
            });
        }
        self.edit(|e| e.delete_char())
    }

    /// Keeps the cursor in view in an editor `height` rows by `width` columns: scrolls only
    /// as much as needed, and back to the first column whenever the cursor fits there (so a
    /// view scrolled for a long line comes back once the line is shortened).
    pub(crate) fn follow_cursor(&mut self, height: usize, width: usize) {
        let (row, col) = self.cursor();
        let height = height.max(1);
        if row < self.view_top {
            self.view_top = row;
        } else if row >= self.view_top + height {
            self.view_top = row + 1 - height;
        }
        let last_top = self.lines().len().saturating_sub(height);
        self.view_top = self
            .view_top
            .min(last_top.max(row.saturating_sub(height - 1)));
        let x = self
            .lines()
            .get(row)
            .map_or(0, |l| display_width(l.chars().take(col)));
        let width = width.max(1);
        if x < width {
            self.view_left = 0;
        } else if x < self.view_left {
            self.view_left = x;
        } else if x >= self.view_left + width {
            self.view_left = x + 1 - width;
        }
    }

    /// The report is from code other than what is in the editor now.
    pub fn stale(&self) -> bool {
        self.ran_code
            .as_deref()
            .is_some_and(|ran| ran.trim_end_matches('\n') != self.code())
    }
}

fn clamp16(n: usize) -> u16 {
    n.min(usize::from(u16::MAX)) as u16
}

/// Display columns of characters, a tab as spaces to the next multiple of 4.
pub(super) fn display_width(chars: impl Iterator<Item = char>) -> usize {
    chars.fold(0, |x, c| match c {
        '\t' => x + INDENT - x % INDENT,
        c => x + c.width().unwrap_or(0),
    })
}

/// The editor's lines for `code`: no trailing newline, tabs as four spaces.
fn split_code(code: &str) -> Vec<String> {
    code.trim_end_matches('\n')
        .split('\n')
        .map(|l| l.replace('\t', "    "))
        .collect()
}

/// "512 B", "1.50 KiB", "2.00 MiB", "80.00 GiB".
pub fn human_size(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.2} {}", UNITS[unit])
}

/// The failing kernel (status `assert`) and the call that reported it (`reported`), with the
/// gap in µs between them, as the engine defines it ([`crate::run::assert_gap`]).
pub(super) fn assert_gap(report: &RunReport) -> Option<(usize, usize, f64)> {
    crate::run::assert_gap(&report.timeline).map(|g| (g.kernel, g.reporter, g.us))
}

/// "412 µs", "1.25 ms".
pub(super) fn human_us(us: f64) -> String {
    if us >= 1000.0 {
        format!("{:.2} ms", us / 1000.0)
    } else {
        format!("{us:.1} µs")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_like_torch_memory_summaries() {
        assert_eq!(human_size(512), "512 B");
        assert_eq!(human_size(1536), "1.50 KiB");
        assert_eq!(human_size(2 << 20), "2.00 MiB");
        assert_eq!(human_size(80 << 30), "80.00 GiB");
    }

    #[test]
    fn enter_keeps_indent_and_indents_after_colon() {
        let mut card = Card::new("for i in range(3):", None);
        card.move_cursor(CursorMove::End);
        card.newline_with_indent();
        card.edit(|e| e.insert_str("x = i"));
        card.newline_with_indent();
        assert_eq!(card.code(), "for i in range(3):\n    x = i\n    ");
        card.undo();
        assert_eq!(card.code(), "for i in range(3):\n    x = i");
        assert!(card.dedent());
        assert_eq!(card.code(), "for i in range(3):\nx = i");
        assert_eq!(card.cursor(), (1, 5));
        assert!(!card.dedent());
    }

    #[test]
    fn backspace_in_indentation_goes_back_to_the_previous_stop() {
        let mut card = Card::new("if x:\n          y", None);
        card.move_cursor(CursorMove::Jump(1, 10));
        assert!(card.backspace());
        assert_eq!(card.lines()[1], "        y", "10 → 8");
        assert!(card.backspace());
        assert_eq!(card.lines()[1], "    y", "8 → 4");
        card.move_cursor(CursorMove::End);
        assert!(card.backspace());
        assert_eq!(card.lines()[1], "    ", "outside the indent: one character");
    }

    #[test]
    fn a_reset_is_one_undo_step() {
        let mut card = Card::new("start", Some("mine\nmore"));
        assert!(card.replace_code("start"));
        assert_eq!(card.code(), "start");
        assert!(card.undo());
        assert_eq!(card.code(), "mine\nmore");
        assert!(card.redo());
        assert_eq!(card.code(), "start");
    }

    #[test]
    fn the_view_comes_back_from_the_side_once_the_line_is_short() {
        let long = format!("x = '{}'", "a".repeat(60));
        let mut card = Card::new(&long, None);
        card.move_cursor(CursorMove::End);
        card.follow_cursor(5, 20);
        assert!(card.view_left > 0);
        for _ in 0..50 {
            card.backspace();
        }
        card.follow_cursor(5, 20);
        assert_eq!(card.view_left, 0, "{}", card.code());
    }
}
