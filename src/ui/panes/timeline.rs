//! The timeline pane: what the host did and what the device did, on one time axis, so the
//! learner sees a kernel fail on the device while the host has already moved on, and which
//! later call heard of it.
//!
//! * Host lane: `●` where a call was issued, `┄` while the host waited inside it for the
//!   device (a copy or sync, or every launch under CUDA_LAUNCH_BLOCKING=1), `✗` where the
//!   failure was reported (when that call returned to Python).
//! * Device lane: `▮` a kernel's start, `▬` while it runs, `✗` the kernel that failed.
//! * Above the host lane, each mark's script line; marks of one line next to each other share
//!   a label, the failing and reporting calls are labelled first, and what could not be
//!   labelled is counted, never labelled with a neighbour's number.
//! * Under the lanes, without blocking, `╰──╯` joins the failing kernel's launch to the report
//!   with the time between; with blocking there is no gap, and the explanation says why.
//!   A legend names the glyphs; the explanation wraps.

use super::super::exercise::{assert_gap, human_us};
use super::super::wrap::wrap;
use crate::run::{RunReport, TimelineEntry};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use unicode_width::UnicodeWidthStr;

pub(crate) struct Look<'a> {
    pub lane: Style,
    pub host: Style,
    pub device: Style,
    pub failed: Style,
    pub reported: Style,
    pub label: Style,
    pub number: Style,
    pub note: Style,
    pub words: Words<'a>,
}

pub(crate) struct Words<'a> {
    pub line: &'a str,
    pub host: &'a str,
    pub device: &'a str,
    pub clock: &'a str,
    pub legend: [&'a str; 4],
    pub explain_async: &'a str,
    pub explain_blocking: &'a str,
    pub unlabelled: &'a str,
    pub none: &'a str,
}

/// The failing kernel and the call that reported it, and whether the host waited for the
/// kernel at its launch (so the launch itself reported it: no gap).
pub(crate) struct Failure {
    pub kernel: usize,
    pub reporter: Option<usize>,
    pub blocking: bool,
    /// From when the failing launch returned to Python to when the report did, in µs.
    pub gap_us: f64,
}

/// Finds the failure in a run's timeline, if a kernel failed.
pub(crate) fn failure(report: &RunReport) -> Option<Failure> {
    let t = &report.timeline;
    let kernel = t.iter().position(|e| e.status == "assert")?;
    let reporter = t.iter().position(|e| e.status == "reported");
    // Blocking: the launch waited for the kernel and reported it itself (the engine records
    // that wait as a `sync` of the same line).
    let blocking = match reporter {
        None => true,
        Some(r) => report.launch_blocking || t[r].line == t[kernel].line && t[r].kind == "sync",
    };
    // Otherwise the gap is the one the CLI summary shows too.
    let gap_us = match assert_gap(report) {
        Some((_, _, us)) if !blocking => us,
        _ => 0.0,
    };
    Some(Failure {
        kernel,
        reporter,
        blocking,
        gap_us,
    })
}

