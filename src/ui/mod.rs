//! The terminal UI: the lesson pager. `App` (app.rs) composes the components — the pager
//! (pager.rs), the card deck (deck.rs), the run controller (runs.rs) and the session
//! (session.rs) — and routes events to them through the one key table (keys.rs). Drawing is
//! `impl Widget for &App` (view.rs, card.rs, panes/), which only reads: the layout
//! (layout.rs) is computed from the state and the size before anything is drawn. Markdown
//! layout, wrapping, highlighting, styles and strings each have their own file.

mod app;
mod card;
mod deck;
mod exercise;
mod highlight;
pub mod keys;
mod layout;
mod markdown;
mod pager;
mod panes;
mod runs;
mod session;
mod signals;
mod strings;
mod theme;
mod tty;
mod view;
mod wrap;

pub use app::{App, Confirm, Overlay, SAVE_DEBOUNCE};
pub use exercise::{Card, EngineRunner, ExerciseRunner, Pane, human_size};
pub use layout::{At, PageLayout, SlotBox};
pub use runs::{STOP_GRACE, WALL_GRACE};
pub use strings::{README_BEGIN, README_END, readme_tables};
pub use theme::Theme;

use crate::progress::Store;
use crossterm::event::{
    self, DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
};
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::backend::CrosstermBackend;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

type Term = ratatui::Terminal<CrosstermBackend<std::io::Stdout>>;

/// Whether the terminal is in the pager's state (raw mode, alternate screen, mouse capture).
/// Restoring twice would move the cursor back a second time and hide what was printed in
/// between (a panic message), so every way out goes through `restore_terminal`, which acts once.
static TERMINAL_TAKEN: AtomicBool = AtomicBool::new(false);

fn take_terminal() -> std::io::Result<Term> {
    // A panic inside a run is the run's (an internal-error report): it must not restore the
    // terminal under the running pager, nor print over it.
    crate::run::contain::install_hook();
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if crate::run::contain::record(info) {
            return;
        }
        restore_terminal();
        previous(info);
    }));
    // The modes to put back if a fatal signal (an abort) ends the process.
    signals::install_fatal_handlers();
    enter_terminal()?;
    ratatui::Terminal::new(CrosstermBackend::new(std::io::stdout()))
}

/// Raw mode, the alternate screen, mouse capture and bracketed paste (pasted code arrives as
/// one event, not as keys, which would auto-indent).
fn enter_terminal() -> std::io::Result<()> {
    TERMINAL_TAKEN.store(true, Ordering::SeqCst);
    enable_raw_mode()?;
    execute!(
        std::io::stdout(),
        EnterAlternateScreen,
        EnableMouseCapture,
        EnableBracketedPaste
    )
}

/// Puts the terminal back as it was; does nothing the second time.
pub(crate) fn restore_terminal() {
    if TERMINAL_TAKEN.swap(false, Ordering::SeqCst) {
        let _ = execute!(
            std::io::stdout(),
            DisableBracketedPaste,
            DisableMouseCapture,
            LeaveAlternateScreen,
            crossterm::cursor::Show
        );
        let _ = disable_raw_mode();
    }
}

/// Runs the pager until the learner quits, then saves where they were. The terminal is put
/// back on every way out: normal quit, error (the guard's Drop) and panic (the hook).
pub fn run(mut app: App, store: Option<&Store>) -> anyhow::Result<()> {
    if let Some(store) = store {
        app = app.with_store(store.clone());
    }
    let guard = RestoreGuard;
    let mut terminal = take_terminal()?;
    let result = event_loop(&mut app, &mut terminal);
    app.cancel_run();
    app.remember_place();
    drop(guard);
    if let Some(store) = store
        && let Err(e) = store.save(app.progress())
    {
        // The error names the path (see Store::save). Not eprintln!: it panics when stderr is
        // the terminal that just went away.
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "cudatutor: could not save your place: {e}"
        );
    }
    result
}

fn event_loop(app: &mut App, terminal: &mut Term) -> anyhow::Result<()> {
    // A hidden trigger for the fault tests: proves the terminal is restored after a panic.
    #[cfg(feature = "fault-injection")]
    let panic_key = crate::fault_injection::panic_key();
    let termination = signals::Termination::install();
    let tty = tty::TtyWatch::open();
    let hung_up = || tty.as_ref().is_some_and(tty::TtyWatch::hung_up);
    // The layout is computed for the terminal's size before anything is drawn.
    let size = terminal.size()?;
    app.resize(size.width, size.height);
    terminal.draw(|f| f.render_widget(&*app, f.area()))?;
    while !app.quit {
        if termination.requested() || hung_up() {
            // kill, a closed terminal or a session manager: leave as `q` does (place saved).
            break;
        }
        if termination.take_suspend() {
            // SIGTSTP: the shell gets its terminal back while the pager is stopped.
            restore_terminal();
            signals::stop_self();
            enter_terminal()?;
            terminal.clear()?;
            terminal.draw(|f| f.render_widget(&*app, f.area()))?;
            continue;
        }
        // Wake often while a run's spinner turns or edits wait to be saved.
        let wait = if app.busy() { 80 } else { 250 };
        let ready = match event::poll(Duration::from_millis(wait)) {
            Ok(ready) => ready,
            // Reading a terminal that hung up mid-wait can fail (EIO): that is a way out too.
            Err(_) if hung_up() => break,
            Err(e) => return Err(e.into()),
        };
        if !ready {
            if app.tick(std::time::Instant::now()) {
                terminal.draw(|f| f.render_widget(&*app, f.area()))?;
            }
            continue;
        }
        let ev = event::read()?;
        #[cfg(feature = "fault-injection")]
        if let (Some(trigger), event::Event::Key(k)) = (panic_key, &ev)
            && k.code == event::KeyCode::Char(trigger)
        {
            panic!("test panic requested with CUDATUTOR_TEST_PANIC_KEY");
        }
        let changed = app.handle_event(&ev);
        if let Some(id) = app.take_outside_edit() {
            // `e`: the terminal is the editor's until it exits (main screen, cooked mode),
            // then the pager's again, redrawn from scratch.
            restore_terminal();
            app.edit_outside(&id);
            enter_terminal()?;
            terminal.clear()?;
        }
        if app.tick(std::time::Instant::now()) || changed {
            terminal.draw(|f| f.render_widget(&*app, f.area()))?;
        }
    }
    Ok(())
}

struct RestoreGuard;

impl Drop for RestoreGuard {
    fn drop(&mut self) {
        restore_terminal();
    }
}
