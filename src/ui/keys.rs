//! The one key table. Every key the pager reacts to is listed here once, with the context it
//! works in; dispatch (`lookup`), every footer (`footer`) and the help overlay (`help`) are all
//! read from it, so a key cannot do one thing and be described as another. What an action
//! does lives in `app.rs`; what it is called, in both languages, in `strings.rs`.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// Everything a key can ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    // Reading.
    Quit,
    ScrollDown,
    ScrollUp,
    PageDown,
    PageUp,
    HalfPageDown,
    HalfPageUp,
    Top,
    Bottom,
    NextSection,
    PrevSection,
    NextLesson,
    PrevLesson,
    CodeLeft,
    CodeRight,
    Search,
    LessonList,
    ToggleContents,
    Help,
    /// Esc with nothing to close: says how to quit instead of quitting.
    EscapeHint,
    /// Ctrl-c with no run and no editor: says what Ctrl-c does and how to quit.
    InterruptHint,
    // Search.
    NextMatch,
    PrevMatch,
    ClearSearch,
    SearchFind,
    SearchCancel,
    SearchErase,
    // Cards.
    FocusNext,
    FocusPrev,
    Unfocus,
    Edit,
    Run,
    Hint,
    Solution,
    Reset,
    RestorePrevious,
    ToggleBlocking,
    PaneOutput,
    PaneMemory,
    PaneTimeline,
    PaneChecks,
    OutputBack,
    OutputForward,
    OutputLeft,
    OutputRight,
    Answer,
    /// `D`: run the exercise on the engine and on real PyTorch and show what differs.
    Compare,
    /// `e`: open the exercise in the learner's own editor ($VISUAL / $EDITOR).
    EditOutside,
    // Explaining a pasted error (`!`).
    /// `!`: open the prompt to paste a traceback.
    Explain,
    ExplainSubmit,
    ExplainCancel,
    ExplainErase,
    ExplainNewLine,
    /// In the explanation: open the lesson section it links to.
    OpenLink,
    // The editor.
    LeaveEditor,
    Undo,
    Redo,
    Copy,
    Cut,
    Paste,
    SelectAll,
    BufferStart,
    BufferEnd,
    Indent,
    Dedent,
    NewLine,
    Backspace,
    EditorPageUp,
    EditorPageDown,
    // A run in flight.
    CancelRun,
    // Questions and overlays.
    Yes,
    No,
    /// Another window saved other code for this exercise: keep this window's.
    KeepMine,
    /// ... take the other window's.
    TakeTheirs,
    /// ... keep both (the other window's below, commented out).
    KeepBoth,
    CloseOverlay,
    ListUp,
    ListDown,
    ListOpen,
}

/// Where the keys go now. Decided by `App::context` from the state alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Context {
    Pager,
    /// The pager with search hits shown.
    Searching,
    SearchInput,
    Card,
    Quiz,
    Editor,
    Confirm,
    /// Another window saved other code for an exercise this one changed: keep which?
    Conflict,
    Help,
    Lessons,
    /// The comparison of `D`, shown over the page.
    Compare,
    /// Pasting a traceback to explain (`!`): every other key is text.
    ExplainInput,
    /// The explanation of the pasted error, shown over the page.
    Explained,
}

/// One key: a code and the modifiers that must be held.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    pub code: KeyCode,
    pub mods: KeyModifiers,
}

const fn k(code: KeyCode) -> Key {
    Key {
        code,
        mods: KeyModifiers::NONE,
    }
}
const fn c(ch: char) -> Key {
    k(KeyCode::Char(ch))
}
const fn ctrl(code: KeyCode) -> Key {
    k(code).with(KeyModifiers::CONTROL)
}
const fn ctrl_c(ch: char) -> Key {
    ctrl(KeyCode::Char(ch))
}
const fn shift(code: KeyCode) -> Key {
    k(code).with(KeyModifiers::SHIFT)
}

impl Key {
    /// This key with `mods` held.
    const fn with(self, mods: KeyModifiers) -> Key {
        Key { mods, ..self }
    }

