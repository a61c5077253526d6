//! The set of lessons a session shows: the built-in ones for a language, or a folder's.

use super::model::{Lesson, LessonError};
use super::parse::parse_lesson;
use super::terminal_text::without_controls;
use std::collections::HashMap;
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

    /// The one of a text's two translations that is in this language: a table of fixed words
    /// (cards, quizzes, the pager's strings) has an English and a Chinese instance of one
    /// struct, and a sentence is often formatted in both.
    pub(crate) fn pick<T>(self, en: T, zh: T) -> T {
        match self {
            Lang::En => en,
            Lang::Zh => zh,
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
        let mut paths: Vec<_> = Vec::new();
        for entry in read.filter_map(Result::ok) {
            let path = entry.path();
            if path.extension().is_some_and(|x| x == "md") {
                if paths.len() == MAX_LESSON_FILES {
                    return Err(io_err(format!(
                        "more than {MAX_LESSON_FILES} lesson files (*.md) in this folder: split it into several lesson sets"
                    )));
                }
                paths.push(path);
            }
        }
        paths.sort();
        if paths.is_empty() {
            return Err(io_err("no lesson files (*.md) in this folder".into()));
        }
        let mut sources = Vec::new();
        let mut errors = Vec::new();
        let mut total: u64 = 0;
        for path in paths {
            let name = without_controls(&path.display().to_string()).into_owned();
            match read_lesson_file(&path) {
                Ok(bytes) if total + bytes.len() as u64 > MAX_FOLDER_BYTES => {
                    return Err(io_err(format!(
                        "the lesson files add up to more than {} MiB (at {name}): split the folder into several lesson sets",
                        MAX_FOLDER_BYTES >> 20
                    )));
                }
                Ok(bytes) => match String::from_utf8(bytes) {
                    Ok(text) => {
                        total += text.len() as u64;
                        sources.push((name, text))
                    }
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
            // whatever a terminal would act on is gone before anything can print it
            let text = without_controls(&text);
            match parse_lesson(&name, &text) {
                Ok(lesson) => lessons.push(lesson),
                Err(e) => errors.push(e),
            }
        }
        lessons.sort_by(|a: &Lesson, b: &Lesson| a.order.cmp(&b.order).then(a.id.cmp(&b.id)));
        // Each id and order against the first lesson that had it: linear in the lessons and
        // exercises (a folder of thousands of them is checked in milliseconds).
        let mut ids: HashMap<&str, &Lesson> = HashMap::new();
        let mut orders: HashMap<_, &Lesson> = HashMap::new();
        let mut exercise_ids: HashMap<&str, (&Lesson, usize)> = HashMap::new();
        for lesson in &lessons {
            let clash = if let Some(earlier) = ids.get(lesson.id.as_str()) {
                Some((format!("duplicate lesson id `{}`", lesson.id), *earlier))
            } else {
                orders
                    .get(&lesson.order)
                    .map(|earlier| (format!("duplicate lesson order {}", lesson.order), *earlier))
            };
            if let Some((what, earlier)) = clash {
                errors.push(LessonError {
                    file: lesson.source_name.clone(),
                    line: 2,
                    message: format!("{what} (also in {})", earlier.source_name),
                });
            }
            let mut own: Vec<(&str, usize)> = Vec::new();
            for exercise in &lesson.exercises {
                if let Some((earlier, line)) = exercise_ids.get(exercise.id.as_str())
                    && !std::ptr::eq(*earlier, lesson)
                {
                    errors.push(LessonError {
                        file: lesson.source_name.clone(),
                        line: exercise.line,
                        message: format!(
                            "duplicate exercise id `{}` (also in {}:{line})",
                            exercise.id, earlier.source_name
                        ),
                    });
                }
                own.push((exercise.id.as_str(), exercise.line));
            }
            ids.entry(lesson.id.as_str()).or_insert(lesson);
            orders.entry(lesson.order).or_insert(lesson);
            for (id, line) in own {
                exercise_ids.entry(id).or_insert((lesson, line));
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
pub(super) const MAX_LESSON_BYTES: u64 = 8 << 20;

/// At most this many lesson files in a folder (the built-in set has a dozen).
pub(super) const MAX_LESSON_FILES: usize = 2000;

/// At most this many bytes of lesson files in a folder, all together.
pub(super) const MAX_FOLDER_BYTES: u64 = 32 << 20;

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
