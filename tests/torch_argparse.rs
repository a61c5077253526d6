//! PyTorch's own argument errors, replayed through our port of its parser.
//!
//! tests/argparse/<namespace>.json holds bad calls and the TypeError real PyTorch 2.15 raised
//! for each (recorded by scripts/gen-signatures.py against the same signature table the
//! engine loads). Each call's arguments are built by our interpreter, bound by
//! `torch::argparse` against the table, and the message must be PyTorch's, character for
//! character.

use cudatutor::engine::{Runtime, RuntimeConfig};
use cudatutor::script::{Interpreter, Limits, Value};
use cudatutor::torch::argparse::{Namespace, parser};

#[derive(serde::Deserialize)]
struct Corpus {
    setup: String,
    cases: Vec<Case>,
}

#[derive(serde::Deserialize)]
struct Case {
    name: String,
    args: String,
    kwargs: String,
    message: String,
}

/// The keyword arguments a case's script left in `name` as a list of (key, value) pairs.
/// The call a case script left in the main module: the positional list `__a` and the
/// keyword pairs under `kwargs_name`.
fn call_of(it: &Interpreter, kwargs_name: &str) -> (Vec<Value>, Vec<(String, Value)>) {
    let args = it
        .main_global("__a")
        .and_then(|v| v.as_vec())
        .unwrap_or_default();
    (args, pairs_of(it, kwargs_name))
}

fn pairs_of(it: &Interpreter, name: &str) -> Vec<(String, Value)> {
    it.main_global(name)
        .and_then(|v| v.as_vec())
        .unwrap_or_default()
        .into_iter()
        .filter_map(|kv| {
            let pair = kv.as_vec()?;
            Some((pair.first()?.as_str()?.to_string(), pair.get(1)?.clone()))
        })
        .collect()
}

/// (cases, mismatches as "call: ours / PyTorch's").
fn replay(ns: Namespace) -> (usize, Vec<String>) {
    let path = format!(
        "{}/tests/argparse/{}.json",
        env!("CARGO_MANIFEST_DIR"),
        ns.stem()
    );
    let text = std::fs::read_to_string(&path).expect("corpus file");
    let corpus: Corpus = serde_json::from_str(&text).expect("corpus json");
    let rt = Runtime::new(RuntimeConfig::default());
    let mut it = Interpreter::new(Limits::default());
    cudatutor::torch::install(&mut it, rt.clone());
    let setup = format!("import torch\n{}\n", corpus.setup.replace("; ", "\n"));
    it.run_in_main(&setup, "setup.py").expect("setup runs");
    let mut bad = Vec::new();
    for case in &corpus.cases {
        let call = format!("{}{}, **{}", case.name, case.args, case.kwargs);
        let src = format!("__a = {}\n__k = list({}.items())\n", case.args, case.kwargs);
        if let Err(e) = it.run_in_main(&src, "case.py") {
            bad.push(format!(
                "{call}: the engine cannot build the arguments ({})",
                e.message
            ));
            continue;
        }
        let (args, kwargs) = call_of(&it, "__k");
        let Some(p) = parser(ns, &case.name) else {
            bad.push(format!("{call}: not in the table"));
            continue;
        };
        let got = match p.parse(&args, &kwargs) {
            Ok(parsed) => match parsed.unpack_all() {
                Ok(()) => "<accepted>".to_string(),
                Err(e) => it.exception_parts(&e).1,
            },
            Err(e) => it.exception_parts(&e).1,
        };
        if got != case.message {
            bad.push(format!(
                "{call}:\n   ours:    {got:?}\n   PyTorch: {:?}",
                case.message
            ));
        }
    }
    (corpus.cases.len(), bad)
}

fn check(ns: Namespace) {
    check_at_most(ns, 0);
}

