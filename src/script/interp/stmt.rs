//! Statements: assignment and its targets, control flow, try/with, definitions, imports.

use std::cell::RefCell;
use std::rc::Rc;

use super::super::compile::{Compiler, LineNumbers};
use super::super::errors::{PyException, PyResult, TraceEntry};
use super::super::ir::*;
use super::super::marks::Marks;
use super::super::native::BinOp;
use super::super::value::{CellRef, Dict, Function, Module, Value};
use super::source_lines::SourceLines;
use super::{FrameInfo, Interpreter};
use crate::script::ExcType;

/// How a block finished.
pub(crate) enum Flow {
    Normal,
    Break,
    Continue,
    Return(Value),
}

/// One activation: locals live here (on the Rust stack) and die when the call returns.
pub(crate) struct Frame<'a> {
    pub locals: Vec<Option<Value>>,
    pub cells: Vec<CellRef>,
    pub free: &'a [CellRef],
    pub globals: Rc<RefCell<Dict>>,
    /// Class bodies: the class namespace being filled.
    pub ns: Option<Rc<RefCell<Dict>>>,
    pub code: &'a FuncCode,
    pub func: Option<&'a Function>,
    /// Exceptions being handled (innermost last), for bare `raise`.
    pub handling: Vec<PyException>,
}

impl<'a> Frame<'a> {
    pub(crate) fn new(
        code: &'a FuncCode,
        globals: Rc<RefCell<Dict>>,
        free: &'a [CellRef],
    ) -> Frame<'a> {
        Frame::with_locals(code, globals, free, vec![None; code.local_names.len()])
    }

    pub(crate) fn with_locals(
        code: &'a FuncCode,
        globals: Rc<RefCell<Dict>>,
        free: &'a [CellRef],
        locals: Vec<Option<Value>>,
    ) -> Frame<'a> {
        Frame {
            locals,
            cells: (0..code.cell_names.len())
                .map(|_| Rc::new(RefCell::new(None)))
                .collect(),
            free,
            globals,
            ns: None,
            code,
            func: None,
            handling: Vec::new(),
        }
    }
}

impl Interpreter {
    /// Parse and resolve a source file (also remembers its lines for tracebacks).
    pub(crate) fn compile_source(
        &mut self,
        source: &str,
        file: &Rc<str>,
        modname: &str,
    ) -> PyResult<Rc<FuncCode>> {
        self.remember_lines(source, file);
        if let Some(e) = super::super::syntax_error::prescan(source) {
            return Err(module_frame(e, file));
        }
        self.compile_parsed(source, file, modname)
    }

    /// Keeps `source`'s lines for the tracebacks of `file`; returns them.
    fn remember_lines(&mut self, source: &str, file: &Rc<str>) -> Rc<SourceLines> {
        let lines = Rc::new(SourceLines::of_text(source));
        self.sources.insert(file.clone(), lines.clone());
        lines
    }

    /// A prelude's code (Python the tutorial ships: torch.nn, torch.optim …), compiled once per
    /// thread: every run builds a new interpreter, and compiling the ~5,000 lines of `import
    /// torch` again took most of a short exercise run. The code is immutable (constants are
    /// plain values), so runs can share it; each run still gets the lines for tracebacks.
    /// Preludes skip the learner-facing SyntaxError prescan: they are known to parse.
    pub(crate) fn compile_prelude(
        &mut self,
        source: &str,
        file: &Rc<str>,
        modname: &str,
    ) -> PyResult<Rc<FuncCode>> {
        type Cached = (String, String, Rc<SourceLines>, Rc<FuncCode>);
        thread_local! {
            static PRELUDES: RefCell<Vec<Cached>> = const { RefCell::new(Vec::new()) };
        }
        let hit = PRELUDES.with(|c| {
            c.borrow()
                .iter()
                .find(|(n, s, _, _)| n == modname && s == source)
                .map(|(_, _, lines, code)| (lines.clone(), code.clone()))
        });
        if let Some((lines, code)) = hit {
            self.sources.insert(file.clone(), lines);
            return Ok(code);
        }
        let lines = self.remember_lines(source, file);
        let code = self.compile_parsed(source, file, modname)?;
        PRELUDES.with(|c| {
            c.borrow_mut()
                .push((modname.to_string(), source.to_string(), lines, code.clone()))
        });
        Ok(code)
    }

    /// Parse and compile source already known to pass the prescan (its lines remembered).
    fn compile_parsed(
        &mut self,
        source: &str,
        file: &Rc<str>,
        modname: &str,
    ) -> PyResult<Rc<FuncCode>> {
        self.compile_parsed_at(source, file, modname, 1)
    }

    /// [`Self::compile_parsed`] of source whose first line is line `first_line` of `file`.
    pub(super) fn compile_parsed_at(
        &mut self,
        source: &str,
        file: &Rc<str>,
        modname: &str,
        first_line: u32,
    ) -> PyResult<Rc<FuncCode>> {
        self.compile_parsed_numbered(source, file, modname, LineNumbers::From(first_line))
    }

