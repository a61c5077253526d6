//! Drawing the pager: title bar, contents pane, the lesson text with search highlights and
//! sideways-scrolled code, the cards, the footer with the keys that work now, and the
//! overlays. Reads state, never changes it: the layout is `App::layout_for`, the same one
//! events use, and the footer and help come from the key table.

use super::app::{App, Confirm, Overlay, TocEntry};
use super::card::Dims;
use super::keys::{self, Context};
use super::layout::PageLayout;
use super::markdown::{Document, SlotKind};
use super::theme;
use super::wrap::truncate;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{
    Block, Borders, Clear, Paragraph, Scrollbar, ScrollbarOrientation, ScrollbarState,
    StatefulWidget, Widget,
};
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

impl Widget for &App {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let layout = self.layout_for(area);
        if layout.too_small {
            Paragraph::new(self.strings().too_small)
                .wrap(ratatui::widgets::Wrap { trim: true })
                .render(area, buf);
            return;
        }
        let doc = self.document_at(layout.text.width);
        self.render_title(layout.title, buf);
        if let Some(toc) = layout.toc {
            self.render_toc(toc, &doc, &layout, buf);
        }
        self.render_text(&layout, &doc, area, buf);
        self.render_footer(layout.footer, buf);
        match &self.overlay {
            Overlay::Help { scroll } => self.render_help(area, *scroll, buf),
            Overlay::Lessons { selected } => self.render_lessons(area, *selected, buf),
            Overlay::Compare { scroll } => self.render_compare(area, *scroll, buf),
            Overlay::ExplainInput(text) => self.render_explain_input(area, text, buf),
            Overlay::Explained { scroll, .. } => self.render_explained(area, *scroll, buf),
            _ => {}
        }
    }
}

impl App {
    fn render_title(&self, area: Rect, buf: &mut Buffer) {
        let style = self.theme.style(theme::TITLE_BAR);
        let current = self.pager.current;
        let title = self
            .catalog
            .lessons
            .get(current)
            .map_or(String::new(), |l| {
                format!(
                    " {} · {}/{} {}",
                    self.strings().app_name,
                    current + 1,
                    self.catalog.lessons.len(),
                    l.title
                )
            });
        buf.set_style(area, style);
        // The backend exercises run on, right-aligned, when there is room beside the title.
        let label = format!(" {} ", self.backend_label());
        let width = usize::from(area.width);
        let label_w = label.width();
        let title_room = if title.width() + label_w + 2 <= width {
            let x = area.x + (width - label_w) as u16;
            buf.set_string(x, area.y, &label, self.theme.style(theme::BACKEND_LABEL));
            width - label_w - 1
        } else {
            width
        };
        buf.set_stringn(
            area.x,
            area.y,
            truncate(&title, title_room),
            title_room,
            style,
        );
    }

