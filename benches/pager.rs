//! Pager speed: start-up to the first frame (load the embedded lessons, lay out, draw) and one
//! full redraw at 80x24 and 120x40, with the lesson layout cached and from scratch; and one
//! keystroke in an exercise's editor to the next frame.

use criterion::{Criterion, criterion_group, criterion_main};
use cudatutor::lesson::{Catalog, Lang};
use cudatutor::progress::Progress;
use cudatutor::ui::{App, Theme};
use ratatui::{Terminal, backend::TestBackend};
use std::hint::black_box;

/// The pager on `catalog` in English and colour, with no progress, open on lesson index
/// `lesson` (None: the lesson list).
fn pager(catalog: Catalog, lesson: Option<usize>) -> App {
    App::new(
        catalog,
        Lang::En,
        Theme { color: true },
        Progress::default(),
        lesson,
    )
}

fn first_frame(c: &mut Criterion) {
    c.bench_function("startup_to_first_frame_80x24", |b| {
        b.iter(|| {
            let app = pager(Catalog::builtin(Lang::En).unwrap(), Some(2));
            let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
            terminal.draw(|f| f.render_widget(&app, f.area())).unwrap();
            black_box(terminal.backend().buffer().area);
        })
    });
}

fn redraw(c: &mut Criterion) {
    for (w, h) in [(80u16, 24u16), (120, 40)] {
        let app = pager(Catalog::builtin(Lang::En).unwrap(), Some(2));
        let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
        terminal.draw(|f| f.render_widget(&app, f.area())).unwrap();
        c.bench_function(&format!("full_render_{w}x{h}_cached_layout"), |b| {
            b.iter(|| {
                // A fresh buffer each time, so every cell is drawn and compared, not just a diff.
                terminal.clear().unwrap();
                terminal.draw(|f| f.render_widget(&app, f.area())).unwrap();
            })
        });
        c.bench_function(&format!("full_render_{w}x{h}_relayout"), |b| {
            let mut width = w;
            b.iter(|| {
                // Alternating widths forces the Markdown layout to be redone, as on a resize.
                width = if width == w { w - 1 } else { w };
                terminal
                    .resize(ratatui::layout::Rect::new(0, 0, width, h))
                    .unwrap();
                terminal.draw(|f| f.render_widget(&app, f.area())).unwrap();
            })
        });
    }
}

/// One keystroke in an exercise's editor to the next frame: the key goes through the App
/// (card first, then pager), the card is re-planned and the whole screen drawn, at 120x40.
fn keystroke_editor(c: &mut Criterion) {
    use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/lessons/exercise");
    let catalog = Catalog::from_dir(&dir).unwrap();
    let mut app = pager(catalog, None);
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).unwrap();
    terminal.draw(|f| f.render_widget(&app, f.area())).unwrap();
    let key = |code| Event::Key(KeyEvent::new(code, KeyModifiers::NONE));
    app.handle_event(&key(KeyCode::Tab));
    app.handle_event(&key(KeyCode::Enter));
    terminal.draw(|f| f.render_widget(&app, f.area())).unwrap();
    let mut typed = false;
    c.bench_function("keystroke_to_frame_editor_120x40", |b| {
        b.iter(|| {
            // Type a character, then delete it next time, so the code keeps its size.
            let code = if typed {
                KeyCode::Backspace
            } else {
                KeyCode::Char('x')
            };
            typed = !typed;
            app.handle_event(&key(code));
            terminal.draw(|f| f.render_widget(&app, f.area())).unwrap();
            black_box(terminal.backend().buffer().area);
        })
    });
}

criterion_group!(benches, first_frame, redraw, keystroke_editor);
criterion_main!(benches);
