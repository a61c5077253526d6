//! The pager's state and its event handling. Drawing lives in `view.rs`; this file only
//! decides what a key or mouse event does to the state.

use super::markdown::{self, Document};
use super::strings::{self, Strings};
use super::theme::Theme;
use crate::lesson::{Catalog, Lang};
use crate::progress::Progress;
use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseEventKind};
use std::cell::{Cell, RefCell};

/// Width of the table of contents pane when shown.
pub const TOC_WIDTH: u16 = 30;
/// Below this terminal width the contents pane is hidden so the text keeps room.
pub const TOC_MIN_TERMINAL_WIDTH: u16 = 70;
const WHEEL_LINES: usize = 3;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mode {
    Normal,
    /// Typing a search query.
    SearchInput(String),
    Help,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Search {
    pub query: String,
    /// (rendered line, char column) of every hit.
    pub hits: Vec<(usize, usize)>,
    pub current: usize,
}

pub struct App {
    pub catalog: Catalog,
    pub lang: Lang,
    pub theme: Theme,
    pub current: usize,
    pub scroll: usize,
    pub toc_open: bool,
    pub mode: Mode,
    pub search: Option<Search>,
    pub status: Option<String>,
    pub quit: bool,
    pub progress: Progress,
    /// The current lesson laid out for the last width drawn, reused until the width changes.
    layout: RefCell<Option<(u16, usize, Document)>>,
    /// Size of the text area at the last draw, so page keys know a page's height.
    pub(super) viewport: Cell<(u16, u16)>,
    /// Where the contents pane was drawn, for mouse clicks: (x, y, width, height).
    pub(super) toc_area: Cell<(u16, u16, u16, u16)>,
}

impl App {
    pub fn new(
        catalog: Catalog,
        lang: Lang,
        theme: Theme,
        progress: Progress,
        start: Option<usize>,
    ) -> App {
        let last = progress
            .last_lesson
            .as_deref()
            .and_then(|id| catalog.position_of_id(id));
        let current = start
            .or(last)
            .unwrap_or(0)
            .min(catalog.lessons.len().saturating_sub(1));
        let scroll = if start.is_some() && start != last {
            0
        } else {
            catalog
                .lessons
                .get(current)
                .and_then(|l| progress.scroll.get(&l.id))
                .copied()
                .unwrap_or(0)
        };
        App {
            catalog,
            lang,
            theme,
            current,
            scroll,
            toc_open: true,
            mode: Mode::Normal,
            search: None,
            status: None,
            quit: false,
            progress,
            layout: RefCell::new(None),
            viewport: Cell::new((80, 20)),
            toc_area: Cell::new((0, 0, 0, 0)),
        }
    }

    pub fn strings(&self) -> &'static Strings {
        strings::for_lang(self.lang)
    }

    /// The current lesson laid out at `width`, computed once per (lesson, width).
    pub fn document(&self, width: u16) -> std::cell::Ref<'_, Document> {
        let stale =
            !matches!(&*self.layout.borrow(), Some((w, l, _)) if *w == width && *l == self.current);
        if stale {
            let body = self
                .catalog
                .lessons
                .get(self.current)
                .map_or("", |l| l.body.as_str());
            let doc = markdown::render(body, width, self.theme, self.strings());
            *self.layout.borrow_mut() = Some((width, self.current, doc));
        }
        std::cell::Ref::map(self.layout.borrow(), |l| {
            &l.as_ref().expect("laid out above").2
        })
    }

    fn doc_len(&self) -> usize {
        let (w, _) = self.viewport.get();
        self.document(w).lines.len()
    }

    fn page(&self) -> usize {
        usize::from(self.viewport.get().1.max(1))
    }

    pub fn max_scroll(&self) -> usize {
        self.doc_len().saturating_sub(self.page())
    }

    fn scroll_to(&mut self, line: usize) {
        self.scroll = line.min(self.max_scroll());
    }

    fn scroll_by(&mut self, delta: isize) {
        let target = self.scroll.saturating_add_signed(delta);
        self.scroll_to(target);
    }

    /// Records where the learner is, for the next start.
    pub fn remember_place(&mut self) {
        if let Some(lesson) = self.catalog.lessons.get(self.current) {
            self.progress.last_lesson = Some(lesson.id.clone());
            self.progress.scroll.insert(lesson.id.clone(), self.scroll);
        }
    }

    pub fn open_lesson(&mut self, index: usize) {
        if index >= self.catalog.lessons.len() || index == self.current {
            return;
        }
        self.remember_place();
        self.current = index;
        self.search = None;
        let id = &self.catalog.lessons[index].id;
        self.scroll = self.progress.scroll.get(id).copied().unwrap_or(0);
        self.scroll_to(self.scroll);
    }

    fn next_lesson(&mut self, forward: bool) {
        let target = if forward {
            self.current + 1
        } else {
            self.current.wrapping_sub(1)
        };
        if target < self.catalog.lessons.len() {
            self.open_lesson(target);
        } else {
            let s = self.strings();
            self.status = Some(
                if forward {
                    s.last_lesson
                } else {
                    s.first_lesson
                }
                .to_string(),
            );
        }
    }

    fn jump_section(&mut self, forward: bool) {
        let (w, _) = self.viewport.get();
        let lines: Vec<usize> = self.document(w).sections.iter().map(|s| s.line).collect();
        let target = if forward {
            lines.into_iter().find(|&l| l > self.scroll)
        } else {
            lines.into_iter().rev().find(|&l| l < self.scroll)
        };
        if let Some(line) = target {
            self.scroll_to(line);
        } else if !forward {
            self.scroll_to(0);
        }
    }

    /// Finds every case-insensitive occurrence of `query` in the rendered lesson.
    pub fn run_search(&mut self, query: String) {
        if query.is_empty() {
            self.search = None;
            return;
        }
        let (w, _) = self.viewport.get();
        let needle = query.to_lowercase();
        let hits: Vec<(usize, usize)> = self
            .document(w)
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
                let needle = needle.clone();
                text.match_indices(&needle)
                    .map(|(byte, _)| (i, text[..byte].chars().count()))
                    .collect::<Vec<_>>()
            })
            .collect();
        if hits.is_empty() {
            self.status = Some(format!("{}: {query}", self.strings().no_match));
            self.search = None;
            return;
        }
        let current = hits
            .iter()
            .position(|&(l, _)| l >= self.scroll)
            .unwrap_or(0);
        self.search = Some(Search {
            query,
            hits,
            current,
        });
        self.show_current_hit();
    }

    fn step_hit(&mut self, forward: bool) {
        if let Some(s) = self.search.as_mut() {
            let n = s.hits.len();
            s.current = if forward {
                (s.current + 1) % n
            } else {
                (s.current + n - 1) % n
            };
        }
        self.show_current_hit();
    }

    /// Scrolls so the current hit is visible, a third of the way down the page.
    fn show_current_hit(&mut self) {
        let Some(line) = self
            .search
            .as_ref()
            .and_then(|s| s.hits.get(s.current))
            .map(|h| h.0)
        else {
            return;
        };
        let page = self.page();
        if line < self.scroll || line >= self.scroll + page {
            self.scroll_to(line.saturating_sub(page / 3));
        }
        if let Some(s) = &self.search {
            self.status = Some(format!(
                "{}/{} {}",
                s.current + 1,
                s.hits.len(),
                self.strings().matches
            ));
        }
    }

    /// Applies one terminal event; returns whether anything changed (so the caller redraws).
    pub fn handle_event(&mut self, event: &Event) -> bool {
        match event {
            Event::Key(key) if key.kind != KeyEventKind::Release => {
                self.handle_key(*key);
                true
            }
            Event::Mouse(mouse) => match mouse.kind {
                MouseEventKind::ScrollDown => {
                    self.scroll_by(WHEEL_LINES as isize);
                    true
                }
                MouseEventKind::ScrollUp => {
                    self.scroll_by(-(WHEEL_LINES as isize));
                    true
                }
                MouseEventKind::Down(_) => {
                    let (x, y, w, h) = self.toc_area.get();
                    let inside = mouse.column >= x
                        && mouse.column < x + w
                        && mouse.row > y
                        && mouse.row < y + h;
                    if inside {
                        // Row 0 is the border; lessons are listed from the row below it.
                        self.open_lesson(usize::from(mouse.row - y - 1));
                    }
                    inside
                }
                _ => false,
            },
            Event::Resize(..) => {
                self.scroll_to(self.scroll);
                true
            }
            _ => false,
        }
    }

    pub fn handle_key(&mut self, key: KeyEvent) {
        if key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL) {
            self.quit = true;
            return;
        }
        self.status = None;
        match &mut self.mode {
            Mode::Help => {
                if matches!(
                    key.code,
                    KeyCode::Esc | KeyCode::Char('?') | KeyCode::Char('q') | KeyCode::Enter
                ) {
                    self.mode = Mode::Normal;
                }
            }
            Mode::SearchInput(query) => match key.code {
                KeyCode::Esc => self.mode = Mode::Normal,
                KeyCode::Enter => {
                    let q = std::mem::take(query);
                    self.mode = Mode::Normal;
                    self.run_search(q);
                }
                KeyCode::Backspace => {
                    query.pop();
                }
                KeyCode::Char(c) if !key.modifiers.contains(KeyModifiers::CONTROL) => query.push(c),
                _ => {}
            },
            Mode::Normal => self.normal_key(key),
        }
    }

    fn normal_key(&mut self, key: KeyEvent) {
        let page = self.page() as isize;
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        match key.code {
            KeyCode::Char('q') => self.quit = true,
            KeyCode::Esc if self.search.is_some() => self.search = None,
            KeyCode::Esc => self.quit = true,
            KeyCode::Char('?') => self.mode = Mode::Help,
            KeyCode::Char('/') => self.mode = Mode::SearchInput(String::new()),
            KeyCode::Char('n') if self.search.is_some() => self.step_hit(true),
            KeyCode::Char('N') if self.search.is_some() => self.step_hit(false),
            KeyCode::Char('n') | KeyCode::Char(']') => self.next_lesson(true),
            KeyCode::Char('p') | KeyCode::Char('[') => self.next_lesson(false),
            KeyCode::Char('t') => self.toc_open = !self.toc_open,
            KeyCode::Char('d') if ctrl => self.scroll_by(page / 2),
            KeyCode::Char('u') if ctrl => self.scroll_by(-page / 2),
            KeyCode::Down | KeyCode::Char('j') => self.scroll_by(1),
            KeyCode::Up | KeyCode::Char('k') => self.scroll_by(-1),
            KeyCode::PageDown | KeyCode::Char(' ') | KeyCode::Char('f') => {
                self.scroll_by(page.max(2) - 1)
            }
            KeyCode::PageUp | KeyCode::Char('b') => self.scroll_by(-(page.max(2) - 1)),
            KeyCode::Home | KeyCode::Char('g') => self.scroll_to(0),
            KeyCode::End | KeyCode::Char('G') => self.scroll_to(usize::MAX),
            KeyCode::Char('}') => self.jump_section(true),
            KeyCode::Char('{') => self.jump_section(false),
            _ => {}
        }
    }
}
