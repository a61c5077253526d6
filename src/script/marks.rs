//! CPython 3.11's position markers under a traceback's source line (`~~^~~`, `^^^^`), worked
//! out at compile time from the failing node's span, as `traceback.format_frame_summary` and
//! its anchors (`_extract_caret_anchors_from_line_segment`) do:
//!
//! - the node's span is marked with `^`; a binary operation marks its operands with `~` and
//!   its operator with `^`, a subscript its value with `~` and `[...]` with `^`;
//! - nothing is shown when a plain `^` span would cover the whole stripped line;
//! - a span that runs onto later lines is marked to the end of its first line, without anchors;
//! - columns are display columns (an East Asian wide character is two).

use unicode_width::UnicodeWidthChar;

/// Where to draw markers on one source line, in display columns from the line's start:
/// `[start, end)` is marked, `[hi_start, hi_end)` of it with `^` and the rest with `~` when
/// that range is not empty (with `^` everywhere otherwise).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Marks {
    pub line: u32,
    pub start: u16,
    pub end: u16,
    pub hi_start: u16,
    pub hi_end: u16,
}

impl Marks {
    /// Nothing to draw (CPython elides the markers, or the span is not known).
    pub const NONE: Marks = Marks {
        line: 0,
        start: 0,
        end: 0,
        hi_start: 0,
        hi_end: 0,
    };

    pub fn is_none(&self) -> bool {
        self.end == 0
    }

    /// The marker line (without its newline) under `line_text`, whose leading whitespace the
    /// traceback strips.
    pub fn render(&self, line_text: &str) -> String {
        let leading = line_text.chars().take_while(|c| c.is_whitespace()).count();
        let pad = (self.start as usize).saturating_sub(leading);
        let mut s = String::from("    ");
        s.push_str(&" ".repeat(pad));
        let anchored = self.hi_end > self.hi_start;
        for col in self.start..self.end {
            let hi = col >= self.hi_start && col < self.hi_end;
            s.push(if !anchored || hi { '^' } else { '~' });
        }
        s
    }
}

/// What kind of node the span belongs to, for CPython's anchors (byte offsets in the source).
pub enum Anchor {
    None,
    /// A binary operation: where its left operand ends and its right one starts.
    Binary {
        left_end: usize,
        right_start: usize,
    },
    /// A subscript: where its value ends and its index ends.
    Subscript {
        value_end: usize,
        slice_end: usize,
    },
}

fn width(c: char) -> usize {
    // CPython counts East Asian wide and fullwidth characters as 2, everything else as 1.
    if c.width() == Some(2) { 2 } else { 1 }
}

fn display_width(s: &str) -> usize {
    s.chars().map(width).sum()
}

/// The markers for the node spanning bytes `[start, end)` of `src`, whose line begins at byte
/// `line_start` and is number `line`.
pub fn compute(
    src: &str,
    line: u32,
    line_start: usize,
    start: usize,
    end: usize,
    anchor: Anchor,
) -> Marks {
    let line_end = src[line_start..]
        .find('\n')
        .map_or(src.len(), |i| line_start + i);
    let (Some(text), true) = (src.get(line_start..line_end), start >= line_start) else {
        return Marks::NONE;
    };
    let Some(before) = src.get(line_start..start) else {
        return Marks::NONE;
    };
    let stripped_chars = text.trim().chars().count();
    let start_col = display_width(before);
    let multi_line = end > line_end;
    let (end_col, span_chars, hi) = if multi_line {
        let rest = text.trim_end();
        let Some(seg) = rest.get(before.len()..) else {
            return Marks::NONE;
        };
        (display_width(rest), seg.chars().count(), None)
    } else {
        let Some(seg) = src.get(start..end) else {
            return Marks::NONE;
        };
        let hi = anchors(seg, start, &anchor).map(|(a, b)| {
            let chars: Vec<char> = seg.chars().collect();
            let w = |n: usize| {
                chars[..n.min(chars.len())]
                    .iter()
                    .copied()
                    .map(width)
                    .sum::<usize>()
            };
            (start_col + w(a), start_col + w(b))
        });
        (start_col + display_width(seg), seg.chars().count(), hi)
    };
    let anchored = hi.is_some_and(|(a, b)| b > a);
    if span_chars >= stripped_chars && !anchored {
        return Marks::NONE;
    }
    let fits = |n: usize| u16::try_from(n).ok();
    let (hi_start, hi_end) = hi.unwrap_or((0, 0));
    match (fits(start_col), fits(end_col), fits(hi_start), fits(hi_end)) {
        (Some(start), Some(end), Some(hi_start), Some(hi_end)) if end > start => Marks {
            line,
            start,
            end,
            hi_start,
            hi_end,
        },
        _ => Marks::NONE,
    }
}

