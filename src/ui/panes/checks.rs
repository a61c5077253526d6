//! The checks pane: each check as ✓ or ✗ with its own message, in the learner's language.
//! Never the check's source: its expected values would give the answer away. When the
//! learner's code does not even parse, one line says to fix that first instead of a cascade
//! of checks that could not run.

use super::super::wrap::wrap;
use crate::run::RunReport;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

pub(crate) struct Look<'a> {
    pub pass: Style,
    pub fail: Style,
    pub text: Style,
    pub note: Style,
    pub no_checks: &'a str,
    pub syntax_first: &'a str,
    /// What a passing check without a message is called: "check {n}".
    pub check_n: &'a str,
}

/// Exception types that mean the learner's code never ran.
const SYNTAX: [&str; 3] = ["SyntaxError", "IndentationError", "TabError"];

pub(crate) fn lines(report: &RunReport, width: usize, look: &Look) -> Vec<Line<'static>> {
    let width = width.max(1);
    if report
        .error
        .as_ref()
        .is_some_and(|e| SYNTAX.contains(&e.type_name.as_str()))
    {
        return wrap(
            &[(look.syntax_first.to_string(), look.text)],
            width,
            &[Span::styled("✗ ", look.fail)],
            &[Span::raw("  ")],
        );
    }
    if report.checks.is_empty() {
        return vec![Line::styled(look.no_checks.to_string(), look.note)];
    }
    let mut lines = Vec::new();
    for (k, check) in report.checks.iter().enumerate() {
        let (mark, style) = if check.passed {
            ("✓ ", look.pass)
        } else {
            ("✗ ", look.fail)
        };
        // One line per check: the message's first line (a traceback after it is not for here).
        let message = check
            .message
            .as_deref()
            .and_then(|m| m.lines().map(str::trim).find(|l| !l.is_empty()))
            .map(str::to_string)
            .unwrap_or_else(|| look.check_n.replace("{n}", &(k + 1).to_string()));
        lines.extend(wrap(
            &[(message, look.text)],
            width,
            &[Span::styled(mark, style)],
            &[Span::raw("  ")],
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::{CheckResult, ErrorReport};

    const LOOK: Look = Look {
        pass: Style::new(),
        fail: Style::new(),
        text: Style::new(),
        note: Style::new(),
        no_checks: "(no checks ran)",
        syntax_first: "fix the SyntaxError first",
        check_n: "check {n}",
    };

    fn text(lines: &[Line]) -> String {
        lines
            .iter()
            .map(|l| {
                l.spans
                    .iter()
                    .map(|s| s.content.as_ref())
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn messages_not_sources() {
        let report = RunReport {
            checks: vec![
                CheckResult {
                    source: "assert torch.cuda.memory_allocated() == 2048, \"count again\"".into(),
                    line: 1,
                    passed: false,
                    message: Some("count again".into()),
                    error: None,
                },
                CheckResult {
                    source: "assert x == 1".into(),
                    line: 2,
                    passed: true,
                    message: None,
                    error: None,
                },
            ],
            ..RunReport::default()
        };
        let shown = text(&lines(&report, 60, &LOOK));
        assert_eq!(shown, "✗ count again\n✓ check 2");
        assert!(!shown.contains("2048"));
    }

    #[test]
    fn a_syntax_error_is_one_line() {
        let report = RunReport {
            error: Some(ErrorReport {
                type_name: "SyntaxError".into(),
                ..ErrorReport::default()
            }),
            checks: vec![
                CheckResult {
                    passed: false,
                    message: Some("NameError: name 'x' is not defined".into()),
                    ..CheckResult::default()
                };
                3
            ],
            ..RunReport::default()
        };
        assert_eq!(
            text(&lines(&report, 60, &LOOK)),
            "✗ fix the SyntaxError first"
        );
    }
}
