//! The learner's progress: where they were (lesson and scroll), saved edits, the last check
//! result of each exercise's code and quiz answers, kept per lesson set (the built-in lessons,
//! and each `--lessons DIR` apart, so an instructor's lesson that reuses an exercise id never
//! sees the built-in exercise's work). Stored as JSON in the XDG data dir (or
//! `CUDATUTOR_DATA_DIR`), written atomically
//! (temp file, fsync, rename, fsync of the folder) so a crash leaves the old or the new file,
//! never half of one; temp files of killed saves are removed at the next start. A file that
//! cannot be read is moved aside and reported, never silently dropped. Every error message
//! names the path it is about (tests/fault_progress.rs, docs/robustness.md "Fault tests").

use crate::lesson::{Exercise, Lesson};
use crate::run_report::RunReport;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

const FILE_NAME: &str = "progress.json";

// Progress is kept per lesson set; the catalog names its set (lesson owns the ids).
pub use crate::lesson::{BUILTIN_SET, folder_set};

/// The current layout of progress.json: `{"version": 2, "sets": {"builtin": {...}, ...}}`.
/// Version 1 files (one [`Progress`] at the top level, from before lesson sets) are read as the
/// built-in set and written back in this layout at the next save.
const FILE_VERSION: u32 = 2;

/// The learner's progress in one lesson set.
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
    /// Where the learner was in each lesson, independent of the terminal's width and of the
    /// cards' heights (which `scroll` depends on); `scroll` is kept for older versions.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub places: BTreeMap<String, Place>,
    /// Per exercise id: the code a reset (or a restore) replaced, so it can be brought back.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub previous_code: BTreeMap<String, String>,
    /// Per exercise id: the last run's report and the code it ran, so the output (and the
    /// gutter marks) survive a restart.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub last_runs: BTreeMap<String, SavedRun>,
    /// Per exercise id: how many hints the learner has revealed.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub hints: BTreeMap<String, usize>,
    /// The last check result of each exercise (by id), with the fingerprint of its code.
    pub checks: BTreeMap<String, CheckRecord>,
    /// Per exercise id: graded runs, hints revealed and when it first passed (for `report`).
    /// Added after version 2's first fields: absent in older files, and not written while empty.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub stats: BTreeMap<String, ExerciseStats>,
}

/// How the learner got through one exercise: kept for `report` and the classroom formats.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ExerciseStats {
    /// Runs of its checks (pager, `watch`, `edit`), whatever their result.
    pub attempts: u32,
    /// Hints revealed (the most ever shown at once: re-reading one does not count again).
    pub hints_revealed: u32,
    /// Unix time (seconds) of the first graded run.
    pub first_attempt_at: Option<u64>,
    /// Unix time of the first run that passed every check.
    pub passed_at: Option<u64>,
    /// Attempts it took to pass (the attempt count at `passed_at`).
    pub attempts_to_pass: Option<u32>,
    /// The learner opened the solution (the pager's `s`), for `report`.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub solution_viewed: bool,
}

impl ExerciseStats {
    /// Seconds from the first graded run to the first pass.
    pub fn time_to_pass(&self) -> Option<u64> {
        Some(self.passed_at?.saturating_sub(self.first_attempt_at?))
    }
}

/// A place in a lesson: a block of the Markdown source (its byte offset) and how many rendered
/// lines into it, or a row inside a card.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Place {
    /// Byte offset in the lesson body of the block at the top of the screen.
    pub origin: usize,
    /// Rendered lines into that block.
    pub nth: usize,
    /// When the top of the screen was inside a card: its position among the lesson's cards
    /// and the row within it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub card: Option<(usize, usize)>,
}

/// The learner's answer to one quiz: the first answer is the grade.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct QuizState {
    /// The first answer, 1-based as the quiz numbers its choices: the one that counts.
    pub answer: usize,
    /// Whether that first answer was right.
    pub correct: bool,
}

/// What answering a quiz did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QuizOutcome {
    /// Whether this answer is the right one.
    pub correct: bool,
    /// Whether this was the first answer, the one recorded as the grade.
    pub first_answer: bool,
    /// The grade: whether the first answer was right.
    pub graded_correct: bool,
    /// The right choice (1-based), to show with the explanation.
    pub right_choice: usize,
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
    /// Written by versions before [`CheckRecord`]s; never read for the ✓, which comes from
    /// [`Progress::passed`] (a flag that outlives the code it was earned with is how a ✓
    /// stayed after the code was broken again).
    pub passed: bool,
}

/// A run kept in progress: the code as it was and what the run reported.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SavedRun {
    pub code: String,
    pub report: RunReport,
}

/// The result of the last run of an exercise's checks, for the code it ran.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct CheckRecord {
    /// [`code_fingerprint`] of the code the checks ran on.
    pub code: String,
    pub passed: bool,
    pub checks_passed: usize,
    pub checks_total: usize,
}

/// A stable fingerprint of exercise code (FNV-1a, 64 bits, of the text without trailing
/// whitespace): equal for the code the editor holds and the same code saved or run with a
/// final newline, and stable across versions of cudatutor, unlike std's hasher.
pub(crate) fn code_fingerprint(code: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in code.trim_end().bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("fnv1a64:{h:016x}")
}

impl Progress {
    /// The code the learner has now for `ex`: the saved edit, else the starting code.
    pub fn current_code<'a>(&'a self, ex: &'a Exercise) -> &'a str {
        self.exercises
            .get(&ex.id)
            .and_then(|s| s.code.as_deref())
            .unwrap_or(&ex.start_code)
    }

    /// The one place the ✓ of an exercise comes from (pager, `list`, `report`): its last
    /// check result passed, and was computed for the code the exercise holds now.
    pub fn passed(&self, ex: &Exercise) -> bool {
        self.checks
            .get(&ex.id)
            .is_some_and(|c| c.passed && c.code == code_fingerprint(self.current_code(ex)))
    }