    /// [`Self::compile_parsed`] of source whose lines are the lines `numbers` of `file`.
    pub(super) fn compile_parsed_numbered(
        &mut self,
        source: &str,
        file: &Rc<str>,
        modname: &str,
        numbers: LineNumbers,
    ) -> PyResult<Rc<FuncCode>> {
        self.compile_parsed_deferring(source, file, modname, numbers, Default::default())
    }

    /// [`Self::compile_parsed_numbered`] of a class text whose methods starting at the file
    /// lines of `deferring` have their bodies cut (lazy_methods.rs).
    pub(super) fn compile_parsed_deferring(
        &mut self,
        source: &str,
        file: &Rc<str>,
        modname: &str,
        numbers: LineNumbers,
        deferring: crate::script::value::FxHashMap<u32, &'static str>,
    ) -> PyResult<Rc<FuncCode>> {
        let module = parse_source(source, file)?;
        if super::super::compile::check_depth(&module.body).is_err() {
            // Dropping a pathologically deep tree recurses as deep as it is: leak it instead
            // (bounded by the source size).
            let mut c = Compiler::new(source, file.clone()).numbered(numbers);
            let r = c.compile_module(&module.body, modname);
            std::mem::forget(module);
            return match r {
                Err(e) => Err(module_frame(e, file)),
                Ok(_) => Err(PyException::new(
                    ExcType::SyntaxError,
                    "too many nested parentheses",
                )),
            };
        }
        let mut c = Compiler::new(source, file.clone())
            .numbered(numbers)
            .deferring(deferring);
        match c.compile_module(&module.body, modname) {
            Ok(code) => Ok(Rc::new(code)),
            Err(e) => Err(module_frame(e, file)),
        }
    }

    pub(crate) fn exec_module_code(
        &mut self,
        code: &Rc<FuncCode>,
        module: &Rc<Module>,
        is_main: bool,
    ) -> PyResult<()> {
        self.frames.push(FrameInfo {
            file: code.file.clone(),
            func: "<module>".into(),
            line: 0,
            is_main,
        });
        let mut frame = Frame::new(code, module.dict.clone(), &[]);
        let mut r = self.exec_block(&mut frame, &code.body);
        // Generators the last statement dropped are closed now, as CPython closes them in
        // that statement (their `finally` runs, under the limits).
        if r.is_ok() && self.gen_queue.pending() {
            r = self.close_pending_generators().map(|()| Flow::Normal);
        }
        let line = self.frames.last().map(|f| f.line).unwrap_or(0);
        self.frames.pop();
        drop(frame);
        match r {
            Ok(_) => Ok(()),
            Err(mut e) => {
                e.leave_frame(code.file.clone(), line, "<module>".into());
                Err(e)
            }
        }
    }

    pub(crate) fn exec_block(&mut self, f: &mut Frame, body: &[Stmt]) -> PyResult<Flow> {
        for s in body {
            if self.gen_queue.pending() {
                self.close_pending_generators()?;
            }
            self.step()?;
            self.set_line(s.line);
            match self.exec_stmt(f, s)? {
                Flow::Normal => {}
                other => return Ok(other),
            }
        }
        Ok(Flow::Normal)
    }

