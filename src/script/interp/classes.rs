//! Classes: builtin type objects, class creation (C3 MRO), the exception hierarchy, native
//! classes for the bindings, and exception matching.

use std::cell::RefCell;
use std::rc::Rc;

use super::super::errors::TraceEntry;
use super::super::errors::{Payload, PyException, PyResult};
use super::super::native::Args;
use super::super::value::{BuiltinType, Class, ClassKind, Dict, ExcChain, Instance, Value};
use super::Interpreter;
use crate::script::ExcType;

/// The class objects of the builtin types (`int`, `list`, …) and `object`.
pub(crate) struct Types {
    pub object: Rc<Class>,
    pub builtin: Vec<(BuiltinType, Rc<Class>)>,
}

fn raw_class(
    name: &str,
    module: &str,
    bases: Vec<Rc<Class>>,
    kind: ClassKind,
    is_exception: bool,
) -> Rc<Class> {
    let mro = c3(&bases).unwrap_or_else(|| bases.clone());
    Rc::new(Class {
        name: name.into(),
        module: module.into(),
        bases,
        mro,
        dict: RefCell::new(Dict::new()),
        kind,
        is_exception,
        ctor: RefCell::new(None),
    })
}

/// C3 linearisation of the bases (the MRO after the class itself); None if inconsistent.
fn c3(bases: &[Rc<Class>]) -> Option<Vec<Rc<Class>>> {
    let mut seqs: Vec<Vec<Rc<Class>>> = bases
        .iter()
        .map(|b| {
            let mut v = vec![b.clone()];
            v.extend(b.mro.iter().cloned());
            v
        })
        .collect();
    seqs.push(bases.to_vec());
    let mut out: Vec<Rc<Class>> = Vec::new();
    loop {
        seqs.retain(|s| !s.is_empty());
        if seqs.is_empty() {
            return Some(out);
        }
        let mut pick = None;
        for s in &seqs {
            let cand = &s[0];
            if !seqs
                .iter()
                .any(|t| t[1..].iter().any(|x| Rc::ptr_eq(x, cand)))
            {
                pick = Some(cand.clone());
                break;
            }
        }
        let c = pick?;
        for s in &mut seqs {
            if Rc::ptr_eq(&s[0], &c) {
                s.remove(0);
            }
        }
        out.push(c);
    }
}

impl Types {
    pub(crate) fn new() -> Types {
        let object = raw_class("object", "builtins", Vec::new(), ClassKind::Object, false);
        let mut builtin = Vec::new();
        use BuiltinType as B;
        let all = [
            B::NoneType,
            B::Int,
            B::Float,
            B::Str,
            B::List,
            B::Tuple,
            B::Dict,
            B::Set,
            B::Range,
            B::Slice,
            B::Function,
            B::BuiltinFunction,
            B::Method,
            B::Type,
            B::Module,
            B::Iterator,
            B::Super,
            B::StaticMethod,
            B::ClassMethod,
            B::Property,
            B::Ellipsis,
            B::NotImplementedType,
        ];
        for t in all {
            let c = raw_class(
                super::super::value::builtin_type_name(t),
                "builtins",
                vec![object.clone()],
                ClassKind::Builtin(t),
                false,
            );
            builtin.push((t, c));
        }
        let int = builtin
            .iter()
            .find(|(t, _)| *t == B::Int)
            .map(|(_, c)| c.clone());
        if let Some(int) = int {
            let b = raw_class(
                "bool",
                "builtins",
                vec![int],
                ClassKind::Builtin(B::Bool),
                false,
            );
            builtin.push((B::Bool, b));
        }
        Types { object, builtin }
    }
    pub(crate) fn get(&self, t: BuiltinType) -> Rc<Class> {
        self.builtin
            .iter()
            .find(|(x, _)| *x == t)
            .map(|(_, c)| c.clone())
            .unwrap_or_else(|| self.object.clone())
    }
}

impl Default for Types {
    fn default() -> Self {
        Types::new()
    }
}

