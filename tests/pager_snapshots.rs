//! Whole-screen snapshots of the pager (ratatui TestBackend + insta) on fixture lessons, at
//! 80x24 and 120x40, and the smallest sizes, which must draw without a panic.

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use cudatutor::lesson::{Catalog, Lang};
use cudatutor::progress::Progress;
use cudatutor::ui::{App, Theme};
use ratatui::{Terminal, backend::TestBackend};
use std::path::Path;

#[path = "support/pager.rs"]
mod pager;
use pager::{app_on, draw, frame_text, fresh_app};

fn app() -> App {
    app_on("tests/fixtures/lessons/good", Lang::En, Progress::default())
}

/// The fixture pager drawn at `w`x`h` (so it knows its size), after `typed` is typed: the
/// terminal it draws next.
fn drawn_after(typed: &str, w: u16, h: u16) -> Terminal<TestBackend> {
    let mut app = app();
    draw(&mut app, w, h);
    keys(&mut app, typed);
    draw(&mut app, w, h)
}

fn keys(app: &mut App, keys: &str) {
    for c in keys.chars() {
        let code = if c == '\n' {
            KeyCode::Enter
        } else {
            KeyCode::Char(c)
        };
        app.handle_event(&Event::Key(KeyEvent::new(code, KeyModifiers::NONE)));
    }
}

/// At 80 columns the lesson list folds away by itself; `t` opens it.
#[test]
fn toc_open_80x24() {
    insta::assert_snapshot!(drawn_after("t", 80, 24).backend());
}

#[test]
fn toc_closed_80x24() {
    insta::assert_snapshot!(draw(&mut app(), 80, 24).backend());
}

/// The lesson list is open where it leaves the text room (100 columns and more), folded below;
/// `t` is the learner's choice and holds at any width.
#[test]
fn the_lesson_list_folds_away_at_narrow_widths() {
    let mut app = app();
    assert!(!frame_text(&mut app, 80, 24).contains("Lessons ─"));
    assert!(frame_text(&mut app, 120, 40).contains("Lessons ─"));
    keys(&mut app, "t");
    assert!(!frame_text(&mut app, 120, 40).contains("Lessons ─"));
    assert!(!frame_text(&mut app, 80, 24).contains("Lessons ─"));
    keys(&mut app, "t");
    assert!(frame_text(&mut app, 80, 24).contains("Lessons ─"));
}

