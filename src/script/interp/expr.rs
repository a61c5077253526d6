//! Expressions.

use std::rc::Rc;

use super::super::errors::{Hint, PyException, PyResult};
use super::super::ir::*;
use super::super::marks::Marks;
use super::super::native::Args;
use super::super::value::{BuiltinType, ClassKind, Dict, Value};
use super::Interpreter;
use super::stmt::{Frame, unbound_local};
use crate::script::ExcType;

enum CompOut {
    List(Vec<Value>),
    Set(Dict),
    Dict(Dict),
}

/// What a comprehension evaluates for each item (`value`: a dict comprehension's value).
struct CompBody<'e> {
    gens: &'e [CompFor],
    elt: &'e Expr,
    value: Option<&'e Expr>,
    marks: &'e Marks,
}

impl Interpreter {
    /// Evaluates `e`. The leaves most expressions are made of (a local, a constant) are
    /// answered here, inlined into the caller: going through [`Self::eval_node`]'s large frame
    /// (its prologue saves every register the big match uses) cost about 57 instructions per
    /// leaf (callgrind, `d[i] = i`), where the leaf itself takes a handful.
    #[inline]
    pub(crate) fn eval(&mut self, f: &mut Frame, e: &Expr) -> PyResult<Value> {
        match e {
            Expr::Fast(i) => match f.locals.get(*i as usize) {
                // An int copied here, not through the out-of-line `Value::clone`.
                Some(Some(Value::Int(n))) => Ok(Value::Int(*n)),
                Some(Some(v)) => Ok(v.clone()),
                _ => Err(unbound_local(&f.code.local_names, *i)),
            },
            Expr::Const(v) => Ok(v.clone()),
            _ => self.eval_node(f, e),
        }
    }

