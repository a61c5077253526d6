//! `import torch` compiles torch's Python preludes (torch.nn, torch.optim, torch._extra …) only
//! when a script first reaches them. These tests check that the laziness cannot be seen: every
//! name is the same object whichever name a script touches first, and dir()/suggestions see
//! everything.

use cudatutor::engine::{Runtime, RuntimeConfig};
use cudatutor::script::{Interpreter, Limits};

/// stdout of a script, or the failure's traceback (the interpreter recurses: big stack).
fn run(src: &str) -> String {
    let src = src.to_string();
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || {
            let rt = Runtime::new(RuntimeConfig::default());
            let mut it = Interpreter::new(Limits::default());
            cudatutor::torch::install(&mut it, rt);
            match it.run_main(&src, "lazy.py") {
                Ok(()) => it.take_stdout(),
                Err(e) => format!("{}FAILED: {}", it.take_stdout(), e.traceback),
            }
        })
        .unwrap()
        .join()
        .unwrap()
}

/// The names torch._extra sets on the torch module (`torch.NAME = ...` lines).
fn extra_names() -> Vec<String> {
    let src = include_str!("../src/torch/extra.py");
    let mut names: Vec<String> = src
        .lines()
        .filter_map(|l| l.strip_prefix("torch."))
        .filter_map(|l| l.split_once(" = ").map(|(n, _)| n.trim().to_string()))
        .filter(|n| n.chars().all(|c| c.is_alphanumeric() || c == '_'))
        .collect();
    names.sort();
    names.dedup();
    names
}

#[test]
fn each_extra_name_is_the_preludes_even_when_touched_first() {
    let names = extra_names();
    assert!(
        names.len() > 50,
        "found only {} names in extra.py",
        names.len()
    );
    // One script per name: touching the name first must already give the prelude's object,
    // never a native function of the same name that the prelude replaces later.
    let mut wrong = Vec::new();
    for n in &names {
        let out = run(&format!(
            "import torch\nfirst = torch.{n}\nimport torch._extra\nprint(first is torch.{n})\n"
        ));
        if out.trim() != "True" {
            wrong.push(format!("{n}: {}", out.trim()));
        }
    }
    assert!(
        wrong.is_empty(),
        "names that change once torch._extra loads: {wrong:#?}"
    );
}

#[test]
fn submodules_load_on_first_access_in_any_form() {
    let out = run("import torch\n\
         print(torch.nn.Linear.__name__)\n\
         print(torch.optim.SGD.__name__)\n\
         from torch.optim import lr_scheduler\n\
         print(lr_scheduler.StepLR.__name__)\n\
         import torch.utils.data as d\n\
         print(d.DataLoader.__name__, torch.utils.data is d)\n\
         print(hasattr(torch, 'linalg'), hasattr(torch, 'no_such_thing'))\n\
         print(getattr(torch, 'autograd').grad.__name__)\n");
    assert_eq!(
        out, "Linear\nSGD\nStepLR\nDataLoader True\nTrue False\ngrad\n",
        "{out}"
    );
}

#[test]
fn dir_and_suggestions_see_lazy_names() {
    let out = run("import torch\nnames = dir(torch)\n\
         print('optim' in names, 'outer' in names, 'nn' in names)\n");
    assert_eq!(out, "True True True\n", "{out}");
    // A misspelt prelude function still gets CPython's "Did you mean" from the whole module.
    let out = run("import torch\ntorch.outr(torch.ones(2), torch.ones(2))\n");
    assert!(
        out.contains("has no attribute 'outr'. Did you mean: 'outer'?"),
        "expected CPython's suggestion: {out}"
    );
}

#[test]
fn a_missing_name_is_still_an_attribute_error() {
    let out = run(
        "import torch\ntry:\n    torch.not_a_function\nexcept AttributeError as e:\n    print(e)\n",
    );
    assert_eq!(out, "module 'torch' has no attribute 'not_a_function'\n");
}
