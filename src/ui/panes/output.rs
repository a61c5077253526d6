//! The output pane: what the script printed (stdout and stderr, the device log and the
//! traceback, in the order they were written), fitted to the pane without lying about it.
//!
//! * A traceback's source line and the caret line under it are never wrapped: wrapping one
//!   and not the other (or both at different places) makes the caret point at the wrong code.
//!   They are cut at the pane's edge instead (`›` marks more to the right) and scroll
//!   sideways together (Shift-← / Shift-→). Every other line wraps at spaces.
//! * When the pane is too short for everything, it shows what explains the error first: the
//!   last `File "…", line N` line, the exception line, the source and caret lines, the rest of
//!   the message, then what came before, with a note of how many lines are above. Shift-↑
//!   scrolls back through the whole output.

use crate::run::RunReport;
use ratatui::style::Style;
use ratatui::text::Line;
use unicode_width::UnicodeWidthChar;

/// The styles and words the pane uses.
pub(crate) struct Look<'a> {
    pub stdout: Style,
    pub stderr: Style,
    pub note: Style,
    pub no_output: &'a str,
    /// `{n}` is replaced by the count.
    pub earlier: &'a str,
}

/// One line of output with what it is.
struct Logical {
    text: String,
    style: Style,
    /// A traceback source or caret line: cut, never wrapped.
    whole: bool,
}

/// One screen row, with the logical line it came from.
struct Row {
    line: Line<'static>,
    from: usize,
}

/// The rows to show in a pane `width` x `height`, `back` rows scrolled back from the end and
/// `left` columns sideways.
pub(crate) fn lines(
    report: &RunReport,
    width: usize,
    height: usize,
    back: usize,
    left: usize,
    look: &Look,
) -> Vec<Line<'static>> {
    if width == 0 || height == 0 {
        return Vec::new();
    }
    let logical = logical_lines(report, look);
    if logical.is_empty() {
        return vec![Line::styled(look.no_output.to_string(), look.note)];
    }
    let rows = rows_of(&logical, width, left);
    if rows.len() <= height {
        return rows.into_iter().map(|r| r.line).collect();
    }
    let key = key_lines(&logical);
    let first_is_tail = first_view_is_tail(key.as_ref(), &rows, height);
    if back > 0 || first_is_tail {
        // Scrolled back: plain rows ending `offset` rows before the last. When the first view
        // is the prioritised one, the first step back is the tail itself, so the last rows
        // (which the prioritised view may leave out) are always one Shift-↑ away.
        let offset = if first_is_tail { back } else { back - 1 };
        let end = rows.len().saturating_sub(offset).max(height);
        return rows
            .into_iter()
            .skip(end - height)
            .take(height)
            .map(|r| r.line)
            .collect();
    }
    match key {
        Some(key) => prioritised(rows, &key, height, look),
        None => Vec::new(),
    }
}

/// Whether the unscrolled view of rows that do not fit is simply their tail: without a
/// traceback (the tail holds the last thing printed), or when the tail already holds the last
/// `File` line. Otherwise it is the prioritised view.
fn first_view_is_tail(key: Option<&KeyLines>, rows: &[Row], height: usize) -> bool {
    let Some(key) = key else {
        return true;
    };
    let tail_start = rows.len().saturating_sub(height);
    rows[tail_start..].iter().any(|r| r.from == key.file)
}

/// How far Shift-↑ can scroll the output back in a pane `width` x `height`: far enough that
/// the first row is at the top, counted in the rows the pane shows (wrapped lines once per
/// row), plus the step from the prioritised view to the tail when the first view is
/// prioritised. Every row of the output is on screen at one of the steps `0..=max_back`.
pub(crate) fn max_back(report: &RunReport, width: usize, height: usize) -> usize {
    if width == 0 || height == 0 {
        return 0;
    }
    let rows = all_rows(report, width);
    if rows.len() <= height {
        return 0;
    }
    let logical = logical_lines(report, &plain_look());
    let key = key_lines(&logical);
    let extra = usize::from(!first_view_is_tail(key.as_ref(), &rows, height));
    rows.len() - height + extra
}

fn plain_look() -> Look<'static> {
    Look {
        stdout: Style::new(),
        stderr: Style::new(),
        note: Style::new(),
        no_output: "",
        earlier: "",
    }
}

/// The rows of the whole output at `width` (unstyled), as `lines` cuts them.
fn all_rows(report: &RunReport, width: usize) -> Vec<Row> {
    rows_of(&logical_lines(report, &plain_look()), width, 0)
}