    /// Evaluates any expression ([`Self::eval`] answers the leaves before coming here).
    fn eval_node(&mut self, f: &mut Frame, e: &Expr) -> PyResult<Value> {
        match e {
            // the leaves are `eval`'s alone (it answers them before calling here)
            Expr::Const(_) | Expr::Fast(_) => self.eval(f, e),
            Expr::Cell(i) => {
                let v = f.cells.get(*i as usize).and_then(|c| c.borrow().clone());
                v.ok_or_else(|| unbound_local(&f.code.cell_names, *i))
            }
            Expr::Free(i) => {
                let v = f.free.get(*i as usize).and_then(|c| c.borrow().clone());
                v.ok_or_else(|| {
                    PyException::new(
                        ExcType::NameError,
                        format!(
                            "cannot access free variable '{}' where it is not associated with a value in enclosing scope",
                            f.code.free_names.get(*i as usize).map(|s| &**s).unwrap_or("?")
                        ),
                    )
                })
            }
            Expr::Global(n, h, m) => self.load_global(f, n, *h).map_err(|e| e.mark(m)),
            Expr::Name(n, h, m) => {
                if let Some(ns) = &f.ns
                    && let Some(v) = ns.borrow().get_hashed(n, *h)
                {
                    return Ok(v.clone());
                }
                self.load_global(f, n, *h).map_err(|e| e.mark(m))
            }
            Expr::Attr(o, n, m) => {
                let v = self.eval(f, o)?;
                self.getattr(&v, n).map_err(|e| e.mark(m))
            }
            Expr::Subscript(o, i, m) => {
                let v = self.eval(f, o)?;
                let k = self.eval(f, i)?;
                self.getitem(&v, &k).map_err(|e| e.mark(m))
            }
            Expr::Slice(a, b, c) => {
                let a = match a {
                    Some(x) => self.eval(f, x)?,
                    None => Value::None,
                };
                let b = match b {
                    Some(x) => self.eval(f, x)?,
                    None => Value::None,
                };
                let c = match c {
                    Some(x) => self.eval(f, x)?,
                    None => Value::None,
                };
                Ok(Value::Slice(Rc::new([a, b, c])))
            }
            Expr::Call { func, call, marks } => {
                let fv = self.eval(f, func)?;
                if is_builtin_str(&fv)
                    && let ([arg], [], false) =
                        (call.args.as_slice(), call.kws.as_slice(), call.star)
                {
                    // `str(x)`, answered without an argument vector or the class-call path
                    // (CPython 3.11 specializes this call too: PRECALL_NO_KW_STR_1). With it
                    // and the leaf path in `eval`, a `s += str(i)` step went from 2,490 to
                    // 1,570 instructions (callgrind).
                    let v = self.eval(f, arg)?;
                    self.set_line(call.line);
                    return self.str(&v).map(Value::string).map_err(|e| e.mark(marks));
                }
                let a = self.eval_call_args(f, call)?;
                self.call(&fv, a).map_err(|e| e.mark(marks))
            }
            Expr::CallMethod {
                obj,
                name,
                call,
                marks,
            } => {
                let o = self.eval(f, obj)?;
                let a = self.eval_call_args(f, call)?;
                // A failed lookup points at `obj.name`, anything else at the whole call.
                self.call_method(&o, name, a).map_err(|mut e| {
                    let lookup = std::mem::take(&mut e.0.in_lookup);
                    e.mark(&marks[usize::from(lookup)])
                })
            }
            Expr::Super { .. } => self.make_super(f),
            Expr::Bin(op, a, b, m) => {
                let a = self.eval(f, a)?;
                let b = self.eval(f, b)?;
                self.binary_op(*op, &a, &b).map_err(|e| e.mark(m))
            }
            Expr::Unary(op, a, m) => {
                let a = self.eval(f, a)?;
                self.unary_op(*op, &a).map_err(|e| e.mark(m))
            }
            Expr::Not(a) => {
                let a = self.eval(f, a)?;
                Ok(Value::Bool(!self.truthy(&a)?))
            }
            Expr::And(vs) => {
                let mut last = Value::None;
                for (i, v) in vs.iter().enumerate() {
                    last = self.eval(f, v)?;
                    if i + 1 < vs.len() && !self.truthy(&last)? {
                        return Ok(last);
                    }
                }
                Ok(last)
            }
            Expr::Or(vs) => {
                let mut last = Value::None;
                for (i, v) in vs.iter().enumerate() {
                    last = self.eval(f, v)?;
                    if i + 1 < vs.len() && self.truthy(&last)? {
                        return Ok(last);
                    }
                }
                Ok(last)
            }
            Expr::Compare(left, rest, m) => {
                let mut l = self.eval(f, left)?;
                let n = rest.len();
                for (i, (op, r)) in rest.iter().enumerate() {
                    let rv = self.eval(f, r)?;
                    let res = self.compare_kind(*op, &l, &rv).map_err(|e| e.mark(m))?;
                    if i + 1 == n {
                        return Ok(res);
                    }
                    if !self.truthy(&res)? {
                        return Ok(res);
                    }
                    l = rv;
                }
                Ok(Value::Bool(true))
            }
            Expr::IfExp(t, a, b) => {
                let c = self.eval(f, t)?;
                if self.truthy(&c)? {
                    self.eval(f, a)
                } else {
                    self.eval(f, b)
                }
            }
            Expr::List(items) => Ok(Value::list(self.eval_items(f, items)?)),
            Expr::Tuple(items) => Ok(Value::tuple(self.eval_items(f, items)?)),
            Expr::Set(items) => {
                let vs = self.eval_items(f, items)?;
                let mut d = Dict::new();
                for v in vs {
                    let k = self.key_in(&d, &v)?;
                    d.insert(k, v, Value::None);
                }
                if items.len() > 2 && items.iter().all(|e| matches!(e, Expr::Const(_))) {
                    // CPython compiles this display to a frozenset constant merged into a new set.
                    d.set_from_constant_display();
                }
                Ok(Value::Set(Rc::new(std::cell::RefCell::new(d))))
            }
            Expr::Dict(items) => {
                let mut d = Dict::new();
                for (k, v) in items {
                    match k {
                        Some(k) => {
                            let kv = self.eval(f, k)?;
                            let vv = self.eval(f, v)?;
                            let hk = self.key_in(&d, &kv)?;
                            d.insert(hk, kv, vv);
                        }
                        None => {
                            let m = self.eval(f, v)?;
                            match &m {
                                // `{**d}`: a polled copy of the table; `{**a, **b}`: polled
                                // inserts with the keys' hashes as they are
                                Value::Dict(src) if d.is_empty() => {
                                    d = self.copy_dict_polled(&src.borrow())?;
                                }
                                Value::Dict(_) => {
                                    crate::script::builtins::dict_update(self, &mut d, &m)?
                                }
                                _ => {
                                    for (kv, vv) in self.mapping_items(&m)? {
                                        self.work(1)?;
                                        let hk = self.key_in(&d, &kv)?;
                                        super::dict_grow_check(&d)?;
                                        d.insert(hk, kv, vv);
                                    }
                                }
                            }
                        }
                    }
                }
                Ok(Value::dict(d))
            }
            Expr::Starred(_) => Err(PyException::new(
                ExcType::SyntaxError,
                "can't use starred expression here",
            )),
            Expr::Comp {
                kind,
                elt,
                value,
                gens,
                marks,
            } => {
                let mut out = match kind {
                    CompKind::List => CompOut::List(Vec::new()),
                    CompKind::Set => CompOut::Set(Dict::new()),
                    CompKind::Dict => CompOut::Dict(Dict::new()),
                };
                let body = CompBody {
                    gens,
                    elt,
                    value: value.as_deref(),
                    marks,
                };
                let r = self.comp_outer(f, kind, &body, &mut out);
                // The comprehension's variables die with it (they would in CPython's own frame).
                for g in gens {
                    clear_target(f, &g.target);
                }
                if let Err(e) = r {
                    if let CompOut::List(v) = out {
                        // Left after the report when stopped, else freed in polled chunks.
                        return Err(self.leave_at_stop(v, e));
                    }
                    if e.0.uncatchable {
                        // Stopped (time limit, Ctrl-c): what it built (millions of items for
                        // `[i for i in range(10**9)]`) is freed with the run's heap after the
                        // report, not while the stop unwinds.
                        self.left_at_stop.push(match out {
                            CompOut::List(v) => Value::list(v),
                            CompOut::Set(d) | CompOut::Dict(d) => Value::dict(d),
                        });
                    }
                    return Err(e);
                }
                Ok(match out {
                    CompOut::List(v) => Value::list(v),
                    CompOut::Set(d) => Value::Set(Rc::new(std::cell::RefCell::new(d))),
                    CompOut::Dict(d) => Value::dict(d),
                })
            }
            Expr::GenExpr { def, iter, marks } => {
                // CPython evaluates the outermost iterable and calls iter() on it here, in the
                // enclosing frame; everything else runs when the generator is advanced.
                let src = self.eval(f, iter)?;
                let it = self.get_iter(&src).map_err(|e| e.mark(marks))?;
                drop(src);
                let Value::Function(fun) = self.make_function(f, def)? else {
                    return Err(PyException::new(
                        ExcType::SystemError,
                        "bad generator expression",
                    ));
                };
                let mut locals = vec![None; def.code.local_names.len()];
                if let Some(slot) = locals.first_mut() {
                    *slot = Some(it);
                }
                let cells = (0..def.code.cell_names.len())
                    .map(|_| Rc::new(std::cell::RefCell::new(None)))
                    .collect();
                Ok(self.make_generator(fun, locals, cells))
            }
            Expr::Yield(v) => {
                let v = match v {
                    Some(e) => self.eval(f, e)?,
                    None => Value::None,
                };
                self.gen_yield(v)
            }
            Expr::YieldFrom(e, m) => {
                let src = self.eval(f, e)?;
                let sub = self.get_iter(&src).map_err(|e| e.mark(m))?;
                drop(src);
                self.yield_from(sub).map_err(|e| e.mark(m))
            }
            Expr::Lambda(def) => self.make_function(f, def),
            Expr::FString(parts) => {
                let s = self.eval_fparts(f, parts)?;
                Ok(Value::string(s))
            }
            Expr::Named(t, v) => {
                let v = self.eval(f, v)?;
                self.store(f, t, v.clone())?;
                Ok(v)
            }
        }
    }

