//! Writing a command's output to stdout. A reader that goes away early (`cudatutor list |
//! head -1`) is not a failure of ours: the command stops quietly with status 141, what a shell
//! reports for a process ended by SIGPIPE, instead of Rust's "failed printing to stdout" panic.
//! SIGPIPE itself stays ignored (Rust's default): the pager and `run` write to GPU workers'
//! pipes, and a crashed worker must be an error there, not the death of the parent.

use std::io::Write;

/// The exit status after stdout was closed by its reader (128 + SIGPIPE).
pub const BROKEN_PIPE_STATUS: u8 = 141;

/// Writes `text` to stdout and flushes it. The error says it was stdout that failed.
pub(crate) fn emit(text: &str) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| std::io::Error::new(e.kind(), StdoutError(e)))
}

/// An error writing stdout, shown as "cannot write to stdout: <OS error>".
#[derive(Debug)]
struct StdoutError(std::io::Error);

impl std::fmt::Display for StdoutError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot write to stdout: {}", self.0)
    }
}

impl std::error::Error for StdoutError {}

/// True when `e` (or what caused it) is a write to a pipe nobody reads any more.
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