/// An exception's `args`, and the attributes CPython derives from them: `SystemExit.code`
/// (None, the one argument, or the tuple) and `StopIteration.value` (None or the first).
pub(crate) fn set_exc_args(inst: &Instance, args: Vec<Value>) {
    let derived =
        |name: &str| &*inst.class.name == name || inst.class.mro.iter().any(|c| &*c.name == name);
    let mut d = inst.dict.borrow_mut();
    if derived("SystemExit") {
        let code = match args.len() {
            0 => Value::None,
            1 => args[0].clone(),
            _ => Value::tuple(args.clone()),
        };
        d.set_str("code", code);
    } else if derived("StopIteration") {
        d.set_str("value", args.first().cloned().unwrap_or(Value::None));
    }
    d.set_str("args", Value::tuple(args));
}

pub(crate) fn install_exceptions(it: &mut Interpreter) {
    let base = raw_class(
        "BaseException",
        "builtins",
        vec![it.types.object.clone()],
        ClassKind::User,
        true,
    );
    {
        let mut d = base.dict.borrow_mut();
        d.set_str(
            "__init__",
            Value::native_fn("__init__", |_it, args| {
                if let Some(Value::Instance(i)) = args.positional.first() {
                    set_exc_args(i, args.positional[1..].to_vec());
                }
                Ok(Value::None)
            }),
        );
        d.set_str(
            "__str__",
            Value::native_fn("__str__", |it, args| {
                let Some(Value::Instance(i)) = args.positional.first() else {
                    return Ok(Value::str(""));
                };
                if let Some(m) = i.dict.borrow().get_str("__msg__") {
                    return Ok(m.clone());
                }
                let a = i.dict.borrow().get_str("args").cloned();
                let items = a.and_then(|a| a.as_vec()).unwrap_or_default();
                let s = match items.len() {
                    0 => String::new(),
                    1 => {
                        if &*i.class.name == "KeyError"
                            || i.class.mro.iter().any(|c| &*c.name == "KeyError")
                        {
                            it.repr(&items[0])?
                        } else {
                            it.str(&items[0])?
                        }
                    }
                    _ => it.repr(&Value::tuple(items))?,
                };
                Ok(Value::string(s))
            }),
        );
        d.set_str(
            "__repr__",
            Value::native_fn("__repr__", |it, args| {
                let Some(Value::Instance(i)) = args.positional.first() else {
                    return Ok(Value::str(""));
                };
                let a = i.dict.borrow().get_str("args").cloned();
                let items = a.and_then(|a| a.as_vec()).unwrap_or_default();
                let inner = match items.len() {
                    1 => it.repr(&items[0])?,
                    _ => {
                        let t = it.repr(&Value::tuple(items))?;
                        t.trim_start_matches('(')
                            .trim_end_matches(')')
                            .trim_end_matches(',')
                            .to_string()
                    }
                };
                Ok(Value::string(format!("{}({inner})", i.class.name)))
            }),
        );
    }
    it.exc_classes.insert("BaseException".into(), base.clone());
    // The builtins, each after its base (ExcType::ALL's order); library exceptions (torch's,
    // numpy's) are made by `define_exception` when their module is installed.
    for kind in ExcType::ALL.iter().filter(|k| k.is_builtin()) {
        let Some(parent) = kind.base() else { continue };
        let p = it
            .exc_classes
            .get(parent.name())
            .cloned()
            .unwrap_or_else(|| base.clone());
        let c = raw_class(kind.name(), "builtins", vec![p], ClassKind::User, true);
        it.exc_classes.insert(kind.name().into(), c);
    }
}

impl Interpreter {
    /// `type(v)` as a class object.
    pub(crate) fn type_of(&mut self, v: &Value) -> Rc<Class> {
        match v {
            Value::Instance(i) => i.class.clone(),
            Value::Native(n) => {
                let name = n.type_name().to_string();
                match n.builtin_base() {
                    Some((module, base)) if !self.native_classes.contains_key(&name) => {
                        self.define_native_subclass_of(&name, module, base)
                    }
                    _ => self.native_class(&name),
                }
            }
            _ => match v.builtin_type() {
                Some(t) => self.types.get(t),
                None => self.types.object.clone(),
            },
        }
    }

