//! Drawing the pager: title bar, contents pane, the lesson text with search highlights,
//! footer with the keys that work now, and the help overlay. Reads state, never changes it.

use super::app::{App, Mode, TOC_MIN_TERMINAL_WIDTH, TOC_WIDTH};
use super::markdown::SlotKind;
use super::theme;
use super::wrap::truncate;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{
    Block, Borders, Clear, Paragraph, Scrollbar, ScrollbarOrientation, ScrollbarState,
    StatefulWidget, Widget,
};
use unicode_width::UnicodeWidthStr;

/// The smallest size at which anything but a "too small" note is drawn.
const MIN_WIDTH: u16 = 20;
const MIN_HEIGHT: u16 = 6;

impl Widget for &App {
    fn render(self, area: Rect, buf: &mut Buffer) {
        if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
            Paragraph::new(self.strings().too_small)
                .wrap(ratatui::widgets::Wrap { trim: true })
                .render(area, buf);
            return;
        }
        self.term_width.set(area.width);
        let [title, body, footer] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Min(1),
            Constraint::Length(1),
        ])
        .areas(area);
        self.render_title(title, buf);
        let show_toc = self.toc_open && area.width >= TOC_MIN_TERMINAL_WIDTH;
        let text_area = if show_toc {
            let [toc, text] =
                Layout::horizontal([Constraint::Length(TOC_WIDTH), Constraint::Min(1)]).areas(body);
            self.render_toc(toc, buf);
            text
        } else {
            self.toc_area.set((0, 0, 0, 0));
            body
        };
        self.render_text(text_area, buf);
        self.render_footer(footer, buf);
        if self.mode == Mode::Help {
            self.render_help(area, buf);
        }
    }
}

