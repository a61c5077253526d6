//! The pager's state and its event handling. Drawing lives in `view.rs`; this file only
//! decides what a key or mouse event does to the state.

use super::exercise::{Card, Confirm, EngineRunner, ExerciseRunner, Pane, Running};
use super::markdown::{self, Document, SlotKind};
use super::strings::{self, Strings};
use super::theme::Theme;
use crate::lesson::{Catalog, Exercise, Lang};
use crate::progress::{Progress, QuizState, Store, quiz_key};
use crate::run::{RunOptions, RunReport};
use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseEventKind};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::TryRecvError;
use std::time::{Duration, Instant};

/// Width of the table of contents pane when shown.
pub const TOC_WIDTH: u16 = 30;
/// Below this terminal width the contents pane is hidden so the text keeps room.
pub const TOC_MIN_TERMINAL_WIDTH: u16 = 70;
const WHEEL_LINES: usize = 3;
/// Edits are saved this long after the first unsaved change.
pub const SAVE_DEBOUNCE: Duration = Duration::from_millis(500);

/// Where the live cards sit in the page as drawn: per slot (top row, height) in page rows,
/// and the page's total height (text lines plus cards).
pub(super) struct Geometry {
    pub slots: Vec<(usize, usize)>,
    pub total: usize,
}

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
    /// Top-left of the page text at the last draw, for mouse clicks on cards.
    pub(super) text_origin: Cell<(u16, u16)>,
    /// Terminal width at the last draw (result panes go beside the editor when wide).
    pub(super) term_width: Cell<u16>,
    pub(super) runner: Arc<dyn ExerciseRunner>,
    pub(super) backend_label: String,
    /// Every exercise of the catalog, by id, with the learner's code.
    pub cards: HashMap<String, Card>,
    /// The focused card: an index into the current lesson's slots.
    pub focus: Option<usize>,
    /// True while the focused exercise's editor has the keys.
    pub editing: bool,
    pub confirm: Option<Confirm>,
    /// CUDA_LAUNCH_BLOCKING=1 for the next run (`b`).
    pub launch_blocking: bool,
    pub(super) running: Option<Running>,
    store: Option<Store>,
    dirty_since: Option<Instant>,
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
        let theme_for_cards = theme;
        let cards = catalog
            .lessons
            .iter()
            .flat_map(|l| l.exercises.iter())
            .map(|e| {
                let saved = progress
                    .exercises
                    .get(&e.id)
                    .and_then(|s| s.code.as_deref());
                (
                    e.id.clone(),
                    Card::new(&e.start_code, saved, theme_for_cards),
                )
            })
            .collect();
        let runner: Arc<dyn ExerciseRunner> = Arc::new(EngineRunner::new(RunOptions::default()));
        App {
            backend_label: runner.backend_label(),
            runner,
            cards,
            focus: None,
            editing: false,
            confirm: None,
            launch_blocking: false,
            running: None,
            store: None,
            dirty_since: None,
            term_width: Cell::new(80),
            text_origin: Cell::new((0, 0)),
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

    /// Runs exercises with `runner` (the default runs them through [`crate::run`] with default options).
    pub fn with_runner(mut self, runner: Arc<dyn ExerciseRunner>) -> App {
        self.backend_label = runner.backend_label();
        self.runner = runner;
        self
    }

    /// Saves edits and answers to `store` as the learner works (debounced), not only at quit.
    pub fn with_store(mut self, store: Store) -> App {
        self.store = Some(store);
        self
    }

    pub fn backend_label(&self) -> &str {
        &self.backend_label
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
        self.geometry(w).total
    }

    /// Card positions and the page height at text width `width`.
    pub(super) fn geometry(&self, width: u16) -> Geometry {
        let kinds: Vec<(SlotKind, usize)> = {
            let doc = self.document(width);
            doc.slots.iter().map(|s| (s.kind.clone(), s.line)).collect()
        };
        let lines = self.document(width).lines.len();
        let mut extra = 0;
        let mut slots = Vec::with_capacity(kinds.len());
        for (kind, line) in &kinds {
            let h = self.slot_height(kind, width);
            slots.push((line + extra, h));
            extra += h;
        }
        Geometry {
            slots,
            total: lines + extra,
        }
    }

    /// The page row of rendered text line `line` (cards above it push it down).
    pub(super) fn page_row(&self, line: usize) -> usize {
        let (w, _) = self.viewport.get();
        let lines: Vec<usize> = self.document(w).slots.iter().map(|s| s.line).collect();
        let geo = self.geometry(w);
        line + lines
            .iter()
            .zip(&geo.slots)
            .filter(|(l, _)| **l <= line)
            .map(|(_, (_, h))| h)
            .sum::<usize>()
    }

    fn slot_kinds(&self) -> Vec<SlotKind> {
        let (w, _) = self.viewport.get();
        self.document(w)
            .slots
            .iter()
            .map(|s| s.kind.clone())
            .collect()
    }

    pub(super) fn exercise(&self, id: &str) -> Option<&Exercise> {
        self.catalog
            .lessons
            .get(self.current)?
            .exercises
            .iter()
            .find(|e| e.id == id)
    }

    /// The id of the exercise whose editor has the keys.
    pub(super) fn editing_id(&self) -> Option<String> {
        if !self.editing {
            return None;
        }
        match self.focused_kind()? {
            SlotKind::Exercise(id) => Some(id),
            SlotKind::Quiz(_) => None,
        }
    }

    fn editing_card_mut(&mut self) -> Option<&mut Card> {
        let id = self.editing_id()?;
        self.cards.get_mut(&id)
    }

    fn focused_kind(&self) -> Option<SlotKind> {
        self.slot_kinds().get(self.focus?).cloned()
    }

    /// What the footer describes: the focused card (and whether it is being edited).
    pub fn focused_exercise(&self) -> Option<String> {
        match self.focused_kind()? {
            SlotKind::Exercise(id) => Some(id),
            SlotKind::Quiz(_) => None,
        }
    }

    pub fn focused_quiz(&self) -> Option<usize> {
        match self.focused_kind()? {
            SlotKind::Quiz(n) => Some(n),
            SlotKind::Exercise(_) => None,
        }
    }

    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// True while something needs the event loop to wake up soon: a run (the spinner and its
    /// report) or edits waiting to be saved.
    pub fn busy(&self) -> bool {
        self.running.is_some() || self.dirty_since.is_some()
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
        self.focus = None;
        self.editing = false;
        self.confirm = None;
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
        let lines: Vec<usize> = lines.into_iter().map(|l| self.page_row(l)).collect();
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
            .position(|&(l, _)| self.page_row(l) >= self.scroll)
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
        let line = self.page_row(line);
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
                        return true;
                    }
                    self.click_card(mouse.column, mouse.row)
                }
                _ => false,
            },
            Event::Paste(text) => {
                // Pasted text goes into the editor as it is (no auto-indent per line).
                let Some(id) = self.editing_id() else {
                    return false;
                };
                if let Some(card) = self.cards.get_mut(&id) {
                    let text = text.replace("\r\n", "\n").replace('\r', "\n");
                    if card.editor.insert_str(text.replace('\t', "    ")) {
                        self.edited(&id);
                    }
                }
                true
            }
            Event::Resize(..) => {
                self.scroll_to(self.scroll);
                true
            }
            _ => false,
        }
    }

    pub fn handle_key(&mut self, key: KeyEvent) {
        if key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL) {
            // Ctrl-C cancels a run, copies a selection in the editor, else quits.
            if let Some(running) = &self.running {
                running.cancel.store(true, Ordering::SeqCst);
                self.status = Some(self.strings().cancelling.to_string());
            } else if let Some(card) = self.editing_card_mut()
                && card.editor.is_selecting()
            {
                card.editor.copy();
            } else {
                self.quit = true;
            }
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
            Mode::Normal => {
                // The focused card sees the key first; what it leaves goes to the pager.
                if !self.card_key(key) {
                    self.normal_key(key);
                }
            }
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

    // ----- Live cards -----

    /// Keys for the focused card (or Tab to focus one). Returns whether the key was used.
    fn card_key(&mut self, key: KeyEvent) -> bool {
        let Some(index) = self.focus else {
            return match key.code {
                KeyCode::Tab => self.move_focus(true),
                KeyCode::BackTab => self.move_focus(false),
                _ => false,
            };
        };
        let Some(kind) = self.slot_kinds().get(index).cloned() else {
            self.focus = None;
            self.editing = false;
            return false;
        };
        if let Some(confirm) = self.confirm.take() {
            if matches!(key.code, KeyCode::Char('y' | 'Y') | KeyCode::Enter)
                && let SlotKind::Exercise(id) = &kind
            {
                self.confirmed(id, confirm);
            }
            return true;
        }
        match kind {
            SlotKind::Exercise(id) if self.editing => {
                self.editor_key(&id, key);
                if self.editing {
                    self.show_editor(index, &id);
                }
                true
            }
            SlotKind::Exercise(id) => self.exercise_key(&id, key),
            SlotKind::Quiz(n) => self.quiz_answer_key(n, key),
        }
    }

    /// Tab / Shift-Tab: the next / previous card, starting from what is on screen.
    fn move_focus(&mut self, forward: bool) -> bool {
        let (w, _) = self.viewport.get();
        let geo = self.geometry(w);
        let n = geo.slots.len();
        if n == 0 {
            return false;
        }
        let next = match self.focus {
            Some(i) if forward => (i + 1) % n,
            Some(i) => (i + n - 1) % n,
            None if forward => geo
                .slots
                .iter()
                .position(|(top, h)| top + h > self.scroll)
                .unwrap_or(0),
            None => geo
                .slots
                .iter()
                .rposition(|(top, _)| *top < self.scroll + self.page())
                .unwrap_or(n - 1),
        };
        self.focus = Some(next);
        self.editing = false;
        self.show_slot(next);
        true
    }

    /// Scrolls so the card's top is on screen (and as much of it as fits).
    fn show_slot(&mut self, index: usize) {
        let (w, _) = self.viewport.get();
        let geo = self.geometry(w);
        let Some(&(top, height)) = geo.slots.get(index) else {
            return;
        };
        let page = self.page();
        if top < self.scroll || top + height.min(page) > self.scroll + page {
            self.scroll_to(top.saturating_sub(1));
        }
    }

    /// A click on a card focuses it (a click on the focused exercise's code opens the editor).
    fn click_card(&mut self, column: u16, row: u16) -> bool {
        let (x, y) = self.text_origin.get();
        let (w, h) = self.viewport.get();
        if column < x || column >= x + w || row < y || row >= y + h {
            return false;
        }
        let page_row = self.scroll + usize::from(row - y);
        let geo = self.geometry(w);
        let Some(index) = geo
            .slots
            .iter()
            .position(|(top, height)| page_row >= *top && page_row < top + height)
        else {
            return false;
        };
        let is_exercise = matches!(self.slot_kinds().get(index), Some(SlotKind::Exercise(_)));
        if self.focus == Some(index) && is_exercise {
            self.editing = true;
        } else {
            self.focus = Some(index);
            self.editing = false;
        }
        self.confirm = None;
        true
    }

    /// Scrolls down just enough for the card's bottom (its result panes) to be on screen,
    /// never past the card's top.
    fn show_slot_end(&mut self, index: usize) {
        let (w, _) = self.viewport.get();
        let geo = self.geometry(w);
        let Some(&(top, height)) = geo.slots.get(index) else {
            return;
        };
        let page = self.page();
        let want = (top + height).saturating_sub(page).min(top);
        if self.scroll < want {
            self.scroll_to(want);
        }
    }

    /// While editing: keeps the whole editor (so the cursor) on screen as the code grows.
    fn show_editor(&mut self, index: usize, id: &str) {
        let (w, _) = self.viewport.get();
        let geo = self.geometry(w);
        let Some(&(top, _)) = geo.slots.get(index) else {
            return;
        };
        let editor_h = self
            .exercise_plan(id, w)
            .map_or(1, |p| usize::from(p.editor_h));
        let page = self.page();
        // The card's top border, then the editor rows.
        let bottom = top + 1 + editor_h;
        if top < self.scroll {
            self.scroll_to(top);
        } else if bottom > self.scroll + page {
            self.scroll_to((bottom.saturating_sub(page)).min(top));
        }
    }

    /// Keys on a focused exercise card when its editor is not open.
    fn exercise_key(&mut self, id: &str, key: KeyEvent) -> bool {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        match key.code {
            KeyCode::Enter | KeyCode::Char('i') if !ctrl => {
                self.editing = true;
                if let Some(i) = self.focus {
                    self.show_slot(i);
                }
            }
            KeyCode::F(5) => self.start_run(id),
            KeyCode::Char('r') if ctrl => self.start_run(id),
            KeyCode::Char('r') => self.start_run(id),
            KeyCode::Char('h') | KeyCode::F(2) => self.reveal_hint(id),
            KeyCode::Char('s') => {
                let shown = self.cards.get(id).is_some_and(|c| c.solution_shown);
                if shown {
                    if let Some(card) = self.cards.get_mut(id) {
                        card.solution_shown = false;
                    }
                } else if self.exercise(id).is_some_and(|e| e.solution.is_some()) {
                    self.confirm = Some(Confirm::Solution);
                } else {
                    self.status = Some(self.strings().no_solution.to_string());
                }
            }
            KeyCode::Char('x') => self.confirm = Some(Confirm::Reset),
            KeyCode::Char('b') | KeyCode::F(6) => self.launch_blocking = !self.launch_blocking,
            KeyCode::Up | KeyCode::Down if key.modifiers.contains(KeyModifiers::SHIFT) => {
                let lines = self
                    .cards
                    .get(id)
                    .and_then(|c| c.report.as_ref())
                    .map_or(0, |r| r.stdout.lines().count() + r.stderr.lines().count());
                if let Some(card) = self.cards.get_mut(id) {
                    card.output_back = if key.code == KeyCode::Up {
                        (card.output_back + 1).min(lines)
                    } else {
                        card.output_back.saturating_sub(1)
                    };
                }
            }
            KeyCode::Char('o') => self.set_pane(id, Pane::Output),
            KeyCode::Char('m') => self.set_pane(id, Pane::Memory),
            KeyCode::Char('t') => self.set_pane(id, Pane::Timeline),
            KeyCode::Char('c') if !ctrl => self.set_pane(id, Pane::Checks),
            KeyCode::Tab => return self.move_focus(true),
            KeyCode::BackTab => return self.move_focus(false),
            KeyCode::Esc => self.focus = None,
            _ => return false,
        }
        true
    }

    fn set_pane(&mut self, id: &str, pane: Pane) {
        if let Some(card) = self.cards.get_mut(id) {
            card.pane = pane;
        }
        if let Some(i) = self.focus {
            self.show_slot_end(i);
        }
    }

    /// Every key goes to the editor except the few commands it cannot mean: Esc, F-keys and
    /// the Ctrl keys below. Letters are never taken away from the code.
    fn editor_key(&mut self, id: &str, key: KeyEvent) {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        let alt = key.modifiers.contains(KeyModifiers::ALT);
        match key.code {
            KeyCode::Esc => {
                self.editing = false;
                return;
            }
            KeyCode::F(5) => return self.start_run(id),
            KeyCode::Char('r') if ctrl => return self.start_run(id),
            KeyCode::F(2) => return self.reveal_hint(id),
            KeyCode::F(6) => {
                self.launch_blocking = !self.launch_blocking;
                return;
            }
            _ => {}
        }
        let Some(card) = self.cards.get_mut(id) else {
            return;
        };
        let modified = match key.code {
            KeyCode::Char('z') if ctrl => card.editor.undo(),
            KeyCode::Char('y') if ctrl => card.editor.redo(),
            KeyCode::Char('a') if ctrl => {
                card.editor.select_all();
                false
            }
            KeyCode::Char('x') if ctrl => card.editor.cut(),
            KeyCode::Char('v') if ctrl => card.editor.paste(),
            KeyCode::Enter if !ctrl && !alt => {
                card.newline_with_indent();
                true
            }
            KeyCode::Tab => card.editor.insert_tab(),
            KeyCode::BackTab => card.dedent(),
            // Other Ctrl / Alt letters: the editor's cursor movements (Ctrl-a/e/f/b …), but
            // not its own undo / redo / paste bindings, which differ from the ones above.
            KeyCode::Char('u' | 'r' | 'y') if ctrl => false,
            KeyCode::F(_) => false,
            _ => card.editor.input(key),
        };
        if modified {
            self.edited(id);
        }
    }

    /// Records the learner's code in progress (saved after the debounce).
    fn edited(&mut self, id: &str) {
        let Some(card) = self.cards.get(id) else {
            return;
        };
        let code = card.code();
        let start = card.start_code.trim_end_matches('\n');
        let state = self.progress.exercises.entry(id.to_string()).or_default();
        let new = (code != start).then_some(code);
        if state.code != new {
            state.code = new;
            self.mark_dirty();
        }
    }

    fn mark_dirty(&mut self) {
        if self.dirty_since.is_none() {
            self.dirty_since = Some(Instant::now());
        }
    }

    fn reveal_hint(&mut self, id: &str) {
        let total = self.exercise(id).map_or(0, |e| e.hints.len());
        let s = self.strings();
        if let Some(card) = self.cards.get_mut(id) {
            if card.hints_shown < total {
                card.hints_shown += 1;
            } else {
                self.status = Some(s.no_more_hints.to_string());
            }
        }
    }

    fn confirmed(&mut self, id: &str, confirm: Confirm) {
        let theme = self.theme;
        match confirm {
            Confirm::Reset => {
                if let Some(card) = self.cards.get_mut(id) {
                    let start = card.start_code.clone();
                    card.set_code(&start, theme);
                    self.status = Some(self.strings().reset_done.to_string());
                    self.edited(id);
                }
            }
            Confirm::Solution => {
                if let Some(card) = self.cards.get_mut(id) {
                    card.solution_shown = true;
                }
            }
        }
    }

    fn quiz_answer_key(&mut self, number: usize, key: KeyEvent) -> bool {
        match key.code {
            KeyCode::Char(c @ '1'..='9') => {
                let Some(lesson) = self.catalog.lessons.get(self.current) else {
                    return true;
                };
                let Some(quiz) = lesson.quizzes.get(number - 1) else {
                    return true;
                };
                let answer = c as usize - '0' as usize;
                if answer > quiz.choices.len() {
                    return true;
                }
                let state = QuizState {
                    answer,
                    correct: answer == quiz.answer,
                };
                let key = quiz_key(&lesson.id, number);
                self.progress.quizzes.insert(key, state);
                self.mark_dirty();
                true
            }
            KeyCode::Tab => self.move_focus(true),
            KeyCode::BackTab => self.move_focus(false),
            KeyCode::Esc => {
                self.focus = None;
                true
            }
            _ => false,
        }
    }

    /// Starts the exercise's code and checks on a background thread; the report comes back
    /// through a channel that `tick` polls, so the UI keeps drawing meanwhile.
    pub fn start_run(&mut self, id: &str) {
        if self.running.is_some() {
            self.status = Some(self.strings().run_in_progress.to_string());
            return;
        }
        let (Some(card), Some(exercise)) = (self.cards.get(id), self.exercise(id)) else {
            return;
        };
        let code = card.code() + "\n";
        let check = exercise.check.clone();
        let cancel = Arc::new(AtomicBool::new(false));
        let lesson_lang = self
            .catalog
            .lessons
            .get(self.current)
            .map_or("en", |l| l.lang.as_str());
        let mut opts = RunOptions {
            gpus: exercise.gpus,
            launch_blocking: self.launch_blocking,
            cancel: Some(cancel.clone()),
            exercise: crate::run::ExerciseContext::of(exercise, lesson_lang),
            ..RunOptions::default()
        };
        if self.launch_blocking {
            opts.env
                .push(("CUDA_LAUNCH_BLOCKING".to_string(), "1".to_string()));
        }
        let (tx, rx) = std::sync::mpsc::channel();
        let runner = self.runner.clone();
        let spawned = std::thread::Builder::new()
            .name("cudatutor-run".into())
            .spawn(move || {
                let report = runner.run(&code, check.as_deref(), &opts);
                let _ = tx.send(report);
            });
        if spawned.is_err() {
            self.status = Some(self.strings().run_lost.to_string());
            return;
        }
        self.running = Some(Running {
            exercise: id.to_string(),
            rx,
            cancel,
            started: Instant::now(),
        });
    }

    fn finish_run(&mut self, id: &str, report: RunReport) {
        let passed = report.checks_passed();
        // The ✓ comes from this record, kept with the fingerprint of the code that ran.
        if let (Some(card), Some(ex)) = (self.cards.get(id), self.exercise(id).cloned()) {
            let code = card.code();
            self.progress.record_check(&ex, &code, &report);
        }
        let s = self.strings();
        if let Some(card) = self.cards.get_mut(id) {
            card.pane = if report.error.is_none() && !report.checks.is_empty() {
                Pane::Checks
            } else {
                Pane::Output
            };
            card.report = Some(report);
            card.output_back = 0;
        }
        // Bring the results into view (the editor stays on screen when both fit).
        let slot = self
            .slot_kinds()
            .iter()
            .position(|k| *k == SlotKind::Exercise(id.to_string()));
        if let Some(i) = slot {
            self.show_slot_end(i);
        }
        if passed {
            self.progress
                .exercises
                .entry(id.to_string())
                .or_default()
                .passed = true;
            self.status = Some(s.checks_passed.to_string());
            self.mark_dirty();
        }
    }

    /// Polls a run in flight and saves pending edits once they are `SAVE_DEBOUNCE` old.
    /// Returns whether the screen should be redrawn. The event loop calls it on every wake-up.
    pub fn tick(&mut self, now: Instant) -> bool {
        let mut redraw = false;
        if let Some(running) = &self.running {
            match running.rx.try_recv() {
                Ok(report) => {
                    let id = running.exercise.clone();
                    self.running = None;
                    self.finish_run(&id, report);
                }
                Err(TryRecvError::Empty) => {}
                Err(TryRecvError::Disconnected) => {
                    self.running = None;
                    self.status = Some(self.strings().run_lost.to_string());
                }
            }
            // The spinner moves, or the report arrived.
            redraw = true;
        }
        if self
            .dirty_since
            .is_some_and(|t| now.saturating_duration_since(t) >= SAVE_DEBOUNCE)
        {
            self.save_now();
            redraw = true;
        }
        redraw
    }

    /// Waits (up to `timeout`) for the run in flight and applies its report; for tests and
    /// for callers without an event loop. Returns whether a run finished.
    pub fn wait_for_run(&mut self, timeout: Duration) -> bool {
        let Some(running) = &self.running else {
            return false;
        };
        match running.rx.recv_timeout(timeout) {
            Ok(report) => {
                let id = running.exercise.clone();
                self.running = None;
                self.finish_run(&id, report);
                true
            }
            Err(_) => false,
        }
    }

    /// Asks a run in flight to stop (at quit, so its thread ends soon).
    pub fn cancel_run(&mut self) {
        if let Some(running) = &self.running {
            running.cancel.store(true, Ordering::SeqCst);
        }
    }

    /// Writes progress now (atomically, through the store); a failure is shown, not fatal.
    pub fn save_now(&mut self) {
        self.dirty_since = None;
        let Some(store) = self.store.clone() else {
            return;
        };
        self.remember_place();
        if let Err(e) = store.save(&self.progress) {
            self.status = Some(format!("{}: {e}", self.strings().save_failed));
        }
    }
}
