//! Calling: Python functions (argument binding with CPython's errors), native functions,
//! bound methods, classes, callable instances and natives.

use std::rc::Rc;

use super::super::errors::{PyException, PyResult};
use super::super::native::{
    Args, NativeCx, bind_keyword, missing_args_message, unexpected_keyword,
};
use super::super::value::{BoundMethod, Class, ClassKind, Dict, Function, Value};
use super::stmt::{Flow, Frame};
use super::{FrameInfo, Interpreter};
use crate::script::ExcType;

impl Interpreter {
    /// Call any callable value.
    pub fn call(&mut self, func: &Value, args: Args) -> PyResult<Value> {
        match func {
            Value::Function(fun) => self.call_function(fun, args.positional, &args.keywords),
            Value::NativeFn(nf) => {
                let nf = nf.clone();
                let before = crate::budget::thread_heap();
                let r = (nf.f)(self, args);
                self.after_native(before, r)
            }
            Value::BoundMethod(bm) => {
                let mut pos = Vec::with_capacity(args.positional.len() + 1);
                pos.push(bm.receiver.clone());
                pos.extend(args.positional);
                let func = bm.func.clone();
                self.call(
                    &func,
                    Args {
                        positional: pos,
                        keywords: args.keywords,
                    },
                )
            }
            Value::BuiltinMethod(bm) => {
                let (recv, name) = (bm.0.clone(), bm.1.clone());
                match super::super::builtins::methods::call_builtin_method(
                    self, &recv, &name, args,
                )? {
                    Some(v) => Ok(v),
                    None => Err(self.no_attribute(&recv, &name)),
                }
            }
            Value::Class(c) => self.instantiate(c, args),
            Value::Native(n) => {
                let n = n.clone();
                let before = crate::budget::thread_heap();
                let r = n.call(NativeCx::new(&n, self), args);
                self.after_native(before, r)
            }
            Value::Instance(i) => match i.class.lookup("__call__") {
                Some(m) => self.call_bound(&m, func.clone(), args),
                None => Err(PyException::new(
                    ExcType::TypeError,
                    format!("'{}' object is not callable", i.class.name),
                )),
            },
            Value::StaticMethod(inner) => {
                let inner = (**inner).clone();
                self.call(&inner, args)
            }
            _ => Err(PyException::new(
                ExcType::TypeError,
                format!("'{}' object is not callable", func.type_name()),
            )),
        }
    }

    /// Call a class attribute as a method of `recv` (prepending it for functions).
    pub(crate) fn call_bound(&mut self, attr: &Value, recv: Value, args: Args) -> PyResult<Value> {
        match attr {
            Value::Function(f) => {
                let mut pos = Vec::with_capacity(args.positional.len() + 1);
                pos.push(recv);
                pos.extend(args.positional);
                self.call_function(f, pos, &args.keywords)
            }
            Value::NativeFn(_) => {
                let mut pos = Vec::with_capacity(args.positional.len() + 1);
                pos.push(recv);
                pos.extend(args.positional);
                self.call(
                    attr,
                    Args {
                        positional: pos,
                        keywords: args.keywords,
                    },
                )
            }
            Value::StaticMethod(inner) => {
                let inner = (**inner).clone();
                self.call(&inner, args)
            }
            Value::ClassMethod(inner) => {
                let cls = match &recv {
                    Value::Instance(i) => Value::Class(i.class.clone()),
                    other => other.clone(),
                };
                let inner = (**inner).clone();
                let mut pos = vec![cls];
                pos.extend(args.positional);
                self.call(
                    &inner,
                    Args {
                        positional: pos,
                        keywords: args.keywords,
                    },
                )
            }
            Value::Property(p) => {
                let fget = p.fget.clone();
                let v = self.call(&fget, Args::new(vec![recv]))?;
                self.call(&v, args)
            }
            other => self.call(other, args),
        }
    }

