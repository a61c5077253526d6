//! Drawing exercise and quiz cards: the editor with its gutter (reported and origin lines
//! marked), hints, the read-only solution, the status rows and the result panes. A card's
//! size is planned once (`exercise_plan`) and the plan is used both to lay out the page and to
//! draw, so the two always agree. Reads state, never changes it.

use super::app::App;
use super::exercise::{Card, Pane};
use super::highlight::highlight_line;
use super::markdown::SlotKind;
use super::panes::{checks, memory, output, timeline};
use super::strings;
use super::theme;
use super::wrap::{truncate, wrap};
use crate::run::RunReport;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Padding, Widget};
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Terminal width from which result panes may sit beside the editor rather than below it.
pub(super) const BESIDE_MIN_TERMINAL_WIDTH: u16 = 120;
/// Beside the editor, the panes get at least this many columns, or they go below.
const BESIDE_MIN_PANE_WIDTH: u16 = 44;
/// Height of the result panes below the editor: a tab row and one pane, as tall as the
/// timeline, memory or checks need within these bounds (the output scrolls).
const PANES_BELOW_HEIGHT: usize = 11;
const PANES_BELOW_MAX: usize = 16;
/// Beside the editor with one pane at a time, at least this tall.
const PANES_TABBED_HEIGHT: usize = 14;
/// Rows the output pane gets at least when the panes are stacked.
const STACKED_OUTPUT_MIN: usize = 8;
const EDITOR_MAX_HEIGHT: usize = 30;
const SPINNER: [&str; 10] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/// What a card's size depends on besides its own state.
#[derive(Debug, Clone, Copy)]
pub(super) struct Dims {
    pub term_width: u16,
    /// Rows of page on screen.
    pub page_height: u16,
}

/// How the result panes are arranged.
pub(super) enum PanesPlan {
    /// One at a time under a tab row.
    Tabbed,
    /// All four, each with its height (title row included).
    Stacked(Vec<(Pane, u16)>),
}

/// How one exercise card is cut up at a given width.
pub(super) struct ExercisePlan {
    pub beside: bool,
    pub left_w: u16,
    pub right_w: u16,
    pub gutter_w: u16,
    pub editor_h: u16,
    /// Hints, the solution and the status rows, below the editor in the left column.
    pub below_editor: Vec<Line<'static>>,
    pub panes_h: u16,
    pub panes: PanesPlan,
    pub total: u16,
}

impl ExercisePlan {
    /// Columns of code the editor shows.
    pub(super) fn code_width(&self) -> usize {
        usize::from(self.left_w.saturating_sub(self.gutter_w)).max(1)
    }
}

impl App {
    /// Rows a card takes in the page at `width` columns.
    pub(super) fn slot_height(&self, kind: &SlotKind, width: u16, dims: Dims) -> usize {
        match kind {
            SlotKind::Exercise(id) => self
                .exercise_plan(id, width, dims)
                .map_or(0, |p| usize::from(p.total)),
            SlotKind::Quiz(n) => self.quiz_lines(*n, width).map_or(0, |l| l.len() + 2),
        }
    }

    pub(super) fn render_slot(
        &self,
        index: usize,
        kind: &SlotKind,
        area: Rect,
        dims: Dims,
        buf: &mut Buffer,
    ) {
        let focused = self.deck.focus == Some(index);
        match kind {
            SlotKind::Exercise(id) => self.render_exercise(id, focused, area, dims, buf),
            SlotKind::Quiz(n) => self.render_quiz(*n, focused, area, buf),
        }
    }

