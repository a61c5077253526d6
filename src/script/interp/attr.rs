//! Attribute access: instances (properties, `__getattr__`, `__setattr__`), classes, modules,
//! natives, `super()`, and builtin values (methods come from `builtins::methods`).

use std::rc::Rc;

use super::super::errors::{Hint, PyException, PyResult};
use super::super::native::{Args, NativeCx};
use super::super::value::{ClassKind, Dict, Value};
use super::Interpreter;
use crate::script::ExcType;

impl Interpreter {
    /// `obj.name`, raising CPython's AttributeError when missing.
    pub fn getattr(&mut self, obj: &Value, name: &str) -> PyResult<Value> {
        match self.getattr_opt(obj, name)? {
            Some(v) => Ok(v),
            None => {
                // A user __getattr__ gets the last word (its own error message included).
                if let Value::Instance(i) = obj
                    && let Some(ga) = i.class.lookup_user("__getattr__")
                {
                    return self.call_bound(&ga, obj.clone(), Args::new(vec![Value::str(name)]));
                }
                Err(self.no_attribute(obj, name))
            }
        }
    }

    pub(crate) fn no_attribute(&self, obj: &Value, name: &str) -> PyException {
        let msg = match obj {
            Value::Module(m) => format!("module '{}' has no attribute '{name}'", m.name),
            Value::Class(c) => format!("type object '{}' has no attribute '{name}'", c.name),
            _ => format!("'{}' object has no attribute '{name}'", obj.type_name()),
        };
        let mut e = PyException::new(ExcType::AttributeError, msg);
        e.0.hint = Some(Box::new(Hint::Attr {
            obj: obj.clone(),
            name: name.to_string(),
        }));
        e
    }

    /// CPython's "Did you mean: 'x'?" for a printed NameError / AttributeError.
    pub(crate) fn suggestion(&mut self, hint: &Hint) -> Option<String> {
        let pick = |name: &str, names: &[String]| {
            super::super::suggest::suggest(name, names.iter().map(|s| s.as_str()))
                .map(|s| s.to_string())
        };
        let keys = |d: &Dict| -> Vec<String> {
            d.keys()
                .iter()
                .filter_map(|k| k.as_str().map(|s| s.to_string()))
                .collect()
        };
        match hint {
            Hint::Name {
                name,
                locals,
                globals,
            } => {
                let locals: Vec<String> = locals.iter().map(|s| s.to_string()).collect();
                pick(name, &locals)
                    .or_else(|| pick(name, &keys(&globals.borrow())))
                    .or_else(|| pick(name, &keys(&self.builtins.borrow())))
            }
            Hint::Attr { obj, name } => {
                let mut names = self.dir_names(obj);
                names.sort();
                names.dedup();
                pick(name, &names)
            }
        }
    }

    /// The attribute names `dir(obj)` lists.
    pub(crate) fn dir_names(&mut self, obj: &Value) -> Vec<String> {
        let keys = |d: &Dict| -> Vec<String> {
            d.keys()
                .iter()
                .filter_map(|k| k.as_str().map(|s| s.to_string()))
                .collect()
        };
        let mut names = Vec::new();
        match obj {
            Value::Instance(i) => {
                names.extend(keys(&i.dict.borrow()));
                names.extend(keys(&i.class.dict.borrow()));
                for c in &i.class.mro {
                    names.extend(keys(&c.dict.borrow()));
                }
            }
            Value::Class(c) => {
                names.extend(keys(&c.dict.borrow()));
                for b in &c.mro {
                    names.extend(keys(&b.dict.borrow()));
                }
            }
            Value::Module(m) => {
                let m = m.clone();
                self.load_lazy_package(&m);
                names.extend(keys(&m.dict.borrow()))
            }
            Value::Native(n) => names.extend(n.dir()),
            v => names.extend(
                super::super::builtins::methods::method_names(v)
                    .iter()
                    .map(|s| s.to_string()),
            ),
        }
        names
    }

