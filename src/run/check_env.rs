//! Where an exercise's checks run: a namespace of their own, with the real torch, the real
//! allocator counters and the helper functions, none of which the graded code can replace.
//!
//! Before the learner's code runs, the modules a check may use are imported and their
//! namespaces (and those of the classes they hold, `torch.Tensor`, `nn.Linear` …) are copied
//! ([`Pristine::capture`]). After it, they are put back ([`Pristine::restore`]): whatever the
//! learner's code assigned to `torch.cuda.memory_allocated` or `F.cross_entropy` is gone, and
//! so again before every check statement and after every call a check makes into the
//! learner's code (the interpreter's `CallGuard`, which keeps what the check itself patched,
//! `torch.cuda.is_available = lambda: False` around a call of the learner's function). The
//! checks then run in a fresh module whose globals are a copy of the learner's variables, minus
//! any that shadow a builtin (`def len(x): ...` does not reach the checks), plus `torch`, `nn`,
//! `F`, `os` and the helpers, always the real ones. Comparisons that must not trust a learner's
//! object (`__eq__` returning True for everything) go through [`plain_eq`], which compares
//! plain Python values in Rust and calls no Python code.

use super::report::{ErrorReport, TimelineEntry};
pub(super) use super::same_value::plain_eq;
use super::same_value::{MAX_DEPTH, number, unchanged};
use crate::script::ExcType;
use crate::script::{
    Args, Class, Dict, GuardedWorld, Interpreter, Module, PyException, PyResult, Value,
};
use std::cell::RefCell;
use std::rc::Rc;

/// The modules a check block may use, imported before the learner's code runs.
const CHECK_MODULES: &[&str] = &[
    "torch",
    // the functions torch loads from its Python prelude on first use (`torch.isinf`): loaded
    // here, before the capture, or restoring torch after the learner's code would drop them
    // while the prelude counts as loaded
    "torch._extra",
    "torch.cuda._py",
    "torch.nn",
    "torch.nn.functional",
    "torch.cuda",
    "torch.utils.data",
    "os",
    "math",
];

/// The names every check namespace binds to the real modules, whatever the learner bound them to.
const CHECK_NAMES: &[(&str, &str)] = &[
    ("torch", "torch"),
    ("nn", "torch.nn"),
    ("F", "torch.nn.functional"),
    ("os", "os"),
    ("math", "math"),
];

/// The namespaces of every module loaded before the learner's code (the check modules and
/// what they import: `torch._F`, `torch._C`, `collections` …) and of the classes they hold, as
/// they were then.
pub(super) struct Pristine {
    modules: Vec<(Rc<Module>, Dict)>,
    classes: Vec<(Rc<Class>, Dict)>,
    /// The modules [`CHECK_NAMES`] binds, taken at capture (not looked up again afterwards,
    /// when the learner's code could have replaced what an import finds).
    named: Vec<(&'static str, Rc<Module>)>,
    /// The lists, dicts and sets those namespaces reach, whose contents a learner can change
    /// in place (`torch._extra._FINFO['float32'] = ...`).
    containers: super::check_containers::Containers,
}

impl Pristine {
    /// Imports [`CHECK_MODULES`] and copies the namespaces of every loaded module. A module
    /// that fails to import is left out (the checks then import it like any script would).
    pub(super) fn capture(it: &mut Interpreter) -> Pristine {
        let mut modules: Vec<(Rc<Module>, Dict)> = Vec::new();
        let mut classes: Vec<(Rc<Class>, Dict)> = Vec::new();
        // every module first, then the copies: importing one (torch._extra) adds names to
        // another (torch), and the copy must hold them
        for name in CHECK_MODULES {
            let _ = it.import_module(name);
        }
        // the prelude definitions deferred to their first use (torch.nn's) too: a name
        // defined after the capture would be dropped by the restore
        let _ = it.run_every_deferred();
        let named = CHECK_NAMES
            .iter()
            .filter_map(|(name, module)| match it.import_module(module) {
                Ok(Value::Module(m)) => Some((*name, m)),
                _ => None,
            })
            .collect();
        for m in it.loaded_modules() {
            if modules.iter().any(|(seen, _)| Rc::ptr_eq(seen, &m)) {
                continue;
            }
            let dict = m.dict.borrow().clone();
            for (_, value) in dict.iter() {
                if let Value::Class(c) = value
                    && !classes.iter().any(|(seen, _)| Rc::ptr_eq(seen, c))
                {
                    classes.push((c.clone(), c.dict.borrow().clone()));
                }
            }
            modules.push((m, dict));
        }
        let containers = super::check_containers::Containers::capture(
            modules
                .iter()
                .map(|(_, d)| d)
                .chain(classes.iter().map(|(_, d)| d)),
        );
        Pristine {
            modules,
            classes,
            named,
            containers,
        }
    }

