//! The memory pane: the allocator's counters per device (allocated, reserved, peak, wrapped
//! rather than cut), then the allocated and reserved bytes after each operation plotted over
//! the script's lines: one bar per column (`·` is zero, so an empty allocator is visible, not
//! blank; `▁`…`█` up to the series' maximum, written after it), and under them an axis with the
//! script line where each stretch of operations starts.

use super::super::exercise::human_size;
use super::super::wrap::wrap;
use crate::run::{RunReport, TimelineEntry};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use unicode_width::UnicodeWidthStr;

pub(crate) struct Look<'a> {
    pub header: Style,
    pub text: Style,
    pub allocated_bar: Style,
    pub reserved_bar: Style,
    pub axis: Style,
    pub note: Style,
    pub allocated: &'a str,
    pub reserved: &'a str,
    pub peak: &'a str,
    pub line: &'a str,
    /// A device's name as shown (translated when it is the simulated one).
    pub device_name: &'a dyn Fn(&str) -> String,
}

const BARS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

pub(crate) fn lines(report: &RunReport, width: usize, look: &Look) -> Vec<Line<'static>> {
    let width = width.max(1);
    let mem = &report.memory;
    let mut lines = Vec::new();
    let counters = |a: u64, r: u64, p: u64| -> Vec<Line<'static>> {
        // Whole entries per line: "allocated 1.50 KiB · reserved 2.00 MiB · peak 1.50 KiB".
        let pieces = [
            format!("{} {}", look.allocated, human_size(a)),
            format!("{} {}", look.reserved, human_size(r)),
            format!("{} {}", look.peak, human_size(p)),
        ];
        let mut out = Vec::new();
        let mut current = String::from(" ");
        for piece in pieces {
            let sep = if current.trim().is_empty() {
                " "
            } else {
                " · "
            };
            if current.width() + sep.width() + piece.width() > width && !current.trim().is_empty() {
                out.push(Line::styled(std::mem::take(&mut current), look.text));
                current = String::from(" ");
            }
            let sep = if current.trim().is_empty() {
                " "
            } else {
                " · "
            };
            current.push_str(sep);
            current.push_str(&piece);
        }
        out.push(Line::styled(current, look.text));
        out
    };
    if mem.devices.is_empty() {
        lines.push(Line::styled("cuda:0", look.header));
        lines.extend(counters(mem.allocated, mem.reserved, mem.peak_allocated));
    }
    for d in &mem.devices {
        let capacity = if d.capacity > 0 {
            format!(" ({})", human_size(d.capacity))
        } else {
            String::new()
        };
        let title = format!("cuda:{} {}{capacity}", d.index, (look.device_name)(&d.name));
        lines.extend(wrap(
            &[(title, look.header)],
            width,
            &[],
            &[Span::raw("  ")],
        ));
        lines.extend(counters(d.allocated, d.reserved, d.peak_allocated));
    }
    lines.extend(plot(&report.timeline, width, look));
    lines
}

/// The two series and the line axis.
fn plot(timeline: &[TimelineEntry], width: usize, look: &Look) -> Vec<Line<'static>> {
    let label_w = super::gutter_width(&[look.allocated, look.reserved, look.line]);
    if timeline.is_empty() || width < label_w + 4 {
        return Vec::new();
    }
    let pick_a = |e: &TimelineEntry| e.allocated;
    let pick_r = |e: &TimelineEntry| e.reserved;
    let max_text = |m: u64| format!(" ≤ {}", human_size(m));
    let max_a = timeline.iter().map(pick_a).max().unwrap_or(0);
    let max_r = timeline.iter().map(pick_r).max().unwrap_or(0);
    let tail = max_text(max_a).width().max(max_text(max_r).width());
    let room = width - label_w;
    // The bars take what the maximum's text leaves; without room for it, all of it.
    let bars_w = if room > tail + 4 { room - tail } else { room };
    let buckets = buckets(timeline.len(), bars_w);
    let mut out = Vec::new();
    for (label, pick, max, style) in [
        (
            look.allocated,
            &pick_a as &dyn Fn(&TimelineEntry) -> u64,
            max_a,
            look.allocated_bar,
        ),
        (look.reserved, &pick_r, max_r, look.reserved_bar),
    ] {
        let pad = label_w - label.width();
        let mut spans = vec![Span::styled(
            format!("{label}{}", " ".repeat(pad)),
            look.text,
        )];
        let bars: String = buckets
            .iter()
            .map(|range| {
                let v = timeline[range.clone()].iter().map(pick).max().unwrap_or(0);
                bar(v, max)
            })
            .collect();
        spans.push(Span::styled(bars, style));
        if bars_w < room {
            spans.push(Span::styled(max_text(max), look.note));
        }
        out.push(Line::from(spans));
    }
    // The axis: the script line where each run of operations of one line starts, when there
    // is room to write it (a space between numbers).
    let mut axis = vec![' '; buckets.len()];
    let mut free_from = 0;
    let mut previous = None;
    for (k, range) in buckets.iter().enumerate() {
        let line = timeline[range.start].line;
        if previous == Some(line) {
            continue;
        }
        previous = Some(line);
        let text: Vec<char> = line.to_string().chars().collect();
        if k >= free_from && k + text.len() <= axis.len() {
            axis[k..k + text.len()].copy_from_slice(&text);
            free_from = k + text.len() + 1;
        }
    }
    let pad = label_w - look.line.width();
    out.push(Line::from(vec![
        Span::styled(format!("{}{}", look.line, " ".repeat(pad)), look.text),
        Span::styled(axis.into_iter().collect::<String>(), look.axis),
    ]));
    out
}

