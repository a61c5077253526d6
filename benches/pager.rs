//! Pager speed: start-up to the first frame (load the embedded lessons, lay out, draw) and one
//! full redraw at 80x24 and 120x40, with the lesson layout cached and from scratch.

use criterion::{Criterion, criterion_group, criterion_main};
use cudatutor::lesson::{Catalog, Lang};
use cudatutor::progress::Progress;
use cudatutor::ui::{App, Theme};
use ratatui::{Terminal, backend::TestBackend};
use std::hint::black_box;

fn first_frame(c: &mut Criterion) {
    c.bench_function("startup_to_first_frame_80x24", |b| {
        b.iter(|| {
            let catalog = Catalog::builtin(Lang::En).unwrap();
            let app = App::new(
                catalog,
                Lang::En,
                Theme { color: true },
                Progress::default(),
                Some(2),
            );
            let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
            terminal.draw(|f| f.render_widget(&app, f.area())).unwrap();
            black_box(terminal.backend().buffer().area);
        })
    });
}

fn redraw(c: &mut Criterion) {
    for (w, h) in [(80u16, 24u16), (120, 40)] {
        let catalog = Catalog::builtin(Lang::En).unwrap();
        let app = App::new(
            catalog,
            Lang::En,
            Theme { color: true },
            Progress::default(),
            Some(2),
        );
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

criterion_group!(benches, first_frame, redraw);
criterion_main!(benches);
