//! The card deck: every exercise card of the catalog (the learner's code, their last run), which
//! card of the open lesson has the focus, and whether its editor is open. The editing keys act
//! here; what needs the rest of the pager (runs, progress, the page) is in `app.rs`.
//!
//! Focus follows the view: a key acts only on a card that is on screen. Scrolling the page (keys,
//! wheel, section jumps, search hits) is the learner moving the view, and a focused card that
//! leaves it loses the focus. Anything else that moves things (a resize, a card growing after a
//! run or a hint, the editor's cursor) moves the view to keep the focused card in it.

use super::exercise::Card;
use super::keys::Action;
use super::layout::PageLayout;
use ratatui_textarea::CursorMove;
use std::collections::HashMap;

pub struct Deck {
    /// Every exercise of the catalog, by id.
    pub cards: HashMap<String, Card>,
    /// The focused card: an index into the open lesson's cards. Only ever a card on screen.
    pub focus: Option<usize>,
    /// The focused exercise's editor has the keys.
    pub editing: bool,
}

impl Deck {
    pub fn new(cards: HashMap<String, Card>) -> Deck {
        Deck {
            cards,
            focus: None,
            editing: false,
        }
    }

    pub(crate) fn unfocus(&mut self) {
        self.focus = None;
        self.editing = false;
    }

    /// Tab / Shift-Tab: the card after / before the focused one; with none focused, the first
    /// (last) card on screen, else the next one below (above) the view.
    pub(crate) fn next_focus(
        &self,
        forward: bool,
        layout: &PageLayout,
        scroll: usize,
    ) -> Option<usize> {
        let n = layout.slots.len();
        if n == 0 {
            return None;
        }
        let on_screen = |i: &usize| layout.card_on_screen(*i, scroll);
        Some(match self.focus {
            Some(i) if forward => (i + 1) % n,
            Some(i) => (i + n - 1) % n,
            None if forward => (0..n)
                .find(on_screen)
                .or_else(|| (0..n).find(|&i| layout.slots[i].top >= scroll))
                .unwrap_or(0),
            None => (0..n)
                .rev()
                .find(on_screen)
                .or_else(|| (0..n).rev().find(|&i| layout.slots[i].top < scroll))
                .unwrap_or(n - 1),
        })
    }

    /// An editing command on card `id` (the editor's keys from the key table). Returns
    /// whether the code changed; None when the action is not an editing one.
    pub fn edit(&mut self, id: &str, action: Action, page: usize) -> Option<bool> {
        let card = self.cards.get_mut(id)?;
        let modified = match action {
            Action::Undo => card.undo(),
            Action::Redo => card.redo(),
            Action::Cut => card.edit(|e| e.cut()),
            Action::Paste => card.edit(|e| e.paste()),
            Action::SelectAll => {
                card.select_all();
                false
            }
            Action::BufferStart => {
                card.move_cursor(CursorMove::Top);
                card.move_cursor(CursorMove::Head);
                false
            }
            Action::BufferEnd => {
                card.move_cursor(CursorMove::Bottom);
                card.move_cursor(CursorMove::End);
                false
            }
            Action::Indent => card.edit(|e| e.insert_tab()),
            Action::Dedent => card.dedent(),
            Action::NewLine => card.newline_with_indent(),
            Action::Backspace => card.backspace(),
            Action::EditorPageUp | Action::EditorPageDown => {
                let (row, col) = card.cursor();
                let page = page.max(1);
                let row = if action == Action::EditorPageUp {
                    row.saturating_sub(page)
                } else {
                    (row + page).min(card.lines().len().saturating_sub(1))
                };
                let col = col.min(card.lines().get(row).map_or(0, |l| l.chars().count()));
                card.move_cursor(CursorMove::Jump(
                    row.min(usize::from(u16::MAX)) as u16,
                    col.min(usize::from(u16::MAX)) as u16,
                ));
                false
            }
            _ => return None,
        };
        Some(modified)
    }

    /// Shift-arrows on a card: its output scrolled back (up) / forward, or sideways. The
    /// output pane is `width` x `height`: scrolling back stops when its first row is at the
    /// top (counted in the rows the pane shows, wrapped lines included; see
    /// `output::max_back`).
    pub(crate) fn scroll_output(&mut self, id: &str, action: Action, width: usize, height: usize) {
        let Some(card) = self.cards.get_mut(id) else {
            return;
        };
        let lines = card
            .report
            .as_ref()
            .map_or(0, |r| super::panes::output::max_back(r, width, height));
        let widest = card.report.as_ref().map_or(0, |r| {
            r.stdout
                .lines()
                .chain(r.stderr.lines())
                .map(|l| super::exercise::display_width(l.chars()))
                .max()
                .unwrap_or(0)
        });
        match action {
            Action::OutputBack => card.output_back = (card.output_back + 1).min(lines),
            Action::OutputForward => card.output_back = card.output_back.saturating_sub(1),
            Action::OutputLeft => card.output_left = card.output_left.saturating_sub(8),
            Action::OutputRight => card.output_left = (card.output_left + 8).min(widest),
            _ => {}
        }
    }
}