    fn render_toc(&self, area: Rect, doc: &Document, layout: &PageLayout, buf: &mut Buffer) {
        let block = Block::default()
            .borders(Borders::RIGHT | Borders::TOP)
            .title(format!(" {} ", self.strings().contents))
            .border_style(self.theme.style(theme::TOC_BORDER));
        let inner = block.inner(area);
        block.render(area, buf);
        let width = usize::from(inner.width);
        let here = doc
            .sections
            .iter()
            .rposition(|s| layout.page_row(s.line) <= self.pager.scroll);
        let progress = &self.session.progress;
        // The ✓ of the code each exercise holds now (Progress::passed).
        let passed = |id: &str| self.exercise(id).is_some_and(|e| progress.passed(e));
        let all_passed = |lesson: &crate::lesson::Lesson| {
            !lesson.exercises.is_empty() && lesson.exercises.iter().all(|e| progress.passed(e))
        };
        let mut lines = Vec::new();
        for entry in self.toc_entries() {
            match entry {
                TocEntry::Lesson(i) => {
                    let lesson = &self.catalog.lessons[i];
                    let done = all_passed(lesson);
                    let mark = if done { "✓" } else { " " };
                    let text = truncate(
                        &format!("{}. {}", i + 1, lesson.title),
                        width.saturating_sub(2),
                    );
                    let style = if i == self.pager.current {
                        self.theme
                            .style(theme::TOC_CURRENT)
                            .add_modifier(ratatui::style::Modifier::REVERSED)
                    } else {
                        self.theme.style(theme::TEXT)
                    };
                    lines.push(Line::from(vec![
                        Span::styled(format!("{mark} "), self.theme.style(theme::TOC_DONE)),
                        Span::styled(text, style),
                    ]));
                }
                TocEntry::Section(line) => {
                    let k = doc.sections.iter().position(|s| s.line == line);
                    let title = k.map_or("", |k| doc.sections[k].title.as_str());
                    let style = if k.is_some() && k == here {
                        theme::TOC_CURRENT
                    } else {
                        theme::TOC_SECTION
                    };
                    let text = truncate(title, width.saturating_sub(4));
                    lines.push(Line::styled(format!("    {text}"), self.theme.style(style)));
                }
                TocEntry::Exercise(index) => {
                    let Some(SlotKind::Exercise(id)) = doc.slots.get(index).map(|s| &s.kind) else {
                        continue;
                    };
                    let text = truncate(id, width.saturating_sub(6));
                    lines.push(Line::from(vec![
                        Span::styled(
                            format!("    {} ", if passed(id) { "✓" } else { "·" }),
                            self.theme.style(theme::TOC_DONE),
                        ),
                        Span::styled(text, self.theme.style(theme::TOC_SECTION)),
                    ]));
                }
            }
        }
        Paragraph::new(lines).render(inner, buf);
    }

    fn render_text(&self, layout: &PageLayout, doc: &Document, area: Rect, buf: &mut Buffer) {
        let text = layout.text;
        let height = usize::from(text.height);
        let scroll = self.pager.scroll.min(layout.max_scroll());
        let dims = Dims {
            term_width: area.width,
            page_height: text.height,
        };
        // Walk the page: text lines, with each card's rows inserted before its line.
        let mut row = 0usize; // page row
        let mut line = 0usize; // text line
        let mut slot = 0usize;
        let end = scroll + height;
        while row < end && (line < doc.lines.len() || slot < doc.slots.len()) {
            if let Some(s) = doc.slots.get(slot)
                && (s.line <= line || line >= doc.lines.len())
            {
                let h = layout.slots.get(slot).map_or(0, |b| b.height);
                if row + h > scroll && h > 0 {
                    self.draw_card(slot, &s.kind, h, row, scroll, text, dims, buf);
                }
                row += h;
                slot += 1;
                continue;
            }
            if row >= scroll {
                let y = text.y + (row - scroll) as u16;
                let shown = match &self.pager.search {
                    Some(search) => self.highlighted(&doc.lines[line], line, search),
                    None => doc.lines[line].clone(),
                };
                match doc.code.get(line).copied().flatten() {
                    Some(prefix) => self.draw_code_line(&shown, prefix, text.x, y, text.width, buf),
                    None => {
                        buf.set_line(text.x, y, &shown, text.width);
                    }
                }
            }
            row += 1;
            line += 1;
        }
        if layout.total > height {
            let mut state =
                ScrollbarState::new(layout.total.saturating_sub(height)).position(scroll);
            Scrollbar::new(ScrollbarOrientation::VerticalRight)
                .begin_symbol(None)
                .end_symbol(None)
                .render(layout.body, buf, &mut state);
        }
    }

