//! `cudatutor run FILE`: what `python3 FILE` would print, plus (on a terminal) a short summary
//! of memory and of where an error happened on the device versus where the host reported it.

use super::Globals;
use crate::run::{RunOptions, RunReport};
use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// The script; `-` reads it from stdin.
    file: PathBuf,
    /// text: stdout and traceback as python3 prints them; json: the full RunReport.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Print the memory/timeline summary even when stderr is not a terminal.
    #[arg(long)]
    summary: bool,
    /// The script's wall-clock limit in seconds (default 10); past it the run ends with
    /// `TimeoutError: the script ran longer than N seconds`.
    #[arg(long, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..=3600))]
    time_limit: Option<u64>,
    /// When the script raises, explain it: the failing line, the tensor, the offending
    /// value against its bound, and the line where that value entered (docs/explain.md).
    #[arg(long)]
    explain: bool,
    /// Let the script read the files under DIR (csv, text, .npy/.npz, torch.load),
    /// read-only; nothing else of this machine. May be given more than once.
    #[arg(long, value_name = "DIR")]
    allow_read: Vec<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// `cudatutor run FILE`: exit 0 ran cleanly, 1 raised (or the status of `sys.exit`), 2 usage
/// or I/O error.
pub fn run(args: Args, globals: &Globals) -> anyhow::Result<ExitCode> {
    let (source, name) = match read_script(&args.file) {
        Ok(s) => s,
        Err(message) => return Ok(super::usage_error(message)),
    };
    if let Err(message) = crate::run::backend_available(&globals.opts) {
        return Ok(super::usage_error(message));
    }
    let max_wall = args
        .time_limit
        .map_or(globals.opts.max_wall, std::time::Duration::from_secs);
    let opts = RunOptions {
        filename: name,
        argv0: Some(args.file.display().to_string()),
        max_wall,
        // the wall limit stops long loops; the step limit scales with it
        max_steps: crate::run::steps_for(max_wall),
        // As `python FILE`: os.environ is this process's environment, so
        // `CUDA_LAUNCH_BLOCKING=1 cudatutor run FILE` works as the classic advice says
        env: process_env(),
        allow_read: args.allow_read.clone(),
        // Ctrl-c stops the run with KeyboardInterrupt
        cancel: Some(crate::run::sigint::cancel_on_sigint()),
        ..globals.opts.clone()
    };
    if !args.explain {
        return Ok(ExitCode::from(execute(
            &source,
            &opts,
            args.format,
            args.summary,
        )));
    }
    let (status, report) = execute_report(&source, &opts, args.format, args.summary);
    let lessons = super::learner::load_catalog(globals).ok();
    let text = super::explain::after_run(
        &report,
        &source,
        globals.lang,
        lessons.as_ref(),
        super::explain::width(),
    );
    if !text.is_empty() {
        // after the traceback, on stderr (stdout stays what python3 would print)
        let _ = std::io::stderr().lock().write_all(text.as_bytes());
    }
    Ok(ExitCode::from(status))
}

/// This process's environment, as `os.environ` sees it (entries that are not UTF-8 are left
/// out: CPython would decode them with surrogateescape, which the interpreter's str lacks).
fn process_env() -> Vec<(String, String)> {
    std::env::vars_os()
        .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?)))
        .collect()
}