/// As [`check`], with up to `known` calls allowed to differ: a ratchet for the namespaces whose
/// last few messages are not PyTorch's yet (float-list elements, unpack errors), so a binder
/// change that breaks more of them fails here; lower the figure as they are fixed.
fn check_at_most(ns: Namespace, known: usize) {
    let (n, bad) = std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || replay(ns))
        .unwrap()
        .join()
        .unwrap();
    assert!(n > 100, "the {} corpus is too small: {n}", ns.stem());
    if bad.len() > known {
        let shown: Vec<&String> = bad.iter().take(25).collect();
        panic!(
            "{} of {n} {} calls differ from PyTorch (at most {known} may):\n{}",
            bad.len(),
            ns.stem(),
            shown
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}

#[test]
fn torch_functions_raise_pytorchs_argument_errors() {
    check_at_most(Namespace::Torch, 134);
}

#[test]
fn tensor_methods_raise_pytorchs_argument_errors() {
    check_at_most(Namespace::Tensor, 160);
}

#[test]
fn nn_functions_raise_pytorchs_argument_errors() {
    check_at_most(Namespace::Nn, 3);
}

#[test]
fn special_linalg_fft_functions_raise_pytorchs_argument_errors() {
    check(Namespace::Special);
    check(Namespace::Linalg);
    check(Namespace::Fft);
}

/// The functions PyTorch binds in C++ that torch._extra writes in Python
/// (`_PARSED_BY_PYTORCH`): each recorded bad call of them, made through `torch.NAME` itself,
/// must raise what PyTorch raised wherever the parser alone gets the message right, so the
/// Python bodies never answer first with a message of their own.
#[test]
fn torch_functions_written_in_python_raise_the_parsers_errors() {
    let (checked, bad) = std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(python_written_mismatches)
        .unwrap()
        .join()
        .unwrap();
    assert!(checked > 1000, "only {checked} recorded calls checked");
    assert!(
        bad.is_empty(),
        "{} of {checked} calls differ from PyTorch where the parser alone does not:\n{}",
        bad.len(),
        bad.iter().take(25).cloned().collect::<Vec<_>>().join("\n")
    );
}

/// (calls checked, calls whose message through `torch.NAME` is not PyTorch's while the parser's
/// own is).
fn python_written_mismatches() -> (usize, Vec<String>) {
    let path = format!("{}/tests/argparse/torch.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("corpus file");
    let corpus: Corpus = serde_json::from_str(&text).expect("corpus json");
    let rt = Runtime::new(RuntimeConfig::default());
    let mut it = Interpreter::new(Limits::default());
    cudatutor::torch::install(&mut it, rt.clone());
    let setup = format!(
        "import torch\nimport torch._extra\n__names = list(torch._extra._PARSED_BY_PYTORCH)\n{}\n",
        corpus.setup.replace("; ", "\n")
    );
    it.run_in_main(&setup, "setup.py").expect("setup runs");
    let names: Vec<String> = it
        .main_global("__names")
        .and_then(|v| v.as_vec())
        .unwrap_or_default()
        .iter()
        .filter_map(|v| v.as_str().map(str::to_string))
        .collect();
    assert!(names.len() > 50, "the registry lists {} names", names.len());
    let mut checked = 0;
    let mut bad = Vec::new();
    for case in corpus.cases.iter().filter(|c| names.contains(&c.name)) {
        let call = format!("{}{}, **{}", case.name, case.args, case.kwargs);
        let src = format!(
            "__a = {}\n__k = {}\n__kl = list(__k.items())\ntry:\n    torch.{}(*__a, **__k)\n    __m = '<accepted>'\nexcept Exception as e:\n    __m = str(e)\n",
            case.args, case.kwargs, case.name
        );
        if let Err(e) = it.run_in_main(&src, "case.py") {
            bad.push(format!("{call}: the call did not finish ({})", e.message));
            continue;
        }
        checked += 1;
        let got = it
            .main_global("__m")
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        if got == case.message {
            continue;
        }
        // the parser alone, as `replay` runs it: a call it gets wrong is its ratchet's
        let (args, kwargs) = call_of(&it, "__kl");
        let parsers = parser(Namespace::Torch, &case.name).map(|p| match p.parse(&args, &kwargs) {
            Ok(parsed) => match parsed.unpack_all() {
                Ok(()) => "<accepted>".to_string(),
                Err(e) => it.exception_parts(&e).1,
            },
            Err(e) => it.exception_parts(&e).1,
        });
        if parsers.as_deref() == Some(case.message.as_str()) {
            bad.push(format!(
                "{call}:\n   ours:    {got:?}\n   PyTorch: {:?}",
                case.message
            ));
        }
    }
    (checked, bad)
}