    /// Whether a pressed key is this one. Shift is part of the character for letters and
    /// symbols (`G`, `?`, `{`) and of BackTab, so it only counts for the keys it changes:
    /// arrows, Home/End, PgUp/PgDn.
    pub fn matches(&self, ev: &KeyEvent) -> bool {
        if self.code != ev.code {
            return false;
        }
        let held = ev.modifiers & (KeyModifiers::CONTROL | KeyModifiers::ALT | KeyModifiers::SHIFT);
        let shift_counts = matches!(
            self.code,
            KeyCode::Up
                | KeyCode::Down
                | KeyCode::Left
                | KeyCode::Right
                | KeyCode::Home
                | KeyCode::End
                | KeyCode::PageUp
                | KeyCode::PageDown
        );
        let held = if shift_counts {
            held
        } else {
            held - KeyModifiers::SHIFT
        };
        held == self.mods
    }
}

/// A context's keys: what they do, the keys, how the keys are written in footers and help,
/// and whether the footer lists them.
pub struct Binding {
    pub action: Action,
    pub keys: &'static [Key],
    pub label: &'static str,
    pub footer: bool,
}

const fn b(action: Action, keys: &'static [Key], label: &'static str, footer: bool) -> Binding {
    Binding {
        action,
        keys,
        label,
        footer,
    }
}

use Action as A;
use KeyCode as K;

/// The keys that pick a quiz's answer (a quiz focused, or the lesson list's quiz).
const DIGITS: &[Key] = &[
    c('1'),
    c('2'),
    c('3'),
    c('4'),
    c('5'),
    c('6'),
    c('7'),
    c('8'),
    c('9'),
];

/// An overlay's table: its own bindings, then the scrolling every overlay has.
macro_rules! overlay {
    ($($own:expr),* $(,)?) => {
        &[
            $($own,)*
            b(A::ScrollDown, &[c('j'), k(K::Down)], "↑↓", true),
            b(A::ScrollUp, &[c('k'), k(K::Up)], "↑", false),
            b(A::PageDown, &[k(K::PageDown), c(' ')], "PgDn", false),
            b(A::PageUp, &[k(K::PageUp)], "PgUp", false),
        ]
    };
}

/// Reading a lesson, nothing focused. Footer order is importance order: a narrow footer keeps
/// the first entries.
pub(crate) const PAGER: &[Binding] = &[
    b(A::Quit, &[c('q'), ctrl_c('q')], "q", true),
    b(A::ScrollDown, &[c('j'), k(K::Down)], "↓ j", false),
    b(A::ScrollUp, &[c('k'), k(K::Up)], "↑ k", false),
    b(
        A::PageDown,
        &[c(' '), c('f'), k(K::PageDown)],
        "space PgDn",
        false,
    ),
    b(A::PageUp, &[c('b'), k(K::PageUp)], "b PgUp", false),
    b(A::HalfPageDown, &[ctrl_c('d')], "Ctrl-d", false),
    b(A::HalfPageUp, &[ctrl_c('u')], "Ctrl-u", false),
    b(A::Top, &[c('g'), k(K::Home)], "g Home", false),
    b(A::Bottom, &[c('G'), k(K::End)], "G End", false),
    b(A::FocusNext, &[k(K::Tab)], "Tab", true),
    b(A::FocusPrev, &[k(K::BackTab)], "Shift-Tab", false),
    b(A::NextLesson, &[c('n'), c(']')], "n/p", true),
    b(A::PrevLesson, &[c('p'), c('[')], "p [", false),
    b(A::LessonList, &[c('l')], "l", true),
    b(A::Search, &[c('/')], "/", true),
    b(A::Explain, &[c('!')], "!", false),
    b(A::NextSection, &[c('}')], "}", false),
    b(A::PrevSection, &[c('{')], "{", false),
    b(A::CodeRight, &[k(K::Right)], "←→", true),
    b(A::CodeLeft, &[k(K::Left)], "←", false),
    b(A::ToggleContents, &[c('t')], "t", false),
    b(A::Help, &[c('?')], "?", true),
    b(A::EscapeHint, &[k(K::Esc)], "Esc", false),
    b(A::InterruptHint, &[ctrl_c('c')], "Ctrl-c", false),
];

/// Search hits shown: n / N walk them, Esc clears them; the rest is the pager's.
pub(crate) const SEARCHING: &[Binding] = &[
    b(A::NextMatch, &[c('n')], "n/N", true),
    b(A::PrevMatch, &[c('N')], "N", false),
    b(A::ClearSearch, &[k(K::Esc)], "Esc", true),
];

