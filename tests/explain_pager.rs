//! `!` in the pager: paste a traceback, Ctrl-d explains it over the page, Enter opens the
//! lesson section that teaches it — on the built-in lessons, in English and Chinese.

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use cudatutor::lesson::{Catalog, Lang};
use cudatutor::progress::Progress;
use cudatutor::ui::{App, Overlay, Theme};
use ratatui::{Terminal, backend::TestBackend};

const PASTE: &str = "/pytorch/aten/src/ATen/native/cuda/Indexing.cu:1515: indexSelectSmallIndex: block: [0,0,0], thread: [0,0,0] Assertion `srcIndex < srcSelectDimSize` failed.\nTraceback (most recent call last):\n  File \"/home/me/lm.py\", line 41, in <module>\n    h = self.embedding(tokens)\ntorch.AcceleratorError: CUDA error: device-side assert triggered\n";

fn app(lang: Lang) -> App {
    let catalog = Catalog::builtin(lang).unwrap();
    let mut app = App::new(
        catalog,
        lang,
        Theme { color: false },
        Progress::default(),
        Some(0),
    );
    app.handle_event(&Event::Resize(100, 30));
    app
}

fn key(app: &mut App, code: KeyCode, mods: KeyModifiers) {
    app.handle_event(&Event::Key(KeyEvent::new(code, mods)));
}

/// The screen's text; a wide character's second cell is a blank, so Chinese is compared without
/// spaces.
fn compact(app: &App) -> String {
    screen(app).chars().filter(|c| *c != ' ').collect()
}

fn screen(app: &App) -> String {
    let mut terminal = Terminal::new(TestBackend::new(100, 30)).unwrap();
    terminal.draw(|f| f.render_widget(app, f.area())).unwrap();
    let buf = terminal.backend().buffer().clone();
    (0..buf.area.height)
        .map(|y| {
            (0..buf.area.width)
                .map(|x| buf[(x, y)].symbol().to_string())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_pasted_traceback_is_explained_and_its_link_opens_the_section() {
    let mut app = app(Lang::En);
    key(&mut app, KeyCode::Char('!'), KeyModifiers::NONE);
    assert!(matches!(app.overlay, Overlay::ExplainInput(_)));
    assert!(screen(&app).contains("Explain an error"));
    // letters are text here, not commands: `q` does not quit
    key(&mut app, KeyCode::Char('q'), KeyModifiers::NONE);
    key(&mut app, KeyCode::Backspace, KeyModifiers::NONE);
    assert!(!app.quit);
    app.handle_event(&Event::Paste(PASTE.replace('\n', "\r\n")));
    key(&mut app, KeyCode::Char('d'), KeyModifiers::CONTROL);
    let Overlay::Explained { link, .. } = &app.overlay else {
        panic!("no explanation: {:?}", app.overlay);
    };
    let link = link.clone().expect("a lesson link");
    assert_eq!(link.lesson_id, "device-asserts");
    assert_eq!(link.section, "Embedding index out of range");
    let shown = screen(&app);
    assert!(shown.contains("embedding table"), "{shown}");
    // scrolling the explanation, then Enter: the lesson opens at the section
    key(&mut app, KeyCode::Char('j'), KeyModifiers::NONE);
    key(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    assert_eq!(app.overlay, Overlay::None);
    assert_eq!(app.pager.current, link.lesson_index);
    assert!(app.pager.scroll > 0);
    let shown = screen(&app);
    let top_lines: String = shown.lines().take(5).collect::<Vec<_>>().join("\n");
    assert!(
        top_lines.contains("Embedding index out of range"),
        "{shown}"
    );
}

#[test]
fn the_prompt_and_the_explanation_speak_chinese() {
    let mut app = app(Lang::Zh);
    key(&mut app, KeyCode::Char('!'), KeyModifiers::NONE);
    assert!(compact(&app).contains("解释错误"), "{}", screen(&app));
    // Ctrl-d with nothing pasted says so and keeps the prompt
    key(&mut app, KeyCode::Char('d'), KeyModifiers::CONTROL);
    assert!(matches!(app.overlay, Overlay::ExplainInput(_)));
    assert!(app.status.as_deref().unwrap_or("").contains("还没有粘贴"));
    app.handle_event(&Event::Paste(PASTE.to_string()));
    key(&mut app, KeyCode::F(5), KeyModifiers::NONE);
    let Overlay::Explained { link, .. } = &app.overlay else {
        panic!("no explanation");
    };
    assert_eq!(link.as_ref().unwrap().section, "Embedding 索引越界");
    assert!(compact(&app).contains("这是什么"), "{}", screen(&app));
    key(&mut app, KeyCode::Esc, KeyModifiers::NONE);
    assert_eq!(app.overlay, Overlay::None);
}

#[test]
fn the_help_lists_the_explain_keys() {
    let mut app = app(Lang::En);
    key(&mut app, KeyCode::Char('?'), KeyModifiers::NONE);
    for _ in 0..40 {
        key(&mut app, KeyCode::Char('j'), KeyModifiers::NONE);
    }
    let help = cudatutor::ui::keys::help_sections();
    assert!(help.iter().any(|(_, b)| {
        b.iter()
            .any(|b| b.action == cudatutor::ui::keys::Action::Explain)
    }));
    assert!(help.iter().any(|(_, b)| {
        b.iter()
            .any(|b| b.action == cudatutor::ui::keys::Action::OpenLink)
    }));
}
