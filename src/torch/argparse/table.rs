//! The signature table (src/torch/signatures/*.sig, written by scripts/gen-signatures.py from
//! PyTorch's own library), loaded once.

use super::parse::Parser;
use super::signature::Signature;
use std::collections::HashMap;
use std::sync::OnceLock;

/// Where a callable lives in PyTorch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Namespace {
    /// `torch.*` (torch._C._VariableFunctions)
    Torch,
    /// `Tensor.*` methods (torch._C.TensorBase)
    Tensor,
    /// `torch._C._nn` (what torch.nn.functional calls)
    Nn,
    Special,
    Linalg,
    Fft,
}

impl Namespace {
    pub const ALL: [Namespace; 6] = [
        Namespace::Torch,
        Namespace::Tensor,
        Namespace::Nn,
        Namespace::Special,
        Namespace::Linalg,
        Namespace::Fft,
    ];

    /// The table file's stem (tests/argparse/<stem>.json holds its recorded errors).
    pub fn stem(self) -> &'static str {
        match self {
            Namespace::Torch => "torch",
            Namespace::Tensor => "tensor",
            Namespace::Nn => "nn",
            Namespace::Special => "special",
            Namespace::Linalg => "linalg",
            Namespace::Fft => "fft",
        }
    }

    fn source(self) -> &'static str {
        match self {
            Namespace::Torch => include_str!("../signatures/torch.sig"),
            Namespace::Tensor => include_str!("../signatures/tensor.sig"),
            Namespace::Nn => include_str!("../signatures/nn.sig"),
            Namespace::Special => include_str!("../signatures/special.sig"),
            Namespace::Linalg => include_str!("../signatures/linalg.sig"),
            Namespace::Fft => include_str!("../signatures/fft.sig"),
        }
    }

    fn owner(self) -> &'static str {
        match self {
            // `t.abs(1)`: "TensorBase.abs() takes no arguments (1 given)"
            Namespace::Tensor => "TensorBase.",
            _ => "",
        }
    }
}

/// One callable's block of the table: its overload lines, parsed at the first call that needs
/// them. Parsing all 4,000 lines at the first op cost every script about a millisecond.
struct Entry {
    lines: Vec<&'static str>,
    parser: OnceLock<Option<Parser>>,
}

impl Entry {
    fn parser(&self, ns: Namespace) -> Option<&Parser> {
        self.parser
            .get_or_init(|| {
                // a line that does not parse is left out of its block
                let sigs: Vec<Signature> = self
                    .lines
                    .iter()
                    .filter_map(|l| Signature::parse(l).ok())
                    .collect();
                (!sigs.is_empty()).then(|| Parser::new(sigs, ns.owner()))
            })
            .as_ref()
    }
}

/// The table's blocks: separated by blank lines, `#` lines skipped; `alias = name` opens a
/// block whose overloads carry another name (torch.spmm is mm's parser). Each block comes with
/// its alias, if it has one, and its overload lines.
fn blocks(source: &str) -> Vec<(Option<&str>, Vec<&str>)> {
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

/// A block is found under its alias, else under the name of its first overload (the text
/// before its parenthesis: every overload of a block has it).
fn index(ns: Namespace) -> HashMap<&'static str, Entry> {
    let mut out = HashMap::new();
    for (alias, lines) in blocks(ns.source()) {
        let first = lines
            .iter()
            .find_map(|l| l.find('(').map(|open| &l[..open]));
        if let Some(key) = alias.or(first) {
            let parser = OnceLock::new();
            out.insert(key, Entry { lines, parser });
        }
    }
    out
}

fn table(ns: Namespace) -> &'static HashMap<&'static str, Entry> {
    static TABLES: [OnceLock<HashMap<&'static str, Entry>>; 6] =
        [const { OnceLock::new() }; Namespace::ALL.len()];
    let at = Namespace::ALL.iter().position(|&n| n == ns).unwrap_or(0);
    TABLES[at].get_or_init(|| index(ns))
}

/// The parser of `ns.name`, if PyTorch has one.
pub fn parser(ns: Namespace, name: &str) -> Option<&'static Parser> {
    table(ns).get(name)?.parser(ns)
}

/// Every callable name of a namespace (sorted).
pub fn names(ns: Namespace) -> Vec<&'static str> {
    let mut v: Vec<&'static str> = table(ns)
        .iter()
        .filter(|(_, e)| e.parser(ns).is_some())
        .map(|(k, _)| *k)
        .collect();
    v.sort_unstable();
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table as it was loaded before its blocks were parsed lazily: every line parsed,
    /// each block under its alias or its first parsed overload's name.
    fn whole(ns: Namespace) -> HashMap<String, Vec<Signature>> {
        let mut out = HashMap::new();
        for (alias, lines) in blocks(ns.source()) {
            let block: Vec<Signature> = lines
                .iter()
                .filter_map(|l| Signature::parse(l).ok())
                .collect();
            if let Some(first) = block.first() {
                let key = alias.map_or_else(|| first.name.clone(), str::to_string);
                out.insert(key, block);
            }
        }
        out
    }

    #[test]
    fn each_callable_parsed_at_first_use_has_the_whole_tables_overloads() {
        for ns in Namespace::ALL {
            let want = whole(ns);
            let mut want_names: Vec<&str> = want.keys().map(String::as_str).collect();
            want_names.sort_unstable();
            assert_eq!(names(ns), want_names, "{ns:?}");
            for (name, sigs) in &want {
                let got = parser(ns, name).map(|p| {
                    let mut order = sigs.clone();
                    order.sort_by_key(|s| s.deprecated);
                    (format!("{:?}", p.signatures), format!("{order:?}"))
                });
                let (got, want) = got.unwrap_or_default();
                assert!(!got.is_empty(), "{ns:?}.{name} has no parser");
                assert_eq!(got, want, "{ns:?}.{name}");
            }
        }
    }
}
