//! `_hostfs`: the read-only host folders a run may read (`cudatutor run --allow-read DIR`),
//! under the in-memory file system of `_fs.py`.
//!
//! A folder is mounted at the path the script would use for it: `--allow-read data` from the
//! shell's folder appears at `/home/learner/data` (the run's working folder is /home/learner,
//! so `open('data/train.csv')` works), and at its own absolute path on the host. Only what is
//! under the folder is visible: a symbolic link that leads out of it, a FIFO, a device or a
//! file larger than [`MAX_FILE`] is refused; nothing can be written.

use super::super::errors::{PyException, PyResult};
use super::super::interp::Interpreter;
use super::super::value::{Module, Value};
use crate::script::ExcType;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The largest host file a run may read.
pub(crate) const MAX_FILE: u64 = 64 << 20;

/// The run's working folder (`_fs.CWD`).
const CWD: &str = "/home/learner";

/// One mounted folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct HostMount {
    /// Where the script sees it (an absolute, normalised path of the run's file system).
    pub at: String,
    /// The host folder, canonical.
    pub root: PathBuf,
}

/// The mounts for `--allow-read dir`, or why the folder cannot be mounted.
pub(crate) fn mounts_for(dir: &Path) -> Result<Vec<HostMount>, String> {
    let root = dir
        .canonicalize()
        .map_err(|e| format!("--allow-read {}: {e}", dir.display()))?;
    if !root.is_dir() {
        return Err(format!("--allow-read {}: not a folder", dir.display()));
    }
    let abs = root.to_string_lossy().into_owned();
    let mut out = vec![HostMount {
        at: normalize(&abs),
        root: root.clone(),
    }];
    if dir.is_relative() {
        let at = normalize(&format!("{CWD}/{}", dir.to_string_lossy()));
        if at != CWD && !out.iter().any(|m| m.at == at) {
            out.push(HostMount { at, root });
        }
    }
    Ok(out)
}

/// `_fs.normpath` of an absolute path.
pub(crate) fn normalize(p: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for c in p.split('/') {
        match c {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            c => parts.push(c),
        }
    }
    format!("/{}", parts.join("/"))
}

/// A path as the script wrote it, made absolute against the run's working folder.
pub(crate) fn absolute(p: &str) -> String {
    if p.starts_with('/') {
        normalize(p)
    } else {
        normalize(&format!("{CWD}/{p}"))
    }
}

/// What a run path is on the host, when it lies under a mount.
enum Found {
    File(PathBuf, u64),
    Dir(PathBuf),
    /// Under a mount, but refused: why.
    Refused(&'static str),
}

fn find(it: &Interpreter, run_path: &str) -> Option<Found> {
    let mount = it.host_mounts.iter().find(|m| {
        run_path == m.at
            || run_path
                .strip_prefix(&m.at)
                .is_some_and(|rest| rest.starts_with('/') || m.at == "/")
    })?;
    let rest = run_path[mount.at.len()..].trim_start_matches('/');
    let host = if rest.is_empty() {
        mount.root.clone()
    } else {
        mount.root.join(rest)
    };
    let Ok(real) = host.canonicalize() else {
        return None;
    };
    if !real.starts_with(&mount.root) {
        return Some(Found::Refused("it leads outside the allowed folder"));
    }
    let meta = std::fs::metadata(&real).ok()?;
    Some(if meta.is_dir() {
        Found::Dir(real)
    } else if meta.is_file() {
        Found::File(real, meta.len())
    } else {
        Found::Refused("not a regular file")
    })
}

fn os_error(errno: u32, text: &str, path: &str) -> PyException {
    let kind = match errno {
        2 => ExcType::FileNotFoundError,
        13 => ExcType::PermissionError,
        20 => ExcType::NotADirectoryError,
        21 => ExcType::IsADirectoryError,
        _ => ExcType::OSError,
    };
    PyException::new(kind, format!("[Errno {errno}] {text}: '{path}'"))
}

/// The bytes of the host file behind run path `p` (as the script wrote it), for readers in
/// Rust (`np.load`). Errors are the script's exceptions.
pub(crate) fn read_bytes(it: &Interpreter, p: &str) -> PyResult<Vec<u8>> {
    read_bytes_as(it, &absolute(p), p)
}

/// [`read_bytes`] of an absolute run path, its errors naming the path as `shown`.
fn read_bytes_as(it: &Interpreter, run_path: &str, shown: &str) -> PyResult<Vec<u8>> {
    match find(it, run_path) {
        None => Err(os_error(2, "No such file or directory", shown)),
        Some(Found::Dir(_)) => Err(os_error(21, "Is a directory", shown)),
        Some(Found::Refused(why)) => Err(os_error(
            13,
            &format!("Permission denied ({why}; cudatutor run --allow-read)"),
            shown,
        )),
        Some(Found::File(_, len)) if len > MAX_FILE => Err(os_error(
            27,
            &format!(
                "File too large (a run reads host files of at most {} MiB)",
                MAX_FILE >> 20
            ),
            shown,
        )),
        Some(Found::File(real, _)) => open_regular(&real)
            .map_err(|e| os_error(5, &format!("Input/output error ({e})"), shown)),
    }
}

/// Opens without following a final symbolic link (one swapped in after the check) and without
/// blocking, and reads at most [`MAX_FILE`] bytes.
fn open_regular(path: &Path) -> std::io::Result<Vec<u8>> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    if !file.metadata()?.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    let mut bytes = Vec::new();
    file.take(MAX_FILE).read_to_end(&mut bytes)?;
    Ok(bytes)
}

