//! Lesson text made safe to print on a terminal: a lesson folder is anyone's, and a title
//! holding `ESC ] 0 ; …` would retitle the window, `ESC [ 2 J` clear the screen, a backspace
//! or carriage return overwrite what `list` or `lint` printed before it. Every control
//! sequence (CSI, OSC, DCS/SOS/PM/APC strings, two-character escapes, their 8-bit C1 forms) and
//! every other control character except newline and tab is removed; `\r\n` becomes `\n`.

use std::borrow::Cow;

const ESC: char = '\u{1b}';
const BEL: char = '\u{07}';
/// The 8-bit String Terminator.
const ST: char = '\u{9c}';

/// `text` without control sequences and control characters (newline and tab kept).
pub(crate) fn without_controls(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_removed) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ESC => match chars.peek().copied() {
                Some('[') => {
                    chars.next();
                    skip_csi(&mut chars);
                }
                Some(']' | 'P' | 'X' | '^' | '_') => {
                    chars.next();
                    skip_string(&mut chars);
                }
                Some(next) if ('\u{20}'..='\u{2f}').contains(&next) => {
                    // intermediates, then the final character
                    while chars
                        .next_if(|c| ('\u{20}'..='\u{2f}').contains(c))
                        .is_some()
                    {}
                    chars.next_if(|c| ('\u{30}'..='\u{7e}').contains(c));
                }
                Some(next) if ('\u{30}'..='\u{7e}').contains(&next) => {
                    chars.next();
                }
                _ => {}
            },
            '\u{9b}' => skip_csi(&mut chars),
            '\u{9d}' | '\u{90}' | '\u{98}' | '\u{9e}' | '\u{9f}' => skip_string(&mut chars),
            '\r' if chars.peek() == Some(&'\n') => {}
            c if is_removed(c) => {}
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// A control character other than newline and tab (C0, DEL, C1).
fn is_removed(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t') || c == ESC
}

/// The rest of a CSI sequence: parameters and intermediates up to its final character.
fn skip_csi(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    for c in chars.by_ref() {
        if ('\u{40}'..='\u{7e}').contains(&c) {
            return;
        }
        if !('\u{20}'..='\u{3f}').contains(&c) {
            // not part of a CSI: the sequence is broken off here (the character is dropped
            // too, which is safe: it is a control or not ASCII)
            return;
        }
    }
}

/// The rest of a control string (OSC, DCS …) up to its terminator: BEL, `ESC \` or ST.
fn skip_string(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    while let Some(c) = chars.next() {
        match c {
            BEL | ST => return,
            ESC => {
                chars.next_if_eq(&'\\');
                return;
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_sequences_and_characters_go_text_stays() {
        let cases = [
            ("plain title", "plain title"),
            ("\u{1b}[31mred\u{1b}[0m", "red"),
            ("\u{1b}[2J\u{1b}[1;1Hclear", "clear"),
            ("\u{1b}]0;pwned\u{7}title", "title"),
            ("\u{1b}]8;;http://x\u{1b}\\link\u{1b}]8;;\u{1b}\\", "link"),
            ("\u{1b}Pq#0;2;0;0;0\u{1b}\\sixel", "sixel"),
            ("\u{9b}31mc1\u{9d}0;t\u{9c}", "c1"),
            ("bell\u{7} back\u{8}\u{8}space", "bell backspace"),
            ("line\r\nnext\rover", "line\nnextover"),
            ("\u{1b}(Bcharset \u{1b}c reset \u{1b}7", "charset  reset "),
            ("tab\tand\nnewline 中文 ✓", "tab\tand\nnewline 中文 ✓"),
            ("cut \u{1b}[12", "cut "),
            ("cut \u{1b}]0;never ends", "cut "),
            ("trailing \u{1b}", "trailing "),
            ("del\u{7f}", "del"),
        ];
        for (input, want) in cases {
            assert_eq!(without_controls(input), want, "{input:?}");
        }
        assert!(matches!(without_controls("no controls"), Cow::Borrowed(_)));
    }
}
