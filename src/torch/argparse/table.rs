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

type Tables = HashMap<Namespace, HashMap<String, Parser>>;

/// Blocks separated by blank lines; `alias = name` opens a block whose overloads carry another
/// name (torch.spmm is mm's parser). A line that does not parse is left out of its block.
fn load(ns: Namespace) -> HashMap<String, Parser> {
    let mut out = HashMap::new();
    let mut alias: Option<String> = None;
    let mut block: Vec<Signature> = Vec::new();
    let mut flush = |alias: &mut Option<String>, block: &mut Vec<Signature>| {
        if let Some(first) = block.first() {
            let key = alias.take().unwrap_or_else(|| first.name.clone());
            out.insert(key, Parser::new(std::mem::take(block), ns.owner()));
        }
        *alias = None;
    };
    for line in ns.source().lines() {
        if line.starts_with('#') {
            continue;
        }
        if line.is_empty() {
            flush(&mut alias, &mut block);
        } else if let Some((a, _)) = line.split_once(" = ").filter(|_| !line.contains('(')) {
            alias = Some(a.to_string());
        } else if let Ok(sig) = Signature::parse(line) {
            block.push(sig);
        }
    }
    flush(&mut alias, &mut block);
    out
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| Namespace::ALL.iter().map(|&ns| (ns, load(ns))).collect())
}

/// The parser of `ns.name`, if PyTorch has one.
pub fn parser(ns: Namespace, name: &str) -> Option<&'static Parser> {
    tables().get(&ns)?.get(name)
}

/// Every callable name of a namespace (sorted).
pub fn names(ns: Namespace) -> Vec<&'static str> {
    let mut v: Vec<&'static str> = tables()
        .get(&ns)
        .map(|m| m.keys().map(String::as_str).collect())
        .unwrap_or_default();
    v.sort_unstable();
    v
}
