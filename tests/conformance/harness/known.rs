//! tests/conformance/KNOWN_DIFFERENCES: the samples that do not match PyTorch yet, each with
//! the reason. One entry a line:
//!
//! ```text
//! SCRIPT TAGS  # REASON
//! op_add s3,s5-s7,m0  # differs: float32 values differ in the last bits (at most 1 ulp)
//! module_PReLU *  # unsupported: missing torch.nn.PReLU
//! ```
//!
//! TAGS is `*` (every sample of the script) or a comma list of tags and ranges of one letter
//! (`s5-s7`). A reason starts with `unsupported: `, `differs: ` or `MKL VML float32 last bits`
//! and says what is missing or what differs. The list is exact: a listed sample that matches
//! fails the test as much as an unlisted one that differs, so it only shrinks as the engine
//! grows and a regression cannot hide in it.

use std::collections::BTreeMap;
use std::path::Path;

/// What a listed line covers.
#[derive(Debug, Clone)]
pub(crate) enum Tags {
    All,
    Some(Vec<String>),
}

#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub line: usize,
    pub tags: Tags,
    pub reason: String,
}

pub(crate) const REASON_PREFIXES: [&str; 3] =
    ["unsupported: ", "differs: ", "MKL VML float32 last bits"];

/// `s5-s7` -> s5, s6, s7.
fn expand(item: &str) -> Result<Vec<String>, String> {
    let Some((a, b)) = item.split_once('-') else {
        return Ok(vec![item.to_string()]);
    };
    let split = |t: &str| -> Option<(String, u32)> {
        let letters: String = t.chars().take_while(|c| c.is_ascii_alphabetic()).collect();
        let n = t[letters.len()..].parse().ok()?;
        Some((letters, n))
    };
    match (split(a), split(b)) {
        (Some((pa, x)), Some((pb, y))) if pa == pb && x <= y && y - x < 10_000 => {
            Ok((x..=y).map(|n| format!("{pa}{n}")).collect())
        }
        _ => Err(format!("`{item}` is not a range like s3-s7")),
    }
}

/// script -> its entries.
pub(crate) fn read(path: &Path) -> Result<BTreeMap<String, Vec<Entry>>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let mut map: BTreeMap<String, Vec<Entry>> = BTreeMap::new();
    for (n, raw) in text.lines().enumerate() {
        let line = n + 1;
        if raw.trim().is_empty() || raw.trim_start().starts_with('#') {
            continue;
        }
        let (spec, reason) = raw
            .split_once('#')
            .ok_or_else(|| format!("{}:{line}: no `# reason`", path.display()))?;
        let reason = reason.trim().to_string();
        if !REASON_PREFIXES.iter().any(|p| reason.starts_with(p)) || reason.len() < 20 {
            return Err(format!(
                "{}:{line}: the reason must start with one of {REASON_PREFIXES:?} and say what \
                 differs or is missing, got `{reason}`",
                path.display()
            ));
        }
        let mut words = spec.split_whitespace();
        let (Some(script), Some(tags), None) = (words.next(), words.next(), words.next()) else {
            return Err(format!(
                "{}:{line}: expected `SCRIPT TAGS  # reason`",
                path.display()
            ));
        };
        let tags = if tags == "*" {
            Tags::All
        } else {
            let mut all = Vec::new();
            for item in tags.split(',') {
                all.extend(expand(item).map_err(|e| format!("{}:{line}: {e}", path.display()))?);
            }
            Tags::Some(all)
        };
        map.entry(script.to_string())
            .or_default()
            .push(Entry { line, tags, reason });
    }
    Ok(map)
}

/// Writes tags compactly: consecutive numbers of one letter become a range.
pub(crate) fn compress(tags: &[String]) -> String {
    let split = |t: &str| -> (String, Option<u32>) {
        let letters: String = t.chars().take_while(|c| c.is_ascii_alphabetic()).collect();
        let n = t[letters.len()..].parse().ok();
        (letters, n)
    };
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < tags.len() {
        let (p, n) = split(&tags[i]);
        let Some(start) = n else {
            out.push(tags[i].clone());
            i += 1;
            continue;
        };
        let mut end = start;
        let mut j = i + 1;
        while j < tags.len() {
            let (q, m) = split(&tags[j]);
            if q == p && m == Some(end + 1) {
                end += 1;
                j += 1;
            } else {
                break;
            }
        }
        out.push(if end > start {
            format!("{p}{start}-{p}{end}")
        } else {
            tags[i].clone()
        });
        i = j;
    }
    out.join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_expand_and_compress_back() {
        assert_eq!(expand("s3-s5").unwrap(), vec!["s3", "s4", "s5"]);
        assert!(expand("s3-m5").is_err());
        let tags: Vec<String> = ["s0", "s1", "s2", "s4", "m0", "e1", "e2"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(compress(&tags), "s0-s2,s4,m0,e1-e2");
    }

    #[test]
    fn a_vague_reason_is_refused() {
        let path = crate::scratch::scratch_file(
            "known-diff",
            "KNOWN_DIFFERENCES",
            "op_add s1  # broken\n",
        );
        assert!(read(&path).is_err());
        std::fs::write(
            &path,
            "op_add s1,s3-s4  # differs: float32 values differ by 1 ulp\n",
        )
        .unwrap();
        let map = read(&path).unwrap();
        match &map["op_add"][0].tags {
            Tags::Some(t) => assert_eq!(t, &["s1", "s3", "s4"]),
            Tags::All => panic!("expected a list"),
        }
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }
}
