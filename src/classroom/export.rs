//! `cudatutor export [DIR]` and `cudatutor import [DIR]`: every exercise as a `.py` file
//! (`DIR/<lesson id>/<exercise id>.py`) with its goal as a comment above a marker line, for
//! working in any IDE with a language server, and back. Import takes everything after the
//! marker (the whole file when the marker was deleted) as the exercise's saved code, exactly:
//! an export followed by an import changes nothing.

use super::card::card_text;
use super::workfile::set_code;
use crate::lesson::{Catalog, Exercise, Lang, Lesson};
use crate::progress::Progress;
use crate::regular_file::ReadError;
use std::path::{Path, PathBuf};

/// The line that ends the header of an exported file.
pub const MARKER: &str =
    "# ---- your code starts below this line (cudatutor import reads from here) ----";

/// The folder `export` and `import` use when none is given.
pub(crate) const DEFAULT_DIR: &str = "cudatutor-exercises";

/// The exported file of `ex`.
pub fn export_path(dir: &Path, lesson: &Lesson, ex: &Exercise) -> PathBuf {
    dir.join(&lesson.id).join(format!("{}.py", ex.id))
}

/// The exercise's goal: the paragraph of its section that starts with `Goal:` (`目标：` in
/// Chinese lessons), else the section's first paragraph; empty when the lesson has none.
pub(crate) fn exercise_goal(lesson: &Lesson, ex: &Exercise) -> String {
    let fence = ex.line.saturating_sub(lesson.body_first_line);
    let lines: Vec<&str> = lesson.body.lines().take(fence).collect();
    let section_start = lines
        .iter()
        .rposition(|l| l.starts_with('#'))
        .map_or(0, |i| i + 1);
    let section = &lines[section_start..];
    let mut paragraphs: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut in_fence = false;
    for l in section {
        if l.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        if l.trim().is_empty() {
            if !current.is_empty() {
                paragraphs.push(std::mem::take(&mut current));
            }
        } else {
            if !current.is_empty() {
                current.push(' ');
            }
            current.push_str(l.trim());
        }
    }
    if !current.is_empty() {
        paragraphs.push(current);
    }
    paragraphs
        .iter()
        .find(|p| p.starts_with("Goal:") || p.starts_with("目标："))
        .or_else(|| paragraphs.first())
        .cloned()
        .unwrap_or_default()
}

/// Wraps `text` into `# ` comment lines of at most `width` display columns (a Chinese character
/// takes two; runs without spaces are cut between characters).
fn comment_lines(text: &str, width: usize) -> String {
    use unicode_width::UnicodeWidthChar;
    let mut out = String::new();
    let mut line = String::new();
    let mut used = 0;
    let flush = |line: &mut String, used: &mut usize, out: &mut String| {
        if !line.trim().is_empty() {
            out.push_str(&format!("# {}\n", line.trim_end()));
        }
        line.clear();
        *used = 0;
    };
    for word in text.split(' ') {
        let w: usize = word.chars().map(|c| c.width().unwrap_or(0)).sum();
        if used > 0 && used + 1 + w > width {
            flush(&mut line, &mut used, &mut out);
        }
        if used > 0 {
            line.push(' ');
            used += 1;
        }
        for c in word.chars() {
            let cw = c.width().unwrap_or(0);
            if used + cw > width {
                flush(&mut line, &mut used, &mut out);
            }
            line.push(c);
            used += cw;
        }
    }
    flush(&mut line, &mut used, &mut out);
    out
}

/// The text of `ex`'s exported file: the header, the marker, the code.
pub(crate) fn exported_text(
    lesson_no: usize,
    lesson: &Lesson,
    ex: &Exercise,
    code: &str,
) -> String {
    let mut s = format!(
        "# cudatutor exercise `{}` (lesson {lesson_no}: {})\n#\n",
        ex.id, lesson.title
    );
    let goal = exercise_goal(lesson, ex);
    if !goal.is_empty() {
        s.push_str(&comment_lines(&goal, 92));
        s.push_str("#\n");
    }
    let check_it = if lesson.lang == "zh" {
        "检查"
    } else {
        "Check it"
    };
    s.push_str(&format!(
        "# {check_it}: cudatutor import DIR && cudatutor check {lesson_no}\n"
    ));
    s.push_str(MARKER);
    s.push('\n');
    s.push_str(code);
    if !code.ends_with('\n') {
        s.push('\n');
    }
    s
}

/// The code in an exported file: everything after the marker line, else the whole file.
pub(crate) fn code_of(text: &str) -> String {
    let text = text
        .strip_prefix('\u{feff}')
        .unwrap_or(text)
        .replace("\r\n", "\n");
    match text.find(&format!("{MARKER}\n")) {
        Some(at) => text[at + MARKER.len() + 1..].to_string(),
        None => text,
    }
}

