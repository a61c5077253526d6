//! A file that one test writes for the binary or the library to read, in a folder of its own
//! in the temp dir.
#![allow(dead_code)]

use std::path::PathBuf;

/// Writes `text` to `FOLDER-PID/NAME` in the temp dir (the folder made if missing); its path.
pub(crate) fn scratch_file(folder: &str, name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("{folder}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}