/// CPython's anchors, as char offsets into the segment: the part marked `^`.
fn anchors(seg: &str, seg_start: usize, anchor: &Anchor) -> Option<(usize, usize)> {
    let chars: Vec<char> = seg.chars().collect();
    let char_at = |byte: usize| -> Option<usize> {
        let rel = byte.checked_sub(seg_start)?;
        Some(seg.get(..rel)?.chars().count())
    };
    match *anchor {
        Anchor::None => None,
        Anchor::Binary {
            left_end,
            right_start,
        } => {
            // traceback.c's loop (the one uncaught exceptions are printed with; traceback.py's
            // differs after a closing parenthesis): the first character after the left operand
            // that is neither blank nor `)`, plus the next one for a two-character operator.
            let op_end = char_at(right_start)?.min(chars.len());
            let mut found = None;
            for i in char_at(left_end)?..op_end {
                if chars[i].is_whitespace() {
                    continue;
                }
                let two = i + 1 < op_end && !chars[i + 1].is_whitespace();
                found = Some((i, i + 1 + usize::from(two)));
                if i + 1 < op_end && chars[i] == ')' {
                    continue;
                }
                break;
            }
            found
        }
        Anchor::Subscript {
            value_end,
            slice_end,
        } => {
            let mut left = char_at(value_end)?;
            let mut right = char_at(slice_end)? + 1;
            while left < chars.len() && (chars[left].is_whitespace() || chars[left] != '[') {
                left += 1;
            }
            while right < chars.len() && (chars[right].is_whitespace() || chars[right] != ']') {
                right += 1;
            }
            if right < chars.len() {
                right += 1;
            }
            Some((left, right))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The marker line for the first occurrence of `node` in the one-line `src`.
    fn marks(src: &str, node: &str, anchor: impl Fn(usize) -> Anchor) -> String {
        let start = src.find(node).unwrap();
        let m = compute(src, 1, 0, start, start + node.len(), anchor(start));
        if m.is_none() {
            String::new()
        } else {
            m.render(src)
        }
    }

    // Expected strings are CPython 3.11.7's output for the same lines.
    #[test]
    fn binary_operations_mark_the_operator() {
        let bin = |l: usize, r: usize| {
            move |s: usize| Anchor::Binary {
                left_end: s + l,
                right_start: s + r,
            }
        };
        assert_eq!(marks("1 / x", "1 / x", bin(1, 4)), "    ~~^~~");
        assert_eq!(marks("y = 1/0 # hi", "1/0", bin(1, 2)), "        ~^~");
        assert_eq!(
            marks("y = ( 1 )/0", "( 1 )/0", bin(3, 6)),
            "        ~~~~~^~"
        );
        assert_eq!(
            marks("y = 2 + 1 // x * 3", "1 // x", bin(1, 5)),
            "            ~~^^~~"
        );
        assert_eq!(
            marks("y = \"中文\" + 1", "\"中文\" + 1", bin(8, 11)),
            "        ~~~~~~~^~~"
        );
    }

    #[test]
    fn subscripts_mark_the_brackets() {
        let sub = |v: usize, e: usize| {
            move |s: usize| Anchor::Subscript {
                value_end: s + v,
                slice_end: s + e,
            }
        };
        assert_eq!(marks("x[5]", "x[5]", sub(1, 3)), "    ~^^^");
        assert_eq!(
            marks("y = [1][ 5 ]", "[1][ 5 ]", sub(3, 6)),
            "        ~~~^^^^^"
        );
        assert_eq!(
            marks("    return a[0][1]", "a[0][1]", sub(4, 6)),
            "           ~~~~^^^"
        );
    }

    #[test]
    fn plain_spans_and_elision() {
        assert_eq!(
            marks("y = len(5)", "len(5)", |_| Anchor::None),
            "        ^^^^^^"
        );
        assert_eq!(marks("len(5)", "len(5)", |_| Anchor::None), "");
        assert_eq!(marks("    f(1)  ", "f(1)", |_| Anchor::None), "");
    }

    #[test]
    fn a_span_onto_later_lines_is_marked_to_its_first_lines_end() {
        let src = "y = (1 +\n     \"a\")\n";
        let m = compute(src, 1, 0, 5, 17, Anchor::None);
        assert_eq!(m.render("y = (1 +"), "         ^^^");
    }
}
