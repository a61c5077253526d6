//! The text of a file the interpreter ran, kept for tracebacks and warnings, cut into lines
//! only when one is asked for. A prelude's import used to copy each of its lines into a
//! `String` of its own (torch.nn's 7,500: a sixth of `import torch.nn`'s instructions) for
//! the tracebacks that almost no run prints.

use std::borrow::Cow;
use std::cell::OnceCell;

pub(crate) struct SourceLines {
    text: Cow<'static, str>,
    /// Byte offset of each line's start, built at the first lookup.
    starts: OnceCell<Vec<usize>>,
}

impl SourceLines {
    /// The lines of a prelude compiled into the binary: nothing is copied.
    pub(crate) fn of_static(text: &'static str) -> SourceLines {
        SourceLines {
            text: Cow::Borrowed(text),
            starts: OnceCell::new(),
        }
    }

    pub(crate) fn of_text(text: &str) -> SourceLines {
        SourceLines {
            text: Cow::Owned(text.to_string()),
            starts: OnceCell::new(),
        }
    }

    /// Line `index` (from 0) without its line ending, as `str::lines` cuts them: at `\n`,
    /// a `\r` just before it dropped, no empty line after a final `\n`.
    pub(crate) fn line(&self, index: usize) -> Option<&str> {
        let text: &str = &self.text;
        let starts = self.starts.get_or_init(|| {
            let mut starts = Vec::new();
            if !text.is_empty() {
                starts.push(0);
            }
            starts.extend(
                text.match_indices('\n')
                    .map(|(i, _)| i + 1)
                    .filter(|&s| s < text.len()),
            );
            starts
        });
        let start = *starts.get(index)?;
        let end = starts.get(index + 1).copied().unwrap_or(text.len());
        let line = &text[start..end];
        Some(match line.strip_suffix('\n') {
            Some(l) => l.strip_suffix('\r').unwrap_or(l),
            None => line,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_those_str_lines_gives() {
        for text in [
            "",
            "\n",
            "a",
            "a\n",
            "a\nb",
            "a\r\nb\r\n",
            "a\rb\n\n\nc",
            "x\n\ny\r",
            "é\n€\n",
        ] {
            let lines = SourceLines::of_text(text);
            let expected: Vec<&str> = text.lines().collect();
            let got: Vec<&str> = (0..expected.len() + 2)
                .map_while(|i| lines.line(i))
                .collect();
            assert_eq!(got, expected, "{text:?}");
        }
    }
}
