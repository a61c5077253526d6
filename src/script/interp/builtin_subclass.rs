//! Subclasses of the builtin `dict` and `list` (`class Config(dict)`, `class Batch(list)`).
//!
//! An instance is an ordinary [`Instance`] (its class, its `__dict__` of attributes) whose
//! items live in a builtin dict or list, [`Instance::base`]. Operators and protocols look at
//! the class first (a subclass's `__getitem__`, `__repr__`, …) and otherwise act on the base,
//! as CPython's inherited slots do. The builtin methods (`d.update`, `xs.append`, `d.copy`)
//! act on the base directly, so, as in CPython, they never call an overridden `__setitem__`,
//! and `copy()` gives a plain dict or list. `__missing__` is consulted by `dict.__getitem__`
//! only (`d[k]`, `d.__getitem__(k)`, `super().__getitem__(k)`), never by `get`/`pop`.

use std::rc::Rc;

use super::super::builtins::methods::{call_builtin_method, method_names};
use super::super::errors::{PyException, PyResult};
use super::super::native::Args;
use super::super::value::{BuiltinType, Class, ClassKind, Dict, Instance, Value};
use super::Interpreter;
use crate::script::ExcType;

/// The builtin type (dict or list) that `c` derives from, if any.
pub(crate) fn builtin_base_type(c: &Class) -> Option<BuiltinType> {
    std::iter::once(c)
        .chain(c.mro.iter().map(|b| &**b))
        .find_map(|b| match b.kind {
            ClassKind::Builtin(t @ (BuiltinType::Dict | BuiltinType::List)) => Some(t),
            _ => None,
        })
}

/// A new instance of `c` (with an empty dict or list as its base when `c` derives from one):
/// what `object.__new__(c)` and calling the class make before `__init__` runs.
pub(crate) fn new_instance(c: &Rc<Class>) -> Instance {
    let mut inst = Instance::new(c.clone());
    inst.base = match builtin_base_type(c) {
        Some(BuiltinType::Dict) => Some(Value::dict(Dict::new())),
        Some(_) => Some(Value::list(Vec::new())),
        None => None,
    };
    inst
}

/// The base of a dict/list subclass instance.
pub(crate) fn base_of(v: &Value) -> Option<Value> {
    match v {
        Value::Instance(i) => i.base.clone(),
        _ => None,
    }
}

/// `v`'s base when `v` is a dict/list subclass instance whose class does not define
/// `dunder` itself (so the builtin's slot answers), else None.
pub(crate) fn inherited_base(v: &Value, dunder: &str) -> Option<Value> {
    match v {
        Value::Instance(i) if i.class.lookup_user(dunder).is_none() => i.base.clone(),
        _ => None,
    }
}

/// Operands for a builtin operator: each dict/list subclass instance replaced by its base,
/// unless some operand's class defines one of `dunders` (then its method has spoken, or
/// must: nothing is replaced). None when nothing would change.
pub(crate) fn operands_as_builtins(
    a: &Value,
    b: &Value,
    dunders: &[&str],
) -> Option<(Value, Value)> {
    let overrides = |v: &Value| match v {
        Value::Instance(i) => dunders.iter().any(|d| i.class.lookup_user(d).is_some()),
        _ => false,
    };
    if overrides(a) || overrides(b) {
        return None;
    }
    let (ba, bb) = (base_of(a), base_of(b));
    if ba.is_none() && bb.is_none() {
        return None;
    }
    Some((
        ba.unwrap_or_else(|| a.clone()),
        bb.unwrap_or_else(|| b.clone()),
    ))
}

/// Does a dict/list subclass instance with this base have the builtin attribute `name`?
pub(crate) fn has_builtin(it: &Interpreter, base: &Value, name: &str) -> bool {
    name == "__init__"
        || method_names(base).contains(&name)
        || it.builtin_dunder(base, name).is_some()
}

impl Interpreter {
    /// `obj.name` for a builtin method or slot of a dict/list subclass instance (`d.items`,
    /// `xs.append`, `d.__getitem__`); None when the builtin has no such attribute.
    pub(crate) fn subclass_builtin_attr(
        &self,
        obj: &Value,
        base: &Value,
        name: &str,
    ) -> Option<Value> {
        has_builtin(self, base, name)
            .then(|| Value::BuiltinMethod(Rc::new((obj.clone(), name.into()))))
    }

