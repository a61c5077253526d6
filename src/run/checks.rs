//! Splitting an exercise's check block into the checks the learner sees.
//!
//! Every top-level `assert` is one check (shown passed or failed with its message); any other
//! top-level statement is setup that later asserts may rely on. Each piece keeps its line in
//! the block, so errors inside a check point at the right line.

use rustpython_ruff_python_ast::{Expr, Stmt};
use rustpython_ruff_text_size::Ranged;

/// One top-level statement of a check block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckStatement {
    /// The statement's source text (may span several lines).
    pub source: String,
    /// 1-based line of its first line within the block.
    pub line: u32,
    /// True for `assert`, which counts as a check; false for setup.
    pub is_assert: bool,
    /// For an assert: the source of its test expression (`labels.max() < 5`).
    pub test: Option<String>,
    /// For an assert with a message: the message, literal or to be evaluated.
    pub message: Option<CheckMessage>,
}

/// An assert's message: a string literal is known without running anything (what a passed
/// check shows); any other expression is evaluated in the check's namespace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckMessage {
    Literal(String),
    Expr(String),
}

impl CheckStatement {
    /// The statement padded with blank lines so that, run alone, it reports its real line.
    pub(crate) fn padded_source(&self) -> String {
        let mut s = "\n".repeat(self.line.saturating_sub(1) as usize);
        s.push_str(&self.source);
        s.push('\n');
        s
    }
}

/// A check block that does not parse: the message and its 1-based line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckSyntaxError {
    pub line: u32,
    pub message: String,
}

/// At most this many top-level statements in a check block: each runs on its own, compiled
/// with its line's padding, so a block far longer would take time quadratic in its length.
pub(crate) const MAX_CHECK_STATEMENTS: usize = 1000;

/// Splits `block` into its top-level statements.
pub fn split_checks(block: &str) -> Result<Vec<CheckStatement>, CheckSyntaxError> {
    let parsed = rustpython_ruff_python_parser::parse_module(block).map_err(|e| {
        let offset = usize::from(e.location.start()).min(block.len());
        CheckSyntaxError {
            line: line_of(block, offset),
            message: e.error.to_string(),
        }
    })?;
    let module = parsed.into_syntax();
    if let Some(extra) = module.body.get(MAX_CHECK_STATEMENTS) {
        let offset = usize::from(extra.range().start()).min(block.len());
        return Err(CheckSyntaxError {
            line: line_of(block, offset),
            message: format!(
                "more than {MAX_CHECK_STATEMENTS} top-level statements: split the exercise, or loop inside one check"
            ),
        });
    }
    Ok(module
        .body
        .iter()
        .map(|stmt| {
            let range = stmt.range();
            let start = usize::from(range.start()).min(block.len());
            let end = usize::from(range.end()).clamp(start, block.len());
            let text_of = |e: &Expr| {
                let r = e.range();
                block
                    .get(usize::from(r.start())..usize::from(r.end()))
                    .unwrap_or_default()
                    .to_string()
            };
            let (test, message) = match stmt {
                Stmt::Assert(a) => (
                    Some(text_of(&a.test)),
                    a.msg.as_deref().map(|m| match m {
                        Expr::StringLiteral(s) => CheckMessage::Literal(s.value.to_str().into()),
                        other => CheckMessage::Expr(text_of(other)),
                    }),
                ),
                _ => (None, None),
            };
            CheckStatement {
                source: block.get(start..end).unwrap_or_default().to_string(),
                line: line_of(block, start),
                is_assert: matches!(stmt, Stmt::Assert(_)),
                test,
                message,
            }
        })
        .collect())
}

fn line_of(text: &str, offset: usize) -> u32 {
    let upto = text.get(..offset).unwrap_or(text);
    u32::try_from(upto.matches('\n').count() + 1).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn asserts_are_checks_and_the_rest_is_setup() {
        let block = "m = labels.max().item()\nassert m < 5, \"too big\"\n\nassert (\n    m >= 0\n), 'neg'\n";
        let got = split_checks(block).unwrap();
        assert_eq!(got.len(), 3);
        assert_eq!((got[0].line, got[0].is_assert), (1, false));
        assert_eq!((got[1].line, got[1].is_assert), (2, true));
        assert_eq!(got[1].source, "assert m < 5, \"too big\"");
        assert_eq!((got[2].line, got[2].is_assert), (4, true));
        assert_eq!(got[2].source, "assert (\n    m >= 0\n), 'neg'");
        assert!(got[2].padded_source().starts_with("\n\n\nassert ("));
        assert_eq!(got[1].test.as_deref(), Some("m < 5"));
        assert_eq!(
            got[1].message,
            Some(CheckMessage::Literal("too big".into()))
        );
        assert_eq!(got[0].message, None);
    }

    #[test]
    fn messages_are_literal_or_expressions() {
        let got = split_checks("assert a, 'x' 'y'\nassert b, f'{b}'\nassert c\n").unwrap();
        assert_eq!(got[0].message, Some(CheckMessage::Literal("xy".into())));
        assert_eq!(got[1].message, Some(CheckMessage::Expr("f'{b}'".into())));
        assert_eq!(got[2].message, None);
    }

    #[test]
    fn a_broken_block_names_its_line() {
        let err = split_checks("assert x\nassert y y\nz = 1\n").unwrap_err();
        assert_eq!(err.line, 2, "{err:?}");
    }

    #[test]
    fn a_block_of_too_many_statements_is_refused_at_the_first_one_too_many() {
        let block = "assert True, 'ok'\n".repeat(MAX_CHECK_STATEMENTS + 5);
        let err = split_checks(&block).unwrap_err();
        assert_eq!(err.line as usize, MAX_CHECK_STATEMENTS + 1);
        let fits = "assert True, 'ok'\n".repeat(MAX_CHECK_STATEMENTS);
        assert_eq!(split_checks(&fits).unwrap().len(), MAX_CHECK_STATEMENTS);
    }

    #[test]
    fn an_empty_block_has_no_checks() {
        assert!(split_checks("# nothing\n").unwrap().is_empty());
    }
}
