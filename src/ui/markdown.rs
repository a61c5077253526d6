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
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

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
    /// Where the card's goal starts: the heading above it (or the card's own line when another
    /// card sits between). Focusing the card keeps this line on screen when it fits.
    pub goal: usize,
}

/// A lesson body laid out for one width.
#[derive(Debug, Clone, Default)]
pub struct Document {
    pub lines: Vec<Line<'static>>,
    pub sections: Vec<Section>,
    /// Exercise and quiz cards, in page order.
    pub slots: Vec<Slot>,
    /// Per line: the byte offset in the Markdown body of the block it belongs to, so a place
    /// in the lesson can be saved independently of the width it was laid out at.
    pub origins: Vec<usize>,
    /// Per line: for a code line, the width of its frame prefix (`│ `). Code lines are kept
    /// whole (never wrapped or cut) and scroll sideways; every other line fits the width.
    pub code: Vec<Option<u16>>,
    /// The widest code line's text, without its prefix.
    pub code_width: usize,
}

impl Document {
    /// The first line of the block that starts at `origin` (or the first block after it),
    /// `nth` lines into that block.
    pub(crate) fn line_of(&self, origin: usize, nth: usize) -> usize {
        let Some(first) = self.origins.iter().position(|&o| o >= origin) else {
            return self.lines.len().saturating_sub(1);
        };
        let same = self.origins[first];
        let block_len = self.origins[first..]
            .iter()
            .take_while(|&&o| o == same)
            .count();
        first + nth.min(block_len.saturating_sub(1))
    }

    /// (origin, lines into that block) of line `line`: a width-independent place.
    pub(crate) fn place_of(&self, line: usize) -> (usize, usize) {
        let Some(&origin) = self.origins.get(line) else {
            return (self.origins.last().copied().unwrap_or(0), 0);
        };
        let first = self.origins[..line]
            .iter()
            .rposition(|&o| o != origin)
            .map_or(0, |p| p + 1);
        (origin, line - first)
    }
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
    /// Byte offset of the block being laid out, recorded for each line it produces.
    origin: usize,
}

#[derive(Default)]
struct Table {
    rows: Vec<Vec<Vec<Piece>>>,
    cell: Vec<Piece>,
    row: Vec<Vec<Piece>>,
}

/// Lays out `body` at `width` columns.
pub(super) fn render(body: &str, width: u16, theme: Theme, strings: &Strings) -> Document {
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
        origin: 0,
    };
    let parser = Parser::new_ext(body, Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH);
    for (event, range) in parser.into_offset_iter() {
        if let Event::Start(tag) = &event
            && is_block(tag)
        {
            b.origin = range.start;
        }
        b.event(event);
        b.note_lines();
    }
    b.flush_paragraph();
    b.note_lines();
    // Trailing blank lines go, but not the blank a card at the end is drawn before.
    let keep = b.doc.slots.last().map_or(0, |s| s.line + 1);
    while b.doc.lines.len() > keep && b.doc.lines.last().is_some_and(|l| l.width() == 0) {
        b.doc.lines.pop();
    }
    let n = b.doc.lines.len();
    b.doc.origins.truncate(n);
    b.doc.code.truncate(n);
    // Each card's goal: the heading above it, when no other card sits between.
    let mut previous = 0;
    for slot in &mut b.doc.slots {
        slot.goal = b
            .doc
            .sections
            .iter()
            .rev()
            .find(|s| s.line <= slot.line && s.line >= previous)
            .map_or(slot.line, |s| s.line);
        previous = slot.line + 1;
    }
    b.doc
}

fn is_block(tag: &Tag) -> bool {
    matches!(
        tag,
        Tag::Paragraph
            | Tag::Heading { .. }
            | Tag::BlockQuote(_)
            | Tag::CodeBlock(_)
            | Tag::List(_)
            | Tag::Item
            | Tag::Table(_)
    )
}