pub(crate) fn lines(report: &RunReport, width: usize, look: &Look) -> Vec<Line<'static>> {
    let w = &look.words;
    let entries = &report.timeline;
    if entries.is_empty() {
        return vec![Line::styled(w.none.to_string(), look.note)];
    }
    let label_w = super::gutter_width(&[w.line, w.host, w.device]);
    let end = entries
        .iter()
        .flat_map(|e| [e.host_end_us, e.device_end_us.unwrap_or(0.0), e.host_us])
        .fold(0.0f64, f64::max)
        .max(1.0);
    let mut header = format!("{} · 0 – {}", w.clock, human_us(end));
    if report.launch_blocking {
        header.push_str(" · CUDA_LAUNCH_BLOCKING=1");
    }
    let mut lines = wrap(&[(header, look.note)], width, &[], &[]);
    let lane_w = width.saturating_sub(label_w);
    if lane_w < 4 {
        return lines;
    }
    let x_of =
        |us: f64| (((us.max(0.0) / end) * (lane_w - 1) as f64).round() as usize).min(lane_w - 1);
    let failure = failure(report);
    let mut host: Vec<(char, Style)> = vec![('─', look.lane); lane_w];
    let mut device: Vec<(char, Style)> = vec![('─', look.lane); lane_w];
    let mut join: Vec<(char, Style)> = vec![(' ', Style::new()); lane_w];
    // Host waits first, so marks drawn after them stay visible. A call waits for the device
    // when it synchronises (a copy, a sync, the call that reports a failure) and, under
    // CUDA_LAUNCH_BLOCKING=1, at every launch; other calls return at once.
    for e in entries {
        let waits = e.kind == "d2h"
            || e.kind == "h2d"
            || e.kind == "sync"
            || e.status == "reported"
            || report.launch_blocking && e.kind == "kernel";
        if !waits {
            continue;
        }
        let (a, b) = (x_of(e.host_us), x_of(e.host_end_us));
        for cell in host.iter_mut().take(b + 1).skip(a + 1) {
            *cell = ('┄', look.host);
        }
    }
    for e in entries {
        if let Some(start) = e.device_start_us {
            let (a, b) = (x_of(start), x_of(e.device_end_us.unwrap_or(start)));
            for cell in device.iter_mut().take(b + 1).skip(a + 1) {
                if cell.0 == '─' {
                    *cell = ('▬', look.device);
                }
            }
            device[a] = if e.status == "assert" {
                ('✗', look.failed)
            } else {
                ('▮', look.device)
            };
        }
    }
    // Marks: (column, script line, importance); a report is marked where it returned.
    let mut marks: Vec<(usize, u32, bool)> = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        let reported = e.status == "reported";
        let x = if reported {
            x_of(e.host_end_us)
        } else {
            x_of(e.host_us)
        };
        let key = failure
            .as_ref()
            .is_some_and(|f| f.kernel == i || f.reporter == Some(i));
        host[x] = if reported {
            ('✗', look.reported)
        } else if e.status == "failed" || e.status == "error" {
            ('✗', look.failed)
        } else if host[x].0 == '✗' {
            host[x]
        } else {
            ('●', look.host)
        };
        marks.push((x, e.line, key));
    }
    let (label_rows, unlabelled) = place_labels(&marks, lane_w);
    if let Some(f) = failure.as_ref().filter(|f| !f.blocking)
        && let Some(r) = f.reporter
    {
        let ax = x_of(entries[f.kernel].host_end_us);
        let rx = x_of(entries[r].host_end_us);
        let (lo, hi) = (ax.min(rx), ax.max(rx));
        for cell in join.iter_mut().take(hi).skip(lo + 1) {
            *cell = ('─', look.failed);
        }
        join[lo] = ('╰', look.failed);
        join[hi] = (if lo == hi { '│' } else { '╯' }, look.failed);
        let text = format!(" {} ", human_us(f.gap_us));
        if hi - lo > text.width() + 1 {
            let start = lo + (hi - lo - text.width()) / 2 + 1;
            for (k, c) in text.chars().enumerate() {
                join[start + k] = (c, look.failed);
            }
        }
    }
    let lane = |label: &str, cells: &[(char, Style)]| {
        let pad = label_w.saturating_sub(label.width());
        let mut spans = vec![Span::styled(
            format!("{label}{}", " ".repeat(pad)),
            look.label,
        )];
        spans.extend(cells.iter().map(|(c, st)| Span::styled(c.to_string(), *st)));
        Line::from(spans)
    };
    for (k, row) in label_rows.iter().enumerate() {
        let cells: Vec<(char, Style)> = row.iter().map(|c| (*c, look.number)).collect();
        lines.push(lane(if k == 0 { w.line } else { "" }, &cells));
    }
    lines.push(lane(w.host, &host));
    lines.push(lane(w.device, &device));
    if join.iter().any(|(c, _)| *c != ' ') {
        lines.push(lane("", &join));
    }
    if let Some(f) = &failure {
        let kernel = &entries[f.kernel];
        let text = if f.blocking {
            fill(w.explain_blocking, kernel, kernel, 0.0)
        } else {
            let r = f.reporter.map_or(kernel, |r| &entries[r]);
            fill(w.explain_async, kernel, r, f.gap_us)
        };
        lines.extend(wrap(&[(text, look.failed)], width, &[], &[]));
    }
    // The legend: one entry per glyph, wrapped as whole entries.
    let legend: Vec<(String, Style)> = w
        .legend
        .iter()
        .enumerate()
        .flat_map(|(i, entry)| {
            let sep = if i == 0 { "" } else { "  " };
            [(format!("{sep}{entry}"), look.note)]
        })
        .collect();
    lines.extend(wrap_entries(&legend, width));
    if unlabelled > 0 {
        lines.push(Line::styled(
            w.unlabelled.replace("{n}", &unlabelled.to_string()),
            look.note,
        ));
    }
    lines
}

