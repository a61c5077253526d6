//! Live exercises: the runner the UI calls (an engine behind a trait, so the pager does not
//! depend on how scripts run), the state of one exercise card, and the background run.
//! Drawing the cards is in `card.rs`; the keys that act on them are in `app.rs`.

use crate::run::{RunOptions, RunReport};
use ratatui_textarea::TextArea;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::Receiver;
use std::time::Instant;

/// What runs an exercise. The UI only ever sees the [`RunReport`] it returns.
pub trait ExerciseRunner: Send + Sync + 'static {
    /// Runs `code` then (if given) the check block; blocking; called on a background thread.
    fn run(&self, code: &str, check: Option<&str>, opts: &RunOptions) -> RunReport;
    /// e.g. "sim · Simulated H200 (modelled)" for the status bar.
    fn backend_label(&self) -> String;
}

/// Runs exercises through [`crate::run`] with the options from the command line (backend,
/// GPUs, memory); the pager's own per-run settings (launch blocking, cancel, the exercise's
/// GPU count) are laid over them.
pub struct EngineRunner {
    base: RunOptions,
    label: String,
}

impl EngineRunner {
    pub fn new(base: RunOptions) -> EngineRunner {
        let label = crate::run::backend_label(&base);
        EngineRunner { base, label }
    }
}

impl ExerciseRunner for EngineRunner {
    fn run(&self, code: &str, check: Option<&str>, opts: &RunOptions) -> RunReport {
        let mut env = self.base.env.clone();
        env.extend(opts.env.iter().cloned());
        let merged = RunOptions {
            gpus: self.base.gpus.max(opts.gpus),
            launch_blocking: self.base.launch_blocking || opts.launch_blocking,
            env,
            cancel: opts.cancel.clone(),
            ..self.base.clone()
        };
        crate::run::run_exercise(code, check, &merged)
    }

    fn backend_label(&self) -> String {
        self.label.clone()
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

/// The confirmation a card is waiting for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Confirm {
    Reset,
    Solution,
}

/// One exercise as the learner works on it.
pub struct Card {
    pub editor: TextArea<'static>,
    pub start_code: String,
    pub hints_shown: usize,
    pub solution_shown: bool,
    pub report: Option<RunReport>,
    pub pane: Pane,
    /// Output lines scrolled back from the end (Shift-↑ / Shift-↓).
    pub output_back: usize,
}

impl Card {
    pub fn new(start_code: &str, saved: Option<&str>, theme: super::Theme) -> Card {
        let mut card = Card {
            editor: TextArea::default(),
            start_code: start_code.to_string(),
            hints_shown: 0,
            solution_shown: false,
            report: None,
            pane: Pane::Output,
            output_back: 0,
        };
        card.set_code(saved.unwrap_or(start_code), theme);
        card
    }

    /// Replaces the editor's text (a new editor: undo history starts again).
    pub fn set_code(&mut self, code: &str, theme: super::Theme) {
        let lines: Vec<String> = code
            .trim_end_matches('\n')
            .split('\n')
            .map(|l| l.replace('\t', "    "))
            .collect();
        let mut editor = TextArea::new(lines);
        editor.set_tab_length(4);
        editor.set_hard_tab_indent(false);
        editor.set_max_histories(200);
        // The cursor line is not underlined (it hides `_` in code); the cursor is reverse video,
        // which survives NO_COLOR.
        editor.set_cursor_line_style(theme.style(super::theme::EDITOR_CURSOR_LINE));
        editor.set_cursor_style(theme.style(super::theme::EDITOR_CURSOR));
        editor.set_selection_style(theme.style(super::theme::EDITOR_SELECTION));
        editor.set_style(theme.style(super::theme::PY_PLAIN));
        self.editor = editor;
    }

    pub fn code(&self) -> String {
        self.editor.lines().join("\n")
    }

    /// Enter: a new line keeping the indent, one level deeper after a `:`.
    pub fn newline_with_indent(&mut self) {
        let (row, col) = (self.editor.cursor().0, self.editor.cursor().1);
        let line = self.editor.lines().get(row).cloned().unwrap_or_default();
        let before: String = line.chars().take(col).collect();
        let indent: String = before.chars().take_while(|c| *c == ' ').collect();
        let extra = if before.trim_end().ends_with(':') {
            "    "
        } else {
            ""
        };
        self.editor.insert_str(format!("\n{indent}{extra}"));
    }
}

impl Card {
    /// Shift-Tab: removes up to four spaces of indentation from the cursor's line.
    pub fn dedent(&mut self) -> bool {
        use ratatui_textarea::CursorMove;
        let (row, col) = (self.editor.cursor().0, self.editor.cursor().1);
        let line = self.editor.lines().get(row).cloned().unwrap_or_default();
        let n = line.chars().take_while(|c| *c == ' ').count().min(4);
        if n == 0 {
            return false;
        }
        self.editor.cancel_selection();
        self.editor.move_cursor(CursorMove::Head);
        let removed = self.editor.delete_str(n);
        let to = col.saturating_sub(n).min(u16::MAX as usize) as u16;
        self.editor
            .move_cursor(CursorMove::Jump(row.min(u16::MAX as usize) as u16, to));
        removed
    }
}

/// A run in flight on its background thread.
pub struct Running {
    pub exercise: String,
    pub rx: Receiver<RunReport>,
    pub cancel: Arc<AtomicBool>,
    pub started: Instant,
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
/// gap in µs between them, as the engine defines it ([`crate::engine::assert_gap`]).
pub fn assert_gap(report: &RunReport) -> Option<(usize, usize, f64)> {
    crate::engine::assert_gap(&report.timeline).map(|g| (g.kernel, g.reporter, g.us))
}

/// "412 µs", "1.25 ms".
pub fn human_us(us: f64) -> String {
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
        let theme = super::super::Theme { color: false };
        let mut card = Card::new("for i in range(3):", None, theme);
        card.editor.move_cursor(ratatui_textarea::CursorMove::End);
        card.newline_with_indent();
        card.editor.insert_str("x = i");
        card.newline_with_indent();
        assert_eq!(card.code(), "for i in range(3):\n    x = i\n    ");
        card.editor.undo();
        assert_eq!(card.code(), "for i in range(3):\n    x = i");
        assert!(card.dedent());
        assert_eq!(card.code(), "for i in range(3):\nx = i");
        assert_eq!(card.editor.cursor(), ratatui_textarea::DataCursor(1, 5));
        assert!(!card.dedent());
    }
}