    fn exec_stmt(&mut self, f: &mut Frame, s: &Stmt) -> PyResult<Flow> {
        match &s.kind {
            StmtKind::Expr(e) => {
                // The value is dropped here, at the end of the statement, like CPython's POP_TOP.
                let v = self.eval(f, e)?;
                drop(v);
            }
            StmtKind::Assign(targets, value) => {
                let v = self.eval(f, value)?;
                if targets.len() == 1 {
                    self.store(f, &targets[0], v)?;
                } else {
                    for t in targets {
                        self.store(f, t, v.clone())?;
                    }
                }
            }
            StmtKind::AugAssign(t, op, value, marks) => self.aug_assign(f, t, *op, value, marks)?,
            StmtKind::ConcatAssign {
                target,
                left,
                right,
                marks,
            } => {
                let a = self.eval(f, left)?;
                let b = self.eval(f, right)?;
                if let (Value::Str(_), Value::Str(_)) = (&a, &b) {
                    self.concat_assign(f, target, a, &b)?;
                } else {
                    let v = self
                        .binary_op(BinOp::Add, &a, &b)
                        .map_err(|e| e.mark(marks))?;
                    // The operands go before the old binding, as when the `+` is evaluated
                    // on its own.
                    drop((a, b));
                    self.store(f, target, v)?;
                }
            }
            StmtKind::If(test, body, orelse) => {
                let c = self.eval(f, test)?;
                let b = self.truthy(&c)?;
                drop(c);
                return if b {
                    self.exec_block(f, body)
                } else {
                    self.exec_block(f, orelse)
                };
            }
            StmtKind::While(test, body, orelse) => loop {
                // The condition runs on the `while` line (its errors and a limit tripped
                // inside it name that line, as CPython's traceback does), not the body's last.
                self.set_line(s.line);
                let c = self.eval(f, test)?;
                let b = self.truthy(&c)?;
                drop(c);
                if !b {
                    return self.exec_block(f, orelse);
                }
                match self.exec_block(f, body)? {
                    Flow::Break => return Ok(Flow::Normal),
                    Flow::Return(v) => return Ok(Flow::Return(v)),
                    _ => {}
                }
                self.step()?;
            },
            StmtKind::For(target, iter, body, orelse) => {
                let src = self.eval(f, iter)?;
                return self.exec_for(f, target, src, body, orelse, s.line);
            }
            StmtKind::Break => return Ok(Flow::Break),
            StmtKind::Continue => return Ok(Flow::Continue),
            StmtKind::Pass => {}
            StmtKind::Return(v) => {
                let v = match v {
                    Some(e) => self.eval(f, e)?,
                    None => Value::None,
                };
                return Ok(Flow::Return(v));
            }
            StmtKind::Raise(exc, cause) => {
                return Err(self.make_raise(f, exc.as_ref(), cause.as_ref())?);
            }
            StmtKind::Try {
                body,
                handlers,
                orelse,
                finalbody,
            } => return self.exec_try(f, body, handlers, orelse, finalbody),
            StmtKind::With(items, body) => return self.exec_with(f, items, body, s.line),
            StmtKind::Def {
                decorators,
                func,
                target,
            } => {
                let mut decs = Vec::with_capacity(decorators.len());
                for d in decorators {
                    decs.push(self.eval(f, d)?);
                }
                let mut v = self.make_function(f, func)?;
                for d in decs.iter().rev() {
                    v = self.call(d, super::super::native::Args::new(vec![v]))?;
                }
                self.store(f, target, v)?;
            }
            StmtKind::Class {
                decorators,
                class,
                target,
            } => {
                let mut decs = Vec::with_capacity(decorators.len());
                for d in decorators {
                    decs.push(self.eval(f, d)?);
                }
                let mut v = self.make_class_from_def(f, class)?;
                for d in decs.iter().rev() {
                    v = self.call(d, super::super::native::Args::new(vec![v]))?;
                }
                self.store(f, target, v)?;
            }
            StmtKind::Import {
                module,
                bind_top,
                target,
            } => {
                let m = self.import_module(module)?;
                let v = if *bind_top {
                    let top = module.split('.').next().unwrap_or("");
                    self.import_module(top)?
                } else {
                    m
                };
                self.store(f, target, v)?;
            }
            StmtKind::ImportFrom { module, names } => {
                let m = self.import_module(module)?;
                for (n, t) in names {
                    let v = match self.getattr_opt(&m, n)? {
                        Some(v) => v,
                        None => {
                            let sub = format!("{module}.{n}");
                            if self.module_known(&sub) {
                                self.import_module(&sub)?
                            } else {
                                return Err(PyException::new(
                                    ExcType::ImportError,
                                    format!(
                                        "cannot import name '{n}' from '{module}' (unknown location)"
                                    ),
                                ));
                            }
                        }
                    };
                    self.store(f, t, v)?;
                }
            }
            StmtKind::ImportStar { module } => {
                let m = self.import_module(module)?;
                if let Value::Module(md) = &m {
                    self.load_lazy_package(md);
                    for (k, v) in super::dict_items(&md.dict)? {
                        if let Value::Str(k) = k
                            && !k.starts_with('_')
                        {
                            let target = match &f.ns {
                                Some(ns) => ns.clone(),
                                None => f.globals.clone(),
                            };
                            let old = target.borrow_mut().set_str(&k, v);
                            drop(old);
                        }
                    }
                }
            }
            StmtKind::Delete(targets) => {
                for t in targets {
                    self.delete(f, t)?;
                }
            }
            StmtKind::Annotate(name, ann) => {
                let v = self.eval(f, ann)?;
                let ns = f.ns.clone().unwrap_or_else(|| f.globals.clone());
                let existing = ns.borrow().get_str("__annotations__").cloned();
                let d = match existing {
                    Some(d @ Value::Dict(_)) => d,
                    _ => {
                        let d = Value::dict(Dict::new());
                        ns.borrow_mut().set_str("__annotations__", d.clone());
                        d
                    }
                };
                if let Value::Dict(d) = d {
                    let old = d.borrow_mut().set_name(name, v);
                    drop(old);
                }
            }
            StmtKind::Assert(test, msg, marks) => {
                let c = self.eval(f, test)?;
                if !self.truthy(&c)? {
                    let failed = match msg {
                        Some(m) => {
                            let m = self.eval(f, m)?;
                            let cls = self.exc_class(ExcType::AssertionError);
                            let inst = self.new_exception_instance(&cls, vec![m]);
                            PyException::from_value(inst)
                        }
                        None => PyException::new(ExcType::AssertionError, ""),
                    };
                    return Err(failed.mark(marks));
                }
            }
        }
        Ok(Flow::Normal)
    }

