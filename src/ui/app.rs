//! The App composes the pager's components — the pager (`pager.rs`), the card deck
//! (`deck.rs`), the run controller (`runs.rs`) and the session (`session.rs`) — and routes
//! events to them: a key is looked up in the one key table (`keys.rs`) for the current
//! context and the action it names is applied here. Drawing is `impl Widget for &App`
//! (`view.rs`, `card.rs`), which only reads: the layout it draws is the one events use,
//! computed from the state and the size set by `resize`.

use super::deck::Deck;
use super::exercise::{Card, EngineRunner, ExerciseRunner, Pane};
use super::keys::{self, Action, Context};
use super::layout::{self, PageLayout};
use super::markdown::{self, Document, SlotKind};
use super::pager::Pager;
use super::runs::{Job, Outcome, RunController, StartError, Stop};
use super::session::Session;
use super::strings::{self, Strings};
use super::theme::Theme;
use crate::lesson::{Catalog, Exercise, Lang};
use crate::progress::{Progress, Store};
use crate::run::RunOptions;
use crate::units::fmt_secs;
use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseEventKind};
use ratatui::layout::Rect;
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

pub use super::session::SAVE_DEBOUNCE;

const WHEEL_LINES: isize = 3;
/// The size assumed until the first `resize`.
const DEFAULT_SIZE: (u16, u16) = (80, 24);

/// What is open over the page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Overlay {
    None,
    Help {
        scroll: usize,
    },
    /// The lesson list, driven from the keyboard.
    Lessons {
        selected: usize,
    },
    /// Typing a search query.
    SearchInput(String),
    /// The last comparison (`D`): engine vs. real PyTorch.
    Compare {
        scroll: usize,
    },
    /// `!`: the traceback being pasted.
    ExplainInput(String),
    /// Its explanation (see [`App::explain_lines`]), and the lesson section it links to.
    Explained {
        scroll: usize,
        pasted: String,
        link: Option<crate::explain::LessonLink>,
    },
}

/// A yes/no question in the footer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Confirm {
    Reset(String),
    Restore(String),
    Solution(String),
    /// Quitting while a run is going, or when the work could not be saved (why).
    Quit(Option<String>),
    /// A save wrote this window's code for the exercise over code another window had saved
    /// since this one loaded it (kept in `previous_code`): keep mine, take theirs, keep both.
    Conflict(String),
}

/// After a key: did the learner move the view (a focused card that left it loses the focus),
/// or did the page change under the view (the view keeps the focused card in it)?
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Follow {
    View,
    Focus,
}

