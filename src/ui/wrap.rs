//! Word wrapping of styled text to a display width, CJK-aware: Latin text breaks at spaces,
//! Chinese text may break between any two characters. Widths are terminal cells.

use ratatui::style::Style;
use ratatui::text::{Line, Span};
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// A piece of text with one style, as collected from Markdown inline events.
pub type Piece = (String, Style);

fn is_cjk(c: char) -> bool {
    c.width() == Some(2)
}

/// Punctuation that must not begin a line (kinsoku shori): a token made only of Chinese full
/// stops, commas, colons, closing brackets and the like (`.item()` begins with a dot but is a
/// word, and may).
pub fn no_line_start(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|c| "。，、；：！？）》」』】〕〉…".contains(c))
}

/// Inline code's spaces as the Markdown renderer hands them over: a code span wraps as one
/// unit, like a word, and shows plain spaces again once placed.
pub const CODE_SPACE: char = '\u{a0}';

/// An unbreakable token: one or more styled parts (`(` + `` `x` `` + `).` stay together),
/// or a single space.
struct Token {
    parts: Vec<Piece>,
    space: bool,
}

impl Token {
    fn text(&self) -> String {
        self.parts.iter().map(|(t, _)| t.as_str()).collect()
    }
    fn width(&self) -> usize {
        self.parts.iter().map(|(t, _)| t.width()).sum()
    }
}

/// Splits pieces into unbreakable tokens: words (across pieces when no space separates
/// them), single spaces, single wide characters.
fn tokens(pieces: &[Piece]) -> Vec<Token> {
    let mut out: Vec<Token> = Vec::new();
    let mut parts: Vec<Piece> = Vec::new();
    let end_word = |parts: &mut Vec<Piece>, out: &mut Vec<Token>| {
        if !parts.is_empty() {
            out.push(Token {
                parts: std::mem::take(parts),
                space: false,
            });
        }
    };
    for (text, style) in pieces {
        let mut word = String::new();
        for c in text.chars() {
            let c = if c == '\n' || c == '\t' { ' ' } else { c };
            if c == ' ' || is_cjk(c) {
                if !word.is_empty() {
                    parts.push((std::mem::take(&mut word), *style));
                }
                end_word(&mut parts, &mut out);
                out.push(Token {
                    parts: vec![(c.to_string(), *style)],
                    space: c == ' ',
                });
            } else {
                word.push(c);
            }
        }
        if !word.is_empty() {
            parts.push((word, *style));
        }
    }
    end_word(&mut parts, &mut out);
    out
}

/// A placed part: inline code's spaces shown as spaces.
fn span(text: String, style: Style) -> Span<'static> {
    if text.contains(CODE_SPACE) {
        Span::styled(text.replace(CODE_SPACE, " "), style)
    } else {
        Span::styled(text, style)
    }
}

