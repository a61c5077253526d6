//! Every style the UI uses, as named constants, and the `NO_COLOR` switch.

use ratatui::style::{Color, Modifier, Style};

pub const TITLE_BAR: Style = Style::new()
    .fg(Color::Black)
    .bg(Color::Cyan)
    .add_modifier(Modifier::BOLD);
pub const FOOTER: Style = Style::new().fg(Color::Gray).bg(Color::DarkGray);
pub const FOOTER_KEY: Style = Style::new()
    .fg(Color::Yellow)
    .bg(Color::DarkGray)
    .add_modifier(Modifier::BOLD);
pub const HEADING_1: Style = Style::new()
    .fg(Color::Cyan)
    .add_modifier(Modifier::BOLD)
    .add_modifier(Modifier::UNDERLINED);
pub const HEADING_2: Style = Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD);
pub const HEADING_3: Style = Style::new()
    .fg(Color::LightBlue)
    .add_modifier(Modifier::BOLD);
pub const TEXT: Style = Style::new();
pub const INLINE_CODE: Style = Style::new().fg(Color::LightYellow);
pub const QUOTE_BAR: Style = Style::new().fg(Color::Green);
pub const QUOTE_TEXT: Style = Style::new().fg(Color::Gray).add_modifier(Modifier::ITALIC);
pub const CODE_FRAME: Style = Style::new().fg(Color::DarkGray);
pub const EXERCISE_FRAME: Style = Style::new().fg(Color::Magenta);
pub const EXERCISE_TITLE: Style = Style::new().fg(Color::Magenta).add_modifier(Modifier::BOLD);
pub const TABLE_BORDER: Style = Style::new().fg(Color::DarkGray);
pub const TABLE_HEADER: Style = Style::new().add_modifier(Modifier::BOLD);
pub const BULLET: Style = Style::new().fg(Color::Yellow);
pub const LINK: Style = Style::new()
    .fg(Color::Blue)
    .add_modifier(Modifier::UNDERLINED);
pub const SEARCH_HIT: Style = Style::new().fg(Color::Black).bg(Color::Yellow);
pub const SEARCH_CURRENT: Style = Style::new()
    .fg(Color::Black)
    .bg(Color::LightRed)
    .add_modifier(Modifier::BOLD);
pub const TOC_BORDER: Style = Style::new().fg(Color::DarkGray);
pub const TOC_CURRENT: Style = Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD);
pub const TOC_SECTION: Style = Style::new().fg(Color::Gray);
pub const TOC_DONE: Style = Style::new().fg(Color::Green);
pub const HELP_BORDER: Style = Style::new().fg(Color::Cyan);
pub const HELP_KEY: Style = Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD);
// Python highlighting.
pub const PY_KEYWORD: Style = Style::new().fg(Color::Magenta).add_modifier(Modifier::BOLD);
pub const PY_STRING: Style = Style::new().fg(Color::Green);
pub const PY_NUMBER: Style = Style::new().fg(Color::LightCyan);
pub const PY_COMMENT: Style = Style::new()
    .fg(Color::DarkGray)
    .add_modifier(Modifier::ITALIC);
pub const PY_BUILTIN: Style = Style::new().fg(Color::LightBlue);
pub const PY_PLAIN: Style = Style::new().fg(Color::White);
// Exercise and quiz cards.
pub const CARD_FOCUSED: Style = Style::new()
    .fg(Color::LightMagenta)
    .add_modifier(Modifier::BOLD);
pub const CARD_EDITING: Style = Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD);
pub const CARD_DONE: Style = Style::new().fg(Color::Green).add_modifier(Modifier::BOLD);
pub const CARD_FAILED: Style = Style::new()
    .fg(Color::LightRed)
    .add_modifier(Modifier::BOLD);
pub const EDITOR_CURSOR: Style = Style::new().add_modifier(Modifier::REVERSED);
pub const EDITOR_SELECTION: Style = Style::new().bg(Color::Blue);
pub const GUTTER: Style = Style::new().fg(Color::DarkGray);
/// The line where the host reported the error.
pub const GUTTER_REPORTED: Style = Style::new()
    .fg(Color::White)
    .bg(Color::Red)
    .add_modifier(Modifier::BOLD);
/// The line that launched the failing kernel (a deferred error's origin).
pub const GUTTER_ORIGIN: Style = Style::new()
    .fg(Color::Black)
    .bg(Color::Yellow)
    .add_modifier(Modifier::UNDERLINED);
pub const PANE_TITLE: Style = Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD);
pub const PANE_TAB: Style = Style::new().fg(Color::Gray);
pub const PANE_TAB_ACTIVE: Style = Style::new()
    .fg(Color::Black)
    .bg(Color::Cyan)
    .add_modifier(Modifier::BOLD);
pub const OUTPUT_STDOUT: Style = Style::new();
pub const OUTPUT_STDERR: Style = Style::new().fg(Color::LightRed);
pub const CHECK_PASS: Style = Style::new().fg(Color::Green).add_modifier(Modifier::BOLD);
pub const CHECK_FAIL: Style = Style::new()
    .fg(Color::LightRed)
    .add_modifier(Modifier::BOLD);
pub const SPARK_ALLOCATED: Style = Style::new().fg(Color::Cyan);
pub const SPARK_RESERVED: Style = Style::new().fg(Color::Blue);
pub const LANE: Style = Style::new().fg(Color::DarkGray);
pub const LANE_HOST: Style = Style::new().fg(Color::LightBlue);
pub const LANE_DEVICE: Style = Style::new().fg(Color::LightGreen);
pub const LANE_ASSERT: Style = Style::new()
    .fg(Color::LightRed)
    .add_modifier(Modifier::BOLD);
pub const LANE_REPORTED: Style = Style::new()
    .fg(Color::LightRed)
    .add_modifier(Modifier::BOLD)
    .add_modifier(Modifier::UNDERLINED);
pub const HINT: Style = Style::new().fg(Color::LightYellow);
pub const SOLUTION_FRAME: Style = Style::new().fg(Color::Green);
pub const SPINNER: Style = Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD);
pub const QUIZ_CHOSEN: Style = Style::new().add_modifier(Modifier::REVERSED);
pub const QUIZ_CORRECT: Style = Style::new().fg(Color::Green).add_modifier(Modifier::BOLD);
pub const QUIZ_WRONG: Style = Style::new()
    .fg(Color::LightRed)
    .add_modifier(Modifier::BOLD);
pub const BACKEND_LABEL: Style = Style::new().fg(Color::Black).bg(Color::Cyan);
pub const BLOCKING_ON: Style = Style::new()
    .fg(Color::Black)
    .bg(Color::Yellow)
    .add_modifier(Modifier::BOLD);

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