/// Typing a search: every other key is text.
pub(crate) const SEARCH_INPUT: &[Binding] = &[
    b(A::SearchFind, &[k(K::Enter)], "Enter", true),
    b(A::SearchCancel, &[k(K::Esc)], "Esc", true),
    b(A::SearchErase, &[k(K::Backspace)], "Backspace", false),
];

/// An exercise card focused, its editor closed. Keys not here go to the pager.
pub(crate) const CARD: &[Binding] = &[
    // Enter only: `i` is the first letter of many a line of code (any key not in these
    // tables opens the editor and is typed, app.rs `unbound`).
    b(A::Edit, &[k(K::Enter)], "Enter", true),
    b(A::Run, &[c('r'), k(K::F(5)), ctrl_c('r')], "r", true),
    b(A::Hint, &[c('h'), k(K::F(2))], "h", true),
    b(A::Solution, &[c('s')], "s", true),
    b(A::Reset, &[c('x')], "x", true),
    b(A::ToggleBlocking, &[c('b'), k(K::F(6))], "b", true),
    b(A::RestorePrevious, &[c('u')], "u", false),
    b(A::PaneOutput, &[c('o')], "o/m/t/c", true),
    b(A::PaneMemory, &[c('m')], "m", false),
    b(A::PaneTimeline, &[c('t')], "t", false),
    b(A::PaneChecks, &[c('c')], "c", false),
    b(A::OutputBack, &[shift(K::Up)], "Shift-↑↓←→", false),
    b(A::OutputForward, &[shift(K::Down)], "Shift-↓", false),
    b(A::OutputLeft, &[shift(K::Left)], "Shift-←", false),
    b(A::OutputRight, &[shift(K::Right)], "Shift-→", false),
    b(A::FocusNext, &[k(K::Tab)], "Tab", true),
    b(A::FocusPrev, &[k(K::BackTab)], "Shift-Tab", false),
    b(A::Unfocus, &[k(K::Esc)], "Esc", true),
    b(A::EditOutside, &[c('e')], "e", true),
    b(A::Compare, &[c('D')], "D", true),
    b(A::Help, &[c('?')], "?", false),
];

/// A quiz focused. Keys not here go to the pager.
pub(crate) const QUIZ: &[Binding] = &[
    b(A::Answer, DIGITS, "1-9", true),
    b(A::FocusNext, &[k(K::Tab)], "Tab", true),
    b(A::FocusPrev, &[k(K::BackTab)], "Shift-Tab", false),
    b(A::Unfocus, &[k(K::Esc)], "Esc", true),
];

/// The editor has the keys: every key not listed here is text, so letters are never commands.
pub const EDITOR: &[Binding] = &[
    b(A::LeaveEditor, &[k(K::Esc)], "Esc", true),
    b(A::Run, &[k(K::F(5)), ctrl_c('r')], "F5/Ctrl-r", true),
    b(A::Undo, &[ctrl_c('z')], "Ctrl-z/y", true),
    b(A::Redo, &[ctrl_c('y')], "Ctrl-y", false),
    b(A::Hint, &[k(K::F(2))], "F2", true),
    b(A::ToggleBlocking, &[k(K::F(6))], "F6", true),
    b(A::Copy, &[ctrl_c('c')], "Ctrl-c", false),
    b(A::Cut, &[ctrl_c('x')], "Ctrl-x", false),
    b(A::Paste, &[ctrl_c('v')], "Ctrl-v", false),
    b(A::SelectAll, &[ctrl_c('a')], "Ctrl-a", false),
    b(A::BufferStart, &[ctrl(K::Home)], "Ctrl-Home", false),
    b(A::BufferEnd, &[ctrl(K::End)], "Ctrl-End", false),
    b(A::Indent, &[k(K::Tab)], "Tab", false),
    b(A::Dedent, &[k(K::BackTab)], "Shift-Tab", false),
    b(A::NewLine, &[k(K::Enter)], "Enter", false),
    b(A::Backspace, &[k(K::Backspace)], "Backspace", false),
    b(A::EditorPageUp, &[k(K::PageUp)], "PgUp", false),
    b(A::EditorPageDown, &[k(K::PageDown)], "PgDn", false),
    b(A::Quit, &[ctrl_c('q')], "Ctrl-q", false),
];

/// A run in flight: laid over whatever else has the keys.
pub const RUNNING: &[Binding] = &[b(A::CancelRun, &[ctrl_c('c')], "Ctrl-c", true)];