    fn eval_fparts(&mut self, f: &mut Frame, parts: &[FPart]) -> PyResult<String> {
        let mut s = String::new();
        for p in parts {
            match p {
                FPart::Lit(l) => s.push_str(l),
                FPart::Value {
                    expr,
                    conv,
                    spec,
                    debug,
                } => {
                    if let Some(d) = debug {
                        s.push_str(d);
                    }
                    let v = self.eval(f, expr)?;
                    let v = match conv {
                        Some('r') | Some('a') => Value::string(self.repr(&v)?),
                        Some('s') => Value::string(self.str(&v)?),
                        _ => v,
                    };
                    let spec_s = match spec {
                        Some(sp) => self.eval_fparts(f, sp)?,
                        None => String::new(),
                    };
                    let out = self.format_value(&v, &spec_s)?;
                    s.push_str(&out);
                }
            }
        }
        Ok(s)
    }

    /// The outermost iterable is evaluated in the enclosing frame (as CPython passes it to the
    /// comprehension's function); what fails after that fails inside the comprehension's own
    /// frame, which the traceback shows (`<listcomp>` ...) with the comprehension marked in the
    /// enclosing frame.
    fn comp_outer(
        &mut self,
        f: &mut Frame,
        kind: &CompKind,
        body: &CompBody,
        out: &mut CompOut,
    ) -> PyResult<()> {
        let Some(g) = body.gens.first() else {
            return Ok(());
        };
        let it = self.comp_iter(f, g, body.marks)?;
        self.comp_items(f, body, 0, &it, out).map_err(|mut e| {
            let Some(fi) = self.frames.last() else {
                return e;
            };
            e.leave_frame(fi.file.clone(), fi.line, kind.frame_name().into());
            e.mark(body.marks)
        })
    }