    fn exec_for(
        &mut self,
        f: &mut Frame,
        target: &Target,
        src: Value,
        body: &[Stmt],
        orelse: &[Stmt],
        line: u32,
    ) -> PyResult<Flow> {
        // Fast paths for the common iterables; a list is re-read by index every time so
        // appending while iterating behaves as in CPython.
        match &src {
            Value::Range(r) => {
                // The length once; each item by a multiply (no division per item).
                let n = r.len();
                let (start, step) = (r.start, r.step);
                for i in 0..n {
                    let x = start + step * i as i128;
                    let v = match i64::try_from(x) {
                        Ok(v) => Value::Int(v),
                        Err(_) => super::super::bigint::from_i128(x),
                    };
                    self.store(f, target, v)?;
                    match self.exec_block(f, body)? {
                        Flow::Break => return Ok(Flow::Normal),
                        Flow::Return(v) => return Ok(Flow::Return(v)),
                        _ => {}
                    }
                    self.step()?;
                }
                return self.exec_block(f, orelse);
            }
            Value::List(l) => {
                let mut i = 0;
                loop {
                    let item = match l.borrow().get(i) {
                        Some(v) => v.clone(),
                        None => break,
                    };
                    i += 1;
                    self.store(f, target, item)?;
                    match self.exec_block(f, body)? {
                        Flow::Break => return Ok(Flow::Normal),
                        Flow::Return(v) => return Ok(Flow::Return(v)),
                        _ => {}
                    }
                    self.step()?;
                }
                return self.exec_block(f, orelse);
            }
            _ => {}
        }
        let it = self.get_iter(&src)?;
        drop(src);
        loop {
            self.set_line(line);
            let item = match self.next_item(&it)? {
                Some(v) => v,
                None => break,
            };
            self.store(f, target, item)?;
            match self.exec_block(f, body)? {
                Flow::Break => return Ok(Flow::Normal),
                Flow::Return(v) => return Ok(Flow::Return(v)),
                _ => {}
            }
            self.step()?;
        }
        self.exec_block(f, orelse)
    }

    fn exec_try(
        &mut self,
        f: &mut Frame,
        body: &[Stmt],
        handlers: &[Handler],
        orelse: &[Stmt],
        finalbody: &[Stmt],
    ) -> PyResult<Flow> {
        let mut result = match self.exec_block(f, body) {
            Ok(Flow::Normal) => self.exec_block(f, orelse),
            Ok(flow) => Ok(flow),
            Err(e) if e.0.uncatchable => Err(e),
            Err(mut e) => {
                // The catching frame belongs in the traceback (for `raise … from e` and re-raise).
                if !e.0.frame_recorded
                    && let Some(fi) = self.frames.last()
                {
                    e.leave_frame(fi.file.clone(), fi.line, fi.func.clone());
                    e.0.frame_recorded = true;
                }
                let mut handled = None;
                for h in handlers {
                    let matched = match &h.typ {
                        None => true,
                        Some(t) => {
                            let tv = match self.eval(f, t) {
                                Ok(v) => v,
                                Err(e2) => {
                                    handled = Some(Err(e2));
                                    break;
                                }
                            };
                            match self.exc_matches(&e, &tv) {
                                Ok(b) => b,
                                Err(e2) => {
                                    handled = Some(Err(e2));
                                    break;
                                }
                            }
                        }
                    };
                    if !matched {
                        continue;
                    }
                    self.set_line(h.line);
                    let v = self.exc_value(&mut e);
                    self.exc_caught(&v, &e.0.traceback);
                    if let Some(name) = &h.name
                        && let Err(e2) = self.store(f, name, v.clone())
                    {
                        handled = Some(Err(e2));
                        break;
                    }
                    f.handling.push(e.clone());
                    self.handled.push(v.clone());
                    let mut r = self.exec_block(f, &h.body);
                    let _ = self.handled.pop();
                    let _ = f.handling.pop();
                    if let Err(e2) = &mut r
                        && !e2.0.uncatchable
                    {
                        // Raised while handling `v`: CPython chains it as the context.
                        let v2 = self.exc_value(e2);
                        self.chain_context(&v2, &v);
                    }
                    if let Some(name) = &h.name {
                        // CPython deletes the name at the end of the handler.
                        let _ = self.delete(f, name);
                    }
                    handled = Some(r);
                    break;
                }
                match handled {
                    Some(r) => r,
                    None => Err(e),
                }
            }
        };
        if !finalbody.is_empty() {
            match self.exec_block(f, finalbody) {
                Ok(Flow::Normal) => {}
                Ok(flow) => {
                    if !matches!(&result, Err(e) if e.0.uncatchable) {
                        result = Ok(flow);
                    }
                }
                Err(e) => {
                    if !matches!(&result, Err(e) if e.0.uncatchable) {
                        result = Err(e);
                    }
                }
            }
        }
        result
    }

    fn exec_with(
        &mut self,
        f: &mut Frame,
        items: &[(Expr, Option<Target>)],
        body: &[Stmt],
        line: u32,
    ) -> PyResult<Flow> {
        let Some(((ctx_e, target), rest)) = items.split_first() else {
            return self.exec_block(f, body);
        };
        let mgr = self.eval(f, ctx_e)?;
        let entered = self.ctx_enter(&mgr)?;
        if let Some(t) = target
            && let Err(e) = self.store(f, t, entered)
        {
            self.ctx_exit(&mgr, None)?;
            return Err(e);
        }
        let r = if rest.is_empty() {
            self.exec_block(f, body)
        } else {
            self.exec_with(f, rest, body, line)
        };
        self.set_line(line);
        match r {
            Ok(flow) => {
                self.ctx_exit(&mgr, None)?;
                Ok(flow)
            }
            Err(e) if e.0.uncatchable => {
                let _ = self.ctx_exit(&mgr, None);
                Err(e)
            }
            Err(mut e) => {
                let v = self.exc_value(&mut e);
                if self.ctx_exit(&mgr, Some(&v))? {
                    Ok(Flow::Normal)
                } else {
                    Err(e)
                }
            }
        }
    }