/// Wraps `pieces` into lines of at most `width` cells, each starting with a prefix
/// (`first_prefix` on the first line, `rest_prefix` after), e.g. a bullet and its indent.
/// Lines break at spaces and between Chinese characters, never inside a word or an inline
/// code span, nor between a word and the punctuation or code touching it, unless that one
/// unit is wider than the line.
pub fn wrap(
    pieces: &[Piece],
    width: usize,
    first_prefix: &[Span<'static>],
    rest_prefix: &[Span<'static>],
) -> Vec<Line<'static>> {
    let prefix_width = |p: &[Span<'static>]| p.iter().map(|s| s.content.width()).sum::<usize>();
    let mut lines = Vec::new();
    let mut current: Vec<Span<'static>> = first_prefix.to_vec();
    let mut used = prefix_width(first_prefix);
    let mut avail = width.saturating_sub(used).max(1);
    let mut line_empty = true;
    let mut pending_space: Option<Style> = None;
    // Words (not spaces) on the current line, so kinsoku never empties a line.
    let mut words_on_line = 0usize;
    for token in tokens(pieces) {
        if token.space {
            if !line_empty {
                pending_space = Some(token.parts[0].1);
            }
            continue;
        }
        let text = token.text();
        let w = token.width();
        let space_w = usize::from(pending_space.is_some());
        if !line_empty && used + space_w + w > width.max(prefix_width(rest_prefix) + 1) {
            // Kinsoku: a 。 or ， may not start the next line, so the character before it goes
            // down with it (and the one before that while those are punctuation too: `）；`),
            // never past the width and never emptying this line.
            let mut carry: Vec<Span<'static>> = Vec::new();
            if space_w == 0 && no_line_start(&text) {
                let room = width.saturating_sub(prefix_width(rest_prefix));
                let mut taken = w;
                let mut n = 0;
                while let Some(last) = current.len().checked_sub(n + 1).map(|i| &current[i]) {
                    if last.content == " " || n + 1 >= words_on_line {
                        n = 0;
                        break;
                    }
                    taken += last.content.width();
                    if taken > room {
                        n = 0;
                        break;
                    }
                    n += 1;
                    if !no_line_start(&last.content) {
                        break;
                    }
                }
                carry = current.split_off(current.len() - n);
            }
            lines.push(Line::from(std::mem::take(&mut current)));
            current = rest_prefix.to_vec();
            used = prefix_width(rest_prefix);
            avail = width.saturating_sub(used).max(1);
            line_empty = true;
            words_on_line = 0;
            pending_space = None;
            if !carry.is_empty() {
                words_on_line = carry.len();
                used += carry.iter().map(|s| s.content.width()).sum::<usize>();
                current.extend(carry);
                line_empty = false;
            }
        }
        if let Some(space_style) = pending_space.take() {
            current.push(Span::styled(" ", space_style));
            used += 1;
        }
        words_on_line += 1;
        if w <= avail || !line_empty {
            for (part, style) in token.parts {
                current.push(span(part, style));
            }
            used += w;
        } else {
            // A unit wider than the whole line: cut it into line-sized chunks.
            let mut chunk_w = 0;
            for (part, style) in token.parts {
                let mut chunk = String::new();
                for c in part.chars() {
                    let cw = c.width().unwrap_or(0);
                    if chunk_w + cw > avail && chunk_w > 0 {
                        if !chunk.is_empty() {
                            current.push(span(std::mem::take(&mut chunk), style));
                        }
                        lines.push(Line::from(std::mem::take(&mut current)));
                        current = rest_prefix.to_vec();
                        used = prefix_width(rest_prefix);
                        avail = width.saturating_sub(used).max(1);
                        chunk_w = 0;
                    }
                    chunk.push(c);
                    chunk_w += cw;
                }
                if !chunk.is_empty() {
                    current.push(span(chunk, style));
                }
            }
            used += chunk_w;
        }
        line_empty = false;
    }
    if !line_empty || lines.is_empty() {
        lines.push(Line::from(current));
    }
    lines
}

/// Cuts a string to at most `width` cells, with an ellipsis when anything was dropped.
pub fn truncate(text: &str, width: usize) -> String {
    if text.width() <= width {
        return text.to_string();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let cw = c.width().unwrap_or(0);
        if used + cw + 1 > width {
            break;
        }
        out.push(c);
        used += cw;
    }
    if width > 0 {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(lines: &[Line]) -> Vec<String> {
        lines
            .iter()
            .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
            .collect()
    }

    #[test]
    fn wraps_at_spaces_within_width() {
        let pieces = vec![("the quick brown fox jumps over".to_string(), Style::new())];
        let lines = wrap(&pieces, 10, &[], &[]);
        assert_eq!(texts(&lines), ["the quick", "brown fox", "jumps over"]);
    }

    #[test]
    fn chinese_breaks_between_characters_and_respects_width() {
        let pieces = vec![("设备端断言是异步报告的".to_string(), Style::new())];
        let lines = wrap(&pieces, 8, &[], &[]);
        for l in texts(&lines) {
            assert!(l.width() <= 8, "{l}");
        }
        assert_eq!(texts(&lines).concat(), "设备端断言是异步报告的");
    }

    #[test]
    fn long_words_are_cut_and_prefixes_applied() {
        let pieces = vec![("abcdefghijkl x".to_string(), Style::new())];
        let lines = wrap(&pieces, 6, &[Span::raw("- ")], &[Span::raw("  ")]);
        assert_eq!(texts(&lines), ["- abcd", "  efgh", "  ijkl", "  x"]);
    }

    #[test]
    fn no_line_starts_with_a_chinese_full_stop_or_comma() {
        let text = "设备端断言是异步报告的，所以错误出现的行（不是出错的行）；再运行一次看看。";
        for width in 4..30 {
            let lines = wrap(&[(text.to_string(), Style::new())], width, &[], &[]);
            let texts = texts(&lines);
            assert_eq!(texts.concat(), text, "{width}");
            for (i, line) in texts.iter().enumerate() {
                assert!(line.width() <= width, "{width}: {line}");
                if i > 0 {
                    assert!(!no_line_start(line), "{width}: line {i} starts with {line}");
                }
            }
        }
    }

    #[test]
    fn inline_code_and_the_punctuation_touching_it_wrap_as_one_unit() {
        let code = Style::new().fg(ratatui::style::Color::LightYellow);
        let pieces = vec![
            ("Call it as (".to_string(), Style::new()),
            (
                format!("x.to(\"cuda\",{CODE_SPACE}non_blocking=True)"),
                code,
            ),
            (") and then".to_string(), Style::new()),
        ];
        for width in 12..60 {
            let lines = texts(&wrap(&pieces, width, &[], &[]));
            assert_eq!(
                lines.join(" "),
                "Call it as (x.to(\"cuda\", non_blocking=True)) and then",
                "{width}"
            );
            let whole = "(x.to(\"cuda\", non_blocking=True))";
            if width >= whole.len() {
                assert!(
                    lines.iter().any(|l| l.contains(whole)),
                    "{width}: {lines:?}"
                );
            }
            for l in &lines {
                assert!(l.width() <= width, "{width}: {l}");
            }
        }
        // longer than the line: cut, every cell kept
        let lines = texts(&wrap(&pieces, 8, &[], &[]));
        assert!(lines.iter().all(|l| l.width() <= 8), "{lines:?}");
        assert_eq!(
            lines.concat().replace(' ', ""),
            "Callitas(x.to(\"cuda\",non_blocking=True))andthen"
        );
    }

    #[test]
    fn truncate_marks_the_cut() {
        assert_eq!(truncate("abcdef", 4), "abc…");
        assert_eq!(truncate("abc", 4), "abc");
    }
}
