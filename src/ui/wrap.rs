//! Word wrapping of styled text to a display width, CJK-aware: Latin text breaks at spaces,
//! Chinese text may break between any two characters, an inline code span and the punctuation
//! touching it wrap as one unit, and no line starts with closing punctuation. Widths are
//! terminal cells.

use ratatui::style::Style;
use ratatui::text::{Line, Span};
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

#[cfg(test)]
mod properties;

/// A piece of text with one style, as collected from Markdown inline events.
pub(super) type Piece = (String, Style);

/// Inline code's spaces as the Markdown renderer hands them over: a code span wraps as one
/// unit, like a word, and shows plain spaces again once placed.
pub(super) const CODE_SPACE: char = '\u{a0}';

fn is_cjk(c: char) -> bool {
    c.width() == Some(2)
}

/// Closing punctuation, which must not begin a line (kinsoku shori): Chinese full stops,
/// commas, colons, closing brackets and the like, and their ASCII counterparts.
pub(super) fn is_closing(c: char) -> bool {
    "。，、；：！？）》」』】〕〉…,.;:!?)]}".contains(c)
}

/// A space inside a unit: inline code's, or one glued before closing punctuation (`x )`).
fn is_inner_space(c: char) -> bool {
    c == CODE_SPACE || c == ' '
}

/// An unbreakable unit: a word with the punctuation and inline code touching it
/// (`(` + `x.to("cuda")` + `),` stay together), one Chinese character with the closing
/// punctuation after it (`的，`), and whether a breakable space comes before it.
struct Unit {
    chars: Vec<(char, Style)>,
    space_before: Option<Style>,
}

impl Unit {
    fn width(&self) -> usize {
        self.chars.iter().map(|(c, _)| c.width().unwrap_or(0)).sum()
    }
}

/// Splits pieces into units. A line may break only between two units: at a space (which the
/// break swallows) or between Chinese characters.
fn units(pieces: &[Piece]) -> Vec<Unit> {
    let mut out: Vec<Unit> = Vec::new();
    let mut space: Option<Style> = None;
    // Whether the next Latin character continues the last unit (no space, no CJK in between).
    let mut open = false;
    for (text, style) in pieces {
        for c in text.chars() {
            let c = if c == '\n' || c == '\t' { ' ' } else { c };
            if c == ' ' {
                space = Some(*style);
                open = false;
                continue;
            }
            match out.last_mut() {
                // Closing punctuation goes with what it closes, across a space if need be.
                Some(last) if is_closing(c) => {
                    if let Some(space_style) = space.take() {
                        last.chars.push((' ', space_style));
                    }
                    last.chars.push((c, *style));
                    open = !is_cjk(c);
                }
                Some(last) if open && space.is_none() && !is_cjk(c) => {
                    last.chars.push((c, *style));
                }
                _ => {
                    out.push(Unit {
                        chars: vec![(c, *style)],
                        space_before: space.take(),
                    });
                    open = !is_cjk(c);
                }
            }
        }
    }
    out
}

/// Appends characters to a line as spans, one per run of one style, inline code's spaces
/// shown as spaces.
fn push_chars(line: &mut Vec<Span<'static>>, chars: &[(char, Style)]) {
    let mut run = String::new();
    let mut run_style = None;
    for &(c, style) in chars {
        if run_style.is_some_and(|s| s != style) {
            line.push(Span::styled(
                std::mem::take(&mut run),
                run_style.unwrap_or_default(),
            ));
        }
        run_style = Some(style);
        run.push(if c == CODE_SPACE { ' ' } else { c });
    }
    if let Some(style) = run_style {
        line.push(Span::styled(run, style));
    }
}

/// Where to cut a unit wider than the line: returns (end of this line's part, start of the next
/// line's part). `fit` is the most characters from `start` that fit. The next part must not start
/// with closing punctuation, so the cut moves back, carrying the characters before the
/// punctuation down with it; a space the cut lands on is swallowed, as between words. The cut
/// prefers a space in the later half of the part (code spans break between their words).
fn cut_point(chars: &[(char, Style)], start: usize, fit: usize) -> (usize, usize) {
    let end = start + fit;
    let next_start = |q: usize| {
        if is_inner_space(chars[q].0) { q + 1 } else { q }
    };
    let allowed = |q: usize| {
        let s = next_start(q);
        s < chars.len() && !is_closing(chars[s].0) && !is_inner_space(chars[s].0)
    };
    let half = start + fit.div_ceil(2);
    if let Some(q) = (half.max(start + 1)..=end)
        .rev()
        .find(|&q| is_inner_space(chars[q].0) && allowed(q))
    {
        return (q, q + 1);
    }
    match (start + 1..=end).rev().find(|&q| allowed(q)) {
        Some(q) => (q, next_start(q)),
        // Nothing but closing punctuation within reach: it cannot be helped.
        None => (end, end),
    }
}

