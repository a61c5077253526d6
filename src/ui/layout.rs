//! Where everything goes, computed from the state and the terminal size *before* anything is
//! drawn: the title, contents, text and footer rectangles, and each card's place in the page.
//! Event handling and drawing both ask for the same `PageLayout`, so what a key acts on is
//! what is on screen; drawing only reads it.
//!
//! The page is the lesson's rendered text lines with each card's rows inserted before the line
//! it belongs to ("page rows"). Scrolling, search hits, section jumps and focus all use page
//! rows.

use ratatui::layout::Rect;

/// Width of the table of contents pane when shown.
pub(super) const TOC_WIDTH: u16 = 30;
/// Below this terminal width the contents pane is hidden so the text keeps room.
pub(super) const TOC_MIN_TERMINAL_WIDTH: u16 = 70;
/// From this terminal width the contents pane is open until the learner closes it; below, it
/// folds away by itself (at 80 columns its 30 would cut code lines and the footer), and `t`
/// still opens it.
pub(super) const TOC_AUTO_WIDTH: u16 = 100;
/// The smallest size at which anything but a "too small" note is drawn.
pub(super) const MIN_WIDTH: u16 = 20;
pub(super) const MIN_HEIGHT: u16 = 6;

/// A card's rows in the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SlotBox {
    pub top: usize,
    pub height: usize,
}

impl SlotBox {
    /// The rows inside the frame (the frame's own top and bottom rows excluded).
    pub fn inner(&self) -> std::ops::Range<usize> {
        self.top + 1..(self.top + self.height).saturating_sub(1).max(self.top + 1)
    }
}

/// What is at a page row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum At {
    /// A rendered text line.
    Text(usize),
    /// (card index, row inside the card).
    Card(usize, usize),
}

#[derive(Debug, Clone)]
pub struct PageLayout {
    pub area: Rect,
    /// Below the minimum size only a note is drawn and keys change nothing on screen.
    pub too_small: bool,
    pub title: Rect,
    pub footer: Rect,
    pub toc: Option<Rect>,
    /// The page text: a margin column on the left, the scrollbar on the right.
    pub text: Rect,
    /// The text area with its margins, where the scrollbar goes.
    pub body: Rect,
    /// Each card, in page order.
    pub slots: Vec<SlotBox>,
    /// The rendered line each card is drawn before.
    pub slot_lines: Vec<usize>,
    /// Rendered text lines.
    pub lines: usize,
    /// Page rows: text lines plus card rows.
    pub total: usize,
}

/// The rectangles for a terminal of `area`; slots are added by `with_slots`.
pub(super) fn frame(area: Rect, toc_open: bool) -> PageLayout {
    let too_small = area.width < MIN_WIDTH || area.height < MIN_HEIGHT;
    let title = Rect { height: 1, ..area };
    let footer = Rect {
        y: area.y + area.height.saturating_sub(1),
        height: area.height.min(1),
        ..area
    };
    let body = Rect {
        y: area.y + 1,
        height: area.height.saturating_sub(2),
        ..area
    };
    let show_toc = toc_open && area.width >= TOC_MIN_TERMINAL_WIDTH;
    let (toc, page) = if show_toc {
        (
            Some(Rect {
                width: TOC_WIDTH,
                ..body
            }),
            Rect {
                x: body.x + TOC_WIDTH,
                width: body.width - TOC_WIDTH,
                ..body
            },
        )
    } else {
        (None, body)
    };
    // One column of margin on each side, and one for the scrollbar.
    let text = Rect {
        x: page.x + 1,
        width: page.width.saturating_sub(3),
        ..page
    };
    PageLayout {
        area,
        too_small,
        title,
        footer,
        toc,
        text,
        body: page,
        slots: Vec::new(),
        slot_lines: Vec::new(),
        lines: 0,
        total: 0,
    }
}

impl PageLayout {
    /// Places the cards: `slot_lines[i]` is the line card i goes before, `heights[i]` its rows.
    pub(crate) fn with_slots(
        mut self,
        lines: usize,
        slot_lines: Vec<usize>,
        heights: &[usize],
    ) -> Self {
        let mut extra = 0;
        self.slots = slot_lines
            .iter()
            .zip(heights)
            .map(|(&line, &height)| {
                let top = line + extra;
                extra += height;
                SlotBox { top, height }
            })
            .collect();
        self.slot_lines = slot_lines;
        self.lines = lines;
        self.total = lines + extra;
        self
    }

    /// Rows of page the text area shows.
    pub fn page(&self) -> usize {
        usize::from(self.text.height.max(1))
    }

    pub fn max_scroll(&self) -> usize {
        self.total.saturating_sub(self.page())
    }

    /// The page row of rendered line `line` (cards before it push it down).
    pub(crate) fn page_row(&self, line: usize) -> usize {
        line + self
            .slot_lines
            .iter()
            .zip(&self.slots)
            .filter(|(l, _)| **l <= line)
            .map(|(_, s)| s.height)
            .sum::<usize>()
    }

    /// What is drawn at page row `row`.
    pub fn at(&self, row: usize) -> At {
        let mut cards_above = 0;
        for (i, slot) in self.slots.iter().enumerate() {
            if row < slot.top {
                break;
            }
            if row < slot.top + slot.height {
                return At::Card(i, row - slot.top);
            }
            cards_above += slot.height;
        }
        At::Text(row.saturating_sub(cards_above))
    }

    /// Whether card `index` shows at least one of its inner rows with the page at `scroll`:
    /// what "on screen" means for keys that act on a card.
    pub fn card_on_screen(&self, index: usize, scroll: usize) -> bool {
        let Some(slot) = self.slots.get(index) else {
            return false;
        };
        let inner = slot.inner();
        inner.start < scroll + self.page() && inner.end > scroll
    }

    /// The card under terminal cell (`column`, `row`), if any.
    pub(crate) fn card_at(&self, column: u16, row: u16, scroll: usize) -> Option<usize> {
        let t = self.text;
        if self.too_small || column < t.x || column >= t.x + t.width || row < t.y {
            return None;
        }
        if row >= t.y + t.height {
            return None;
        }
        match self.at(scroll + usize::from(row - t.y)) {
            At::Card(i, _) => Some(i),
            At::Text(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cards_push_text_down_and_rows_map_back() {
        let layout = frame(Rect::new(0, 0, 100, 8), false).with_slots(20, vec![5, 10], &[4, 6]);
        assert_eq!(layout.total, 30);
        assert_eq!(layout.slots[0], SlotBox { top: 5, height: 4 });
        assert_eq!(layout.slots[1], SlotBox { top: 14, height: 6 });
        assert_eq!(layout.page_row(4), 4);
        assert_eq!(layout.page_row(5), 9);
        assert_eq!(layout.page_row(10), 20);
        assert_eq!(layout.at(6), At::Card(0, 1));
        assert_eq!(layout.at(9), At::Text(5));
        assert_eq!(layout.at(20), At::Text(10));
        // On screen means an inner row is visible, not just a border.
        assert_eq!(layout.page(), 6);
        assert!(layout.card_on_screen(1, 18));
        assert!(!layout.card_on_screen(1, 19), "only its bottom border");
        assert!(!layout.card_on_screen(1, 9), "only its top border");
        assert!(layout.card_on_screen(1, 10));
    }
}
