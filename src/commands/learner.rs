//! What the subcommands about lessons load first: the lesson catalog (built-in or
//! `--lessons DIR`) and the learner's progress for that lesson set, with the warnings about it.

use super::Globals;
use super::output::emit;
use crate::lesson::Catalog;
use crate::progress::{Progress, Store};
use std::process::ExitCode;

/// The lessons and the learner's progress in them.
pub(crate) struct Learner {
    pub catalog: Catalog,
    /// Where progress is saved; None when no data folder could be found.
    pub store: Option<Store>,
    pub progress: Progress,
    /// What went wrong loading or (for the pager) writing progress, already said on stderr; the
    /// pager shows it in its status bar too.
    pub warning: Option<String>,
}

impl Learner {
    /// Loads the lessons and progress. `pager`: the pager saves as the learner works, so a
    /// folder it cannot write is said at start-up (commands that only read progress need no
    /// such check). `Err` is the exit status after a catalog that cannot be loaded was reported.
    pub(crate) fn load(globals: &Globals, pager: bool) -> Result<Learner, ExitCode> {
        let catalog = match load_catalog(globals) {
            Ok(c) => c,
            Err(message) => return Err(super::usage_error(message)),
        };
        // Progress is kept per lesson set: the built-in lessons, or this --lessons folder.
        let store = Store::default_location().map(|s| s.for_set(&catalog.set));
        let loaded = store.as_ref().map(Store::load);
        let (progress, warning) = match loaded {
            Some(l) => (l.progress, l.warning),
            None => (Progress::default(), Some("no data folder could be found: your place will not be saved (set CUDATUTOR_DATA_DIR)".to_string())),
        };
        let writable = match (pager, &store) {
            (true, Some(store)) => store.check_writable(&progress).err(),
            _ => None,
        };
        for w in warning.iter().chain(&writable) {
            eprintln!("cudatutor: {w}");
        }
        let warning = match (warning, writable) {
            (Some(a), Some(b)) => Some(format!("{a}; {b}")),
            (a, b) => a.or(b),
        };
        Ok(Learner {
            catalog,
            store,
            progress,
            warning,
        })
    }

    /// Loads as `load` does, for a command that saves progress: the learner and the store
    /// taken out of it. `Err` is the exit status after the problem was said, including "no
    /// data folder" when there is nowhere to save.
    pub(crate) fn load_saving(globals: &Globals) -> Result<(Learner, Store), ExitCode> {
        let mut learner = Learner::load(globals, false)?;
        match learner.store.take() {
            Some(store) => Ok((learner, store)),
            None => Err(no_data_folder()),
        }
    }

    /// Loads as `load` does and finds lesson `which`: the learner and the lesson's index.
    /// `Ok(Err(code))` is the exit status after the problem was said (for an unknown lesson,
    /// with the list of lessons).
    pub(crate) fn load_lesson(
        globals: &Globals,
        which: &str,
    ) -> anyhow::Result<Result<(Learner, usize), ExitCode>> {
        let learner = match Learner::load(globals, false) {
            Ok(l) => l,
            Err(code) => return Ok(Err(code)),
        };
        match learner.catalog.find(which) {
            Some(i) => Ok(Ok((learner, i))),
            None => learner.no_lesson(which, globals).map(Err),
        }
    }

    /// Says there is no lesson `which` and lists the lessons: exit status 2.
    pub(crate) fn no_lesson(&self, which: &str, globals: &Globals) -> anyhow::Result<ExitCode> {
        eprintln!("cudatutor: there is no lesson `{which}`. The lessons are:");
        emit(&crate::classroom::list::list_text(
            &self.catalog,
            &self.progress,
            globals.lang,
        ))?;
        Ok(ExitCode::from(2))
    }
}

/// Says there is no exercise `id`: exit status 2.
pub(crate) fn no_exercise(id: &str, globals: &Globals) -> ExitCode {
    let words = crate::classroom::card::card_text(globals.lang);
    super::usage_error(words.no_exercise.replace("{id}", id))
}

/// Says progress cannot be saved without a data folder: exit status 2.
pub(crate) fn no_data_folder() -> ExitCode {
    super::usage_error("no data folder: set CUDATUTOR_DATA_DIR")
}

pub(crate) fn load_catalog(globals: &Globals) -> Result<Catalog, String> {
    let result = match &globals.lessons {
        Some(dir) => Catalog::from_dir(dir),
        None => Catalog::builtin(globals.lang),
    };
    result.map_err(|errors| {
        let list: Vec<String> = errors.iter().map(ToString::to_string).collect();
        format!("the lessons cannot be loaded:\n{}", list.join("\n"))
    })
}