/// A yes/no question in the footer. Any other key answers no without acting.
pub(crate) const CONFIRM: &[Binding] = &[
    b(A::Yes, &[c('y'), c('Y'), k(K::Enter)], "y", true),
    b(A::No, &[c('n'), c('N'), k(K::Esc)], "n", true),
];

/// Another window saved other code for an exercise this window changed too. Every other key
/// leaves the question up: the answer decides whose work the exercise keeps.
pub(crate) const CONFLICT: &[Binding] = &[
    b(A::KeepMine, &[c('m'), k(K::Esc)], "m", true),
    b(A::TakeTheirs, &[c('t')], "t", true),
    b(A::KeepBoth, &[c('b')], "b", true),
];

pub const HELP: &[Binding] = overlay![b(
    A::CloseOverlay,
    &[k(K::Esc), c('?'), c('q'), k(K::Enter)],
    "Esc",
    true,
)];

/// The comparison of `D` over the page.
pub(crate) const COMPARE: &[Binding] = overlay![b(
    A::CloseOverlay,
    &[k(K::Esc), c('q'), c('D'), k(K::Enter)],
    "Esc",
    true,
)];

/// Pasting a traceback after `!`: Enter is a new line (tracebacks have many), every other
/// key not listed is text; a paste arrives whole.
pub(crate) const EXPLAIN_INPUT: &[Binding] = &[
    b(A::ExplainSubmit, &[ctrl_c('d'), k(K::F(5))], "Ctrl-d", true),
    b(A::ExplainCancel, &[k(K::Esc)], "Esc", true),
    b(A::ExplainNewLine, &[k(K::Enter)], "Enter", false),
    b(A::ExplainErase, &[k(K::Backspace)], "Backspace", false),
];

/// The explanation over the page.
pub(crate) const EXPLAINED: &[Binding] = overlay![
    b(A::OpenLink, &[k(K::Enter), c('o')], "Enter", true),
    b(A::CloseOverlay, &[k(K::Esc), c('q'), c('!')], "Esc", true),
];

pub(crate) const LESSONS: &[Binding] = &[
    b(A::ListDown, &[c('j'), k(K::Down)], "↑↓", true),
    b(A::ListUp, &[c('k'), k(K::Up)], "↑", false),
    b(A::ListOpen, &[k(K::Enter)], "Enter", true),
    b(A::Answer, DIGITS, "1-9", false),
    b(A::CloseOverlay, &[k(K::Esc), c('l'), c('q')], "Esc", true),
];

/// The tables a context reads, first match wins. Cards and quizzes let the pager's keys through
/// (scrolling, quitting, lessons); the editor and the overlays do not.
pub fn layers(context: Context, running: bool) -> Vec<&'static [Binding]> {
    let mut layers: Vec<&'static [Binding]> = Vec::new();
    if running && context != Context::Confirm {
        layers.push(RUNNING);
    }
    match context {
        Context::Pager => layers.push(PAGER),
        Context::Searching => layers.extend([SEARCHING, PAGER]),
        Context::SearchInput => layers.push(SEARCH_INPUT),
        Context::Card => layers.extend([CARD, PAGER]),
        Context::Quiz => layers.extend([QUIZ, PAGER]),
        Context::Editor => layers.push(EDITOR),
        Context::Confirm => layers.push(CONFIRM),
        Context::Conflict => layers.push(CONFLICT),
        Context::Help => layers.push(HELP),
        Context::Lessons => layers.push(LESSONS),
        Context::Compare => layers.push(COMPARE),
        Context::ExplainInput => layers.push(EXPLAIN_INPUT),
        Context::Explained => layers.push(EXPLAINED),
    }
    layers
}

/// Whether an action works on the focused exercise card (and so needs one).
pub(crate) fn acts_on_card(action: Action) -> bool {
    use Action as A;
    matches!(
        action,
        A::Edit
            | A::Run
            | A::Hint
            | A::Solution
            | A::Reset
            | A::RestorePrevious
            | A::ToggleBlocking
            | A::PaneOutput
            | A::PaneMemory
            | A::PaneTimeline
            | A::PaneChecks
            | A::OutputBack
            | A::OutputForward
            | A::OutputLeft
            | A::OutputRight
            | A::Compare
            | A::EditOutside
    )
}

