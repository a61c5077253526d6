//! CPython 3.11's position markers under a traceback's source line (`~~^~~`, `^^^^`), as
//! `traceback.format_frame_summary` and its anchors (`_extract_caret_anchors_from_line_segment`,
//! in traceback.c's form) draw them:
//!
//! - the node's span is marked with `^`; a binary operation marks its operands with `~` and
//!   its operator with `^`, a subscript its value with `~` and `[...]` with `^`;
//! - nothing is shown when a plain `^` span would cover the whole stripped line;
//! - a span that runs onto later lines is marked to the end of its first line, without anchors;
//! - columns are display columns (an East Asian wide character is two).
//!
//! The compiler records only where each node is ([`Marks::new`], constant time per node); the
//! line-wide work (stripping, widths, anchors) is done by [`Marks::render`], once per printed
//! frame, so a megabyte-long line of nodes compiles in linear time.

use unicode_width::UnicodeWidthChar;

/// Where a failing node is: byte columns `[start, end)` on `line` (`end` = [`Self::TO_EOL`]
/// when the node runs onto later lines), and for binary operations and subscripts two byte
/// offsets into the node's text for CPython's anchors. `line == 0`: not known.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Marks {
    pub line: u32,
    start: u16,
    end: u16,
    a: u16,
    b: u16,
    kind: AnchorKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
enum AnchorKind {
    #[default]
    None,
    Binary,
    Subscript,
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

impl Marks {
    /// Not known: nothing is drawn.
    pub const NONE: Marks = Marks {
        line: 0,
        start: 0,
        end: 0,
        a: 0,
        b: 0,
        kind: AnchorKind::None,
    };
    const TO_EOL: u16 = u16::MAX;

    pub fn is_none(&self) -> bool {
        self.line == 0
    }

    /// The node spanning source bytes `[start, end)`, on `line`, which occupies bytes
    /// `[line_start, line_end)`. Columns past 65534 bytes are not recorded (no markers).
    pub fn new(
        line: u32,
        line_start: usize,
        line_end: usize,
        start: usize,
        end: usize,
        anchor: Anchor,
    ) -> Marks {
        let col = |off: usize| {
            off.checked_sub(line_start)
                .and_then(|c| u16::try_from(c).ok())
                .filter(|&c| c != Self::TO_EOL)
        };
        let rel = |off: usize| off.checked_sub(start).and_then(|c| u16::try_from(c).ok());
        let (kind, a, b) = match anchor {
            Anchor::None => (AnchorKind::None, Some(0), Some(0)),
            Anchor::Binary {
                left_end,
                right_start,
            } => (AnchorKind::Binary, rel(left_end), rel(right_start)),
            Anchor::Subscript {
                value_end,
                slice_end,
            } => (AnchorKind::Subscript, rel(value_end), rel(slice_end)),
        };
        let end = if end > line_end {
            Some(Self::TO_EOL)
        } else {
            col(end)
        };
        match (col(start), end, a, b) {
            (Some(start), Some(end), Some(a), Some(b)) if line > 0 => Marks {
                line,
                start,
                end,
                a,
                b,
                kind,
            },
            _ => Marks::NONE,
        }
    }

