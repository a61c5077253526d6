//! `cudatutor explain [FILE|-]` and `cudatutor run --explain SCRIPT`: a pasted error, or the
//! error of the learner's own script, explained (src/explain/).

use super::Globals;
use crate::explain::{self, Options};
use crate::lesson::{Catalog, Lang};
use crate::run::RunReport;
use std::io::{IsTerminal, Read};
use std::path::Path;

#[derive(clap::Args)]
pub struct Args {
    /// The pasted text; `-` or nothing reads stdin.
    file: Option<std::path::PathBuf>,
}

/// `cudatutor explain`: exit 0 with the explanation, 2 when the input cannot be read.
pub fn run(args: Args, globals: &Globals) -> anyhow::Result<std::process::ExitCode> {
    let text = match read_input(args.file.as_deref()) {
        Ok(t) => t,
        Err(message) => return Ok(super::usage_error(message)),
    };
    let lessons = super::learner::load_catalog(globals).ok();
    super::output::emit(&explain_text(
        &text,
        globals.lang,
        lessons.as_ref(),
        width(),
    ))?;
    Ok(std::process::ExitCode::SUCCESS)
}

/// The most bytes read from the input; the explainer keeps the end of a longer log.
const MAX_INPUT: u64 = 16 << 20;

/// Reads the paste: FILE, or stdin for `-` and for no argument. Invalid UTF-8 is replaced, not
/// refused: a log may hold anything. Err is an I/O message (exit 2).
pub(crate) fn read_input(file: Option<&Path>) -> Result<String, String> {
    let bytes = match file {
        None => read_stdin()?,
        Some(p) if p.as_os_str() == "-" => read_stdin()?,
        Some(p) => match crate::regular_file::read(p, MAX_INPUT) {
            Ok(b) => b,
            // a larger log: its end holds the error
            Err(crate::regular_file::ReadError::TooLarge(_)) => read_tail(p)?,
            Err(e) => return Err(format!("cannot read {}: {}", p.display(), describe(e))),
        },
    };
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

fn read_stdin() -> Result<Vec<u8>, String> {
    if std::io::stdin().is_terminal() {
        eprintln!(
            "cudatutor explain: paste the traceback or log, then press Ctrl-d (Ctrl-z Enter on Windows)"
        );
    }
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .take(MAX_INPUT)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read stdin: {e}"))?;
    Ok(bytes)
}

fn read_tail(p: &Path) -> Result<Vec<u8>, String> {
    use std::io::{Seek, SeekFrom};
    let mut f = std::fs::File::open(p).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
    let len = f.metadata().map(|m| m.len()).unwrap_or(0);
    f.seek(SeekFrom::Start(len.saturating_sub(MAX_INPUT)))
        .map_err(|e| format!("cannot read {}: {e}", p.display()))?;
    let mut bytes = Vec::new();
    f.take(MAX_INPUT)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {}: {e}", p.display()))?;
    Ok(bytes)
}

fn describe(e: crate::regular_file::ReadError) -> String {
    use crate::regular_file::ReadError;
    match e {
        ReadError::Io(e) => e.to_string(),
        ReadError::Directory => "it is a folder".into(),
        ReadError::NotRegular => "not a regular file".into(),
        ReadError::TooLarge(n) => format!("{n} bytes is too large"),
    }
}

/// The width to wrap at: the terminal's, else 100 columns.
pub fn width() -> usize {
    if std::io::stdout().is_terminal()
        && let Ok((w, _)) = crossterm::terminal::size()
    {
        return usize::from(w).clamp(40, 140);
    }
    100
}

/// `cudatutor explain`: the explanation text of a paste. Scripts named in the traceback are
/// read (read-only, size-limited) to find a deferred error's launching line.
pub(crate) fn explain_text(
    text: &str,
    lang: Lang,
    lessons: Option<&Catalog>,
    width: usize,
) -> String {
    let read = |path: &str| explain::origin::read_from_disk(path);
    let e = explain::explain(
        text,
        &Options {
            lang,
            lessons,
            read_script: Some(&read),
        },
    );
    e.render(lang, width)
}

/// `run --explain`: after the run's own output, what the GPU (or the CPU) could not do, from
/// the engine's record of the failing check, then the catalogue's explanation of the error.
/// Empty when the run raised nothing.
pub(crate) fn after_run(
    report: &RunReport,
    source: &str,
    lang: Lang,
    lessons: Option<&Catalog>,
    width: usize,
) -> String {
    let Some(error) = &report.error else {
        return String::new();
    };
    let mut out = String::new();
    let rule = match lang {
        Lang::En => "── cudatutor run --explain ──",
        Lang::Zh => "── cudatutor run --explain ──",
    };
    out.push('\n');
    out.push_str(rule);
    out.push('\n');
    if let Some(detail) = &error.detail {
        let heading = match (lang, error.origin_line.is_some()) {
            (Lang::En, true) => "What the GPU could not do",
            (Lang::En, false) => "What the failing call could not do",
            (Lang::Zh, true) => "GPU 做不到的是什么",
            (Lang::Zh, false) => "出错的调用做不到的是什么",
        };
        out.push_str(heading);
        out.push('\n');
        for s in explain::culprit::describe(detail, source, lang) {
            for l in explain::render::wrap(&s, width.saturating_sub(2)) {
                out.push_str("  ");
                out.push_str(&l);
                out.push('\n');
            }
        }
        if let (Some(origin), Some(line)) = (error.origin_line, error.line)
            && origin != line
        {
            let s = match lang {
                Lang::En => format!(
                    "The traceback names line {line}: that is where the host noticed the failure; the kernel failed on line {origin}."
                ),
                Lang::Zh => format!(
                    "traceback 指出的是第 {line} 行：那是主机发现失败的地方；内核是在第 {origin} 行失败的。"
                ),
            };
            for l in explain::render::wrap(&s, width.saturating_sub(2)) {
                out.push_str("  ");
                out.push_str(&l);
                out.push('\n');
            }
        }
        out.push('\n');
    }
    // the device log and the traceback, as a learner would paste them
    let mut pasted = String::new();
    for l in &error.device_log {
        pasted.push_str(l);
        pasted.push('\n');
    }
    pasted.push_str(&error.traceback);
    let lines: Vec<&str> = source.lines().collect();
    let read = |_: &str| Some(lines.join("\n"));
    let e = explain::explain(
        &pasted,
        &Options {
            lang,
            lessons,
            read_script: Some(&read),
        },
    );
    out.push_str(&e.render(lang, width));
    out
}