    /// The class object standing for native objects whose `type_name()` is `name` (created on
    /// first use, subclass of `object`). Use it as `torch.Tensor`.
    pub fn native_class(&mut self, name: &str) -> Rc<Class> {
        if let Some(c) = self.native_classes.get(name) {
            return c.clone();
        }
        let c = raw_class(
            name,
            "torch",
            vec![self.types.object.clone()],
            ClassKind::Native,
            false,
        );
        self.native_classes.insert(name.to_string(), c.clone());
        c
    }

    /// Define (or redefine) a native class with native bases, e.g. `("Parameter", &["Tensor"])`,
    /// so `isinstance(p, torch.Tensor)` holds for a native whose type_name is "Parameter".
    pub(crate) fn define_native_class(&mut self, name: &str, bases: &[&str]) -> Rc<Class> {
        self.define_native_class_in(name, "torch", bases)
    }

    /// [`Interpreter::define_native_class`] with the class's `__module__` (what `type(x)`
    /// prints: `<class 'torch.nn.parameter.Parameter'>`, numpy's `<class 'numpy.ndarray'>`).
    pub(crate) fn define_native_class_in(
        &mut self,
        name: &str,
        module: &str,
        bases: &[&str],
    ) -> Rc<Class> {
        let mut bs: Vec<Rc<Class>> = bases.iter().map(|b| self.native_class(b)).collect();
        if bs.is_empty() {
            bs.push(self.types.object.clone());
        }
        let c = raw_class(name, module, bs, ClassKind::Native, false);
        self.native_classes.insert(name.to_string(), c.clone());
        c
    }

    /// A native class whose base is a builtin type (`torch.Size`, a tuple:
    /// `isinstance(t.shape, tuple)` holds as in PyTorch).
    pub(crate) fn define_native_subclass_of(
        &mut self,
        name: &str,
        module: &str,
        base: crate::script::value::BuiltinType,
    ) -> Rc<Class> {
        let b = self
            .types
            .builtin
            .iter()
            .find(|(t, _)| *t == base)
            .map(|(_, c)| c.clone())
            .unwrap_or_else(|| self.types.object.clone());
        let c = raw_class(name, module, vec![b], ClassKind::Native, false);
        self.native_classes.insert(name.to_string(), c.clone());
        c
    }

    /// What calling a native class does (`torch.Tensor(data)`), and class attributes.
    pub(crate) fn set_class_ctor(&mut self, class: &Rc<Class>, ctor: Value) {
        *class.ctor.borrow_mut() = Some(ctor);
    }

    /// Define a library's exception class (`torch.OutOfMemoryError`, `numpy.linalg.LinAlgError`)
    /// under its base, in its module; `PyException::new(kind, msg)` then raises it.
    pub fn define_exception(&mut self, kind: ExcType) -> Value {
        let b = match kind.base() {
            Some(base) => self.exc_class(base),
            None => self.types.object.clone(),
        };
        let c = raw_class(kind.name(), kind.module(), vec![b], ClassKind::User, true);
        self.exc_classes.insert(kind.name().to_string(), c.clone());
        Value::Class(c)
    }

    /// The class of an exception type (RuntimeError's if a library type is not defined yet).
    pub(crate) fn exc_class(&self, kind: ExcType) -> Rc<Class> {
        self.exc_classes
            .get(kind.name())
            .or_else(|| self.exc_classes.get("RuntimeError"))
            .cloned()
            .unwrap_or_else(|| self.types.object.clone())
    }

    pub(crate) fn new_exception_instance(&mut self, cls: &Rc<Class>, args: Vec<Value>) -> Value {
        let inst = Instance::new(cls.clone());
        set_exc_args(&inst, args);
        Value::Instance(Rc::new(inst))
    }

    /// The exception's instance, creating it from a lazy (type name, message) form.
    pub(crate) fn exc_value(&mut self, e: &mut PyException) -> Value {
        if let Payload::Lazy { kind, message } = &e.0.payload {
            let cls = self.exc_class(*kind);
            let args = if message.is_empty() {
                vec![]
            } else {
                vec![Value::str(message)]
            };
            let v = self.new_exception_instance(&cls, args);
            if let Value::Instance(i) = &v
                && &*cls.name == "KeyError"
            {
                i.dict.borrow_mut().set_str("__msg__", Value::str(message));
            }
            e.0.payload = Payload::Value(v);
        }
        match &e.0.payload {
            Payload::Value(v) => v.clone(),
            Payload::Lazy { .. } => Value::None,
        }
    }