/// What the key does in this context, if anything.
pub fn lookup(context: Context, running: bool, key: &KeyEvent) -> Option<Action> {
    // On a focused card only the card's own keys take printable characters: every other
    // one is code being typed (app.rs opens the editor with it), never a reading command
    // that happens to start a word (`q = 1`, `print(...)`, `n = 3`). The reading keys that
    // type nothing (arrows, PgUp/PgDn, Home/End, Tab, Ctrl-d/u/q) still work there.
    let typing = context == Context::Card
        && matches!(key.code, KeyCode::Char(_))
        && !key
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
    let tables = if typing {
        // (the card's own tables, without the pager's that `layers` adds after them)
        let mut own: Vec<&'static [Binding]> = Vec::new();
        if running {
            own.push(RUNNING);
        }
        own.push(CARD);
        own
    } else {
        layers(context, running)
    };
    tables
        .into_iter()
        .flat_map(|layer| layer.iter())
        .find(|binding| binding.keys.iter().any(|k| k.matches(key)))
        .map(|binding| binding.action)
}

/// The footer's entries for this context: the first layer's (and a run's cancel key), in the
/// table's order.
pub fn footer(context: Context, running: bool) -> Vec<&'static Binding> {
    let layers = layers(context, running);
    let own = if running && context != Context::Confirm {
        2
    } else {
        1
    };
    layers
        .into_iter()
        .take(own)
        .flat_map(|layer| layer.iter())
        .filter(|binding| binding.footer)
        .collect()
}

/// How a key is written in the help overlay: `Ctrl-r`, `Shift-↑`, `F5`, `space`.
pub(crate) fn key_name(key: &Key) -> String {
    let base = match key.code {
        KeyCode::Char(' ') => "space".to_string(),
        KeyCode::Char(ch) => ch.to_string(),
        KeyCode::F(n) => format!("F{n}"),
        KeyCode::Up => "↑".into(),
        KeyCode::Down => "↓".into(),
        KeyCode::Left => "←".into(),
        KeyCode::Right => "→".into(),
        KeyCode::Home => "Home".into(),
        KeyCode::End => "End".into(),
        KeyCode::PageUp => "PgUp".into(),
        KeyCode::PageDown => "PgDn".into(),
        KeyCode::Tab => "Tab".into(),
        KeyCode::BackTab => "Shift-Tab".into(),
        KeyCode::Enter => "Enter".into(),
        KeyCode::Esc => "Esc".into(),
        KeyCode::Backspace => "Backspace".into(),
        other => format!("{other:?}"),
    };
    let mut name = String::new();
    if key.mods.contains(KeyModifiers::CONTROL) {
        name.push_str("Ctrl-");
    }
    if key.mods.contains(KeyModifiers::ALT) {
        name.push_str("Alt-");
    }
    if key.mods.contains(KeyModifiers::SHIFT) {
        name.push_str("Shift-");
    }
    name + &base
}

