//! Syntax errors as CPython words them: ruff's messages mapped to CPython's, bracket problems
//! found by a small scan ("'(' was never closed"), and a nesting limit checked before parsing
//! so no recursive pass can exhaust the stack.

use rustpython_ruff_python_parser::{LexicalErrorType, ParseError, ParseErrorType};

use super::compile::LineIndex;
use super::errors::PyException;
use super::exc_type::ExcType;

/// CPython's tokenizer limit is 200 nested brackets; we stay below it (see compile::MAX_NESTING).
const MAX_BRACKETS: usize = 100;

fn syntax(kind: ExcType, msg: &str, line: u32, col: u32) -> PyException {
    let mut e = PyException::new(kind, msg);
    e.0.line_hint = Some(line);
    e.0.column = Some(col);
    e
}

struct Bracket {
    ch: char,
    off: usize,
}

enum Scan {
    Ok,
    Err(PyException),
}

/// Walk the source's brackets (skipping strings and comments).
fn scan(src: &str, only_depth: bool) -> Scan {
    let idx = LineIndex::new(src);
    let b = src.as_bytes();
    let mut stack: Vec<Bracket> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            b'#' => {
                i = skip_comment(b, i);
                continue;
            }
            b'\'' | b'"' => {
                // a newline that ends a one-line string is left for this loop to see
                i = skip_string(b, i).0;
                continue;
            }
            b'(' | b'[' | b'{' => {
                stack.push(Bracket {
                    ch: c as char,
                    off: i,
                });
                if stack.len() > MAX_BRACKETS {
                    return Scan::Err(syntax(
                        ExcType::SyntaxError,
                        "too many nested parentheses",
                        idx.line(i),
                        idx.column(src, i),
                    ));
                }
            }
            b')' | b']' | b'}' if !only_depth => {
                let want = match c {
                    b')' => '(',
                    b']' => '[',
                    _ => '{',
                };
                match stack.pop() {
                    None => {
                        return Scan::Err(syntax(
                            ExcType::SyntaxError,
                            &format!("unmatched '{}'", c as char),
                            idx.line(i),
                            idx.column(src, i),
                        ));
                    }
                    Some(open) if open.ch != want => {
                        let ol = idx.line(open.off);
                        let cl = idx.line(i);
                        let msg = if ol == cl {
                            format!(
                                "closing parenthesis '{}' does not match opening parenthesis '{}'",
                                c as char, open.ch
                            )
                        } else {
                            format!(
                                "closing parenthesis '{}' does not match opening parenthesis '{}' on line {ol}",
                                c as char, open.ch
                            )
                        };
                        return Scan::Err(syntax(
                            ExcType::SyntaxError,
                            &msg,
                            cl,
                            idx.column(src, i),
                        ));
                    }
                    Some(_) => {}
                }
            }
            b')' | b']' | b'}' => {
                stack.pop();
            }
            _ => {}
        }
        i += 1;
    }
    if !only_depth && let Some(open) = stack.first() {
        return Scan::Err(syntax(
            ExcType::SyntaxError,
            &format!("'{}' was never closed", open.ch),
            idx.line(open.off),
            idx.column(src, open.off),
        ));
    }
    // Long unary chains (`------x`, `not not …`) recurse in the parser: bound them too.
    let mut run = 0usize;
    for (j, ch) in src.bytes().enumerate() {
        if matches!(ch, b'-' | b'+' | b'~') {
            run += 1;
            if run > MAX_BRACKETS {
                return Scan::Err(syntax(
                    ExcType::SyntaxError,
                    "too many nested parentheses",
                    idx.line(j),
                    idx.column(src, j),
                ));
            }
        } else if !ch.is_ascii_whitespace() {
            run = 0;
        }
    }
    Scan::Ok
}

/// Skips the comment that starts at `b[i]`: the index of the newline that ends it (or the end).
fn skip_comment(b: &[u8], i: usize) -> usize {
    b[i..]
        .iter()
        .position(|&c| c == b'\n')
        .map_or(b.len(), |n| i + n)
}

/// Skips the string literal whose opening quote is `b[i]` (escapes and triple quotes included).
/// Returns the index just past its closing quote, `false`; or, for a one-line string that a
/// newline ends before its quote, the newline's index and `true`.
fn skip_string(b: &[u8], mut i: usize) -> (usize, bool) {
    let q = b[i];
    let triple = i + 2 < b.len() && b[i + 1] == q && b[i + 2] == q;
    i += if triple { 3 } else { 1 };
    while i < b.len() {
        if b[i] == b'\\' {
            i += 2;
            continue;
        }
        if triple {
            if i + 2 < b.len() && b[i] == q && b[i + 1] == q && b[i + 2] == q {
                return (i + 3, false);
            }
        } else if b[i] == q {
            return (i + 1, false);
        } else if b[i] == b'\n' {
            return (i, true);
        }
        i += 1;
    }
    (i, false)
}

