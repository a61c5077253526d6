//! The result panes of an exercise card, each a pure function from a run's report (and the
//! pane's size) to the lines to draw: `output`, `checks`, `memory`, `timeline`.

pub(crate) mod checks;
pub(crate) mod memory;
pub(crate) mod output;
pub(crate) mod timeline;

/// The columns of a label gutter: the widest of `labels` (as the terminal shows them) and a
/// space after it. The memory and timeline panes start their rows with one.
pub(crate) fn gutter_width(labels: &[&str]) -> usize {
    use unicode_width::UnicodeWidthStr;
    labels.iter().map(|l| l.width()).max().unwrap_or(0) + 1
}