/// Reads the script (`-` is stdin). Err is a usage/I-O message (exit 2).
///
/// At most one byte past the source limit ([`crate::run::MAX_SOURCE`]) is read, so
/// `run /dev/zero` or `yes | cudatutor run -` stops at once with the run's "source too long"
/// SyntaxError instead of reading the endless stream into memory.
pub fn read_script(path: &std::path::Path) -> Result<(String, String), String> {
    if path.as_os_str() == "-" {
        let bytes = read_limited(std::io::stdin().lock())
            .map_err(|e| format!("cannot read the script from stdin: {e}"))?;
        let text =
            source_text(bytes).map_err(|_| "the script on stdin is not UTF-8".to_string())?;
        return Ok((text, "<stdin>".into()));
    }
    let bytes = std::fs::File::open(path)
        .and_then(read_limited)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let text = source_text(bytes).map_err(|e| {
        format!(
            "{} is not UTF-8 (first bad byte at offset {})",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })?;
    Ok((text, traceback_name(path)))
}

/// Up to [`crate::run::MAX_SOURCE`] + 1 bytes of `r`.
fn read_limited(r: impl Read) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    r.take(crate::run::MAX_SOURCE as u64 + 1)
        .read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// The source as text. One that was cut at the limit is too long whatever its bytes: it goes
/// on (lossily decoded, still over the limit) to the run's SyntaxError.
fn source_text(bytes: Vec<u8>) -> Result<String, std::string::FromUtf8Error> {
    if bytes.len() > crate::run::MAX_SOURCE {
        return Ok(String::from_utf8_lossy(&bytes).into_owned());
    }
    String::from_utf8(bytes)
}

/// The script's name in tracebacks. Since 3.9 `python3 FILE` makes a relative FILE absolute by
/// prefixing the working folder, nothing more (`./a.py` is `/cwd/./a.py`, `..` stays), so
/// `cudatutor run` does the same.
fn traceback_name(path: &std::path::Path) -> String {
    if path.is_absolute() {
        return path.display().to_string();
    }
    match std::env::current_dir() {
        Ok(cwd) => format!("{}/{}", cwd.display(), path.display()),
        Err(_) => path.display().to_string(),
    }
}

/// Runs the script and prints the result; returns the exit status (0 ok, 1 raised; 141 when
/// stdout's reader went away, 2 when stdout cannot be written otherwise, see
/// [`super::output`]).
pub fn execute(source: &str, opts: &RunOptions, format: Format, summary: bool) -> u8 {
    execute_report(source, opts, format, summary).0
}

/// [`execute`], also returning the run's report (for `run --explain`).
pub(crate) fn execute_report(
    source: &str,
    opts: &RunOptions,
    format: Format,
    summary: bool,
) -> (u8, RunReport) {
    let report = crate::run::run_script(source, opts);
    let status = print_report(&report, format, summary);
    (status, report)
}

fn print_report(report: &RunReport, format: Format, summary: bool) -> u8 {
    let written = match format {
        Format::Json => super::output::emit(&format!(
            "{}\n",
            serde_json::to_string_pretty(report).unwrap_or_default()
        )),
        Format::Text => emit_interleaved(report).map(|()| {
            let mut err = std::io::stderr().lock();
            if summary || std::io::stderr().is_terminal() {
                let _ = err.write_all(render_summary(report).as_bytes());
            }
        }),
    };
    match written {
        Ok(()) => match report.exit_status {
            // interrupted by Ctrl-c: the status a shell shows for python3 stopped by it
            _ if report
                .error
                .as_ref()
                .is_some_and(|e| e.type_name == "KeyboardInterrupt") =>
            {
                crate::run::sigint::INTERRUPTED_STATUS
            }
            // The low byte, as the process status python3 exits with.
            Some(code) => (code & 0xff) as u8,
            None => u8::from(!report.ok),
        },
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => super::output::BROKEN_PIPE_STATUS,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "cudatutor: {e}");
            2
        }
    }
}

/// Human sizes as PyTorch's format_size prints them, as `explain` writes the sizes it reads.
pub(crate) fn format_bytes(n: u64) -> String {
    crate::explain::format_size(n as f64)
}

/// The few lines after a run: backend, memory, and the deferred-error gap when there is one.
pub(crate) fn render_summary(r: &RunReport) -> String {
    let mut s = format!(
        "\n── cudatutor: {} backend{}, {}{}\n",
        r.backend,
        if r.backend == "pytorch" {
            format!(" ({})", crate::run::pytorch::UNSANDBOXED_NOTE)
        } else {
            String::new()
        },
        r.device_name,
        if r.launch_blocking {
            ", CUDA_LAUNCH_BLOCKING=1"
        } else {
            ""
        }
    );
    if let Some(note) = &r.backend_note {
        s.push_str(&format!("   {note}\n"));
    }
    s.push_str(&format!(
        "   memory_allocated {} · memory_reserved {} · peak {}\n",
        format_bytes(r.memory.allocated),
        format_bytes(r.memory.reserved),
        format_bytes(r.memory.peak_allocated)
    ));
    if let Some(e) = &r.error
        && let (Some(origin), Some(line)) = (e.origin_line, e.line)
    {
        let gap = match crate::run::assert_gap(&r.timeline) {
            Some(g) => format!(", {:.1} µs after the failing launch returned", g.us),
            None => String::new(),
        };
        s.push_str(&format!(
            "   the failing kernel was launched on line {origin}; the host reported it on line {line}{gap}{}\n",
            if r.modelled { " (modelled)" } else { "" }
        ));
    }
    s
}

/// stdout and stderr in the order the script wrote them (a caught assert's device line
/// before the script's later prints, as python3 on a terminal), each flushed before the
/// other stream's turn. A closed stderr is not worth failing over: the status still says
/// what happened; a closed stdout is ([`super::output::emit`]).
fn emit_interleaved(report: &RunReport) -> std::io::Result<()> {
    for (to_stderr, text) in report.interleaved() {
        if to_stderr {
            let mut err = std::io::stderr().lock();
            let _ = err.write_all(text.as_bytes()).and_then(|()| err.flush());
        } else {
            super::output::emit(text)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::format_bytes;

    #[test]
    fn sizes_print_like_pytorch() {
        assert_eq!(format_bytes(512), "512 bytes");
        assert_eq!(format_bytes(2 << 20), "2.00 MiB");
        assert_eq!(format_bytes(20 << 20), "20.00 MiB");
        assert_eq!(format_bytes(1536), "1.50 KiB");
        assert_eq!(format_bytes(80 << 30), "80.00 GiB");
    }
}
