//! Drawing exercise and quiz cards: the editor with its gutter (reported and origin lines
//! marked), hints, the read-only solution, and the result panes (output, memory, timeline,
//! checks). Heights are planned once (`exercise_plan`) and used both to lay out the page and
//! to draw, so the two always agree. Reads state, never changes it.

use super::app::App;
use super::exercise::{Card, Pane, assert_gap, human_size, human_us};
use super::highlight::highlight_line;
use super::markdown::SlotKind;
use super::theme;
use super::wrap::{truncate, wrap};
use crate::run::RunReport;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Padding, Sparkline, Widget};
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Terminal width from which result panes sit beside the editor rather than below it.
pub const BESIDE_MIN_TERMINAL_WIDTH: u16 = 120;
/// Height of the result panes when beside the editor (all four stacked when they fit).
const PANES_BESIDE_HEIGHT: usize = 26;
/// Height of the result panes below the editor: a tab row and one pane.
const PANES_BELOW_HEIGHT: usize = 11;
const EDITOR_MAX_HEIGHT: usize = 30;
const SPINNER: [&str; 10] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/// How one exercise card is cut up at a given width.
pub(super) struct ExercisePlan {
    pub beside: bool,
    pub left_w: u16,
    pub right_w: u16,
    pub editor_h: u16,
    /// Hints, the solution and the status rows, below the editor in the left column.
    pub below_editor: Vec<Line<'static>>,
    pub panes_h: u16,
    pub total: u16,
}

impl App {
    /// Rows a card takes in the page at `width` columns.
    pub(super) fn slot_height(&self, kind: &SlotKind, width: u16) -> usize {
        match kind {
            SlotKind::Exercise(id) => self
                .exercise_plan(id, width)
                .map_or(0, |p| usize::from(p.total)),
            SlotKind::Quiz(n) => self.quiz_lines(*n, width).map_or(0, |l| l.len() + 2),
        }
    }

    pub(super) fn render_slot(&self, index: usize, kind: &SlotKind, area: Rect, buf: &mut Buffer) {
        let focused = self.focus == Some(index);
        match kind {
            SlotKind::Exercise(id) => self.render_exercise(id, focused, area, buf),
            SlotKind::Quiz(n) => self.render_quiz(*n, focused, area, buf),
        }
    }

