//! Renders a lesson's Markdown body into styled, wrapped terminal lines for one width:
//! headings, paragraphs, lists, tables, code blocks (Python highlighted), block quotes,
//! exercise cards and quizzes. Check, hint and solution blocks are not shown in the page.

use super::highlight::highlight_line;
use super::strings::Strings;
use super::theme::{self, Theme};
use super::wrap::{Piece, truncate, wrap};
use crate::lesson::{FenceKind, classify_fence};
use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use unicode_width::UnicodeWidthStr;

/// A heading, for the table of contents and section jumps.
#[derive(Debug, Clone, PartialEq)]
pub struct Section {
    pub level: u8,
    pub title: String,
    /// Index of its first rendered line.
    pub line: usize,
}

/// Where a live card (exercise or quiz) sits in the page. Cards are drawn by the app, not
/// laid out here, because their height changes as the learner works.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SlotKind {
    Exercise(String),
    /// The n-th quiz of the lesson, from 1.
    Quiz(usize),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Slot {
    pub kind: SlotKind,
    /// The card is drawn just before this rendered line.
    pub line: usize,
}

/// A lesson body laid out for one width.
#[derive(Debug, Clone, Default)]
pub struct Document {
    pub lines: Vec<Line<'static>>,
    pub sections: Vec<Section>,
    /// Exercise and quiz cards, in page order.
    pub slots: Vec<Slot>,
}

struct Builder<'a> {
    width: usize,
    theme: Theme,
    #[allow(dead_code)]
    strings: &'a Strings,
    doc: Document,
    inline: Vec<Piece>,
    style_stack: Vec<Style>,
    /// One entry per open list: the next number for ordered lists.
    lists: Vec<Option<u64>>,
    quote_depth: usize,
    item_first_line: bool,
    heading: Option<u8>,
    code: Option<(FenceKind, String)>,
    table: Option<Table>,
    quiz_number: usize,
}

#[derive(Default)]
struct Table {
    rows: Vec<Vec<Vec<Piece>>>,
    cell: Vec<Piece>,
    row: Vec<Vec<Piece>>,
}

/// Lays out `body` at `width` columns.
pub fn render(body: &str, width: u16, theme: Theme, strings: &Strings) -> Document {
    let mut b = Builder {
        width: usize::from(width.max(4)),
        theme,
        strings,
        doc: Document::default(),
        inline: Vec::new(),
        style_stack: vec![theme.style(theme::TEXT)],
        lists: Vec::new(),
        quote_depth: 0,
        item_first_line: false,
        heading: None,
        code: None,
        table: None,
        quiz_number: 0,
    };
    for event in Parser::new_ext(body, Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH) {
        b.event(event);
    }
    b.flush_paragraph();
    // Trailing blank lines go, but not the blank a card at the end is drawn before.
    let keep = b.doc.slots.last().map_or(0, |s| s.line + 1);
    while b.doc.lines.len() > keep && b.doc.lines.last().is_some_and(|l| l.width() == 0) {
        b.doc.lines.pop();
    }
    b.doc
}

