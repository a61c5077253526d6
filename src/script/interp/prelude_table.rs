//! The top-level statements of every prelude, found at build time: build.rs runs
//! top_level.rs's scanner over every src/**/*.py and writes `prelude_statements.rs` in
//! OUT_DIR. Scanning torch.nn's ~500 KB at every import was about a millisecond of each run.
//! [`statements_of`] takes the built table when the text is the one it was built from (its
//! length and [`text_hash`] agree), else scans.

use super::top_level::{TopStmt, text_hash, top_level_statements};

/// A statement as the build writes it: (start, end, first_line, newlines) of a [`TopStmt`].
type BuiltStmt = (u32, u32, u32, u32);

mod built {
    use super::BuiltStmt;
    // PRELUDE_STATEMENTS: (length, text_hash, statements) of every src/**/*.py and every
    // concatenation of torch/prelude_files.rs, written by build.rs.
    include!(concat!(env!("OUT_DIR"), "/prelude_statements.rs"));
}

/// [`top_level_statements`] of `src`, from the build-time table when `src` is a prelude as
/// built (the same length and hash), else scanned.
pub(crate) fn statements_of(src: &str) -> Vec<TopStmt> {
    let len = src.len();
    let mut candidates = built::PRELUDE_STATEMENTS
        .iter()
        .filter(|(n, _, _)| *n == len)
        .peekable();
    if candidates.peek().is_some() {
        let h = text_hash(src);
        if let Some((_, _, stmts)) = candidates.find(|(_, bh, _)| *bh == h) {
            return stmts
                .iter()
                .map(|&(start, end, first_line, newlines)| TopStmt {
                    start: start as usize,
                    end: end as usize,
                    first_line,
                    newlines,
                })
                .collect();
        }
    }
    top_level_statements(src)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_table_holds_what_the_scanner_finds_in_each_deferred_prelude() {
        use crate::script::modules;
        let deferred = crate::torch::PRELUDES
            .iter()
            .filter(|(name, _)| crate::torch::DEFERRING.contains(name))
            .chain(
                modules::PRELUDES
                    .iter()
                    .filter(|(name, _)| modules::DEFERRING.contains(name)),
            );
        for (name, src) in deferred {
            let scanned = top_level_statements(src);
            assert_eq!(statements_of(src), scanned, "{name}");
            assert!(
                built::PRELUDE_STATEMENTS
                    .iter()
                    .any(|(n, h, _)| *n == src.len() && *h == text_hash(src)),
                "{name} is in the built table"
            );
        }
        // a text the build never saw is scanned
        let other = "x = 1\ndef f():\n    pass\n";
        assert_eq!(statements_of(other), top_level_statements(other));
        assert_eq!(statements_of(other).len(), 2);
    }
}