    /// `obj.name(args)` without building a bound-method object.
    pub(crate) fn call_method(&mut self, obj: &Value, name: &str, args: Args) -> PyResult<Value> {
        match obj {
            Value::Instance(inst) => {
                // the instance dict's borrow must end before the call: the function may set
                // attributes on this same instance (`obj.step = wrapper` calling `obj.x = 1`)
                let own = {
                    let d = inst.dict.borrow();
                    if d.is_empty() {
                        None
                    } else {
                        d.get_str(name).cloned()
                    }
                };
                if let Some(v) = own {
                    return self.call(&v, args);
                }
                if let Some(base) = &inst.base
                    && inst.class.lookup_user(name).is_none()
                    && super::builtin_subclass::has_builtin(self, base, name)
                {
                    return match self.call_subclass_builtin_method(obj, base, name, args)? {
                        Some(v) => Ok(v),
                        None => Err(self.no_attribute(obj, name)),
                    };
                }
                if let Some(attr) = inst.class.lookup(name) {
                    return self.call_bound(&attr, obj.clone(), args);
                }
                let m = self.getattr(obj, name).map_err(PyException::in_lookup)?;
                self.call(&m, args)
            }
            Value::Module(_)
            | Value::Class(_)
            | Value::Native(_)
            | Value::Super(_)
            | Value::Function(_) => {
                let m = self.getattr(obj, name).map_err(PyException::in_lookup)?;
                self.call(&m, args)
            }
            _ if name.starts_with("__")
                && !super::super::builtins::methods::method_names(obj).contains(&name)
                && let Some(f) = self.builtin_dunder(obj, name) =>
            {
                self.call(&f, args)
            }
            _ => match super::super::builtins::methods::call_builtin_method(self, obj, name, args)?
            {
                Some(v) => Ok(v),
                None => {
                    // Attributes that are callable values (rare on builtins) or a clean error.
                    Err(self.no_attribute(obj, name).in_lookup())
                }
            },
        }
    }

    /// Like `call_method` but `Ok(None)` when the attribute does not exist.
    pub(crate) fn call_method_opt(
        &mut self,
        obj: &Value,
        name: &str,
        args: Args,
    ) -> PyResult<Option<Value>> {
        match self.getattr_opt(obj, name)? {
            Some(m) => Ok(Some(self.call(&m, args)?)),
            None => Ok(None),
        }
    }

    /// Call a Python function: bind arguments to slots, run the body in a fresh frame.
    pub(crate) fn call_function(
        &mut self,
        fun: &Rc<Function>,
        pos: Vec<Value>,
        kws: &[(String, Value)],
    ) -> PyResult<Value> {
        self.check_stack()?;
        if self.frames.len() >= self.recursion_limit {
            return Err(PyException::new(
                ExcType::RecursionError,
                "maximum recursion depth exceeded",
            ));
        }
        self.step()?;
        let fun = fun.clone();
        let code = self.function_code(&fun)?;
        let mut locals: Vec<Option<Value>> = vec![None; code.local_names.len()];
        let npos = code.params.len();
        let fname = &code.qualname;
        let given = pos.len();
        let mut extra = Vec::new();
        for (i, v) in pos.into_iter().enumerate() {
            if i < npos {
                locals[i] = Some(v);
            } else if code.vararg.is_some() {
                extra.push(v);
            } else {
                let nd = fun.defaults.len();
                let req = npos - nd.min(npos);
                let takes = if nd == 0 {
                    format!(
                        "{npos} positional argument{}",
                        if npos == 1 { "" } else { "s" }
                    )
                } else {
                    format!("from {req} to {npos} positional arguments")
                };
                return Err(PyException::new(
                    ExcType::TypeError,
                    format!(
                        "{fname}() takes {takes} but {given} {} given",
                        if given == 1 { "was" } else { "were" }
                    ),
                ));
            }
        }
        let mut slot = npos;
        if code.vararg.is_some() {
            locals[slot] = Some(Value::tuple(extra));
            slot += 1;
        }
        let kw_start = slot;
        let kwarg_slot = kw_start + code.kwonly.len();
        let mut kwdict: Option<Dict> = if code.kwarg.is_some() {
            Some(Dict::new())
        } else {
            None
        };
        for (k, v) in kws {
            let pi = code.params.iter().position(|p| **p == **k);
            match pi {
                Some(i) if i >= code.posonly => bind_keyword(&mut locals[i], fname, k, v)?,
                _ => {
                    if let Some(j) = code.kwonly.iter().position(|p| **p == **k) {
                        locals[kw_start + j] = Some(v.clone());
                    } else if let Some(d) = &mut kwdict {
                        d.set_str(k, v.clone());
                    } else {
                        return Err(unexpected_keyword(fname, k));
                    }
                }
            }
        }
        // Defaults for the missing trailing positionals.
        let nd = fun.defaults.len().min(npos);
        let first_default = npos - nd;
        let mut missing: Vec<&str> = Vec::new();
        for (i, slot) in locals.iter_mut().enumerate().take(npos) {
            if slot.is_none() {
                if i >= first_default {
                    *slot = fun.defaults.get(i - first_default).cloned();
                } else {
                    missing.push(&code.params[i]);
                }
            }
        }
        if !missing.is_empty() {
            return Err(PyException::new(
                ExcType::TypeError,
                missing_args_message(fname, &missing, "positional"),
            ));
        }
        let mut missing_kw: Vec<&str> = Vec::new();
        for (j, name) in code.kwonly.iter().enumerate() {
            if locals[kw_start + j].is_none() {
                match fun.kwdefaults.get(j).cloned().flatten() {
                    Some(d) => locals[kw_start + j] = Some(d),
                    None => missing_kw.push(name),
                }
            }
        }
        if !missing_kw.is_empty() {
            return Err(PyException::new(
                ExcType::TypeError,
                missing_args_message(fname, &missing_kw, "keyword-only"),
            ));
        }
        if let Some(d) = kwdict {
            locals[kwarg_slot] = Some(Value::dict(d));
        }
        let mut frame = Frame::with_locals(code, fun.globals.clone(), &fun.closure, locals);
        frame.func = Some(&fun);
        for (p, c) in &code.param_cells {
            let v = frame.locals.get_mut(*p as usize).and_then(|s| s.take());
            if let Some(cell) = frame.cells.get(*c as usize) {
                *cell.borrow_mut() = v;
            }
        }
        if code.is_generator {
            // The body runs when the generator is first advanced.
            let Frame { locals, cells, .. } = frame;
            return Ok(self.make_generator(fun.clone(), locals, cells));
        }
        let is_main = *code.file == *self.main_file;
        self.frames.push(FrameInfo {
            file: code.file.clone(),
            func: code.name.clone(),
            line: code.line,
            is_main,
        });
        let guard = self.enter_untrusted(&fun.globals);
        let r = self.exec_block(&mut frame, &code.body);
        let line = self.frames.last().map(|f| f.line).unwrap_or(0);
        self.frames.pop();
        // Locals die here, when the call returns (before the caller continues).
        drop(frame);
        self.leave_untrusted(guard);
        match r {
            Ok(Flow::Return(v)) => Ok(v),
            Ok(_) => Ok(Value::None),
            Err(mut e) => {
                e.leave_frame(code.file.clone(), line, code.name.clone());
                Err(e)
            }
        }
    }