fn rows_of(logical: &[Logical], width: usize, left: usize) -> Vec<Row> {
    logical
        .iter()
        .enumerate()
        .flat_map(|(i, l)| {
            let pieces = if l.whole {
                vec![cut(&l.text, left, width)]
            } else {
                hard_wrap(&l.text, width)
            };
            pieces.into_iter().map(move |p| Row {
                line: Line::styled(p, l.style),
                from: i,
            })
        })
        .collect()
}

/// The lines that explain an error, by their index among the logical lines.
struct KeyLines {
    file: usize,
    source: Option<usize>,
    caret: Option<usize>,
    exception: Option<usize>,
}

fn key_lines(logical: &[Logical]) -> Option<KeyLines> {
    let file = logical
        .iter()
        .rposition(|l| l.text.trim_start().starts_with("File \""))?;
    let mut k = KeyLines {
        file,
        source: None,
        caret: None,
        exception: None,
    };
    for (i, l) in logical.iter().enumerate().skip(file + 1) {
        if is_caret(&l.text) {
            k.caret = Some(i);
        } else if l.text.starts_with(' ') {
            if k.source.is_none() {
                k.source = Some(i);
            }
        } else {
            k.exception = Some(i);
            break;
        }
    }
    Some(k)
}

/// The rows in priority order, as many as fit, shown in their own order.
fn prioritised(rows: Vec<Row>, key: &KeyLines, height: usize, look: &Look) -> Vec<Line<'static>> {
    let rows_of = |line: usize| -> Vec<usize> {
        rows.iter()
            .enumerate()
            .filter(|(_, r)| r.from == line)
            .map(|(i, _)| i)
            .collect()
    };
    let mut order: Vec<usize> = Vec::new();
    let first = |v: Vec<usize>| v.into_iter().take(1).collect::<Vec<_>>();
    order.extend(first(rows_of(key.file)));
    if let Some(e) = key.exception {
        order.extend(first(rows_of(e)));
    }
    for line in [key.source, key.caret].into_iter().flatten() {
        order.extend(rows_of(line));
    }
    order.extend(rows_of(key.file));
    if let Some(e) = key.exception {
        // The exception line's other rows, and the message lines after it.
        order.extend(
            rows.iter()
                .enumerate()
                .filter(|(_, r)| r.from >= e)
                .map(|(i, _)| i),
        );
    }
    let file_row = rows_of(key.file).first().copied().unwrap_or(0);
    order.extend((0..file_row).rev());
    order.extend(0..rows.len());
    let mut chosen: Vec<usize> = Vec::new();
    let mut budget = height;
    // Room for the note saying what is above, when there is enough room for it to matter.
    let note = height >= 4;
    if note {
        budget -= 1;
    }
    for i in order {
        if chosen.len() == budget {
            break;
        }
        if !chosen.contains(&i) {
            chosen.push(i);
        }
    }
    chosen.sort_unstable();
    let hidden = rows.len() - chosen.len();
    let mut out: Vec<Line<'static>> = Vec::new();
    if note && hidden > 0 {
        out.push(Line::styled(
            look.earlier.replace("{n}", &hidden.to_string()),
            look.note,
        ));
    }
    let mut rows: Vec<Option<Row>> = rows.into_iter().map(Some).collect();
    for i in chosen {
        if let Some(row) = rows[i].take() {
            out.push(row.line);
        }
    }
    out
}

fn logical_lines(report: &RunReport, look: &Look) -> Vec<Logical> {
    let mut out = Vec::new();
    // in write order: a caught assert's device line above the script's later prints
    for (traceback, text) in report.interleaved() {
        let style = if traceback { look.stderr } else { look.stdout };
        if text.is_empty() {
            continue;
        }
        let lines: Vec<String> = text.trim_end_matches('\n').split('\n').map(clean).collect();
        for (i, line) in lines.iter().enumerate() {
            let whole = traceback
                && (is_caret(line)
                    || lines.get(i + 1).is_some_and(|n| is_caret(n))
                    || i > 0 && lines[i - 1].trim_start().starts_with("File \""));
            out.push(Logical {
                text: line.clone(),
                style,
                whole,
            });
        }
    }
    out
}

/// Tabs as spaces to the next multiple of 4; other control characters dropped (the terminal
/// must never receive them raw).
fn clean(line: &str) -> String {
    let mut out = String::new();
    let mut col = 0;
    for c in line.chars() {
        match c {
            '\t' => {
                let n = 4 - col % 4;
                out.extend(std::iter::repeat_n(' ', n));
                col += n;
            }
            c if c.is_control() => {}
            c => {
                out.push(c);
                col += c.width().unwrap_or(0);
            }
        }
    }
    out
}

