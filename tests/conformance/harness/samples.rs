//! The two inputs of a conformance comparison: the generator's MANIFEST.tsv (which samples each
//! script holds, and which file runs them) and a file's stdout cut into per-sample blocks by
//! their `[TAG] ` prefixes.

use std::collections::BTreeMap;
use std::path::Path;

/// One sample of the suite, as scripts/conformance/generate.py listed it.
#[derive(Clone, Debug)]
pub(crate) struct Sample {
    pub script: String,
    pub tag: String,
    /// function, method, error, construct, forward, backward, eval, optimizer, scheduler.
    pub kind: String,
    pub dtype: String,
    /// The database entry (`add`, `nn.Linear`, `optim.Adam`): the coverage table's row.
    pub entry: String,
    /// The public name the sample calls (`torch.add`, `Tensor.add`, `torch.nn.Linear`).
    pub target: String,
    /// The .py that runs the sample: the script's own, or the one its op shares with the ops
    /// of the same sample table (scripts/conformance/op_groups.py).
    pub file: String,
}

impl Sample {
    /// The tag the sample prints: its own in its script's own file, `SCRIPT.TAG` in a file
    /// that runs several ops' samples.
    pub(crate) fn printed_tag(&self) -> String {
        if self.file == self.script {
            self.tag.clone()
        } else {
            format!("{}.{}", self.script, self.tag)
        }
    }
}

/// MANIFEST.tsv, in file order.
pub(crate) fn read_manifest(path: &Path) -> Result<Vec<Sample>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut rows = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() < 6 {
            return Err(format!(
                "{}:{}: expected 7 tab-separated fields, found {}",
                path.display(),
                n + 1,
                f.len()
            ));
        }
        rows.push(Sample {
            script: f[0].to_string(),
            tag: f[1].to_string(),
            kind: f[2].to_string(),
            dtype: f[3].to_string(),
            entry: f[4].to_string(),
            target: f[5].to_string(),
            file: f.get(7).unwrap_or(&f[0]).to_string(),
        });
    }
    Ok(rows)
}

/// A script's stdout cut by tag: the lines of each sample (prefix removed), in order, and the
/// lines that carry no tag (a generated script prints none; the engine might).
#[derive(Default, Debug)]
pub(crate) struct Blocks {
    pub by_tag: BTreeMap<String, Vec<String>>,
    pub untagged: Vec<String>,
}

/// `[s3] rest` -> ("s3", "rest"); `[op_amin.s3] rest` -> ("op_amin.s3", "rest").
fn split_tag(line: &str) -> Option<(&str, &str)> {
    let rest = line.strip_prefix('[')?;
    let close = rest.find("] ")?;
    let tag = &rest[..close];
    let tag_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-');
    if tag.is_empty() || !tag.chars().all(tag_char) {
        return None;
    }
    Some((tag, &rest[close + 2..]))
}

pub(crate) fn parse(stdout: &[u8]) -> Blocks {
    let text = String::from_utf8_lossy(stdout);
    let mut blocks = Blocks::default();
    for line in text.lines() {
        match split_tag(line) {
            Some((tag, rest)) => blocks
                .by_tag
                .entry(tag.to_string())
                .or_default()
                .push(rest.to_string()),
            None => blocks.untagged.push(line.to_string()),
        }
    }
    blocks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_grouped_by_their_tag_and_untagged_lines_kept_apart() {
        let b = parse(b"[s0] tensor torch.float32 () 1.0\n[s0] tensor(1.)\nstray\n[e1] raised X: y\n[s0] more\n");
        assert_eq!(
            b.by_tag["s0"],
            vec!["tensor torch.float32 () 1.0", "tensor(1.)", "more"]
        );
        assert_eq!(b.by_tag["e1"], vec!["raised X: y"]);
        assert_eq!(b.untagged, vec!["stray"]);
    }

    #[test]
    fn a_grouped_file_prints_each_sample_under_its_script_and_tag() {
        let b = parse(
            b"[op_amax.s0] tensor torch.float32 () 1.0\n[op_amin.s0] tensor torch.float32 () 0.0\n",
        );
        assert_eq!(b.by_tag["op_amax.s0"], vec!["tensor torch.float32 () 1.0"]);
        assert_eq!(b.by_tag["op_amin.s0"], vec!["tensor torch.float32 () 0.0"]);
        let sample = |script: &str, file: &str| Sample {
            script: script.to_string(),
            tag: "s0".to_string(),
            kind: "function".to_string(),
            dtype: "float32".to_string(),
            entry: "amin".to_string(),
            target: "torch.amin".to_string(),
            file: file.to_string(),
        };
        assert_eq!(
            sample("op_amin", "ops_amax_amin").printed_tag(),
            "op_amin.s0"
        );
        assert_eq!(sample("op_amin", "op_amin").printed_tag(), "s0");
    }

    #[test]
    fn a_bracket_that_is_not_a_tag_is_untagged() {
        let b = parse(b"[[1, 2]] x\n[a b] y\n");
        assert!(b.by_tag.is_empty());
        assert_eq!(b.untagged.len(), 2);
    }
}