    fn make_raise(
        &mut self,
        f: &mut Frame,
        exc: Option<&Expr>,
        cause: Option<&Expr>,
    ) -> PyResult<PyException> {
        let Some(exc) = exc else {
            return Ok(match f.handling.last() {
                Some(e) => e.clone(),
                None => PyException::new(ExcType::RuntimeError, "No active exception to reraise"),
            });
        };
        let v = self.eval(f, exc)?;
        let mut e = self.exception_from_value(v)?;
        if let Some(c) = cause {
            let cv = self.eval(f, c)?;
            let cause = match &cv {
                Value::None => Value::None,
                Value::Class(c) if c.is_exception => {
                    self.call(&cv, super::super::native::Args::default())?
                }
                Value::Instance(i) if i.class.is_exception => cv,
                _ => {
                    return Err(PyException::new(
                        ExcType::TypeError,
                        "exception causes must derive from BaseException",
                    ));
                }
            };
            let v = self.exc_value(&mut e);
            Self::with_exc_chain(&v, |ch| {
                ch.cause = cause;
                ch.suppress_context = true;
            });
        }
        Ok(e)
    }

    /// `raise X`: X may be an exception class (instantiated with no arguments) or instance.
    pub(crate) fn exception_from_value(&mut self, v: Value) -> PyResult<PyException> {
        match &v {
            Value::Class(c) if c.is_exception => {
                let inst = self.call(&v, super::super::native::Args::default())?;
                Ok(PyException::from_value(inst))
            }
            Value::Instance(i) if i.class.is_exception => Ok(PyException::from_value(v)),
            _ => Err(PyException::new(
                ExcType::TypeError,
                "exceptions must derive from BaseException",
            )),
        }
    }

    pub(crate) fn make_function(&mut self, f: &mut Frame, def: &FuncDef) -> PyResult<Value> {
        let mut defaults = Vec::with_capacity(def.defaults.len());
        for d in &def.defaults {
            defaults.push(self.eval(f, d)?);
        }
        let mut kwdefaults = Vec::with_capacity(def.kwdefaults.len());
        for d in &def.kwdefaults {
            kwdefaults.push(match d {
                Some(e) => Some(self.eval(f, e)?),
                None => None,
            });
        }
        let attrs = if def.annotations.is_empty() {
            None
        } else {
            let mut ann = Dict::new();
            for (n, e) in &def.annotations {
                let v = self.eval(f, e)?;
                drop(ann.set_str(n, v));
            }
            let mut d = Dict::new();
            d.set_str("__annotations__", Value::dict(ann));
            Some(d)
        };
        let closure = self.capture(f, &def.captures)?;
        Ok(Value::Function(Rc::new(Function {
            name: def.code.name.clone(),
            qualname: def.code.qualname.clone(),
            code: def.code.clone(),
            defaults,
            kwdefaults,
            closure,
            globals: f.globals.clone(),
            owner: RefCell::new(None),
            attrs: RefCell::new(attrs),
        })))
    }

    fn capture(&mut self, f: &Frame, caps: &[Capture]) -> PyResult<Vec<CellRef>> {
        let mut out = Vec::with_capacity(caps.len());
        for c in caps {
            let cell = match c {
                Capture::Cell(i) => f.cells.get(*i as usize),
                Capture::Free(i) => f.free.get(*i as usize),
            };
            match cell {
                Some(c) => out.push(c.clone()),
                None => {
                    return Err(PyException::new(
                        ExcType::SystemError,
                        "bad closure reference",
                    ));
                }
            }
        }
        Ok(out)
    }

    fn make_class_from_def(&mut self, f: &mut Frame, def: &ClassDef) -> PyResult<Value> {
        let mut bases = Vec::with_capacity(def.bases.len());
        for b in &def.bases {
            bases.push(self.eval(f, b)?);
        }
        let closure = self.capture(f, &def.captures)?;
        let ns = Rc::new(RefCell::new(Dict::new()));
        let module_name = f
            .globals
            .borrow()
            .get_str("__name__")
            .and_then(|v| v.as_str().map(|s| s.to_string()));
        ns.borrow_mut().set_str(
            "__module__",
            Value::string(module_name.clone().unwrap_or_else(|| "__main__".into())),
        );
        ns.borrow_mut()
            .set_str("__qualname__", Value::str(&def.body.qualname));
        ns.borrow_mut().set_str(
            "__doc__",
            match &def.body.doc {
                Some(d) => Value::Str(d.into()),
                None => Value::None,
            },
        );
        {
            let mut cf = Frame::new(&def.body, f.globals.clone(), &closure);
            cf.ns = Some(ns.clone());
            let r = self.exec_block(&mut cf, &def.body.body);
            r?;
        }
        let dict = std::mem::take(&mut *ns.borrow_mut());
        // A body may set `__module__` (json's `JSONDecodeError` says `json.decoder`).
        let module_name = match dict.get_str("__module__").and_then(|v| v.as_str()) {
            Some(m) => m.to_string(),
            None => module_name.unwrap_or_else(|| "__main__".into()),
        };
        let cls = self.make_class(&def.name, &module_name, bases, dict)?;
        Ok(Value::Class(cls))
    }