impl App {
    fn render_title(&self, area: Rect, buf: &mut Buffer) {
        let style = self.theme.style(theme::TITLE_BAR);
        let title = self
            .catalog
            .lessons
            .get(self.current)
            .map_or(String::new(), |l| {
                format!(
                    " {} · {}/{} {}",
                    self.strings().app_name,
                    self.current + 1,
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

    fn render_toc(&self, area: Rect, buf: &mut Buffer) {
        self.toc_area.set((area.x, area.y, area.width, area.height));
        let block = Block::default()
            .borders(Borders::RIGHT | Borders::TOP)
            .title(format!(" {} ", self.strings().contents))
            .border_style(self.theme.style(theme::TOC_BORDER));
        let inner = block.inner(area);
        block.render(area, buf);
        let width = usize::from(inner.width);
        let mut lines = Vec::new();
        for (i, lesson) in self.catalog.lessons.iter().enumerate() {
            let done = !lesson.exercises.is_empty()
                && lesson.exercises.iter().all(|e| self.progress.passed(e));
            let mark = if done { "✓" } else { " " };
            let text = truncate(
                &format!("{}. {}", i + 1, lesson.title),
                width.saturating_sub(2),
            );
            let style = if i == self.current {
                theme::TOC_CURRENT
            } else {
                theme::TEXT
            };
            let style = if i == self.current {
                self.theme
                    .style(style)
                    .add_modifier(ratatui::style::Modifier::REVERSED)
            } else {
                self.theme.style(style)
            };
            lines.push(Line::from(vec![
                Span::styled(format!("{mark} "), self.theme.style(theme::TOC_DONE)),
                Span::styled(text, style),
            ]));
            if i == self.current {
                let doc = self.document(self.viewport.get().0);
                let here = doc.sections.iter().rposition(|s| s.line <= self.scroll);
                for (k, section) in doc
                    .sections
                    .iter()
                    .enumerate()
                    .filter(|(_, s)| s.level == 2)
                {
                    let style = if Some(k) == here {
                        theme::TOC_CURRENT
                    } else {
                        theme::TOC_SECTION
                    };
                    let text = truncate(&section.title, width.saturating_sub(4));
                    lines.push(Line::styled(format!("    {text}"), self.theme.style(style)));
                }
                drop(doc);
                // Each exercise of the open lesson, done or not.
                for exercise in &lesson.exercises {
                    let done = self.progress.passed(exercise);
                    let text = truncate(&exercise.id, width.saturating_sub(6));
                    lines.push(Line::from(vec![
                        Span::styled(
                            format!("    {} ", if done { "✓" } else { "·" }),
                            self.theme.style(theme::TOC_DONE),
                        ),
                        Span::styled(text, self.theme.style(theme::TOC_SECTION)),
                    ]));
                }
            }
        }
        Paragraph::new(lines).render(inner, buf);
    }

    fn render_text(&self, area: Rect, buf: &mut Buffer) {
        // One column of margin on each side, and one for the scrollbar.
        let text_area = Rect {
            x: area.x + 1,
            width: area.width.saturating_sub(3),
            ..area
        };
        self.viewport.set((text_area.width, text_area.height));
        self.text_origin.set((text_area.x, text_area.y));
        let geo = self.geometry(text_area.width);
        let doc = self.document(text_area.width);
        let height = usize::from(text_area.height);
        let scroll = self.scroll.min(geo.total.saturating_sub(height));
        // Walk the page: text lines, with each card's rows inserted before its line.
        let mut row = 0usize; // page row
        let mut line = 0usize; // text line
        let mut slot = 0usize;
        let end = scroll + height;
        while row < end && (line < doc.lines.len() || slot < doc.slots.len()) {
            if let Some(s) = doc.slots.get(slot)
                && (s.line <= line || line >= doc.lines.len())
            {
                let (_, h) = geo.slots[slot];
                if row + h > scroll && h > 0 {
                    self.draw_card(slot, &s.kind, h, row, scroll, text_area, buf);
                }
                row += h;
                slot += 1;
                continue;
            }
            if row >= scroll {
                let shown = match &self.search {
                    Some(search) => self.highlighted(&doc.lines[line], line, search),
                    None => doc.lines[line].clone(),
                };
                buf.set_line(
                    text_area.x,
                    text_area.y + (row - scroll) as u16,
                    &shown,
                    text_area.width,
                );
            }
            row += 1;
            line += 1;
        }
        if geo.total > height {
            let mut state = ScrollbarState::new(geo.total.saturating_sub(height)).position(scroll);
            let bar_area = Rect {
                x: area.x,
                width: area.width,
                ..area
            };
            Scrollbar::new(ScrollbarOrientation::VerticalRight)
                .begin_symbol(None)
                .end_symbol(None)
                .render(bar_area, buf, &mut state);
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
        buf: &mut Buffer,
    ) {
        let h = height.min(usize::from(u16::MAX / 4)) as u16;
        let card_area = Rect::new(0, 0, text_area.width, h);
        let mut card = Buffer::empty(card_area);
        self.render_slot(index, kind, card_area, &mut card);
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
        search: &super::app::Search,
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

    fn render_footer(&self, area: Rect, buf: &mut Buffer) {
        let style = self.theme.style(theme::FOOTER);
        buf.set_style(area, style);
        let s = self.strings();
        let line = match &self.mode {
            Mode::SearchInput(query) => Line::from(
                vec![
                    Span::styled(
                        format!("{}{query}▏", s.search_prompt),
                        self.theme.style(theme::FOOTER_KEY),
                    ),
                    Span::styled("  ", style),
                ]
                .into_iter()
                .chain(key_spans(s.footer_search, self))
                .collect::<Vec<_>>(),
            ),
            Mode::Help => Line::from(key_spans(s.footer_help, self)),
            Mode::Normal => Line::from(self.normal_footer()),
        };
        buf.set_line(area.x, area.y, &line, area.width);
    }

    /// The keys that work now: for the confirmation asked, the editor, the focused card, or
    /// the pager; a run in flight adds its cancel key.
    fn normal_footer(&self) -> Vec<Span<'static>> {
        let s = self.strings();
        let key = self.theme.style(theme::FOOTER_KEY);
        let mut spans = Vec::new();
        if let Some(status) = &self.status {
            spans.push(Span::styled(format!(" {status} │"), key));
        }
        if let Some(confirm) = self.confirm {
            let question = match confirm {
                super::exercise::Confirm::Reset => s.confirm_reset,
                super::exercise::Confirm::Solution => s.confirm_solution,
            };
            spans.push(Span::styled(format!(" {question}"), key));
            spans.extend(key_spans(s.footer_confirm, self));
            return spans;
        }
        if self.is_running() {
            spans.extend(key_spans(s.footer_running, self));
        }
        let blocking = |spans: &mut Vec<Span<'static>>| {
            let (text, style) = if self.launch_blocking {
                (s.blocking_on, theme::BLOCKING_ON)
            } else {
                (s.blocking_off, theme::FOOTER)
            };
            spans.push(Span::styled(format!(" {text} "), self.theme.style(style)));
        };
        if self.editing_id().is_some() {
            spans.extend(key_spans(s.footer_editing, self));
            blocking(&mut spans);
        } else if self.focused_exercise().is_some() {
            spans.extend(key_spans(&s.footer_card[..2], self));
            spans.push(Span::styled(" b".to_string(), key));
            blocking(&mut spans);
            spans.extend(key_spans(&s.footer_card[2..], self));
        } else if self.focused_quiz().is_some() {
            spans.extend(key_spans(s.footer_quiz, self));
        } else {
            spans.extend(key_spans(s.footer_normal, self));
            if !self.document(self.viewport.get().0).slots.is_empty() {
                spans.extend(key_spans(&[s.footer_cards], self));
            }
        }
        spans
    }

    fn render_help(&self, area: Rect, buf: &mut Buffer) {
        let s = self.strings();
        let key_width = s.help.iter().map(|(k, _)| k.width()).max().unwrap_or(0);
        let text_width = s.help.iter().map(|(_, t)| t.width()).max().unwrap_or(0);
        let width = ((key_width + text_width + 6) as u16).min(area.width);
        let height = ((s.help.len() + 2) as u16).min(area.height);
        let popup = Rect {
            x: area.x + (area.width - width) / 2,
            y: area.y + (area.height - height) / 2,
            width,
            height,
        };
        Clear.render(popup, buf);
        let lines: Vec<Line> = s
            .help
            .iter()
            .map(|(k, t)| {
                Line::from(vec![
                    Span::styled(
                        format!(
                            " {k:<key_width$}  ",
                            key_width = key_width
                                .saturating_sub(k.width().saturating_sub(k.chars().count()))
                        ),
                        self.theme.style(theme::HELP_KEY),
                    ),
                    Span::raw(*t),
                ])
            })
            .collect();
        Paragraph::new(lines)
            .block(
                Block::bordered()
                    .title(s.help_title)
                    .border_style(self.theme.style(theme::HELP_BORDER)),
            )
            .render(popup, buf);
    }
}

fn key_spans(keys: &[(&'static str, &'static str)], app: &App) -> Vec<Span<'static>> {
    let key = app.theme.style(theme::FOOTER_KEY);
    let text = app.theme.style(theme::FOOTER);
    keys.iter()
        .flat_map(|(k, t)| {
            [
                Span::styled(format!(" {k}"), key),
                Span::styled(format!(" {t} "), text),
            ]
        })
        .collect()
}