    /// Puts back every copied namespace that differs from its copy.
    pub(super) fn restore(&self) {
        for (m, dict) in &self.modules {
            put_back(&m.dict, dict);
        }
        for (c, dict) in &self.classes {
            put_back(&c.dict, dict);
        }
        self.containers.restore();
    }

    /// The namespaces whose code the checks trust: the copied modules' (where their functions
    /// find their globals).
    pub(super) fn trusted(&self) -> Vec<Rc<RefCell<Dict>>> {
        self.modules.iter().map(|(m, _)| m.dict.clone()).collect()
    }
}

/// The namespaces a check changed itself (by their place in the modules, then the classes),
/// as it changed them: what a call into the learner's code must not undo.
struct CheckChanges(Vec<(usize, Dict)>);

impl GuardedWorld for Pristine {
    /// Only the namespaces that differ from their pristine copy are copied: usually none.
    fn save(&self) -> Box<dyn std::any::Any> {
        let live = self
            .modules
            .iter()
            .map(|(m, copy)| (&*m.dict, copy))
            .chain(self.classes.iter().map(|(c, copy)| (&c.dict, copy)));
        let changed = live
            .enumerate()
            .filter(|(_, (live, copy))| !unchanged(live, copy))
            .map(|(i, (live, _))| (i, live.borrow().clone()))
            .collect();
        Box::new(CheckChanges(changed))
    }

    fn put_back(&self, saved: Box<dyn std::any::Any>) {
        self.restore();
        let Ok(changes) = saved.downcast::<CheckChanges>() else {
            return;
        };
        for (i, dict) in changes.0 {
            let live = match self.modules.get(i) {
                Some((m, _)) => &*m.dict,
                None => match self.classes.get(i - self.modules.len()) {
                    Some((c, _)) => &c.dict,
                    None => continue,
                },
            };
            let old = std::mem::replace(&mut *live.borrow_mut(), dict);
            drop(old);
        }
    }
}

/// `live` set back to `copy` unless it is [`unchanged`].
fn put_back(live: &RefCell<Dict>, copy: &Dict) {
    if !unchanged(live, copy) {
        let old = std::mem::replace(&mut *live.borrow_mut(), copy.clone());
        drop(old);
    }
}

/// What the helpers report about the exercise's own run.
pub(super) struct RunFacts<'a> {
    pub error: Option<&'a ErrorReport>,
    pub stdout: &'a str,
    pub timeline: &'a [TimelineEntry],
    pub launch_blocking: bool,
    /// Why the predictions are not predictions (computed, bound otherwise): the one result
    /// shown instead of the checks.
    pub prediction_problem: Option<String>,
    /// The code is the starting code apart from the predicted values (`code_unchanged()`).
    pub code_unchanged: bool,
}

/// A fresh namespace for the checks: the learner's variables (those that do not shadow a
/// builtin or start with `__`), the real modules of [`CHECK_NAMES`], and the helpers.
pub(super) fn check_namespace(
    it: &mut Interpreter,
    pristine: &Pristine,
    facts: &RunFacts,
) -> Rc<Module> {
    let ns = Rc::new(Module::new("__check__"));
    let learner = it.main_module();
    // A namespace too large to copy leaves the checks without the learner's variables: they
    // fail as "not defined" instead of the worker aborting on the refused allocation.
    let copied = crate::script::interp::dict_items(&learner.dict).unwrap_or_default();
    for (key, value) in copied {
        let Some(name) = key.as_str() else { continue };
        if name.starts_with("__") || it.is_builtin(name) {
            continue;
        }
        ns.set_attr(name, value);
    }
    for (name, module) in &pristine.named {
        ns.set_attr(name, Value::Module(module.clone()));
    }
    install_helpers(&ns, facts);
    let _ = it.run_in_module(HELPERS_IN_PYTHON, "<check helpers>", &ns);
    ns
}

/// Helpers easier to say in Python; they run in the check namespace, so `torch` is the real one.
const HELPERS_IN_PYTHON: &str = "\
def on_gpu(t, device=None):
    return torch.is_tensor(t) and t.device.type == 'cuda' and (device is None or str(t.device) == device)

def on_cpu(t):
    return torch.is_tensor(t) and t.device.type == 'cpu'
";

