//! The learner's progress: where they were (lesson and scroll), saved edits and passed
//! exercises. Stored as JSON in the XDG data dir (or `CUDATUTOR_DATA_DIR`), written atomically
//! (temp file, fsync, rename) so a crash leaves the old or the new file, never half of one.
//! A file that cannot be read is moved aside and reported, never silently dropped.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

const FILE_NAME: &str = "progress.json";

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Progress {
    /// Id of the lesson open when the learner last quit.
    pub last_lesson: Option<String>,
    /// Scroll position (first visible rendered line) per lesson id.
    pub scroll: BTreeMap<String, usize>,
    /// Per exercise id.
    pub exercises: BTreeMap<String, ExerciseState>,
    /// Quiz answers, keyed by [`quiz_key`] (`lesson-id#n`, n counting quizzes from 1).
    pub quizzes: BTreeMap<String, QuizState>,
}

/// The learner's answer to one quiz.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct QuizState {
    /// 1-based choice, as the quiz numbers them.
    pub answer: usize,
    pub correct: bool,
}

/// The key a quiz's answer is saved under: quizzes have no ids, so the lesson id and the
/// quiz's position in that lesson (1-based).
pub fn quiz_key(lesson_id: &str, number: usize) -> String {
    format!("{lesson_id}#{number}")
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ExerciseState {
    /// The learner's current code, when it differs from the starting code.
    pub code: Option<String>,
    pub passed: bool,
}

/// Where progress lives and what happened when it was loaded.
#[derive(Debug, Clone)]
pub struct Store {
    dir: PathBuf,
}

/// Loading never fails: the worst case is a fresh start plus a message saying why.
pub struct Loaded {
    pub progress: Progress,
    pub warning: Option<String>,
}

impl Store {
    /// `CUDATUTOR_DATA_DIR`, else the platform data dir (`~/.local/share/cudatutor`).
    pub fn default_location() -> Option<Store> {
        if let Some(dir) = std::env::var_os("CUDATUTOR_DATA_DIR").filter(|d| !d.is_empty()) {
            return Some(Store { dir: dir.into() });
        }
        directories::ProjectDirs::from("", "", "cudatutor").map(|d| Store {
            dir: d.data_dir().to_path_buf(),
        })
    }

    pub fn at(dir: impl Into<PathBuf>) -> Store {
        Store { dir: dir.into() }
    }

    pub fn path(&self) -> PathBuf {
        self.dir.join(FILE_NAME)
    }

    pub fn load(&self) -> Loaded {
        let path = self.path();
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Loaded {
                    progress: Progress::default(),
                    warning: None,
                };
            }
            Err(e) => {
                return Loaded {
                    progress: Progress::default(),
                    warning: Some(format!(
                        "could not read {}: {e}; starting fresh (the file is left as it is)",
                        path.display()
                    )),
                };
            }
        };
        match serde_json::from_slice(&bytes) {
            Ok(progress) => Loaded {
                progress,
                warning: None,
            },
            Err(e) => {
                let aside = self
                    .dir
                    .join(format!("{FILE_NAME}.corrupt-{}", unix_time()));
                let moved = std::fs::rename(&path, &aside);
                let warning = match moved {
                    Ok(()) => format!(
                        "{} could not be read ({e}); it was kept as {} and progress starts fresh",
                        path.display(),
                        aside.display()
                    ),
                    Err(m) => format!(
                        "{} could not be read ({e}) nor moved aside ({m}); progress starts fresh and will not be saved over it",
                        path.display()
                    ),
                };
                Loaded {
                    progress: Progress::default(),
                    warning: Some(warning),
                }
            }
        }
    }

    /// Atomic replace: write a unique temp file in the same folder, fsync, rename over.
    pub fn save(&self, progress: &Progress) -> std::io::Result<()> {
        std::fs::create_dir_all(&self.dir)?;
        let json = serde_json::to_vec_pretty(progress).map_err(std::io::Error::other)?;
        let tmp = self.dir.join(format!(
            ".{FILE_NAME}.{}.{}.tmp",
            std::process::id(),
            unique()
        ));
        let result = write_synced(&tmp, &json).and_then(|()| std::fs::rename(&tmp, self.path()));
        if result.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        result
    }
}

fn write_synced(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = std::fs::File::create(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

fn unix_time() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Distinguishes temp files of threads in one process.
fn unique() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("cudatutor-progress-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn round_trips_and_starts_fresh_without_a_file() {
        let store = Store::at(temp_dir("roundtrip"));
        let loaded = store.load();
        assert_eq!(loaded.progress, Progress::default());
        assert!(loaded.warning.is_none());
        let mut p = Progress {
            last_lesson: Some("devices".into()),
            ..Progress::default()
        };
        p.scroll.insert("devices".into(), 42);
        store.save(&p).unwrap();
        assert_eq!(store.load().progress, p);
    }

    #[test]
    fn saved_code_and_quiz_answers_round_trip() {
        let store = Store::at(temp_dir("code-quiz"));
        let mut p = Progress::default();
        p.exercises.insert(
            "labels-range".into(),
            ExerciseState {
                code: Some("x = 1\n    y = 'é'\n".into()),
                passed: true,
            },
        );
        p.quizzes.insert(
            quiz_key("labels", 1),
            QuizState {
                answer: 3,
                correct: true,
            },
        );
        store.save(&p).unwrap();
        assert_eq!(store.load().progress, p);
    }

    #[test]
    fn files_from_before_quizzes_still_load() {
        let dir = temp_dir("old-format");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join(FILE_NAME),
            br#"{"last_lesson":"labels","scroll":{},"exercises":{"e":{"code":"x","passed":false}}}"#,
        )
        .unwrap();
        let loaded = Store::at(&dir).load();
        assert!(loaded.warning.is_none());
        assert_eq!(loaded.progress.exercises["e"].code.as_deref(), Some("x"));
        assert!(loaded.progress.quizzes.is_empty());
    }

    #[test]
    fn corrupt_file_is_kept_aside_and_reported() {
        let dir = temp_dir("corrupt");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(FILE_NAME), b"{ not json").unwrap();
        let loaded = Store::at(&dir).load();
        assert_eq!(loaded.progress, Progress::default());
        let warning = loaded.warning.expect("a warning");
        assert!(warning.contains("could not be read"), "{warning}");
        let kept: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(Result::ok)
            .filter(|e| {
                e.file_name()
                    .to_string_lossy()
                    .starts_with("progress.json.corrupt-")
            })
            .collect();
        assert_eq!(kept.len(), 1);
        assert_eq!(std::fs::read(kept[0].path()).unwrap(), b"{ not json");
    }

    #[test]
    fn parallel_writers_never_leave_a_broken_file() {
        let dir = temp_dir("parallel");
        let store = Store::at(&dir);
        let handles: Vec<_> = (0..8)
            .map(|t| {
                let store = store.clone();
                std::thread::spawn(move || {
                    for i in 0..25 {
                        let mut p = Progress::default();
                        p.scroll.insert(format!("lesson-{t}"), i);
                        store.save(&p).unwrap();
                        let loaded = store.load();
                        assert!(loaded.warning.is_none(), "{:?}", loaded.warning);
                    }
                })
            })
            .collect();
        for h in handles {
            h.join().unwrap();
        }
        let leftovers = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
            .count();
        assert_eq!(leftovers, 0);
    }
}
