//! The proptest settings every fuzz test shares: a number of cases, and a regressions file per
//! test binary under tests/corpus/proptest-regressions/, so a failing input found once is
//! replayed first on every later run.

use proptest::test_runner::{Config, FileFailurePersistence};

/// `cases` random cases, failures saved to and replayed from `regressions` (a path from the
/// repository root).
pub(crate) fn config(cases: u32, regressions: &'static str) -> Config {
    Config {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(regressions))),
        ..Config::default()
    }
}