    /// `Cls(args)`.
    pub(crate) fn instantiate(&mut self, c: &Rc<Class>, args: Args) -> PyResult<Value> {
        let ctor = c.ctor.borrow().clone();
        if let Some(ctor) = ctor {
            return self.call(&ctor, args);
        }
        match c.kind {
            ClassKind::Builtin(t) => return super::super::builtins::construct(self, t, args),
            ClassKind::Native => {
                return Err(PyException::new(
                    ExcType::TypeError,
                    format!("cannot create '{}' instances", c.name),
                ));
            }
            ClassKind::Object | ClassKind::User => {}
        }
        let inst = Value::Instance(Rc::new(super::builtin_subclass::new_instance(c)));
        if c.is_exception
            && let Value::Instance(i) = &inst
        {
            super::classes::set_exc_args(i, args.positional.clone());
        }
        match c.lookup_user("__init__") {
            Some(init) => {
                let r = self.call_bound(&init, inst.clone(), args)?;
                if !r.is_none() {
                    return Err(PyException::new(
                        ExcType::TypeError,
                        format!("__init__() should return None, not '{}'", r.type_name()),
                    ));
                }
            }
            None if let Some(base) = super::builtin_subclass::base_of(&inst) => {
                self.call_subclass_builtin_method(&inst, &base, "__init__", args)?;
            }
            None => {
                if !args.is_empty() && !c.is_exception {
                    return Err(PyException::new(
                        ExcType::TypeError,
                        format!("{}() takes no arguments", c.name),
                    ));
                }
            }
        }
        Ok(inst)
    }

    /// A bound method value for `recv.attr`.
    pub(crate) fn bind(&self, attr: Value, recv: Value) -> Value {
        match attr {
            Value::Function(_) | Value::NativeFn(_) => Value::BoundMethod(Rc::new(BoundMethod {
                receiver: recv,
                func: attr,
            })),
            Value::StaticMethod(inner) => (*inner).clone(),
            Value::ClassMethod(inner) => {
                let cls = match &recv {
                    Value::Instance(i) => Value::Class(i.class.clone()),
                    other => other.clone(),
                };
                Value::BoundMethod(Rc::new(BoundMethod {
                    receiver: cls,
                    func: (*inner).clone(),
                }))
            }
            other => other,
        }
    }
}

impl Interpreter {
    /// After a native call: a native function may build big values without asking the
    /// budget first, so when the run is over its memory budget once it returns, the result is
    /// dropped and the call raises MemoryError, as CPython's failed allocation would. And the
    /// memory it kept counts as work (a unit per 256 bytes), so a loop of calls that each
    /// build something big (`keep.append(torch.ones(10**7))`) meets the wall limit inside the
    /// loop, not 1024 statements later.
    #[inline]
    fn after_native(&mut self, heap_before: i64, r: PyResult<Value>) -> PyResult<Value> {
        match r {
            Ok(v) if !crate::budget::can_allocate(0) => {
                drop(v);
                Err(super::memory_error())
            }
            Ok(v) => {
                let grown = crate::budget::thread_heap() - heap_before;
                if grown > 0 {
                    self.work(grown as u64 / 256)?;
                }
                Ok(v)
            }
            r => r,
        }
    }
}
