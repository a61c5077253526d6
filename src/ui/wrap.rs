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

/// Splits pieces into unbreakable tokens: words, single spaces, single wide characters.
fn tokens(pieces: &[Piece]) -> Vec<(String, Style, bool)> {
    let mut out: Vec<(String, Style, bool)> = Vec::new();
    for (text, style) in pieces {
        let mut word = String::new();
        for c in text.chars() {
            let c = if c == '\n' || c == '\t' { ' ' } else { c };
            if c == ' ' || is_cjk(c) {
                if !word.is_empty() {
                    out.push((std::mem::take(&mut word), *style, false));
                }
                out.push((c.to_string(), *style, c == ' '));
            } else {
                word.push(c);
            }
        }
        if !word.is_empty() {
            out.push((word, *style, false));
        }
    }
    out
}

/// Wraps `pieces` into lines of at most `width` cells, each starting with a prefix
/// (`first_prefix` on the first line, `rest_prefix` after), e.g. a bullet and its indent.
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
    for (text, style, is_space) in tokens(pieces) {
        if is_space {
            if !line_empty {
                pending_space = Some(style);
            }
            continue;
        }
        let w = text.width();
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
            current.push(Span::styled(text, style));
            used += w;
        } else {
            // A word wider than the whole line: cut it into line-sized chunks.
            let mut chunk = String::new();
            let mut chunk_w = 0;
            for c in text.chars() {
                let cw = c.width().unwrap_or(0);
                if chunk_w + cw > avail && !chunk.is_empty() {
                    current.push(Span::styled(std::mem::take(&mut chunk), style));
                    lines.push(Line::from(std::mem::take(&mut current)));
                    current = rest_prefix.to_vec();
                    used = prefix_width(rest_prefix);
                    avail = width.saturating_sub(used).max(1);
                    chunk_w = 0;
                }
                chunk.push(c);
                chunk_w += cw;
            }
            used += chunk_w;
            current.push(Span::styled(chunk, style));
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
    fn truncate_marks_the_cut() {
        assert_eq!(truncate("abcdef", 4), "abc…");
        assert_eq!(truncate("abc", 4), "abc");
    }
}