    pub(super) fn exercise_plan(&self, id: &str, width: u16, dims: Dims) -> Option<ExercisePlan> {
        let card = self.deck.cards.get(id)?;
        let exercise = self.exercise(id)?;
        let editing = self.editing_id().as_deref() == Some(id);
        // Border and one column of padding on each side.
        let inner = width.saturating_sub(4);
        let lines = card.lines();
        let gutter_w = (lines.len().to_string().len() + 2) as u16;
        // Beside: the editor takes what its longest line needs, within 45–65 % of the card,
        // and the panes keep at least BESIDE_MIN_PANE_WIDTH.
        let code_w = lines.iter().map(|l| l.width()).max().unwrap_or(0) + usize::from(gutter_w) + 1;
        let left_beside = (code_w as u16).clamp(inner * 45 / 100, inner * 65 / 100);
        let beside = dims.term_width >= BESIDE_MIN_TERMINAL_WIDTH
            && card.report.is_some()
            && inner.saturating_sub(left_beside + 1) >= BESIDE_MIN_PANE_WIDTH;
        let left_w = if beside { left_beside } else { inner };
        let right_w = if beside {
            inner.saturating_sub(left_w + 1)
        } else {
            0
        };
        let page = usize::from(dims.page_height);
        let rows = lines.len() + usize::from(editing);
        let editor_h = rows
            .min(page.saturating_sub(4).max(3))
            .clamp(1, EDITOR_MAX_HEIGHT);
        let s = self.strings();
        let lw = usize::from(left_w).max(1);
        let mut below = Vec::new();
        let total_hints = exercise.hints.len();
        for (k, hint) in exercise.hints.iter().take(card.hints_shown).enumerate() {
            let label = format!("{} {}/{total_hints}: ", s.hint, k + 1);
            below.extend(wrap(
                &[
                    (
                        label,
                        self.theme.style(theme::HINT).add_modifier(Modifier::BOLD),
                    ),
                    (hint.clone(), self.theme.style(theme::HINT)),
                ],
                lw,
                &[],
                &[Span::raw("  ")],
            ));
        }
        if card.solution_shown
            && let Some(solution) = &exercise.solution
        {
            let frame = self.theme.style(theme::SOLUTION_FRAME);
            let title = truncate(s.solution_title, lw.saturating_sub(2));
            let fill = lw.saturating_sub(1 + title.width());
            below.push(Line::from(vec![
                Span::styled("┌", frame),
                Span::styled(title, frame.add_modifier(Modifier::BOLD)),
                Span::styled("─".repeat(fill), frame),
            ]));
            for line in solution.trim_end_matches('\n').split('\n') {
                let shown = truncate(&clean(line), lw.saturating_sub(2));
                let mut spans = vec![Span::styled("│ ", frame)];
                spans.extend(highlight_line(&shown, self.theme));
                below.push(Line::from(spans));
            }
        }
        below.extend(self.status_rows(id, card, lw));
        let left_h = editor_h + below.len();
        let (panes_h, panes, body) = match (&card.report, beside) {
            (None, _) => (0, PanesPlan::Tabbed, left_h),
            (Some(report), true) => {
                let stacked = self.stacked_panes(report, usize::from(right_w));
                let needed: usize = stacked.iter().map(|(_, h)| usize::from(*h)).sum();
                if needed + 2 <= page && !report.prediction_pending {
                    let h = left_h.max(needed);
                    (h, PanesPlan::Stacked(stacked), h)
                } else {
                    let h = left_h.max(PANES_TABBED_HEIGHT);
                    (h, PanesPlan::Tabbed, h)
                }
            }
            (Some(report), false) => {
                let w = usize::from(inner).max(1);
                let needed = self
                    .timeline_lines(report, w)
                    .len()
                    .max(self.memory_lines(report, w).len())
                    .max(self.check_lines(report, w).len())
                    + 1;
                let h = needed.clamp(PANES_BELOW_HEIGHT, PANES_BELOW_MAX);
                (h, PanesPlan::Tabbed, left_h + 1 + h)
            }
        };
        Some(ExercisePlan {
            beside,
            left_w,
            right_w,
            gutter_w,
            editor_h: editor_h as u16,
            below_editor: below,
            panes_h: panes_h as u16,
            panes,
            total: (body + 2).min(usize::from(u16::MAX / 2)) as u16,
        })
    }

