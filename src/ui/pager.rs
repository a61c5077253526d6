//! The pager component: which lesson is open, where the page is scrolled (down and, for code
//! blocks, sideways), the search and the contents pane. It knows the lesson text laid out
//! (`Document`, cached per width before drawing) and the page's geometry (`PageLayout`), and
//! nothing about cards beyond their place in the page.

use super::layout::{At, PageLayout};
use super::markdown::Document;
use crate::progress::Place;
use std::borrow::Cow;

/// Columns the code blocks move per ← / →.
pub(super) const CODE_STEP: usize = 8;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Search {
    pub query: String,
    /// (rendered line, char column) of every hit.
    pub hits: Vec<(usize, usize)>,
    pub current: usize,
}

pub struct Pager {
    pub current: usize,
    /// First page row on screen.
    pub scroll: usize,
    /// Columns the code blocks are scrolled sideways.
    pub code_left: usize,
    /// The lesson list (contents pane) as the learner last set it with `t`; None until then:
    /// shown when the terminal is wide enough (`layout::TOC_AUTO_WIDTH`), folded away below.
    pub toc_open: Option<bool>,
    pub search: Option<Search>,
    /// The current lesson laid out for the width last prepared: (width, lesson, document).
    cache: Option<(u16, usize, Document)>,
    /// A saved place to go to once the page's size is known (at start and each resize until
    /// the learner moves).
    pub pending_place: Option<Place>,
}

impl Pager {
    pub fn new(current: usize) -> Pager {
        Pager {
            current,
            scroll: 0,
            code_left: 0,
            toc_open: None,
            search: None,
            cache: None,
            pending_place: None,
        }
    }

    /// Whether the lesson list is shown in a terminal `width` columns wide.
    pub(crate) fn toc_shown(&self, width: u16) -> bool {
        self.toc_open
            .unwrap_or(width >= super::layout::TOC_AUTO_WIDTH)
    }

    /// The cached document when it was laid out for (`width`, the current lesson).
    pub fn cached(&self, width: u16) -> Option<&Document> {
        match &self.cache {
            Some((w, lesson, doc)) if *w == width && *lesson == self.current => Some(doc),
            _ => None,
        }
    }

    /// Lays out the current lesson at `width` (once per lesson and width), before drawing.
    pub fn prepare(&mut self, width: u16, layout: impl FnOnce() -> Document) {
        if self.cached(width).is_none() {
            self.cache = Some((width, self.current, layout()));
        }
    }

    /// The document at `width`: the cached one, or laid out now without keeping it.
    pub(crate) fn document(
        &self,
        width: u16,
        layout: impl FnOnce() -> Document,
    ) -> Cow<'_, Document> {
        match self.cached(width) {
            Some(doc) => Cow::Borrowed(doc),
            None => Cow::Owned(layout()),
        }
    }

    pub(crate) fn scroll_to(&mut self, row: usize, layout: &PageLayout) {
        self.scroll = row.min(layout.max_scroll());
    }

    pub(crate) fn scroll_by(&mut self, delta: isize, layout: &PageLayout) {
        self.scroll_to(self.scroll.saturating_add_signed(delta), layout);
    }

    /// `{` / `}`: the previous / next heading.
    pub(crate) fn jump_section(&mut self, forward: bool, doc: &Document, layout: &PageLayout) {
        let rows: Vec<usize> = doc
            .sections
            .iter()
            .map(|s| layout.page_row(s.line))
            .collect();
        let target = if forward {
            rows.into_iter().find(|&r| r > self.scroll)
        } else {
            rows.into_iter().rev().find(|&r| r < self.scroll)
        };
        match target {
            Some(row) => self.scroll_to(row, layout),
            None if !forward => self.scroll = 0,
            None => {}
        }
    }

    /// ← / →: code blocks sideways, up to where the widest line's end shows.
    pub(crate) fn code_sideways(&mut self, right: bool, doc: &Document, layout: &PageLayout) {
        let room = usize::from(layout.text.width).saturating_sub(2);
        let max = doc.code_width.saturating_sub(room);
        self.code_left = if right {
            (self.code_left + CODE_STEP).min(max)
        } else {
            self.code_left.saturating_sub(CODE_STEP)
        };
    }

    /// Finds every case-insensitive occurrence of `query`; returns the hit count (0: none,
    /// and the search is cleared).
    pub(crate) fn search_for(
        &mut self,
        query: String,
        doc: &Document,
        layout: &PageLayout,
    ) -> usize {
        if query.is_empty() {
            self.search = None;
            return 0;
        }
        let needle = query.to_lowercase();
        let hits: Vec<(usize, usize)> = doc
            .lines
            .iter()
            .enumerate()
            .flat_map(|(i, line)| {
                let text: String = line
                    .spans
                    .iter()
                    .map(|s| s.content.as_ref())
                    .collect::<String>()
                    .to_lowercase();
                text.match_indices(&needle)
                    .map(|(byte, _)| (i, text[..byte].chars().count()))
                    .collect::<Vec<_>>()
            })
            .collect();
        if hits.is_empty() {
            self.search = None;
            return 0;
        }
        let current = hits
            .iter()
            .position(|&(l, _)| layout.page_row(l) >= self.scroll)
            .unwrap_or(0);
        let n = hits.len();
        self.search = Some(Search {
            query,
            hits,
            current,
        });
        self.show_current_hit(layout);
        n
    }

    pub(crate) fn step_hit(&mut self, forward: bool, layout: &PageLayout) {
        if let Some(s) = self.search.as_mut() {
            let n = s.hits.len();
            s.current = if forward {
                (s.current + 1) % n
            } else {
                (s.current + n - 1) % n
            };
        }
        self.show_current_hit(layout);
    }

    /// Scrolls so the current hit is visible, a third of the way down the page.
    fn show_current_hit(&mut self, layout: &PageLayout) {
        let Some(line) = self
            .search
            .as_ref()
            .and_then(|s| s.hits.get(s.current))
            .map(|h| h.0)
        else {
            return;
        };
        let page = layout.page();
        let row = layout.page_row(line);
        if row < self.scroll || row >= self.scroll + page {
            self.scroll_to(row.saturating_sub(page / 3), layout);
        }
    }

    /// Where the top of the screen is, independent of width and card heights.
    pub fn place(&self, doc: &Document, layout: &PageLayout) -> Place {
        match layout.at(self.scroll) {
            At::Card(index, row) => {
                let line = layout.slot_lines.get(index).copied().unwrap_or(0);
                let (origin, nth) = doc.place_of(line);
                Place {
                    origin,
                    nth,
                    card: Some((index, row)),
                }
            }
            At::Text(line) => {
                let (origin, nth) = doc.place_of(line);
                Place {
                    origin,
                    nth,
                    card: None,
                }
            }
        }
    }

    /// Scrolls to a saved place.
    pub(crate) fn go_to(&mut self, place: &Place, doc: &Document, layout: &PageLayout) {
        let row = match place.card {
            Some((index, row)) if index < layout.slots.len() => {
                let slot = layout.slots[index];
                slot.top + row.min(slot.height.saturating_sub(1))
            }
            _ => layout.page_row(doc.line_of(place.origin, place.nth)),
        };
        self.scroll_to(row, layout);
    }
}
