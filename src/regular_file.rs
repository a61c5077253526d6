//! Reading a file the user names (a lesson, the progress file) so that it can neither hang
//! nor flood the process: only regular files are read (a FIFO would block the reader forever,
//! a device file would never end), and at most a given size.

use std::io::Read;
use std::path::Path;

/// Why a file was not read.
#[derive(Debug)]
pub enum ReadError {
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
pub fn read(path: &Path, max: u64) -> Result<Vec<u8>, ReadError> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
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
