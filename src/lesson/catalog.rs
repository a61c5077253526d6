//! The set of lessons a session shows: the built-in ones for a language, or a folder's.

use super::model::{Lesson, LessonError};
use super::parse::parse_lesson;
use std::path::Path;

include!(concat!(env!("OUT_DIR"), "/builtin_lessons.rs"));

/// The language lessons and UI strings are shown in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Lang {
    En,
    Zh,
}

impl Lang {
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }

    /// The default when `--lang` is not given: Chinese when `LANG` (or `LC_ALL`) starts with zh.
    pub fn from_env() -> Lang {
        let locale = std::env::var("LC_ALL")
            .ok()
            .filter(|v| !v.is_empty())
            .or_else(|| std::env::var("LANG").ok())
            .unwrap_or_default();
        if locale.starts_with("zh") {
            Lang::Zh
        } else {
            Lang::En
        }
    }
}

/// The lesson set of the built-in lessons (both languages share it: the exercises are the same).
pub const BUILTIN_SET: &str = "builtin";

/// The lesson set key of a lesson folder: `dir:` and its canonical path, so the same folder
/// named two ways is one set and two folders never share one.
pub fn folder_set(dir: &Path) -> String {
    let path = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    format!("dir:{}", path.display())
}

/// Lessons sorted by their `order`, checked as a whole (unique ids, orders and exercise ids).
#[derive(Debug, Clone)]
pub struct Catalog {
    pub lessons: Vec<Lesson>,
    /// The lesson set progress is kept under: [`BUILTIN_SET`] for the built-in
    /// lessons (whatever their language), [`folder_set`] for a folder.
    pub set: String,
}

impl Catalog {
    /// The lessons embedded in the binary for `lang`; English when none exist in `lang`.
    pub fn builtin(lang: Lang) -> Result<Catalog, Vec<LessonError>> {
        let lang = if BUILTIN_LESSONS.iter().any(|(l, _, _)| *l == lang.code()) {
            lang
        } else {
            Lang::En
        };
        let sources = BUILTIN_LESSONS
            .iter()
            .filter(|(l, _, _)| *l == lang.code())
            .map(|(_, name, text)| (name.to_string(), text.to_string()));
        Self::from_sources(sources)
    }