/// A CPython 3.11 position marker line: only spaces, `^` and `~`.
fn is_caret(line: &str) -> bool {
    let t = line.trim();
    !t.is_empty() && t.chars().all(|c| c == '^' || c == '~')
}

/// Columns `left .. left + width` of `line`; `›` in the last column when more follows.
fn cut(line: &str, left: usize, width: usize) -> String {
    let mut out = String::new();
    let mut col = 0;
    let mut used = 0;
    let mut more = false;
    for c in line.chars() {
        let w = c.width().unwrap_or(0);
        if col < left {
            col += w;
            continue;
        }
        if used + w > width {
            more = true;
            break;
        }
        out.push(c);
        used += w;
        col += w;
    }
    if more && width > 0 {
        // Make room for the marker.
        while out.chars().map(|c| c.width().unwrap_or(0)).sum::<usize>() + 1 > width {
            out.pop();
        }
        out.push('›');
    }
    out
}

/// Cuts a line into pieces of at most `width` cells, keeping every character (and the
/// indentation tracebacks rely on): at the last space that fits, else mid-word.
pub(crate) fn hard_wrap(line: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let chars: Vec<char> = line.chars().collect();
    let indent = chars.iter().take_while(|c| **c == ' ').count();
    let mut out = Vec::new();
    let mut start = 0;
    while start < chars.len() {
        // The longest run from `start` that fits.
        let mut used = 0;
        let mut end = start;
        while end < chars.len() {
            let w = chars[end].width().unwrap_or(0);
            if used + w > width {
                break;
            }
            used += w;
            end += 1;
        }
        if end == start {
            end = start + 1; // a character wider than the pane
        }
        if end < chars.len() {
            // Prefer breaking after a space (past the indentation).
            if let Some(space) = (start.max(indent) + 1..=end)
                .rev()
                .find(|&i| chars[i - 1] == ' ')
            {
                end = space;
            }
        }
        out.push(chars[start..end].iter().collect());
        start = end;
    }
    if out.is_empty() {
        out.push(String::new());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::super::wrap::line_texts as text;
    use super::*;

    const LOOK: Look = Look {
        stdout: Style::new(),
        stderr: Style::new(),
        note: Style::new(),
        no_output: "(no output)",
        earlier: "↑ {n} more",
    };

    fn report(stderr: &str) -> RunReport {
        RunReport {
            stderr: stderr.into(),
            ..RunReport::default()
        }
    }

    const TRACEBACK: &str = "device log line one that is long\nTraceback (most recent call last):\n  File \"exercise.py\", line 8, in <module>\n    print(loss.item())\n          ^^^^^^^^^^^\nRuntimeError: CUDA error: device-side assert triggered\nCUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1\n";

    #[test]
    fn a_caught_asserts_device_line_sits_between_the_prints_around_its_sync() {
        let device = "Loss.cu:244: nll_loss_forward: block: [0,0,0], thread: [6,0,0] Assertion `t >= 0 && t < n_classes` failed.\n";
        let r = RunReport {
            stdout: "before\ncaught\nafter\n".into(),
            stderr: device.into(),
            output_order: vec![(false, 7), (true, device.len()), (false, 13)],
            ..RunReport::default()
        };
        let rows = text(&lines(&r, 200, 10, 0, 0, &LOOK));
        assert_eq!(rows[0], "before");
        assert!(rows[1].ends_with("failed."), "{rows:#?}");
        assert_eq!(&rows[2..4], ["caught", "after"]);
        // an order that does not add up (an older report): stdout, then stderr
        let old = RunReport {
            output_order: vec![(true, 3)],
            ..r
        };
        let rows = text(&lines(&old, 200, 10, 0, 0, &LOOK));
        assert_eq!(&rows[..3], ["before", "caught", "after"]);
        assert!(rows[3].ends_with("failed."), "{rows:#?}");
    }

    #[test]
    fn hard_wrap_keeps_every_character() {
        assert_eq!(hard_wrap("  abcdef", 3), vec!["  a", "bcd", "ef"]);
        assert_eq!(hard_wrap("", 3), vec![""]);
        assert_eq!(hard_wrap("ab cd ef", 6), vec!["ab cd ", "ef"]);
        assert_eq!(hard_wrap("    x = 1 + 2", 8), vec!["    x = ", "1 + 2"]);
        assert_eq!(hard_wrap("宽字", 1), vec!["宽", "字"]);
    }

    #[test]
    fn the_caret_stays_under_its_code_in_a_narrow_pane() {
        let rows = text(&lines(&report(TRACEBACK), 14, 40, 0, 0, &LOOK));
        let source = rows
            .iter()
            .position(|r| r.starts_with("    print"))
            .unwrap();
        assert_eq!(rows[source], "    print(los›");
        assert_eq!(rows[source + 1], "          ^^^›", "{rows:#?}");
        // Sideways, both move together.
        let rows = text(&lines(&report(TRACEBACK), 14, 40, 0, 8, &LOOK));
        let source = rows
            .iter()
            .position(|r| r.starts_with("t(loss"))
            .unwrap_or_else(|| panic!("{rows:#?}"));
        assert_eq!(rows[source], "t(loss.item())");
        assert_eq!(rows[source + 1], "  ^^^^^^^^^^^");
    }

    #[test]
    fn a_short_pane_shows_the_file_line_and_the_exception_first() {
        for height in 2..6 {
            let rows = text(&lines(&report(TRACEBACK), 60, height, 0, 0, &LOOK));
            assert!(rows.len() <= height);
            assert!(
                rows.iter().any(|r| r.contains("line 8, in <module>")),
                "{height}: {rows:#?}"
            );
            assert!(
                rows.iter()
                    .any(|r| r.starts_with("RuntimeError: CUDA error")),
                "{height}: {rows:#?}"
            );
        }
        let rows = text(&lines(&report(TRACEBACK), 60, 5, 0, 0, &LOOK));
        assert_eq!(
            rows,
            [
                "↑ 5 more",
                "  File \"exercise.py\", line 8, in <module>",
                "    print(loss.item())",
                "          ^^^^^^^^^^^",
                "RuntimeError: CUDA error: device-side assert triggered",
            ]
        );
        // Scrolling back shows the whole output in order.
        let rows = text(&lines(&report(TRACEBACK), 60, 5, 30, 0, &LOOK));
        assert_eq!(rows[0], "device log line one that is long");
    }

    /// A traceback whose message runs on after the exception line, as PyTorch's CUDA errors
    /// do: the prioritised first view cannot hold it all in a short pane.
    const LONG_TRACEBACK: &str = "log line 1\nlog line 2\nlog line 3\nTraceback (most recent call last):\n  File \"exercise.py\", line 3, in <module>\n    helper()\n    ^^^^^^^^\n  File \"exercise.py\", line 9, in helper\n    print(loss.item())\n          ^^^^^^^^^^^\nRuntimeError: CUDA error: device-side assert triggered\nCUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n";

    #[test]
    fn every_row_of_the_output_is_reachable_at_every_size() {
        for source in [TRACEBACK, LONG_TRACEBACK, "a\nb\nc\nd\ne\nf\ng\nh\n"] {
            let r = report(source);
            for width in [12, 20, 33, 60, 100] {
                let all: Vec<String> = rows_of(&logical_lines(&r, &LOOK), width, 0)
                    .into_iter()
                    .map(|row| row.line.spans.iter().map(|s| s.content.as_ref()).collect())
                    .collect();
                for height in 1..all.len() + 2 {
                    let mut seen = vec![false; all.len()];
                    let max = max_back(&r, width, height);
                    for back in 0..=max {
                        let shown = text(&lines(&r, width, height, back, 0, &LOOK));
                        assert!(shown.len() <= height, "{width}x{height} back {back}");
                        for row in shown {
                            for (i, a) in all.iter().enumerate() {
                                if *a == row {
                                    seen[i] = true;
                                }
                            }
                        }
                    }
                    // The last step back shows the first rows.
                    let top = text(&lines(&r, width, height, max, 0, &LOOK));
                    assert_eq!(top.first(), all.first(), "{width}x{height}");
                    let missing: Vec<&String> = all
                        .iter()
                        .zip(&seen)
                        .filter(|(_, s)| !**s)
                        .map(|(a, _)| a)
                        .collect();
                    assert!(
                        missing.is_empty(),
                        "{width}x{height}: never shown {missing:#?}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_last_line_of_a_long_message_is_one_step_back() {
        let r = report(LONG_TRACEBACK);
        let first = text(&lines(&r, 100, 6, 0, 0, &LOOK));
        assert!(first[0].starts_with("↑ "), "prioritised: {first:#?}");
        let tail = text(&lines(&r, 100, 6, 1, 0, &LOOK));
        assert_eq!(
            tail.last().map(String::as_str),
            Some("Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.")
        );
    }
}
