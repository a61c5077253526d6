//! The result panes of an exercise card, each a pure function from a run's report (and the
//! pane's size) to the lines to draw: `output`, `checks`, `memory`, `timeline`.

pub(crate) mod checks;
pub(crate) mod memory;
pub(crate) mod output;
pub(crate) mod timeline;