/// `n` operations in at most `width` columns: each column's range of operations (a few
/// operations get several columns each, many share columns).
fn buckets(n: usize, width: usize) -> Vec<std::ops::Range<usize>> {
    let width = width.max(1);
    if n <= width {
        let per = width / n.max(1);
        return (0..n * per).map(|c| c / per..c / per + 1).collect();
    }
    (0..width)
        .map(|i| {
            let from = i * n / width;
            let to = ((i + 1) * n / width).max(from + 1);
            from..to
        })
        .collect()
}

/// `·` for zero; otherwise at least the lowest bar, so a small value never reads as none.
fn bar(value: u64, max: u64) -> char {
    if value == 0 || max == 0 {
        return '·';
    }
    let level = (value as f64 / max as f64 * BARS.len() as f64).ceil() as usize;
    BARS[level.clamp(1, BARS.len()) - 1]
}

#[cfg(test)]
mod tests {
    use super::super::super::wrap::line_texts as text;
    use super::*;
    use crate::run::{DeviceMemory, MemoryReport};

    fn name(n: &str) -> String {
        n.to_string()
    }

    fn look() -> Look<'static> {
        Look {
            header: Style::new(),
            text: Style::new(),
            allocated_bar: Style::new(),
            reserved_bar: Style::new(),
            axis: Style::new(),
            note: Style::new(),
            allocated: "allocated",
            reserved: "reserved",
            peak: "peak",
            line: "line",
            device_name: &name,
        }
    }

    fn report() -> RunReport {
        let mut timeline = Vec::new();
        for (line, allocated) in [(4, 0), (5, 512), (5, 1024), (7, 1024), (8, 0)] {
            timeline.push(TimelineEntry {
                line,
                allocated,
                reserved: if allocated > 0 { 2 << 20 } else { 0 },
                ..TimelineEntry::default()
            });
        }
        RunReport {
            memory: MemoryReport {
                allocated: 0,
                reserved: 2 << 20,
                peak_allocated: 8 << 20,
                devices: vec![DeviceMemory {
                    index: 0,
                    name: "Simulated H200 (modelled)".into(),
                    allocated: 0,
                    reserved: 2 << 20,
                    peak_allocated: 8 << 20,
                    capacity: 80 << 30,
                }],
            },
            timeline,
            ..RunReport::default()
        }
    }

    #[test]
    fn zero_is_visible_and_the_axis_names_the_lines() {
        let rows = text(&lines(&report(), 60, &look()));
        let allocated = rows.iter().find(|r| r.starts_with("allocated ")).unwrap();
        let bars = format!(
            "{}{}{}{}",
            "·".repeat(7),
            "▄".repeat(7),
            "█".repeat(14),
            "·".repeat(7)
        );
        assert!(allocated.contains(&bars), "{rows:#?}");
        assert!(allocated.ends_with("≤ 1.00 KiB"), "{rows:#?}");
        let axis = rows.iter().find(|r| r.starts_with("line")).unwrap();
        assert_eq!(
            axis.trim_end(),
            "line      4      5             7      8",
            "{rows:#?}"
        );
    }

    #[test]
    fn counters_wrap_instead_of_being_cut() {
        for width in [20, 30, 44, 120] {
            let rows = text(&lines(&report(), width, &look()));
            let all = rows.join("\n");
            assert!(all.contains("peak 8.00 MiB"), "{width}: {rows:#?}");
            for r in &rows {
                assert!(r.width() <= width.max(24), "{width}: {r}");
            }
        }
    }
}