    /// The items of generator `idx`'s iterator `it`, each run through the later generators.
    fn comp_items(
        &mut self,
        f: &mut Frame,
        body: &CompBody,
        idx: usize,
        it: &Value,
        out: &mut CompOut,
    ) -> PyResult<()> {
        let g = &body.gens[idx];
        'items: while let Some(item) = self.next_item(it)? {
            self.step()?;
            self.store(f, &g.target, item)?;
            for c in &g.ifs {
                let cv = self.eval(f, c)?;
                if !self.truthy(&cv)? {
                    continue 'items;
                }
            }
            self.comp_inner(f, body, idx + 1, out)?;
        }
        Ok(())
    }

    /// Generator `idx` (after the first) over its iterable, or the element when none is left.
    fn comp_inner(
        &mut self,
        f: &mut Frame,
        body: &CompBody,
        idx: usize,
        out: &mut CompOut,
    ) -> PyResult<()> {
        let Some(g) = body.gens.get(idx) else {
            match out {
                CompOut::List(v) => {
                    let x = self.eval(f, body.elt)?;
                    super::grow_check(v, v.capacity(), 1)?;
                    v.push(x);
                }
                CompOut::Set(d) => {
                    let v = self.eval(f, body.elt)?;
                    let k = self.key_in(d, &v)?;
                    super::dict_grow_check(d)?;
                    d.insert(k, v, Value::None);
                }
                CompOut::Dict(d) => {
                    let k = self.eval(f, body.elt)?;
                    let v = match body.value {
                        Some(e) => self.eval(f, e)?,
                        None => Value::None,
                    };
                    let hk = self.key_in(d, &k)?;
                    super::dict_grow_check(d)?;
                    d.insert(hk, k, v);
                }
            }
            return Ok(());
        };
        let it = self.comp_iter(f, g, body.marks)?;
        self.comp_items(f, body, idx, &it, out)
    }

    /// An iterator over generator `g`'s iterable; a value that is not iterable fails at the
    /// whole comprehension (`marks`), as CPython's GET_ITER does.
    fn comp_iter(&mut self, f: &mut Frame, g: &CompFor, marks: &Marks) -> PyResult<Value> {
        let src = self.eval(f, &g.iter)?;
        self.get_iter(&src).map_err(|e| e.mark(marks))
    }

    /// A global, then a builtin, by name and its precomputed [`key_hash`](super::super::value::key_hash).
    fn load_global(&mut self, f: &Frame, n: &Rc<str>, hash: u64) -> PyResult<Value> {
        if let Some(v) = f.globals.borrow().get_hashed(n, hash) {
            return Ok(v.clone());
        }
        if let Some(v) = self.builtins.borrow().get_hashed(n, hash) {
            return Ok(v.clone());
        }
        // a prelude's definition not run yet (deferred.rs): no builtin has its name
        if !self.deferred.is_empty()
            && self.run_deferred(&f.globals, n)?
            && let Some(v) = f.globals.borrow().get_hashed(n, hash)
        {
            return Ok(v.clone());
        }
        let mut e = super::stmt::name_error(n);
        e.0.hint = Some(Box::new(Hint::Name {
            name: n.clone(),
            locals: if f.ns.is_some() {
                Vec::new()
            } else {
                f.code.local_names.clone()
            },
            globals: f.globals.clone(),
        }));
        Err(e)
    }

    /// Evaluate list/tuple/set display items, expanding `*x`.
    fn eval_items(&mut self, f: &mut Frame, items: &[Expr]) -> PyResult<Vec<Value>> {
        let mut out = Vec::with_capacity(items.len());
        for it in items {
            if let Expr::Starred(inner) = it {
                let v = self.eval(f, inner)?;
                out.extend(self.iterate(&v)?);
            } else {
                out.push(self.eval(f, it)?);
            }
        }
        Ok(out)
    }

    /// A call's arguments, evaluated in order. The frame's line is then the call's own again
    /// (a call among the arguments moved it), so that a traceback through the call names it.
    fn eval_call_args(&mut self, f: &mut Frame, call: &CallArgs) -> PyResult<Args> {
        let CallArgs {
            args,
            kws,
            star,
            line,
        } = call;
        let positional = if *star {
            let mut out = Vec::with_capacity(args.len());
            for a in args {
                if let Expr::Starred(inner) = a {
                    let v = self.eval(f, inner)?;
                    if !self.is_iterable(&v) {
                        return Err(PyException::new(
                            ExcType::TypeError,
                            format!("Value after * must be an iterable, not {}", v.type_name()),
                        ));
                    }
                    out.extend(self.iterate(&v)?);
                } else {
                    out.push(self.eval(f, a)?);
                }
            }
            out
        } else {
            let mut out = Vec::with_capacity(args.len());
            for a in args {
                out.push(self.eval(f, a)?);
            }
            out
        };
        let mut keywords = Vec::with_capacity(kws.len());
        for (k, e) in kws {
            let v = self.eval(f, e)?;
            match k {
                Some(k) => {
                    if keywords.iter().any(|(x, _): &(String, Value)| x == &**k) {
                        return Err(PyException::new(
                            ExcType::SyntaxError,
                            format!("keyword argument repeated: {k}"),
                        ));
                    }
                    keywords.push((k.to_string(), v))
                }
                None => {
                    for (kv, vv) in self.mapping_items(&v)? {
                        match kv {
                            Value::Str(s) => {
                                if keywords.iter().any(|(x, _)| x == &*s) {
                                    return Err(PyException::new(
                                        ExcType::TypeError,
                                        format!("got multiple values for keyword argument '{s}'"),
                                    ));
                                }
                                keywords.push((s.to_string(), vv))
                            }
                            _ => {
                                return Err(PyException::new(
                                    ExcType::TypeError,
                                    "keywords must be strings",
                                ));
                            }
                        }
                    }
                }
            }
        }
        self.set_line(*line);
        Ok(Args {
            positional,
            keywords,
        })
    }

    /// (key, value) pairs of a dict or mapping-like object (for `**m` and `dict(m)`).
    pub(crate) fn mapping_items(&mut self, m: &Value) -> PyResult<Vec<(Value, Value)>> {
        match m {
            Value::Dict(d) => super::dict_items(d),
            _ => {
                let keys = match self.call_method_opt(m, "keys", Args::default())? {
                    Some(k) => k,
                    None => {
                        return Err(PyException::new(
                            ExcType::TypeError,
                            format!("'{}' object is not a mapping", m.type_name()),
                        ));
                    }
                };
                let mut out = Vec::new();
                for k in self.iterate(&keys)? {
                    let v = self.getitem(m, &k)?;
                    out.push((k, v));
                }
                Ok(out)
            }
        }
    }

    fn make_super(&mut self, f: &mut Frame) -> PyResult<Value> {
        let owner = f
            .func
            .and_then(|func| func.owner.borrow().as_ref().and_then(|w| w.upgrade()));
        let Some(cls) = owner else {
            return Err(PyException::new(
                ExcType::RuntimeError,
                "super(): __class__ cell not found",
            ));
        };
        let first = if f.code.params.is_empty() {
            None
        } else if let Some((_, c)) = f.code.param_cells.iter().find(|(s, _)| *s == 0) {
            f.cells.get(*c as usize).and_then(|c| c.borrow().clone())
        } else {
            f.locals.first().cloned().flatten()
        };
        match first {
            Some(obj) => Ok(Value::Super(Rc::new((cls, obj)))),
            None => Err(PyException::new(
                ExcType::RuntimeError,
                "super(): no arguments",
            )),
        }
    }
}

fn clear_target(f: &mut Frame, t: &Target) {
    match t {
        Target::Fast(i) => {
            if let Some(s) = f.locals.get_mut(*i as usize) {
                let old = s.take();
                drop(old);
            }
        }
        Target::Cell(i) => {
            // A closure may hold this cell; CPython would keep it too. Leave it.
            let _ = i;
        }
        Target::Unpack(items, ..) => {
            for t in items {
                clear_target(f, t);
            }
        }
        _ => {}
    }
}

/// Whether `v` is the builtin `str` type itself, called as `str(x)` converts (no constructor
/// set on it).
fn is_builtin_str(v: &Value) -> bool {
    matches!(v, Value::Class(c)
        if matches!(c.kind, ClassKind::Builtin(BuiltinType::Str)) && c.ctor.borrow().is_none())
}
