//! A small Python lexer for colouring code blocks: keywords, strings, numbers, comments and
//! builtins. It never fails; anything it does not recognise is plain text.

use super::theme::{self, Theme};
use ratatui::text::Span;

const KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "break", "class", "continue", "def", "del",
    "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is",
    "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield",
];
const BUILTINS: &[&str] = &[
    "print",
    "len",
    "range",
    "enumerate",
    "zip",
    "isinstance",
    "int",
    "float",
    "str",
    "bool",
    "list",
    "dict",
    "set",
    "tuple",
    "min",
    "max",
    "sum",
    "abs",
    "round",
    "sorted",
    "type",
    "super",
    "self",
    "torch",
    "nn",
    "F",
];

/// Where the string literal whose opening quote is at `open` ends: just past its closing quote
/// (a backslash escapes the next character), or the line's end when it is not closed.
fn string_end(chars: &[char], open: usize) -> usize {
    let quote = chars[open];
    let mut i = open + 1;
    while i < chars.len() && chars[i] != quote {
        if chars[i] == '\\' {
            i += 1;
        }
        i += 1;
    }
    (i + 1).min(chars.len())
}

/// Splits one line of Python into styled spans.
pub(super) fn highlight_line(line: &str, theme: Theme) -> Vec<Span<'static>> {
    let mut spans = Vec::new();
    let chars: Vec<char> = line.chars().collect();
    let mut i = 0;
    let mut push = |text: String, style| spans.push(Span::styled(text, theme.style(style)));
    while i < chars.len() {
        let c = chars[i];
        let start = i;
        if c == '#' {
            push(chars[i..].iter().collect(), theme::PY_COMMENT);
            break;
        } else if c == '"' || c == '\'' {
            i = string_end(&chars, i);
            push(chars[start..i].iter().collect(), theme::PY_STRING);
        } else if c.is_ascii_digit() {
            while i < chars.len()
                && (chars[i].is_ascii_alphanumeric() || chars[i] == '.' || chars[i] == '_')
            {
                i += 1;
            }
            push(chars[start..i].iter().collect(), theme::PY_NUMBER);
        } else if c.is_alphabetic() || c == '_' {
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            // A prefixed string such as f"..." or rb'...' is a string, prefix included.
            if i < chars.len()
                && (chars[i] == '"' || chars[i] == '\'')
                && word.len() <= 2
                && word.chars().all(|c| "fFrRbBuU".contains(c))
            {
                i = string_end(&chars, i);
                push(chars[start..i].iter().collect(), theme::PY_STRING);
                continue;
            }
            let style = if KEYWORDS.contains(&word.as_str()) {
                theme::PY_KEYWORD
            } else if BUILTINS.contains(&word.as_str()) {
                theme::PY_BUILTIN
            } else {
                theme::PY_PLAIN
            };
            push(word, style);
        } else {
            // At least this character: a numeric that is neither an ASCII digit nor alphabetic
            // ('²', '½', '٣') stops the loop below at once, and the line never ended (the
            // pager froze, growing without bound, when a learner typed one).
            i += 1;
            while i < chars.len() && !(chars[i].is_alphanumeric() || "#\"'_".contains(chars[i])) {
                i += 1;
            }
            push(chars[start..i].iter().collect(), theme::PY_PLAIN);
        }
    }
    spans
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_string_ends_past_its_unescaped_closing_quote_or_at_the_line_end() {
        let chars = |s: &str| s.chars().collect::<Vec<char>>();
        assert_eq!(string_end(&chars(r"'a\'b' + x"), 0), 6);
        assert_eq!(string_end(&chars(r#"f"say \"hi\"" y"#), 1), 13);
        assert_eq!(string_end(&chars("'open"), 0), 5);
        assert_eq!(string_end(&chars(r"'ends in \"), 0), 10);
    }

    #[test]
    fn numerics_that_are_not_ascii_digits_are_plain_text_and_the_line_ends() {
        let theme = Theme { color: true };
        for line in ["x² = ½", "a = ٣ + 1", "²", "print(x³)  # cube"] {
            let spans = highlight_line(line, theme);
            let text: String = spans.iter().map(|s| s.content.as_ref()).collect();
            assert_eq!(text, line);
            assert!(
                spans.iter().all(|s| !s.content.is_empty()),
                "{line}: {spans:?}"
            );
        }
    }

    #[test]
    fn colours_keywords_strings_numbers_and_comments() {
        let theme = Theme { color: true };
        let spans = highlight_line("if x == 'a#b': y = 10  # note", theme);
        let text: Vec<(&str, ratatui::style::Style)> = spans
            .iter()
            .map(|s| (s.content.as_ref(), s.style))
            .collect();
        assert!(text.contains(&("if", theme::PY_KEYWORD)));
        assert!(text.contains(&("'a#b'", theme::PY_STRING)));
        assert!(text.contains(&("10", theme::PY_NUMBER)));
        assert!(text.contains(&("# note", theme::PY_COMMENT)));
        let joined: String = spans.iter().map(|s| s.content.as_ref()).collect();
        assert_eq!(joined, "if x == 'a#b': y = 10  # note");
    }

    #[test]
    fn unterminated_string_does_not_lose_text() {
        let spans = highlight_line("s = f\"abc", Theme { color: true });
        let joined: String = spans.iter().map(|s| s.content.as_ref()).collect();
        assert_eq!(joined, "s = f\"abc");
    }
}