    /// Records the checks of a run of `code` for `ex` (replacing the previous record). A run
    /// without checks (the exercise has none, or the run failed inside cudatutor) records
    /// nothing.
    pub fn record_check(&mut self, ex: &Exercise, code: &str, report: &RunReport) {
        self.record_check_counting(ex, code, report, true);
    }

    /// Whether the last check record of `ex` is for exactly this code: running it again is
    /// not a new attempt at the exercise (the pager does not count it).
    pub(crate) fn checked_this_code(&self, ex: &Exercise, code: &str) -> bool {
        self.checks
            .get(&ex.id)
            .is_some_and(|c| c.code == code_fingerprint(code))
    }

    /// [`Progress::record_check`], counting the run as an attempt only when `attempt`.
    pub(crate) fn record_check_counting(
        &mut self,
        ex: &Exercise,
        code: &str,
        report: &RunReport,
        attempt: bool,
    ) {
        if report.checks.is_empty() || report.internal_error.is_some() {
            return;
        }
        let record = CheckRecord {
            code: code_fingerprint(code),
            passed: report.checks_passed(),
            checks_passed: report.checks.iter().filter(|c| c.passed).count(),
            checks_total: report.checks.len(),
        };
        let passed = record.passed;
        self.checks.insert(ex.id.clone(), record);
        if attempt {
            self.note_attempt(&ex.id, passed, unix_time());
        }
    }

    /// Counts one graded run of exercise `id` at unix time `now` (first attempt, first pass).
    pub(crate) fn note_attempt(&mut self, id: &str, passed: bool, now: u64) {
        let stats = self.stats.entry(id.to_string()).or_default();
        stats.attempts = stats.attempts.saturating_add(1);
        stats.first_attempt_at.get_or_insert(now);
        if passed && stats.passed_at.is_none() {
            stats.passed_at = Some(now);
            stats.attempts_to_pass = Some(stats.attempts);
        }
    }

    /// Records that the learner opened the solution of exercise `id` (for `report`).
    pub(crate) fn record_solution_viewed(&mut self, id: &str) {
        self.stats
            .entry(id.to_string())
            .or_default()
            .solution_viewed = true;
    }

    /// Records that `shown` hints of exercise `id` are revealed (the pager's `h`, `cudatutor
    /// hint`): the count only grows.
    pub fn record_hint(&mut self, id: &str, shown: usize) {
        let shown = u32::try_from(shown).unwrap_or(u32::MAX);
        let stats = self.stats.entry(id.to_string()).or_default();
        stats.hints_revealed = stats.hints_revealed.max(shown);
    }

    /// Answers quiz `number` (1-based) of `lesson` with `choice` (1-based). The first answer is
    /// recorded as the grade; later ones (for reading the explanation) change nothing. None
    /// when there is no such quiz or choice.
    pub fn answer_quiz(
        &mut self,
        lesson: &Lesson,
        number: usize,
        choice: usize,
    ) -> Option<QuizOutcome> {
        let quiz = lesson.quizzes.get(number.checked_sub(1)?)?;
        if choice == 0 || choice > quiz.choices.len() {
            return None;
        }
        let correct = choice == quiz.answer;
        let key = quiz_key(&lesson.id, number);
        let first_answer = !self.quizzes.contains_key(&key);
        let state = self.quizzes.entry(key).or_insert(QuizState {
            answer: choice,
            correct,
        });
        Some(QuizOutcome {
            correct,
            first_answer,
            graded_correct: state.correct,
            right_choice: quiz.answer,
        })
    }
}

/// progress.json as read: either layout. The version 1 fields come first so that a file of
/// the wrong shape is reported as it was before lesson sets.
#[derive(Deserialize, Default)]
#[serde(default)]
struct OnDisk {
    last_lesson: Option<String>,
    scroll: BTreeMap<String, usize>,
    exercises: BTreeMap<String, ExerciseState>,
    quizzes: BTreeMap<String, QuizState>,
    places: BTreeMap<String, Place>,
    previous_code: BTreeMap<String, String>,
    last_runs: BTreeMap<String, SavedRun>,
    hints: BTreeMap<String, usize>,
    version: u32,
    sets: BTreeMap<String, Progress>,
}

/// progress.json as written.
#[derive(Serialize, Default)]
struct ProgressFile {
    version: u32,
    sets: BTreeMap<String, Progress>,
}

impl OnDisk {
    /// Every lesson set; a version 1 file becomes the built-in set.
    fn into_sets(self) -> BTreeMap<String, Progress> {
        let mut sets = self.sets;
        if self.version < 2 {
            let legacy = Progress {
                last_lesson: self.last_lesson,
                scroll: self.scroll,
                exercises: self.exercises,
                quizzes: self.quizzes,
                places: self.places,
                previous_code: self.previous_code,
                last_runs: self.last_runs,
                hints: self.hints,
                ..Progress::default()
            };
            if legacy != Progress::default() {
                sets.entry(BUILTIN_SET.to_string()).or_insert(legacy);
            }
        }
        sets
    }
}

/// The progress of lesson set `set` in the bytes of a progress file of either layout (fresh
/// when the set has none). For tools and tests that read the file themselves.
pub fn read_set(bytes: &[u8], set: &str) -> Result<Progress, String> {
    let disk: OnDisk = serde_json::from_slice(bytes).map_err(|e| e.to_string())?;
    Ok(disk.into_sets().remove(set).unwrap_or_default())
}

/// How long a save waits for another process's save to release the data folder.
const LOCK_WAIT: std::time::Duration = std::time::Duration::from_secs(3);

