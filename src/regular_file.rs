//! Reading a file the user names (a lesson, the progress file) so that it can neither hang
//! nor flood the process: only regular files are read (a FIFO would block the reader forever,
//! a device file would never end), and at most a given size.

use std::io::Read;
use std::path::Path;

/// Why a file was not read.
#[derive(Debug)]
pub(crate) enum ReadError {
    /// Opening or reading failed (NotFound included).
    Io(std::io::Error),
    Directory,
    /// A FIFO, socket or device.
    NotRegular,
    /// Its size in bytes (or, for a file that grew while it was read, the bytes read).
    TooLarge(u64),
}

/// The bytes of the regular file at `path`, at most `max` of them. The file is opened without
/// blocking (a FIFO swapped in after a check cannot hang the open) and its type and size come
/// from the open handle; `take` stops a file that grows while it is read.
pub(crate) fn read(path: &Path, max: u64) -> Result<Vec<u8>, ReadError> {
    read_with(path, max, false)
}

/// [`read`], refusing a symbolic link as the last component (`O_NOFOLLOW`: the open itself
/// fails, so a link swapped in after a check is refused too). For files a learner hands in
/// (`import DIR`): a submitted `X.py -> /etc/passwd` must not become saved code.
pub(crate) fn read_no_follow(path: &Path, max: u64) -> Result<Vec<u8>, ReadError> {
    read_with(path, max, true)
}

fn read_with(path: &Path, max: u64, no_follow: bool) -> Result<Vec<u8>, ReadError> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        let follow = if no_follow { libc::O_NOFOLLOW } else { 0 };
        options.custom_flags(libc::O_NONBLOCK | follow);
    }
    #[cfg(not(unix))]
    let _ = no_follow;
    let file = options.open(path).map_err(ReadError::Io)?;
    let meta = file.metadata().map_err(ReadError::Io)?;
    if meta.is_dir() {
        return Err(ReadError::Directory);
    }
    if !meta.is_file() {
        return Err(ReadError::NotRegular);
    }
    if meta.len() > max {
        return Err(ReadError::TooLarge(meta.len()));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if bytes.len() as u64 > max {
        return Err(ReadError::TooLarge(bytes.len() as u64));
    }
    Ok(bytes)
}