    /// A code line: its frame prefix, then the code from `code_left` columns in; `›` at the
    /// right edge when more follows, `‹` after the prefix when some is scrolled off.
    fn draw_code_line(
        &self,
        line: &Line,
        prefix: u16,
        x: u16,
        y: u16,
        width: u16,
        buf: &mut Buffer,
    ) {
        let left = self.pager.code_left;
        let room = usize::from(width.saturating_sub(prefix));
        let mut col = 0usize; // display column within the code (after the prefix)
        let mut prefix_left = usize::from(prefix);
        let mut cut_left = false;
        let mut more = false;
        let frame = self.theme.style(theme::CODE_FRAME);
        for span in &line.spans {
            for c in span.content.chars() {
                let w = c.width().unwrap_or(0);
                if prefix_left > 0 {
                    let px = x + prefix - prefix_left as u16;
                    buf.set_string(px, y, c.to_string(), span.style);
                    prefix_left = prefix_left.saturating_sub(w.max(1));
                    continue;
                }
                if col < left {
                    cut_left |= c != ' ';
                    col += w;
                    continue;
                }
                if col + w > left + room {
                    more = true;
                    break;
                }
                let cx = x + prefix + (col - left) as u16;
                buf.set_string(cx, y, c.to_string(), span.style);
                col += w;
            }
        }
        if more && room > 0 {
            buf.set_string(x + width - 1, y, "›", frame);
        }
        if cut_left && room > 1 {
            buf.set_string(x + prefix, y, "‹", frame);
        }
    }

    /// Draws a card off screen at its full height, then copies the rows that are in view, so
    /// a card cut by the top or bottom of the page still looks right.
    #[allow(clippy::too_many_arguments)]
    fn draw_card(
        &self,
        index: usize,
        kind: &SlotKind,
        height: usize,
        top: usize,
        scroll: usize,
        text_area: Rect,
        dims: Dims,
        buf: &mut Buffer,
    ) {
        let h = height.min(usize::from(u16::MAX / 4)) as u16;
        let card_area = Rect::new(0, 0, text_area.width, h);
        let mut card = Buffer::empty(card_area);
        self.render_slot(index, kind, card_area, dims, &mut card);
        let first = scroll.saturating_sub(top);
        let last = (scroll + usize::from(text_area.height)).min(top + height) - top;
        for r in first..last {
            let y = text_area.y + (top + r - scroll) as u16;
            for x in 0..text_area.width {
                if let (Some(from), Some(to)) =
                    (card.cell((x, r as u16)), buf.cell_mut((text_area.x + x, y)))
                {
                    *to = from.clone();
                }
            }
        }
    }