impl Builder<'_> {
    fn style(&self) -> Style {
        *self.style_stack.last().unwrap_or(&Style::new())
    }

    fn push_style(&mut self, add: Style) {
        let s = self.style().patch(self.theme.style(add));
        self.style_stack.push(s);
    }

    fn pop_style(&mut self) {
        if self.style_stack.len() > 1 {
            self.style_stack.pop();
        }
    }

    fn blank(&mut self) {
        if self.doc.lines.last().is_some_and(|l| l.width() > 0) {
            let prefix = self.quote_prefix();
            self.doc.lines.push(Line::from(prefix));
        }
    }

    fn quote_prefix(&self) -> Vec<Span<'static>> {
        (0..self.quote_depth)
            .map(|_| Span::styled("│ ", self.theme.style(theme::QUOTE_BAR)))
            .collect()
    }

    /// Prefixes for the current paragraph: quote bars, then list bullets or their indent.
    fn prefixes(&mut self) -> (Vec<Span<'static>>, Vec<Span<'static>>) {
        let mut first = self.quote_prefix();
        let mut rest = first.clone();
        if let Some(depth) = self.lists.len().checked_sub(1) {
            let indent = "  ".repeat(depth);
            let bullet = match self.lists.last().copied().flatten() {
                Some(n) => format!("{n}. "),
                None => "• ".to_string(),
            };
            let pad = " ".repeat(bullet.width());
            if self.item_first_line {
                first.push(Span::raw(indent.clone()));
                first.push(Span::styled(bullet, self.theme.style(theme::BULLET)));
                self.item_first_line = false;
            } else {
                first.push(Span::raw(format!("{indent}{pad}")));
            }
            rest.push(Span::raw(format!("{indent}{pad}")));
        }
        (first, rest)
    }

    fn flush_paragraph(&mut self) {
        if self.inline.is_empty() {
            return;
        }
        let pieces = std::mem::take(&mut self.inline);
        let (first, rest) = self.prefixes();
        let lines = wrap(&pieces, self.width, &first, &rest);
        self.doc.lines.extend(lines);
    }

    fn text(&mut self, text: &str) {
        if let Some((_, code)) = self.code.as_mut() {
            code.push_str(text);
            return;
        }
        let style = self.style();
        if let Some(table) = self.table.as_mut() {
            table.cell.push((text.to_string(), style));
        } else {
            self.inline.push((text.to_string(), style));
        }
    }

    fn event(&mut self, event: Event) {
        match event {
            Event::Start(tag) => self.start(tag),
            Event::End(tag) => self.end(tag),
            Event::Text(t) => self.text(&t),
            Event::Code(t) => {
                self.push_style(theme::INLINE_CODE);
                self.text(&t);
                self.pop_style();
            }
            Event::SoftBreak => self.text(" "),
            Event::HardBreak => {
                if self.table.is_none() {
                    self.flush_paragraph();
                }
            }
            Event::Rule => {
                self.flush_paragraph();
                self.blank();
                let rule = "─".repeat(self.width.min(60));
                self.doc
                    .lines
                    .push(Line::styled(rule, self.theme.style(theme::CODE_FRAME)));
                self.doc.lines.push(Line::default());
            }
            Event::Html(t) | Event::InlineHtml(t) => self.text(&t),
            Event::TaskListMarker(done) => self.text(if done { "[x] " } else { "[ ] " }),
            Event::FootnoteReference(t) => self.text(&format!("[{t}]")),
            Event::InlineMath(t) | Event::DisplayMath(t) => self.text(&t),
        }
    }

    fn start(&mut self, tag: Tag) {
        match tag {
            Tag::Paragraph => {}
            Tag::Heading { level, .. } => {
                self.flush_paragraph();
                self.blank();
                let n = heading_number(level);
                self.heading = Some(n);
                self.push_style(match n {
                    1 => theme::HEADING_1,
                    2 => theme::HEADING_2,
                    _ => theme::HEADING_3,
                });
            }
            Tag::BlockQuote(_) => {
                self.flush_paragraph();
                self.blank();
                self.quote_depth += 1;
                self.push_style(theme::QUOTE_TEXT);
            }
            Tag::CodeBlock(kind) => {
                self.flush_paragraph();
                let fence = match kind {
                    CodeBlockKind::Fenced(info) => {
                        classify_fence(&info).unwrap_or(FenceKind::Plain(String::new()))
                    }
                    CodeBlockKind::Indented => FenceKind::Plain(String::new()),
                };
                self.code = Some((fence, String::new()));
            }
            Tag::List(start) => {
                self.flush_paragraph();
                if self.lists.is_empty() {
                    self.blank();
                }
                self.lists.push(start);
            }
            Tag::Item => {
                self.flush_paragraph();
                self.item_first_line = true;
            }
            Tag::Emphasis => self.push_style(Style::new().add_modifier(Modifier::ITALIC)),
            Tag::Strong => self.push_style(Style::new().add_modifier(Modifier::BOLD)),
            Tag::Strikethrough => self.push_style(Style::new().add_modifier(Modifier::CROSSED_OUT)),
            Tag::Link { .. } => self.push_style(theme::LINK),
            Tag::Table(_) => {
                self.flush_paragraph();
                self.blank();
                self.table = Some(Table::default());
            }
            Tag::TableHead | Tag::TableRow => {}
            Tag::TableCell => {}
            _ => {}
        }
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Paragraph => {
                self.flush_paragraph();
                if self.lists.is_empty() {
                    self.blank();
                }
            }
            TagEnd::Heading(_) => {
                let level = self.heading.take().unwrap_or(2);
                let title: String = self.inline.iter().map(|(t, _)| t.as_str()).collect();
                let line = self.doc.lines.len();
                self.doc.sections.push(Section { level, title, line });
                self.flush_paragraph();
                self.pop_style();
                self.doc.lines.push(Line::default());
            }
            TagEnd::BlockQuote(_) => {
                self.flush_paragraph();
                self.quote_depth = self.quote_depth.saturating_sub(1);
                self.pop_style();
                self.blank();
            }
            TagEnd::CodeBlock => {
                if let Some((kind, code)) = self.code.take() {
                    self.code_block(kind, &code);
                }
            }
            TagEnd::List(_) => {
                self.flush_paragraph();
                self.lists.pop();
                if self.lists.is_empty() {
                    self.blank();
                }
            }
            TagEnd::Item => {
                self.flush_paragraph();
                if let Some(Some(n)) = self.lists.last_mut() {
                    *n += 1;
                }
            }
            TagEnd::Emphasis | TagEnd::Strong | TagEnd::Strikethrough | TagEnd::Link => {
                self.pop_style()
            }
            TagEnd::TableCell => {
                if let Some(t) = self.table.as_mut() {
                    let cell = std::mem::take(&mut t.cell);
                    t.row.push(cell);
                }
            }
            TagEnd::TableHead | TagEnd::TableRow => {
                if let Some(t) = self.table.as_mut() {
                    let row = std::mem::take(&mut t.row);
                    t.rows.push(row);
                }
            }
            TagEnd::Table => {
                if let Some(t) = self.table.take() {
                    self.table_lines(t);
                    self.blank();
                }
            }
            _ => {}
        }
    }

    fn code_block(&mut self, kind: FenceKind, code: &str) {
        let code = code.trim_end_matches('\n');
        match kind {
            FenceKind::Check | FenceKind::Hint | FenceKind::Solution | FenceKind::Wrong => {}
            FenceKind::Quiz => self.quiz(code),
            FenceKind::Exercise { id, .. } => {
                let line = self.doc.lines.len();
                self.doc.slots.push(Slot {
                    kind: SlotKind::Exercise(id),
                    line,
                });
                self.doc.lines.push(Line::default());
            }
            FenceKind::Plain(lang) => {
                let python = lang.is_empty() || lang == "python" || lang == "py";
                self.framed(code, python, "", theme::CODE_FRAME, theme::CODE_FRAME);
                self.blank();
            }
        }
    }

    /// A code block in a light frame; long lines are cut with an ellipsis rather than wrapped,
    /// because wrapped code misleads about indentation.
    fn framed(&mut self, code: &str, python: bool, title: &str, frame: Style, title_style: Style) {
        let frame = self.theme.style(frame);
        let inner = self.width.saturating_sub(4).max(1);
        let top_fill = self.width.saturating_sub(1 + title.width()).min(self.width);
        let mut top = vec![Span::styled("┌", frame)];
        if !title.is_empty() {
            top.push(Span::styled(
                truncate(title, self.width.saturating_sub(2)),
                self.theme.style(title_style),
            ));
        }
        top.push(Span::styled("─".repeat(top_fill), frame));
        self.doc.lines.push(Line::from(top));
        for line in code.split('\n') {
            let shown = truncate(&line.replace('\t', "    "), inner);
            let mut spans = vec![Span::styled("│ ", frame)];
            if python {
                spans.extend(highlight_line(&shown, self.theme));
            } else {
                spans.push(Span::styled(shown, self.theme.style(theme::PY_PLAIN)));
            }
            self.doc.lines.push(Line::from(spans));
        }
        self.doc.lines.push(Line::styled(
            format!("└{}", "─".repeat(self.width.saturating_sub(1))),
            frame,
        ));
    }

    fn quiz(&mut self, code: &str) {
        #[derive(serde::Deserialize)]
        struct QuizView {
            #[allow(dead_code)]
            question: String,
        }
        if toml::from_str::<QuizView>(code).is_err() {
            return;
        }
        self.quiz_number += 1;
        let line = self.doc.lines.len();
        self.doc.slots.push(Slot {
            kind: SlotKind::Quiz(self.quiz_number),
            line,
        });
        self.doc.lines.push(Line::default());
    }

    /// A table with box-drawing borders; columns shrink to fit and cells wrap.
    fn table_lines(&mut self, table: Table) {
        let columns = table.rows.iter().map(Vec::len).max().unwrap_or(0);
        if columns == 0 {
            return;
        }
        let cell_width = |c: &Vec<Piece>| c.iter().map(|(t, _)| t.width()).sum::<usize>();
        let mut widths = vec![1usize; columns];
        for row in &table.rows {
            for (i, cell) in row.iter().enumerate() {
                widths[i] = widths[i].max(cell_width(cell));
            }
        }
        // Borders take 3 cells per column plus one.
        let budget = self.width.saturating_sub(3 * columns + 1).max(columns);
        while widths.iter().sum::<usize>() > budget {
            let (widest, _) = widths
                .iter()
                .enumerate()
                .max_by_key(|(_, w)| **w)
                .unwrap_or((0, &0));
            if widths[widest] <= 1 {
                break;
            }
            widths[widest] -= 1;
        }
        let border = self.theme.style(theme::TABLE_BORDER);
        let rule = |l: &str, m: &str, r: &str| {
            let parts: Vec<String> = widths.iter().map(|w| "─".repeat(w + 2)).collect();
            Line::styled(format!("{l}{}{r}", parts.join(m)), border)
        };
        let quote = self.quote_prefix();
        let with_quote = |line: Line<'static>| {
            let mut spans = quote.clone();
            spans.extend(line.spans);
            Line::from(spans)
        };
        self.doc.lines.push(with_quote(rule("┌", "┬", "┐")));
        for (r, row) in table.rows.iter().enumerate() {
            let wrapped: Vec<Vec<Line<'static>>> = (0..columns)
                .map(|i| {
                    let mut cell = row.get(i).cloned().unwrap_or_default();
                    if r == 0 {
                        for piece in &mut cell {
                            piece.1 = piece.1.patch(self.theme.style(theme::TABLE_HEADER));
                        }
                    }
                    wrap(&cell, widths[i], &[], &[])
                })
                .collect();
            let height = wrapped.iter().map(Vec::len).max().unwrap_or(1);
            for k in 0..height {
                let mut spans = vec![Span::styled("│", border)];
                for (i, cell) in wrapped.iter().enumerate() {
                    let line = cell.get(k).cloned().unwrap_or_default();
                    let pad = widths[i].saturating_sub(line.width());
                    spans.push(Span::raw(" "));
                    spans.extend(line.spans);
                    spans.push(Span::raw(" ".repeat(pad + 1)));
                    spans.push(Span::styled("│", border));
                }
                self.doc.lines.push(with_quote(Line::from(spans)));
            }
            if r == 0 && table.rows.len() > 1 {
                self.doc.lines.push(with_quote(rule("├", "┼", "┤")));
            }
        }
        self.doc.lines.push(with_quote(rule("└", "┴", "┘")));
    }
}

