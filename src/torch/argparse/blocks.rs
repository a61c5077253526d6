//! How a signature table (src/torch/signatures/*.sig) is cut into callables. Shared by the
//! build script, which indexes the tables at build time (`signature_blocks.rs` in OUT_DIR),
//! and by the tests that check the index against the tables; it uses nothing of the crate.

/// The table's blocks: separated by blank lines, `#` lines skipped; `alias = name` opens a
/// block whose overloads carry another name (torch.spmm is mm's parser). Each block comes with
/// its alias, if it has one, and its overload lines.
pub(crate) fn blocks(source: &str) -> Vec<(Option<&str>, Vec<&str>)> {
    let mut out = Vec::new();
    let mut alias: Option<&str> = None;
    let mut block: Vec<&str> = Vec::new();
    for line in source.lines() {
        if line.starts_with('#') {
            continue;
        }
        if line.is_empty() {
            if alias.is_some() || !block.is_empty() {
                out.push((alias.take(), std::mem::take(&mut block)));
            }
        } else if let Some((a, _)) = line.split_once(" = ").filter(|_| !line.contains('(')) {
            alias = Some(a);
        } else {
            block.push(line);
        }
    }
    if alias.is_some() || !block.is_empty() {
        out.push((alias, block));
    }
    out
}

/// The callables of a table sorted by name, each with its overload lines: a block is found
/// under its alias, else under the name of its first overload (the text before its
/// parenthesis: every overload of a block has it). Of two blocks under one name the later
/// one is kept.
pub(crate) fn index(source: &str) -> Vec<(&str, Vec<&str>)> {
    let mut out: Vec<(&str, Vec<&str>)> = Vec::new();
    for (alias, lines) in blocks(source) {
        let first = lines
            .iter()
            .find_map(|l| l.find('(').map(|open| &l[..open]));
        if let Some(key) = alias.or(first) {
            out.retain(|(k, _)| *k != key);
            out.push((key, lines));
        }
    }
    out.sort_by(|a, b| a.0.cmp(b.0));
    out
}