    /// Restyles the characters of every hit on this line; the current hit stands out.
    fn highlighted(
        &self,
        line: &Line<'static>,
        index: usize,
        search: &super::pager::Search,
    ) -> Line<'static> {
        let query_len = search.query.chars().count();
        let hits: Vec<(usize, bool)> = search
            .hits
            .iter()
            .enumerate()
            .filter(|(_, h)| h.0 == index)
            .map(|(k, h)| (h.1, k == search.current))
            .collect();
        if hits.is_empty() {
            return line.clone();
        }
        let mut spans = Vec::new();
        let mut col = 0;
        for span in &line.spans {
            for c in span.content.chars() {
                let hit = hits
                    .iter()
                    .find(|(start, _)| col >= *start && col < start + query_len);
                let style = match hit {
                    Some((_, true)) => self.theme.style(theme::SEARCH_CURRENT),
                    Some((_, false)) => self.theme.style(theme::SEARCH_HIT),
                    None => span.style,
                };
                spans.push(Span::styled(c.to_string(), style));
                col += 1;
            }
        }
        Line::from(spans)
    }

    /// The footer: a message or question first, then the keys that work now, from the key
    /// table, as many whole entries as fit (most important first).
    fn render_footer(&self, area: Rect, buf: &mut Buffer) {
        let style = self.theme.style(theme::FOOTER);
        buf.set_style(area, style);
        let spans = self.footer_spans(usize::from(area.width));
        buf.set_line(area.x, area.y, &Line::from(spans), area.width);
    }

    /// The footer's spans for a footer `width` cells wide; never wider.
    pub(crate) fn footer_spans(&self, width: usize) -> Vec<Span<'static>> {
        let s = self.strings();
        let key_style = self.theme.style(theme::FOOTER_KEY);
        let text_style = self.theme.style(theme::FOOTER);
        let context = self.context();
        let running = self.runs.running();
        let mut lead: Vec<Span<'static>> = Vec::new();
        if let Some(question) = self.question() {
            lead.push(Span::styled(format!(" {question}"), key_style));
        } else if let Some(status) = &self.status {
            lead.push(Span::styled(format!(" {status} │"), key_style));
        }
        if context == Context::SearchInput
            && let Overlay::SearchInput(query) = &self.overlay
        {
            lead.push(Span::styled(
                format!(" {}{query}▏ ", s.search_prompt),
                key_style,
            ));
        }
        if let Some(run) = running.filter(|_| context != Context::Confirm) {
            let state = run.state_word(s);
            lead.push(Span::styled(
                format!(" {} {state} ", run.exercise),
                self.theme.style(theme::SPINNER),
            ));
        }
        let doc = self.document();
        let code_room = usize::from(self.layout().text.width).saturating_sub(2);
        let mut entries: Vec<Vec<Span<'static>>> = Vec::new();
        for binding in keys::footer(context, running.is_some()) {
            // Keys for what this lesson has: cards to go to, code wider than the screen.
            let pointless = match binding.action {
                keys::Action::FocusNext => doc.slots.is_empty(),
                keys::Action::CodeRight => doc.code_width <= code_room,
                _ => false,
            };
            if pointless {
                continue;
            }
            let mut entry = vec![
                Span::styled(format!(" {}", binding.label), key_style),
                Span::styled(format!(" {} ", (s.short)(binding.action)), text_style),
            ];
            if binding.action == keys::Action::ToggleBlocking {
                // The setting's state, not just its key.
                let on = self.launch_blocking
                    || self.blocking_next.is_some()
                        && self.blocking_next == self.focused_exercise();
                let (text, st) = if on {
                    (s.blocking_on, theme::BLOCKING_ON)
                } else {
                    (s.blocking_off, theme::FOOTER)
                };
                entry = vec![
                    Span::styled(format!(" {}", binding.label), key_style),
                    Span::styled(format!(" {text} "), self.theme.style(st)),
                ];
            }
            entries.push(entry);
        }
        // The pager's keys to the cards when the lesson has any.
        let mut spans = Vec::new();
        let mut used = 0;
        for span in lead {
            let w = span.content.width();
            if used + w > width {
                spans.push(Span::styled(
                    truncate(&span.content, width - used),
                    span.style,
                ));
                return spans;
            }
            used += w;
            spans.push(span);
        }
        for entry in entries {
            let w: usize = entry.iter().map(|s| s.content.width()).sum();
            if used + w > width {
                break;
            }
            used += w;
            spans.extend(entry);
        }
        spans
    }

    /// The question the footer asks, if any.
    fn question(&self) -> Option<String> {
        let s = self.strings();
        Some(match self.confirm.as_ref()? {
            Confirm::Reset(id) => s.confirm_reset.replace("{id}", id),
            Confirm::Restore(id) => s.confirm_restore.replace("{id}", id),
            Confirm::Solution(_) => s.confirm_solution.to_string(),
            Confirm::Quit(None) => s.confirm_quit_running.to_string(),
            Confirm::Quit(Some(why)) => s.confirm_quit_unsaved.replace("{why}", why),
            Confirm::Conflict(id) => s.confirm_conflict.replace("{id}", id),
        })
    }

    /// The help overlay: every table of the key map, each binding with all its keys.
    fn render_help(&self, area: Rect, scroll: usize, buf: &mut Buffer) {
        let s = self.strings();
        let mut rows: Vec<(String, String, bool)> = Vec::new();
        for (section, bindings) in keys::help_sections() {
            rows.push((String::new(), (s.section)(section).to_string(), true));
            for binding in bindings {
                rows.push((
                    keys::keys_text(binding),
                    (s.long)(binding.action).to_string(),
                    false,
                ));
            }
        }
        let key_width = rows
            .iter()
            .filter(|r| !r.2)
            .map(|r| r.0.width())
            .max()
            .unwrap_or(0);
        let text_width = rows.iter().map(|r| r.1.width()).max().unwrap_or(0);
        let lines: Vec<Line> = rows
            .iter()
            .map(|(k, t, heading)| {
                if *heading {
                    Line::styled(format!(" {t}"), self.theme.style(theme::HEADING_3))
                } else {
                    let pad = key_width.saturating_sub(k.width());
                    Line::from(vec![
                        Span::styled(
                            format!(" {k}{}  ", " ".repeat(pad)),
                            self.theme.style(theme::HELP_KEY),
                        ),
                        Span::raw(t.clone()),
                    ])
                }
            })
            .collect();
        self.popup(
            area,
            s.help_title,
            (key_width + text_width + 6) as u16,
            lines,
            scroll,
            buf,
        );
    }

    /// The comparison of `D`: what the engine and real PyTorch did differently.
    fn render_compare(&self, area: Rect, scroll: usize, buf: &mut Buffer) {
        let s = self.strings();
        let title = match &self.comparison {
            Some((id, _)) => format!("{}· {id} ", s.compare_title),
            None => s.compare_title.to_string(),
        };
        let lines: Vec<Line> = self
            .compare_lines(area)
            .into_iter()
            .map(|l| Line::styled(format!(" {l}"), self.theme.style(theme::TEXT)))
            .collect();
        let width = super::app::compare_width(area);
        self.popup(area, &title, width, lines, scroll, buf);
    }

    /// `!`: the text pasted so far (its last lines when it is long), or how to use the prompt.
    fn render_explain_input(&self, area: Rect, text: &str, buf: &mut Buffer) {
        let s = self.strings();
        let width = super::app::compare_width(area);
        let inner = usize::from(width.saturating_sub(3)).max(10);
        let rows = usize::from(area.height.saturating_sub(6)).max(1);
        let style = self.theme.style(theme::TEXT);
        let mut lines: Vec<Line> = if text.is_empty() {
            crate::explain::render::wrap(s.explain_prompt_help, inner)
                .into_iter()
                .map(|l| Line::styled(format!(" {l}"), self.theme.style(theme::FOOTER)))
                .collect()
        } else {
            let wrapped: Vec<String> = text
                .split('\n')
                .flat_map(|l| super::panes::output::hard_wrap(l, inner))
                .collect();
            let skip = wrapped.len().saturating_sub(rows);
            wrapped
                .into_iter()
                .skip(skip)
                .map(|l| Line::styled(format!(" {l}"), style))
                .collect()
        };
        // the cursor, after the last character
        match lines.last_mut() {
            Some(last) if !text.is_empty() => last.spans.push(Span::styled("▏", style)),
            _ => lines.push(Line::styled(" ▏", style)),
        }
        self.popup(area, s.explain_prompt_title, width, lines, 0, buf);
    }

    fn render_explained(&self, area: Rect, scroll: usize, buf: &mut Buffer) {
        let s = self.strings();
        let lines: Vec<Line> = self
            .explain_lines(area)
            .into_iter()
            .map(|l| {
                let style = if l.starts_with("──") || (!l.starts_with(' ') && !l.is_empty()) {
                    self.theme.style(theme::HEADING_3)
                } else {
                    self.theme.style(theme::TEXT)
                };
                Line::styled(format!(" {l}"), style)
            })
            .collect();
        let width = super::app::compare_width(area);
        self.popup(area, s.explain_title, width, lines, scroll, buf);
    }

    /// The lesson list overlay: ↑↓ and Enter, or a lesson's number.
    fn render_lessons(&self, area: Rect, selected: usize, buf: &mut Buffer) {
        let s = self.strings();
        let progress = &self.session.progress;
        let lines: Vec<Line> = self
            .catalog
            .lessons
            .iter()
            .enumerate()
            .map(|(i, lesson)| {
                let done = !lesson.exercises.is_empty()
                    && lesson.exercises.iter().all(|e| progress.passed(e));
                let text = format!(
                    " {} {}. {} ",
                    if done { "✓" } else { " " },
                    i + 1,
                    lesson.title
                );
                let style = if i == selected {
                    self.theme
                        .style(theme::TOC_CURRENT)
                        .add_modifier(ratatui::style::Modifier::REVERSED)
                } else {
                    self.theme.style(theme::TEXT)
                };
                Line::styled(text, style)
            })
            .collect();
        let width = lines.iter().map(|l| l.width()).max().unwrap_or(0) as u16 + 2;
        let scroll = selected.saturating_sub(usize::from(area.height.saturating_sub(6)));
        self.popup(area, s.lessons_title, width, lines, scroll, buf);
    }

    /// A bordered box in the middle of the screen. Lines are cut at its inner edge by whole
    /// characters, and a wide character of the page that would straddle its border is cleared,
    /// so the border is never broken.
    fn popup(
        &self,
        area: Rect,
        title: &str,
        width: u16,
        lines: Vec<Line>,
        scroll: usize,
        buf: &mut Buffer,
    ) {
        // Between the title bar and the footer, which stay visible (the footer says how to
        // close the box).
        let area = Rect {
            y: area.y + 1,
            height: area.height.saturating_sub(2),
            ..area
        };
        let width = width.min(area.width);
        let height = ((lines.len() + 2) as u16).min(area.height);
        let popup = Rect {
            x: area.x + (area.width - width) / 2,
            y: area.y + (area.height - height) / 2,
            width,
            height,
        };
        clear_straddling(buf, popup);
        Clear.render(popup, buf);
        let block = Block::bordered()
            .title(title.to_string())
            .border_style(self.theme.style(theme::HELP_BORDER));
        let inner = block.inner(popup);
        block.render(popup, buf);
        let scroll = scroll.min(lines.len().saturating_sub(usize::from(inner.height)));
        for (k, line) in lines
            .iter()
            .skip(scroll)
            .take(usize::from(inner.height))
            .enumerate()
        {
            set_line_whole(buf, inner.x, inner.y + k as u16, line, inner.width);
        }
    }
}