/// Right-recursive constructs (`a ** b ** c`, `x if c else y if …`, `lambda: lambda: …`,
/// `not not …`) recurse in the parser once per occurrence: bound them per logical line, and
/// bound indentation depth (CPython: "too many levels of indentation" at 100).
fn scan_chains(src: &str) -> Option<PyException> {
    let idx = LineIndex::new(src);
    let b = src.as_bytes();
    let mut depth = 0i64;
    let mut counts = [0usize; 5];
    let mut indents: Vec<usize> = vec![0];
    let mut i = 0;
    let mut line_start = true;
    while i < b.len() {
        let c = b[i];
        if line_start && depth <= 0 {
            line_start = false;
            let mut w = 0;
            while i + w < b.len() && (b[i + w] == b' ' || b[i + w] == b'\t') {
                w += 1;
            }
            let blank = i + w >= b.len() || matches!(b[i + w], b'\n' | b'#' | b'\r');
            if !blank {
                while indents.last().is_some_and(|&l| l > w) {
                    indents.pop();
                }
                if indents.last().is_some_and(|&l| l < w) {
                    indents.push(w);
                }
                if indents.len() > 90 {
                    return Some(syntax(
                        ExcType::IndentationError,
                        "too many levels of indentation",
                        idx.line(i),
                        1,
                    ));
                }
            }
            continue;
        }
        match c {
            b'#' => {
                i = skip_comment(b, i);
                continue;
            }
            b'\'' | b'"' => {
                // the newline that ends a one-line string left open goes with the string
                let (end, open_at_newline) = skip_string(b, i);
                i = end + usize::from(open_at_newline);
                continue;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b'\n' => {
                let cont = i > 0 && b[i - 1] == b'\\';
                if depth <= 0 && !cont {
                    counts = [0; 5];
                    line_start = true;
                }
            }
            b'*' if b.get(i + 1) == Some(&b'*') => {
                counts[0] += 1;
                i += 1;
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let st = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                let k = match &b[st..i] {
                    b"if" => Some(1),
                    b"lambda" => Some(2),
                    b"not" => Some(3),
                    b"await" => Some(4),
                    _ => None,
                };
                if let Some(k) = k {
                    counts[k] += 1;
                    if counts[k] > MAX_BRACKETS {
                        return Some(syntax(
                            ExcType::SyntaxError,
                            "too many nested parentheses",
                            idx.line(st),
                            idx.column(src, st),
                        ));
                    }
                }
                continue;
            }
            _ => {}
        }
        if counts[0] > MAX_BRACKETS {
            return Some(syntax(
                ExcType::SyntaxError,
                "too many nested parentheses",
                idx.line(i),
                idx.column(src, i),
            ));
        }
        i += 1;
    }
    None
}

/// The longest source accepted (bytes); a longer one is a SyntaxError before parsing.
pub const MAX_SOURCE: usize = 1_000_000;

/// Checks before parsing: nesting that could exhaust the stack, and an input size limit.
pub(super) fn prescan(src: &str) -> Option<PyException> {
    if let Some(e) = scan_chains(src) {
        return Some(e);
    }
    if src.len() > MAX_SOURCE {
        return Some(syntax(
            ExcType::SyntaxError,
            "source too long for cudatutor (over 1 MB)",
            1,
            1,
        ));
    }
    let words = src.split_whitespace().collect::<Vec<_>>();
    let mut nots = 0;
    for (k, w) in words.iter().enumerate() {
        if *w == "not" || *w == "lambda:" || *w == "await" {
            nots += 1;
            if nots > MAX_BRACKETS {
                let _ = k;
                return Some(syntax(
                    ExcType::SyntaxError,
                    "too many nested parentheses",
                    1,
                    1,
                ));
            }
        } else {
            nots = 0;
        }
    }
    match scan(src, true) {
        Scan::Ok => None,
        Scan::Err(e) => Some(e),
    }
}

/// Turn ruff's error into CPython's wording, line and column.
pub(super) fn convert(err: &ParseError, src: &str) -> PyException {
    // Bracket problems are what CPython's tokenizer reports first.
    if let Scan::Err(e) = scan(src, false) {
        return e;
    }
    let idx = LineIndex::new(src);
    let off = err.location.start().to_usize();
    let mut line = idx.line(off);
    let mut col = idx.column(src, off);
    let text = err.error.to_string();
    let (kind, msg): (ExcType, String) = match &err.error {
        ParseErrorType::UnexpectedIndentation => {
            (ExcType::IndentationError, "unexpected indent".into())
        }
        ParseErrorType::Lexical(LexicalErrorType::IndentationError) => (
            ExcType::IndentationError,
            "unindent does not match any outer indentation level".into(),
        ),
        ParseErrorType::Lexical(LexicalErrorType::UnclosedStringError) => (
            ExcType::SyntaxError,
            format!("unterminated string literal (detected at line {line})"),
        ),
        ParseErrorType::Lexical(LexicalErrorType::Eof) => {
            (ExcType::SyntaxError, "unexpected EOF while parsing".into())
        }
        ParseErrorType::Lexical(LexicalErrorType::LineContinuationError) => (
            ExcType::SyntaxError,
            "unexpected character after line continuation character".into(),
        ),
        ParseErrorType::Lexical(LexicalErrorType::UnrecognizedToken { tok }) => (
            ExcType::SyntaxError,
            format!("invalid character '{tok}' (U+{:04X})", *tok as u32),
        ),
        ParseErrorType::InvalidAssignmentTarget | ParseErrorType::InvalidNamedAssignmentTarget => (
            ExcType::SyntaxError,
            "cannot assign to expression here. Maybe you meant '==' instead of '='?".into(),
        ),
        ParseErrorType::InvalidAugmentedAssignmentTarget => (
            ExcType::SyntaxError,
            "'expression' is an illegal expression for augmented assignment".into(),
        ),
        ParseErrorType::InvalidDeleteTarget => {
            (ExcType::SyntaxError, "cannot delete expression".into())
        }
        ParseErrorType::PositionalAfterKeywordArgument => (
            ExcType::SyntaxError,
            "positional argument follows keyword argument".into(),
        ),
        ParseErrorType::PositionalAfterKeywordUnpacking => (
            ExcType::SyntaxError,
            "positional argument follows keyword argument unpacking".into(),
        ),
        ParseErrorType::NonDefaultParamAfterDefaultParam => (
            ExcType::SyntaxError,
            "non-default argument follows default argument".into(),
        ),
        ParseErrorType::DuplicateKeywordArgumentError(k) => (
            ExcType::SyntaxError,
            format!("keyword argument repeated: {k}"),
        ),
        ParseErrorType::ExpectedToken { .. }
            if text.starts_with("Expected `:`")
                && (text.ends_with("newline") || text.ends_with("end of file")) =>
        {
            (ExcType::SyntaxError, "expected ':'".into())
        }
        ParseErrorType::ExpectedToken { .. }
            if text.contains("found newline") || text.contains("found end of file") =>
        {
            (ExcType::SyntaxError, "invalid syntax".into())
        }
        _ if text.starts_with("Expected an indented block") => {
            // ruff: "Expected an indented block after `if` statement"; CPython names the
            // statement's line and reports the error on the line after it.
            let what = text
                .trim_start_matches("Expected an indented block after ")
                .replace('`', "'");
            let prev = line.saturating_sub(1).max(1);
            let m = format!("expected an indented block after {what} on line {prev}");
            (ExcType::IndentationError, m)
        }
        _ if text.contains("f-string") => (
            ExcType::SyntaxError,
            format!("f-string: {}", text.trim_start_matches("f-string: ")),
        ),
        _ => (ExcType::SyntaxError, "invalid syntax".into()),
    };
    if line == 0 {
        line = 1;
    }
    if col == 0 {
        col = 1;
    }
    syntax(kind, &msg, line, col)
}

#[cfg(test)]
mod tests {
    use super::skip_string;

    #[test]
    fn string_skipping_ends_past_the_closing_quote() {
        assert_eq!(skip_string(b"'a\\'b' + 1", 0), (6, false));
        assert_eq!(skip_string(b"x = \"\"\"a\n\"b\"\"\"", 4), (14, false));
    }

    #[test]
    fn a_one_line_string_stops_at_the_newline_that_ends_it() {
        assert_eq!(skip_string(b"'abc\nd'", 0), (4, true));
        assert_eq!(skip_string(b"'abc", 0), (4, false));
    }
}