/// Three-way merge of one lesson set, per entry: what this window changed since `base` (its
/// load or last save) comes from `ours`, everything else from `theirs` (the file as it is on
/// disk now, which another window may have saved since). Entries are per exercise (code, last
/// run, replaced code, hints, check record), per quiz, per lesson (place, scroll): two windows
/// editing different exercises keep both edits; the same exercise edited in both keeps the
/// last save's code, and the other's as its replaced code (`u` in the pager brings it back;
/// see [`code_conflicts`]). A quiz answered in both keeps the answer already on disk (the first
/// is the grade).
pub(crate) fn merge(base: &Progress, ours: &Progress, theirs: &Progress) -> Progress {
    fn entries<V: Clone + PartialEq>(
        base: &BTreeMap<String, V>,
        ours: &BTreeMap<String, V>,
        theirs: &BTreeMap<String, V>,
    ) -> BTreeMap<String, V> {
        let mut out = theirs.clone();
        for key in base.keys().chain(ours.keys()) {
            match (base.get(key), ours.get(key)) {
                (b, o) if b == o => {}
                (_, Some(v)) => {
                    out.insert(key.clone(), v.clone());
                }
                (_, None) => {
                    out.remove(key);
                }
            }
        }
        out
    }
    // Destructured so that a field added to Progress cannot be forgotten here.
    let Progress {
        last_lesson,
        scroll,
        exercises,
        quizzes,
        places,
        previous_code,
        last_runs,
        hints,
        checks,
        stats,
    } = ours;
    let mut quiz_answers = entries(&base.quizzes, quizzes, &theirs.quizzes);
    for (key, answer) in &theirs.quizzes {
        if !base.quizzes.contains_key(key) {
            quiz_answers.insert(key.clone(), answer.clone());
        }
    }
    let mut merged = Progress {
        last_lesson: if *last_lesson != base.last_lesson {
            last_lesson.clone()
        } else {
            theirs.last_lesson.clone()
        },
        scroll: entries(&base.scroll, scroll, &theirs.scroll),
        exercises: entries(&base.exercises, exercises, &theirs.exercises),
        quizzes: quiz_answers,
        places: entries(&base.places, places, &theirs.places),
        previous_code: entries(&base.previous_code, previous_code, &theirs.previous_code),
        last_runs: entries(&base.last_runs, last_runs, &theirs.last_runs),
        hints: entries(&base.hints, hints, &theirs.hints),
        checks: entries(&base.checks, checks, &theirs.checks),
        stats: entries(&base.stats, stats, &theirs.stats),
    };
    // The same exercise's code changed in both windows: this save's code wins, and the other
    // window's is kept as the code `u` brings back, so neither is lost.
    for (id, their_code) in code_conflicts(base, ours, theirs) {
        merged.previous_code.insert(id, their_code);
    }
    merged
}

/// The exercises whose code this window (`ours`) and another (`theirs`) both changed since
/// `base`, to different code: each with the other window's code.
pub(crate) fn code_conflicts(
    base: &Progress,
    ours: &Progress,
    theirs: &Progress,
) -> Vec<(String, String)> {
    let code = |p: &Progress, id: &str| p.exercises.get(id).and_then(|e| e.code.clone());
    ours.exercises
        .keys()
        .chain(theirs.exercises.keys())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .filter_map(|id| {
            let (b, o, t) = (
                code(base, id.as_str()),
                code(ours, id.as_str()),
                code(theirs, id.as_str()),
            );
            (b != o && b != t && o != t)
                .then(|| t.map(|t| (id.clone(), t)))
                .flatten()
        })
        .collect()
}

/// Where progress lives, which lesson set it loads and saves, and what happened when it was
/// loaded.
#[derive(Debug, Clone)]
pub struct Store {
    dir: PathBuf,
    /// The lesson set this store reads and writes ([`BUILTIN_SET`] unless [`Store::for_set`]);
    /// a save keeps every other set in the file as it finds it there.
    set: String,
    /// Set when the file there could not be read nor moved aside: saving would destroy it, so
    /// saves refuse with this reason. Shared by clones (the pager holds one).
    blocked: Arc<Mutex<Option<String>>>,
    /// This store's set as it was loaded or last saved: what a save compares the new progress
    /// with, to tell this window's changes from another window's (see [`merge`]). None until
    /// the first load: a save then writes the set as given. Shared by clones.
    base: Arc<Mutex<Option<Progress>>>,
}

/// Loading never fails: the worst case is a fresh start plus a message saying why.
pub struct Loaded {
    pub progress: Progress,
    pub warning: Option<String>,
}

/// A progress file is a few KiB (the learner's code for each exercise). Anything far larger is
/// not one of ours, and reading it whole would stall the start.
pub(crate) const MAX_FILE_BYTES: u64 = 16 << 20;

/// Temp files of saves that never reached their rename (the process was killed) are removed
/// at the next start once their process is gone; where that cannot be told, once this old.
const STALE_TEMP_AGE: std::time::Duration = std::time::Duration::from_secs(24 * 3600);

impl Store {
    /// `CUDATUTOR_DATA_DIR`, else the platform data dir (`~/.local/share/cudatutor`).
    pub(crate) fn default_location() -> Option<Store> {
        if let Some(dir) = std::env::var_os("CUDATUTOR_DATA_DIR").filter(|d| !d.is_empty()) {
            return Some(Store::at(dir));
        }
        directories::ProjectDirs::from("", "", "cudatutor").map(|d| Store::at(d.data_dir()))
    }

    pub fn at(dir: impl Into<PathBuf>) -> Store {
        Store {
            dir: dir.into(),
            set: BUILTIN_SET.to_string(),
            blocked: Arc::default(),
            base: Arc::default(),
        }
    }

    /// The same place, for lesson set `set` ([`BUILTIN_SET`] or [`folder_set`]).
    pub fn for_set(mut self, set: &str) -> Store {
        self.set = set.to_string();
        self
    }

