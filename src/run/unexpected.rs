//! An error first: when the learner's script raised something the exercise does not expect,
//! the first failed check says what raised and where, and that this is not about the goal,
//! instead of letting a check about the goal ("launch blocking should be on …") take the blame
//! for an `AttributeError` in a line the learner just wrote.
//!
//! What an exercise expects is read from what it gives, never guessed from the error's text:
//! * the error types its checks name (`error_type() == "AcceleratorError"`), and
//! * any error raised by a line of its starting code as given: the bug the exercise is about
//!   (an unchanged `loss.item()` still raising the device-side assert, the OOM the learner
//!   is asked to catch) is the goal, whatever its type.
//!
//! So an error is unexpected when the checks do not name its type and it was raised at a line
//! the learner wrote or changed.

use super::ErrorReport;
use super::check_text::{CheckText, fill};

/// The note to lead the first failed check with, when `error` is one the exercise does not
/// expect; `file` is the script's name as its traceback shows it. Its `{check}` is left for
/// the caller: the check's own message.
pub(super) fn unexpected_error_note(
    error: &ErrorReport,
    code: &str,
    start_code: &str,
    check_block: &str,
    file: &str,
    text: &CheckText,
) -> Option<String> {
    // Without the starting code there is nothing to tell the learner's lines from the
    // exercise's (a plain `run` with checks, tests).
    if start_code.trim().is_empty() {
        return None;
    }
    let line = error.line?;
    if expected_types(check_block).any(|t| t == error.type_name) {
        return None;
    }
    let raised_at = code.lines().nth(line.checked_sub(1)? as usize)?.trim();
    if raised_at.is_empty() || start_code.lines().any(|l| l.trim() == raised_at) {
        return None;
    }
    let what = if error.message.is_empty() {
        error.type_name.clone()
    } else {
        let first = error.message.lines().next().unwrap_or("");
        crate::script::errors::final_line(&error.type_name, first)
    };
    Some(fill(
        text.unexpected_error,
        &[
            ("line", &line.to_string()),
            ("file", file),
            ("error", &what),
        ],
    ))
}

/// The error types a check block names as expected: the string literals on the lines that
/// compare `error_type()` with something (`== "AcceleratorError"`, `in ("A", "B")`).
fn expected_types(check_block: &str) -> impl Iterator<Item = &str> {
    check_block
        .lines()
        .filter(|l| l.contains("error_type()"))
        .flat_map(string_literals)
        .filter(|s| {
            s.chars().next().is_some_and(|c| c.is_ascii_uppercase())
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
        })
}

/// The contents of the simple '…' and "…" literals of one line (no escapes needed: type
/// names have none).
fn string_literals(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(start) = rest.find(['"', '\'']) {
        let quote = rest[start..].chars().next().unwrap_or('"');
        let after = &rest[start + 1..];
        let Some(end) = after.find(quote) else {
            break;
        };
        out.push(&after[..end]);
        rest = &after[end + 1..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::check_text::check_text;

    fn error(type_name: &str, message: &str, line: u32) -> ErrorReport {
        ErrorReport {
            type_name: type_name.into(),
            message: message.into(),
            line: Some(line),
            ..Default::default()
        }
    }

    const START: &str = "import torch\nx = torch.ones(3, device='cuda')\nprint(x.sum().item())\n";
    const CHECKS: &str = "assert error_type() is None, \"the script should run\"\n";

    #[test]
    fn an_error_in_a_line_the_learner_wrote_is_named_with_its_place() {
        let code = "import torch\nx = torch.ones(3, device='cuda')\ntorch.cuda.not_there()\nprint(x.sum().item())\n";
        let e = error(
            "AttributeError",
            "module 'torch.cuda' has no attribute 'not_there'",
            3,
        );
        let note = unexpected_error_note(&e, code, START, CHECKS, "exercise.py", check_text("en"))
            .unwrap();
        assert!(
            note.starts_with(
                "exercise.py:3 raised AttributeError: module 'torch.cuda' has no attribute 'not_there'"
            ),
            "{note}"
        );
        assert!(note.contains("not about the goal"), "{note}");
        let zh = unexpected_error_note(&e, code, START, CHECKS, "exercise.py", check_text("zh"))
            .unwrap();
        assert!(
            zh.starts_with("exercise.py:3 抛出了 AttributeError"),
            "{zh}"
        );
        assert!(zh.contains("与目标无关"), "{zh}");
    }

    #[test]
    fn the_starting_codes_own_error_and_the_types_the_checks_name_are_expected() {
        // raised by a line of the starting code as given: the bug the exercise is about
        let e = error(
            "RuntimeError",
            "CUDA error: device-side assert triggered",
            3,
        );
        assert_eq!(
            unexpected_error_note(&e, START, START, CHECKS, "exercise.py", check_text("en")),
            None
        );
        // a type the checks name, raised anywhere
        let code = "import torch\nx = torch.ones(3, device='cuda')\ny = x[7]\n";
        let e = error(
            "AcceleratorError",
            "CUDA error: device-side assert triggered",
            3,
        );
        let named = "assert error_type() == \"AcceleratorError\" and x, 'keep the bad label'\n";
        assert_eq!(
            unexpected_error_note(&e, code, START, named, "exercise.py", check_text("en")),
            None
        );
        // ... but not another one
        let e = error("IndexError", "index 7 is out of bounds", 3);
        assert!(
            unexpected_error_note(&e, code, START, named, "exercise.py", check_text("en"))
                .is_some()
        );
        // no starting code known, or no line: nothing is claimed
        assert_eq!(
            unexpected_error_note(&e, code, "", named, "exercise.py", check_text("en")),
            None
        );
        let lineless = ErrorReport {
            line: None,
            ..e.clone()
        };
        assert_eq!(
            unexpected_error_note(&lineless, code, START, named, "x.py", check_text("en")),
            None
        );
    }

    #[test]
    fn literals_are_read_from_error_type_lines_only() {
        let block = "assert error_type() in ('TypeError', \"ValueError\"), 'a message'\nassert y == 'NotAType'\n";
        let got: Vec<&str> = expected_types(block).collect();
        assert_eq!(got, ["TypeError", "ValueError"]);
    }
}