fn heading_number(level: HeadingLevel) -> u8 {
    match level {
        HeadingLevel::H1 => 1,
        HeadingLevel::H2 => 2,
        HeadingLevel::H3 => 3,
        HeadingLevel::H4 => 4,
        HeadingLevel::H5 => 5,
        HeadingLevel::H6 => 6,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(doc: &Document) -> Vec<String> {
        doc.lines
            .iter()
            .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
            .collect()
    }

    const STRINGS: &Strings = &super::super::strings::EN;

    #[test]
    fn renders_headings_lists_tables_quotes_and_code() {
        let body = "# Title\n\nSome *text* here.\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n> **Tip** — hi\n\n```python\nx = 1\n```\n";
        let doc = render(body, 40, Theme { color: false }, STRINGS);
        let text = plain(&doc);
        assert_eq!(text[0], "Title");
        assert!(text.contains(&"Some text here.".to_string()), "{text:#?}");
        assert!(text.contains(&"• one".to_string()));
        assert!(text.contains(&"│ a │ b │".to_string()), "{text:#?}");
        assert!(text.contains(&"│ Tip — hi".to_string()), "{text:#?}");
        assert!(text.contains(&"│ x = 1".to_string()), "{text:#?}");
        assert_eq!(
            doc.sections,
            vec![Section {
                level: 1,
                title: "Title".into(),
                line: 0
            }]
        );
    }

    #[test]
    fn hides_checks_and_solutions_and_shows_exercise_cards() {
        let body = "```python exercise id=e1\nprint(1)\n```\n\n```python check\nassert False\n```\n\n```python solution\nprint(2)\n```\n";
        let doc = render(body, 50, Theme { color: false }, STRINGS);
        let text = plain(&doc).join("\n");
        assert!(!text.contains("assert False"));
        assert!(!text.contains("print(2)"));
        assert_eq!(
            doc.slots,
            vec![Slot {
                kind: SlotKind::Exercise("e1".to_string()),
                line: 0
            }]
        );
    }

    #[test]
    fn no_line_is_wider_than_the_width() {
        let body = "A long paragraph with many words that must wrap nicely.\n\n| column one | column two is wider |\n|---|---|\n| x | a cell with a lot of text in it |\n\n```\nsome_really_long_code_line_that_goes_past_the_edge()\n```\n";
        for width in [12u16, 20, 40] {
            let doc = render(body, width, Theme { color: true }, STRINGS);
            for line in &doc.lines {
                assert!(line.width() <= usize::from(width), "{width}: {line:?}");
            }
        }
    }
}