    /// The four panes stacked at `width`: checks, output (at least STACKED_OUTPUT_MIN rows),
    /// memory, timeline, each with its title row.
    fn stacked_panes(&self, report: &RunReport, width: usize) -> Vec<(Pane, u16)> {
        let checks = self.check_lines(report, width).len();
        let memory = self.memory_lines(report, width).len();
        let timeline = self.timeline_lines(report, width).len();
        let output = STACKED_OUTPUT_MIN.max(
            self.output_lines(report, width, usize::MAX / 4, 0, 0)
                .len()
                .min(STACKED_OUTPUT_MIN * 2),
        );
        [
            (Pane::Checks, checks),
            (Pane::Output, output),
            (Pane::Memory, memory),
            (Pane::Timeline, timeline),
        ]
        .into_iter()
        .map(|(p, h)| (p, (h + 1).min(usize::from(u16::MAX / 8)) as u16))
        .collect()
    }

    /// The rows under the editor saying where the exercise stands: running, not run, passed,
    /// the error with the gutter's legend, or a prediction to write first.
    fn status_rows(&self, id: &str, card: &Card, width: usize) -> Vec<Line<'static>> {
        let s = self.strings();
        let t = |st| self.theme.style(st);
        let mut rows = Vec::new();
        if let Some(running) = self.runs.running().filter(|r| r.exercise == id) {
            let elapsed = running.started.elapsed();
            let frame = (elapsed.as_millis() / 80) as usize % SPINNER.len();
            let text = running.state_word(s);
            rows.push(Line::styled(
                truncate(
                    &format!("{} {text} {:.1} s", SPINNER[frame], elapsed.as_secs_f64()),
                    width,
                ),
                t(theme::SPINNER),
            ));
            return rows;
        }
        let Some(report) = &card.report else {
            rows.push(Line::styled(
                truncate(s.not_run, width),
                t(theme::QUOTE_TEXT),
            ));
            return rows;
        };
        if report.prediction_pending {
            rows.extend(wrap(
                &[(self.predict_note(id), t(theme::HINT))],
                width,
                &[Span::styled("✎ ", t(theme::HINT))],
                &[Span::raw("  ")],
            ));
            return rows;
        }
        if report.checks_passed() {
            rows.push(Line::styled(
                truncate(&format!("✓ {}", s.checks_passed), width),
                t(theme::CHECK_PASS),
            ));
        } else if let Some(error) = &report.error {
            let first = error.message.lines().next().unwrap_or("");
            let head = if first.is_empty() {
                format!("✗ {}", error.type_name)
            } else {
                format!("✗ {}: {first}", error.type_name)
            };
            rows.push(Line::styled(truncate(&head, width), t(theme::CHECK_FAIL)));
            rows.extend(self.gutter_legend(report, card, width));
        } else if !report.checks.is_empty() {
            rows.push(Line::styled(
                truncate(&format!("✗ {}", s.checks_failed), width),
                t(theme::CHECK_FAIL),
            ));
        } else {
            rows.push(Line::styled(
                truncate(
                    &format!("✓ {}", strings::device_name(&report.device_name, s)),
                    width,
                ),
                t(theme::TEXT),
            ));
        }
        if card.experiment {
            rows.extend(wrap(
                &[(s.blocking_experiment.to_string(), t(theme::HINT))],
                width,
                &[],
                &[],
            ));
        }
        if card.stale() {
            rows.push(Line::styled(
                truncate(&format!("({})", s.stale_run), width),
                t(theme::QUOTE_TEXT),
            ));
        }
        rows
    }

    /// "Write your prediction first: set origin, reported in the code…"
    fn predict_note(&self, id: &str) -> String {
        let names = self
            .exercise(id)
            .map(|e| {
                e.predict
                    .iter()
                    .map(|n| format!("`{n}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .unwrap_or_default();
        self.strings().predict_first.replace("{names}", &names)
    }

    /// The gutter's marks explained: ▶ reported, ● launched, ◆ both.
    fn gutter_legend(&self, report: &RunReport, card: &Card, width: usize) -> Vec<Line<'static>> {
        let s = self.strings();
        let t = |st| self.theme.style(st);
        let Some(error) = &report.error else {
            return Vec::new();
        };
        let code_lines = card.lines().len() as u32;
        let mut legend = Vec::new();
        match (error.line, error.origin_line) {
            (Some(l), Some(o)) if l == o && l <= code_lines => {
                legend.push(Span::styled(format!("◆ {l}"), t(theme::GUTTER_REPORTED)));
                legend.push(Span::raw(format!(
                    " {}; {}",
                    s.launched_here, s.reported_here
                )));
            }
            (l, o) => {
                if let Some(l) = l.filter(|l| *l <= code_lines) {
                    legend.push(Span::styled(format!("▶ {l}"), t(theme::GUTTER_REPORTED)));
                    legend.push(Span::raw(format!(" {}  ", s.reported_here)));
                }
                if let Some(o) = o.filter(|o| *o <= code_lines) {
                    legend.push(Span::styled(format!("● {o}"), t(theme::GUTTER_ORIGIN)));
                    legend.push(Span::raw(format!(" {}", s.launched_here)));
                }
            }
        }
        let legend_w: usize = legend.iter().map(|s| s.content.width()).sum();
        if legend.is_empty() {
            Vec::new()
        } else if legend_w <= width || legend.len() < 4 {
            vec![clip_line(Line::from(legend), width)]
        } else {
            // Too narrow for both marks on one row: one row each.
            let second = legend.split_off(2);
            vec![
                clip_line(Line::from(legend), width),
                clip_line(Line::from(second), width),
            ]
        }
    }

    fn render_exercise(&self, id: &str, focused: bool, area: Rect, dims: Dims, buf: &mut Buffer) {
        let (Some(plan), Some(card)) = (
            self.exercise_plan(id, area.width, dims),
            self.deck.cards.get(id),
        ) else {
            return;
        };
        let s = self.strings();
        let editing = self.editing_id().as_deref() == Some(id);
        // The ✓ of the code the card holds now (Progress::passed), not a flag from an old run.
        let passed = self
            .exercise(id)
            .is_some_and(|e| self.session.progress.passed(e));
        let (mark, mark_style) = if passed {
            ("✓", theme::CARD_DONE)
        } else if card.report.is_some() {
            ("✗", theme::CARD_FAILED)
        } else {
            ("·", theme::EXERCISE_TITLE)
        };
        let frame = if editing {
            theme::CARD_EDITING
        } else if focused {
            theme::CARD_FOCUSED
        } else {
            theme::EXERCISE_FRAME
        };
        let mut title = vec![
            Span::styled(
                format!(" {} {id} ", s.exercise),
                self.theme.style(theme::EXERCISE_TITLE),
            ),
            Span::styled(format!("{mark} "), self.theme.style(mark_style)),
        ];
        if editing {
            title.push(Span::styled(
                format!("✎ {} ", s.editing),
                self.theme.style(theme::CARD_EDITING),
            ));
        }
        let solved_before = !passed
            && self
                .session
                .progress
                .stats
                .get(id)
                .is_some_and(|st| st.passed_at.is_some());
        if solved_before {
            // A reset (or new code) after a pass: the ✓ is for the code the card holds, and
            // the title still says the exercise was solved once.
            title.push(Span::styled(
                format!("({}) ", s.solved_before),
                self.theme.style(theme::CARD_DONE),
            ));
        }
        if self.blocking_next.as_deref() == Some(id) {
            // `b` is on for this card's next run: shown on the card itself, not only in the
            // footer.
            title.push(Span::styled(
                format!("{} ", s.blocking_badge),
                self.theme.style(theme::BLOCKING_ON),
            ));
        }
        let block = Block::bordered()
            .title(Line::from(title))
            .padding(Padding::horizontal(1))
            .border_style(self.theme.style(frame));
        let inner = block.inner(area);
        block.render(area, buf);
        if inner.width == 0 || inner.height == 0 {
            return;
        }
        let left = Rect {
            width: plan.left_w.min(inner.width),
            ..inner
        };
        let editor_area = Rect {
            height: plan.editor_h.min(left.height),
            ..left
        };
        self.render_editor(card, editing, plan.gutter_w, editor_area, buf);
        for (k, line) in plan.below_editor.iter().enumerate() {
            let y = editor_area.y + editor_area.height + k as u16;
            if y >= inner.y + inner.height {
                break;
            }
            buf.set_line(left.x, y, line, left.width);
        }
        let Some(report) = &card.report else {
            return;
        };
        let border = self.theme.style(frame);
        let panes = if plan.beside {
            let x = left.x + left.width;
            for y in inner.y..inner.y + inner.height {
                if let Some(cell) = buf.cell_mut((x, y)) {
                    cell.set_symbol("│").set_style(border);
                }
            }
            Rect {
                x: x + 1,
                y: inner.y,
                width: plan.right_w,
                height: plan.panes_h.min(inner.height),
            }
        } else {
            let y = inner.y + plan.editor_h + plan.below_editor.len() as u16;
            if y < inner.y + inner.height {
                buf.set_string(
                    area.x,
                    y,
                    format!(
                        "├{}┤",
                        "─".repeat(usize::from(area.width.saturating_sub(2)))
                    ),
                    border,
                );
            }
            Rect {
                x: inner.x,
                y: y + 1,
                width: inner.width,
                height: plan.panes_h,
            }
        }
        .intersection(inner);
        self.render_panes(report, card, &plan.panes, panes, buf);
    }

    /// The code with a gutter (line numbers; the reported and origin lines marked), coloured
    /// by the lexer; while editing, the cursor (reverse video) and the selection. The part in
    /// view is the card's `view_top` / `view_left`, kept by the event handlers.
    fn render_editor(
        &self,
        card: &Card,
        editing: bool,
        gutter_w: u16,
        area: Rect,
        buf: &mut Buffer,
    ) {
        let lines = card.lines();
        let digits = usize::from(gutter_w.saturating_sub(2));
        if area.width <= gutter_w + 1 || area.height == 0 {
            return;
        }
        let code_x = area.x + gutter_w;
        let code_w = usize::from(area.width - gutter_w);
        let height = usize::from(area.height);
        let top = card
            .view_top
            .min(lines.len().saturating_sub(if editing { 1 } else { height }));
        let left = if editing { card.view_left } else { 0 };
        // A report on code that is still there: its marks; hidden while a prediction is due.
        let error = card
            .report
            .as_ref()
            .filter(|r| !r.prediction_pending)
            .and_then(|r| r.error.as_ref());
        let reported = error.and_then(|e| e.line).map(|l| l as usize);
        let origin = error.and_then(|e| e.origin_line).map(|l| l as usize);
        let cursor = card.cursor();
        let selection = if editing { card.selection() } else { None };
        let selected = |row: usize, col: usize| {
            selection
                .is_some_and(|((r0, c0), (r1, c1))| (row, col) >= (r0, c0) && (row, col) < (r1, c1))
        };
        let cursor_style = self.theme.style(theme::EDITOR_CURSOR);
        let selection_style = self.theme.style(theme::EDITOR_SELECTION);
        for row in 0..height {
            let index = top + row;
            let Some(text) = lines.get(index) else {
                break;
            };
            let y = area.y + row as u16;
            let number = index + 1;
            let (mark, style) = match (reported == Some(number), origin == Some(number)) {
                (true, true) => ("◆", theme::GUTTER_REPORTED),
                (true, false) => ("▶", theme::GUTTER_REPORTED),
                (false, true) => ("●", theme::GUTTER_ORIGIN),
                _ => (" ", theme::GUTTER),
            };
            buf.set_string(
                area.x,
                y,
                format!("{mark}{number:>digits$} "),
                self.theme.style(style),
            );
            // Columns: a tab runs to the next multiple of 4, other control characters take no
            // cell (the terminal must never receive them raw).
            let mut col = 0usize;
            let mut char_index = 0usize;
            let mut cursor_x = None;
            for span in highlight_line(text, self.theme) {
                for c in span.content.chars() {
                    let (shown, w) = match c {
                        '\t' => (' ', 4 - col % 4),
                        c if c.is_control() => (c, 0),
                        c => (c, c.width().unwrap_or(0)),
                    };
                    if editing && (index, char_index) == cursor {
                        cursor_x = Some(col);
                    }
                    if w > 0 && col >= left && col + w <= left + code_w {
                        let x = code_x + (col - left) as u16;
                        let mut style = span.style;
                        if selected(index, char_index) {
                            style = style.patch(selection_style);
                        }
                        if editing && (index, char_index) == cursor {
                            style = style.patch(cursor_style);
                        }
                        if shown == ' ' {
                            for k in 0..w {
                                buf.set_string(x + k as u16, y, " ", style);
                            }
                        } else {
                            buf.set_string(x, y, shown.to_string(), style);
                        }
                    }
                    col += w;
                    char_index += 1;
                }
            }
            if editing && index == cursor.0 && cursor_x.is_none() {
                // The cursor after the line's last character.
                if col >= left && col < left + code_w {
                    buf.set_string(code_x + (col - left) as u16, y, " ", cursor_style);
                }
            }
            if col > left + code_w {
                let x = code_x + code_w as u16 - 1;
                if let Some(cell) = buf.cell_mut((x, y)) {
                    cell.set_char('…');
                }
            }
        }
    }

    fn render_panes(
        &self,
        report: &RunReport,
        card: &Card,
        plan: &PanesPlan,
        area: Rect,
        buf: &mut Buffer,
    ) {
        if area.width < 4 || area.height == 0 {
            return;
        }
        let s = self.strings();
        let width = usize::from(area.width);
        if let PanesPlan::Stacked(panes) = plan {
            let mut y = area.y;
            for (p, h) in panes {
                if y >= area.y + area.height {
                    break;
                }
                let title = format!("─ {} ", self.pane_name(*p));
                let fill = width.saturating_sub(title.width());
                buf.set_string(
                    area.x,
                    y,
                    truncate(&format!("{title}{}", "─".repeat(fill)), width),
                    self.theme.style(theme::PANE_TITLE),
                );
                let body = Rect {
                    x: area.x,
                    y: y + 1,
                    width: area.width,
                    height: h.saturating_sub(1),
                }
                .intersection(area);
                self.render_pane(report, card, *p, body, buf);
                y += h;
            }
            return;
        }
        // One at a time, chosen with o / m / t / c.
        let mut spans = Vec::new();
        for p in Pane::ALL {
            let style = if p == card.pane {
                theme::PANE_TAB_ACTIVE
            } else {
                theme::PANE_TAB
            };
            let key = match p {
                Pane::Output => 'o',
                Pane::Memory => 'm',
                Pane::Timeline => 't',
                Pane::Checks => 'c',
            };
            spans.push(Span::styled(
                format!(" {key} {} ", self.pane_name(p)),
                self.theme.style(style),
            ));
            spans.push(Span::raw(" "));
        }
        if report.modelled {
            spans.push(Span::styled(
                format!("({})", s.modelled),
                self.theme.style(theme::QUOTE_TEXT),
            ));
        }
        buf.set_line(area.x, area.y, &Line::from(spans), area.width);
        let body = Rect {
            y: area.y + 1,
            height: area.height - 1,
            ..area
        };
        self.render_pane(report, card, card.pane, body, buf);
    }

    fn pane_name(&self, pane: Pane) -> &'static str {
        let s = self.strings();
        match pane {
            Pane::Output => s.pane_output,
            Pane::Memory => s.pane_memory,
            Pane::Timeline => s.pane_timeline,
            Pane::Checks => s.pane_checks,
        }
    }

    fn render_pane(
        &self,
        report: &RunReport,
        card: &Card,
        pane: Pane,
        area: Rect,
        buf: &mut Buffer,
    ) {
        if area.width == 0 || area.height == 0 {
            return;
        }
        let width = usize::from(area.width);
        let height = usize::from(area.height);
        let lines = match pane {
            // What would give a prediction away stays hidden until one is written; the note
            // under the editor already says what to write, so the pane does not repeat it.
            Pane::Output | Pane::Memory | Pane::Timeline if report.prediction_pending => wrap(
                &[(
                    self.strings().prediction_hidden.to_string(),
                    self.theme.style(theme::HINT),
                )],
                width,
                &[],
                &[],
            ),
            Pane::Output => {
                self.output_lines(report, width, height, card.output_back, card.output_left)
            }
            Pane::Checks => self.check_lines(report, width),
            Pane::Memory => self.memory_lines(report, width),
            Pane::Timeline => self.timeline_lines(report, width),
        };
        for (k, line) in lines.iter().take(height).enumerate() {
            buf.set_line(area.x, area.y + k as u16, line, area.width);
        }
    }

    fn output_lines(
        &self,
        report: &RunReport,
        width: usize,
        height: usize,
        back: usize,
        left: usize,
    ) -> Vec<Line<'static>> {
        let s = self.strings();
        let look = output::Look {
            stdout: self.theme.style(theme::OUTPUT_STDOUT),
            stderr: self.theme.style(theme::OUTPUT_STDERR),
            note: self.theme.style(theme::QUOTE_TEXT),
            no_output: s.no_output,
            earlier: s.earlier_lines,
        };
        output::lines(report, width, height, back, left, &look)
    }

    fn check_lines(&self, report: &RunReport, width: usize) -> Vec<Line<'static>> {
        let s = self.strings();
        let look = checks::Look {
            pass: self.theme.style(theme::CHECK_PASS),
            fail: self.theme.style(theme::CHECK_FAIL),
            text: self.theme.style(theme::TEXT),
            note: self.theme.style(theme::QUOTE_TEXT),
            no_checks: s.no_checks,
            syntax_first: s.syntax_first,
            check_n: s.check_n,
        };
        checks::lines(report, width, &look)
    }

    fn memory_lines(&self, report: &RunReport, width: usize) -> Vec<Line<'static>> {
        let s = self.strings();
        let name = |n: &str| strings::device_name(n, s);
        let look = memory::Look {
            header: self.theme.style(theme::TABLE_HEADER),
            text: self.theme.style(theme::TEXT),
            allocated_bar: self.theme.style(theme::SPARK_ALLOCATED),
            reserved_bar: self.theme.style(theme::SPARK_RESERVED),
            axis: self.theme.style(theme::GUTTER),
            note: self.theme.style(theme::QUOTE_TEXT),
            allocated: s.allocated,
            reserved: s.reserved,
            peak: s.peak,
            line: s.line,
            device_name: &name,
        };
        memory::lines(report, width, &look)
    }

    fn timeline_lines(&self, report: &RunReport, width: usize) -> Vec<Line<'static>> {
        let s = self.strings();
        let t = |st| self.theme.style(st);
        let look = timeline::Look {
            lane: t(theme::LANE),
            host: t(theme::LANE_HOST),
            device: t(theme::LANE_DEVICE),
            failed: t(theme::LANE_ASSERT),
            reported: t(theme::LANE_REPORTED),
            label: t(theme::TABLE_HEADER),
            number: t(theme::GUTTER),
            note: t(theme::QUOTE_TEXT),
            words: timeline::Words {
                line: s.line,
                host: s.host,
                device: s.device,
                clock: if report.modelled {
                    s.modelled
                } else {
                    s.measured
                },
                legend: [
                    s.legend_host,
                    s.legend_wait,
                    s.legend_kernel,
                    s.legend_failed,
                ],
                explain_async: s.explain_async,
                explain_blocking: s.explain_blocking,
                unlabelled: s.unlabelled,
                none: s.no_timeline,
            },
        };
        timeline::lines(report, width, &look)
    }

    /// The quiz card's text (question, choices, feedback) at `width`, without the frame.
    pub(super) fn quiz_lines(&self, number: usize, width: u16) -> Option<Vec<Line<'static>>> {
        let lesson = self.catalog.lessons.get(self.pager.current)?;
        let quiz = lesson.quizzes.get(number.checked_sub(1)?)?;
        let inner = usize::from(width.saturating_sub(4)).max(1);
        let s = self.strings();
        let t = |st| self.theme.style(st);
        let answered = self
            .session
            .progress
            .quizzes
            .get(&crate::progress::quiz_key(&lesson.id, number));
        let mut lines = wrap(
            &[(
                quiz.question.clone(),
                t(theme::TEXT).add_modifier(Modifier::BOLD),
            )],
            inner,
            &[],
            &[],
        );
        for (i, choice) in quiz.choices.iter().enumerate() {
            let chosen = answered.is_some_and(|a| a.answer == i + 1);
            let marker = if chosen { "›" } else { " " };
            let style = if chosen {
                t(theme::QUIZ_CHOSEN)
            } else {
                t(theme::TEXT)
            };
            lines.extend(wrap(
                &[(choice.clone(), style)],
                inner,
                &[Span::styled(
                    format!("{marker} {}) ", i + 1),
                    t(theme::BULLET),
                )],
                &[Span::raw("     ")],
            ));
        }
        if let Some(a) = answered {
            let (verdict, style) = if a.correct {
                (s.quiz_correct.to_string(), theme::QUIZ_CORRECT)
            } else {
                (
                    format!("{} {} {}.", s.quiz_wrong, s.quiz_answer_is, quiz.answer),
                    theme::QUIZ_WRONG,
                )
            };
            let mark = if a.correct { "✓ " } else { "✗ " };
            lines.extend(wrap(
                &[
                    (format!("{mark}{verdict} "), t(style)),
                    (quiz.explain.clone(), t(theme::TEXT)),
                ],
                inner,
                &[],
                &[Span::raw("  ")],
            ));
        }
        Some(lines)
    }

    fn render_quiz(&self, number: usize, focused: bool, area: Rect, buf: &mut Buffer) {
        let Some(lines) = self.quiz_lines(number, area.width) else {
            return;
        };
        let lesson_id = self
            .catalog
            .lessons
            .get(self.pager.current)
            .map_or("", |l| l.id.as_str());
        let state = self
            .session
            .progress
            .quizzes
            .get(&crate::progress::quiz_key(lesson_id, number));
        let (mark, style) = match state {
            Some(a) if a.correct => ("✓", theme::CARD_DONE),
            Some(_) => ("✗", theme::CARD_FAILED),
            None => ("·", theme::EXERCISE_TITLE),
        };
        let block = Block::default()
            .borders(Borders::ALL)
            .padding(Padding::horizontal(1))
            .title(Line::from(vec![
                Span::styled(
                    format!(" {} {number} ", self.strings().quiz),
                    self.theme.style(theme::EXERCISE_TITLE),
                ),
                Span::styled(format!("{mark} "), self.theme.style(style)),
            ]))
            .border_style(self.theme.style(if focused {
                theme::CARD_FOCUSED
            } else {
                theme::EXERCISE_FRAME
            }));
        let inner = block.inner(area);
        block.render(area, buf);
        for (k, line) in lines.iter().take(usize::from(inner.height)).enumerate() {
            buf.set_line(inner.x, inner.y + k as u16, line, inner.width);
        }
    }
}

/// Tabs as four spaces, other control characters dropped.
fn clean(line: &str) -> String {
    line.replace('\t', "    ")
        .chars()
        .filter(|c| !c.is_control())
        .collect()
}

/// Drops spans past `width` cells.
fn clip_line(line: Line<'static>, width: usize) -> Line<'static> {
    let mut used = 0;
    let mut spans = Vec::new();
    for span in line.spans {
        let w = span.content.width();
        if used + w > width {
            spans.push(Span::styled(
                truncate(&span.content, width - used),
                span.style,
            ));
            break;
        }
        used += w;
        spans.push(span);
    }
    Line::from(spans)
}