    /// `obj.name` or `Ok(None)` when there is no such attribute (`hasattr`, `getattr(o, n, d)`).
    /// Instances' `__getattr__` is consulted; an AttributeError it raises means "missing".
    pub(crate) fn getattr_opt(&mut self, obj: &Value, name: &str) -> PyResult<Option<Value>> {
        match obj {
            Value::Instance(inst) => {
                match name {
                    "__dict__" => return Ok(Some(Value::Dict(inst.dict.clone()))),
                    "__class__" => return Ok(Some(Value::Class(inst.class.clone()))),
                    "__cause__" | "__context__" | "__suppress_context__"
                        if inst.class.is_exception =>
                    {
                        return Ok(Some(Self::exc_chain_attr(inst, name)));
                    }
                    _ => {}
                }
                let cattr = inst.class.lookup(name);
                if let Some(Value::Property(p)) = &cattr {
                    let fget = p.fget.clone();
                    return self.call(&fget, Args::new(vec![obj.clone()])).map(Some);
                }
                if let Some(v) = inst.dict.borrow().get_str(name) {
                    return Ok(Some(v.clone()));
                }
                // A dict/list subclass: the builtin's methods come after the subclasses' own
                // and before `object`'s.
                if let Some(base) = &inst.base
                    && inst.class.lookup_user(name).is_none()
                    && let Some(m) = self.subclass_builtin_attr(obj, base, name)
                {
                    return Ok(Some(m));
                }
                if let Some(a) = cattr {
                    return Ok(Some(self.bind(a, obj.clone())));
                }
                if let Some(ga) = inst.class.lookup_user("__getattr__") {
                    return match self.call_bound(
                        &ga,
                        obj.clone(),
                        Args::new(vec![Value::str(name)]),
                    ) {
                        Ok(v) => Ok(Some(v)),
                        Err(e) if e.kind() == Some(ExcType::AttributeError) => Ok(None),
                        Err(e) => Err(e),
                    };
                }
                Ok(None)
            }
            Value::Class(c) => {
                match name {
                    "__name__" | "__qualname__" => return Ok(Some(Value::str(&c.name))),
                    "__module__" => return Ok(Some(Value::Str(c.module_name().into()))),
                    "__bases__" => {
                        return Ok(Some(Value::tuple(
                            c.bases.iter().map(|b| Value::Class(b.clone())).collect(),
                        )));
                    }
                    "__mro__" => {
                        let mut v = vec![Value::Class(c.clone())];
                        v.extend(c.mro.iter().map(|b| Value::Class(b.clone())));
                        return Ok(Some(Value::tuple(v)));
                    }
                    "__dict__" => return Ok(Some(Value::dict(c.dict.borrow().clone()))),
                    _ => {}
                }
                if let ClassKind::Builtin(_) = c.kind {
                    // `str.upper`, `dict.fromkeys` …: an unbound builtin method.
                    if let Some(v) = super::super::builtins::methods::unbound_builtin(self, c, name)
                    {
                        return Ok(Some(v));
                    }
                }
                // `Config.keys`, `Batch.append` of a dict/list subclass: the builtin's unbound
                // method unless a class before it in the MRO defines the name.
                if c.kind == ClassKind::User
                    && c.lookup_user(name).is_none()
                    && let Some(t) = super::builtin_subclass::builtin_base_type(c)
                {
                    if name == "fromkeys" && t == super::super::value::BuiltinType::Dict {
                        return Ok(Some(super::builtin_subclass::subclass_fromkeys(c.clone())));
                    }
                    let builtin = self.types.get(t);
                    if let Some(v) =
                        super::super::builtins::methods::unbound_builtin(self, &builtin, name)
                    {
                        return Ok(Some(v));
                    }
                }
                Ok(c.lookup(name).map(|a| match a {
                    Value::StaticMethod(inner) => (*inner).clone(),
                    Value::ClassMethod(_) => self.bind(a, obj.clone()),
                    other => other,
                }))
            }
            Value::Module(m) => match m.get_attr(name) {
                Some(v) => Ok(Some(v)),
                None => {
                    let m = m.clone();
                    self.module_attr_missing(&m, name)
                }
            },
            Value::Native(n) => {
                let n = n.clone();
                if let Some(v) = n.getattr(NativeCx::new(&n, self), name)? {
                    return Ok(Some(v));
                }
                match name {
                    "__class__" => {
                        let c = self.type_of(obj);
                        Ok(Some(Value::Class(c)))
                    }
                    _ => {
                        // Methods defined on the native class from Python (rare, but cheap).
                        let c = self.type_of(obj);
                        Ok(c.lookup(name).map(|a| self.bind(a, obj.clone())))
                    }
                }
            }
            Value::Super(s) => {
                let (cls, inst) = (&s.0, &s.1);
                let t = self.type_of(inst);
                let mut after = false;
                let mut chain = vec![t.clone()];
                chain.extend(t.mro.iter().cloned());
                for c in chain {
                    if after {
                        // `super().__setitem__(k, v)` in a dict/list subclass: the builtin's.
                        if let ClassKind::Builtin(_) = c.kind
                            && let Some(base) = super::builtin_subclass::base_of(inst)
                        {
                            if let Some(m) = self.subclass_builtin_attr(inst, &base, name) {
                                return Ok(Some(m));
                            }
                            continue;
                        }
                        let found = c.dict.borrow().get_str(name).cloned();
                        if let Some(a) = found {
                            if let Value::Property(p) = &a {
                                let fget = p.fget.clone();
                                return self.call(&fget, Args::new(vec![inst.clone()])).map(Some);
                            }
                            return Ok(Some(self.bind(a, inst.clone())));
                        }
                    }
                    if Rc::ptr_eq(&c, cls) {
                        after = true;
                    }
                }
                Ok(None)
            }
            Value::Function(f) => Ok(match name {
                // Assigned attributes first: `functools.wraps` sets __name__, __doc__, ...
                _ if f
                    .attrs
                    .borrow()
                    .as_ref()
                    .is_some_and(|d| d.contains_str(name)) =>
                {
                    f.attrs
                        .borrow()
                        .as_ref()
                        .and_then(|d| d.get_str(name).cloned())
                }
                "__dict__" => {
                    let mut a = f.attrs.borrow_mut();
                    let d = a.get_or_insert_with(Default::default);
                    Some(Value::dict(d.clone()))
                }
                // Created empty on first access, as CPython does.
                "__annotations__" => {
                    let mut a = f.attrs.borrow_mut();
                    let d = a.get_or_insert_with(Default::default);
                    if !d.contains_str("__annotations__") {
                        d.set_str("__annotations__", Value::dict(Dict::new()));
                    }
                    d.get_str("__annotations__").cloned()
                }
                "__defaults__" => Some(if f.defaults.is_empty() {
                    Value::None
                } else {
                    Value::tuple(f.defaults.clone())
                }),
                "__name__" => Some(Value::str(&f.name)),
                "__qualname__" => Some(Value::str(&f.qualname)),
                "__doc__" => Some(match &self.function_code(f)?.doc {
                    Some(d) => Value::Str(d.into()),
                    None => Value::None,
                }),
                "__module__" => f.globals.borrow().get_str("__name__").cloned(),
                _ => f
                    .attrs
                    .borrow()
                    .as_ref()
                    .and_then(|d| d.get_str(name).cloned()),
            }),
            Value::NativeFn(f) => Ok(match name {
                "__name__" | "__qualname__" => Some(Value::str(&f.name)),
                _ => None,
            }),
            Value::BoundMethod(m) => Ok(match name {
                "__self__" => Some(m.receiver.clone()),
                "__func__" => Some(m.func.clone()),
                _ => return self.getattr_opt(&m.func.clone(), name),
            }),
            Value::Property(p) => Ok(match name {
                "setter" => {
                    let fget = p.fget.clone();
                    Some(Value::native_fn("setter", move |_it, args| {
                        let fset = args.positional.first().cloned().unwrap_or(Value::None);
                        Ok(Value::Property(Rc::new(super::super::value::Property {
                            fget: fget.clone(),
                            fset,
                        })))
                    }))
                }
                "fget" => Some(p.fget.clone()),
                "fset" => Some(p.fset.clone()),
                _ => None,
            }),
            Value::Slice(s) => Ok(match name {
                "start" => Some(s[0].clone()),
                "stop" => Some(s[1].clone()),
                "step" => Some(s[2].clone()),
                _ => None,
            }),
            Value::Range(r) => Ok(match name {
                "start" => Some(super::super::bigint::from_i128(r.start)),
                "stop" => Some(super::super::bigint::from_i128(r.stop)),
                "step" => Some(super::super::bigint::from_i128(r.step)),
                _ => super::super::builtins::methods::builtin_attr(self, obj, name),
            }),
            _ => {
                if name == "__class__" {
                    let c = self.type_of(obj);
                    return Ok(Some(Value::Class(c)));
                }
                Ok(
                    super::super::builtins::methods::builtin_attr(self, obj, name)
                        .or_else(|| self.builtin_dunder(obj, name)),
                )
            }
        }
    }