pub struct App {
    pub catalog: Catalog,
    pub lang: Lang,
    pub theme: Theme,
    pub pager: Pager,
    pub deck: Deck,
    pub runs: RunController,
    pub session: Session,
    pub overlay: Overlay,
    pub confirm: Option<Confirm>,
    /// A message for the footer until the next key.
    pub status: Option<String>,
    /// Printable card keys that just acted in a row (`o`, `r` of "origin"): when the next
    /// printable key turns out to be code, the footer names them, so none acted silently.
    card_letters: Vec<char>,
    pub quit: bool,
    /// CUDA_LAUNCH_BLOCKING=1 for every run (`cudatutor lesson --launch-blocking`): the
    /// learner's chosen environment, graded as usual.
    pub launch_blocking: bool,
    /// `b`: CUDA_LAUNCH_BLOCKING=1 for the next run of this exercise only. That run is an
    /// experiment: shown, never graded, so it cannot turn a ✓ into a ✗ or count as an attempt.
    pub blocking_next: Option<String>,
    /// The exercise whose run in flight is `b`'s experiment.
    experiment: Option<String>,
    /// The outside editor's command for `e` (None: $VISUAL, else $EDITOR).
    pub edit_cmd: Option<String>,
    /// `e` asked for the outside editor on this exercise: the event loop hands the terminal
    /// over ([`App::take_outside_edit`], then [`App::edit_outside`]).
    outside_edit: Option<String>,
    /// The last comparison (`D`): the exercise and what differed.
    pub comparison: Option<(String, crate::run::diff::DiffReport)>,
    /// A section to show once the real terminal size is known (`lesson N --section`).
    pending_section: Option<(usize, String)>,
    size: Rect,
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
        let mut pager = Pager::new(current);
        let resume = start.is_none() || start == last;
        if let Some(lesson) = catalog.lessons.get(current).filter(|_| resume) {
            pager.scroll = progress.scroll.get(&lesson.id).copied().unwrap_or(0);
            pager.pending_place = progress.places.get(&lesson.id).cloned();
        }
        let cards: HashMap<String, Card> = catalog
            .lessons
            .iter()
            .flat_map(|l| l.exercises.iter())
            .map(|e| {
                let saved = progress
                    .exercises
                    .get(&e.id)
                    .and_then(|s| s.code.as_deref());
                let mut card = Card::new(&e.start_code, saved);
                // Revealed hints stay revealed, here or with `cudatutor hint`.
                let cli_hints = progress
                    .stats
                    .get(&e.id)
                    .map_or(0, |s| s.hints_revealed as usize);
                card.hints_shown = progress
                    .hints
                    .get(&e.id)
                    .copied()
                    .unwrap_or(0)
                    .max(cli_hints)
                    .min(e.hints.len());
                // The last run survives a restart.
                if let Some(run) = progress.last_runs.get(&e.id) {
                    card.report = Some(run.report.clone());
                    card.ran_code = Some(run.code.clone());
                    card.pane = first_pane(&run.report);
                }
                (e.id.clone(), card)
            })
            .collect();
        let runner: Arc<dyn ExerciseRunner> = Arc::new(EngineRunner::new(RunOptions::default()));
        let mut app = App {
            catalog,
            lang,
            theme,
            pager,
            deck: Deck::new(cards),
            runs: RunController::new(runner),
            session: Session::new(progress),
            overlay: Overlay::None,
            confirm: None,
            status: None,
            card_letters: Vec::new(),
            quit: false,
            launch_blocking: false,
            blocking_next: None,
            experiment: None,
            edit_cmd: None,
            outside_edit: None,
            comparison: None,
            pending_section: None,
            size: Rect::new(0, 0, DEFAULT_SIZE.0, DEFAULT_SIZE.1),
        };
        app.resize(DEFAULT_SIZE.0, DEFAULT_SIZE.1);
        app
    }

    /// Runs exercises with `runner` (the default runs them through [`crate::run`] with default
    /// options).
    pub fn with_runner(mut self, runner: Arc<dyn ExerciseRunner>) -> App {
        self.runs = RunController::new(runner);
        self
    }

    /// Saves edits and answers to `store` as the learner works (debounced), not only at quit.
    pub fn with_store(mut self, store: Store) -> App {
        self.session.set_store(store);
        self
    }

    pub fn strings(&self) -> &'static Strings {
        strings::for_lang(self.lang)
    }

    pub fn progress(&self) -> &Progress {
        &self.session.progress
    }

    pub fn card(&self, id: &str) -> Option<&Card> {
        self.deck.cards.get(id)
    }

    pub fn backend_label(&self) -> String {
        strings::backend_label(&self.runs.backend_label(), self.strings())
    }

    pub fn size(&self) -> Rect {
        self.size
    }

    pub fn focus(&self) -> Option<usize> {
        self.deck.focus
    }

    pub fn editing(&self) -> bool {
        self.deck.editing && self.focused_exercise().is_some()
    }

    pub fn is_running(&self) -> bool {
        self.runs.is_running()
    }

    /// True while something needs the event loop to wake up soon: a run (the spinner and its
    /// report) or edits waiting to be saved.
    pub fn busy(&self) -> bool {
        self.runs.is_running() || self.session.pending()
    }

    // ----- Layout -----

    fn lay_out(&self, width: u16) -> Document {
        let body = self
            .catalog
            .lessons
            .get(self.pager.current)
            .map_or("", |l| l.body.as_str());
        markdown::render(body, width, self.theme, self.strings())
    }

    /// The open lesson laid out at `width` (cached for the current size).
    pub(crate) fn document_at(&self, width: u16) -> Cow<'_, Document> {
        self.pager.document(width, || self.lay_out(width))
    }

    /// The open lesson laid out for the current size.
    pub(crate) fn document(&self) -> Cow<'_, Document> {
        self.document_at(self.layout_frame(self.size).text.width)
    }

    fn layout_frame(&self, area: Rect) -> PageLayout {
        layout::frame(area, self.pager.toc_shown(area.width))
    }

    /// Where everything goes in a terminal of `area`: the rectangles and each card's rows.
    pub(crate) fn layout_for(&self, area: Rect) -> PageLayout {
        let frame = self.layout_frame(area);
        let width = frame.text.width;
        let doc = self.document_at(width);
        let dims = super::card::Dims {
            term_width: area.width,
            page_height: frame.text.height,
        };
        let heights: Vec<usize> = doc
            .slots
            .iter()
            .map(|s| self.slot_height(&s.kind, width, dims))
            .collect();
        let lines = doc.lines.len();
        let slot_lines = doc.slots.iter().map(|s| s.line).collect();
        frame.with_slots(lines, slot_lines, &heights)
    }

    /// The layout at the current size: what events act on.
    pub fn layout(&self) -> PageLayout {
        self.layout_for(self.size)
    }

    /// The terminal's size changed (and at start): lay the lesson out for it, go to a saved
    /// place if one is waiting, and keep the focused card in view.
    pub fn resize(&mut self, width: u16, height: u16) {
        // Where the reader is, before the page is laid out again: the same place (the same
        // line of the same paragraph, or the same row of a card) is put back at the top after.
        let reading = self.pager.pending_place.is_none().then(|| {
            let layout = self.layout();
            let doc = self.document();
            self.pager.place(&doc, &layout)
        });
        self.size = Rect::new(0, 0, width, height);
        let text_width = self.layout_frame(self.size).text.width;
        let body = self
            .catalog
            .lessons
            .get(self.pager.current)
            .map(|l| l.body.clone())
            .unwrap_or_default();
        let (theme, strings) = (self.theme, self.strings());
        self.pager.prepare(text_width, || {
            markdown::render(&body, text_width, theme, strings)
        });
        let layout = self.layout();
        if let Some(place) = self.pager.pending_place.clone().or(reading) {
            let doc = self.document();
            let doc = doc.into_owned();
            self.pager.go_to(&place, &doc, &layout);
        }
        self.pager.scroll_to(self.pager.scroll, &layout);
        if let Some((index, section)) = self.pending_section.clone() {
            // the section's row depends on the width: placed again at each size until a key
            self.pending_section = None;
            self.open_section(index, &section);
            self.pending_section = Some((index, section));
        }
        self.reveal_focus();
    }

    // ----- What is focused -----

    fn slot_kinds(&self) -> Vec<SlotKind> {
        self.document()
            .slots
            .iter()
            .map(|s| s.kind.clone())
            .collect()
    }

    fn focused_kind(&self) -> Option<SlotKind> {
        self.slot_kinds().get(self.deck.focus?).cloned()
    }

    /// The focused exercise's id.
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

    /// The id of the exercise whose editor has the keys.
    pub(crate) fn editing_id(&self) -> Option<String> {
        if !self.deck.editing {
            return None;
        }
        self.focused_exercise()
    }

    pub fn exercise(&self, id: &str) -> Option<&Exercise> {
        self.catalog
            .lessons
            .get(self.pager.current)?
            .exercises
            .iter()
            .find(|e| e.id == id)
    }

    /// Where the keys go now.
    pub fn context(&self) -> Context {
        match &self.overlay {
            Overlay::Help { .. } => return Context::Help,
            Overlay::Lessons { .. } => return Context::Lessons,
            Overlay::SearchInput(_) => return Context::SearchInput,
            Overlay::Compare { .. } => return Context::Compare,
            Overlay::ExplainInput(_) => return Context::ExplainInput,
            Overlay::Explained { .. } => return Context::Explained,
            Overlay::None => {}
        }
        match self.confirm {
            Some(Confirm::Conflict(_)) => return Context::Conflict,
            Some(_) => return Context::Confirm,
            None => {}
        }
        match self.focused_kind() {
            Some(SlotKind::Exercise(_)) if self.deck.editing => Context::Editor,
            Some(SlotKind::Exercise(_)) => Context::Card,
            Some(SlotKind::Quiz(_)) => Context::Quiz,
            None if self.pager.search.is_some() => Context::Searching,
            None => Context::Pager,
        }
    }

    // ----- Events -----

    /// Applies one terminal event; returns whether anything changed (so the caller redraws).
    pub fn handle_event(&mut self, event: &Event) -> bool {
        match event {
            Event::Key(key) if key.kind != KeyEventKind::Release => {
                // The learner acts: a saved place no longer applies on the next resize.
                self.pager.pending_place = None;
                self.pending_section = None;
                self.key(*key);
                true
            }
            Event::Mouse(mouse) => {
                self.pager.pending_place = None;
                self.mouse(mouse.kind, mouse.column, mouse.row)
            }
            Event::Paste(text) => self.paste(text),
            Event::Resize(w, h) => {
                self.resize(*w, *h);
                true
            }
            _ => false,
        }
    }

    fn key(&mut self, key: KeyEvent) {
        let context = self.context();
        let running = self.runs.is_running();
        self.status = None;
        let action = keys::lookup(context, running, &key);
        if context == Context::Confirm {
            let confirm = self.confirm.take();
            match (action, confirm) {
                (Some(Action::Yes), Some(confirm)) => self.confirmed(confirm),
                (Some(Action::CancelRun), confirm) => {
                    // Ctrl-c still stops the run; the question stays.
                    self.confirm = confirm;
                    self.cancel_run();
                }
                // No, or any other key: the question goes and nothing else happens.
                _ => {}
            }
            self.reveal_focus();
            return;
        }
        // Letters that act as card keys are remembered until any other key comes.
        let card_letter = match (context, action, printable(&key)) {
            (Context::Card, Some(a), Some(ch)) if keys::acts_on_card(a) => Some(ch),
            _ => None,
        };
        let letters = std::mem::take(&mut self.card_letters);
        let follow = match action {
            Some(action) => self.apply(action, key),
            None => self.unbound(context, key, &letters),
        };
        if let Some(ch) = card_letter {
            self.card_letters = letters;
            self.card_letters.push(ch);
            // (a held key repeating is not a word being typed: keep the last few)
            let extra = self.card_letters.len().saturating_sub(8);
            self.card_letters.drain(..extra);
        }
        match follow {
            Follow::View => self.unfocus_if_hidden(),
            Follow::Focus => self.reveal_focus(),
        }
    }

    /// Keys the table does not name: text for the editor and the search prompt.
    fn unbound(&mut self, context: Context, key: KeyEvent, card_letters: &[char]) -> Follow {
        match context {
            Context::Editor => {
                if let Some(id) = self.editing_id()
                    && !matches!(key.code, KeyCode::F(_) | KeyCode::Esc)
                    && self.deck.cards.get_mut(&id).is_some_and(|c| c.input(key))
                {
                    self.edited(&id);
                }
            }
            Context::SearchInput => {
                if let (Overlay::SearchInput(query), Some(c)) =
                    (&mut self.overlay, prompt_char(&key))
                {
                    query.push(c);
                }
            }
            Context::ExplainInput => {
                if let (Overlay::ExplainInput(text), Some(c)) =
                    (&mut self.overlay, prompt_char(&key))
                    && text.len() < crate::explain::input::MAX_TEXT
                {
                    text.push(c);
                }
            }
            Context::Card => {
                // A printable key that is neither a card key nor a pager key (the help's
                // "exercise card" table): the learner is typing code into a card whose editor
                // is closed. It opens the editor and is typed there, so nothing is swallowed;
                // the footer says so, naming any card keys that acted just before it.
                if let Some(ch) = printable(&key)
                    && let Some(id) = self.focused_exercise()
                {
                    self.deck.editing = true;
                    if self.deck.cards.get_mut(&id).is_some_and(|c| c.input(key)) {
                        self.edited(&id);
                    }
                    let s = self.strings();
                    let say = if card_letters.is_empty() {
                        s.typed_into_code.replace("{key}", &ch.to_string())
                    } else {
                        let acted: Vec<String> =
                            card_letters.iter().map(|c| format!("`{c}`")).collect();
                        s.card_keys_then_code
                            .replace("{keys}", &acted.join(" "))
                            .replace("{key}", &ch.to_string())
                    };
                    self.status = Some(say);
                }
            }
            Context::Pager | Context::Searching => {
                // A card's key with no card focused: say why nothing happened.
                if let Some(action) = keys::lookup(Context::Card, false, &key)
                    && keys::acts_on_card(action)
                {
                    let name = keys::key_name(&keys::Key {
                        code: key.code,
                        mods: key.modifiers - KeyModifiers::SHIFT,
                    });
                    self.status = Some(self.strings().no_card_focused.replace("{key}", &name));
                }
            }
            _ => {}
        }
        Follow::Focus
    }

    fn apply(&mut self, action: Action, key: KeyEvent) -> Follow {
        use Action as A;
        let layout = self.layout();
        let page = layout.page() as isize;
        let overlay_rows = match &self.overlay {
            Overlay::Help { .. } => Some(
                keys::help_sections()
                    .iter()
                    .map(|(_, bindings)| bindings.len() + 1)
                    .sum::<usize>(),
            ),
            Overlay::Compare { .. } => Some(self.compare_lines(self.size).len()),
            Overlay::Explained { .. } => Some(self.explain_lines(self.size).len()),
            _ => None,
        };
        if let (
            Some(rows),
            Overlay::Help { scroll }
            | Overlay::Compare { scroll }
            | Overlay::Explained { scroll, .. },
        ) = (overlay_rows, &mut self.overlay)
        {
            // The overlay's own scrolling. The box is the screen less the title and footer,
            // its border two more; a page is the box's rows less one (not the lesson's page,
            // which is taller than the box and made PageDown skip rows of the help).
            let visible = usize::from(self.size.height.saturating_sub(4));
            let step = visible.max(2) - 1;
            let last = rows.saturating_sub(visible);
            *scroll = match action {
                A::ScrollDown => *scroll + 1,
                A::ScrollUp => scroll.saturating_sub(1),
                A::PageDown => *scroll + step,
                A::PageUp => scroll.saturating_sub(step),
                _ => *scroll,
            }
            .min(last);
            if action != A::CloseOverlay && action != A::OpenLink {
                return Follow::Focus;
            }
        }
        match action {
            A::Quit => self.request_quit(),
            A::ScrollDown => self.pager.scroll_by(1, &layout),
            A::ScrollUp => self.pager.scroll_by(-1, &layout),
            A::PageDown => self.pager.scroll_by(page.max(2) - 1, &layout),
            A::PageUp => self.pager.scroll_by(-(page.max(2) - 1), &layout),
            A::HalfPageDown => self.pager.scroll_by(page / 2, &layout),
            A::HalfPageUp => self.pager.scroll_by(-page / 2, &layout),
            A::Top => self.pager.scroll_to(0, &layout),
            A::Bottom => self.pager.scroll_to(usize::MAX, &layout),
            A::NextSection | A::PrevSection => {
                let doc = self.document().into_owned();
                self.pager
                    .jump_section(action == A::NextSection, &doc, &layout);
            }
            A::CodeLeft | A::CodeRight => {
                let doc = self.document().into_owned();
                self.pager
                    .code_sideways(action == A::CodeRight, &doc, &layout);
                return Follow::Focus;
            }
            A::NextLesson => self.next_lesson(true),
            A::PrevLesson => self.next_lesson(false),
            A::Search => self.overlay = Overlay::SearchInput(String::new()),
            A::LessonList => {
                self.overlay = Overlay::Lessons {
                    selected: self.pager.current,
                }
            }
            A::ToggleContents => {
                self.pager.toc_open = Some(!self.pager.toc_shown(self.size.width));
                let (w, h) = (self.size.width, self.size.height);
                self.resize(w, h);
            }
            A::Help => self.overlay = Overlay::Help { scroll: 0 },
            A::EscapeHint => self.status = Some(self.strings().esc_hint.to_string()),
            A::InterruptHint => self.status = Some(self.strings().interrupt_hint.to_string()),
            A::NextMatch | A::PrevMatch => {
                self.pager.step_hit(action == A::NextMatch, &layout);
                self.say_hit();
            }
            A::ClearSearch => self.pager.search = None,
            A::SearchFind => {
                let query = match std::mem::replace(&mut self.overlay, Overlay::None) {
                    Overlay::SearchInput(q) => q,
                    _ => String::new(),
                };
                let doc = self.document().into_owned();
                if self.pager.search_for(query.clone(), &doc, &layout) == 0 && !query.is_empty() {
                    self.status = Some(format!("{}: {query}", self.strings().no_match));
                }
                self.say_hit();
            }
            A::SearchCancel => self.overlay = Overlay::None,
            A::Explain => self.overlay = Overlay::ExplainInput(String::new()),
            A::ExplainCancel => self.overlay = Overlay::None,
            A::ExplainErase => {
                if let Overlay::ExplainInput(text) = &mut self.overlay {
                    text.pop();
                }
                return Follow::Focus;
            }
            A::ExplainNewLine => {
                if let Overlay::ExplainInput(text) = &mut self.overlay
                    && text.len() < crate::explain::input::MAX_TEXT
                {
                    text.push('\n');
                }
                return Follow::Focus;
            }
            A::ExplainSubmit => self.explain_pasted(),
            A::OpenLink => {
                if let Overlay::Explained { link, .. } = &self.overlay {
                    match link.clone() {
                        Some(link) => {
                            self.overlay = Overlay::None;
                            self.open_section(link.lesson_index, &link.section);
                        }
                        None => self.status = Some(self.strings().explain_no_link.to_string()),
                    }
                }
            }
            A::SearchErase => {
                if let Overlay::SearchInput(q) = &mut self.overlay {
                    q.pop();
                }
                return Follow::Focus;
            }
            A::FocusNext | A::FocusPrev => {
                if let Some(next) =
                    self.deck
                        .next_focus(action == A::FocusNext, &layout, self.pager.scroll)
                {
                    self.deck.focus = Some(next);
                    self.deck.editing = false;
                    self.show_card(next);
                }
                return Follow::Focus;
            }
            A::Unfocus => self.deck.unfocus(),
            A::Edit => {
                self.deck.editing = true;
            }
            A::LeaveEditor => self.deck.editing = false,
            A::Run => {
                if let Some(id) = self.focused_exercise() {
                    self.start_run(&id);
                    if self.deck.editing && self.status.is_none() {
                        // The editor keeps the keys after F5: say so, so a letter meant for
                        // the panes is not a surprise in the code.
                        self.status = Some(self.strings().still_editing.to_string());
                    }
                }
            }
            A::Hint => self.reveal_hint(),
            A::Solution => self.ask_solution(),
            A::Reset => {
                if let Some(id) = self.focused_exercise() {
                    self.confirm = Some(Confirm::Reset(id));
                }
            }
            A::RestorePrevious => {
                if let Some(id) = self.focused_exercise() {
                    if self.session.progress.previous_code.contains_key(&id) {
                        self.confirm = Some(Confirm::Restore(id));
                    } else {
                        self.status = Some(self.strings().nothing_to_restore.to_string());
                    }
                }
            }
            A::ToggleBlocking => {
                if let Some(id) = self.focused_exercise() {
                    let s = self.strings();
                    if self.blocking_next.as_deref() == Some(id.as_str()) {
                        self.blocking_next = None;
                        self.status = Some(s.blocking_disarmed.to_string());
                    } else {
                        self.status = Some(s.blocking_armed.replace("{id}", &id));
                        self.blocking_next = Some(id);
                    }
                }
            }
            A::PaneOutput | A::PaneMemory | A::PaneTimeline | A::PaneChecks => {
                let pane = match action {
                    A::PaneOutput => Pane::Output,
                    A::PaneMemory => Pane::Memory,
                    A::PaneTimeline => Pane::Timeline,
                    _ => Pane::Checks,
                };
                if let Some(id) = self.focused_exercise()
                    && let Some(card) = self.deck.cards.get_mut(&id)
                {
                    card.pane = pane;
                    self.show_card_end();
                }
            }
            A::OutputBack | A::OutputForward | A::OutputLeft | A::OutputRight => {
                if let Some(id) = self.focused_exercise() {
                    let (width, height) = self.output_pane_size(&id).unwrap_or((1, 1));
                    self.deck.scroll_output(&id, action, width, height);
                }
            }
            A::Compare => {
                if let Some(id) = self.focused_exercise() {
                    self.start_compare(&id);
                }
            }
            A::EditOutside => {
                if let Some(id) = self.focused_exercise() {
                    if self.runs.is_running() {
                        self.status = Some(self.strings().run_in_progress.to_string());
                    } else {
                        self.outside_edit = Some(id);
                    }
                }
            }
            A::Answer => match (&self.overlay, key.code) {
                (Overlay::Lessons { .. }, KeyCode::Char(c)) => {
                    let n = c.to_digit(10).unwrap_or(0) as usize;
                    if n >= 1 && n <= self.catalog.lessons.len() {
                        self.overlay = Overlay::None;
                        self.open_lesson(n - 1);
                    }
                }
                (_, KeyCode::Char(c)) => self.answer_quiz(c.to_digit(10).unwrap_or(0) as usize),
                _ => {}
            },
            A::Copy => {
                if let Some(id) = self.editing_id()
                    && let Some(card) = self.deck.cards.get_mut(&id)
                    && card.copy()
                {
                    self.status = Some(self.strings().copied.to_string());
                }
            }
            A::Undo
            | A::Redo
            | A::Cut
            | A::Paste
            | A::SelectAll
            | A::BufferStart
            | A::BufferEnd
            | A::Indent
            | A::Dedent
            | A::NewLine
            | A::Backspace
            | A::EditorPageUp
            | A::EditorPageDown => {
                if let Some(id) = self.editing_id() {
                    let page = self.editor_view(&id).0;
                    if self.deck.edit(&id, action, page) == Some(true) {
                        self.edited(&id);
                    }
                }
            }
            A::CancelRun => self.cancel_run(),
            A::Yes | A::No => {}
            A::KeepMine | A::TakeTheirs | A::KeepBoth => match self.confirm.take() {
                Some(Confirm::Conflict(id)) => self.settle_conflict(&id, action),
                other => self.confirm = other,
            },
            A::CloseOverlay => self.overlay = Overlay::None,
            A::ListUp | A::ListDown => {
                let down = action == A::ListDown;
                match &mut self.overlay {
                    Overlay::Lessons { selected } => {
                        let last = self.catalog.lessons.len().saturating_sub(1);
                        *selected = if down {
                            (*selected + 1).min(last)
                        } else {
                            selected.saturating_sub(1)
                        };
                    }
                    Overlay::Help { scroll } => {
                        *scroll = if down {
                            *scroll + 1
                        } else {
                            scroll.saturating_sub(1)
                        };
                    }
                    _ => {}
                }
            }
            A::ListOpen => {
                if let Overlay::Lessons { selected } = self.overlay {
                    self.overlay = Overlay::None;
                    self.open_lesson(selected);
                }
            }
        }
        match action {
            A::ScrollDown
            | A::ScrollUp
            | A::PageDown
            | A::PageUp
            | A::HalfPageDown
            | A::HalfPageUp
            | A::Top
            | A::Bottom
            | A::NextSection
            | A::PrevSection
            | A::NextMatch
            | A::PrevMatch
            | A::SearchFind => Follow::View,
            _ => Follow::Focus,
        }
    }

    fn say_hit(&mut self) {
        if let Some(s) = &self.pager.search {
            self.status = Some(format!(
                "{}/{} {}",
                s.current + 1,
                s.hits.len(),
                self.strings().matches
            ));
        }
    }

    fn mouse(&mut self, kind: MouseEventKind, column: u16, row: u16) -> bool {
        let layout = self.layout();
        match kind {
            MouseEventKind::ScrollDown | MouseEventKind::ScrollUp => {
                let delta = if kind == MouseEventKind::ScrollDown {
                    WHEEL_LINES
                } else {
                    -WHEEL_LINES
                };
                self.pager.scroll_by(delta, &layout);
                self.unfocus_if_hidden();
                true
            }
            MouseEventKind::Down(_) => {
                if self.overlay != Overlay::None || self.confirm.is_some() || layout.too_small {
                    return false;
                }
                if let Some(toc) = layout.toc
                    && column >= toc.x
                    && column < toc.x + toc.width
                    && row > toc.y
                    && row < toc.y + toc.height
                {
                    let entries = self.toc_entries();
                    return match entries.get(usize::from(row - toc.y - 1)) {
                        Some(TocEntry::Lesson(i)) => {
                            self.open_lesson(*i);
                            true
                        }
                        Some(TocEntry::Section(line)) => {
                            let row = layout.page_row(*line);
                            self.pager.scroll_to(row, &layout);
                            self.unfocus_if_hidden();
                            true
                        }
                        Some(TocEntry::Exercise(index)) => {
                            self.deck.focus = Some(*index);
                            self.deck.editing = false;
                            self.show_card(*index);
                            true
                        }
                        None => false,
                    };
                }
                let Some(index) = layout.card_at(column, row, self.pager.scroll) else {
                    return false;
                };
                let is_exercise =
                    matches!(self.slot_kinds().get(index), Some(SlotKind::Exercise(_)));
                if self.deck.focus == Some(index) && is_exercise {
                    self.deck.editing = true;
                } else {
                    self.deck.focus = Some(index);
                    self.deck.editing = false;
                }
                self.confirm = None;
                self.reveal_focus();
                true
            }
            _ => false,
        }
    }

    fn paste(&mut self, text: &str) -> bool {
        // A traceback pasted after `!`: kept whole, line ends unified.
        if let Overlay::ExplainInput(input) = &mut self.overlay {
            let text = text.replace("\r\n", "\n").replace('\r', "\n");
            let room = crate::explain::input::MAX_TEXT.saturating_sub(input.len());
            let mut cut = text.len().min(room);
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            input.push_str(&text[..cut]);
            return true;
        }
        // Pasted text goes into the editor as it is (no auto-indent per line).
        let Some(id) = self.editing_id() else {
            return false;
        };
        let text = text
            .replace("\r\n", "\n")
            .replace('\r', "\n")
            .replace('\t', "    ");
        if self
            .deck
            .cards
            .get_mut(&id)
            .is_some_and(|c| c.edit(|e| e.insert_str(&text)))
        {
            self.edited(&id);
        }
        self.reveal_focus();
        true
    }

    // ----- Focus and the view -----

    /// The learner moved the view: a focused card no longer on screen loses the focus (and
    /// its editor, and any question about it).
    fn unfocus_if_hidden(&mut self) {
        let Some(index) = self.deck.focus else {
            return;
        };
        if !self.layout().card_on_screen(index, self.pager.scroll) {
            self.deck.unfocus();
            if matches!(
                self.confirm,
                Some(Confirm::Reset(_) | Confirm::Restore(_) | Confirm::Solution(_))
            ) {
                self.confirm = None;
            }
        }
    }

    /// The page changed under the view: keep the focused card (its editor's cursor while
    /// editing) on screen.
    fn reveal_focus(&mut self) {
        let Some(index) = self.deck.focus else {
            return;
        };
        let layout = self.layout();
        if index >= layout.slots.len() {
            self.deck.unfocus();
            return;
        }
        if !layout.card_on_screen(index, self.pager.scroll) {
            self.show_card(index);
        }
        if let Some(id) = self.editing_id() {
            self.show_cursor(index, &id);
        }
    }

    /// Scrolls so the card and its goal (the heading above it) are on screen: the whole card
    /// when it fits with its goal, else the goal and as much of the card as fits, else the
    /// card's top with the lines just above it. Does not move when all that is already in view.
    fn show_card(&mut self, index: usize) {
        let layout = self.layout();
        let doc = self.document();
        let (Some(slot), Some(s)) = (layout.slots.get(index), doc.slots.get(index)) else {
            return;
        };
        let goal = if s.goal < s.line {
            layout.page_row(s.goal)
        } else {
            slot.top
        };
        drop(doc);
        let page = layout.page();
        let end = slot.top + slot.height;
        let scroll = self.pager.scroll;
        let target = if end - goal <= page {
            if scroll <= goal && end <= scroll + page {
                scroll
            } else if scroll > goal {
                goal
            } else {
                end - page
            }
        } else if slot.top - goal <= page / 3 {
            goal
        } else {
            slot.top.saturating_sub(page / 3).max(goal)
        };
        self.pager.scroll_to(target, &layout);
    }

    /// Scrolls down just enough for the card's bottom (its result panes) to be on screen,
    /// never past the card's top.
    fn show_card_end(&mut self) {
        let Some(index) = self.deck.focus else {
            return;
        };
        let layout = self.layout();
        let Some(slot) = layout.slots.get(index) else {
            return;
        };
        let want = (slot.top + slot.height)
            .saturating_sub(layout.page())
            .min(slot.top);
        if self.pager.scroll < want {
            self.pager.scroll_to(want, &layout);
        }
    }

    /// While editing: the cursor's line in the editor's view and that row on screen.
    fn show_cursor(&mut self, index: usize, id: &str) {
        let (height, width) = self.editor_view(id);
        if let Some(card) = self.deck.cards.get_mut(id) {
            card.follow_cursor(height, width);
        }
        let layout = self.layout();
        let Some(slot) = layout.slots.get(index) else {
            return;
        };
        let Some(card) = self.deck.cards.get(id) else {
            return;
        };
        // The card's top border, then the editor rows.
        let row = slot.top + 1 + card.cursor().0.saturating_sub(card.view_top);
        let page = layout.page();
        if row < self.pager.scroll {
            // Up to the card's top when the cursor stays on screen with it.
            let target = if row - slot.top < page { slot.top } else { row };
            self.pager.scroll_to(target, &layout);
        } else if row >= self.pager.scroll + page {
            self.pager.scroll_to(row + 1 - page, &layout);
        }
    }

    /// (rows, columns) of the editor's code area for exercise `id` at the current size.
    pub(crate) fn editor_view(&self, id: &str) -> (usize, usize) {
        let frame = self.layout_frame(self.size);
        let dims = super::card::Dims {
            term_width: self.size.width,
            page_height: frame.text.height,
        };
        self.exercise_plan(id, frame.text.width, dims)
            .map_or((1, 1), |p| (usize::from(p.editor_h), p.code_width()))
    }

    // ----- Lessons -----

    /// Records where the learner is, for the next start.
    pub fn remember_place(&mut self) {
        let Some(lesson) = self.catalog.lessons.get(self.pager.current) else {
            return;
        };
        let id = lesson.id.clone();
        let layout = self.layout();
        let doc = self.document().into_owned();
        let place = self.pager.place(&doc, &layout);
        let progress = &mut self.session.progress;
        progress.last_lesson = Some(id.clone());
        progress.scroll.insert(id.clone(), self.pager.scroll);
        progress.places.insert(id, place);
    }

    pub(crate) fn open_lesson(&mut self, index: usize) {
        if index >= self.catalog.lessons.len() || index == self.pager.current {
            return;
        }
        self.remember_place();
        self.pager.current = index;
        self.pager.search = None;
        self.pager.code_left = 0;
        self.deck.unfocus();
        self.confirm = None;
        let id = self.catalog.lessons[index].id.clone();
        self.pager.scroll = self.session.progress.scroll.get(&id).copied().unwrap_or(0);
        self.pager.pending_place = self.session.progress.places.get(&id).cloned();
        let (w, h) = (self.size.width, self.size.height);
        self.resize(w, h);
        self.pager.pending_place = None;
    }

    /// Opens lesson `index` at the section titled `title` (compared loosely: case and inline
    /// code marks do not count). Returns whether the section was found; the lesson opens
    /// either way.
    pub(crate) fn open_section(&mut self, index: usize, title: &str) -> bool {
        if index >= self.catalog.lessons.len() {
            return false;
        }
        if index != self.pager.current {
            self.open_lesson(index);
        }
        self.pager.pending_place = None;
        let (w, h) = (self.size.width, self.size.height);
        self.resize(w, h);
        let layout = self.layout();
        let doc = self.document().into_owned();
        let wanted = crate::explain::links::normalize(title);
        let slug = crate::explain::links::slug(title);
        let Some(section) = doc.sections.iter().find(|s| {
            crate::explain::links::normalize(&s.title) == wanted
                || crate::explain::links::slug(&s.title) == slug
        }) else {
            return false;
        };
        let row = layout.page_row(section.line);
        self.pager.scroll_to(row, &layout);
        self.deck.unfocus();
        true
    }

    /// `cudatutor lesson N --section S`: open at that section once the terminal's size is
    /// known (the event loop resizes first; [`App::resize`] then goes there). A section that
    /// is not in the lesson is said in the footer.
    pub(crate) fn start_at_section(&mut self, index: usize, section: &str) {
        if !self.open_section(index, section) {
            self.status = Some(format!("{}: {section}", self.strings().no_match));
        }
        self.pending_section = Some((index, section.to_string()));
    }

    /// Ctrl-d in the `!` prompt: explain what was pasted, over the page.
    fn explain_pasted(&mut self) {
        let Overlay::ExplainInput(text) = &self.overlay else {
            return;
        };
        if text.trim().is_empty() {
            self.status = Some(self.strings().explain_nothing.to_string());
            return;
        }
        let pasted = text.clone();
        let e = crate::explain::explain(
            &pasted,
            &crate::explain::Options {
                lang: self.lang,
                lessons: Some(&self.catalog),
                read_script: None,
            },
        );
        self.overlay = Overlay::Explained {
            scroll: 0,
            pasted,
            link: e.link,
        };
    }

    /// The explanation overlay's lines for a terminal of `area`.
    pub(crate) fn explain_lines(&self, area: Rect) -> Vec<String> {
        let Overlay::Explained { pasted, .. } = &self.overlay else {
            return Vec::new();
        };
        let width = usize::from(compare_width(area).saturating_sub(3)).max(20);
        let e = crate::explain::explain(
            pasted,
            &crate::explain::Options {
                lang: self.lang,
                lessons: Some(&self.catalog),
                read_script: None,
            },
        );
        e.render(self.lang, width)
            .lines()
            .flat_map(|l| super::panes::output::hard_wrap(l, width))
            .collect()
    }

    fn next_lesson(&mut self, forward: bool) {
        let target = if forward {
            self.pager.current + 1
        } else {
            self.pager.current.wrapping_sub(1)
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

    /// The contents pane's rows: lessons, and under the open one its sections and exercises.
    pub(super) fn toc_entries(&self) -> Vec<TocEntry> {
        let mut entries = Vec::new();
        let doc = self.document();
        for (i, _) in self.catalog.lessons.iter().enumerate() {
            entries.push(TocEntry::Lesson(i));
            if i == self.pager.current {
                for section in doc.sections.iter().filter(|s| s.level == 2) {
                    entries.push(TocEntry::Section(section.line));
                }
                for (k, slot) in doc.slots.iter().enumerate() {
                    if matches!(slot.kind, SlotKind::Exercise(_)) {
                        entries.push(TocEntry::Exercise(k));
                    }
                }
            }
        }
        entries
    }

    // ----- Cards -----

    /// Records the learner's code in progress (saved after the debounce).
    fn edited(&mut self, id: &str) {
        let Some(card) = self.deck.cards.get(id) else {
            return;
        };
        let code = card.code();
        let start = card.start_code.trim_end_matches('\n');
        let state = self
            .session
            .progress
            .exercises
            .entry(id.to_string())
            .or_default();
        let new = (code != start).then_some(code);
        if state.code != new {
            state.code = new;
            self.session.changed(true);
        }
    }

    fn reveal_hint(&mut self) {
        let Some(id) = self.focused_exercise() else {
            return;
        };
        let total = self.exercise(&id).map_or(0, |e| e.hints.len());
        let s = self.strings();
        if let Some(card) = self.deck.cards.get_mut(&id) {
            if card.hints_shown < total {
                card.hints_shown += 1;
                self.session
                    .progress
                    .hints
                    .insert(id.clone(), card.hints_shown);
                // `report` counts the hints revealed here as it counts `cudatutor hint`'s.
                self.session.progress.record_hint(&id, card.hints_shown);
                self.session.changed(false);
            } else {
                self.status = Some(s.no_more_hints.to_string());
            }
        }
    }

    fn ask_solution(&mut self) {
        let Some(id) = self.focused_exercise() else {
            return;
        };
        let shown = self.deck.cards.get(&id).is_some_and(|c| c.solution_shown);
        if shown {
            if let Some(card) = self.deck.cards.get_mut(&id) {
                card.solution_shown = false;
            }
        } else if self.exercise(&id).is_some_and(|e| e.solution.is_some()) {
            self.confirm = Some(Confirm::Solution(id));
        } else {
            self.status = Some(self.strings().no_solution.to_string());
        }
    }

    fn confirmed(&mut self, confirm: Confirm) {
        match confirm {
            Confirm::Reset(id) => {
                let Some(card) = self.deck.cards.get_mut(&id) else {
                    return;
                };
                let mine = card.code();
                let start = card.start_code.clone();
                if card.replace_code(&start) {
                    // Nothing is lost: Ctrl-z in the editor, or `u`, brings it back.
                    self.session.progress.previous_code.insert(id.clone(), mine);
                }
                // The old output and gutter marks were about the code that is gone.
                card.report = None;
                card.ran_code = None;
                card.output_back = 0;
                card.output_left = 0;
                self.session.progress.last_runs.remove(&id);
                self.status = Some(self.strings().reset_done.to_string());
                self.edited(&id);
                self.session.changed(true);
            }
            Confirm::Restore(id) => {
                let Some(previous) = self.session.progress.previous_code.get(&id).cloned() else {
                    return;
                };
                let Some(card) = self.deck.cards.get_mut(&id) else {
                    return;
                };
                let current = card.code();
                card.replace_code(&previous);
                // A swap: the code just replaced is the one `u` brings back next.
                self.session
                    .progress
                    .previous_code
                    .insert(id.clone(), current);
                self.status = Some(self.strings().restore_done.to_string());
                self.edited(&id);
                self.session.changed(true);
            }
            Confirm::Solution(id) => {
                if let Some(card) = self.deck.cards.get_mut(&id) {
                    card.solution_shown = true;
                }
                // `report` says the solution was seen.
                self.session.progress.record_solution_viewed(&id);
                self.session.changed(true);
            }
            Confirm::Quit(_) => {
                self.runs.cancel(Instant::now());
                self.quit = true;
            }
            // (answered by its own keys, `settle_conflict`)
            Confirm::Conflict(id) => self.settle_conflict(&id, Action::KeepMine),
        }
    }

    /// The first answer is the grade; pressing again changes nothing (the explanation is
    /// already shown, the right answer with it).
    fn answer_quiz(&mut self, answer: usize) {
        let Some(number) = self.focused_quiz() else {
            return;
        };
        let Some(lesson) = self.catalog.lessons.get(self.pager.current) else {
            return;
        };
        // Progress::answer_quiz records the first answer as the grade and ignores the rest.
        match self.session.progress.answer_quiz(lesson, number, answer) {
            Some(outcome) if outcome.first_answer => self.session.changed(true),
            Some(_) => self.status = Some(self.strings().quiz_already.to_string()),
            None => {}
        }
    }

    fn request_quit(&mut self) {
        if self.runs.is_running() {
            self.confirm = Some(Confirm::Quit(None));
            return;
        }
        self.remember_place();
        match self.session.save() {
            Ok(()) => self.quit = true,
            Err(why) if self.session.unsaved_work() => {
                let why = why.unwrap_or_else(|| self.strings().no_data_folder.to_string());
                self.confirm = Some(Confirm::Quit(Some(why)))
            }
            Err(_) => self.quit = true,
        }
    }

    // ----- Runs -----

    /// Starts the exercise's code and checks on a background thread; the report comes back
    /// through `tick`, so the UI keeps drawing meanwhile.
    pub(crate) fn start_run(&mut self, id: &str) {
        if !self.deck.cards.contains_key(id) || self.exercise(id).is_none() {
            return;
        }
        // The code about to run is saved first, without waiting for the debounce: a run that
        // takes the whole process down (an abort, a kill) must not take the last edits too.
        if !self.runs.is_running()
            && self.session.pending()
            && let Err(Some(e)) = self.session.save()
        {
            self.status = Some(format!("{}: {e}", self.strings().save_before_run_failed));
        }
        self.say_conflicts();
        let (Some(card), Some(exercise)) = (self.deck.cards.get(id), self.exercise(id)) else {
            return;
        };
        let code = card.code() + "\n";
        let check = exercise.check.clone();
        // The checks' messages in the lesson's language, and the predicted names.
        let experiment = self.blocking_next.as_deref() == Some(id);
        let opts = self.run_options(exercise, experiment);
        match self.runs.start(id, code, check, opts, Job::Run) {
            Ok(()) if experiment => {
                // `b` is for one run: this one.
                self.blocking_next = None;
                self.experiment = Some(id.to_string());
            }
            Ok(()) => self.experiment = None,
            Err(StartError::Busy) => self.status = Some(self.strings().run_in_progress.to_string()),
            Err(StartError::Thread) => self.status = Some(self.strings().run_lost.to_string()),
        }
    }

    /// The options of a run of exercise `id` from the pager (its GPUs, the lesson's language
    /// for the checks' messages, the predicted names, blocking: the session's, or `b`'s for
    /// this run when `experiment`).
    fn run_options(&self, exercise: &Exercise, experiment: bool) -> RunOptions {
        let lesson_lang = self
            .catalog
            .lessons
            .get(self.pager.current)
            .map_or("en", |l| l.lang.as_str());
        let blocking = self.launch_blocking || experiment;
        let mut opts = RunOptions {
            gpus: exercise.gpus,
            launch_blocking: blocking,
            exercise: crate::run::ExerciseContext::of(exercise, lesson_lang),
            ..RunOptions::default()
        };
        if blocking {
            opts.env
                .push(("CUDA_LAUNCH_BLOCKING".to_string(), "1".to_string()));
        }
        opts
    }

    /// `D`: runs the exercise's code and checks on the engine and on real PyTorch in the
    /// background; the comparison opens over the page when it ends.
    pub(crate) fn start_compare(&mut self, id: &str) {
        let (Some(card), Some(exercise)) = (self.deck.cards.get(id), self.exercise(id)) else {
            return;
        };
        let code = card.code() + "\n";
        let check = exercise.check.clone();
        let opts = self.run_options(exercise, self.blocking_next.as_deref() == Some(id));
        match self.runs.start(id, code, check, opts, Job::Compare) {
            Ok(()) => {}
            Err(StartError::Busy) => self.status = Some(self.strings().run_in_progress.to_string()),
            Err(StartError::Thread) => self.status = Some(self.strings().run_lost.to_string()),
        }
    }

    /// The comparison overlay's lines for a terminal of `area`: the text of
    /// [`crate::run::diff::render_in`], wrapped to the box.
    pub(crate) fn compare_lines(&self, area: Rect) -> Vec<String> {
        let Some((_, diff)) = &self.comparison else {
            return Vec::new();
        };
        let width = usize::from(compare_width(area).saturating_sub(3)).max(1);
        crate::run::diff::render_in(diff, self.lang)
            .lines()
            .flat_map(|l| super::panes::output::hard_wrap(l, width))
            .collect()
    }

    /// `e` was pressed on this exercise: the caller (the event loop) now leaves the alternate
    /// screen and raw mode, calls [`App::edit_outside`], and takes the terminal back.
    pub fn take_outside_edit(&mut self) -> Option<String> {
        self.outside_edit.take()
    }

    /// `e`: writes exercise `id`'s code to its work file (`<data dir>/<lesson>/<exercise>.py`),
    /// runs the outside editor on it (`edit_cmd`, else $VISUAL, else $EDITOR) in the terminal,
    /// and when it exits takes the file's code into the card (one undo step) and progress,
    /// saves progress at once (the same atomic, merging save as every edit) and runs the checks
    /// like `r`. The terminal must already be handed over (see [`App::take_outside_edit`]).
    pub fn edit_outside(&mut self, id: &str) {
        use crate::classroom::workfile;
        let s = self.strings();
        let Some(lesson) = self.catalog.lessons.get(self.pager.current) else {
            return;
        };
        let Some(exercise) = lesson.exercises.iter().find(|e| e.id == id) else {
            return;
        };
        let Some(card) = self.deck.cards.get(id) else {
            return;
        };
        let dir = self
            .session
            .data_dir()
            .unwrap_or_else(|| std::env::temp_dir().join("cudatutor-work"));
        let path = workfile::work_file(&dir, lesson, exercise);
        let before = card.code();
        let edited = workfile::editor_command(self.edit_cmd.as_deref()).and_then(|command| {
            workfile::write_code(&path, &before)?;
            workfile::open_editor(&command, &path)?;
            workfile::read_code(&path)
        });
        let code = match edited {
            Ok(code) => code,
            Err(why) => {
                self.status = Some(s.editor_failed.replace("{why}", &why));
                return;
            }
        };
        let code = code.trim_end_matches('\n').to_string();
        let changed = code != before;
        if let Some(card) = self.deck.cards.get_mut(id)
            && card.replace_code(&code)
        {
            self.edited(id);
        }
        if self.session.pending()
            && let Err(Some(e)) = self.session.save()
        {
            self.status = Some(format!("{}: {e}", s.save_failed));
            return;
        }
        self.status = Some(if changed {
            s.edited_outside
                .replace("{path}", &path.display().to_string())
        } else {
            s.edited_outside_unchanged.to_string()
        });
        self.start_run(id);
        self.reveal_focus();
    }

    /// (columns, rows) of exercise `id`'s output pane at the current size, as the card draws it.
    pub(crate) fn output_pane_size(&self, id: &str) -> Option<(usize, usize)> {
        let frame = self.layout_frame(self.size);
        let dims = super::card::Dims {
            term_width: self.size.width,
            page_height: frame.text.height,
        };
        let plan = self.exercise_plan(id, frame.text.width, dims)?;
        let width = if plan.beside {
            plan.right_w
        } else {
            frame.text.width.saturating_sub(4)
        };
        let height = match &plan.panes {
            super::card::PanesPlan::Stacked(panes) => panes
                .iter()
                .find(|(p, _)| *p == Pane::Output)
                .map_or(0, |(_, h)| h.saturating_sub(1)),
            // Under the tab row.
            super::card::PanesPlan::Tabbed => plan.panes_h.saturating_sub(1),
        };
        Some((usize::from(width), usize::from(height)))
    }

    /// Ctrl-c: asks the run in flight to stop.
    pub(crate) fn cancel_run(&mut self) {
        self.runs.cancel(Instant::now());
    }

    fn finished(&mut self, outcome: Outcome) {
        let s = self.strings();
        match outcome {
            Outcome::Finished {
                exercise,
                code,
                report,
                stopped,
            } => {
                let passed = report.checks_passed();
                let internal = report.internal_error.clone();
                // `b`'s run is an experiment: shown, never graded (no record, no attempt).
                let experiment = self.experiment.take().as_deref() == Some(exercise.as_str());
                self.session.keep_run(&exercise, &code, &report);
                // The ✓ comes from this record, kept with the fingerprint of the code that ran.
                if !experiment && let Some(ex) = self.exercise(&exercise).cloned() {
                    // The same code run again (a stray `r`) is not a new attempt.
                    let attempt = !self.session.progress.checked_this_code(&ex, &code);
                    self.session
                        .progress
                        .record_check_counting(&ex, &code, &report, attempt);
                    self.session.changed(false);
                }
                if let Some(card) = self.deck.cards.get_mut(&exercise) {
                    card.experiment = experiment;
                    card.pane = first_pane(&report);
                    card.report = Some(*report);
                    card.ran_code = Some(code);
                    card.output_back = 0;
                    card.output_left = 0;
                }
                self.status = match stopped {
                    // What ended it (a worker killed by a signal, a panic), in the footer: the
                    // learner sees at once that the pager survived and why the run did not.
                    _ if internal.is_some() => Some(
                        s.run_internal_error
                            .replace("{why}", internal.as_deref().unwrap_or_default()),
                    ),
                    Some(Stop::WallLimit) => Some(
                        s.run_timed_out
                            .replace("{secs}", &fmt_secs(self.runs.wall_limit())),
                    ),
                    Some(Stop::Learner) => Some(s.cancelled.to_string()),
                    None if experiment => Some(s.blocking_experiment.to_string()),
                    None if passed => Some(s.checks_passed.to_string()),
                    None => self.status.take(),
                };
                self.after_run(&exercise);
            }
            Outcome::Compared {
                exercise,
                diff,
                stopped,
            } => {
                self.status = match stopped {
                    Some(Stop::WallLimit) => Some(s.run_timed_out.replace(
                        "{secs}",
                        &fmt_secs(self.runs.wall_limit() * 2 + super::runs::COMPARE_STARTUP),
                    )),
                    Some(Stop::Learner) => Some(s.cancelled.to_string()),
                    None => None,
                };
                // A cancelled comparison has nothing worth showing.
                if stopped != Some(Stop::Learner) {
                    self.comparison = Some((exercise, *diff));
                    if self.overlay == Overlay::None && self.confirm.is_none() {
                        self.overlay = Overlay::Compare { scroll: 0 };
                    }
                }
            }
            Outcome::Lost { .. } => self.status = Some(s.run_lost.to_string()),
            Outcome::Abandoned { stop, .. } => {
                let why = match stop {
                    Stop::WallLimit => s
                        .run_timed_out
                        .replace("{secs}", &fmt_secs(self.runs.wall_limit())),
                    Stop::Learner => s.cancelled.to_string(),
                };
                self.status = Some(format!("{why}. {}", s.run_abandoned));
            }
        }
    }

    /// Brings the results into view when the card that ran is the focused one.
    fn after_run(&mut self, id: &str) {
        if self.focused_exercise().as_deref() == Some(id) {
            // The result first (F5 from the editor too); then, while editing, the cursor's
            // line is kept on screen if the result pushed it off.
            self.show_card_end();
            if self.deck.editing {
                self.reveal_focus();
            }
        }
    }

    /// Polls a run in flight and saves pending edits once they are `SAVE_DEBOUNCE` old.
    /// Returns whether the screen should be redrawn. The event loop calls it on every wake-up.
    pub fn tick(&mut self, now: Instant) -> bool {
        let mut redraw = false;
        if self.runs.is_running() {
            if let Some(outcome) = self.runs.poll(now) {
                self.finished(outcome);
            }
            // The spinner moves, or the report arrived.
            redraw = true;
        }
        if let Some(result) = self.session.save_if_due(now) {
            if let Err(Some(e)) = result {
                self.status = Some(format!("{}: {e}", self.strings().save_failed));
            }
            redraw = true;
        }
        redraw |= self.say_conflicts();
        redraw
    }

    /// Another window saved other code for an exercise this one changed too. The save kept
    /// this window's code and the other's is in `previous_code` (what `u` brings back), so
    /// nothing is lost whatever happens next; then the learner is asked, one exercise at a
    /// time, which to keep (mine, theirs, both), once no other question, overlay or editor
    /// is open.
    fn say_conflicts(&mut self) -> bool {
        // Not while the editor is open either: the letters being typed would answer it.
        if self.session.conflicts.is_empty()
            || self.confirm.is_some()
            || self.overlay != Overlay::None
            || self.deck.editing
        {
            return false;
        }
        let id = self.session.conflicts.remove(0);
        // (the same exercise found twice before it was asked: one question)
        self.session.conflicts.retain(|other| *other != id);
        if self.deck.cards.contains_key(&id)
            && self.session.progress.previous_code.contains_key(&id)
        {
            self.confirm = Some(Confirm::Conflict(id));
        } else {
            // Not in this lesson's cards: the footer says so, `u` in its lesson brings it back.
            self.status = Some(self.strings().other_window_changed.replace("{ids}", &id));
        }
        true
    }

    /// The learner's answer to [`Confirm::Conflict`] for exercise `id`.
    fn settle_conflict(&mut self, id: &str, answer: Action) {
        let s = self.strings();
        let Some(theirs) = self.session.progress.previous_code.get(id).cloned() else {
            return;
        };
        let Some(card) = self.deck.cards.get_mut(id) else {
            return;
        };
        let mine = card.code();
        let (code, status) = match answer {
            Action::TakeTheirs => (theirs.clone(), s.conflict_took_theirs),
            Action::KeepBoth => {
                let mut both = mine.trim_end_matches('\n').to_string();
                both.push_str("\n\n");
                both.push_str(s.conflict_both_header);
                for line in theirs.trim_end_matches('\n').lines() {
                    both.push('\n');
                    if line.is_empty() {
                        both.push('#');
                    } else {
                        both.push_str("# ");
                        both.push_str(line);
                    }
                }
                (both, s.conflict_kept_both)
            }
            _ => {
                self.status = Some(s.conflict_kept_mine.replace("{id}", id));
                return;
            }
        };
        // One undoable step (Ctrl-z in the editor); `u` swaps with the code replaced.
        if card.replace_code(&code) {
            let previous = if answer == Action::TakeTheirs {
                mine
            } else {
                theirs
            };
            self.session
                .progress
                .previous_code
                .insert(id.to_string(), previous);
            self.edited(id);
            self.session.changed(true);
        }
        self.status = Some(status.replace("{id}", id));
    }

    /// Waits (up to `timeout`) for the run in flight and applies its report; for tests and
    /// for callers without an event loop. Returns whether a run finished.
    pub fn wait_for_run(&mut self, timeout: Duration) -> bool {
        match self.runs.wait(timeout) {
            Some(outcome) => {
                self.finished(outcome);
                true
            }
            None => false,
        }
    }
}

/// A row of the contents pane.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum TocEntry {
    Lesson(usize),
    /// A level-2 heading of the open lesson, at this rendered line.
    Section(usize),
    /// An exercise of the open lesson: its card index.
    Exercise(usize),
}

/// The character a key types, when it is a plain printable key (no Ctrl, no Alt).
fn printable(key: &KeyEvent) -> Option<char> {
    match key.code {
        KeyCode::Char(ch)
            if !key
                .modifiers
                .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) =>
        {
            Some(ch)
        }
        _ => None,
    }
}

/// The character a key types into the search and explain prompts: any character key without
/// Ctrl (Ctrl keys are their commands; unlike [`printable`], Alt is let through).
fn prompt_char(key: &KeyEvent) -> Option<char> {
    match key.code {
        KeyCode::Char(ch) if !key.modifiers.intersects(KeyModifiers::CONTROL) => Some(ch),
        _ => None,
    }
}

/// The pane a report opens on: checks when the code ran cleanly and was checked.
fn first_pane(report: &crate::run::RunReport) -> Pane {
    if report.error.is_none() && !report.checks.is_empty() {
        Pane::Checks
    } else {
        Pane::Output
    }
}

/// The comparison box's width in a terminal of `area`.
pub(super) fn compare_width(area: Rect) -> u16 {
    area.width.min(100)
}