    // ------------------------------------------------------------ targets

    pub(crate) fn store(&mut self, f: &mut Frame, t: &Target, v: Value) -> PyResult<()> {
        match t {
            Target::Fast(i) => {
                if let Some(slot) = f.locals.get_mut(*i as usize) {
                    let old = slot.replace(v);
                    drop(old);
                }
            }
            Target::Cell(i) => {
                if let Some(c) = f.cells.get(*i as usize) {
                    let old = c.borrow_mut().replace(v);
                    drop(old);
                }
            }
            Target::Free(i) => {
                if let Some(c) = f.free.get(*i as usize) {
                    let old = c.borrow_mut().replace(v);
                    drop(old);
                }
            }
            Target::Global(n, h) => {
                let old = f.globals.borrow_mut().set_name_hashed(n, *h, v);
                drop(old);
            }
            Target::Name(n, h) => {
                let d = f.ns.clone().unwrap_or_else(|| f.globals.clone());
                let old = d.borrow_mut().set_name_hashed(n, *h, v);
                drop(old);
            }
            Target::Attr(obj, name, m) => {
                let o = self.eval(f, obj)?;
                self.setattr(&o, name, v).map_err(|e| e.mark(m))?;
            }
            Target::Item(obj, idx, m) => {
                let o = self.eval(f, obj)?;
                let k = self.eval(f, idx)?;
                self.setitem(&o, &k, v).map_err(|e| e.mark(m))?;
            }
            Target::Unpack(items, star, marks) => {
                let vals = self
                    .unpack(v, items.len(), *star)
                    .map_err(|e| e.mark(marks))?;
                for (t, v) in items.iter().zip(vals) {
                    self.store(f, t, v)?;
                }
            }
        }
        Ok(())
    }

    /// Split a value into exactly `n` parts (one of them a list when there is a starred target).
    fn unpack(&mut self, v: Value, n: usize, star: Option<usize>) -> PyResult<Vec<Value>> {
        let items = match &v {
            Value::Tuple(t) => (**t).clone(),
            Value::List(l) => l.borrow().clone(),
            _ => {
                if !self.is_iterable(&v) {
                    return Err(PyException::new(
                        ExcType::TypeError,
                        format!("cannot unpack non-iterable {} object", v.type_name()),
                    ));
                }
                self.iterate(&v)?
            }
        };
        drop(v);
        match star {
            None => {
                if items.len() > n {
                    return Err(PyException::new(
                        ExcType::ValueError,
                        format!("too many values to unpack (expected {n})"),
                    ));
                }
                if items.len() < n {
                    return Err(PyException::new(
                        ExcType::ValueError,
                        format!(
                            "not enough values to unpack (expected {n}, got {})",
                            items.len()
                        ),
                    ));
                }
                Ok(items)
            }
            Some(s) => {
                let fixed = n - 1;
                if items.len() < fixed {
                    return Err(PyException::new(
                        ExcType::ValueError,
                        format!(
                            "not enough values to unpack (expected at least {fixed}, got {})",
                            items.len()
                        ),
                    ));
                }
                let after = fixed - s;
                let mut items = items;
                let tail = items.split_off(items.len() - after);
                let mid = items.split_off(s);
                items.push(Value::list(mid));
                items.extend(tail);
                Ok(items)
            }
        }
    }

    fn delete(&mut self, f: &mut Frame, t: &Target) -> PyResult<()> {
        match t {
            Target::Fast(i) => match f.locals.get_mut(*i as usize).and_then(|s| s.take()) {
                Some(old) => drop(old),
                None => return Err(unbound_local(&f.code.local_names, *i)),
            },
            Target::Cell(i) => {
                let old = f.cells.get(*i as usize).and_then(|c| c.borrow_mut().take());
                if old.is_none() {
                    return Err(unbound_local(&f.code.cell_names, *i));
                }
            }
            Target::Free(i) => {
                let old = f.free.get(*i as usize).and_then(|c| c.borrow_mut().take());
                drop(old);
            }
            Target::Global(n, _) => {
                let old = f.globals.borrow_mut().remove_str(n);
                if old.is_none() {
                    return Err(name_error(n));
                }
            }
            Target::Name(n, _) => {
                let d = f.ns.clone().unwrap_or_else(|| f.globals.clone());
                let old = d.borrow_mut().remove_str(n);
                if old.is_none() {
                    return Err(name_error(n));
                }
            }
            Target::Attr(obj, name, m) => {
                let o = self.eval(f, obj)?;
                self.delattr(&o, name).map_err(|e| e.mark(m))?;
            }
            Target::Item(obj, idx, m) => {
                let o = self.eval(f, obj)?;
                let k = self.eval(f, idx)?;
                self.delitem(&o, &k).map_err(|e| e.mark(m))?;
            }
            Target::Unpack(items, ..) => {
                for t in items {
                    self.delete(f, t)?;
                }
            }
        }
        Ok(())
    }