/// The words of the first row under the top border of a frame's text, without the borders
/// and the scroll bar.
fn first_text_row(frame: &str) -> String {
    frame
        .lines()
        .nth(1)
        .unwrap()
        .trim_matches('"')
        .split_whitespace()
        .filter(|w| !w.contains('█') && !w.contains('║') && !w.contains('│'))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A resize keeps the reading position: the section heading at the top of the screen is still
/// there after the page is laid out at another width (the row number is not kept: it would be
/// another place at another width).
#[test]
fn a_resize_keeps_the_reading_position() {
    let catalog = Catalog::builtin(Lang::En).unwrap();
    let mut app = fresh_app(catalog, Some(2));
    draw(&mut app, 120, 40);
    // The lesson list closed at every width, so the first row is the page's text alone.
    keys(&mut app, "t}}}");
    let before = frame_text(&mut app, 120, 40);
    let heading = first_text_row(&before);
    assert!(!heading.is_empty(), "{before}");
    for (w, h) in [(80, 24), (100, 30), (120, 40)] {
        let after = frame_text(&mut app, w, h);
        let first = first_text_row(&after);
        assert!(
            first.starts_with(&heading) || heading.starts_with(&first),
            "{w}x{h}: top was {heading:?}, now {first:?}:\n{after}"
        );
    }
}

#[test]
fn table_120x40() {
    insta::assert_snapshot!(draw(&mut app(), 120, 40).backend());
}

#[test]
fn help_overlay_80x24() {
    insta::assert_snapshot!(drawn_after("?", 80, 24).backend());
}

#[test]
fn search_hit_80x24() {
    let terminal = drawn_after("/device\n", 80, 24);
    insta::assert_snapshot!(terminal.backend());
    // The footer reports the hit count and the view moved to show the first hit.
    let screen = format!("{}", terminal.backend());
    assert!(screen.contains("1/"), "{screen}");
}

#[test]
fn second_lesson_120x40() {
    let mut app = app();
    keys(&mut app, "n");
    insta::assert_snapshot!(draw(&mut app, 120, 40).backend());
}

#[test]
fn small_40x12_and_tiny_sizes_draw_without_panic() {
    let mut app = app();
    insta::assert_snapshot!(draw(&mut app, 40, 12).backend());
    for (w, h) in [
        (1, 1),
        (5, 2),
        (19, 5),
        (20, 6),
        (40, 12),
        (300, 3),
        (3, 300),
    ] {
        draw(&mut app, w, h);
        keys(&mut app, "jGg?\u{1b}/x\nnp");
        draw(&mut app, w, h);
    }
}

#[test]
fn scrolling_keys_move_and_clamp() {
    let mut app = app();
    draw(&mut app, 80, 24);
    keys(&mut app, "jjj");
    assert_eq!(app.pager.scroll, 3);
    keys(&mut app, "kkkkk");
    assert_eq!(app.pager.scroll, 0);
    keys(&mut app, "G");
    let bottom = app.pager.scroll;
    assert_eq!(bottom, app.layout().max_scroll());
    assert!(bottom > 0);
    keys(&mut app, "j");
    assert_eq!(app.pager.scroll, bottom, "cannot scroll past the end");
    keys(&mut app, "g");
    assert_eq!(app.pager.scroll, 0);
}

#[test]
fn search_hits_are_highlighted_even_without_colour() {
    let terminal = drawn_after("/GPU tensor\n", 80, 24);
    let buf = terminal.backend().buffer();
    let screen: Vec<String> = (0..24)
        .map(|y| (0..80).map(|x| buf[(x, y)].symbol().to_string()).collect())
        .collect();
    let (y, line) = screen
        .iter()
        .enumerate()
        .find(|(_, l)| l.contains("GPU tensor"))
        .expect("hit on screen");
    let x = line.chars().take_while(|_| true).collect::<Vec<_>>();
    let col = x
        .windows(3)
        .position(|w| w.iter().collect::<String>() == "GPU")
        .unwrap() as u16;
    let cell = &buf[(col, y as u16)];
    assert!(
        cell.modifier.contains(ratatui::style::Modifier::REVERSED),
        "current hit is reversed under NO_COLOR: {cell:?}"
    );
    let after = &buf[(col + 11, y as u16)];
    assert!(
        !after.modifier.contains(ratatui::style::Modifier::REVERSED),
        "only the hit is marked"
    );
}

/// Inline code wraps as one unit with the punctuation touching it: never split inside a span
/// (its spaces included) unless the span is wider than the text column.
#[test]
fn inline_code_is_never_split_across_lines_80x24_and_100x30() {
    let catalog = Catalog::from_dir(Path::new("tests/fixtures/lessons/inline-code")).unwrap();
    let spans = [
        "`x.to(\"cuda\", non_blocking=True)`,",
        "`torch.cuda.synchronize()`",
        "(or",
        "`loss.item()`,",
        "`F.cross_entropy(logits, labels)`;",
        "`loss < 0.1`",
        "`torch.allclose(a, b, atol=1e-6)`",
        "(`end - start`)",
        "(`x.pin_memory().to(\"cuda\", non_blocking=True)`)",
    ]
    .map(|s| s.replace('`', ""));
    for (width, height) in [(80u16, 24u16), (100, 30)] {
        let mut app = App::new(
            catalog.clone(),
            Lang::En,
            Theme { color: false },
            Progress::default(),
            None,
        );
        let screen = frame_text(&mut app, width, height);
        for span in &spans {
            assert!(
                screen.lines().any(|row| row.contains(span.as_str())),
                "{width}x{height}: `{span}` is split:\n{screen}"
            );
        }
        insta::assert_snapshot!(format!("inline_code_{width}x{height}"), screen);
    }
}