    /// Every `*.md` file directly inside `dir`.
    pub fn from_dir(dir: &Path) -> Result<Catalog, Vec<LessonError>> {
        let io_err = |message: String| {
            vec![LessonError {
                file: dir.display().to_string(),
                line: 0,
                message,
            }]
        };
        let read =
            std::fs::read_dir(dir).map_err(|e| io_err(format!("cannot read the folder: {e}")))?;
        let mut paths: Vec<_> = read
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "md"))
            .collect();
        paths.sort();
        if paths.is_empty() {
            return Err(io_err("no lesson files (*.md) in this folder".into()));
        }
        let mut sources = Vec::new();
        let mut errors = Vec::new();
        for path in paths {
            let name = path.display().to_string();
            match read_lesson_file(&path) {
                Ok(bytes) => match String::from_utf8(bytes) {
                    Ok(text) => sources.push((name, text)),
                    Err(e) => {
                        let at = e.utf8_error().valid_up_to();
                        let bytes = e.as_bytes();
                        let line = 1 + bytes[..at].iter().filter(|&&b| b == b'\n').count();
                        errors.push(LessonError {
                            file: name,
                            line,
                            message: format!("not UTF-8 text (the bad byte is at offset {at})"),
                        });
                    }
                },
                Err(e) => errors.push(LessonError {
                    file: name,
                    line: 0,
                    message: format!("cannot read: {e}"),
                }),
            }
        }
        if sources.is_empty() {
            // Every file failed to read: those errors say why (not "no lessons found").
            return Err(errors);
        }
        let result = Self::from_sources(sources).map(|mut catalog| {
            catalog.set = folder_set(dir);
            catalog
        });
        match result {
            Ok(catalog) if errors.is_empty() => Ok(catalog),
            Ok(_) => Err(errors),
            Err(more) => {
                errors.extend(more);
                Err(errors)
            }
        }
    }

    /// Parses and cross-checks named sources; reports every problem, not just the first.
    pub fn from_sources(
        sources: impl IntoIterator<Item = (String, String)>,
    ) -> Result<Catalog, Vec<LessonError>> {
        let mut lessons = Vec::new();
        let mut errors = Vec::new();
        for (name, text) in sources {
            match parse_lesson(&name, &text) {
                Ok(lesson) => lessons.push(lesson),
                Err(e) => errors.push(e),
            }
        }
        lessons.sort_by(|a: &Lesson, b: &Lesson| a.order.cmp(&b.order).then(a.id.cmp(&b.id)));
        for (i, lesson) in lessons.iter().enumerate() {
            for earlier in &lessons[..i] {
                let clash = if earlier.id == lesson.id {
                    Some(format!("duplicate lesson id `{}`", lesson.id))
                } else if earlier.order == lesson.order {
                    Some(format!("duplicate lesson order {}", lesson.order))
                } else {
                    None
                };
                if let Some(what) = clash {
                    errors.push(LessonError {
                        file: lesson.source_name.clone(),
                        line: 2,
                        message: format!("{what} (also in {})", earlier.source_name),
                    });
                }
                for exercise in &lesson.exercises {
                    if let Some(other) = earlier.exercises.iter().find(|e| e.id == exercise.id) {
                        errors.push(LessonError {
                            file: lesson.source_name.clone(),
                            line: exercise.line,
                            message: format!(
                                "duplicate exercise id `{}` (also in {}:{})",
                                exercise.id, earlier.source_name, other.line
                            ),
                        });
                    }
                }
            }
        }
        if errors.is_empty() && lessons.is_empty() {
            errors.push(LessonError {
                file: "(built-in lessons)".into(),
                line: 0,
                message: "no lessons found".into(),
            });
        }
        if errors.is_empty() {
            Ok(Catalog {
                lessons,
                set: BUILTIN_SET.to_string(),
            })
        } else {
            Err(errors)
        }
    }

    /// A lesson by its 1-based position (`3`) or its id (`device-asserts`).
    pub fn find(&self, key: &str) -> Option<usize> {
        if let Ok(n) = key.parse::<usize>() {
            return (1..=self.lessons.len()).contains(&n).then(|| n - 1);
        }
        self.lessons.iter().position(|l| l.id == key)
    }

    pub fn position_of_id(&self, id: &str) -> Option<usize> {
        self.lessons.iter().position(|l| l.id == id)
    }
}

/// The most a lesson file may hold: the six built-in lessons are under 100 KB each, and the
/// loader and pager keep a few copies of the text, so a 50 MB file (RSS 100 MB in `lint`)
/// is refused before it is read.
pub const MAX_LESSON_BYTES: u64 = 8 << 20;

/// A lesson file's bytes: only a regular file of at most [`MAX_LESSON_BYTES`] is read (a
/// FIFO named `x.md` would block `list` forever, a device file would never end).
fn read_lesson_file(path: &Path) -> std::io::Result<Vec<u8>> {
    use crate::regular_file::{ReadError, read};
    use std::io::{Error, ErrorKind};
    read(path, MAX_LESSON_BYTES).map_err(|e| match e {
        ReadError::Io(e) => e,
        ReadError::Directory | ReadError::NotRegular => Error::new(
            ErrorKind::InvalidInput,
            "not a regular file (a FIFO, socket, device or folder); a lesson must be a plain .md file",
        ),
        ReadError::TooLarge(len) => Error::new(
            ErrorKind::InvalidInput,
            format!(
                "the file is {len} bytes; a lesson may hold at most {} MiB (split it into several lessons)",
                MAX_LESSON_BYTES >> 20
            ),
        ),
    })
}