/// Writes `line` from (x, y) in at most `width` cells, stopping before a character that would
/// not fit whole.
fn set_line_whole(buf: &mut Buffer, x: u16, y: u16, line: &Line, width: u16) {
    let mut used = 0u16;
    for span in &line.spans {
        for c in span.content.chars() {
            let w = c.width().unwrap_or(0) as u16;
            if used + w > width {
                return;
            }
            if w > 0 {
                buf.set_string(x + used, y, c.to_string(), span.style.patch(Style::new()));
            }
            used += w;
        }
    }
}

/// Clears a wide character whose two cells straddle the left or right edge of `rect` (its
/// second half would be overwritten by the border and the terminal would draw it over the
/// border anyway).
fn clear_straddling(buf: &mut Buffer, rect: Rect) {
    let wide =
        |buf: &Buffer, x: u16, y: u16| buf.cell((x, y)).is_some_and(|c| c.symbol().width() > 1);
    for y in rect.y..rect.y + rect.height {
        // Starting just left of the box: its right half is under the left border.
        if let Some(x) = rect.x.checked_sub(1)
            && wide(buf, x, y)
            && let Some(cell) = buf.cell_mut((x, y))
        {
            cell.set_symbol(" ");
        }
        // Starting on the right border: its right half is just outside the box.
        let right = rect.x + rect.width - 1;
        if wide(buf, right, y)
            && let Some(cell) = buf.cell_mut((right + 1, y))
        {
            cell.set_symbol(" ");
        }
    }
}