impl Builder<'_> {
    /// Records the origin (and code-ness) of every line pushed since the last call.
    fn note_lines(&mut self) {
        let n = self.doc.lines.len();
        while self.doc.origins.len() < n {
            self.doc.origins.push(self.origin);
            self.doc.code.push(None);
        }
    }

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
                // one unit for wrapping (wrap.rs shows the spaces again)
                self.text(&t.replace(' ', &super::wrap::CODE_SPACE.to_string()));
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
                let title: String = self
                    .inline
                    .iter()
                    .map(|(t, _)| t.replace(super::wrap::CODE_SPACE, " "))
                    .collect();
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
            FenceKind::Quiz => self.quiz(code),
            FenceKind::Exercise { id, .. } => {
                let line = self.doc.lines.len();
                self.doc.slots.push(Slot {
                    kind: SlotKind::Exercise(id),
                    line,
                    goal: line,
                });
                self.doc.lines.push(Line::default());
            }
            FenceKind::Plain(lang) => {
                let python = lang.is_empty() || lang == "python" || lang == "py";
                self.framed(code, python, "", theme::CODE_FRAME, theme::CODE_FRAME);
                self.blank();
            }
            // Checks, hints, solutions and wrong fixes are for the runner, the cards and lint,
            // not part of the page.
            FenceKind::Check
            | FenceKind::Hint
            | FenceKind::Solution
            | FenceKind::Wrong
            | FenceKind::Right => {}
        }
    }

    /// A code block in a light frame. Lines are kept whole, never wrapped (wrapped code
    /// misleads about indentation) nor cut: the pager scrolls them sideways.
    fn framed(&mut self, code: &str, python: bool, title: &str, frame: Style, title_style: Style) {
        let frame = self.theme.style(frame);
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
        self.note_lines();
        for line in code.split('\n') {
            let shown: String = line
                .replace('\t', "    ")
                .chars()
                .filter(|c| !c.is_control())
                .collect();
            self.doc.code_width = self.doc.code_width.max(shown.width());
            let mut spans = vec![Span::styled("│ ", frame)];
            if python {
                spans.extend(highlight_line(&shown, self.theme));
            } else {
                spans.push(Span::styled(shown, self.theme.style(theme::PY_PLAIN)));
            }
            self.doc.lines.push(Line::from(spans));
            self.doc.origins.push(self.origin);
            self.doc.code.push(Some(2));
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
            goal: line,
        });
        self.doc.lines.push(Line::default());
    }

    /// A table with box-drawing borders; columns shrink to fit and cells wrap at spaces, but
    /// never inside a word (an identifier cut in two reads as two names). When the longest
    /// words alone do not fit, each row is listed as `header: cell` lines instead.
    fn table_lines(&mut self, table: Table) {
        let columns = table.rows.iter().map(Vec::len).max().unwrap_or(0);
        if columns == 0 {
            return;
        }
        let cell_width = |c: &Vec<Piece>| c.iter().map(|(t, _)| t.width()).sum::<usize>();
        let longest_word = |c: &Vec<Piece>| {
            let text: String = c.iter().map(|(t, _)| t.as_str()).collect();
            text.split(|ch: char| ch.is_whitespace() || ch.width() == Some(2))
                .map(UnicodeWidthStr::width)
                .max()
                .unwrap_or(0)
                .max(if text.chars().any(|ch| ch.width() == Some(2)) {
                    2
                } else {
                    1
                })
        };
        let mut widths = vec![1usize; columns];
        let mut minimum = vec![1usize; columns];
        for row in &table.rows {
            for (i, cell) in row.iter().enumerate() {
                widths[i] = widths[i].max(cell_width(cell));
                minimum[i] = minimum[i].max(longest_word(cell));
            }
        }
        // Borders take 3 cells per column plus one, and a quote bar 2 per level.
        let budget = self
            .width
            .saturating_sub(3 * columns + 1 + 2 * self.quote_depth);
        if minimum.iter().sum::<usize>() > budget {
            self.table_as_records(table);
            return;
        }
        while widths.iter().sum::<usize>() > budget {
            // Shrink the column with the most room above its longest word.
            let Some(widest) = (0..columns)
                .filter(|&i| widths[i] > minimum[i])
                .max_by_key(|&i| widths[i])
            else {
                break;
            };
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

impl Builder<'_> {
    /// A table too wide for the screen, as a list: per row, one `header: cell` line per column.
    fn table_as_records(&mut self, table: Table) {
        let mut rows = table.rows.into_iter();
        let header: Vec<String> = rows
            .next()
            .unwrap_or_default()
            .iter()
            .map(|cell| cell.iter().map(|(t, _)| t.as_str()).collect())
            .collect();
        let quote = self.quote_prefix();
        for row in rows {
            for (i, cell) in row.into_iter().enumerate() {
                let mut pieces = Vec::new();
                if let Some(name) = header.get(i).filter(|n| !n.is_empty()) {
                    pieces.push((format!("{name}: "), self.theme.style(theme::TABLE_HEADER)));
                }
                pieces.extend(cell);
                let mut first = quote.clone();
                first.push(Span::styled(
                    if i == 0 { "• " } else { "  " },
                    self.theme.style(theme::BULLET),
                ));
                let mut rest = quote.clone();
                rest.push(Span::raw("    "));
                let lines = wrap(&pieces, self.width, &first, &rest);
                self.doc.lines.extend(lines);
            }
        }
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
        super::super::wrap::line_texts(&doc.lines)
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
                line: 0,
                goal: 0,
            }]
        );
    }

    #[test]
    fn no_line_is_wider_than_the_width_except_code_which_is_kept_whole() {
        let body = "A long paragraph with many words that must wrap nicely.\n\n| column one | column two is wider |\n|---|---|\n| x | a cell with a lot of text in it |\n\n```\nsome_really_long_code_line_that_goes_past_the_edge()\n```\n";
        for width in [12u16, 20, 40] {
            let doc = render(body, width, Theme { color: true }, STRINGS);
            assert_eq!(doc.code.len(), doc.lines.len());
            assert_eq!(doc.origins.len(), doc.lines.len());
            for (line, code) in doc.lines.iter().zip(&doc.code) {
                let text: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
                if code.is_some() {
                    assert_eq!(
                        text,
                        "│ some_really_long_code_line_that_goes_past_the_edge()"
                    );
                } else {
                    assert!(line.width() <= usize::from(width), "{width}: {line:?}");
                }
            }
        }
    }

    #[test]
    fn table_cells_never_break_inside_an_identifier() {
        let body = "| call | what it returns |\n|---|---|\n| torch.cuda.memory_allocated() | bytes in live tensors on the device, rounded |\n";
        for width in [34u16, 50, 70, 100] {
            let doc = render(body, width, Theme { color: false }, STRINGS);
            let text = plain(&doc).join("\n");
            assert!(
                text.contains("torch.cuda.memory_allocated()"),
                "{width}:\n{text}"
            );
            for line in &doc.lines {
                assert!(line.width() <= usize::from(width), "{width}: {line:?}");
            }
        }
        // Too narrow for a table: a list of `header: cell`.
        let doc = render(body, 34, Theme { color: false }, STRINGS);
        assert!(
            plain(&doc).iter().any(|l| l.starts_with("• call:")),
            "{:#?}",
            plain(&doc)
        );
    }

    #[test]
    fn places_survive_a_change_of_width() {
        let body = "# T\n\nFirst paragraph with enough words to wrap a few times at a narrow width.\n\n## Second\n\nThe paragraph after the second heading, also long enough to wrap.\n";
        let wide = render(body, 80, Theme { color: false }, STRINGS);
        let narrow = render(body, 20, Theme { color: false }, STRINGS);
        let line = plain(&wide)
            .iter()
            .position(|l| l.starts_with("The paragraph"))
            .unwrap();
        let (origin, nth) = wide.place_of(line);
        assert_eq!(nth, 0);
        let there = narrow.line_of(origin, nth);
        assert!(
            plain(&narrow)[there].starts_with("The paragraph"),
            "{there}"
        );
        // Exact at the same width, lines into a block included.
        let (origin, nth) = narrow.place_of(there + 2);
        assert_eq!(narrow.line_of(origin, nth), there + 2);
    }

    #[test]
    fn a_cards_goal_is_the_heading_above_it() {
        let body = "## Exercise: one\n\nGoal: do it.\n\n```python exercise id=e1\nx = 1\n```\n\n```quiz\nquestion = \"q\"\nchoices = [\"a\"]\nanswer = 1\n```\n";
        let doc = render(body, 40, Theme { color: false }, STRINGS);
        assert_eq!(doc.slots[0].goal, 0);
        assert_eq!(
            doc.slots[1].goal, doc.slots[1].line,
            "a card between: no goal"
        );
    }
}