    /// The marker line (without its newline) under `line_text`, whose leading whitespace the
    /// traceback strips; None when CPython would draw nothing (or the columns do not fit it).
    pub fn render(&self, line_text: &str) -> Option<String> {
        if self.is_none() {
            return None;
        }
        let start = self.start as usize;
        let multi_line = self.end == Self::TO_EOL;
        let end = if multi_line {
            line_text.trim_end().len()
        } else {
            self.end as usize
        };
        let before = line_text.get(..start)?;
        let seg = line_text.get(start..end)?;
        let start_col = display_width(before);
        let end_col = start_col + display_width(seg);
        let anchor = match self.kind {
            _ if multi_line => Anchor::None,
            AnchorKind::None => Anchor::None,
            AnchorKind::Binary => Anchor::Binary {
                left_end: self.a as usize,
                right_start: self.b as usize,
            },
            AnchorKind::Subscript => Anchor::Subscript {
                value_end: self.a as usize,
                slice_end: self.b as usize,
            },
        };
        let hi = anchors(seg, &anchor).map(|(x, y)| {
            let chars: Vec<char> = seg.chars().collect();
            let w = |n: usize| {
                chars[..n.min(chars.len())]
                    .iter()
                    .copied()
                    .map(width)
                    .sum::<usize>()
            };
            (start_col + w(x), start_col + w(y))
        });
        let anchored = hi.is_some_and(|(x, y)| y > x);
        if seg.chars().count() >= line_text.trim().chars().count() && !anchored {
            return None;
        }
        if end_col <= start_col {
            return None;
        }
        let leading = line_text.chars().take_while(|c| c.is_whitespace()).count();
        let mut s = String::from("    ");
        s.push_str(&" ".repeat(start_col.saturating_sub(leading)));
        let (hi_start, hi_end) = hi.unwrap_or((0, 0));
        for col in start_col..end_col {
            let marked_hi = col >= hi_start && col < hi_end;
            s.push(if !anchored || marked_hi { '^' } else { '~' });
        }
        Some(s)
    }
}

/// CPython's anchors, as char offsets into the segment: the part marked `^`. The anchor's
/// offsets are bytes into `seg`.
fn anchors(seg: &str, anchor: &Anchor) -> Option<(usize, usize)> {
    let chars: Vec<char> = seg.chars().collect();
    let char_at = |byte: usize| -> Option<usize> { Some(seg.get(..byte)?.chars().count()) };
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
        let m = Marks::new(1, 0, src.len(), start, start + node.len(), anchor(start));
        m.render(src).unwrap_or_default()
    }

    /// Each `(line, node, (a, b), expected)`: the marker line for `node` in `line`, its anchor
    /// made by `anchor(start of node, a, b)`.
    fn check_marks(
        cases: &[(&str, &str, (usize, usize), &str)],
        anchor: fn(usize, usize, usize) -> Anchor,
    ) {
        for &(src, node, (a, b), want) in cases {
            assert_eq!(marks(src, node, |s| anchor(s, a, b)), want, "{src}");
        }
    }

    // Expected strings are CPython 3.11.7's output for the same lines.
    #[test]
    fn binary_operations_mark_the_operator() {
        let cases = [
            ("1 / x", "1 / x", (1, 4), "    ~~^~~"),
            ("y = 1/0 # hi", "1/0", (1, 2), "        ~^~"),
            ("y = ( 1 )/0", "( 1 )/0", (3, 6), "        ~~~~~^~"),
            ("y = 2 + 1 // x * 3", "1 // x", (1, 5), "            ~~^^~~"),
            (
                "y = \"中文\" + 1",
                "\"中文\" + 1",
                (8, 11),
                "        ~~~~~~~^~~",
            ),
        ];
        check_marks(&cases, |s, l, r| Anchor::Binary {
            left_end: s + l,
            right_start: s + r,
        });
    }

    #[test]
    fn subscripts_mark_the_brackets() {
        let cases = [
            ("x[5]", "x[5]", (1, 3), "    ~^^^"),
            ("y = [1][ 5 ]", "[1][ 5 ]", (3, 6), "        ~~~^^^^^"),
            (
                "    return a[0][1]",
                "a[0][1]",
                (4, 6),
                "           ~~~~^^^",
            ),
        ];
        check_marks(&cases, |s, v, e| Anchor::Subscript {
            value_end: s + v,
            slice_end: s + e,
        });
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
        let m = Marks::new(1, 0, 8, 5, 17, Anchor::None);
        assert_eq!(m.render(&src[..8]).as_deref(), Some("         ^^^"));
    }
}