    /// `t op= value`. Loading and storing the target fail at the target (`m`); the operation
    /// itself is left unmarked (CPython locates it at the whole statement).
    fn aug_assign(
        &mut self,
        f: &mut Frame,
        t: &Target,
        op: BinOp,
        value: &Expr,
        m: &Marks,
    ) -> PyResult<()> {
        match t {
            Target::Attr(obj, name, _) => {
                let o = self.eval(f, obj)?;
                let cur = self.getattr(&o, name).map_err(|e| e.mark(m))?;
                let rhs = self.eval(f, value)?;
                let nv = self.inplace_op(op, cur, &rhs)?;
                self.setattr(&o, name, nv).map_err(|e| e.mark(m))
            }
            Target::Item(obj, idx, _) => {
                let o = self.eval(f, obj)?;
                let k = self.eval(f, idx)?;
                let cur = self.getitem(&o, &k).map_err(|e| e.mark(m))?;
                let rhs = self.eval(f, value)?;
                let nv = self.inplace_op(op, cur, &rhs)?;
                self.setitem(&o, &k, nv).map_err(|e| e.mark(m))
            }
            Target::Unpack(..) => Err(PyException::new(
                ExcType::SyntaxError,
                "illegal expression for augmented assignment",
            )),
            _ => {
                let cur = self.load_target(f, t, m).map_err(|e| e.mark(m))?;
                let rhs = self.eval(f, value)?;
                if let (BinOp::Add, Value::Str(_), Value::Str(_)) = (op, &cur, &rhs) {
                    return self.concat_assign(f, t, cur, &rhs);
                }
                let nv = self.inplace_op(op, cur, &rhs)?;
                self.store(f, t, nv)
            }
        }
    }

    /// The current value of a name target (`m`: where a NameError points).
    fn load_target(&mut self, f: &mut Frame, t: &Target, m: &Marks) -> PyResult<Value> {
        if let Target::Fast(i) = t
            && let Some(Some(v)) = f.locals.get(*i as usize)
        {
            return Ok(v.clone());
        }
        let e = match t {
            Target::Fast(i) => Expr::Fast(*i),
            Target::Cell(i) => Expr::Cell(*i),
            Target::Free(i) => Expr::Free(*i),
            Target::Global(n, h) => Expr::Global(n.clone(), *h, *m),
            Target::Name(n, h) => Expr::Name(n.clone(), *h, *m),
            _ => {
                return Err(PyException::new(
                    ExcType::SystemError,
                    "bad augmented target",
                ));
            }
        };
        self.eval(f, &e)
    }

    // ------------------------------------------------------------ imports

    pub(crate) fn module_known(&self, name: &str) -> bool {
        self.modules.contains_key(name) || self.module_inits.contains_key(name)
    }

    /// Import a (possibly dotted) module, importing its parents first and linking it as an
    /// attribute of its parent; importing a package also makes its registered submodules
    /// reachable as attributes (`import torch` → `torch.nn`).
    pub(crate) fn import_module(&mut self, name: &str) -> PyResult<Value> {
        if let Some(m) = self.modules.get(name) {
            return Ok(m.clone());
        }
        if let Some((parent, child)) = name.rsplit_once('.') {
            let p = self.import_module(parent)?;
            if let Some(m) = self.modules.get(name) {
                return Ok(m.clone());
            }
            let _ = child;
            if !self.module_inits.contains_key(name) {
                return Err(PyException::new(
                    ExcType::ModuleNotFoundError,
                    format!("No module named '{name}'"),
                ));
            }
            let m = self.init_module(name)?;
            if let Value::Module(pm) = &p
                && pm.get_attr(child).is_none()
                && !self.detached.contains(name)
            {
                pm.set_attr(child, m.clone());
            }
            return Ok(m);
        }
        if !self.module_inits.contains_key(name) {
            if let Some(m) = self.import_script_sibling(name)? {
                return Ok(m);
            }
            return Err(PyException::new(
                ExcType::ModuleNotFoundError,
                format!("No module named '{name}'"),
            ));
        }
        self.init_module(name)
    }

    fn init_module(&mut self, name: &str) -> PyResult<Value> {
        let Some(init) = self.module_inits.get(name).cloned() else {
            return Err(PyException::new(
                ExcType::ModuleNotFoundError,
                format!("No module named '{name}'"),
            ));
        };
        self.initializing.insert(name.to_string());
        let m = init(self);
        self.initializing.remove(name);
        let m = m?;
        self.modules.insert(name.to_string(), m.clone());
        if self.lazy_packages.contains_key(name) {
            // children load at first access (`module_attr_missing`)
            return Ok(m);
        }
        // Link registered direct children.
        for short in self.registered_children(name) {
            let cm = self.import_module(&format!("{name}.{short}"))?;
            if let Value::Module(pm) = &m
                && pm.get_attr(&short).is_none()
            {
                pm.set_attr(&short, cm);
            }
        }
        Ok(m)
    }