/// The file under the export folder that records what `export` wrote (a fingerprint of each
/// file's text), so a later export can tell a file the learner edited from one it wrote.
pub const MANIFEST: &str = ".cudatutor-export.json";

/// What an export did.
#[derive(Debug, Default)]
pub struct Exported {
    /// Files written (or already holding exactly what would be written).
    pub written: Vec<PathBuf>,
    /// Files changed since export wrote them (or not written by it) whose code is not the saved
    /// code: left as they are, since overwriting them would lose work not yet imported.
    pub kept: Vec<PathBuf>,
}

fn read_manifest(dir: &Path) -> std::collections::BTreeMap<String, String> {
    std::fs::read_to_string(dir.join(MANIFEST))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default()
}

/// Writes every exercise of `catalog` under `dir`. A file that is there already is overwritten
/// only when it is what the last export wrote, or holds the saved code anyway; otherwise it is
/// kept (see [`Exported::kept`]) unless `force`.
pub fn export(
    dir: &Path,
    catalog: &Catalog,
    progress: &Progress,
    force: bool,
) -> Result<Exported, String> {
    use crate::progress::code_fingerprint;
    let mut out = Exported::default();
    let mut manifest = read_manifest(dir);
    for (i, lesson) in catalog.lessons.iter().enumerate() {
        for ex in &lesson.exercises {
            let path = export_path(dir, lesson, ex);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)
                    .map_err(|e| format!("{}: {e}", parent.display()))?;
            }
            let code = progress.current_code(ex);
            let text = exported_text(i + 1, lesson, ex, code);
            let key = format!("{}/{}.py", lesson.id, ex.id);
            if !force && let Ok(there) = std::fs::read_to_string(&path) {
                let as_written = manifest
                    .get(&key)
                    .is_some_and(|f| *f == code_fingerprint(&there));
                let same_code = code_fingerprint(&code_of(&there)) == code_fingerprint(code);
                if !as_written && !same_code && there != text {
                    out.kept.push(path);
                    continue;
                }
            }
            std::fs::write(&path, &text).map_err(|e| format!("{}: {e}", path.display()))?;
            manifest.insert(key, code_fingerprint(&text));
            out.written.push(path);
        }
    }
    let json = serde_json::to_string_pretty(&manifest).map_err(|e| e.to_string())?;
    std::fs::write(dir.join(MANIFEST), json + "\n")
        .map_err(|e| format!("{}: {e}", dir.join(MANIFEST).display()))?;
    Ok(out)
}

/// What an import did.
#[derive(Debug, Default)]
pub struct Imported {
    pub changed: Vec<String>,
    pub unchanged: Vec<String>,
    /// Exercises whose file is missing: they keep their saved code.
    pub missing: Vec<PathBuf>,
    /// `.py` files under the folder that are no exercise of these lessons.
    pub unknown: Vec<PathBuf>,
    /// Files that could not be read (path: reason).
    pub errors: Vec<String>,
}

impl Imported {
    /// The summary lines, in `lang`.
    pub fn render(&self, dir: &Path, lang: Lang) -> String {
        let t = card_text(lang);
        let mut s = String::new();
        for e in &self.errors {
            s.push_str(&format!("{e}\n"));
        }
        for p in &self.unknown {
            s.push_str(&format!(
                "{}\n",
                t.unknown_file.replace("{path}", &p.display().to_string())
            ));
        }
        for p in &self.missing {
            s.push_str(&format!(
                "{}\n",
                t.missing_file.replace("{path}", &p.display().to_string())
            ));
        }
        s.push_str(&format!(
            "{}\n",
            t.imported
                .replace("{changed}", &self.changed.len().to_string())
                .replace("{unchanged}", &self.unchanged.len().to_string())
                .replace("{dir}", &dir.display().to_string())
        ));
        s
    }
}

/// The largest exercise file `import` reads: the longest script a run takes, plus room for
/// the goal comment `export` writes above the marker.
pub(crate) const MAX_IMPORT_BYTES: u64 = crate::run::MAX_SOURCE as u64 + (64 << 10);