fn path_arg(v: &Value, fname: &str) -> PyResult<String> {
    match v {
        Value::Str(s) => Ok(s.to_string()),
        other => Err(PyException::type_error(format!(
            "{fname}() argument must be str, not {}",
            other.type_name()
        ))),
    }
}

/// The `_hostfs` module `_fs.py` calls.
pub(crate) fn module(_it: &mut Interpreter) -> PyResult<Value> {
    let m = Module::new("_hostfs");
    // 'file', 'dir', 'refused' or None: what an absolute run path is on the host
    m.add_fn("kind", |it, args| {
        let a = args.exact("kind", 1)?;
        let p = path_arg(&a[0], "kind")?;
        Ok(match find(it, &p) {
            None => Value::None,
            Some(Found::File(..)) => Value::str("file"),
            Some(Found::Dir(_)) => Value::str("dir"),
            Some(Found::Refused(_)) => Value::str("refused"),
        })
    });
    // whether an absolute run path lies in a mount (where nothing may be written)
    m.add_fn("mounted", |it, args| {
        let a = args.exact("mounted", 1)?;
        let p = path_arg(&a[0], "mounted")?;
        Ok(Value::Bool(it.host_mounts.iter().any(|m| {
            p == m.at
                || p.strip_prefix(&m.at)
                    .is_some_and(|rest| rest.starts_with('/') || m.at == "/")
        })))
    });
    // the text of a host file (UTF-8, as open() reads it by default)
    m.add_fn("read_text", |it, args| {
        let a = args.exact("read_text", 2)?;
        let p = path_arg(&a[0], "read_text")?;
        let shown = path_arg(&a[1], "read_text")?;
        let bytes = read_bytes_as(it, &p, &shown)?;
        match String::from_utf8(bytes) {
            Ok(s) => Ok(Value::string(s.replace("\r\n", "\n"))),
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                let byte = e.as_bytes().get(at).copied().unwrap_or(0);
                Err(PyException::new(
                    ExcType::UnicodeDecodeError,
                    format!(
                        "'utf-8' codec can't decode byte 0x{byte:02x} in position {at}: invalid start byte"
                    ),
                ))
            }
        }
    });
    m.add_fn("size", |it, args| {
        let a = args.exact("size", 1)?;
        let p = path_arg(&a[0], "size")?;
        match find(it, &p) {
            Some(Found::File(_, len)) => Ok(Value::Int(len as i64)),
            Some(Found::Dir(d)) => Ok(Value::Int(
                std::fs::metadata(d).map(|m| m.len() as i64).unwrap_or(0),
            )),
            _ => Err(os_error(2, "No such file or directory", &p)),
        }
    });
    // the names in a host folder, sorted (CPython's order is the file system's)
    m.add_fn("listdir", |it, args| {
        let a = args.exact("listdir", 1)?;
        let p = path_arg(&a[0], "listdir")?;
        let mut names: Vec<String> = match find(it, &p) {
            Some(Found::Dir(dir)) => std::fs::read_dir(dir)
                .map(|r| {
                    r.filter_map(Result::ok)
                        .filter_map(|e| e.file_name().into_string().ok())
                        .take(100_000)
                        .collect()
                })
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        // mounted folders directly inside this one (`data` in /home/learner)
        let prefix = format!("{}/", p.trim_end_matches('/'));
        for m in &it.host_mounts {
            if let Some(name) = m.at.strip_prefix(&prefix)
                && !name.is_empty()
                && !name.contains('/')
                && !names.iter().any(|n| n == name)
            {
                names.push(name.to_string());
            }
        }
        names.sort();
        Ok(Value::list(names.into_iter().map(Value::string).collect()))
    });
    Ok(m.into_value())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_paths_are_made_absolute_and_normal() {
        assert_eq!(absolute("data/train.csv"), "/home/learner/data/train.csv");
        assert_eq!(absolute("./data/../x"), "/home/learner/x");
        assert_eq!(absolute("/a//b/./c"), "/a/b/c");
        assert_eq!(normalize("/../.."), "/");
    }
}