    /// An exception instance's chain record (created on first use); None for other values.
    pub(crate) fn with_exc_chain<R>(v: &Value, f: impl FnOnce(&mut ExcChain) -> R) -> Option<R> {
        let Value::Instance(i) = v else { return None };
        if !i.class.is_exception {
            return None;
        }
        let mut b = i.exc.borrow_mut();
        Some(f(b.get_or_insert_with(Default::default)))
    }

    /// `e.__cause__` / `__context__` / `__suppress_context__` of an exception instance.
    pub(crate) fn exc_chain_attr(inst: &Instance, name: &str) -> Value {
        let b = inst.exc.borrow();
        match (b.as_deref(), name) {
            (Some(ch), "__cause__") => ch.cause.clone(),
            (Some(ch), "__context__") => ch.context.clone(),
            (Some(ch), "__suppress_context__") => Value::Bool(ch.suppress_context),
            (None, "__suppress_context__") => Value::Bool(false),
            _ => Value::None,
        }
    }

    /// Assigning `e.__cause__` / `__context__` / `__suppress_context__` (CPython's checks:
    /// setting a cause also suppresses the context).
    pub(crate) fn set_exc_chain_attr(&mut self, obj: &Value, name: &str, v: Value) -> PyResult<()> {
        let ok =
            matches!(&v, Value::None) || matches!(&v, Value::Instance(i) if i.class.is_exception);
        match name {
            "__cause__" | "__context__" if !ok => Err(PyException::type_error(format!(
                "exception {} must be None or derive from BaseException",
                if name == "__cause__" {
                    "cause"
                } else {
                    "context"
                }
            ))),
            "__cause__" => {
                Self::with_exc_chain(obj, |ch| {
                    ch.cause = v;
                    ch.suppress_context = true;
                });
                Ok(())
            }
            "__context__" => {
                Self::with_exc_chain(obj, |ch| ch.context = v);
                Ok(())
            }
            _ => {
                let b = self.truthy(&v)?;
                Self::with_exc_chain(obj, |ch| ch.suppress_context = b);
                Ok(())
            }
        }
    }

    /// An exception was caught: remember where it travelled (for printing it later as a cause
    /// or context), and if it was raised while another was being handled, chain that one as
    /// its `__context__`.
    pub(crate) fn exc_caught(&mut self, v: &Value, traceback: &[TraceEntry]) {
        Self::with_exc_chain(v, |ch| ch.traceback = traceback.to_vec());
        if let Some(ctx) = self.handled.last().cloned() {
            self.chain_context(v, &ctx);
        }
    }

    /// Implicit chaining: `v.__context__ = ctx` unless it has one, never to itself, and cutting
    /// a cycle through `ctx`'s own chain the way CPython does.
    pub(crate) fn chain_context(&mut self, v: &Value, ctx: &Value) {
        if v.is(ctx) {
            return;
        }
        let has = Self::with_exc_chain(v, |ch| !ch.context.is_none()).unwrap_or(true);
        if has {
            return;
        }
        let mut o = ctx.clone();
        for _ in 0..10_000 {
            let Value::Instance(i) = &o else { break };
            let next = match i.exc.borrow().as_deref() {
                Some(ch) => ch.context.clone(),
                None => Value::None,
            };
            if next.is_none() {
                break;
            }
            if next.is(v) {
                Self::with_exc_chain(&o, |ch| ch.context = Value::None);
                break;
            }
            o = next;
        }
        Self::with_exc_chain(v, |ch| ch.context = ctx.clone());
    }