fn install_helpers(ns: &Rc<Module>, facts: &RunFacts) {
    let error = facts.error;
    let opt_str = |s: Option<String>| s.map(|s| Value::str(&s)).unwrap_or(Value::None);
    let opt_int = |n: Option<u32>| n.map(|n| Value::Int(i64::from(n))).unwrap_or(Value::None);
    let constants: [(&str, Value); 7] = [
        ("error_type", opt_str(error.map(|e| e.type_name.clone()))),
        ("error_message", opt_str(error.map(|e| e.message.clone()))),
        ("error_line", opt_int(error.and_then(|e| e.line))),
        ("origin_line", opt_int(error.and_then(|e| e.origin_line))),
        ("output", Value::str(facts.stdout)),
        ("launch_blocking", Value::Bool(facts.launch_blocking)),
        ("code_unchanged", Value::Bool(facts.code_unchanged)),
    ];
    for (name, value) in constants {
        ns.set_attr(
            name,
            Value::native_fn(name, move |_it, _args| Ok(value.clone())),
        );
    }

    let ops: Rc<Vec<OpRun>> = Rc::new(facts.timeline.iter().filter_map(OpRun::of).collect());
    // async_copies('h2d'): the copies of that direction the host did not wait for (it
    // returned before the copy ended on the device), e.g. pinned non_blocking batches
    let copies: Rc<Vec<(String, bool)>> = Rc::new(
        facts
            .timeline
            .iter()
            .filter(|e| matches!(e.kind.name(), "h2d" | "d2h"))
            .map(|e| {
                let overlapped = e.device_end_us.is_some_and(|end| e.host_end_us < end);
                (e.kind.name().to_string(), overlapped)
            })
            .collect(),
    );
    ns.set_attr(
        "async_copies",
        Value::native_fn("async_copies", move |_it, args| {
            let [direction] = n_args::<1>("async_copies", args)?;
            let Some(direction) = direction.as_str().map(str::to_string) else {
                return Err(PyException::new(
                    ExcType::TypeError,
                    "async_copies(): the direction must be 'h2d' or 'd2h'",
                ));
            };
            let n = copies
                .iter()
                .filter(|(kind, overlapped)| *kind == direction && *overlapped)
                .count();
            Ok(Value::Int(n as i64))
        }),
    );
    op_list(ns, &ops, "launched_ops", |o| o.ran);
    op_list(ns, &ops, "raised_ops", |o| o.raised);
    op_count(ns, &ops, "ran_on_gpu", |o, device| {
        o.device.starts_with("cuda") && device.is_none_or(|d| *d == o.device)
    });
    let all = ops.clone();
    ns.set_attr(
        "op_lines",
        Value::native_fn("op_lines", move |_it, args| {
            let (op, _) = op_and_device("op_lines", args)?;
            let mut lines: Vec<u32> = all
                .iter()
                .filter(|o| o.ran && o.op == op)
                .map(|o| o.line)
                .collect();
            lines.dedup();
            Ok(Value::list(
                lines
                    .into_iter()
                    .map(|l| Value::Int(i64::from(l)))
                    .collect(),
            ))
        }),
    );
    // (the device argument is allowed and says nothing more: every CPU is `cpu`)
    op_count(ns, &ops, "ran_on_cpu", |o, _| o.device == "cpu");

    ns.set_attr(
        "same",
        Value::native_fn("same", |_it, args| {
            let [a, b] = two_args("same", args)?;
            Ok(Value::Bool(plain_eq(&a, &b, 0)))
        }),
    );
    ns.set_attr(
        "close",
        Value::native_fn("close", |_it, mut args| {
            let tol = match args.take_kw("tol") {
                Some(v) => number(&v).ok_or_else(|| {
                    PyException::new(ExcType::TypeError, "close(): tol must be a number")
                })?,
                None if args.positional.len() == 3 => {
                    let v = args.positional.pop().unwrap_or_default();
                    number(&v).ok_or_else(|| {
                        PyException::new(ExcType::TypeError, "close(): tol must be a number")
                    })?
                }
                None => 1e-5,
            };
            let [a, b] = two_args("close", args)?;
            Ok(Value::Bool(plain_close(&a, &b, tol, 0)))
        }),
    );
    ns.set_attr(
        "is_number",
        Value::native_fn("is_number", |_it, args| {
            let [v] = n_args::<1>("is_number", args)?;
            Ok(Value::Bool(matches!(v, Value::Int(_) | Value::Float(_))))
        }),
    );
    let target = ns.clone();
    ns.set_attr(
        "set_global",
        Value::native_fn("set_global", move |it, args| {
            let [name, value] = two_args("set_global", args)?;
            let Some(name) = name.as_str().map(str::to_string) else {
                return Err(PyException::new(
                    ExcType::TypeError,
                    "set_global(): the name must be a string",
                ));
            };
            it.set_main_global(&name, value.clone());
            target.set_attr(&name, value);
            Ok(Value::None)
        }),
    );
}

/// `name()`: each operation `keep` picks, as `(op, device)`.
fn op_list(ns: &Rc<Module>, ops: &Rc<Vec<OpRun>>, name: &'static str, keep: fn(&OpRun) -> bool) {
    let all = ops.clone();
    ns.set_attr(
        name,
        Value::native_fn(name, move |_it, args| {
            no_args(name, &args)?;
            Ok(Value::list(
                all.iter()
                    .filter(|o| keep(o))
                    .map(|o| Value::tuple(vec![Value::str(&o.op), Value::str(&o.device)]))
                    .collect(),
            ))
        }),
    );
}