/// Wraps `pieces` into lines of at most `width` cells, each starting with a prefix
/// (`first_prefix` on the first line, `rest_prefix` after), e.g. a bullet and its indent.
/// Lines break at spaces and between Chinese characters, never inside a word or an inline
/// code span, nor between a word and the punctuation or code touching it, unless that one
/// unit is wider than the line; no line starts with closing punctuation unless a unit holds
/// more of it in a row than a line can.
pub(super) fn wrap(
    pieces: &[Piece],
    width: usize,
    first_prefix: &[Span<'static>],
    rest_prefix: &[Span<'static>],
) -> Vec<Line<'static>> {
    let prefix_width = |p: &[Span<'static>]| p.iter().map(|s| s.content.width()).sum::<usize>();
    let limit = width.max(prefix_width(rest_prefix) + 1);
    let mut lines = Vec::new();
    let mut current: Vec<Span<'static>> = first_prefix.to_vec();
    let mut used = prefix_width(first_prefix);
    let mut line_empty = true;
    let mut new_line = |current: &mut Vec<Span<'static>>, used: &mut usize| {
        lines.push(Line::from(std::mem::replace(current, rest_prefix.to_vec())));
        *used = prefix_width(rest_prefix);
    };
    for unit in units(pieces) {
        let w = unit.width();
        if !line_empty {
            let space_w = usize::from(unit.space_before.is_some());
            if used + space_w + w > limit {
                new_line(&mut current, &mut used);
            } else if let Some(style) = unit.space_before {
                current.push(Span::styled(" ", style));
                used += 1;
            }
        }
        let avail = limit.saturating_sub(used).max(1);
        if w <= avail {
            push_chars(&mut current, &unit.chars);
            used += w;
        } else {
            // A unit wider than the whole line: cut it into line-sized parts.
            let chars = &unit.chars;
            let mut start = 0;
            loop {
                let avail = limit.saturating_sub(used).max(1);
                let mut fit = 0;
                let mut fit_w = 0;
                while start + fit < chars.len() {
                    let cw = chars[start + fit].0.width().unwrap_or(0);
                    if fit > 0 && fit_w + cw > avail {
                        break;
                    }
                    fit += 1;
                    fit_w += cw;
                }
                if start + fit == chars.len() {
                    push_chars(&mut current, &chars[start..]);
                    used += fit_w;
                    break;
                }
                let (end, next) = cut_point(chars, start, fit);
                push_chars(&mut current, &chars[start..end]);
                new_line(&mut current, &mut used);
                start = next;
            }
        }
        line_empty = false;
    }
    if !line_empty || lines.is_empty() {
        lines.push(Line::from(current));
    }
    #[cfg(test)]
    properties::record(pieces, width, first_prefix, rest_prefix, &lines);
    lines
}

/// Cuts a string to at most `width` cells, with an ellipsis when anything was dropped.
pub(super) fn truncate(text: &str, width: usize) -> String {
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

/// The text of each line, styles dropped: what the panes' unit tests compare.
#[cfg(test)]
pub(crate) fn line_texts(lines: &[Line]) -> Vec<String> {
    lines
        .iter()
        .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_at_spaces_within_width() {
        let pieces = vec![("the quick brown fox jumps over".to_string(), Style::new())];
        let lines = wrap(&pieces, 10, &[], &[]);
        assert_eq!(line_texts(&lines), ["the quick", "brown fox", "jumps over"]);
    }

    #[test]
    fn chinese_breaks_between_characters_and_respects_width() {
        let pieces = vec![("设备端断言是异步报告的".to_string(), Style::new())];
        let lines = wrap(&pieces, 8, &[], &[]);
        for l in line_texts(&lines) {
            assert!(l.width() <= 8, "{l}");
        }
        assert_eq!(line_texts(&lines).concat(), "设备端断言是异步报告的");
    }

    #[test]
    fn long_words_are_cut_and_prefixes_applied() {
        let pieces = vec![("abcdefghijkl x".to_string(), Style::new())];
        let lines = wrap(&pieces, 6, &[Span::raw("- ")], &[Span::raw("  ")]);
        assert_eq!(line_texts(&lines), ["- abcd", "  efgh", "  ijkl", "  x"]);
    }

    #[test]
    fn no_line_starts_with_a_chinese_full_stop_or_comma() {
        let text = "设备端断言是异步报告的，所以错误出现的行（不是出错的行）；再运行一次看看。";
        // from 6 cells: `行）；` (a character and two closing marks) must fit on one line
        for width in 6..30 {
            let lines = wrap(&[(text.to_string(), Style::new())], width, &[], &[]);
            let texts = line_texts(&lines);
            assert_eq!(texts.concat(), text, "{width}");
            for (i, line) in texts.iter().enumerate() {
                assert!(line.width() <= width, "{width}: {line}");
                if i > 0 {
                    assert!(
                        !line.starts_with(is_closing),
                        "{width}: line {i} starts with {line}"
                    );
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
            let lines = line_texts(&wrap(&pieces, width, &[], &[]));
            let text = "Call it as (x.to(\"cuda\", non_blocking=True)) and then";
            let whole = "(x.to(\"cuda\", non_blocking=True))";
            if width >= whole.len() {
                assert_eq!(lines.join(" "), text, "{width}");
                assert!(
                    lines.iter().any(|l| l.contains(whole)),
                    "{width}: {lines:?}"
                );
            } else {
                // cut: every character kept, in order
                assert_eq!(
                    lines.concat().replace(' ', ""),
                    text.replace(' ', ""),
                    "{width}"
                );
            }
            for l in &lines {
                assert!(l.width() <= width, "{width}: {l}");
            }
        }
        // longer than the line: cut, every cell kept
        let lines = line_texts(&wrap(&pieces, 8, &[], &[]));
        assert!(lines.iter().all(|l| l.width() <= 8), "{lines:?}");
        assert_eq!(
            lines.concat().replace(' ', ""),
            "Callitas(x.to(\"cuda\",non_blocking=True))andthen"
        );
    }

    /// A code span wider than the column, closed by Chinese punctuation: the cut carries the
    /// span's last characters down with the punctuation rather than leave `），` at a line's
    /// start (lesson 6 in Chinese, 63 columns).
    #[test]
    fn a_cut_code_span_never_leaves_its_closing_punctuation_at_a_line_start() {
        let code = Style::new().fg(ratatui::style::Color::LightYellow);
        let span = "torch.AcceleratorError: CUDA error: invalid device ordinal";
        let pieces = vec![
            ("报错是（".to_string(), Style::new()),
            (span.replace(' ', &CODE_SPACE.to_string()), code),
            ("），而不是别的。Then `x`.".to_string(), Style::new()),
        ];
        for width in 6..80 {
            let lines = line_texts(&wrap(&pieces, width, &[], &[]));
            for (i, line) in lines.iter().enumerate() {
                assert!(line.width() <= width, "{width}: {lines:?}");
                assert!(
                    i == 0 || !line.starts_with(is_closing),
                    "{width}: {lines:?}"
                );
            }
            assert_eq!(
                lines.concat().replace(' ', ""),
                format!("报错是（{span}），而不是别的。Then`x`.").replace(' ', ""),
                "{width}"
            );
        }
    }

    /// A space before closing punctuation is not a place to break: `x )` stays together.
    #[test]
    fn punctuation_after_a_space_stays_with_the_word_before() {
        let pieces = vec![("aaaa bbbb ) cccc , dd".to_string(), Style::new())];
        for width in 6..24 {
            let lines = line_texts(&wrap(&pieces, width, &[], &[]));
            for line in &lines[1..] {
                assert!(!line.starts_with(is_closing), "{width}: {lines:?}");
            }
            assert_eq!(lines.join(" "), "aaaa bbbb ) cccc , dd", "{width}");
        }
    }

    #[test]
    fn truncate_marks_the_cut() {
        assert_eq!(truncate("abcdef", 4), "abc…");
        assert_eq!(truncate("abc", 4), "abc");
    }
}