    /// `obj.name = v`.
    pub fn setattr(&mut self, obj: &Value, name: &str, v: Value) -> PyResult<()> {
        match obj {
            Value::Instance(inst) => {
                if let Some(sa) = inst.class.lookup_user("__setattr__") {
                    self.call_bound(&sa, obj.clone(), Args::new(vec![Value::str(name), v]))?;
                    return Ok(());
                }
                self.object_setattr(obj, name, v)
            }
            Value::Class(c) => {
                let old = c.dict.borrow_mut().set_str(name, v);
                drop(old);
                Ok(())
            }
            Value::Module(m) => {
                self.settle_deferred_before_rebind(&m.dict)?;
                let old = m.dict.borrow_mut().set_str(name, v);
                drop(old);
                Ok(())
            }
            Value::Native(n) => {
                let n = n.clone();
                if n.setattr(NativeCx::new(&n, self), name, v)? {
                    Ok(())
                } else {
                    Err(PyException::new(
                        ExcType::AttributeError,
                        format!("'{}' object has no attribute '{name}'", n.type_name()),
                    ))
                }
            }
            Value::Function(f) => {
                let mut a = f.attrs.borrow_mut();
                let d = a.get_or_insert_with(Default::default);
                let old = d.set_str(name, v);
                drop(a);
                drop(old);
                Ok(())
            }
            _ => Err(PyException::new(
                ExcType::AttributeError,
                format!("'{}' object has no attribute '{name}'", obj.type_name()),
            )),
        }
    }