fn fill(template: &str, kernel: &TimelineEntry, reporter: &TimelineEntry, gap: f64) -> String {
    template
        .replace("{line}", &kernel.line.to_string())
        .replace("{op}", &kernel.op)
        .replace("{rline}", &reporter.line.to_string())
        .replace("{rop}", &reporter.op)
        .replace("{gap}", &human_us(gap))
}

/// Legend entries kept whole, wrapped between them.
fn wrap_entries(entries: &[(String, Style)], width: usize) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    let mut current: Vec<Span<'static>> = Vec::new();
    let mut used = 0;
    for (text, style) in entries {
        let trimmed = text.trim_start();
        let w = text.width();
        if used > 0 && used + w > width {
            lines.push(Line::from(std::mem::take(&mut current)));
            used = 0;
        }
        let shown = if used == 0 { trimmed } else { text.as_str() };
        used += shown.width();
        current.push(Span::styled(shown.to_string(), *style));
    }
    if !current.is_empty() {
        lines.push(Line::from(current));
    }
    lines
}

/// Puts each mark's line number above it, on up to two rows: runs of marks of the same line
/// share one label; the important marks (the failure and its report) go first, then the rest
/// left to right. A label always starts exactly above its mark. Returns the rows and how many
/// runs got no label.
fn place_labels(marks: &[(usize, u32, bool)], width: usize) -> (Vec<Vec<char>>, usize) {
    // Runs: marks sorted by column, merged while the line stays the same.
    let mut sorted: Vec<(usize, u32, bool)> = marks.to_vec();
    sorted.sort_by_key(|m| m.0);
    let mut runs: Vec<(usize, u32, bool)> = Vec::new();
    for m in sorted {
        match runs.last_mut() {
            Some(last) if last.1 == m.1 => last.2 |= m.2,
            _ => runs.push(m),
        }
    }
    let mut order: Vec<usize> = (0..runs.len()).collect();
    order.sort_by_key(|&i| (!runs[i].2, runs[i].0));
    let mut rows = vec![vec![' '; width]; 2];
    let mut unlabelled = 0;
    for i in order {
        let (x, line, _) = runs[i];
        let label: Vec<char> = line.to_string().chars().collect();
        let end = x + label.len();
        if end > width {
            unlabelled += 1;
            continue;
        }
        // Free, with a space after it (and before it) so numbers never run together.
        let free =
            |row: &Vec<char>| (x.saturating_sub(1)..(end + 1).min(width)).all(|k| row[k] == ' ');
        match rows.iter_mut().find(|r| free(r)) {
            Some(row) => row[x..end].copy_from_slice(&label),
            None => unlabelled += 1,
        }
    }
    if rows[1].iter().all(|c| *c == ' ') {
        rows.pop();
    }
    (rows, unlabelled)
}

#[cfg(test)]
mod tests {
    use super::super::super::wrap::line_texts as text;
    use super::*;

    const WORDS: Words = Words {
        line: "line",
        host: "host",
        device: "device",
        clock: "modelled times",
        legend: [
            "● host call",
            "┄ host waits",
            "▮▬ kernel",
            "✗ failed / reported",
        ],
        explain_async: "✗ line {line} {op}() failed; line {rline} {rop}() reported it {gap} after the launch returned.",
        explain_blocking: "✗ line {line} {op}() failed; blocking: no gap.",
        unlabelled: "{n} unlabelled",
        none: "(none)",
    };

