//! The terminal UI: the lesson pager. `App` holds state and handles events (app.rs); drawing is
//! `impl Widget for &App` (view.rs); Markdown layout, wrapping, highlighting, styles and strings
//! each have their own file.

mod app;
mod highlight;
mod markdown;
mod strings;
mod theme;
mod view;
mod wrap;

pub use app::{App, Mode};
pub use theme::Theme;

use crate::progress::Store;
use crossterm::event::{self, DisableMouseCapture, EnableMouseCapture};
use crossterm::execute;
use std::time::Duration;

/// Runs the pager until the learner quits, then saves where they were. The terminal is put
/// back on every way out: normal quit, error (the guard's Drop) and panic (ratatui's hook,
/// wrapped by ours so mouse capture is released too).
pub fn run(mut app: App, store: Option<&Store>) -> anyhow::Result<()> {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = execute!(std::io::stdout(), DisableMouseCapture);
        previous(info);
    }));
    let mut terminal = ratatui::try_init()?;
    let _guard = RestoreGuard;
    execute!(std::io::stdout(), EnableMouseCapture)?;
    let result = event_loop(&mut app, &mut terminal);
    app.remember_place();
    drop(_guard);
    if let Some(store) = store
        && let Err(e) = store.save(&app.progress)
    {
        eprintln!(
            "cudatutor: could not save your place to {}: {e}",
            store.path().display()
        );
    }
    result
}

fn event_loop(app: &mut App, terminal: &mut ratatui::DefaultTerminal) -> anyhow::Result<()> {
    // A hidden trigger for the fault tests: proves the terminal is restored after a panic.
    let panic_key = std::env::var_os("CUDATUTOR_TEST_PANIC_KEY")
        .and_then(|v| v.into_string().ok())
        .and_then(|s| s.chars().next());
    terminal.draw(|f| f.render_widget(&*app, f.area()))?;
    while !app.quit {
        if !event::poll(Duration::from_millis(250))? {
            continue;
        }
        let ev = event::read()?;
        if let (Some(trigger), event::Event::Key(k)) = (panic_key, &ev)
            && k.code == event::KeyCode::Char(trigger)
        {
            panic!("test panic requested with CUDATUTOR_TEST_PANIC_KEY");
        }
        if app.handle_event(&ev) {
            terminal.draw(|f| f.render_widget(&*app, f.area()))?;
        }
    }
    Ok(())
}

struct RestoreGuard;

impl Drop for RestoreGuard {
    fn drop(&mut self) {
        let _ = execute!(std::io::stdout(), DisableMouseCapture);
        ratatui::restore();
    }
}