    pub(super) fn exercise_plan(&self, id: &str, width: u16) -> Option<ExercisePlan> {
        let card = self.cards.get(id)?;
        let exercise = self.exercise(id)?;
        let editing = self.editing_id().as_deref() == Some(id);
        // Border and one column of padding on each side.
        let inner = width.saturating_sub(4);
        let beside = self.term_width.get() >= BESIDE_MIN_TERMINAL_WIDTH
            && card.report.is_some()
            && inner >= 60;
        // Beside: the editor takes what its longest line needs, within 45–65 % of the card.
        let code_w = card
            .editor
            .lines()
            .iter()
            .map(|l| l.width())
            .max()
            .unwrap_or(0)
            + card.editor.lines().len().to_string().len()
            + 3;
        let left_w = if beside {
            (code_w as u16).clamp(inner * 45 / 100, inner * 65 / 100)
        } else {
            inner
        };
        let right_w = if beside {
            inner.saturating_sub(left_w + 1)
        } else {
            0
        };
        let page = usize::from(self.viewport.get().1);
        let lines = card.editor.lines().len() + usize::from(editing);
        let editor_h = lines
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
                let shown = truncate(&line.replace('\t', "    "), lw.saturating_sub(2));
                let mut spans = vec![Span::styled("│ ", frame)];
                spans.extend(highlight_line(&shown, self.theme));
                below.push(Line::from(spans));
            }
        }
        below.extend(self.status_rows(id, card, lw));
        let left_h = editor_h + below.len();
        let (panes_h, body) = match (&card.report, beside) {
            (None, _) => (0, left_h),
            (Some(_), true) => {
                let h = left_h.max(PANES_BESIDE_HEIGHT);
                (h, h)
            }
            (Some(_), false) => (PANES_BELOW_HEIGHT, left_h + 1 + PANES_BELOW_HEIGHT),
        };
        Some(ExercisePlan {
            beside,
            left_w,
            right_w,
            editor_h: editor_h as u16,
            below_editor: below,
            panes_h: panes_h as u16,
            total: (body + 2).min(usize::from(u16::MAX / 2)) as u16,
        })
    }

    /// The rows under the editor saying where the exercise stands: running, not run, passed,
    /// or the error with the gutter's legend.
    fn status_rows(&self, id: &str, card: &Card, width: usize) -> Vec<Line<'static>> {
        let s = self.strings();
        let t = |st| self.theme.style(st);
        let mut rows = Vec::new();
        if let Some(running) = self.running.as_ref().filter(|r| r.exercise == id) {
            let frame = (running.started.elapsed().as_millis() / 80) as usize % SPINNER.len();
            let text = if running.cancel.load(std::sync::atomic::Ordering::Relaxed) {
                s.cancelling
            } else {
                s.running
            };
            rows.push(Line::from(vec![Span::styled(
                truncate(&format!("{} {text}", SPINNER[frame]), width),
                t(theme::SPINNER),
            )]));
            return rows;
        }
        let Some(report) = &card.report else {
            rows.push(Line::styled(
                truncate(s.not_run, width),
                t(theme::QUOTE_TEXT),
            ));
            return rows;
        };
        if report.checks_passed() {
            rows.push(Line::styled(
                truncate(&format!("✓ {}", s.checks_passed), width),
                t(theme::CHECK_PASS),
            ));
        } else if let Some(error) = &report.error {
            let first = error.message.lines().next().unwrap_or("");
            rows.push(Line::styled(
                truncate(&format!("✗ {}: {first}", error.type_name), width),
                t(theme::CHECK_FAIL),
            ));
            let code_lines = card.editor.lines().len() as u32;
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
            if legend_w <= width || legend.len() < 4 {
                if !legend.is_empty() {
                    rows.push(clip_line(Line::from(legend), width));
                }
            } else {
                // Too narrow for both marks on one row: one row each.
                let second = legend.split_off(2);
                rows.push(clip_line(Line::from(legend), width));
                rows.push(clip_line(Line::from(second), width));
            }
        } else if !report.checks.is_empty() {
            rows.push(Line::styled(
                truncate(&format!("✗ {}", s.checks_failed), width),
                t(theme::CHECK_FAIL),
            ));
        } else {
            rows.push(Line::styled(
                truncate(&format!("✓ {}", report.device_name), width),
                t(theme::TEXT),
            ));
        }
        rows
    }

    fn render_exercise(&self, id: &str, focused: bool, area: Rect, buf: &mut Buffer) {
        let (Some(plan), Some(card)) = (self.exercise_plan(id, area.width), self.cards.get(id))
        else {
            return;
        };
        let s = self.strings();
        let editing = self.editing_id().as_deref() == Some(id);
        // The ✓ of the code the card holds now (Progress::passed), not a flag from an old run.
        let passed = self.exercise(id).is_some_and(|e| self.progress.passed(e));
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
        self.render_editor(card, editing, editor_area, buf);
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
        self.render_panes(report, card, panes, buf);
    }

    /// The code with a gutter (line numbers; the reported and origin lines marked): the
    /// textarea while editing, highlighted text otherwise. Both are coloured by the lexer.
    fn render_editor(&self, card: &Card, editing: bool, area: Rect, buf: &mut Buffer) {
        let lines = card.editor.lines();
        let digits = lines.len().to_string().len();
        let gutter_w = (digits + 2) as u16;
        if area.width <= gutter_w + 1 || area.height == 0 {
            return;
        }
        let code_area = Rect {
            x: area.x + gutter_w,
            width: area.width - gutter_w,
            ..area
        };
        let (top, left) = if editing {
            (&card.editor).render(code_area, buf);
            card.editor.scroll_offset()
        } else {
            let (top, _) = card.editor.scroll_offset();
            // Keep what the editor last showed, but never leave the text scrolled off.
            let top = usize::from(top).min(lines.len().saturating_sub(usize::from(area.height)));
            (top as u16, 0)
        };
        let (top, left) = (usize::from(top), usize::from(left));
        let error = card.report.as_ref().and_then(|r| r.error.as_ref());
        let reported = error.and_then(|e| e.line).map(|l| l as usize);
        let origin = error.and_then(|e| e.origin_line).map(|l| l as usize);
        for row in 0..usize::from(area.height) {
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
            // Colour the code cells by token; the editor's cursor and selection styles stay.
            // Columns follow the editor's: a tab runs to the next multiple of 4, other control
            // characters take no cell (the terminal must never receive them raw).
            let mut col = 0usize;
            for span in highlight_line(text, self.theme) {
                for c in span.content.chars() {
                    let (c, w) = match c {
                        '\t' => (' ', 4 - col % 4),
                        c if c.is_control() => (c, 0),
                        c => (c, c.width().unwrap_or(0)),
                    };
                    if w > 0 && col >= left && col + w <= left + usize::from(code_area.width) {
                        // A wide character fills its first cell; a tab all of its cells.
                        let cells = if c == ' ' { w } else { 1 };
                        for k in 0..cells {
                            let x = code_area.x + (col + k - left) as u16;
                            if let Some(cell) = buf.cell_mut((x, y)) {
                                if !editing {
                                    cell.set_char(c);
                                }
                                if let Some(fg) = span.style.fg {
                                    cell.set_fg(fg);
                                }
                                cell.modifier.insert(span.style.add_modifier);
                            }
                        }
                    }
                    col += w;
                }
            }
            if !editing && col > usize::from(code_area.width) {
                let x = code_area.x + code_area.width - 1;
                if let Some(cell) = buf.cell_mut((x, y)) {
                    cell.set_char('…');
                }
            }
        }
    }

    fn render_panes(&self, report: &RunReport, card: &Card, area: Rect, buf: &mut Buffer) {
        let pane = card.pane;
        if area.width < 4 || area.height == 0 {
            return;
        }
        let s = self.strings();
        let width = usize::from(area.width);
        let checks_h = self.check_lines(report, area).len() + 1;
        let memory_h = report.memory.devices.len().max(1) * 2 + 3;
        let timeline_h = 7;
        let needed = checks_h + memory_h + timeline_h + 4;
        if usize::from(area.height) >= needed {
            // Room for all four: checks, output (what is left), memory, timeline.
            let output_h = usize::from(area.height) - checks_h - memory_h - timeline_h;
            let mut y = area.y;
            for (p, h) in [
                (Pane::Checks, checks_h),
                (Pane::Output, output_h),
                (Pane::Memory, memory_h),
                (Pane::Timeline, timeline_h),
            ] {
                let title = format!("─ {} ", self.pane_name(p));
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
                    height: (h - 1) as u16,
                };
                self.render_pane(report, card, p, body, buf);
                y += h as u16;
            }
            return;
        }
        // One at a time, chosen with o / m / t / c.
        let mut spans = Vec::new();
        for p in Pane::ALL {
            let style = if p == pane {
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
        self.render_pane(report, card, pane, body, buf);
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
        let lines = match pane {
            Pane::Output => self.output_lines(report, area, card.output_back),
            Pane::Checks => self.check_lines(report, area),
            Pane::Memory => return self.render_memory(report, area, buf),
            Pane::Timeline => self.timeline_lines(report, area),
        };
        for (k, line) in lines.iter().take(usize::from(area.height)).enumerate() {
            buf.set_line(area.x, area.y + k as u16, line, area.width);
        }
    }

    /// stdout, then stderr (the device log and the traceback); the end shows when it is long,
    /// since the exception's last line is what matters, unless scrolled back by `back` lines.
    fn output_lines(&self, report: &RunReport, area: Rect, back: usize) -> Vec<Line<'static>> {
        let width = usize::from(area.width);
        let mut lines = Vec::new();
        for (text, style) in [
            (&report.stdout, theme::OUTPUT_STDOUT),
            (&report.stderr, theme::OUTPUT_STDERR),
        ] {
            for line in text.trim_end_matches('\n').split('\n') {
                if text.is_empty() {
                    break;
                }
                for piece in hard_wrap(line, width) {
                    lines.push(Line::styled(piece, self.theme.style(style)));
                }
            }
        }
        if lines.is_empty() {
            lines.push(Line::styled(
                self.strings().no_output,
                self.theme.style(theme::QUOTE_TEXT),
            ));
        }
        let skip = lines
            .len()
            .saturating_sub(usize::from(area.height))
            .saturating_sub(back);
        let mut shown = lines.split_off(skip);
        shown.truncate(usize::from(area.height));
        shown
    }

    fn check_lines(&self, report: &RunReport, area: Rect) -> Vec<Line<'static>> {
        let width = usize::from(area.width);
        if report.checks.is_empty() {
            return vec![Line::styled(
                self.strings().no_checks,
                self.theme.style(theme::QUOTE_TEXT),
            )];
        }
        let mut lines = Vec::new();
        for check in &report.checks {
            let (mark, style) = if check.passed {
                ("✓ ", theme::CHECK_PASS)
            } else {
                ("✗ ", theme::CHECK_FAIL)
            };
            let text = match (&check.message, check.passed) {
                (Some(m), false) => format!("{}: {m}", check.source.trim()),
                _ => check.source.trim().to_string(),
            };
            lines.extend(wrap(
                &[(text, self.theme.style(theme::TEXT))],
                width,
                &[Span::styled(mark, self.theme.style(style))],
                &[Span::raw("  ")],
            ));
        }
        lines
    }

    fn render_memory(&self, report: &RunReport, area: Rect, buf: &mut Buffer) {
        let s = self.strings();
        let width = usize::from(area.width);
        let mem = &report.memory;
        let mut rows: Vec<Line> = Vec::new();
        let counters = |a: u64, r: u64, p: u64| {
            format!(
                "  {} {} · {} {} · {} {}",
                s.allocated,
                human_size(a),
                s.reserved,
                human_size(r),
                s.peak,
                human_size(p)
            )
        };
        if mem.devices.is_empty() {
            rows.push(Line::styled(
                "cuda:0",
                self.theme.style(theme::TABLE_HEADER),
            ));
            rows.push(Line::raw(truncate(
                &counters(mem.allocated, mem.reserved, mem.peak_allocated),
                width,
            )));
        }
        for d in &mem.devices {
            let capacity = if d.capacity > 0 {
                format!(" ({})", human_size(d.capacity))
            } else {
                String::new()
            };
            rows.push(Line::styled(
                truncate(&format!("cuda:{} {}{capacity}", d.index, d.name), width),
                self.theme.style(theme::TABLE_HEADER),
            ));
            rows.push(Line::raw(truncate(
                &counters(d.allocated, d.reserved, d.peak_allocated),
                width,
            )));
        }
        let mut y = area.y;
        let bottom = area.y + area.height;
        for row in &rows {
            if y >= bottom {
                return;
            }
            buf.set_line(area.x, y, row, area.width);
            y += 1;
        }
        // Sparklines of the counters after each op, on one scale so they compare.
        let label_w = s.allocated.width().max(s.reserved.width()) as u16 + 1;
        if area.width <= label_w + 2 || report.timeline.is_empty() {
            return;
        }
        for (label, pick, style) in [
            (
                s.allocated,
                (|e: &crate::run::TimelineEntry| e.allocated) as fn(&_) -> u64,
                theme::SPARK_ALLOCATED,
            ),
            (s.reserved, |e| e.reserved, theme::SPARK_RESERVED),
        ] {
            if y >= bottom {
                return;
            }
            // Each on its own scale (allocated is often tiny next to reserved), its maximum
            // written after it.
            let values: Vec<u64> = report.timeline.iter().map(pick).collect();
            let max = values.iter().copied().max().unwrap_or(0);
            let max_text = format!(" ≤ {}", human_size(max));
            let room = area.width - label_w;
            let spark_w = if room > max_text.width() as u16 + 4 {
                room - max_text.width() as u16
            } else {
                room
            };
            buf.set_string(area.x, y, label, self.theme.style(theme::TEXT));
            let data = resample(&values, usize::from(spark_w));
            Sparkline::default()
                .data(&data)
                .max(max.max(1))
                .style(self.theme.style(style))
                .render(
                    Rect {
                        x: area.x + label_w,
                        y,
                        width: spark_w,
                        height: 1,
                    },
                    buf,
                );
            if spark_w < room {
                let x = area.x + label_w + data.len().min(usize::from(spark_w)) as u16;
                buf.set_string(x, y, &max_text, self.theme.style(theme::QUOTE_TEXT));
            }
            y += 1;
        }
    }

    /// A host lane and a device lane over time: one mark per op, labelled by its script line;
    /// the failing kernel and the call that reported it are marked and joined.
    fn timeline_lines(&self, report: &RunReport, area: Rect) -> Vec<Line<'static>> {
        let s = self.strings();
        let t = |st| self.theme.style(st);
        let width = usize::from(area.width);
        let entries = &report.timeline;
        if entries.is_empty() {
            return vec![Line::styled(s.no_timeline, t(theme::QUOTE_TEXT))];
        }
        let label_w = [s.line, s.host, s.device]
            .iter()
            .map(|l| l.width())
            .max()
            .unwrap_or(0)
            + 1;
        let end = entries
            .iter()
            .flat_map(|e| [e.host_end_us, e.device_end_us.unwrap_or(0.0), e.host_us])
            .fold(0.0f64, f64::max)
            .max(1.0);
        let clock = if report.modelled {
            s.modelled
        } else {
            s.measured
        };
        let mut lines = vec![Line::styled(
            truncate(&format!("{clock} · 0 – {}", human_us(end)), width),
            t(theme::QUOTE_TEXT),
        )];
        let lane_w = width.saturating_sub(label_w);
        if lane_w < 4 {
            return lines;
        }
        let x_of = |us: f64| ((us.max(0.0) / end) * (lane_w - 1) as f64).round() as usize;
        let mut numbers = vec![' '; lane_w];
        let mut host: Vec<(char, Style)> = vec![('─', t(theme::LANE)); lane_w];
        let mut device: Vec<(char, Style)> = vec![('─', t(theme::LANE)); lane_w];
        let mut join: Vec<(char, Style)> = vec![(' ', Style::new()); lane_w];
        let mut next_free = 0;
        for e in entries {
            // The reporting call is marked where it raised: when it returned to Python.
            let at = if e.status == "reported" {
                e.host_end_us
            } else {
                e.host_us
            };
            let hx = x_of(at).min(lane_w - 1);
            let label = e.line.to_string();
            if hx >= next_free && hx + label.len() <= lane_w {
                for (k, c) in label.chars().enumerate() {
                    numbers[hx + k] = c;
                }
                next_free = hx + label.len() + 1;
            }
            host[hx] = if e.status == "reported" {
                ('✗', t(theme::LANE_REPORTED))
            } else if e.status == "failed" || e.status == "error" {
                ('✗', t(theme::LANE_ASSERT))
            } else {
                ('●', t(theme::LANE_HOST))
            };
            if let Some(start) = e.device_start_us {
                let dx = x_of(start).min(lane_w - 1);
                let dend = x_of(e.device_end_us.unwrap_or(start)).min(lane_w - 1);
                for cell in device.iter_mut().take(dend + 1).skip(dx + 1) {
                    if cell.0 == '─' {
                        *cell = ('▬', t(theme::LANE_DEVICE));
                    }
                }
                device[dx] = if e.status == "assert" {
                    ('✗', t(theme::LANE_ASSERT))
                } else {
                    ('▮', t(theme::LANE_DEVICE))
                };
            }
        }
        let gap = assert_gap(report);
        let mut explain = None;
        if let Some((a, r, us)) = gap {
            let kernel = &entries[a];
            let reporter = &entries[r];
            let ax = x_of(kernel.host_end_us).min(lane_w - 1);
            let rx = x_of(reporter.host_end_us).min(lane_w - 1);
            let (lo, hi) = (ax.min(rx), ax.max(rx));
            let style = t(theme::LANE_ASSERT);
            for cell in join.iter_mut().take(hi).skip(lo + 1) {
                *cell = ('─', style);
            }
            join[lo] = ('╰', style);
            join[hi] = (if lo == hi { '│' } else { '╯' }, style);
            let text = format!(" {} ", human_us(us));
            if hi - lo > text.width() + 1 {
                let start = lo + (hi - lo - text.width()) / 2 + 1;
                for (k, c) in text.chars().enumerate() {
                    join[start + k] = (c, style);
                }
            }
            if device[rx].0 == '─' || device[rx].0 == ' ' {
                device[rx] = ('│', style);
            }
            explain = Some(format!(
                "✗ {} {} {}: assert → {} {} {}(), {} {}",
                s.line,
                kernel.line,
                kernel.op,
                s.line,
                reporter.line,
                reporter.op,
                human_us(us),
                s.after_launch
            ));
        }
        if explain.is_none()
            && let Some(kernel) = entries.iter().find(|e| e.status == "assert")
        {
            // Launch blocking: the launch itself waited, so it reported its own failure.
            explain = Some(format!(
                "✗ {} {} {}: assert → {}",
                s.line, kernel.line, kernel.op, s.reported_by_launch
            ));
        }
        let lane = |label: &str, cells: &[(char, Style)]| {
            let mut spans = vec![Span::styled(
                format!(
                    "{label:<label_w$}",
                    label_w = label_w - (label.width() - label.chars().count())
                ),
                t(theme::TABLE_HEADER),
            )];
            spans.extend(cells.iter().map(|(c, st)| Span::styled(c.to_string(), *st)));
            Line::from(spans)
        };
        let number_cells: Vec<(char, Style)> =
            numbers.into_iter().map(|c| (c, t(theme::GUTTER))).collect();
        lines.push(lane(s.line, &number_cells));
        lines.push(lane(s.host, &host));
        lines.push(lane(s.device, &device));
        lines.push(lane("", &join));
        if let Some(text) = explain {
            lines.push(Line::styled(truncate(&text, width), t(theme::LANE_ASSERT)));
        }
        lines
    }

    /// The quiz card's text (question, choices, feedback) at `width`, without the frame.
    pub(super) fn quiz_lines(&self, number: usize, width: u16) -> Option<Vec<Line<'static>>> {
        let lesson = self.catalog.lessons.get(self.current)?;
        let quiz = lesson.quizzes.get(number.checked_sub(1)?)?;
        let inner = usize::from(width.saturating_sub(4)).max(1);
        let s = self.strings();
        let t = |st| self.theme.style(st);
        let answered = self
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
            .get(self.current)
            .map_or("", |l| l.id.as_str());
        let state = self
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

