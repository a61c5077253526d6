//! Every style the UI uses, as named constants, and the `NO_COLOR` switch.

use ratatui::style::{Color, Modifier, Style};

/// `fg` in bold: titles, keys, verdicts and the other words that must stand out of the text.
const fn bold(fg: Color) -> Style {
    Style::new().fg(fg).add_modifier(Modifier::BOLD)
}

/// `fg` on `bg`, in bold: the bars and badges (title, current search hit, reported line).
const fn bold_on(fg: Color, bg: Color) -> Style {
    bold(fg).bg(bg)
}

pub(super) const TITLE_BAR: Style = bold_on(Color::Black, Color::Cyan);
pub(super) const FOOTER: Style = Style::new().fg(Color::Gray).bg(Color::DarkGray);
pub(super) const FOOTER_KEY: Style = bold_on(Color::Yellow, Color::DarkGray);
pub(super) const HEADING_1: Style = bold(Color::Cyan).add_modifier(Modifier::UNDERLINED);
pub(super) const HEADING_2: Style = bold(Color::Cyan);
pub(super) const HEADING_3: Style = bold(Color::LightBlue);
pub(super) const TEXT: Style = Style::new();
pub(super) const INLINE_CODE: Style = Style::new().fg(Color::LightYellow);
pub(super) const QUOTE_BAR: Style = Style::new().fg(Color::Green);
pub(super) const QUOTE_TEXT: Style = Style::new().fg(Color::Gray).add_modifier(Modifier::ITALIC);
pub(super) const CODE_FRAME: Style = Style::new().fg(Color::DarkGray);
pub(super) const EXERCISE_FRAME: Style = Style::new().fg(Color::Magenta);
pub(super) const EXERCISE_TITLE: Style = bold(Color::Magenta);
pub(super) const TABLE_BORDER: Style = Style::new().fg(Color::DarkGray);
pub(super) const TABLE_HEADER: Style = Style::new().add_modifier(Modifier::BOLD);
pub(super) const BULLET: Style = Style::new().fg(Color::Yellow);
pub(super) const LINK: Style = Style::new()
    .fg(Color::Blue)
    .add_modifier(Modifier::UNDERLINED);
pub(super) const SEARCH_HIT: Style = Style::new().fg(Color::Black).bg(Color::Yellow);
pub(super) const SEARCH_CURRENT: Style = bold_on(Color::Black, Color::LightRed);
pub(super) const TOC_BORDER: Style = Style::new().fg(Color::DarkGray);
pub(super) const TOC_CURRENT: Style = bold(Color::Cyan);
pub(super) const TOC_SECTION: Style = Style::new().fg(Color::Gray);
pub(super) const TOC_DONE: Style = Style::new().fg(Color::Green);
pub(super) const HELP_BORDER: Style = Style::new().fg(Color::Cyan);
pub(super) const HELP_KEY: Style = bold(Color::Yellow);
// Python highlighting.
pub(super) const PY_KEYWORD: Style = bold(Color::Magenta);
pub(super) const PY_STRING: Style = Style::new().fg(Color::Green);
pub(super) const PY_NUMBER: Style = Style::new().fg(Color::LightCyan);
pub(super) const PY_COMMENT: Style = Style::new()
    .fg(Color::DarkGray)
    .add_modifier(Modifier::ITALIC);
pub(super) const PY_BUILTIN: Style = Style::new().fg(Color::LightBlue);
pub(super) const PY_PLAIN: Style = Style::new().fg(Color::White);
// Exercise and quiz cards.
pub(super) const CARD_FOCUSED: Style = bold(Color::LightMagenta);
pub(super) const CARD_EDITING: Style = bold(Color::Yellow);
pub(super) const CARD_DONE: Style = bold(Color::Green);
pub(super) const CARD_FAILED: Style = bold(Color::LightRed);
pub(super) const EDITOR_CURSOR: Style = Style::new().add_modifier(Modifier::REVERSED);
pub(super) const EDITOR_SELECTION: Style = Style::new().bg(Color::Blue);
pub(super) const GUTTER: Style = Style::new().fg(Color::DarkGray);
/// The line where the host reported the error.
pub(super) const GUTTER_REPORTED: Style = bold_on(Color::White, Color::Red);
/// The line that launched the failing kernel (a deferred error's origin).
pub(super) const GUTTER_ORIGIN: Style = Style::new()
    .fg(Color::Black)
    .bg(Color::Yellow)
    .add_modifier(Modifier::UNDERLINED);
pub(super) const PANE_TITLE: Style = bold(Color::Cyan);
pub(super) const PANE_TAB: Style = Style::new().fg(Color::Gray);
pub(super) const PANE_TAB_ACTIVE: Style = bold_on(Color::Black, Color::Cyan);
pub(super) const OUTPUT_STDOUT: Style = Style::new();
pub(super) const OUTPUT_STDERR: Style = Style::new().fg(Color::LightRed);
pub(super) const CHECK_PASS: Style = bold(Color::Green);
pub(super) const CHECK_FAIL: Style = bold(Color::LightRed);
pub(super) const SPARK_ALLOCATED: Style = Style::new().fg(Color::Cyan);
pub(super) const SPARK_RESERVED: Style = Style::new().fg(Color::Blue);
pub(super) const LANE: Style = Style::new().fg(Color::DarkGray);
pub(super) const LANE_HOST: Style = Style::new().fg(Color::LightBlue);
pub(super) const LANE_DEVICE: Style = Style::new().fg(Color::LightGreen);
pub(super) const LANE_ASSERT: Style = bold(Color::LightRed);
pub(super) const LANE_REPORTED: Style = bold(Color::LightRed).add_modifier(Modifier::UNDERLINED);
pub(super) const HINT: Style = Style::new().fg(Color::LightYellow);
pub(super) const SOLUTION_FRAME: Style = Style::new().fg(Color::Green);
pub(super) const SPINNER: Style = bold(Color::Yellow);
pub(super) const QUIZ_CHOSEN: Style = Style::new().add_modifier(Modifier::REVERSED);
pub(super) const QUIZ_CORRECT: Style = bold(Color::Green);
pub(super) const QUIZ_WRONG: Style = bold(Color::LightRed);
pub(super) const BACKEND_LABEL: Style = Style::new().fg(Color::Black).bg(Color::Cyan);
pub(super) const BLOCKING_ON: Style = bold_on(Color::Black, Color::Yellow);

/// Colours on or off. With `NO_COLOR` set (any value, per no-color.org) only modifiers such as
/// bold and reverse remain, so search hits and the current item stay visible.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Theme {
    pub color: bool,
}

impl Theme {
    pub fn from_env() -> Theme {
        Theme {
            color: std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
        }
    }

    pub fn style(self, style: Style) -> Style {
        if self.color {
            return style;
        }
        let mut plain = Style::new().add_modifier(style.add_modifier);
        // Highlights that relied on a background colour fall back to reverse video.
        if style.bg.is_some() {
            plain = plain.add_modifier(Modifier::REVERSED);
        }
        plain
    }
}
