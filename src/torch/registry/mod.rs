//! One implementation per PyTorch schema name.
//!
//! An implementation is a plain function of the bound arguments ([`Parsed`]); it is
//! registered once, under the name PyTorch's signature table uses (`("softmax",
//! softmax_impl)`). Every way a script reaches that name — `torch.softmax`, `Tensor.softmax`,
//! `torch._C._nn.softmax` where PyTorch has one — binds its arguments with *its own*
//! PyTorch signature (src/torch/signatures/*.sig, see torch::argparse), so argument errors
//! are PyTorch's, and reaches the same function. A method's receiver is its `input`.
//! `out=` follows from the table: where the matched overload has an `out` parameter and the
//! call passes one, the result is written into it.
//!
//! Names the engine does not implement are simply not registered: `torch.X` stays absent and
//! `t.X` stays the AttributeError it is.
//!
//! Adding a binding: write `fn my_op(it, rt, a: &Parsed) -> PyResult<Value>` in the group
//! file it belongs to and add `r.add("my_op", my_op)` to that file's `register`. Generic
//! entries (every unary op from one list) use `r.add_boxed` with a closure.

mod binary;
mod blas;
mod math;

use super::argparse::{Namespace, Parsed, declares, parser};
use super::{at_line, wrap};
use crate::engine::{Runtime, Tensor};
use crate::script::{Args, Interpreter, Module, PyResult, Value};
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::OnceLock;

/// What a registered implementation is.
pub(super) type Impl =
    Box<dyn Fn(&mut Interpreter, &Rc<Runtime>, &Parsed) -> PyResult<Value> + Send + Sync>;

#[derive(Default)]
pub(super) struct Registry {
    impls: HashMap<&'static str, Impl>,
}

impl Registry {
    /// Registers `f` under PyTorch's name `name`. (The groups migrated so far are families
    /// registered from lists; plain functions are the next groups' entry point.)
    #[allow(dead_code)]
    pub(super) fn add(
        &mut self,
        name: &'static str,
        f: fn(&mut Interpreter, &Rc<Runtime>, &Parsed) -> PyResult<Value>,
    ) {
        self.impls.insert(name, Box::new(f));
    }

    /// A generic entry (a closure over an op code, for families registered from a list).
    pub(super) fn add_boxed(&mut self, name: &'static str, f: Impl) {
        self.impls.insert(name, f);
    }

    fn get(&self, name: &str) -> Option<&Impl> {
        self.impls.get(name)
    }
}

fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        let mut r = Registry::default();
        math::register(&mut r);
        binary::register(&mut r);
        blas::register(&mut r);
        r
    })
}

/// The names a namespace binds through the registry (registered and declared by PyTorch).
pub(super) fn bound_names(ns: Namespace) -> Vec<&'static str> {
    let mut v: Vec<&'static str> = registry()
        .impls
        .keys()
        .copied()
        .filter(|n| declares(ns, n))
        .collect();
    v.sort_unstable();
    v
}

/// Runs `name` for a call of `ns.name`: binds with that namespace's signature, runs the one
/// implementation, honours `out=`.
fn dispatch(
    it: &mut Interpreter,
    rt: &Rc<Runtime>,
    ns: Namespace,
    name: &str,
    receiver: Option<Value>,
    args: Args,
) -> PyResult<Option<Value>> {
    let (Some(f), Some(p)) = (registry().get(name), parser(ns, name)) else {
        return Ok(None);
    };
    at_line(rt, it);
    let mut parsed = p.parse(&args.positional, &args.keywords)?;
    if let Some(this) = receiver {
        parsed = parsed.with_receiver(this);
    }
    let r = f(it, rt, &parsed)?;
    match parsed.value("out").filter(|_| parsed.declares("out")) {
        Some(out) => {
            let out = out.clone();
            match r.downcast::<super::PyTensor>() {
                Some(res) => {
                    let res = res.t.borrow().clone();
                    super::functions::write_out(rt, Some(&out), res).map(Some)
                }
                None => Ok(Some(r)),
            }
        }
        None => Ok(Some(r)),
    }
}

/// Adds every registered function PyTorch declares in `ns` to module `m`.
pub(super) fn install_functions(m: &Module, rt: &Rc<Runtime>, ns: Namespace) {
    for name in bound_names(ns) {
        let rt = rt.clone();
        m.add_fn(name, move |it, args| {
            dispatch(it, &rt, ns, name, None, args).map(|v| v.unwrap_or(Value::None))
        });
    }
}

/// Whether `t.name` is a registered method (a table lookup; no closure is built).
pub(super) fn is_method(name: &str) -> bool {
    registry().get(name).is_some() && declares(Namespace::Tensor, name)
}

/// `t.name(*args)` through the registry; `Ok(None)` when `name` is not a registered method.
pub(super) fn call_method(
    it: &mut Interpreter,
    rt: &Rc<Runtime>,
    this: Value,
    name: &str,
    args: Args,
) -> PyResult<Option<Value>> {
    dispatch(it, rt, Namespace::Tensor, name, Some(this), args)
}

/// A tensor result, wrapped.
pub(crate) fn tensor_value(rt: &Rc<Runtime>, t: crate::engine::Result<Tensor>) -> PyResult<Value> {
    Ok(wrap(rt, t.map_err(super::py_err)?))
}

/// The receiver of an in-place op (`input`: `t` of `t.exp_()`, the first argument of
/// `torch.exp_(t)`) given `r`, its new handle (the same storage, the op's autograd history):
/// the Python object stays the one the script holds, as PyTorch returns `self`.
pub(crate) fn inplace_value(a: &Parsed, r: crate::engine::Result<Tensor>) -> PyResult<Value> {
    let t = r.map_err(super::py_err)?;
    let this = a.value("input").cloned().unwrap_or_default();
    if let Some(p) = this.downcast::<super::PyTensor>() {
        *p.t.borrow_mut() = t;
    }
    Ok(this)
}