/// Every key of a binding, as the help overlay lists them; the digits of an answer as `1-9`.
pub fn keys_text(binding: &Binding) -> String {
    if binding.keys.len() == 9 {
        return binding.label.to_string();
    }
    binding
        .keys
        .iter()
        .map(key_name)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The help overlay's sections: each table once, every binding in it.
pub fn help_sections() -> [(HelpSection, &'static [Binding]); 8] {
    [
        (HelpSection::Reading, PAGER),
        (HelpSection::Search, SEARCHING),
        (HelpSection::Card, CARD),
        (HelpSection::Editor, EDITOR),
        (HelpSection::Quiz, QUIZ),
        (HelpSection::Running, RUNNING),
        (HelpSection::ExplainInput, EXPLAIN_INPUT),
        (HelpSection::Explained, EXPLAINED),
    ]
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HelpSection {
    Reading,
    Search,
    Card,
    Editor,
    Quiz,
    Running,
    ExplainInput,
    Explained,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode, mods: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, mods)
    }

    #[test]
    fn esc_never_means_quit_in_any_context() {
        for context in [
            Context::Pager,
            Context::Searching,
            Context::SearchInput,
            Context::Card,
            Context::Quiz,
            Context::Editor,
            Context::Confirm,
            Context::Conflict,
            Context::Help,
            Context::Lessons,
            Context::Compare,
            Context::ExplainInput,
            Context::Explained,
        ] {
            for running in [false, true] {
                let action = lookup(context, running, &key(KeyCode::Esc, KeyModifiers::NONE));
                assert_ne!(action, Some(Action::Quit), "{context:?}");
                let action = lookup(
                    context,
                    running,
                    &key(KeyCode::Char('c'), KeyModifiers::CONTROL),
                );
                assert_ne!(action, Some(Action::Quit), "Ctrl-c in {context:?}");
            }
        }
    }

    #[test]
    fn shift_counts_for_arrows_not_for_letters() {
        let g = key(KeyCode::Char('G'), KeyModifiers::SHIFT);
        assert_eq!(lookup(Context::Pager, false, &g), Some(Action::Bottom));
        let up = key(KeyCode::Up, KeyModifiers::SHIFT);
        assert_eq!(lookup(Context::Card, false, &up), Some(Action::OutputBack));
        assert_eq!(lookup(Context::Pager, false, &up), None);
        let back = key(KeyCode::BackTab, KeyModifiers::SHIFT);
        assert_eq!(lookup(Context::Card, false, &back), Some(Action::FocusPrev));
    }

    #[test]
    fn letters_and_enter_are_text_while_pasting_a_traceback() {
        for ch in "qhsxbrtmoiucjkgGnp/?{}[]1!".chars() {
            let ev = key(KeyCode::Char(ch), KeyModifiers::NONE);
            assert_eq!(lookup(Context::ExplainInput, false, &ev), None, "{ch}");
        }
        let enter = key(KeyCode::Enter, KeyModifiers::NONE);
        assert_eq!(
            lookup(Context::ExplainInput, false, &enter),
            Some(Action::ExplainNewLine)
        );
        let bang = key(KeyCode::Char('!'), KeyModifiers::NONE);
        assert_eq!(lookup(Context::Pager, false, &bang), Some(Action::Explain));
        // a focused card takes no printable key of the pager's: `!` is code there
        assert_eq!(lookup(Context::Card, false, &bang), None);
    }

    #[test]
    fn on_a_card_only_the_cards_letters_act_and_reading_keys_that_type_nothing_pass() {
        let plain = |ch| key(KeyCode::Char(ch), KeyModifiers::NONE);
        // the letters the card's table lists act
        for (ch, action) in [
            ('r', Action::Run),
            ('o', Action::PaneOutput),
            ('x', Action::Reset),
            ('?', Action::Help),
        ] {
            assert_eq!(lookup(Context::Card, false, &plain(ch)), Some(action));
        }
        // the pager's letters, `i` and other code are typed, not obeyed
        for ch in "qnpjkgGl/![]{} i=(9a".chars() {
            assert_eq!(lookup(Context::Card, false, &plain(ch)), None, "{ch:?}");
        }
        // keys that type nothing still read the page
        let down = key(KeyCode::Down, KeyModifiers::NONE);
        assert_eq!(
            lookup(Context::Card, false, &down),
            Some(Action::ScrollDown)
        );
        let quit = key(KeyCode::Char('q'), KeyModifiers::CONTROL);
        assert_eq!(lookup(Context::Card, false, &quit), Some(Action::Quit));
        let half = key(KeyCode::Char('d'), KeyModifiers::CONTROL);
        assert_eq!(
            lookup(Context::Card, false, &half),
            Some(Action::HalfPageDown)
        );
        // a quiz keeps the pager's letters
        assert_eq!(
            lookup(Context::Quiz, false, &plain('j')),
            Some(Action::ScrollDown)
        );
    }

    #[test]
    fn letters_are_text_in_the_editor() {
        for ch in "qhsxbrtmoiucjkgGnp/?{}[]1".chars() {
            let ev = key(KeyCode::Char(ch), KeyModifiers::NONE);
            assert_eq!(lookup(Context::Editor, false, &ev), None, "{ch}");
        }
    }

    #[test]
    fn every_footer_entry_is_a_key_of_its_context() {
        for context in [
            Context::Pager,
            Context::Card,
            Context::Editor,
            Context::Quiz,
        ] {
            for binding in footer(context, true) {
                assert!(!binding.keys.is_empty(), "{:?}", binding.action);
            }
        }
        let running = footer(Context::Card, true);
        assert_eq!(running[0].action, Action::CancelRun);
        let searching: Vec<Action> = footer(Context::Searching, false)
            .iter()
            .map(|b| b.action)
            .collect();
        assert!(searching.contains(&Action::NextMatch));
        assert!(!searching.contains(&Action::NextLesson), "{searching:?}");
    }
}
