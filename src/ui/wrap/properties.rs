//! Wrapping checked on every paragraph, heading, list item and table cell of the built-in
//! lessons (English and Chinese) at every column width from 20 to 120: no line starts with
//! closing punctuation, no line is wider than its column, and the lines give the paragraph
//! back, in order, with only the spaces a break swallowed missing.

use super::{CODE_SPACE, Piece, is_closing, wrap};
use crate::lesson::{Catalog, Lang};
use crate::ui::markdown::render;
use crate::ui::strings;
use crate::ui::theme::Theme;
use ratatui::text::{Line, Span};
use std::cell::RefCell;

/// The narrowest column in which no line starts with closing punctuation.
const KINSOKU_MIN_WIDTH: usize = 6;

/// One call of [`wrap`]: its input and the lines it gave.
struct Call {
    pieces: Vec<Piece>,
    width: usize,
    first_prefix: usize,
    rest_prefix: usize,
    lines: Vec<Line<'static>>,
}

thread_local! {
    /// The calls made on this thread while a test records them.
    static CALLS: RefCell<Option<Vec<Call>>> = const { RefCell::new(None) };
}

/// Notes a call of [`wrap`] when this thread is recording.
pub(super) fn record(
    pieces: &[Piece],
    width: usize,
    first_prefix: &[Span<'static>],
    rest_prefix: &[Span<'static>],
    lines: &[Line<'static>],
) {
    CALLS.with(|calls| {
        if let Some(calls) = calls.borrow_mut().as_mut() {
            calls.push(Call {
                pieces: pieces.to_vec(),
                width,
                first_prefix: first_prefix.len(),
                rest_prefix: rest_prefix.len(),
                lines: lines.to_vec(),
            });
        }
    });
}

/// Every call of [`wrap`] that laying out `body` at `width` makes.
fn calls_laying_out(body: &str, width: u16, lang: Lang) -> Vec<Call> {
    let strings = lang.pick(&strings::EN, &strings::ZH);
    CALLS.with(|calls| *calls.borrow_mut() = Some(Vec::new()));
    render(body, width, Theme { color: false }, strings);
    CALLS.with(|calls| calls.borrow_mut().take().unwrap_or_default())
}

/// The paragraph as a reader sees it: line breaks and tabs as spaces, runs of spaces as one,
/// no space at either end, then inline code's spaces (kept as they are) as spaces.
fn normalized(pieces: &[Piece]) -> Vec<char> {
    let text: String = pieces.iter().map(|(t, _)| t.as_str()).collect();
    let text = text.replace(['\n', '\t'], " ");
    let mut out: Vec<char> = Vec::new();
    for c in text.trim_matches(' ').chars() {
        if !(c == ' ' && out.last() == Some(&' ')) {
            out.push(c);
        }
    }
    out.into_iter()
        .map(|c| if c == CODE_SPACE { ' ' } else { c })
        .collect()
}

/// What is wrong with one call's lines, if anything.
fn fault(call: &Call) -> Option<String> {
    let text = normalized(&call.pieces);
    let mut at = 0;
    for (i, line) in call.lines.iter().enumerate() {
        if line.width() > call.width {
            return Some(format!("line {i} is {} cells wide", line.width()));
        }
        let skip = if i == 0 {
            call.first_prefix
        } else {
            call.rest_prefix
        };
        let content: Vec<char> = line.spans[skip.min(line.spans.len())..]
            .iter()
            .flat_map(|s| s.content.chars())
            .collect();
        if i > 0 {
            // (a column narrower than a character and two closing marks, `行）；`, cannot
            // always keep them together: a squeezed table column of 2 cells holds `件:`)
            if call.width >= KINSOKU_MIN_WIDTH && content.first().copied().is_some_and(is_closing) {
                return Some(format!("line {i} starts with closing punctuation"));
            }
            // the space the break swallowed
            if text.get(at) == Some(&' ') {
                at += 1;
            }
        }
        if text.get(at..at + content.len()) != Some(&content[..]) {
            let line: String = content.iter().collect();
            return Some(format!("line {i} ({line:?}) is not the text's next part"));
        }
        at += content.len();
    }
    (at != text.len()).then(|| format!("text lost after {at} of {} characters", text.len()))
}

fn check_every_width(lang: Lang) {
    let catalog = Catalog::builtin(lang).unwrap();
    let mut calls_checked = 0;
    for lesson in &catalog.lessons {
        for width in 20u16..=120 {
            for call in calls_laying_out(&lesson.body, width, lang) {
                if let Some(fault) = fault(&call) {
                    let lines: Vec<String> = call
                        .lines
                        .iter()
                        .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
                        .collect();
                    panic!(
                        "{} at {width} columns (column {}): {fault}:\n{}",
                        lesson.source_name,
                        call.width,
                        lines.join("\n")
                    );
                }
                calls_checked += 1;
            }
        }
    }
    // the lessons were laid out: every paragraph of six lessons at 101 widths
    assert!(calls_checked > 6 * 101 * 20, "{calls_checked}");
}

#[test]
fn english_lessons_wrap_at_every_width_without_loss_or_a_punctuation_line_start() {
    check_every_width(Lang::En);
}

#[test]
fn chinese_lessons_wrap_at_every_width_without_loss_or_a_punctuation_line_start() {
    check_every_width(Lang::Zh);
}

/// The checker itself: it sees a lost word, a reordering, a line too wide and a comma at a
/// line's start.
#[test]
fn the_checker_catches_each_kind_of_fault() {
    let pieces = vec![(
        "alpha beta，gamma".to_string(),
        ratatui::style::Style::new(),
    )];
    let call = |lines: &[&str], width: usize| Call {
        pieces: pieces.clone(),
        width,
        first_prefix: 0,
        rest_prefix: 0,
        lines: lines.iter().map(|l| Line::raw(l.to_string())).collect(),
    };
    assert_eq!(fault(&call(&["alpha", "beta，gamma"], 12)), None);
    assert!(fault(&call(&["alpha", "gamma"], 12)).is_some());
    assert!(fault(&call(&["beta，gamma", "alpha"], 12)).is_some());
    assert!(fault(&call(&["alpha beta，gamma"], 12)).is_some());
    assert!(fault(&call(&["alpha beta", "，gamma"], 12)).is_some());
    assert!(fault(&call(&["alpha", "beta，gamm"], 12)).is_some());
    let laid_out = wrap(&pieces, 12, &[], &[]);
    assert!(fault(&call(&[], 12)).is_some());
    assert_eq!(
        fault(&Call {
            lines: laid_out,
            ..call(&[], 12)
        }),
        None
    );
}