/// Cuts a line into pieces of at most `width` cells, keeping every character (and the
/// indentation tracebacks rely on): at the last space that fits, else mid-word.
fn hard_wrap(line: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let chars: Vec<char> = line.replace('\t', "    ").chars().collect();
    let indent = chars.iter().take_while(|c| **c == ' ').count();
    let mut out = Vec::new();
    let mut start = 0;
    while start < chars.len() {
        // The longest run from `start` that fits.
        let mut used = 0;
        let mut end = start;
        while end < chars.len() {
            let w = chars[end].width().unwrap_or(0);
            if used + w > width {
                break;
            }
            used += w;
            end += 1;
        }
        if end == start {
            end = start + 1; // a character wider than the pane
        }
        if end < chars.len() {
            // Prefer breaking after a space (past the indentation).
            if let Some(space) = (start.max(indent) + 1..=end)
                .rev()
                .find(|&i| chars[i - 1] == ' ')
            {
                end = space;
            }
        }
        out.push(chars[start..end].iter().collect());
        start = end;
    }
    if out.is_empty() {
        out.push(String::new());
    }
    out
}

/// Fits a series to `width` points, keeping each bucket's maximum (peaks stay visible).
fn resample(data: &[u64], width: usize) -> Vec<u64> {
    if data.len() <= width || width == 0 {
        return data.to_vec();
    }
    (0..width)
        .map(|i| {
            let from = i * data.len() / width;
            let to = ((i + 1) * data.len() / width).max(from + 1);
            data[from..to].iter().copied().max().unwrap_or(0)
        })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hard_wrap_keeps_every_character() {
        assert_eq!(hard_wrap("  abcdef", 3), vec!["  a", "bcd", "ef"]);
        assert_eq!(hard_wrap("", 3), vec![""]);
        assert_eq!(hard_wrap("ab cd ef", 6), vec!["ab cd ", "ef"]);
        assert_eq!(hard_wrap("    x = 1 + 2", 8), vec!["    x = ", "1 + 2"]);
        assert_eq!(hard_wrap("宽字", 1), vec!["宽", "字"]);
    }

    #[test]
    fn resample_keeps_peaks() {
        assert_eq!(resample(&[1, 9, 2, 3], 2), vec![9, 3]);
        assert_eq!(resample(&[1, 2], 5), vec![1, 2]);
    }
}