    fn look() -> Look<'static> {
        Look {
            lane: Style::new(),
            host: Style::new(),
            device: Style::new(),
            failed: Style::new(),
            reported: Style::new(),
            label: Style::new(),
            number: Style::new(),
            note: Style::new(),
            words: WORDS,
        }
    }

    fn entry(
        line: u32,
        op: &str,
        kind: &str,
        host: (f64, f64),
        dev: Option<(f64, f64)>,
        status: &str,
    ) -> TimelineEntry {
        TimelineEntry {
            line,
            op: op.into(),
            kind: kind.parse().expect("an event kind"),
            device: dev.map(|_| 0),
            host_us: host.0,
            host_end_us: host.1,
            device_start_us: dev.map(|d| d.0),
            device_end_us: dev.map(|d| d.1),
            status: status.parse().expect("an event status"),
            ..TimelineEntry::default()
        }
    }

    /// The engine's timelines for the lesson-3 script, without and with launch blocking.
    fn deferred() -> RunReport {
        RunReport {
            timeline: vec![
                entry(4, "randn", "kernel", (27.2, 33.2), Some((36.2, 38.2)), "ok"),
                entry(5, "tensor", "h2d", (33.4, 44.4), Some((42.4, 44.4)), "ok"),
                entry(
                    6,
                    "cross_entropy",
                    "kernel",
                    (44.6, 50.6),
                    Some((53.6, 95.6)),
                    "assert",
                ),
                entry(7, "item", "d2h", (50.8, 95.6), None, "reported"),
            ],
            ..RunReport::default()
        }
    }

    fn blocking() -> RunReport {
        RunReport {
            launch_blocking: true,
            timeline: vec![
                entry(4, "randn", "kernel", (27.2, 33.2), Some((36.2, 38.2)), "ok"),
                entry(5, "tensor", "h2d", (38.4, 49.4), Some((47.4, 49.4)), "ok"),
                entry(
                    6,
                    "cross_entropy",
                    "kernel",
                    (49.6, 55.6),
                    Some((58.6, 100.6)),
                    "assert",
                ),
                entry(6, "cross_entropy", "sync", (55.6, 100.6), None, "reported"),
                entry(6, "free", "free", (100.6, 100.6), None, "ok"),
            ],
            ..RunReport::default()
        }
    }

    #[test]
    fn blocking_shows_no_gap_and_says_why() {
        let async_ = failure(&deferred()).unwrap();
        assert!(!async_.blocking);
        assert!((async_.gap_us - 45.0).abs() < 1e-6);
        let sync = failure(&blocking()).unwrap();
        assert!(sync.blocking);
        assert_eq!(sync.gap_us, 0.0);
        let a = text(&lines(&deferred(), 80, &look()));
        let b = text(&lines(&blocking(), 80, &look()));
        assert!(a.iter().any(|l| l.contains("45.0 µs")), "{a:#?}");
        assert!(a.iter().any(|l| l.contains('╰')), "{a:#?}");
        assert!(!b.iter().any(|l| l.contains('╰')), "{b:#?}");
        assert!(b.iter().any(|l| l.contains("no gap")), "{b:#?}");
        assert_ne!(a, b);
    }

    #[test]
    fn every_label_sits_over_its_mark_and_the_report_is_labelled() {
        for width in [30, 40, 60, 100, 160] {
            let rows = text(&lines(&deferred(), width, &look()));
            let host = rows.iter().find(|l| l.starts_with("host")).unwrap();
            let numbers = rows.iter().find(|l| l.starts_with("line")).unwrap();
            let host: Vec<char> = host.chars().collect();
            let numbers: Vec<char> = numbers.chars().collect();
            let x = host.iter().rposition(|c| *c == '✗').unwrap();
            assert_eq!(
                numbers[x], '7',
                "{width}: the report's line over its ✗\n{rows:#?}"
            );
            for (k, c) in numbers.iter().enumerate().skip(7) {
                if c.is_ascii_digit() && (k == 0 || !numbers[k - 1].is_ascii_digit()) {
                    assert!(
                        matches!(host[k], '●' | '✗'),
                        "{width}: label at {k} over {:?}",
                        host[k]
                    );
                }
            }
        }
    }

    #[test]
    fn the_legend_and_explanation_wrap_instead_of_being_cut() {
        let rows = text(&lines(&deferred(), 30, &look()));
        for r in &rows {
            assert!(r.width() <= 30, "{r}");
        }
        let all = rows.join(" ");
        for needle in [
            "● host call",
            "▮▬ kernel",
            "✗ failed / reported",
            "reported it",
        ] {
            assert!(all.contains(needle), "{needle}: {rows:#?}");
        }
    }

    #[test]
    fn busy_runs_count_what_they_cannot_label() {
        let mut report = deferred();
        report.timeline = (0..200)
            .map(|i| {
                entry(
                    10 + (i % 3) as u32,
                    "add",
                    "kernel",
                    (i as f64, i as f64 + 0.5),
                    Some((i as f64 + 0.5, i as f64 + 0.9)),
                    "ok",
                )
            })
            .collect();
        let rows = text(&lines(&report, 60, &look()));
        assert!(rows.iter().any(|l| l.ends_with("unlabelled")), "{rows:#?}");
    }
}