    /// Call the builtin `name` of a dict/list subclass instance on its base. `Ok(None)`: the
    /// builtin has no such method.
    pub(crate) fn call_subclass_builtin_method(
        &mut self,
        obj: &Value,
        base: &Value,
        name: &str,
        mut args: Args,
    ) -> PyResult<Option<Value>> {
        match name {
            "__init__" => {
                self.init_builtin_base(base, args)?;
                return Ok(Some(Value::None));
            }
            "__getitem__" if matches!(base, Value::Dict(_)) => {
                let a = args.exact("__getitem__", 1)?;
                return self.subclass_dict_getitem(obj, base, &a[0]).map(Some);
            }
            _ => {}
        }
        if method_names(base).contains(&name) {
            // `xs.extend(xs)` / `d.update(d)`: the instance itself as the argument is its
            // items, read before they change (CPython's list.extend snapshots itself too).
            for a in args.positional.iter_mut() {
                if a.is(obj) {
                    *a = base.clone();
                }
            }
            return call_builtin_method(self, base, name, args);
        }
        match self.builtin_dunder(base, name) {
            Some(f) => self.call(&f, args).map(Some),
            None => Ok(None),
        }
    }

    /// `dict.__init__(self, *args, **kwargs)` (an update) and `list.__init__(self,
    /// iterable=())` (clear, then extend) on a subclass instance's base.
    fn init_builtin_base(&mut self, base: &Value, args: Args) -> PyResult<()> {
        match base {
            Value::Dict(_) => {
                if args.positional.len() > 1 {
                    return Err(PyException::type_error(format!(
                        "dict expected at most 1 argument, got {}",
                        args.positional.len()
                    )));
                }
                call_builtin_method(self, base, "update", args)?;
                Ok(())
            }
            Value::List(_) => {
                if !args.keywords.is_empty() {
                    return Err(PyException::type_error("list() takes no keyword arguments"));
                }
                let a = args.range("list", 0, 1)?;
                call_builtin_method(self, base, "clear", Args::default())?;
                if let Some(x) = a.first() {
                    call_builtin_method(self, base, "extend", Args::new(vec![x.clone()]))?;
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// `dict.__getitem__` of a subclass instance: a missing key goes to the class's
    /// `__missing__` when it defines one (what defaultdict and Counter are built on).
    pub(crate) fn subclass_dict_getitem(
        &mut self,
        obj: &Value,
        base: &Value,
        key: &Value,
    ) -> PyResult<Value> {
        match self.getitem(base, key) {
            Err(e) if e.kind() == Some(ExcType::KeyError) => {
                if let Value::Instance(i) = obj
                    && let Some(m) = i.class.lookup_user("__missing__")
                {
                    return self.call_bound(&m, obj.clone(), Args::new(vec![key.clone()]));
                }
                Err(e)
            }
            r => r,
        }
    }

    /// `obj[key]` for a subclass instance whose class does not define `__getitem__`.
    pub(crate) fn subclass_getitem(
        &mut self,
        obj: &Value,
        base: &Value,
        key: &Value,
    ) -> PyResult<Value> {
        match base {
            Value::Dict(_) => self.subclass_dict_getitem(obj, base, key),
            _ => self.getitem(base, key),
        }
    }
}

/// `Cls.fromkeys(iterable, value=None)` of a dict subclass: an instance of `Cls` (made by
/// calling it), filled with item assignment as CPython's dict.fromkeys fills a subclass.
pub(crate) fn subclass_fromkeys(cls: Rc<Class>) -> Value {
    Value::native_fn("fromkeys", move |it, args| {
        let a = args.range("fromkeys", 1, 2)?;
        let value = a.get(1).cloned().unwrap_or(Value::None);
        let d = it.call(&Value::Class(cls.clone()), Args::default())?;
        for k in it.iterate(&a[0])? {
            it.setitem(&d, &k, value.clone())?;
        }
        Ok(d)
    })
}