/// Reads every exercise's file under `dir` into `progress` (in memory: the caller saves).
pub fn import(dir: &Path, catalog: &Catalog, progress: &mut Progress) -> Imported {
    let mut out = Imported::default();
    let mut known = Vec::new();
    for lesson in &catalog.lessons {
        for ex in &lesson.exercises {
            let path = export_path(dir, lesson, ex);
            known.push(path.clone());
            // a reader, not a follower: regular files of bounded size only, never a link
            // (to /etc/passwd, /dev/zero) nor a FIFO that would hang the import
            let bytes = match crate::regular_file::read_no_follow(&path, MAX_IMPORT_BYTES) {
                Ok(b) => b,
                Err(ReadError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => {
                    out.missing.push(path);
                    continue;
                }
                Err(ReadError::Io(e)) if e.raw_os_error() == Some(libc::ELOOP) => {
                    out.errors.push(format!(
                        "{}: a symbolic link, not imported (only regular files are)",
                        path.display()
                    ));
                    continue;
                }
                Err(ReadError::Io(e)) => {
                    out.errors.push(format!("{}: {e}", path.display()));
                    continue;
                }
                Err(ReadError::Directory | ReadError::NotRegular) => {
                    out.errors.push(format!(
                        "{}: not a regular file, not imported",
                        path.display()
                    ));
                    continue;
                }
                Err(ReadError::TooLarge(n)) => {
                    out.errors.push(format!(
                        "{}: {n} bytes, more than the {MAX_IMPORT_BYTES} an exercise file may hold",
                        path.display()
                    ));
                    continue;
                }
            };
            let Ok(text) = String::from_utf8(bytes) else {
                out.errors
                    .push(format!("{}: the file is not UTF-8 text", path.display()));
                continue;
            };
            if set_code(progress, ex, &code_of(&text)) {
                out.changed.push(ex.id.clone());
            } else {
                out.unchanged.push(ex.id.clone());
            }
        }
    }
    for path in python_files(dir, 2) {
        if !known.contains(&path) {
            out.unknown.push(path);
        }
    }
    out.unknown.sort();
    out
}

/// `.py` files under `dir`, at most `depth` folders down.
fn python_files(dir: &Path, depth: usize) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for e in entries.filter_map(Result::ok) {
        let p = e.path();
        let Ok(kind) = e.file_type() else { continue };
        if kind.is_dir() && depth > 1 {
            out.extend(python_files(&p, depth - 1));
        } else if kind.is_file() && p.extension().is_some_and(|x| x == "py") {
            out.push(p);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_code_is_what_follows_the_marker() {
        let text = format!("# header\n{MARKER}\nx = 1\n\n");
        assert_eq!(code_of(&text), "x = 1\n\n");
        assert_eq!(code_of("y = 2\n"), "y = 2\n");
        assert_eq!(
            code_of(&format!("\u{feff}#h\r\n{MARKER}\r\nz = 3\r\n")),
            "z = 3\n"
        );
    }

    #[test]
    fn goals_are_found_in_both_languages() {
        for lang in [Lang::En, Lang::Zh] {
            let catalog = Catalog::builtin(lang).unwrap();
            for lesson in &catalog.lessons {
                for ex in &lesson.exercises {
                    let goal = exercise_goal(lesson, ex);
                    assert!(
                        goal.starts_with("Goal:") || goal.starts_with("目标："),
                        "{}: {goal}",
                        ex.id
                    );
                }
            }
        }
    }

    #[test]
    fn comments_wrap_latin_and_chinese() {
        use unicode_width::UnicodeWidthStr;
        let c = comment_lines(&"word ".repeat(40), 20);
        assert!(
            c.lines().all(|l| l.starts_with("# ") && l.width() <= 22),
            "{c}"
        );
        assert_eq!(c.lines().count(), 10, "{c}");
        let z = comment_lines(&"目标".repeat(30), 20);
        assert!(z.lines().all(|l| l.width() <= 22), "{z}");
        assert_eq!(z.lines().count(), 6, "{z}");
        assert_eq!(comment_lines("", 20), "");
    }

    #[test]
    fn import_reads_regular_files_and_refuses_links_and_fifos() {
        let dir = std::env::temp_dir().join(format!("cudatutor-import-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let catalog = Catalog::builtin(Lang::En).unwrap();
        let lesson = &catalog.lessons[0];
        let (a, b, c) = (
            &lesson.exercises[0],
            &lesson.exercises[1],
            &lesson.exercises[2],
        );
        std::fs::create_dir_all(dir.join(&lesson.id)).unwrap();
        let secret = dir.join("secret.txt");
        std::fs::write(&secret, "root:x:0:0\n").unwrap();
        std::os::unix::fs::symlink(&secret, export_path(&dir, lesson, a)).unwrap();
        let fifo =
            std::ffi::CString::new(export_path(&dir, lesson, b).to_str().unwrap().as_bytes())
                .unwrap();
        // SAFETY: mkfifo reads the NUL-terminated path and nothing else.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
        std::fs::write(export_path(&dir, lesson, c), format!("{MARKER}\nx = 1\n")).unwrap();
        let mut progress = Progress::default();
        let imported = import(&dir, &catalog, &mut progress);
        assert_eq!(
            imported.changed,
            vec![c.id.clone()],
            "{:?}",
            imported.errors
        );
        assert!(
            imported.errors.iter().any(|e| e.contains("symbolic link")),
            "{:?}",
            imported.errors
        );
        assert!(
            imported
                .errors
                .iter()
                .any(|e| e.contains("not a regular file")),
            "{:?}",
            imported.errors
        );
        let saved = |id: &str| progress.exercises.get(id).and_then(|s| s.code.clone());
        assert_eq!(saved(&a.id), None, "the link's target is not saved code");
        assert_eq!(saved(&b.id), None);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
