//! `import torch` compiles torch's Python preludes (torch.nn, torch.optim, torch._extra …) only
//! when a script first reaches them. These tests check that the laziness cannot be seen: every
//! name is the same object whichever name a script touches first, and dir()/suggestions see
//! everything.

use cudatutor::engine::{Runtime, RuntimeConfig};
use cudatutor::script::{Interpreter, Limits};

/// stdout of a script, or the failure's traceback, as `cudatutor run` runs it: the preludes'
/// definitions deferred to their first use.
fn run(src: &str) -> String {
    run_preludes(src, false)
}

/// stdout of a script, or the failure's traceback (the interpreter recurses: big stack); with
/// `eager`, every whole deferring prelude runs at import instead (the reference laziness must
/// not be told apart from).
fn run_preludes(src: &str, eager: bool) -> String {
    let src = src.to_string();
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || {
            let rt = Runtime::new(RuntimeConfig::default());
            let mut it = Interpreter::new(Limits::default());
            cudatutor::torch::install(&mut it, rt);
            if eager {
                for (name, src) in cudatutor::torch::deferring_preludes() {
                    it.register_module(name, Box::new(move |it| it.module_from_source(name, src)));
                }
            }
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
fn a_package_loads_its_submodules_at_their_first_access() {
    let out = run(
        "import sys\nimport torch.nn, torch.optim, torch.utils.data, torch.autograd\n\
         print([k for k in ['torch.autograd.function', 'torch.optim.optimizer', \
         'torch.optim.lr_scheduler', 'torch.utils.data.dataloader', 'torch.nn.utils.clip_grad'] \
         if k in sys.modules])\n\
         print(torch.nn.utils.rnn.pad_sequence.__name__, torch.optim.lr_scheduler.StepLR.__name__)\n\
         print(torch.utils.data.sampler.RandomSampler.__name__, torch.autograd.function.Function.__name__)\n\
         print(torch.autograd.functional.jacobian.__name__, torch.nn.utils.clip_grad.clip_grad_norm_.__name__)\n\
         import torch.utils.data.dataloader as dl\nprint(dl.DataLoader is torch.utils.data.DataLoader)\n\
         print('lr_scheduler' in dir(torch.optim), 'dataset' in dir(torch.utils.data))\n",
    );
    assert_eq!(
        out,
        "[]\npad_sequence StepLR\n\
         RandomSampler Function\njacobian clip_grad_norm_\nTrue\nTrue True\n",
        "{out}"
    );
}

#[test]
fn an_alias_submodule_imported_first_loads_its_lazy_package_once() {
    // `torch.optim.optimizer` is `from torch.optim import *`: importing it before anything of
    // torch.optim must not load itself again while it initialises (it used to recurse).
    let out = run(
        "from torch.optim.optimizer import Optimizer\nimport torch\n\
         print(Optimizer is torch.optim.Optimizer, hasattr(torch.optim, 'optimizer'))\n\
         from torch.utils.data.sampler import *\nprint(RandomSampler.__name__)\n\
         from torch.nn.utils.convert_parameters import parameters_to_vector\n\
         print(parameters_to_vector is torch.nn.utils.parameters_to_vector)\n",
    );
    // PyTorch's torch/optim/__init__.py deletes `optimizer` from its namespace
    assert_eq!(out, "True False\nRandomSampler\nTrue\n", "{out}");
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

/// stdout (or the traceback) of a script with the preludes' definitions deferred to their
/// first use, as `cudatutor run` loads them, and of the same script with every whole prelude
/// run at import (the reference).
fn run_deferred_and_eager(src: &str) -> (String, String) {
    (run_preludes(src, false), run_preludes(src, true))
}

#[test]
fn deferred_prelude_defines_what_the_whole_prelude_defines() {
    // every name of each deferring prelude, its kind and where it says it comes from
    let names: Vec<&str> = cudatutor::torch::deferring_preludes()
        .map(|(n, _)| n)
        .collect();
    for module in [
        "torch.nn",
        "torch.optim",
        "torch.utils.data",
        "torch._extra",
    ] {
        assert!(
            names.contains(&module),
            "{module} is not deferred: {names:?}"
        );
    }
    for (module, _) in cudatutor::torch::deferring_preludes() {
        let script = format!(
            "import {module} as m\n\
            for n in dir(m):\n\
            \x20   v = getattr(m, n)\n\
            \x20   plain = v is None or isinstance(v, (bool, int, float, str, tuple, list, dict))\n\
            \x20   print(n, type(v).__name__, getattr(v, '__qualname__', ''), getattr(v, '__module__', ''), repr(v) if plain else '')\n\
            \x20   if isinstance(v, type):\n\
            \x20       print('  mro', [c.__name__ for c in v.__mro__], sorted(vars(v)) if hasattr(v, '__dict__') else '')\n"
        );
        let (deferred, eager) = run_deferred_and_eager(&script);
        assert!(eager.lines().count() > 10, "{module}: {eager}");
        assert!(!eager.contains("FAILED"), "{module}: {eager}");
        assert_eq!(deferred, eager, "{module}");
    }
}

#[test]
fn deferred_definitions_behave_and_fail_as_the_whole_prelude_does() {
    for script in [
        // a training step through classes that name each other in their methods
        "import torch\nimport torch.nn as nn\ntorch.manual_seed(0)\n\
         m = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))\n\
         opt = torch.optim.SGD(m.parameters(), lr=0.1)\n\
         loss = nn.CrossEntropyLoss()(m(torch.randn(5, 3)), torch.tensor([0, 1, 0, 1, 1]))\n\
         loss.backward(); opt.step()\nprint(m, loss.item())\n",
        // a subclass of a definition no script touched before
        "import torch.nn as nn\nclass N(nn.LayerNorm):\n    pass\nprint(N(4), N.__mro__)\n",
        // tracebacks into the prelude keep its file and line numbers
        "import torch\nimport torch.nn as nn\nnn.Linear(2, 3)(torch.zeros(4, 5))\n",
        "import torch\nimport torch.nn as nn\nnn.Conv2d(1, 2, 3)(torch.zeros(2))\n",
        "import torch\nimport torch.nn.functional as F\nF.embedding(torch.tensor([9]), torch.zeros(3, 2))\n",
        // import *, a name assigned before its first use, a misspelt name
        "from torch.nn import *\nprint(Linear, GELU, sorted(k for k in globals() if not k.startswith('_'))[:8])\n",
        "import torch.nn as nn\nnn.GELU = 5\nprint(nn.GELU, 'GELU' in dir(nn), nn.GELU)\n",
        "import torch.nn as nn\nnn.Lineer\n",
        // torch.nn.functional's Python-written functions are torch.nn's, touched in any order
        "import torch.nn.functional as F\nprint(F.pad.__name__, F.relu)\n",
        "import torch\nimport torch.nn.functional as F\nimport torch.nn as nn\n\
         print(F.embedding is nn._f_embedding, F.leaky_relu.__name__, 'pad' in dir(F))\n\
         print(torch._F.interpolate is F.interpolate, hasattr(F, 'conv3d'))\n",
        // an optimizer, a scheduler and a DataLoader, as a lesson's training loop uses them
        "import torch\nimport torch.nn as nn\nfrom torch.utils.data import DataLoader, TensorDataset\n\
         torch.manual_seed(0)\nm = nn.Linear(3, 1)\n\
         opt = torch.optim.Adam(m.parameters(), lr=0.01)\n\
         sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)\n\
         dl = DataLoader(TensorDataset(torch.randn(8, 3), torch.randn(8, 1)), batch_size=4, shuffle=True)\n\
         for x, y in dl:\n    opt.zero_grad()\n    loss = nn.functional.mse_loss(m(x), y)\n    loss.backward()\n    opt.step()\n    sched.step()\n\
         print(loss.item(), sched.get_last_lr(), opt.state_dict()['param_groups'], type(dl.sampler).__mro__)\n",
        // subclasses of definitions no script touched before
        "import torch\nfrom torch.utils.data import Dataset\nfrom torch.optim import Optimizer\n\
         class D(Dataset):\n    def __len__(self):\n        return 2\n    def __getitem__(self, i):\n        return i\n\
         class O(Optimizer):\n    pass\n\
         print(D.__mro__, O.__mro__, list(torch.utils.data.DataLoader(D(), batch_size=2)))\n",
        // tracebacks into the optim, data, scheduler and extra preludes
        "import torch\ntorch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=-1)\n",
        "import torch\nfrom torch.utils.data import DataLoader\nDataLoader([1, 2], batch_size=0)\n",
        "import torch\nopt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)\n\
         torch.optim.lr_scheduler.MultiStepLR(opt, milestones=[2, 1]).step('x')\n",
        "import torch\ntorch.tril(torch.zeros(2), 1)\n",
        "import torch\ntorch.ones(2).swapaxes(0, 3)\n",
        // tracebacks into code of the eager statements between deferred definitions (their
        // lines are those of the whole prelude)
        "import torch._extra as e\ne._t_subtract(None, 1)\n",
        "import torch._extra as e\ne._t_greater(None, 1)\n",
        // the other deferring preludes' names in use
        "import torch\ntorch.manual_seed(0)\nw = torch.empty(3, 4)\n\
         torch.nn.init.kaiming_uniform_(w)\ntorch.nn.init.xavier_normal(w)\n\
         print(w, torch.special.expit(torch.ones(2)), torch.special.logsumexp(w, 0))\n\
         print(torch.autograd.functional.jacobian(lambda x: x ** 2, torch.ones(2)))\n\
         print(torch.nn.utils.clip_grad_norm_([torch.nn.Parameter(torch.ones(2))], 1.0))\n\
         print(torch.nn.utils.rnn.pad_sequence([torch.ones(2), torch.ones(1)]))\n",
        "from torch.optim import *\nfrom torch.utils.data import *\nfrom torch.autograd import *\n\
         print(sorted(k for k in globals() if not k.startswith('_')))\n",
        "import torch\nprint(dir(torch.optim), dir(torch.utils.data), dir(torch.nn.utils), dir(torch.autograd))\n",
        "import torch.optim as o\no.Adam = 5\nprint(o.Adam, 'Adam' in dir(o), o.Adamw)\n",
        // a monkeypatch after the first use: the still deferred AdamW keeps PyTorch's base
        "import torch.optim as o\nA = o.Adam\no.Adam = 5\nprint(o.AdamW.__mro__[1] is A, o.Adam)\n\
         del o.SGD\nprint(hasattr(o, 'SGD'), o.RMSprop.__name__)\n",
        // torch._extra's `torch.NAME = NAME` and `_t_NAME = NAME` aliases, bound at first use
        "import torch\nimport torch._extra as e\n\
         print(torch.flip is e.flip, e._t_amax is e.amax, torch.fliplr.__name__, torch.ones(2, 3).fliplr())\n\
         for n in sorted(dir(torch)):\n    v = getattr(torch, n)\n\
         \x20   print(n, type(v).__name__, getattr(v, '__qualname__', ''), getattr(v, '__module__', ''))\n\
         print(torch.amax is e.amax, torch.vstack is e.vstack)\n",
        "import torch\ntorch.hstack = 5\nimport torch._extra\nprint(torch.hstack.__name__, torch.vstack.__name__)\n",
        "import torch\nt = torch.ones(2, 2)\nprint(t.square(), t.trace(), t.exp_(), t.flipud())\n",
    ] {
        let (deferred, eager) = run_deferred_and_eager(script);
        assert_eq!(deferred, eager, "{script}");
    }
}