    /// The last name part of each registered module directly below `package` that becomes
    /// its attribute (not the detached ones), sorted.
    fn registered_children(&self, package: &str) -> Vec<String> {
        let prefix = format!("{package}.");
        let mut children: Vec<String> = self
            .module_inits
            .keys()
            .filter(|k| !self.detached.contains(*k))
            .filter_map(|k| k.strip_prefix(&prefix))
            .filter(|rest| !rest.contains('.'))
            .map(str::to_string)
            .collect();
        children.sort();
        children
    }
}

impl Interpreter {
    /// Make the registered module `name` importable but never an attribute of its package,
    /// as a package that imports it and then `del`s the name.
    pub(crate) fn detach_submodule(&mut self, name: &str) {
        self.detached.insert(name.to_string());
    }

    /// Mark `package` as loading its registered submodules on first access; `fallback` (a
    /// registered module) is imported once when any other attribute is missing.
    pub(crate) fn set_lazy_package(&mut self, package: &str, fallback: Option<&str>) {
        self.lazy_packages
            .insert(package.to_string(), fallback.map(|f| f.to_string()));
    }

    /// An attribute a lazy package does not have yet: its registered submodule of that name,
    /// or whatever its fallback prelude defines. `None` when neither has it.
    pub(crate) fn module_attr_missing(
        &mut self,
        m: &Rc<super::super::value::Module>,
        name: &str,
    ) -> PyResult<Option<Value>> {
        if !self.deferred.is_empty() && self.run_deferred(&m.dict, name)? {
            return Ok(m.get_attr(name));
        }
        let Some(fallback) = self.lazy_packages.get(&*m.name).cloned() else {
            return Ok(None);
        };
        let sub = format!("{}.{name}", m.name);
        if self.initializing.contains(&sub) {
            // the child is running its own init (`from PACKAGE import *` in it): it is not
            // an attribute yet, as in CPython
            return Ok(None);
        }
        if !name.contains('.')
            && self.module_inits.contains_key(&sub)
            && !self.detached.contains(&sub)
        {
            let v = self.import_module(&sub)?;
            if m.get_attr(name).is_none() {
                m.set_attr(name, v.clone());
            }
            return Ok(Some(v));
        }
        if fallback.is_some() {
            self.import_lazy_fallback(m)?;
            // the fallback may have bound the name as a deferred alias (torch._extra's
            // `torch.NAME = NAME`)
            if m.get_attr(name).is_none() {
                self.run_deferred(&m.dict, name)?;
            }
            return Ok(m.get_attr(name));
        }
        Ok(None)
    }

    /// Import a lazy package's fallback prelude, once.
    fn import_lazy_fallback(&mut self, m: &Rc<super::super::value::Module>) -> PyResult<()> {
        // taken first, so a name the prelude itself misses while it runs does not import it
        // again
        let Some(fb) = self.lazy_packages.get_mut(&*m.name).and_then(Option::take) else {
            return Ok(());
        };
        if !self.modules.contains_key(&fb) {
            self.import_module(&fb)?;
        }
        Ok(())
    }

    /// Load everything a lazy package would load on demand (for `dir()`, `import *` and
    /// "Did you mean" suggestions, which must see every name).
    pub(crate) fn load_lazy_package(&mut self, m: &Rc<super::super::value::Module>) {
        // as for the lazy packages below, a failure shows at the first use of the name
        let _ = self.run_all_deferred(&m.dict);
        if !self.lazy_packages.contains_key(&*m.name) {
            return;
        }
        for c in self.registered_children(&m.name) {
            // a child that is initialising is skipped by module_attr_missing
            if m.get_attr(&c).is_none() {
                let _ = self.module_attr_missing(m, &c);
            }
        }
        let _ = self.import_lazy_fallback(m);
        // the fallback may have bound names as deferred aliases (torch._extra's
        // `torch.NAME = NAME`)
        let _ = self.run_all_deferred(&m.dict);
    }
}

/// `source` (text of `file`) parsed as a module, or its SyntaxError with the `<module>` frame.
pub(super) fn parse_source(
    source: &str,
    file: &Rc<str>,
) -> PyResult<rustpython_ruff_python_ast::ModModule> {
    match rustpython_ruff_python_parser::parse_module(source) {
        Ok(p) => Ok(p.into_syntax()),
        Err(err) => Err(module_frame(
            super::super::syntax_error::convert(&err, source),
            file,
        )),
    }
}

/// A compile error of `file` with the `<module>` frame tracebacks show for it.
pub(super) fn module_frame(mut e: PyException, file: &Rc<str>) -> PyException {
    e.push_frame(TraceEntry {
        file: file.clone(),
        line: e.0.line_hint.unwrap_or(0),
        func: "<module>".into(),
        marks: Marks::NONE,
    });
    e
}

/// CPython's UnboundLocalError for the variable in slot `slot` of one of a code object's name
/// tables (`local_names` for fast locals, `cell_names` for cells).
#[cold]
pub(crate) fn unbound_local(names: &[Rc<str>], slot: u32) -> PyException {
    let name = names.get(slot as usize).map_or("?", |n| &**n);
    PyException::new(
        ExcType::UnboundLocalError,
        format!("cannot access local variable '{name}' where it is not associated with a value"),
    )
}

pub(crate) fn name_error(name: &str) -> PyException {
    PyException::new(ExcType::NameError, format!("name '{name}' is not defined"))
}