/// `name(op, device=None)`: how many times `op` ran where `on(run, device)` says.
fn op_count(
    ns: &Rc<Module>,
    ops: &Rc<Vec<OpRun>>,
    name: &'static str,
    on: fn(&OpRun, Option<&String>) -> bool,
) {
    let all = ops.clone();
    ns.set_attr(
        name,
        Value::native_fn(name, move |_it, args| {
            let (op, device) = op_and_device(name, args)?;
            let n = all
                .iter()
                .filter(|o| o.ran && o.op == op && on(o, device.as_ref()))
                .count();
            Ok(Value::Int(n as i64))
        }),
    );
}

/// One engine operation of the exercise's run, as the helpers see it.
struct OpRun {
    op: String,
    /// `cpu` or `cuda:N`.
    device: String,
    /// It ran (on the device or the host), possibly failing a device-side assert.
    ran: bool,
    /// The call raised on the host (an out-of-memory refusal, a device mismatch…).
    raised: bool,
    /// The exercise line that issued it.
    line: u32,
}

impl OpRun {
    /// Allocator bookkeeping (`alloc`, `free`) is not an operation the code asked for.
    fn of(e: &TimelineEntry) -> Option<OpRun> {
        if matches!(e.kind.name(), "alloc" | "free") {
            return None;
        }
        let device = match e.device {
            Some(d) if e.kind != "host" || e.status == "error" => format!("cuda:{d}"),
            _ => "cpu".to_string(),
        };
        Some(OpRun {
            op: e.op.clone(),
            device,
            ran: matches!(e.status.name(), "ok" | "assert"),
            raised: e.status == "error",
            line: e.line,
        })
    }
}

fn no_args(name: &str, args: &Args) -> PyResult<()> {
    if args.is_empty() {
        Ok(())
    } else {
        Err(PyException::new(
            ExcType::TypeError,
            format!("{name}() takes no arguments"),
        ))
    }
}

fn n_args<const N: usize>(name: &str, args: Args) -> PyResult<[Value; N]> {
    if !args.keywords.is_empty() {
        return Err(PyException::new(
            ExcType::TypeError,
            format!("{name}() takes no keyword arguments"),
        ));
    }
    let given = args.positional.len();
    <[Value; N]>::try_from(args.positional).map_err(|_| {
        PyException::new(
            ExcType::TypeError,
            format!("{name}() takes {N} arguments ({given} given)"),
        )
    })
}

fn two_args(name: &str, args: Args) -> PyResult<[Value; 2]> {
    n_args::<2>(name, args)
}

/// `(op, device)` from `ran_on_gpu('linear')` or `ran_on_gpu('linear', 'cuda:1')` (an int
/// index works too).
fn op_and_device(name: &str, mut args: Args) -> PyResult<(String, Option<String>)> {
    let device_kw = args.take_kw("device");
    if !args.keywords.is_empty() || args.positional.is_empty() || args.positional.len() > 2 {
        return Err(PyException::new(
            ExcType::TypeError,
            format!("{name}() takes an op name and optionally a device"),
        ));
    }
    let device = device_kw.or_else(|| args.positional.get(1).cloned());
    let op = args.positional[0]
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| {
            PyException::new(
                ExcType::TypeError,
                format!("{name}(): the op name must be a string"),
            )
        })?;
    let device = match device {
        None | Some(Value::None) => None,
        Some(Value::Int(i)) => Some(format!("cuda:{i}")),
        Some(v) => match v.as_str() {
            Some("cuda") => Some("cuda:0".into()),
            Some(s) => Some(s.to_string()),
            None => {
                return Err(PyException::new(
                    ExcType::TypeError,
                    format!("{name}(): the device must be a string such as 'cuda:1' or an index"),
                ));
            }
        },
    };
    Ok((op, device))
}

/// Numbers within `tol` of each other, or lists / tuples of them element by element.
fn plain_close(a: &Value, b: &Value, tol: f64, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    let seq = |v: &Value| -> Option<Vec<Value>> {
        match v {
            Value::List(l) => Some(l.borrow().iter().cloned().collect()),
            Value::Tuple(t) => Some(t.iter().cloned().collect()),
            _ => None,
        }
    };
    match (number(a), number(b)) {
        (Some(x), Some(y)) => (x - y).abs() <= tol,
        _ => match (seq(a), seq(b)) {
            (Some(x), Some(y)) => {
                x.len() == y.len()
                    && x.iter()
                        .zip(&y)
                        .all(|(p, q)| plain_close(p, q, tol, depth + 1))
            }
            _ => false,
        },
    }
}
