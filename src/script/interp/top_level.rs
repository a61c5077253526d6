//! Where a Python source's top-level statements start and end: the line scanner that cuts a
//! prelude for deferred definitions (deferred.rs). It uses nothing of the crate, so the build
//! script runs the same scanner over every prelude (src/**/*.py) and the binary carries the
//! result (prelude_table.rs).

/// One top-level statement of a source: its bytes (with the comments and blank lines that
/// follow it), its first line and how many line breaks its bytes hold.
#[derive(Debug, PartialEq)]
pub(crate) struct TopStmt {
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) first_line: u32,
    pub(crate) newlines: u32,
}

/// Whether a line (`rest` starts at its column 0 and runs to the end of the source) begins a
/// statement of its own: not a blank or comment line, not the `else:`/`elif`/`except`/
/// `finally:` clause of the compound statement above it.
fn begins_statement(rest: &[u8]) -> bool {
    let Some(&first) = rest.first() else {
        return false;
    };
    if matches!(first, b' ' | b'\t' | b'#' | b'\r' | b'\n' | b'\x0c') {
        return false;
    }
    !["else", "elif", "except", "finally"].iter().any(|kw| {
        rest.starts_with(kw.as_bytes())
            && !rest
                .get(kw.len())
                .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
    })
}

/// The bytes that can change the scanner's state outside a string: a comment, a quote, a
/// bracket, a backslash. Every other byte is skipped by one table load (the preludes are
/// ~500 KB: the scan was a fifth of `import torch.nn`'s instructions).
const CODE_SPECIAL: [bool; 256] = {
    let mut t = [false; 256];
    let special = b"#'\"([{)]}\\";
    let mut i = 0;
    while i < special.len() {
        t[special[i] as usize] = true;
        i += 1;
    }
    t
};

/// The top-level statements of `src`, in order. A line begins one when it starts at column 0
/// outside any bracket, string and backslash continuation; decorators belong to the statement
/// they decorate.
pub(crate) fn top_level_statements(src: &str) -> Vec<TopStmt> {
    statements_at(src, 0)
}

/// The statements of a block whose statements start at column `indent` (a class body's,
/// `src` being the body's lines): as [`top_level_statements`], a line beginning one when its
/// first `indent` bytes are spaces and a statement starts after them.
pub(crate) fn statements_at(src: &str, indent: usize) -> Vec<TopStmt> {
    let bytes = src.as_bytes();
    let mut starts: Vec<(usize, u32)> = Vec::new();
    let mut depth = 0usize;
    // the open string: its quote and whether it is triple-quoted
    let mut string: Option<(u8, bool)> = None;
    let mut continued = false;
    let mut decorated = false;
    let mut pos = 0;
    let mut line_no = 1u32;
    while pos < bytes.len() {
        // str::find is memchr: a word at a time
        let end = src[pos..].find('\n').map_or(bytes.len(), |n| pos + n);
        let line = &bytes[pos..end];
        if string.is_none()
            && depth == 0
            && !continued
            && line.len() > indent
            && line[..indent].iter().all(|&b| b == b' ')
            && begins_statement(&bytes[pos + indent..])
        {
            if !decorated {
                starts.push((pos, line_no));
            }
            decorated = line[indent] == b'@';
        }
        continued = false;
        let mut i = 0;
        while i < line.len() {
            if let Some((quote, triple)) = string {
                let Some(k) = line[i..].iter().position(|&b| b == b'\\' || b == quote) else {
                    i = line.len();
                    break;
                };
                i += k;
                if line[i] == b'\\' {
                    i += 2;
                    continue;
                }
                if !triple || line[i..].starts_with(&[quote; 3]) {
                    string = None;
                    i += if triple { 3 } else { 1 };
                    continue;
                }
                i += 1;
                continue;
            }
            while i < line.len() && !CODE_SPECIAL[line[i] as usize] {
                i += 1;
            }
            let Some(&b) = line.get(i) else {
                break;
            };
            match b {
                b'#' => break,
                b'\'' | b'"' => {
                    let triple = line[i..].starts_with(&[b; 3]);
                    string = Some((b, triple));
                    i += if triple { 3 } else { 1 };
                    continue;
                }
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => depth = depth.saturating_sub(1),
                b'\\' if i + 1 == line.len() => continued = true,
                _ => {}
            }
            i += 1;
        }
        // a one-quote string ends with its line unless a backslash continues it
        if matches!(string, Some((_, false))) && i <= line.len() {
            string = None;
        }
        pos = end + 1;
        line_no += 1;
    }
    let mut out = Vec::with_capacity(starts.len());
    for (k, &(start, first_line)) in starts.iter().enumerate() {
        let (end, newlines) = match starts.get(k + 1) {
            Some(&(next, next_line)) => (next, next_line - first_line),
            None => (
                src.len(),
                bytes[start..].iter().filter(|&&b| b == b'\n').count() as u32,
            ),
        };
        out.push(TopStmt {
            start,
            end,
            first_line,
            newlines,
        });
    }
    out
}

/// Where the header of the compound statement starting at `from` ends: the index just past
/// the `:` that closes it (outside brackets, strings and comments), or None when the text
/// ends first.
pub(crate) fn header_end(src: &str, from: usize) -> Option<usize> {
    let bytes = src.as_bytes();
    let mut depth = 0usize;
    let mut i = from;
    while i < bytes.len() {
        match bytes[i] {
            b'#' => {
                i = src[i..].find('\n').map_or(bytes.len(), |n| i + n);
                continue;
            }
            q @ (b'\'' | b'"') => {
                let triple = bytes[i..].starts_with(&[q; 3]);
                i += if triple { 3 } else { 1 };
                loop {
                    match bytes.get(i) {
                        None => return None,
                        Some(b'\\') => i += 2,
                        Some(&b) if b == q && (!triple || bytes[i..].starts_with(&[q; 3])) => {
                            i += if triple { 3 } else { 1 };
                            break;
                        }
                        Some(b'\n') if !triple => return None,
                        Some(_) => i += 1,
                    }
                }
                continue;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b':' if depth == 0 => return Some(i + 1),
            _ => {}
        }
        i += 1;
    }
    None
}

/// A 64-bit FNV-1a hash of the text, a word at a time: what identifies a prelude in the
/// build-time table (with its length).
pub(crate) fn text_hash(src: &str) -> u64 {
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut words = src.as_bytes().chunks_exact(8);
    for w in &mut words {
        let mut a = [0u8; 8];
        a.copy_from_slice(w);
        h = (h ^ u64::from_le_bytes(a)).wrapping_mul(PRIME);
    }
    for &b in words.remainder() {
        h = (h ^ u64::from(b)).wrapping_mul(PRIME);
    }
    h
}