    /// Does `except <typ>` catch `e`? `typ` is a class or a tuple of classes.
    pub(crate) fn exc_matches(&mut self, e: &PyException, typ: &Value) -> PyResult<bool> {
        match typ {
            Value::Tuple(t) => {
                for x in t.iter() {
                    if self.exc_matches(e, x)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            Value::Class(c) if c.is_exception => {
                let ec = match &e.0.payload {
                    Payload::Lazy { kind, .. } => self.exc_class(*kind),
                    Payload::Value(Value::Instance(i)) => i.class.clone(),
                    Payload::Value(_) => return Ok(false),
                };
                Ok(ec.is_subclass(c))
            }
            _ => Err(PyException::new(
                ExcType::TypeError,
                "catching classes that do not inherit from BaseException is not allowed",
            )),
        }
    }

    /// Create a class from a body namespace (what `class X(Base): ...` does).
    pub(crate) fn make_class(
        &mut self,
        name: &str,
        module: &str,
        bases: Vec<Value>,
        dict: Dict,
    ) -> PyResult<Rc<Class>> {
        let mut bs = Vec::new();
        for b in bases {
            match b {
                Value::Class(c) => {
                    // dict and list subclasses keep their items in a builtin base (see
                    // `builtin_subclass`); `type` subclasses are metaclass-free classes.
                    if let ClassKind::Builtin(t) = c.kind
                        && !matches!(t, BuiltinType::Type | BuiltinType::Dict | BuiltinType::List)
                    {
                        return Err(PyException::new(
                            ExcType::NotImplementedError,
                            format!(
                                "cudatutor does not support subclassing builtin type '{}'",
                                c.name
                            ),
                        ));
                    }
                    bs.push(c)
                }
                other => {
                    return Err(PyException::new(
                        ExcType::TypeError,
                        format!("bases must be types, not {}", other.type_name()),
                    ));
                }
            }
        }
        if bs.is_empty() {
            bs.push(self.types.object.clone());
        }
        // A dict's items and a list's cannot share one instance (nor can an exception's
        // state and either: CPython's "instance lay-out conflict").
        let mut layouts = bs
            .iter()
            .filter_map(|b| super::builtin_subclass::builtin_base_type(b));
        if let Some(first) = layouts.next()
            && (layouts.any(|t| t != first) || bs.iter().any(|b| b.is_exception))
        {
            return Err(PyException::type_error(
                "multiple bases have instance lay-out conflict",
            ));
        }
        let is_exc = bs.iter().any(|b| b.is_exception);
        let Some(mro) = c3(&bs) else {
            return Err(PyException::new(
                ExcType::TypeError,
                "Cannot create a consistent method resolution order (MRO)",
            ));
        };
        let kind = if bs.iter().any(|b| b.kind == ClassKind::Native) {
            ClassKind::Native
        } else {
            ClassKind::User
        };
        let cls = Rc::new(Class {
            name: name.into(),
            module: module.into(),
            bases: bs,
            mro,
            dict: RefCell::new(dict),
            kind,
            is_exception: is_exc,
            ctor: RefCell::new(None),
        });
        // Methods learn their class, for zero-argument super().
        for (_, v) in cls.dict.borrow().iter() {
            let f = match v {
                Value::Function(f) => Some(f.clone()),
                Value::StaticMethod(x) | Value::ClassMethod(x) => match &**x {
                    Value::Function(f) => Some(f.clone()),
                    _ => None,
                },
                Value::Property(p) => {
                    for g in [&p.fget, &p.fset] {
                        if let Value::Function(f) = g {
                            *f.owner.borrow_mut() = Some(Rc::downgrade(&cls));
                        }
                    }
                    None
                }
                _ => None,
            };
            if let Some(f) = f {
                *f.owner.borrow_mut() = Some(Rc::downgrade(&cls));
            }
        }
        Ok(cls)
    }

    /// `isinstance(v, cls)`.
    pub fn isinstance(&mut self, v: &Value, cls: &Class) -> bool {
        if cls.kind == ClassKind::Object {
            return true;
        }
        let t = self.type_of(v);
        t.is_subclass(cls)
    }

    /// Raise StopIteration-free helper for bindings: call `f(*args)`.
    pub(crate) fn call_simple(&mut self, f: &Value, args: Vec<Value>) -> PyResult<Value> {
        self.call(f, Args::new(args))
    }
}
