//! The learner's session: their progress (code, answers, runs, places), where it is stored,
//! and when it was last written. Edits are saved [`SAVE_DEBOUNCE`] after the first unsaved
//! change, so a crash loses at most that much typing; quitting saves at once and, when that
//! fails, the pager asks before leaving.

use crate::progress::{Progress, SavedRun, Store};
use crate::run::RunReport;
use std::time::{Duration, Instant};

/// Edits are saved this long after the first unsaved change.
pub const SAVE_DEBOUNCE: Duration = Duration::from_millis(500);
/// A kept report's stdout and stderr keep at most this many bytes each (their end, which holds
/// the exception), so progress.json stays small.
pub(super) const KEPT_OUTPUT_BYTES: usize = 64 << 10;
/// A kept report's timeline keeps at most this many operations.
pub(super) const KEPT_TIMELINE: usize = 4000;

pub struct Session {
    pub progress: Progress,
    store: Option<Store>,
    dirty_since: Option<Instant>,
    /// The learner changed their code (or answers) since the last successful save.
    unsaved_work: bool,
    /// Exercises whose code another window changed too, found by saves and not yet said.
    pub conflicts: Vec<String>,
}

impl Session {
    pub fn new(progress: Progress) -> Session {
        Session {
            progress,
            store: None,
            dirty_since: None,
            unsaved_work: false,
            conflicts: Vec::new(),
        }
    }

    pub(crate) fn set_store(&mut self, store: Store) {
        self.store = Some(store);
    }

    /// Something in progress changed: save it soon. `work` is the learner's own work (code,
    /// answers), whose loss the pager warns about; places and runs are not.
    pub fn changed(&mut self, work: bool) {
        self.unsaved_work |= work;
        if self.dirty_since.is_none() {
            self.dirty_since = Some(Instant::now());
        }
    }

    pub fn pending(&self) -> bool {
        self.dirty_since.is_some()
    }

    /// The learner's own work changed since the last successful save.
    pub(crate) fn unsaved_work(&self) -> bool {
        self.unsaved_work
    }

    /// The data folder progress is saved in (where `e` writes the exercise's file).
    pub fn data_dir(&self) -> Option<std::path::PathBuf> {
        self.store.as_ref().map(|s| s.dir().to_path_buf())
    }

    /// The debounced save: once the changes are old enough, writes them (with no store there
    /// is nowhere to write, and nothing to report). Err is the message for the footer.
    pub(crate) fn save_if_due(&mut self, now: Instant) -> Option<Result<(), Option<String>>> {
        if !self.due(now) {
            return None;
        }
        if self.store.is_none() {
            self.dirty_since = None;
            return None;
        }
        Some(self.save())
    }

    /// Whether the debounce has passed for the changes waiting.
    pub(crate) fn due(&self, now: Instant) -> bool {
        self.dirty_since
            .is_some_and(|t| now.saturating_duration_since(t) >= SAVE_DEBOUNCE)
    }

    /// Writes progress now. Err is the store's message (it names the path), or None when
    /// there is no store: nowhere to write, an error only when there is work to lose.
    pub fn save(&mut self) -> Result<(), Option<String>> {
        self.dirty_since = None;
        let Some(store) = &self.store else {
            return if self.unsaved_work { Err(None) } else { Ok(()) };
        };
        let conflicts = store
            .save_merging(&self.progress)
            .map_err(|e| Some(e.to_string()))?;
        self.unsaved_work = false;
        // Another window changed the same exercise: its code is what `u` brings back here too.
        for (id, theirs) in conflicts {
            self.progress.previous_code.insert(id.clone(), theirs);
            self.conflicts.push(id);
        }
        Ok(())
    }

    /// Keeps `report` (trimmed) as the exercise's last run.
    pub(crate) fn keep_run(&mut self, id: &str, code: &str, report: &RunReport) {
        self.progress.last_runs.insert(
            id.to_string(),
            SavedRun {
                code: code.to_string(),
                report: trimmed(report),
            },
        );
        self.changed(false);
    }
}

/// A report small enough to keep: the end of long outputs, the start of long timelines.
fn trimmed(report: &RunReport) -> RunReport {
    let mut kept = report.clone();
    kept.stdout = tail(&report.stdout, KEPT_OUTPUT_BYTES);
    kept.stderr = tail(&report.stderr, KEPT_OUTPUT_BYTES);
    kept.timeline.truncate(KEPT_TIMELINE);
    kept
}

fn tail(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut start = text.len() - max;
    while !text.is_char_boundary(start) {
        start += 1;
    }
    // Start at a line.
    let start = text[start..].find('\n').map_or(start, |n| start + n + 1);
    format!("…\n{}", &text[start..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_output_keeps_the_end_at_a_line() {
        let long: String = (0..20000).map(|i| format!("line {i}\n")).collect();
        let kept = tail(&long, 1000);
        assert!(kept.len() <= 1000 + 4);
        assert!(kept.starts_with("…\nline "), "{}", &kept[..20]);
        assert!(kept.ends_with("line 19999\n"));
        assert_eq!(tail("short", 1000), "short");
    }

    #[test]
    fn work_without_a_store_is_unsaved() {
        let mut s = Session::new(Progress::default());
        assert!(s.save().is_ok(), "nothing to lose");
        s.changed(true);
        assert!(s.save().is_err());
    }
}