    /// `object.__setattr__(self, name, v)`: properties with setters, else the instance dict.
    pub(crate) fn object_setattr(&mut self, obj: &Value, name: &str, v: Value) -> PyResult<()> {
        let Value::Instance(inst) = obj else {
            return self.setattr(obj, name, v);
        };
        if inst.class.is_exception
            && matches!(name, "__cause__" | "__context__" | "__suppress_context__")
        {
            return self.set_exc_chain_attr(obj, name, v);
        }
        if let Some(Value::Property(p)) = inst.class.lookup(name) {
            if p.fset.is_none() {
                return Err(PyException::new(
                    ExcType::AttributeError,
                    format!(
                        "property '{name}' of '{}' object has no setter",
                        inst.class.name
                    ),
                ));
            }
            let fset = p.fset.clone();
            self.call(&fset, Args::new(vec![obj.clone(), v]))?;
            return Ok(());
        }
        let old = inst.dict.borrow_mut().set_str(name, v);
        drop(old);
        Ok(())
    }

    /// `del obj.name`.
    pub(crate) fn delattr(&mut self, obj: &Value, name: &str) -> PyResult<()> {
        let removed = match obj {
            Value::Instance(inst) => {
                if let Some(da) = inst.class.lookup_user("__delattr__") {
                    self.call_bound(&da, obj.clone(), Args::new(vec![Value::str(name)]))?;
                    return Ok(());
                }
                inst.dict.borrow_mut().remove_str(name)
            }
            Value::Class(c) => c.dict.borrow_mut().remove_str(name),
            Value::Module(m) => {
                self.settle_deferred_before_rebind(&m.dict)?;
                m.dict.borrow_mut().remove_str(name)
            }
            _ => None,
        };
        match removed {
            Some(v) => {
                drop(v);
                Ok(())
            }
            None => Err(self.no_attribute(obj, name)),
        }
    }
}
