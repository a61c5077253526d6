//! The signature table (src/torch/signatures/*.sig, written by scripts/gen-signatures.py from
//! PyTorch's own library), loaded once.

use super::parse::Parser;
use super::signature::Signature;
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

    #[cfg(test)]
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

// The tables indexed at build time (build.rs, with blocks.rs's `index`): for each namespace
// its callables sorted by name with their overload lines, and a parser slot for each.
include!(concat!(env!("OUT_DIR"), "/signature_blocks.rs"));

/// A namespace's callables (sorted by name, each with its overload lines) and their parsers,
/// each parsed at the first call that needs it: parsing all 4,000 lines at the first op cost
/// every script about a millisecond, and indexing them at start-up (a hash map of 2,000
/// blocks) a tenth of `import torch.nn`.
type Table = (
    &'static [(&'static str, &'static [&'static str])],
    &'static [OnceLock<Option<Parser>>],
);

fn parsed(
    ns: Namespace,
    lines: &[&str],
    slot: &'static OnceLock<Option<Parser>>,
) -> Option<&'static Parser> {
    slot.get_or_init(|| {
        // a line that does not parse is left out of its block
        let sigs: Vec<Signature> = lines
            .iter()
            .filter_map(|l| Signature::parse(l).ok())
            .collect();
        (!sigs.is_empty()).then(|| Parser::new(sigs, ns.owner()))
    })
    .as_ref()
}

/// The parser of `ns.name`, if PyTorch has one.
pub fn parser(ns: Namespace, name: &str) -> Option<&'static Parser> {
    let (blocks, parsers) = table(ns);
    let at = block_of(blocks, name)?;
    parsed(ns, blocks.get(at)?.1, parsers.get(at)?)
}

/// Where `name`'s block is in a namespace's sorted blocks.
fn block_of(blocks: &[(&str, &[&str])], name: &str) -> Option<usize> {
    blocks.binary_search_by(|(k, _)| (*k).cmp(name)).ok()
}

/// Whether `ns` has an overload block for `name`, without parsing it: what
/// `parser(ns, name).is_some()` says, since every block of the tables parses (the test
/// `every_block_of_every_table_has_a_parser`). Binding the registry's names at start-up asked
/// `parser` for each of them, which parsed every registered name's signatures in every run
/// (8 % of the run thread of `import torch; torch.ones(2)` in `perf`).
pub fn declares(ns: Namespace, name: &str) -> bool {
    block_of(table(ns).0, name).is_some()
}

/// Every callable name of a namespace (sorted).
pub fn names(ns: Namespace) -> Vec<&'static str> {
    let (blocks, parsers) = table(ns);
    blocks
        .iter()
        .zip(parsers)
        .filter(|((_, lines), slot)| parsed(ns, lines, slot).is_some())
        .map(|((k, _), _)| *k)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    use super::super::blocks::blocks;
    use std::collections::HashMap;

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
    fn the_built_index_is_each_tables_blocks_sorted_by_name() {
        for ns in Namespace::ALL {
            let (blocks, parsers) = table(ns);
            let want = super::super::blocks::index(ns.source());
            assert_eq!(parsers.len(), blocks.len(), "{ns:?}");
            let got: Vec<(&str, Vec<&str>)> =
                blocks.iter().map(|(k, l)| (*k, l.to_vec())).collect();
            assert_eq!(got, want, "{ns:?}");
            assert!(
                got.windows(2).all(|w| w[0].0 < w[1].0),
                "{ns:?} sorted, no repeats"
            );
        }
    }

    #[test]
    fn every_block_of_every_table_has_a_parser() {
        for ns in Namespace::ALL {
            for (name, _) in table(ns).0 {
                assert!(declares(ns, name), "{ns:?}.{name}");
                assert!(parser(ns, name).is_some(), "{ns:?}.{name} parses");
            }
            assert!(!declares(ns, "no_such_callable"));
            assert!(!declares(ns, ""));
        }
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