    /// The lesson set this store loads and saves.
    pub fn set(&self) -> &str {
        &self.set
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn path(&self) -> PathBuf {
        self.dir.join(FILE_NAME)
    }

    /// Reads the progress file. Leftover temp files of killed saves are removed first. A file
    /// that is not valid progress (unreadable, not JSON, wrong shape, too large, a directory)
    /// is moved aside as `progress.json.corrupt-<time>` and reported; when it cannot be moved,
    /// it is left alone and this store refuses to save over it.
    pub fn load(&self) -> Loaded {
        self.remove_stale_temp_files();
        let path = self.path();
        let problem = match read_progress_file(&path) {
            Ok(None) => {
                self.set_base(Progress::default());
                return Loaded {
                    progress: Progress::default(),
                    warning: None,
                };
            }
            Ok(Some(bytes)) => match read_set(&bytes, &self.set) {
                Ok(progress) => {
                    self.set_base(progress.clone());
                    return Loaded {
                        progress,
                        warning: None,
                    };
                }
                Err(e) => e,
            },
            Err(e) => e.to_string(),
        };
        let warning = match self.move_aside(&path) {
            Ok(aside) => format!(
                "{} could not be read ({problem}); it was kept as {} and progress starts fresh",
                path.display(),
                aside.display()
            ),
            Err(m) => {
                *self.blocked.lock().unwrap_or_else(|p| p.into_inner()) = Some(format!(
                    "{} could not be read and is left as it is; not saving over it",
                    path.display()
                ));
                format!(
                    "{} could not be read ({problem}) nor moved aside ({m}); progress starts fresh and will not be saved over it",
                    path.display()
                )
            }
        };
        self.set_base(Progress::default());
        Loaded {
            progress: Progress::default(),
            warning: Some(warning),
        }
    }

    fn set_base(&self, progress: Progress) {
        *self.base.lock().unwrap_or_else(|p| p.into_inner()) = Some(progress);
    }

    /// `progress.json.corrupt-<unix time>`, with `-2`, `-3`… when that name is taken, so an
    /// earlier bad file is never replaced by a later one.
    fn move_aside(&self, path: &Path) -> std::io::Result<PathBuf> {
        let stem = format!("{FILE_NAME}.corrupt-{}", unix_time());
        for n in 1..1000 {
            let aside = self.dir.join(if n == 1 {
                stem.clone()
            } else {
                format!("{stem}-{n}")
            });
            if std::fs::symlink_metadata(&aside).is_ok() {
                continue;
            }
            std::fs::rename(path, &aside)?;
            return Ok(aside);
        }
        Err(std::io::Error::other(
            "too many progress.json.corrupt-* files",
        ))
    }

    /// Whether a save would work, asked at start-up so the learner hears of a read-only or full
    /// disk before typing anything: writes what a save would write to a temp file, syncs it and
    /// removes it, touching neither the progress file nor anything else there. `Err` is a
    /// one-line message naming the path and the OS error.
    pub fn check_writable(&self, progress: &Progress) -> Result<(), String> {
        let say = |e: std::io::Error| format!("progress will not be saved: {e}");
        if let Some(reason) = self.blocked() {
            return Err(format!("progress will not be saved: {reason}"));
        }
        self.ensure_dir().map_err(say)?;
        let json =
            serde_json::to_vec_pretty(progress).map_err(|e| say(std::io::Error::other(e)))?;
        let tmp = self.temp_path();
        let result = write_synced(&tmp, &json);
        let _ = std::fs::remove_file(&tmp);
        result.map_err(|e| say(with_path(&self.dir, e)))
    }

    /// Creates the folder if needed. The error names it, and says so when a file is in the way
    /// (the OS says only "File exists").
    fn ensure_dir(&self) -> std::io::Result<()> {
        match std::fs::create_dir_all(&self.dir) {
            Ok(()) => Ok(()),
            Err(_) if self.dir.exists() && !self.dir.is_dir() => Err(std::io::Error::new(
                std::io::ErrorKind::NotADirectory,
                format!("{}: it is a file, not a folder", self.dir.display()),
            )),
            Err(e) => Err(with_path(&self.dir, e)),
        }
    }

    fn blocked(&self) -> Option<String> {
        self.blocked
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    fn temp_path(&self) -> PathBuf {
        self.dir.join(format!(
            "{TEMP_PREFIX}{}.{}{TEMP_SUFFIX}",
            std::process::id(),
            unique()
        ))
    }

    /// Atomic replace: write a unique temp file in the same folder, fsync it, rename it over
    /// the progress file, fsync the folder (so the rename itself survives a power cut). On any
    /// failure the old file is untouched and the temp file removed. Errors name the path.
    ///
    /// Read-modify-write under a lock: with the data folder locked (`flock`, so a killed
    /// process never leaves it locked), the file is read again and this store's changes since
    /// its load or last save are merged into what is there now ([`merge`]), so another
    /// window's save in between (an edit of another exercise, another lesson set) is kept.
    pub fn save(&self, progress: &Progress) -> std::io::Result<()> {
        self.save_merging(progress).map(|_| ())
    }

    /// [`Store::save`], returning the exercises another window changed to other code since
    /// this one loaded or saved (see [`code_conflicts`]): this save's code was kept, theirs is
    /// now the exercise's `previous_code` in the file.
    pub(crate) fn save_merging(
        &self,
        progress: &Progress,
    ) -> std::io::Result<Vec<(String, String)>> {
        if let Some(reason) = self.blocked() {
            return Err(std::io::Error::other(reason));
        }
        let path = self.path();
        self.ensure_dir()?;
        let _lock = self.lock_dir()?;
        let mut file = ProgressFile {
            version: FILE_VERSION,
            sets: self.other_sets(&path)?,
        };
        let base = self.base.lock().unwrap_or_else(|p| p.into_inner()).clone();
        let (merged, conflicts) = match (base, file.sets.remove(&self.set)) {
            (Some(base), Some(theirs)) => (
                merge(&base, progress, &theirs),
                code_conflicts(&base, progress, &theirs),
            ),
            _ => (progress.clone(), Vec::new()),
        };
        file.sets.insert(self.set.clone(), merged);
        let json = serde_json::to_vec_pretty(&file).map_err(std::io::Error::other)?;
        let tmp = self.temp_path();
        let result = write_synced(&tmp, &json).and_then(|()| std::fs::rename(&tmp, &path));
        if let Err(e) = result {
            let _ = std::fs::remove_file(&tmp);
            return Err(with_path(&path, e));
        }
        sync_dir(&self.dir);
        self.set_base(progress.clone());
        Ok(conflicts)
    }

    /// Locks the data folder for one save (an exclusive `flock` on the folder itself: no lock
    /// file to leave behind or to fail to create on a full disk). Another process saving holds
    /// it for milliseconds; after [`LOCK_WAIT`] the save fails with a message naming the
    /// folder (the pager keeps the edits and says so). A folder that cannot be opened is not
    /// locked: the save itself then reports what is wrong with it.
    fn lock_dir(&self) -> std::io::Result<Option<std::fs::File>> {
        let Ok(dir) = std::fs::File::open(&self.dir) else {
            return Ok(None);
        };
        let deadline = std::time::Instant::now() + LOCK_WAIT;
        loop {
            match dir.try_lock() {
                Ok(()) => return Ok(Some(dir)),
                Err(std::fs::TryLockError::WouldBlock) if std::time::Instant::now() < deadline => {
                    std::thread::sleep(std::time::Duration::from_millis(5));
                }
                Err(std::fs::TryLockError::WouldBlock) => {
                    return Err(std::io::Error::other(format!(
                        "{}: another cudatutor has held this folder's lock for over {} s; not saving now",
                        self.dir.display(),
                        LOCK_WAIT.as_secs()
                    )));
                }
                // A file system without locks: save as before, unlocked.
                Err(std::fs::TryLockError::Error(_)) => return Ok(None),
            }
        }
    }

    /// The sets of the file as it is on disk now (another window or lesson folder may have
    /// saved since this store loaded), read again at each save. A file that has become
    /// unreadable since the load is an error: saving over it would drop what it holds.
    fn other_sets(&self, path: &Path) -> std::io::Result<BTreeMap<String, Progress>> {
        let unreadable = |why: String| {
            std::io::Error::other(format!(
                "{}: cannot be read ({why}); not saving over it",
                path.display()
            ))
        };
        match read_progress_file(path) {
            Ok(None) => Ok(BTreeMap::new()),
            Ok(Some(bytes)) => serde_json::from_slice::<OnDisk>(&bytes)
                .map(OnDisk::into_sets)
                .map_err(|e| unreadable(e.to_string())),
            Err(e) => Err(unreadable(e.to_string())),
        }
    }

    /// Removes `.progress.json.<pid>.<n>.tmp` files left by saves that were killed before their
    /// rename. A file is left while its process may still be writing it: other than this
    /// process, alive (on Linux, `/proc/<pid>` exists), and younger than a day. Failures (a
    /// read-only folder) are ignored: such files are never read, only in the way.
    fn remove_stale_temp_files(&self) {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return;
        };
        for entry in entries.filter_map(Result::ok) {
            let name = entry.file_name();
            let Some(pid) = name.to_str().and_then(temp_file_pid) else {
                continue;
            };
            if pid != std::process::id() && !temp_owner_may_be_writing(pid, &entry) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
}

const TEMP_PREFIX: &str = ".progress.json.";
const TEMP_SUFFIX: &str = ".tmp";

/// The pid in a temp file name `.progress.json.<pid>.<n>.tmp`, or None for other names.
fn temp_file_pid(name: &str) -> Option<u32> {
    let middle = name.strip_prefix(TEMP_PREFIX)?.strip_suffix(TEMP_SUFFIX)?;
    let (pid, n) = middle.split_once('.')?;
    n.parse::<u64>().ok()?;
    pid.parse().ok()
}

fn temp_owner_may_be_writing(pid: u32, entry: &std::fs::DirEntry) -> bool {
    let young = entry
        .metadata()
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.elapsed().ok())
        .is_none_or(|age| age < STALE_TEMP_AGE);
    if !young {
        return false;
    }
    if cfg!(target_os = "linux") {
        Path::new("/proc").join(pid.to_string()).exists()
    } else {
        true
    }
}

/// The bytes of the progress file; None when there is none. Errors for what is not a regular
/// file (a directory, a FIFO that would block the start) or is larger than [`MAX_FILE_BYTES`].
fn read_progress_file(path: &Path) -> std::io::Result<Option<Vec<u8>>> {
    use crate::regular_file::{ReadError, read};
    match read(path, MAX_FILE_BYTES) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(ReadError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(ReadError::Io(e)) => Err(e),
        Err(ReadError::Directory) => Err(std::io::Error::other("it is a directory, not a file")),
        Err(ReadError::NotRegular) => Err(std::io::Error::other("it is not a regular file")),
        Err(ReadError::TooLarge(len)) => Err(too_large(len)),
    }
}

fn too_large(len: u64) -> std::io::Error {
    std::io::Error::other(format!(
        "{len} bytes, more than the {} MiB a progress file can be",
        MAX_FILE_BYTES >> 20
    ))
}

/// The same error, its message prefixed with the path it is about.
fn with_path(path: &Path, e: std::io::Error) -> std::io::Error {
    std::io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

fn write_synced(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = std::fs::File::create(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

/// Makes a rename in `dir` durable. Best effort: the rename has already happened, so a folder
/// that cannot be synced (some network and FUSE file systems refuse) is not a failed save.
fn sync_dir(dir: &Path) {
    #[cfg(unix)]
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
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

    /// A fresh folder `name` whose progress file holds `bytes` (an old format, a broken file).
    fn dir_holding(name: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
        let dir = temp_dir(name);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(FILE_NAME), bytes).unwrap();
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
        let dir = dir_holding(
            "old-format",
            br#"{"last_lesson":"labels","scroll":{},"exercises":{"e":{"code":"x","passed":false}}}"#,
        );
        let loaded = Store::at(&dir).load();
        assert!(loaded.warning.is_none());
        assert_eq!(loaded.progress.exercises["e"].code.as_deref(), Some("x"));
        assert!(loaded.progress.quizzes.is_empty());
    }

    #[test]
    fn a_version_1_file_is_the_built_in_set_and_is_written_back_as_version_2() {
        let dir = dir_holding(
            "v1",
            br#"{"last_lesson":"labels","scroll":{"labels":3},"exercises":{"e":{"code":"x","passed":true}},"quizzes":{"labels#1":{"answer":2,"correct":false}}}"#,
        );
        let builtin = Store::at(&dir);
        let loaded = builtin.load();
        assert!(loaded.warning.is_none());
        assert_eq!(loaded.progress.last_lesson.as_deref(), Some("labels"));
        assert_eq!(loaded.progress.exercises["e"].code.as_deref(), Some("x"));
        assert_eq!(loaded.progress.quizzes["labels#1"].answer, 2);
        let folder = Store::at(&dir).for_set("dir:/somewhere");
        assert_eq!(folder.load().progress, Progress::default());
        builtin.save(&loaded.progress).unwrap();
        let text = std::fs::read_to_string(dir.join(FILE_NAME)).unwrap();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["version"], 2);
        assert!(
            v.get("exercises").is_none(),
            "no version 1 fields left: {text}"
        );
        assert_eq!(builtin.load().progress, loaded.progress);
    }

    #[test]
    fn a_save_keeps_the_other_sets_and_refuses_a_file_broken_since_the_load() {
        let dir = temp_dir("sets");
        let a = Store::at(&dir);
        let b = Store::at(&dir).for_set("dir:/b");
        a.save(&sample()).unwrap();
        let mut other = Progress::default();
        other.scroll.insert("b".into(), 1);
        b.save(&other).unwrap();
        assert_eq!(a.load().progress, sample());
        assert_eq!(b.load().progress, other);
        std::fs::write(dir.join(FILE_NAME), b"{ broken").unwrap();
        let e = a.save(&sample()).unwrap_err().to_string();
        assert!(e.starts_with(&a.path().display().to_string()), "{e}");
        assert!(e.contains("not saving over it"), "{e}");
        assert_eq!(std::fs::read(dir.join(FILE_NAME)).unwrap(), b"{ broken");
        assert!(files_named(&dir, TEMP_PREFIX).is_empty());
    }

    fn edit(p: &mut Progress, id: &str, code: &str) {
        p.exercises.insert(
            id.into(),
            ExerciseState {
                code: Some(code.into()),
                passed: false,
            },
        );
    }

    /// Two windows on one data folder, each editing its own exercise: both edits are kept,
    /// whatever the order of their saves, and later saves of either keep the other's.
    #[test]
    fn two_windows_editing_different_exercises_keep_both_edits() {
        let dir = temp_dir("two-windows");
        let (a, b) = (Store::at(&dir), Store::at(&dir));
        let mut pa = a.load().progress;
        let mut pb = b.load().progress;
        edit(&mut pa, "ex-a", "a = 1");
        a.save(&pa).unwrap();
        edit(&mut pb, "ex-b", "b = 1");
        b.save(&pb).unwrap();
        edit(&mut pa, "ex-a", "a = 2");
        pa.last_lesson = Some("from-a".into());
        a.save(&pa).unwrap();
        let on_disk = Store::at(&dir).load().progress;
        assert_eq!(on_disk.exercises["ex-a"].code.as_deref(), Some("a = 2"));
        assert_eq!(on_disk.exercises["ex-b"].code.as_deref(), Some("b = 1"));
        assert_eq!(on_disk.last_lesson.as_deref(), Some("from-a"));
        // B goes back to the starting code of its exercise: that removal is B's change.
        pb.exercises.remove("ex-b");
        b.save(&pb).unwrap();
        let on_disk = Store::at(&dir).load().progress;
        assert_eq!(on_disk.exercises["ex-a"].code.as_deref(), Some("a = 2"));
        assert!(!on_disk.exercises.contains_key("ex-b"));
        assert_eq!(
            on_disk.last_lesson.as_deref(),
            Some("from-a"),
            "B did not move"
        );
    }

    #[test]
    fn the_same_exercise_keeps_the_last_save_and_a_quiz_its_first_answer() {
        let base = Progress::default();
        let mut ours = base.clone();
        let mut theirs = base.clone();
        edit(&mut ours, "e", "ours");
        edit(&mut theirs, "e", "theirs");
        let q = QuizState {
            answer: 1,
            correct: false,
        };
        theirs.quizzes.insert("l#1".into(), q.clone());
        ours.quizzes.insert(
            "l#1".into(),
            QuizState {
                answer: 2,
                correct: true,
            },
        );
        let m = merge(&base, &ours, &theirs);
        assert_eq!(m.exercises["e"].code.as_deref(), Some("ours"));
        assert_eq!(
            m.quizzes["l#1"], q,
            "the answer already on disk is the grade"
        );
        // Unchanged here: theirs wins.
        let m = merge(&ours, &ours, &theirs);
        assert_eq!(m.exercises["e"].code.as_deref(), Some("theirs"));
    }

    /// Concurrent saves from threads (each its own Store, as separate pagers are): the lock
    /// makes each read-modify-write whole, so every writer's exercise is in the file.
    #[test]
    fn concurrent_saves_lose_no_exercise() {
        let dir = temp_dir("concurrent");
        std::fs::create_dir_all(&dir).unwrap();
        let handles: Vec<_> = (0..8)
            .map(|w| {
                let dir = dir.clone();
                std::thread::spawn(move || {
                    let store = Store::at(&dir);
                    let mut p = store.load().progress;
                    for round in 0..10 {
                        edit(&mut p, &format!("ex-{w}"), &format!("round {round}"));
                        store.save(&p).unwrap();
                    }
                })
            })
            .collect();
        for h in handles {
            h.join().unwrap();
        }
        let p = Store::at(&dir).load().progress;
        for w in 0..8 {
            assert_eq!(
                p.exercises[&format!("ex-{w}")].code.as_deref(),
                Some("round 9"),
                "writer {w}"
            );
        }
    }

    #[test]
    fn code_fingerprints_ignore_trailing_whitespace_only() {
        assert_eq!(code_fingerprint("x = 1\n"), code_fingerprint("x = 1"));
        assert_eq!(code_fingerprint("x = 1\n\n  \n"), code_fingerprint("x = 1"));
        assert_ne!(code_fingerprint("x = 1"), code_fingerprint("x = 2"));
        assert_ne!(code_fingerprint(" x = 1"), code_fingerprint("x = 1"));
        // Stable across versions: a fixed value, not std's hasher.
        assert_eq!(code_fingerprint(""), "fnv1a64:cbf29ce484222325");
    }

    #[test]
    fn corrupt_file_is_kept_aside_and_reported() {
        let dir = dir_holding("corrupt", b"{ not json");
        let loaded = Store::at(&dir).load();
        assert_eq!(loaded.progress, Progress::default());
        let warning = loaded.warning.expect("a warning");
        assert!(warning.contains("could not be read"), "{warning}");
        let kept = files_named(&dir, "progress.json.corrupt-");
        assert_eq!(kept.len(), 1);
        assert_eq!(std::fs::read(&kept[0]).unwrap(), b"{ not json");
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

    fn files_named(dir: &Path, prefix: &str) -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().starts_with(prefix))
            .map(|e| e.path())
            .collect();
        v.sort();
        v
    }

    /// Writes `bytes` as the progress file, loads it, and checks: fresh progress, one warning
    /// line naming the file and where it was kept, and the kept file holds exactly `bytes`.
    fn assert_kept_aside(name: &str, bytes: &[u8], reason: &str) {
        let dir = dir_holding(name, bytes);
        let store = Store::at(&dir);
        let loaded = store.load();
        assert_eq!(loaded.progress, Progress::default(), "{name}");
        let warning = loaded.warning.expect("a warning");
        assert!(!warning.contains('\n'), "one line: {warning}");
        assert!(
            warning.contains(&store.path().display().to_string()),
            "{warning}"
        );
        assert!(warning.contains(reason), "{name}: {warning}");
        let kept = files_named(&dir, "progress.json.corrupt-");
        assert_eq!(kept.len(), 1, "{name}: {kept:?}");
        assert!(
            warning.contains(&kept[0].display().to_string()),
            "{warning}"
        );
        assert_eq!(
            std::fs::read(&kept[0]).unwrap(),
            bytes,
            "{name}: kept intact"
        );
        assert!(!store.path().exists());
        // The next save works and the next load is clean.
        store.save(&Progress::default()).unwrap();
        assert!(store.load().warning.is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }

    fn sample() -> Progress {
        let mut p = Progress {
            last_lesson: Some("devices".into()),
            ..Progress::default()
        };
        p.scroll.insert("devices".into(), 7);
        p.exercises.insert(
            "e".into(),
            ExerciseState {
                code: Some("x = 1\n".into()),
                passed: true,
            },
        );
        p
    }

    #[test]
    fn every_truncation_of_a_file_is_kept_aside() {
        let full = serde_json::to_vec_pretty(&sample()).unwrap();
        // Every proper prefix: a write cut short anywhere (the empty file included).
        for cut in 0..full.len() {
            let dir = dir_holding(&format!("truncated-{cut}"), &full[..cut]);
            let loaded = Store::at(&dir).load();
            assert!(
                loaded.warning.is_some(),
                "prefix of {cut} bytes loaded silently"
            );
            assert_eq!(files_named(&dir, "progress.json.corrupt-").len(), 1);
            let _ = std::fs::remove_dir_all(&dir);
        }
    }

    #[test]
    fn wrong_types_are_kept_aside() {
        assert_kept_aside("type-lesson", br#"{"last_lesson": 5}"#, "invalid type");
        assert_kept_aside("type-scroll", br#"{"scroll": {"a": -1}}"#, "invalid value");
        assert_kept_aside("type-null", b"null", "invalid type");
        assert_kept_aside("type-array", b"[1, 2]", "invalid type");
        assert_kept_aside(
            "type-exercise",
            br#"{"exercises": {"e": {"code": 1}}}"#,
            "invalid type",
        );
    }

    #[test]
    fn non_utf8_binary_and_deeply_nested_files() {
        let mut bytes = br#"{"last_lesson": ""#.to_vec();
        bytes.extend([0xff, 0xfe, b'"', b'}']);
        assert_kept_aside("non-utf8", &bytes, "could not be read");
        // 100 000 levels deep in a field this version does not know: skipped without
        // recursion (no stack overflow), the rest of the file loads.
        let nested = format!(
            "{{\"unknown\": {}{}, \"last_lesson\": \"devices\"}}",
            "[".repeat(100_000),
            "]".repeat(100_000)
        );
        let dir = dir_holding("nested", nested);
        let loaded = Store::at(&dir).load();
        assert!(loaded.warning.is_none(), "{:?}", loaded.warning);
        assert_eq!(loaded.progress.last_lesson.as_deref(), Some("devices"));
        // Nested where a map belongs: a type error at once.
        let deep_scroll = format!("{{\"scroll\": {}", "[".repeat(100_000));
        assert_kept_aside("nested-scroll", deep_scroll.as_bytes(), "invalid type");
        assert_kept_aside("binary", &[0u8, 1, 2, 3, 0xff], "could not be read");
    }

    #[test]
    fn a_huge_file_is_kept_aside_without_reading_it() {
        let dir = temp_dir("huge");
        std::fs::create_dir_all(&dir).unwrap();
        // Sparse: no disk used, and the size check happens before any read.
        let file = std::fs::File::create(dir.join(FILE_NAME)).unwrap();
        file.set_len(MAX_FILE_BYTES + 1).unwrap();
        drop(file);
        let started = std::time::Instant::now();
        let loaded = Store::at(&dir).load();
        let warning = loaded.warning.expect("a warning");
        assert!(
            warning.contains("16777217 bytes, more than the 16 MiB"),
            "{warning}"
        );
        assert!(started.elapsed() < std::time::Duration::from_secs(1));
        let kept = files_named(&dir, "progress.json.corrupt-");
        assert_eq!(kept.len(), 1);
        assert_eq!(
            std::fs::metadata(&kept[0]).unwrap().len(),
            MAX_FILE_BYTES + 1
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_directory_in_place_of_the_file_is_kept_aside() {
        let dir = temp_dir("is-dir");
        std::fs::create_dir_all(dir.join(FILE_NAME).join("inside")).unwrap();
        let store = Store::at(&dir);
        let warning = store.load().warning.expect("a warning");
        assert!(
            warning.contains("it is a directory, not a file"),
            "{warning}"
        );
        let kept = files_named(&dir, "progress.json.corrupt-");
        assert_eq!(kept.len(), 1);
        assert!(kept[0].join("inside").is_dir(), "moved whole");
        store.save(&sample()).unwrap();
        assert_eq!(store.load().progress, sample());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_fifo_in_place_of_the_file_does_not_block_the_start() {
        let dir = temp_dir("fifo");
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join(FILE_NAME);
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            eprintln!("SKIPPED: mkfifo is not available");
            return;
        }
        // Reading a FIFO with no writer would block forever; load must not open it.
        let warning = Store::at(&dir).load().warning.expect("a warning");
        assert!(warning.contains("it is not a regular file"), "{warning}");
        assert_eq!(files_named(&dir, "progress.json.corrupt-").len(), 1);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn two_bad_files_in_one_second_are_both_kept() {
        let dir = temp_dir("twice");
        std::fs::create_dir_all(&dir).unwrap();
        let store = Store::at(&dir);
        for bad in [&b"{ first"[..], b"{ second", b"{ third"] {
            std::fs::write(store.path(), bad).unwrap();
            assert!(store.load().warning.is_some());
        }
        let kept = files_named(&dir, "progress.json.corrupt-");
        let mut contents: Vec<Vec<u8>> = kept.iter().map(|k| std::fs::read(k).unwrap()).collect();
        contents.sort();
        assert_eq!(
            contents,
            vec![
                b"{ first".to_vec(),
                b"{ second".to_vec(),
                b"{ third".to_vec()
            ]
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_writer_reports_a_full_disk() {
        // /dev/full: every write fails with ENOSPC, as on a full file system.
        let full = Path::new("/dev/full");
        if !full.exists() {
            eprintln!("SKIPPED: no /dev/full on this system");
            return;
        }
        let e = write_synced(full, &serde_json::to_vec(&sample()).unwrap()).unwrap_err();
        assert_eq!(e.raw_os_error(), Some(28), "{e}");
    }

    #[test]
    fn errors_name_the_path_and_the_old_file_survives() {
        // A data dir that is a regular file: create_dir_all fails for any user, root included.
        let base = temp_dir("not-a-dir");
        std::fs::create_dir_all(&base).unwrap();
        let file = base.join("data");
        std::fs::write(&file, b"not a folder").unwrap();
        let store = Store::at(&file);
        let message = store.check_writable(&sample()).unwrap_err();
        assert_eq!(
            message,
            format!(
                "progress will not be saved: {}: it is a file, not a folder",
                file.display()
            )
        );
        let e = store.save(&sample()).unwrap_err();
        assert!(
            e.to_string().starts_with(&file.display().to_string()),
            "{e}"
        );
        assert_eq!(std::fs::read(&file).unwrap(), b"not a folder");

        // A progress path that cannot be replaced (a non-empty directory): the rename fails,
        // the error names progress.json, the temp file is gone, what was there is untouched.
        let dir = temp_dir("rename-fails");
        std::fs::create_dir_all(dir.join(FILE_NAME).join("keep")).unwrap();
        let store = Store::at(&dir);
        let e = store.save(&sample()).unwrap_err();
        assert!(
            e.to_string()
                .starts_with(&store.path().display().to_string()),
            "{e}"
        );
        assert!(dir.join(FILE_NAME).join("keep").is_dir());
        assert!(files_named(&dir, TEMP_PREFIX).is_empty());
        let _ = std::fs::remove_dir_all(&base);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn check_writable_leaves_nothing_behind() {
        let dir = temp_dir("probe");
        let store = Store::at(&dir);
        store.save(&sample()).unwrap();
        let before = std::fs::read(store.path()).unwrap();
        store.check_writable(&Progress::default()).unwrap();
        assert_eq!(std::fs::read(store.path()).unwrap(), before);
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from(FILE_NAME)]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_blocked_store_refuses_to_save() {
        let dir = temp_dir("blocked");
        let store = Store::at(&dir);
        *store.blocked.lock().unwrap() = Some("reason here".into());
        assert_eq!(
            store.save(&sample()).unwrap_err().to_string(),
            "reason here"
        );
        assert_eq!(
            store.check_writable(&sample()).unwrap_err(),
            "progress will not be saved: reason here"
        );
        assert!(!store.path().exists());
    }

    #[test]
    fn stale_temp_files_are_removed_and_live_ones_kept() {
        let dir = temp_dir("stale");
        std::fs::create_dir_all(&dir).unwrap();
        // A pid that is certainly gone: a child that has exited and been waited for.
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let dead = child.id();
        child.wait().unwrap();
        let own = std::process::id();
        let live = 1; // init: alive for as long as the system is
        let names = [
            format!(".progress.json.{dead}.0.tmp"),
            format!(".progress.json.{dead}.17.tmp"),
            format!(".progress.json.{own}.5.tmp"),
            format!(".progress.json.{live}.0.tmp"),
            ".progress.json.notes".to_string(),
            ".progress.json.x.0.tmp".to_string(),
        ];
        for n in &names {
            std::fs::write(dir.join(n), b"{ half").unwrap();
        }
        let loaded = Store::at(&dir).load();
        assert!(loaded.warning.is_none());
        let left: Vec<String> = files_named(&dir, ".progress.json.")
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        let mut expected = vec![
            names[2].clone(),
            names[3].clone(),
            names[4].clone(),
            names[5].clone(),
        ];
        if !cfg!(target_os = "linux") {
            // Without /proc, only a day's age marks a temp file stale.
            expected.extend([names[0].clone(), names[1].clone()]);
        }
        expected.sort();
        assert_eq!(left, expected);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn temp_file_names_parse() {
        assert_eq!(temp_file_pid(".progress.json.123.4.tmp"), Some(123));
        assert_eq!(temp_file_pid(".progress.json.123.tmp"), None);
        assert_eq!(temp_file_pid(".progress.json.a.4.tmp"), None);
        assert_eq!(temp_file_pid("progress.json"), None);
        assert_eq!(temp_file_pid("progress.json.corrupt-1"), None);
    }
}
