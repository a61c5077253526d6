//! Name resolution: ruff's AST → [`ir`](super::ir). Decides for every name whether it is a
//! fast local, a closure cell, a free variable, a global or a class-body name (CPython's
//! rules: assignment anywhere in a function makes a name local; `global`/`nonlocal` override;
//! comprehension variables do not leak), and rejects what the subset does not support with
//! `NotImplementedError: cudatutor does not support X (line N)`.

use std::collections::HashSet;
use std::rc::Rc;

use rustpython_ruff_python_ast as ast;
use rustpython_ruff_python_ast::visitor::{self, Visitor};
use rustpython_ruff_text_size::Ranged;

use super::errors::{PyException, PyResult};
use super::ir::*;
use super::marks::{Anchor, Marks};
use super::native::{BinOp, CmpOp, UnaryOp};
use super::value::{FxBuild, FxHashMap, KeyView, Value, key_hash};
use crate::script::ExcType;

/// Deeper expression/statement nesting than this is refused (CPython refuses ~200 nested
/// parentheses, and its compiler has a recursion limit too); it keeps every recursive pass
/// here and in the evaluator far from the end of the stack.
pub(super) const MAX_NESTING: usize = 150;

type NameSet = HashSet<Rc<str>, FxBuild>;

/// Byte offset → line/column.
pub(super) struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    pub(super) fn new(src: &str) -> LineIndex {
        let mut starts = vec![0];
        for (i, b) in src.bytes().enumerate() {
            if b == b'\n' {
                starts.push(i + 1);
            }
        }
        LineIndex { starts }
    }
    /// 1-based line of a byte offset.
    pub(super) fn line(&self, off: usize) -> u32 {
        self.starts.partition_point(|&s| s <= off).max(1) as u32
    }
    /// 1-based column (in characters) of a byte offset.
    pub(super) fn column(&self, src: &str, off: usize) -> u32 {
        let line = self.line(off) as usize;
        let start = self.starts.get(line - 1).copied().unwrap_or(0);
        let end = off.min(src.len());
        src.get(start..end)
            .map(|s| s.chars().count() as u32 + 1)
            .unwrap_or(1)
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Module,
    Class,
    Function,
}

#[derive(Clone, Copy)]
#[allow(dead_code)]
enum Slot {
    Fast(u32),
    Cell(u32),
    Free(u32),
}

struct Scope {
    kind: Kind,
    qualname: Rc<str>,
    locals: FxHashMap<Rc<str>, Slot>,
    local_names: Vec<Rc<str>>,
    cell_names: Vec<Rc<str>>,
    free_names: Vec<Rc<str>>,
    free_map: FxHashMap<Rc<str>, u32>,
    captures: Vec<Capture>,
    globals: NameSet,
    nonlocals: NameSet,
    /// Class bodies: names the body assigns.
    assigned: NameSet,
    /// Names used anywhere inside functions nested in this scope (an over-approximation of
    /// what must live in cells).
    captured: NameSet,
    overlays: Vec<FxHashMap<Rc<str>, Slot>>,
    in_loop: u32,
    /// A `yield` was compiled in this function: it is a generator.
    is_generator: bool,
    /// The comprehensions being compiled inline here, innermost last (`yield` is refused
    /// inside one, as CPython 3.8+ does).
    comps: Vec<&'static str>,
}

impl Scope {
    fn new(kind: Kind, qualname: Rc<str>) -> Scope {
        Scope {
            kind,
            qualname,
            locals: FxHashMap::default(),
            local_names: Vec::new(),
            cell_names: Vec::new(),
            free_names: Vec::new(),
            free_map: FxHashMap::default(),
            captures: Vec::new(),
            globals: NameSet::default(),
            nonlocals: NameSet::default(),
            assigned: NameSet::default(),
            captured: NameSet::default(),
            overlays: Vec::new(),
            in_loop: 0,
            is_generator: false,
            comps: Vec::new(),
        }
    }
    fn new_fast(&mut self, name: &Rc<str>) -> u32 {
        self.local_names.push(name.clone());
        (self.local_names.len() - 1) as u32
    }
    fn new_cell(&mut self, name: &Rc<str>) -> u32 {
        self.cell_names.push(name.clone());
        (self.cell_names.len() - 1) as u32
    }
}

pub(super) struct Compiler<'s> {
    src: &'s str,
    file: Rc<str>,
    lines: LineIndex,
    scopes: Vec<Scope>,
    interned: FxHashMap<String, Rc<str>>,
    depth: usize,
    /// Which line of its file each line of `src` is.
    numbers: LineNumbers,
    /// Methods of a top-level class whose bodies were cut from `src`, by the file line their
    /// statement starts on: their text, for [`DeferredBody`] (interp/lazy_methods.rs).
    deferring: FxHashMap<u32, &'static str>,
}

/// Where the lines of compiled text sit in their file (tracebacks, markers).
#[derive(Clone)]
pub(crate) enum LineNumbers {
    /// Consecutive, the first being this line: a prelude's deferred definition is compiled
    /// alone but keeps the line numbers it has in the whole prelude.
    From(u32),
    /// The line of each line of the text, in order: a prelude's eager statements, compiled
    /// without the deferred definitions between them (blank lines in their place cost the
    /// parser more than the statements).
    Each(Vec<u32>),
}

/// A name's hash in a [`Dict`](super::value::Dict), for global lookups without hashing.
fn name_hash(name: &str) -> u64 {
    key_hash(KeyView::Str(name))
}

fn unsupported(what: &str, line: u32) -> PyException {
    let mut e = PyException::new(
        ExcType::NotImplementedError,
        format!("cudatutor does not support {what} (line {line})"),
    );
    // The traceback's frame points at the line too (it said `line 0`, with no source line).
    e.0.line_hint = Some(line);
    e
}

fn too_deep(line: u32) -> PyException {
    let mut e = PyException::new(ExcType::SyntaxError, "too many nested parentheses");
    e.0.line_hint = Some(line);
    e
}

impl<'s> Compiler<'s> {
    pub(super) fn new(src: &'s str, file: Rc<str>) -> Compiler<'s> {
        Compiler {
            src,
            file,
            lines: LineIndex::new(src),
            scopes: Vec::new(),
            interned: FxHashMap::default(),
            depth: 0,
            numbers: LineNumbers::From(1),
            deferring: FxHashMap::default(),
        }
    }

    /// The compiler for a class text whose methods starting at these file lines have their
    /// bodies cut (texts as written, for their compile at the first call).
    pub(super) fn deferring(mut self, methods: FxHashMap<u32, &'static str>) -> Compiler<'s> {
        self.deferring = methods;
        self
    }

    /// The code of a method whose body was cut: `body` is a module of one class whose body is
    /// the method's statement, compiled as the method of the top-level class `class_qualname`
    /// (what compiling the whole class gives it: a top-level class's methods see only their
    /// own names and the module's).
    pub(super) fn compile_deferred_method(
        &mut self,
        body: &[ast::Stmt],
        class_qualname: Rc<str>,
    ) -> PyResult<FuncCode> {
        let method = match body {
            [ast::Stmt::ClassDef(c)] => match &c.body[..] {
                [ast::Stmt::FunctionDef(f)] if !f.is_async => Some(f),
                _ => None,
            },
            _ => None,
        };
        let Some(f) = method else {
            return Err(PyException::new(
                ExcType::SystemError,
                "a deferred method's text is not one method",
            ));
        };
        self.check_nesting(body)?;
        self.scopes.push(Scope::new(Kind::Module, "".into()));
        self.scopes.push(Scope::new(Kind::Class, class_qualname));
        let line = self.line_of(f);
        let name = self.name(f.name.as_str());
        let def = self.function_annotated(
            &name,
            &f.parameters,
            FnBody::Stmts(&f.body),
            line,
            f.returns.as_deref(),
        );
        self.scopes.clear();
        let def = def?;
        Rc::try_unwrap(def.code).map_err(|_| {
            PyException::new(ExcType::SystemError, "a deferred method's code is shared")
        })
    }

    /// The cut body of the method whose statement starts at `line`, when it is one: only in
    /// a class body at the top level.
    fn deferred_body(&self, line: u32) -> Option<Box<DeferredBody>> {
        let [module, class] = &self.scopes[..] else {
            return None;
        };
        if module.kind != Kind::Module || class.kind != Kind::Class {
            return None;
        }
        let text = self.deferring.get(&line)?;
        Some(Box::new(DeferredBody {
            text,
            first_line: line,
            file: self.file.clone(),
            class_qualname: class.qualname.clone(),
            compiled: std::cell::OnceCell::new(),
        }))
    }

    /// The compiler for `src` whose lines are the lines `numbers` of its file.
    pub(super) fn numbered(mut self, numbers: LineNumbers) -> Compiler<'s> {
        self.numbers = numbers;
        self
    }

    /// The line of the file that is line `line` (from 1) of `src`.
    fn file_line(&self, line: u32) -> u32 {
        match &self.numbers {
            LineNumbers::From(first) => line + first.saturating_sub(1),
            LineNumbers::Each(each) => (line as usize)
                .checked_sub(1)
                .and_then(|i| each.get(i))
                .copied()
                .unwrap_or(line),
        }
    }

    fn name(&mut self, s: &str) -> Rc<str> {
        if let Some(r) = self.interned.get(s) {
            return r.clone();
        }
        let r: Rc<str> = s.into();
        self.interned.insert(s.to_string(), r.clone());
        r
    }

    fn line_of<T: Ranged>(&self, node: &T) -> u32 {
        self.file_line(self.lines.line(node.start().to_usize()))
    }

    /// Where a traceback marks an assignment target: a subscript with its anchors.
    fn target_marks(&self, e: &ast::Expr) -> Marks {
        match e {
            ast::Expr::Subscript(s) => self.subscript_marks(s),
            _ => self.marks(e, Anchor::None),
        }
    }

    /// A subscript's markers: `~` under the value, `^` under `[...]`.
    fn subscript_marks(&self, s: &ast::ExprSubscript) -> Marks {
        self.marks(
            s,
            Anchor::Subscript {
                value_end: s.value.end().to_usize(),
                slice_end: s.slice.end().to_usize(),
            },
        )
    }

    /// Where a traceback marks `node` when it fails (see `marks.rs`): its position only, in
    /// constant time (the line index gives where its line starts and ends).
    fn marks<T: Ranged>(&self, node: &T, anchor: Anchor) -> Marks {
        let start = node.start().to_usize();
        let line = self.lines.line(start);
        let at = |l: u32| self.lines.starts.get(l as usize).copied();
        let line_start = at(line - 1).unwrap_or(0);
        // The next line's start is one past this line's newline.
        let line_end = at(line).map_or(self.src.len(), |next| next - 1);
        Marks::new(
            self.file_line(line),
            line_start,
            line_end,
            start,
            node.end().to_usize(),
            anchor,
        )
    }

    fn scope(&mut self) -> &mut Scope {
        let n = self.scopes.len() - 1;
        &mut self.scopes[n]
    }

    /// CPython's SyntaxError for a tree nested deeper than the compiler recurses, at the
    /// first place past the limit.
    fn check_nesting(&self, body: &[ast::Stmt]) -> PyResult<()> {
        check_depth(body).map_err(|off| {
            let mut e = too_deep(self.file_line(self.lines.line(off)));
            e.0.column = Some(self.lines.column(self.src, off));
            e
        })
    }

    /// Compile a module body.
    pub(super) fn compile_module(&mut self, body: &[ast::Stmt], name: &str) -> PyResult<FuncCode> {
        self.check_nesting(body)?;
        let mut sc = Scope::new(Kind::Module, "".into());
        sc.captured = nested_names(body, &mut self.interned);
        self.scopes.push(sc);
        let stmts = self.block(body)?;
        let sc = self
            .scopes
            .pop()
            .unwrap_or_else(|| Scope::new(Kind::Module, "".into()));
        Ok(FuncCode {
            name: "<module>".into(),
            qualname: name.into(),
            file: self.file.clone(),
            line: 1,
            params: Vec::new(),
            posonly: 0,
            vararg: None,
            kwonly: Vec::new(),
            kwarg: None,
            local_names: sc.local_names,
            cell_names: sc.cell_names,
            param_cells: Vec::new(),
            free_names: sc.free_names,
            body: stmts,
            is_lambda: false,
            is_generator: false,
            doc: docstring(body),
            deferred: None,
        })
    }

    fn block(&mut self, body: &[ast::Stmt]) -> PyResult<Vec<Stmt>> {
        let mut out = Vec::with_capacity(body.len());
        for s in body {
            if let Some(st) = self.stmt(s)? {
                out.push(st);
            }
        }
        Ok(out)
    }

    fn enter(&mut self, line: u32) -> PyResult<()> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(too_deep(line));
        }
        Ok(())
    }

    fn stmt(&mut self, s: &ast::Stmt) -> PyResult<Option<Stmt>> {
        let line = self.line_of(s);
        self.enter(line)?;
        let r = self.stmt_inner(s, line);
        self.depth -= 1;
        Ok(r?.map(|kind| Stmt { line, kind }))
    }

    fn stmt_inner(&mut self, s: &ast::Stmt, line: u32) -> PyResult<Option<StmtKind>> {
        use ast::Stmt as S;
        Ok(Some(match s {
            S::Expr(e) => StmtKind::Expr(self.expr(&e.value)?),
            S::Assign(a) => {
                let value = self.expr(&a.value)?;
                let mut ts = Vec::with_capacity(a.targets.len());
                for t in &a.targets {
                    ts.push(self.target(t)?);
                }
                match (ts.as_slice(), value) {
                    ([t], Expr::Bin(BinOp::Add, left, right, marks)) if same_variable(t, &left) => {
                        StmtKind::ConcatAssign {
                            target: ts.swap_remove(0),
                            left: *left,
                            right: *right,
                            marks,
                        }
                    }
                    (_, value) => StmtKind::Assign(ts, value),
                }
            }
            S::AnnAssign(a) => {
                let assign = match &a.value {
                    Some(v) => {
                        let value = self.expr(v)?;
                        Some(StmtKind::Assign(vec![self.target(&a.target)?], value))
                    }
                    None => None,
                };
                // CPython evaluates and records a simple name's annotation in class bodies
                // and modules (not in functions).
                let recorded = match (&*a.target, self.scope().kind) {
                    (ast::Expr::Name(n), Kind::Class | Kind::Module) if a.simple => {
                        let name = self.name(n.id.as_str());
                        Some(StmtKind::Annotate(name, self.expr(&a.annotation)?))
                    }
                    _ => None,
                };
                match (assign, recorded) {
                    (None, None) => return Ok(None),
                    (Some(k), None) | (None, Some(k)) => k,
                    (Some(a), Some(r)) => {
                        block_kind(vec![Stmt { line, kind: a }, Stmt { line, kind: r }])
                    }
                }
            }
            S::AugAssign(a) => {
                let value = self.expr(&a.value)?;
                let marks = self.target_marks(&a.target);
                StmtKind::AugAssign(self.target(&a.target)?, binop(a.op), value, marks)
            }
            S::Pass(_) => StmtKind::Pass,
            S::Break(_) | S::Continue(_) => {
                if self.scope().in_loop == 0 {
                    let mut e = PyException::new(
                        ExcType::SyntaxError,
                        if matches!(s, S::Break(_)) {
                            "'break' outside loop"
                        } else {
                            "'continue' not properly in loop"
                        },
                    );
                    e.0.line_hint = Some(line);
                    return Err(e);
                }
                if matches!(s, S::Break(_)) {
                    StmtKind::Break
                } else {
                    StmtKind::Continue
                }
            }
            S::Return(r) => {
                if self.scope().kind != Kind::Function {
                    let mut e = PyException::new(ExcType::SyntaxError, "'return' outside function");
                    e.0.line_hint = Some(line);
                    return Err(e);
                }
                StmtKind::Return(match &r.value {
                    Some(v) => Some(self.expr(v)?),
                    None => None,
                })
            }
            S::If(i) => {
                let test = self.expr(&i.test)?;
                let body = self.block(&i.body)?;
                // elif chains become nested ifs in the else branch.
                let mut orelse = Vec::new();
                for clause in i.elif_else_clauses.iter().rev() {
                    let b = self.block(&clause.body)?;
                    match &clause.test {
                        None => orelse = b,
                        Some(t) => {
                            let cl = self.line_of(clause);
                            let t = self.expr(t)?;
                            orelse = vec![Stmt {
                                line: cl,
                                kind: StmtKind::If(t, b, orelse),
                            }];
                        }
                    }
                }
                StmtKind::If(test, body, orelse)
            }
            S::While(w) => {
                let test = self.expr(&w.test)?;
                self.scope().in_loop += 1;
                let body = self.block(&w.body);
                self.scope().in_loop -= 1;
                let orelse = self.block(&w.orelse)?;
                StmtKind::While(test, body?, orelse)
            }
            S::For(f) => {
                if f.is_async {
                    return Err(unsupported("async for", line));
                }
                let iter = self.expr(&f.iter)?;
                let target = self.target(&f.target)?;
                self.scope().in_loop += 1;
                let body = self.block(&f.body);
                self.scope().in_loop -= 1;
                let orelse = self.block(&f.orelse)?;
                StmtKind::For(target, iter, body?, orelse)
            }
            S::Raise(r) => {
                let exc = match &r.exc {
                    Some(e) => Some(self.expr(e)?),
                    None => None,
                };
                let cause = match &r.cause {
                    Some(e) => Some(self.expr(e)?),
                    None => None,
                };
                StmtKind::Raise(exc, cause)
            }
            S::Try(t) => {
                if t.is_star {
                    return Err(unsupported("except*", line));
                }
                let body = self.block(&t.body)?;
                let mut handlers = Vec::new();
                for h in &t.handlers {
                    let ast::ExceptHandler::ExceptHandler(h) = h;
                    let hl = self.line_of(h);
                    let typ = match &h.type_ {
                        Some(e) => Some(self.expr(e)?),
                        None => None,
                    };
                    let name = match &h.name {
                        Some(n) => {
                            let n = self.name(n.as_str());
                            Some(self.store_name(&n, hl)?)
                        }
                        None => None,
                    };
                    let body = self.block(&h.body)?;
                    handlers.push(Handler {
                        line: hl,
                        typ,
                        name,
                        body,
                    });
                }
                let orelse = self.block(&t.orelse)?;
                let finalbody = self.block(&t.finalbody)?;
                StmtKind::Try {
                    body,
                    handlers,
                    orelse,
                    finalbody,
                }
            }
            S::With(w) => {
                if w.is_async {
                    return Err(unsupported("async with", line));
                }
                let mut items = Vec::new();
                for item in &w.items {
                    let e = self.expr(&item.context_expr)?;
                    let t = match &item.optional_vars {
                        Some(v) => Some(self.target(v)?),
                        None => None,
                    };
                    items.push((e, t));
                }
                StmtKind::With(items, self.block(&w.body)?)
            }
            S::FunctionDef(f) => {
                if f.is_async {
                    return Err(unsupported("async def", line));
                }
                if f.type_params.is_some() {
                    return Err(unsupported("type parameters", line));
                }
                let mut decorators = Vec::new();
                for d in &f.decorator_list {
                    decorators.push(self.expr(&d.expression)?);
                }
                let name = self.name(f.name.as_str());
                let mut func = self.function_annotated(
                    &name,
                    &f.parameters,
                    FnBody::Stmts(&f.body),
                    line,
                    f.returns.as_deref(),
                )?;
                if let Some(d) = self.deferred_body(line)
                    && let Some(code) = Rc::get_mut(&mut func.code)
                {
                    code.deferred = Some(d);
                }
                let target = self.store_name(&name, line)?;
                StmtKind::Def {
                    decorators,
                    func: Rc::new(func),
                    target,
                }
            }
            S::ClassDef(c) => {
                if c.type_params.is_some() {
                    return Err(unsupported("type parameters", line));
                }
                let mut decorators = Vec::new();
                for d in &c.decorator_list {
                    decorators.push(self.expr(&d.expression)?);
                }
                let mut bases = Vec::new();
                if let Some(args) = &c.arguments {
                    if !args.keywords.is_empty() {
                        return Err(unsupported("class keyword arguments (metaclass=…)", line));
                    }
                    for b in args.args.iter() {
                        if matches!(b, ast::Expr::Starred(_)) {
                            return Err(unsupported("starred base classes", line));
                        }
                        bases.push(self.expr(b)?);
                    }
                }
                let name = self.name(c.name.as_str());
                let class = self.class_body(&name, &c.body, bases, line)?;
                let target = self.store_name(&name, line)?;
                StmtKind::Class {
                    decorators,
                    class: Rc::new(class),
                    target,
                }
            }
            S::Import(i) => {
                let mut out = Vec::new();
                for a in &i.names {
                    let full = self.name(a.name.as_str());
                    let (bind, bind_top) = match &a.asname {
                        Some(asn) => (self.name(asn.as_str()), false),
                        None => {
                            let top = a.name.as_str().split('.').next().unwrap_or("");
                            (self.name(top), true)
                        }
                    };
                    let target = self.store_name(&bind, line)?;
                    out.push(Stmt {
                        line,
                        kind: StmtKind::Import {
                            module: full,
                            bind_top,
                            target,
                        },
                    });
                }
                return Ok(Some(block_kind(out)));
            }
            S::ImportFrom(i) => {
                if i.level > 0 {
                    return Err(unsupported("relative imports", line));
                }
                let module = self.name(i.module.as_ref().map(|m| m.as_str()).unwrap_or(""));
                if i.names.iter().any(|a| a.name.as_str() == "*") {
                    if self.scope().kind == Kind::Function {
                        let mut e = PyException::new(
                            ExcType::SyntaxError,
                            "import * only allowed at module level",
                        );
                        e.0.line_hint = Some(line);
                        return Err(e);
                    }
                    return Ok(Some(StmtKind::ImportStar { module }));
                }
                let mut names = Vec::new();
                for a in &i.names {
                    let n = self.name(a.name.as_str());
                    let bind = match &a.asname {
                        Some(asn) => self.name(asn.as_str()),
                        None => n.clone(),
                    };
                    names.push((n, self.store_name(&bind, line)?));
                }
                StmtKind::ImportFrom { module, names }
            }
            S::Delete(d) => {
                let mut ts = Vec::new();
                for t in &d.targets {
                    ts.push(self.target(t)?);
                }
                StmtKind::Delete(ts)
            }
            S::Assert(a) => {
                let test = self.expr(&a.test)?;
                let msg = match &a.msg {
                    Some(m) => Some(self.expr(m)?),
                    None => None,
                };
                StmtKind::Assert(test, msg, self.marks(&*a.test, Anchor::None))
            }
            S::Global(_) | S::Nonlocal(_) => return Ok(None),
            S::Match(_) => return Err(unsupported("match statements", line)),
            S::TypeAlias(_) => return Err(unsupported("type aliases", line)),
            S::IpyEscapeCommand(_) => return Err(unsupported("IPython escape commands", line)),
        }))
    }

    /// Compile a `def` or `lambda` into a new function scope.
    fn function(
        &mut self,
        name: &Rc<str>,
        params: &ast::Parameters,
        body: FnBody,
        line: u32,
    ) -> PyResult<FuncDef> {
        self.function_annotated(name, params, body, line, None)
    }

    fn function_annotated(
        &mut self,
        name: &Rc<str>,
        params: &ast::Parameters,
        body: FnBody,
        line: u32,
        returns: Option<&ast::Expr>,
    ) -> PyResult<FuncDef> {
        // Defaults are evaluated in the enclosing scope, at definition time.
        let mut defaults = Vec::new();
        for p in params.posonlyargs.iter().chain(&params.args) {
            if let Some(d) = &p.default {
                defaults.push(self.expr(d)?);
            }
        }
        let mut kwdefaults = Vec::new();
        for p in &params.kwonlyargs {
            kwdefaults.push(match &p.default {
                Some(d) => Some(self.expr(d)?),
                None => None,
            });
        }
        // Annotations too (CPython 3.11 without `from __future__ import annotations`), in
        // parameter order, `return` last.
        let mut annotations = Vec::new();
        {
            let mut ann: Vec<(&str, &ast::Expr)> = Vec::new();
            for p in params.posonlyargs.iter().chain(&params.args) {
                if let Some(a) = &p.parameter.annotation {
                    ann.push((p.parameter.name.as_str(), a));
                }
            }
            if let Some(p) = &params.vararg
                && let Some(a) = &p.annotation
            {
                ann.push((p.name.as_str(), a));
            }
            for p in &params.kwonlyargs {
                if let Some(a) = &p.parameter.annotation {
                    ann.push((p.parameter.name.as_str(), a));
                }
            }
            if let Some(p) = &params.kwarg
                && let Some(a) = &p.annotation
            {
                ann.push((p.name.as_str(), a));
            }
            if let Some(r) = returns {
                ann.push(("return", r));
            }
            for (n, a) in ann {
                let n = self.name(n);
                annotations.push((n, self.expr(a)?));
            }
        }
        let qualname = self.child_qualname(name);
        let mut sc = Scope::new(Kind::Function, qualname.clone());
        // Which names this function binds, declares global/nonlocal, and lends to nested code.
        let mut coll = Assigned::new(&mut self.interned);
        match &body {
            FnBody::Stmts(b) => {
                for s in *b {
                    coll.visit_stmt(s);
                }
            }
            FnBody::Expr(e) => coll.visit_expr(e),
        }
        let (assigned, globals, nonlocals) = (coll.names, coll.globals, coll.nonlocals);
        sc.captured = match &body {
            FnBody::Stmts(b) => nested_names(b, &mut self.interned),
            FnBody::Expr(e) => nested_names_expr(e, &mut self.interned),
        };
        sc.globals = globals;
        sc.nonlocals = nonlocals;
        let mut pnames: Vec<Rc<str>> = Vec::new();
        for p in params.posonlyargs.iter().chain(&params.args) {
            pnames.push(self.name(p.parameter.name.as_str()));
        }
        let vararg = params
            .vararg
            .as_ref()
            .map(|p| p.name.as_str().to_string())
            .map(|n| self.name(&n));
        let kwonly: Vec<Rc<str>> = params
            .kwonlyargs
            .iter()
            .map(|p| p.parameter.name.as_str().to_string())
            .collect::<Vec<_>>()
            .iter()
            .map(|n| self.name(n))
            .collect();
        let kwarg = params
            .kwarg
            .as_ref()
            .map(|p| p.name.as_str().to_string())
            .map(|n| self.name(&n));
        let mut all_params: Vec<Rc<str>> = pnames.clone();
        all_params.extend(vararg.iter().cloned());
        all_params.extend(kwonly.iter().cloned());
        all_params.extend(kwarg.iter().cloned());
        let mut param_cells = Vec::new();
        let mut seen = NameSet::default();
        for p in &all_params {
            if !seen.insert(p.clone()) {
                let mut e = PyException::new(
                    ExcType::SyntaxError,
                    format!("duplicate argument '{p}' in function definition"),
                );
                e.0.line_hint = Some(line);
                return Err(e);
            }
            let slot = sc.new_fast(p);
            if sc.captured.contains(p) {
                let c = sc.new_cell(p);
                param_cells.push((slot, c));
                sc.locals.insert(p.clone(), Slot::Cell(c));
            } else {
                sc.locals.insert(p.clone(), Slot::Fast(slot));
            }
        }
        let mut names: Vec<&Rc<str>> = assigned.iter().collect();
        names.sort();
        for n in names {
            if sc.locals.contains_key(n) || sc.globals.contains(n) || sc.nonlocals.contains(n) {
                continue;
            }
            let slot = if sc.captured.contains(n) {
                Slot::Cell(sc.new_cell(n))
            } else {
                Slot::Fast(sc.new_fast(n))
            };
            sc.locals.insert(n.clone(), slot);
        }
        self.scopes.push(sc);
        let saved_depth = self.depth;
        let body_ir = match body {
            FnBody::Stmts(b) => self.block(b),
            FnBody::Expr(e) => self.expr(e).map(|e| {
                vec![Stmt {
                    line,
                    kind: StmtKind::Return(Some(e)),
                }]
            }),
        };
        self.depth = saved_depth;
        let sc = match self.scopes.pop() {
            Some(s) => s,
            None => {
                return Err(PyException::new(
                    ExcType::SystemError,
                    "scope stack underflow",
                ));
            }
        };
        let body_ir = body_ir?;
        for n in &sc.nonlocals {
            if !sc.free_map.contains_key(n) {
                // Declared but never used: still must exist in an enclosing function.
                let mut e = PyException::new(
                    ExcType::SyntaxError,
                    format!("no binding for nonlocal '{n}' found"),
                );
                e.0.line_hint = Some(line);
                if !self.nonlocal_exists(n) {
                    return Err(e);
                }
            }
        }
        let code = FuncCode {
            name: name.clone(),
            qualname,
            file: self.file.clone(),
            line,
            posonly: params.posonlyargs.len(),
            params: pnames,
            vararg,
            kwonly,
            kwarg,
            local_names: sc.local_names,
            cell_names: sc.cell_names,
            param_cells,
            free_names: sc.free_names,
            body: body_ir,
            is_lambda: matches!(body, FnBody::Expr(_)),
            is_generator: sc.is_generator,
            doc: match body {
                FnBody::Stmts(b) => docstring(b),
                FnBody::Expr(_) => None,
            },
            deferred: None,
        };
        Ok(FuncDef {
            code: Rc::new(code),
            defaults,
            kwdefaults,
            captures: sc.captures,
            annotations,
        })
    }

    /// A `yield` in the current scope: it makes the function a generator; elsewhere it is
    /// CPython's SyntaxError.
    fn note_yield(&mut self, line: u32) -> PyResult<()> {
        let sc = self.scope();
        let msg = match (sc.comps.last(), sc.kind) {
            (Some(what), _) => format!("'yield' inside {what}"),
            (None, Kind::Function) => {
                sc.is_generator = true;
                return Ok(());
            }
            (None, _) => "'yield' outside function".to_string(),
        };
        let mut e = PyException::new(ExcType::SyntaxError, msg);
        e.0.line_hint = Some(line);
        Err(e)
    }

    /// `(elt for t in it if c ...)` as CPython compiles it: a generator function `<genexpr>`
    /// whose one parameter `.0` is the outermost iterator (evaluated by the caller, in the
    /// enclosing scope), with the loops, conditions and `yield elt` as its body.
    fn genexpr(&mut self, c: &ast::ExprGenerator, line: u32, marks: Marks) -> PyResult<Expr> {
        let gens = &c.generators;
        let Some(first) = gens.first() else {
            let mut e = PyException::new(ExcType::SyntaxError, "invalid syntax");
            e.0.line_hint = Some(line);
            return Err(e);
        };
        if gens.iter().any(|g| g.is_async) {
            return Err(unsupported("async comprehensions", line));
        }
        let iter = self.expr(&first.iter)?;
        let parent_q = self
            .scopes
            .last()
            .map(|s| s.qualname.clone())
            .unwrap_or_else(|| "".into());
        let parent_kind = self.scopes.last().map(|s| s.kind).unwrap_or(Kind::Module);
        let qualname: Rc<str> = match parent_kind {
            Kind::Module => "<genexpr>".into(),
            Kind::Class => format!("{parent_q}.<genexpr>").into(),
            Kind::Function => format!("{parent_q}.<locals>.<genexpr>").into(),
        };
        let mut sc = Scope::new(Kind::Function, qualname.clone());
        sc.comps.push("generator expression");
        let mut captured = NameSet::default();
        let mut parts: Vec<&ast::Expr> = vec![&c.elt];
        for (i, g) in gens.iter().enumerate() {
            if i > 0 {
                parts.push(&g.iter);
            }
            parts.extend(g.ifs.iter());
        }
        for p in parts {
            captured.extend(nested_names_expr(p, &mut self.interned));
        }
        sc.captured = captured;
        let dot0 = self.name(".0");
        let slot0 = sc.new_fast(&dot0);
        sc.locals.insert(dot0.clone(), Slot::Fast(slot0));
        for g in gens {
            let mut names = Vec::new();
            collect_target_names(&g.target, &mut names);
            for n in names {
                let n = self.name(&n);
                if sc.locals.contains_key(&n) {
                    continue;
                }
                let slot = if sc.captured.contains(&n) {
                    Slot::Cell(sc.new_cell(&n))
                } else {
                    Slot::Fast(sc.new_fast(&n))
                };
                sc.locals.insert(n, slot);
            }
        }
        self.scopes.push(sc);
        let saved_depth = self.depth;
        let body = self.genexpr_body(c);
        self.depth = saved_depth;
        let sc = match self.scopes.pop() {
            Some(s) => s,
            None => {
                return Err(PyException::new(
                    ExcType::SystemError,
                    "scope stack underflow",
                ));
            }
        };
        let code = FuncCode {
            name: "<genexpr>".into(),
            qualname,
            file: self.file.clone(),
            line,
            params: vec![dot0],
            posonly: 0,
            vararg: None,
            kwonly: Vec::new(),
            kwarg: None,
            local_names: sc.local_names,
            cell_names: sc.cell_names,
            param_cells: Vec::new(),
            free_names: sc.free_names,
            body: body?,
            is_lambda: false,
            is_generator: true,
            doc: None,
            deferred: None,
        };
        Ok(Expr::GenExpr {
            def: Rc::new(FuncDef {
                code: Rc::new(code),
                defaults: Vec::new(),
                kwdefaults: Vec::new(),
                captures: sc.captures,
                annotations: Vec::new(),
            }),
            iter: Box::new(iter),
            marks,
        })
    }

    /// The body of a `<genexpr>` (in its own scope): nested `for`s over `.0` and the inner
    /// iterables, each `if` as a nested `if`, and `yield elt` innermost. Parts are compiled in
    /// source order, as their free variables are registered in that order.
    fn genexpr_body(&mut self, c: &ast::ExprGenerator) -> PyResult<Vec<Stmt>> {
        type Level = (Target, Expr, Vec<(u32, Expr)>, u32);
        let mut levels: Vec<Level> = Vec::new();
        for (i, g) in c.generators.iter().enumerate() {
            let iter = if i == 0 {
                Expr::Fast(0)
            } else {
                self.expr(&g.iter)?
            };
            let target = self.target(&g.target)?;
            let mut ifs = Vec::new();
            for cond in &g.ifs {
                ifs.push((self.line_of(cond), self.expr(cond)?));
            }
            levels.push((target, iter, ifs, self.line_of(g)));
        }
        let elt_line = self.line_of(&*c.elt);
        let elt = self.expr(&c.elt)?;
        let mut body = vec![Stmt {
            line: elt_line,
            kind: StmtKind::Expr(Expr::Yield(Some(Box::new(elt)))),
        }];
        for (target, iter, ifs, line) in levels.into_iter().rev() {
            for (l, cond) in ifs.into_iter().rev() {
                body = vec![Stmt {
                    line: l,
                    kind: StmtKind::If(cond, body, Vec::new()),
                }];
            }
            body = vec![Stmt {
                line,
                kind: StmtKind::For(target, iter, body, Vec::new()),
            }];
        }
        Ok(body)
    }

    fn nonlocal_exists(&self, n: &str) -> bool {
        self.scopes
            .iter()
            .rev()
            .any(|s| s.kind == Kind::Function && s.locals.contains_key(n))
    }

    /// `__qualname__` of a function or class named `name` defined in the current scope
    /// (CPython's compiler_set_qualname: `Outer.name`, `f.<locals>.name`).
    fn child_qualname(&self, name: &Rc<str>) -> Rc<str> {
        let parent_q = self
            .scopes
            .last()
            .map(|s| s.qualname.clone())
            .unwrap_or_else(|| "".into());
        let parent_kind = self.scopes.last().map(|s| s.kind).unwrap_or(Kind::Module);
        match parent_kind {
            Kind::Module => name.clone(),
            Kind::Class => format!("{parent_q}.{name}").into(),
            Kind::Function => format!("{parent_q}.<locals>.{name}").into(),
        }
    }

    fn class_body(
        &mut self,
        name: &Rc<str>,
        body: &[ast::Stmt],
        bases: Vec<Expr>,
        line: u32,
    ) -> PyResult<ClassDef> {
        let qualname = self.child_qualname(name);
        let mut sc = Scope::new(Kind::Class, qualname.clone());
        let mut coll = Assigned::new(&mut self.interned);
        for s in body {
            coll.visit_stmt(s);
        }
        sc.assigned = coll.names;
        sc.globals = coll.globals;
        sc.captured = nested_names(body, &mut self.interned);
        self.scopes.push(sc);
        let saved_loop = 0;
        let b = self.block(body);
        let sc = match self.scopes.pop() {
            Some(s) => s,
            None => {
                return Err(PyException::new(
                    ExcType::SystemError,
                    "scope stack underflow",
                ));
            }
        };
        let _ = saved_loop;
        let code = FuncCode {
            name: name.clone(),
            qualname,
            file: self.file.clone(),
            line,
            params: Vec::new(),
            posonly: 0,
            vararg: None,
            kwonly: Vec::new(),
            kwarg: None,
            local_names: sc.local_names,
            cell_names: sc.cell_names,
            param_cells: Vec::new(),
            free_names: sc.free_names,
            body: b?,
            is_lambda: false,
            is_generator: false,
            doc: docstring(body),
            deferred: None,
        };
        Ok(ClassDef {
            name: name.clone(),
            bases,
            body: Rc::new(code),
            captures: sc.captures,
        })
    }

    // ------------------------------------------------------------ names

    fn find_overlay(&self, i: usize, name: &str) -> Option<Slot> {
        let sc = self.scopes.get(i)?;
        for o in sc.overlays.iter().rev() {
            if let Some(s) = o.get(name) {
                return Some(*s);
            }
        }
        None
    }

    fn load_name(&mut self, name: &Rc<str>) -> Expr {
        let i = self.scopes.len() - 1;
        if let Some(s) = self.find_overlay(i, name) {
            return slot_expr(s);
        }
        let sc = &self.scopes[i];
        match sc.kind {
            Kind::Module => Expr::Global(name.clone(), name_hash(name), Marks::NONE),
            Kind::Function => {
                if sc.globals.contains(name) {
                    return Expr::Global(name.clone(), name_hash(name), Marks::NONE);
                }
                if let Some(s) = sc.locals.get(name) {
                    return slot_expr(*s);
                }
                match self.resolve_free(i, name) {
                    Some(f) => Expr::Free(f),
                    None => Expr::Global(name.clone(), name_hash(name), Marks::NONE),
                }
            }
            Kind::Class => {
                if sc.globals.contains(name) {
                    return Expr::Global(name.clone(), name_hash(name), Marks::NONE);
                }
                if sc.assigned.contains(name) {
                    return Expr::Name(name.clone(), name_hash(name), Marks::NONE);
                }
                match self.resolve_free(i, name) {
                    Some(f) => Expr::Free(f),
                    None => Expr::Name(name.clone(), name_hash(name), Marks::NONE),
                }
            }
        }
    }

    fn store_name(&mut self, name: &Rc<str>, line: u32) -> PyResult<Target> {
        let i = self.scopes.len() - 1;
        if let Some(s) = self.find_overlay(i, name) {
            return Ok(slot_target(s));
        }
        let sc = &self.scopes[i];
        Ok(match sc.kind {
            Kind::Module => Target::Global(name.clone(), name_hash(name)),
            Kind::Class => {
                if sc.globals.contains(name) {
                    Target::Global(name.clone(), name_hash(name))
                } else {
                    Target::Name(name.clone(), name_hash(name))
                }
            }
            Kind::Function => {
                if sc.globals.contains(name) {
                    return Ok(Target::Global(name.clone(), name_hash(name)));
                }
                if sc.nonlocals.contains(name) {
                    return match self.resolve_free(i, name) {
                        Some(f) => Ok(Target::Free(f)),
                        None => {
                            let mut e = PyException::new(
                                ExcType::SyntaxError,
                                format!("no binding for nonlocal '{name}' found"),
                            );
                            e.0.line_hint = Some(line);
                            Err(e)
                        }
                    };
                }
                match sc.locals.get(name) {
                    Some(s) => slot_target(*s),
                    // Not found by the pre-pass (cannot happen for valid input): a global.
                    None => Target::Global(name.clone(), name_hash(name)),
                }
            }
        })
    }

    /// Find `name` in an enclosing function (through class scopes, which relay), adding it to
    /// the free variables of every scope on the way.
    fn resolve_free(&mut self, i: usize, name: &Rc<str>) -> Option<u32> {
        if let Some(&f) = self.scopes.get(i)?.free_map.get(name) {
            return Some(f);
        }
        if i == 0 {
            return None;
        }
        let p = i - 1;
        let cap = if let Some(s) = self.find_overlay(p, name) {
            match s {
                Slot::Cell(c) => Capture::Cell(c),
                Slot::Free(f) => Capture::Free(f),
                Slot::Fast(_) => return None,
            }
        } else {
            let ps = &self.scopes[p];
            match ps.kind {
                Kind::Module => return None,
                Kind::Function => {
                    if ps.globals.contains(name) {
                        return None;
                    }
                    match ps.locals.get(name) {
                        Some(Slot::Cell(c)) => Capture::Cell(*c),
                        Some(Slot::Free(f)) => Capture::Free(*f),
                        Some(Slot::Fast(_)) => return None,
                        None => Capture::Free(self.resolve_free(p, name)?),
                    }
                }
                Kind::Class => {
                    if ps.globals.contains(name) {
                        return None;
                    }
                    Capture::Free(self.resolve_free(p, name)?)
                }
            }
        };
        let sc = &mut self.scopes[i];
        sc.free_names.push(name.clone());
        sc.captures.push(cap);
        let idx = (sc.free_names.len() - 1) as u32;
        sc.free_map.insert(name.clone(), idx);
        Some(idx)
    }

    // ------------------------------------------------------------ targets

    fn target(&mut self, e: &ast::Expr) -> PyResult<Target> {
        let line = self.line_of(e);
        self.enter(line)?;
        let r = self.target_inner(e, line);
        self.depth -= 1;
        r
    }

    fn target_inner(&mut self, e: &ast::Expr, line: u32) -> PyResult<Target> {
        use ast::Expr as E;
        Ok(match e {
            E::Name(n) => {
                let n = self.name(n.id.as_str());
                self.store_name(&n, line)?
            }
            E::Attribute(a) => {
                let obj = self.expr(&a.value)?;
                let m = self.target_marks(e);
                Target::Attr(Box::new(obj), self.name(a.attr.as_str()), m)
            }
            E::Subscript(s) => {
                let obj = self.expr(&s.value)?;
                let idx = self.expr(&s.slice)?;
                let m = self.target_marks(e);
                Target::Item(Box::new(obj), Box::new(idx), m)
            }
            E::Tuple(ast::ExprTuple { elts, .. }) | E::List(ast::ExprList { elts, .. }) => {
                let mut items = Vec::new();
                let mut star = None;
                for (i, el) in elts.iter().enumerate() {
                    if let E::Starred(s) = el {
                        if star.is_some() {
                            let mut e = PyException::new(
                                ExcType::SyntaxError,
                                "multiple starred expressions in assignment",
                            );
                            e.0.line_hint = Some(line);
                            return Err(e);
                        }
                        star = Some(i);
                        items.push(self.target(&s.value)?);
                    } else {
                        items.push(self.target(el)?);
                    }
                }
                Target::Unpack(items, star, self.marks(e, Anchor::None))
            }
            E::Starred(_) => {
                let mut e = PyException::new(
                    ExcType::SyntaxError,
                    "starred assignment target must be in a list or tuple",
                );
                e.0.line_hint = Some(line);
                return Err(e);
            }
            _ => {
                let mut e = PyException::new(ExcType::SyntaxError, "cannot assign to expression");
                e.0.line_hint = Some(line);
                return Err(e);
            }
        })
    }

    // ------------------------------------------------------------ expressions

    fn expr(&mut self, e: &ast::Expr) -> PyResult<Expr> {
        let line = self.line_of(e);
        self.enter(line)?;
        let r = self.expr_inner(e, line);
        self.depth -= 1;
        r
    }

    fn opt_expr(&mut self, e: &Option<Box<ast::Expr>>) -> PyResult<Option<Box<Expr>>> {
        Ok(match e {
            Some(x) => Some(Box::new(self.expr(x)?)),
            None => None,
        })
    }

    fn exprs(&mut self, es: &[ast::Expr]) -> PyResult<Vec<Expr>> {
        let mut v = Vec::with_capacity(es.len());
        for e in es {
            v.push(self.expr(e)?);
        }
        Ok(v)
    }

    fn expr_inner(&mut self, e: &ast::Expr, line: u32) -> PyResult<Expr> {
        use ast::Expr as E;
        Ok(match e {
            E::NumberLiteral(n) => match &n.value {
                ast::Number::Int(i) => match i.as_i64() {
                    Some(v) => Expr::Const(Value::Int(v)),
                    None => Expr::Const(match i.as_u64() {
                        Some(u) => super::bigint::value(u.into())?,
                        None => super::bigint::from_literal(&i.to_string()).map_err(|mut e| {
                            e.0.line_hint = Some(line);
                            e
                        })?,
                    }),
                },
                ast::Number::Float(f) => Expr::Const(Value::Float(*f)),
                ast::Number::Complex { .. } => return Err(unsupported("complex numbers", line)),
            },
            E::StringLiteral(s) => Expr::Const(Value::str(s.value.to_str())),
            E::BooleanLiteral(b) => Expr::Const(Value::Bool(b.value)),
            E::NoneLiteral(_) => Expr::Const(Value::None),
            E::EllipsisLiteral(_) => Expr::Const(Value::Ellipsis),
            E::BytesLiteral(_) => return Err(unsupported("bytes literals", line)),
            E::TString(_) => return Err(unsupported("template strings", line)),
            E::Name(n) => {
                let name = self.name(n.id.as_str());
                let mut e = self.load_name(&name);
                if let Expr::Global(_, _, m) | Expr::Name(_, _, m) = &mut e {
                    *m = self.marks(n, Anchor::None);
                }
                e
            }
            E::Attribute(a) => {
                let obj = self.expr(&a.value)?;
                let m = self.marks(a, Anchor::None);
                Expr::Attr(Box::new(obj), self.name(a.attr.as_str()), m)
            }
            E::Subscript(s) => {
                let obj = self.expr(&s.value)?;
                let idx = self.expr(&s.slice)?;
                let m = self.subscript_marks(s);
                Expr::Subscript(Box::new(obj), Box::new(idx), m)
            }
            E::Slice(s) => Expr::Slice(
                self.opt_expr(&s.lower)?,
                self.opt_expr(&s.upper)?,
                self.opt_expr(&s.step)?,
            ),
            E::BinOp(b) => {
                let l = self.expr(&b.left)?;
                let r = self.expr(&b.right)?;
                let m = self.marks(
                    b,
                    Anchor::Binary {
                        left_end: b.left.end().to_usize(),
                        right_start: b.right.start().to_usize(),
                    },
                );
                Expr::Bin(binop(b.op), Box::new(l), Box::new(r), m)
            }
            E::UnaryOp(u) => {
                let v = self.expr(&u.operand)?;
                let m = self.marks(u, Anchor::None);
                match u.op {
                    ast::UnaryOp::Not => Expr::Not(Box::new(v)),
                    ast::UnaryOp::USub => match v {
                        Expr::Const(Value::Int(i)) if i != i64::MIN => Expr::Const(Value::Int(-i)),
                        Expr::Const(Value::Float(f)) => Expr::Const(Value::Float(-f)),
                        v => Expr::Unary(UnaryOp::Neg, Box::new(v), m),
                    },
                    ast::UnaryOp::UAdd => Expr::Unary(UnaryOp::Pos, Box::new(v), m),
                    ast::UnaryOp::Invert => Expr::Unary(UnaryOp::Invert, Box::new(v), m),
                }
            }
            E::BoolOp(b) => {
                let vs = self.exprs(&b.values)?;
                match b.op {
                    ast::BoolOp::And => Expr::And(vs),
                    ast::BoolOp::Or => Expr::Or(vs),
                }
            }
            E::Compare(c) => {
                let left = self.expr(&c.left)?;
                let mut rest = Vec::new();
                for (op, r) in c.ops.iter().zip(c.comparators.iter()) {
                    let k = match op {
                        ast::CmpOp::Eq => CmpKind::Op(CmpOp::Eq),
                        ast::CmpOp::NotEq => CmpKind::Op(CmpOp::Ne),
                        ast::CmpOp::Lt => CmpKind::Op(CmpOp::Lt),
                        ast::CmpOp::LtE => CmpKind::Op(CmpOp::Le),
                        ast::CmpOp::Gt => CmpKind::Op(CmpOp::Gt),
                        ast::CmpOp::GtE => CmpKind::Op(CmpOp::Ge),
                        ast::CmpOp::Is => CmpKind::Is,
                        ast::CmpOp::IsNot => CmpKind::IsNot,
                        ast::CmpOp::In => CmpKind::In,
                        ast::CmpOp::NotIn => CmpKind::NotIn,
                    };
                    rest.push((k, self.expr(r)?));
                }
                Expr::Compare(Box::new(left), rest, self.marks(c, Anchor::None))
            }
            E::If(i) => Expr::IfExp(
                Box::new(self.expr(&i.test)?),
                Box::new(self.expr(&i.body)?),
                Box::new(self.expr(&i.orelse)?),
            ),
            E::List(l) => Expr::List(self.exprs(&l.elts)?),
            E::Tuple(t) => Expr::Tuple(self.exprs(&t.elts)?),
            E::Set(s) => Expr::Set(self.exprs(&s.elts)?),
            E::Dict(d) => {
                let mut items = Vec::new();
                for it in &d.items {
                    let k = match &it.key {
                        Some(k) => Some(self.expr(k)?),
                        None => None,
                    };
                    items.push((k, self.expr(&it.value)?));
                }
                Expr::Dict(items)
            }
            E::Starred(s) => Expr::Starred(Box::new(self.expr(&s.value)?)),
            E::Call(c) => self.call(c, line)?,
            E::Lambda(l) => {
                let empty = ast::Parameters {
                    range: Default::default(),
                    node_index: Default::default(),
                    posonlyargs: Vec::new(),
                    args: Vec::new(),
                    vararg: None,
                    kwonlyargs: Vec::new(),
                    kwarg: None,
                };
                let params = l.parameters.as_deref().unwrap_or(&empty);
                let name = self.name("<lambda>");
                Expr::Lambda(Rc::new(self.function(
                    &name,
                    params,
                    FnBody::Expr(&l.body),
                    line,
                )?))
            }
            E::ListComp(c) => {
                let m = self.marks(c, Anchor::None);
                self.comp(CompKind::List, &c.elt, None, &c.generators, line, m)?
            }
            E::SetComp(c) => {
                let m = self.marks(c, Anchor::None);
                self.comp(CompKind::Set, &c.elt, None, &c.generators, line, m)?
            }
            E::Generator(c) => {
                let m = self.marks(c, Anchor::None);
                self.genexpr(c, line, m)?
            }
            E::DictComp(c) => {
                let m = self.marks(c, Anchor::None);
                self.comp(
                    CompKind::Dict,
                    &c.key,
                    Some(&c.value),
                    &c.generators,
                    line,
                    m,
                )?
            }
            E::FString(f) => {
                let mut parts = Vec::new();
                for p in f.value.iter() {
                    match p {
                        ast::FStringPart::Literal(l) => parts.push(FPart::Lit(l.as_str().into())),
                        ast::FStringPart::FString(fs) => {
                            self.fstring_elements(&fs.elements, &mut parts)?
                        }
                    }
                }
                Expr::FString(parts)
            }
            E::Named(n) => {
                let v = self.expr(&n.value)?;
                Expr::Named(Box::new(self.target(&n.target)?), Box::new(v))
            }
            E::Await(_) => return Err(unsupported("await", line)),
            E::Yield(y) => {
                self.note_yield(line)?;
                Expr::Yield(match &y.value {
                    Some(v) => Some(Box::new(self.expr(v)?)),
                    None => None,
                })
            }
            E::YieldFrom(y) => {
                self.note_yield(line)?;
                let v = self.expr(&y.value)?;
                Expr::YieldFrom(Box::new(v), self.marks(y, Anchor::None))
            }
            E::IpyEscapeCommand(_) => return Err(unsupported("IPython escape commands", line)),
        })
    }

    fn fstring_elements(
        &mut self,
        els: &ast::InterpolatedStringElements,
        parts: &mut Vec<FPart>,
    ) -> PyResult<()> {
        for el in els.iter() {
            match el {
                ast::InterpolatedStringElement::Literal(l) => {
                    parts.push(FPart::Lit(l.value.as_ref().into()))
                }
                ast::InterpolatedStringElement::Interpolation(i) => {
                    let expr = self.expr(&i.expression)?;
                    let spec = match &i.format_spec {
                        Some(s) => {
                            let mut sp = Vec::new();
                            self.fstring_elements(&s.elements, &mut sp)?;
                            Some(sp)
                        }
                        None => None,
                    };
                    let debug = i.debug_text.as_ref().map(|d| {
                        let r = i.expression.range();
                        let text = self
                            .src
                            .get(r.start().to_usize()..r.end().to_usize())
                            .unwrap_or("");
                        Rc::<str>::from(format!("{}{}{}", d.leading, text, d.trailing))
                    });
                    let mut conv = i.conversion.to_char();
                    if debug.is_some() && conv.is_none() && spec.is_none() {
                        conv = Some('r');
                    }
                    parts.push(FPart::Value {
                        expr: Box::new(expr),
                        conv,
                        spec,
                        debug,
                    });
                }
            }
        }
        Ok(())
    }

    fn call(&mut self, c: &ast::ExprCall, line: u32) -> PyResult<Expr> {
        let mut args = Vec::new();
        let mut star = false;
        for a in c.arguments.args.iter() {
            if matches!(a, ast::Expr::Starred(_)) {
                star = true;
            }
            args.push(self.expr(a)?);
        }
        let mut kws = Vec::new();
        for k in c.arguments.keywords.iter() {
            let name = k
                .arg
                .as_ref()
                .map(|n| n.as_str().to_string())
                .map(|n| self.name(&n));
            if name.is_none() {
                star = true;
            }
            kws.push((name, self.expr(&k.value)?));
        }
        // Zero-argument super() inside a method.
        if let ast::Expr::Name(n) = &*c.func
            && n.id.as_str() == "super"
            && args.is_empty()
            && kws.is_empty()
        {
            let nm = self.name("super");
            if matches!(self.load_name(&nm), Expr::Global(..))
                && self.scopes.last().map(|s| s.kind) == Some(Kind::Function)
            {
                return Ok(Expr::Super { line });
            }
        }
        let call_marks = self.marks(c, Anchor::None);
        let call = CallArgs {
            args,
            kws,
            star,
            line,
        };
        if let ast::Expr::Attribute(a) = &*c.func {
            let obj = self.expr(&a.value)?;
            return Ok(Expr::CallMethod {
                obj: Box::new(obj),
                name: self.name(a.attr.as_str()),
                call,
                marks: Box::new([call_marks, self.marks(a, Anchor::None)]),
            });
        }
        let func = self.expr(&c.func)?;
        Ok(Expr::Call {
            func: Box::new(func),
            call,
            marks: call_marks,
        })
    }

    fn comp(
        &mut self,
        kind: CompKind,
        elt: &ast::Expr,
        value: Option<&ast::Expr>,
        gens: &[ast::Comprehension],
        line: u32,
        marks: Marks,
    ) -> PyResult<Expr> {
        let what = match kind {
            CompKind::List => "list comprehension",
            CompKind::Set => "set comprehension",
            CompKind::Dict => "dict comprehension",
        };
        self.scope().comps.push(what);
        let r = self.comp_body(kind, elt, value, gens, line, marks);
        self.scope().comps.pop();
        r
    }

    fn comp_body(
        &mut self,
        kind: CompKind,
        elt: &ast::Expr,
        value: Option<&ast::Expr>,
        gens: &[ast::Comprehension],
        line: u32,
        marks: Marks,
    ) -> PyResult<Expr> {
        let mut out = Vec::new();
        let pushed = gens.len();
        let mut res: PyResult<()> = Ok(());
        for (gi, g) in gens.iter().enumerate() {
            if g.is_async {
                res = Err(unsupported("async comprehensions", line));
                // pop what we pushed so far
                for _ in 0..gi {
                    self.scope().overlays.pop();
                }
                return res.map(|_| Expr::Const(Value::None));
            }
            // The iterable is evaluated before this generator's variables exist.
            let iter = self.expr(&g.iter);
            let mut names = Vec::new();
            collect_target_names(&g.target, &mut names);
            let mut ov = FxHashMap::default();
            for n in names {
                let n = self.name(&n);
                let sc = self.scope();
                let slot = if sc.captured.contains(&n) {
                    Slot::Cell(sc.new_cell(&n))
                } else {
                    Slot::Fast(sc.new_fast(&n))
                };
                ov.insert(n, slot);
            }
            self.scope().overlays.push(ov);
            let target = self.target(&g.target);
            let mut ifs = Vec::new();
            for c in &g.ifs {
                match self.expr(c) {
                    Ok(e) => ifs.push(e),
                    Err(e) => {
                        res = Err(e);
                        break;
                    }
                }
            }
            match (iter, target) {
                (Ok(iter), Ok(target)) if res.is_ok() => out.push(CompFor { target, iter, ifs }),
                (Err(e), _) | (_, Err(e)) => {
                    res = Err(e);
                }
                _ => {}
            }
            if res.is_err() {
                for _ in 0..=gi {
                    self.scope().overlays.pop();
                }
                return res.map(|_| Expr::Const(Value::None));
            }
        }
        let elt_r = self.expr(elt);
        let val_r = match value {
            Some(v) => self.expr(v).map(|x| Some(Box::new(x))),
            None => Ok(None),
        };
        for _ in 0..pushed {
            self.scope().overlays.pop();
        }
        Ok(Expr::Comp {
            kind,
            elt: Box::new(elt_r?),
            value: val_r?,
            gens: out,
            marks,
        })
    }
}

/// A body's docstring: its first statement when that is a plain string literal (CPython keeps
/// it as written, without cleaning the indentation, in 3.11).
fn docstring(body: &[ast::Stmt]) -> Option<Rc<str>> {
    match body.first()? {
        ast::Stmt::Expr(e) => match &*e.value {
            ast::Expr::StringLiteral(s) => Some(s.value.to_str().into()),
            _ => None,
        },
        _ => None,
    }
}

enum FnBody<'a> {
    Stmts(&'a [ast::Stmt]),
    Expr(&'a ast::Expr),
}

fn block_kind(mut v: Vec<Stmt>) -> StmtKind {
    if v.len() == 1
        && let Some(s) = v.pop()
    {
        return s.kind;
    }
    // Several imports on one line: an always-true `if` holding them keeps one statement.
    StmtKind::If(Expr::Const(Value::Bool(true)), v, Vec::new())
}

fn slot_expr(s: Slot) -> Expr {
    match s {
        Slot::Fast(i) => Expr::Fast(i),
        Slot::Cell(i) => Expr::Cell(i),
        Slot::Free(i) => Expr::Free(i),
    }
}

fn slot_target(s: Slot) -> Target {
    match s {
        Slot::Fast(i) => Target::Fast(i),
        Slot::Cell(i) => Target::Cell(i),
        Slot::Free(i) => Target::Free(i),
    }
}

fn binop(op: ast::Operator) -> BinOp {
    match op {
        ast::Operator::Add => BinOp::Add,
        ast::Operator::Sub => BinOp::Sub,
        ast::Operator::Mult => BinOp::Mul,
        ast::Operator::MatMult => BinOp::MatMul,
        ast::Operator::Div => BinOp::TrueDiv,
        ast::Operator::Mod => BinOp::Mod,
        ast::Operator::Pow => BinOp::Pow,
        ast::Operator::LShift => BinOp::LShift,
        ast::Operator::RShift => BinOp::RShift,
        ast::Operator::BitOr => BinOp::Or,
        ast::Operator::BitXor => BinOp::Xor,
        ast::Operator::BitAnd => BinOp::And,
        ast::Operator::FloorDiv => BinOp::FloorDiv,
    }
}

fn collect_target_names(e: &ast::Expr, out: &mut Vec<String>) {
    match e {
        ast::Expr::Name(n) => out.push(n.id.as_str().to_string()),
        ast::Expr::Tuple(t) => t.elts.iter().for_each(|x| collect_target_names(x, out)),
        ast::Expr::List(t) => t.elts.iter().for_each(|x| collect_target_names(x, out)),
        ast::Expr::Starred(s) => collect_target_names(&s.value, out),
        _ => {}
    }
}

fn intern(map: &mut FxHashMap<String, Rc<str>>, s: &str) -> Rc<str> {
    if let Some(r) = map.get(s) {
        return r.clone();
    }
    let r: Rc<str> = s.into();
    map.insert(s.to_string(), r.clone());
    r
}

/// Names bound in a scope (not descending into nested functions/classes/comprehensions).
struct Assigned<'m> {
    interned: &'m mut FxHashMap<String, Rc<str>>,
    names: NameSet,
    globals: NameSet,
    nonlocals: NameSet,
    depth: usize,
}

impl<'m> Assigned<'m> {
    fn new(interned: &'m mut FxHashMap<String, Rc<str>>) -> Self {
        Assigned {
            interned,
            names: NameSet::default(),
            globals: NameSet::default(),
            nonlocals: NameSet::default(),
            depth: 0,
        }
    }
    fn add(&mut self, s: &str) {
        let n = intern(self.interned, s);
        self.names.insert(n);
    }
}

impl<'a> Visitor<'a> for Assigned<'_> {
    fn visit_stmt(&mut self, s: &'a ast::Stmt) {
        if self.depth > MAX_NESTING {
            return;
        }
        self.depth += 1;
        match s {
            ast::Stmt::FunctionDef(f) => self.add(f.name.as_str()),
            ast::Stmt::ClassDef(c) => self.add(c.name.as_str()),
            ast::Stmt::Global(g) => {
                for n in &g.names {
                    let n = intern(self.interned, n.as_str());
                    self.globals.insert(n);
                }
            }
            ast::Stmt::Nonlocal(g) => {
                for n in &g.names {
                    let n = intern(self.interned, n.as_str());
                    self.nonlocals.insert(n);
                }
            }
            ast::Stmt::Import(i) => {
                for a in &i.names {
                    match &a.asname {
                        Some(x) => self.add(x.as_str()),
                        None => self.add(a.name.as_str().split('.').next().unwrap_or("")),
                    }
                }
            }
            ast::Stmt::ImportFrom(i) => {
                for a in &i.names {
                    match &a.asname {
                        Some(x) => self.add(x.as_str()),
                        None => {
                            if a.name.as_str() != "*" {
                                self.add(a.name.as_str())
                            }
                        }
                    }
                }
            }
            _ => visitor::walk_stmt(self, s),
        }
        self.depth -= 1;
    }
    fn visit_expr(&mut self, e: &'a ast::Expr) {
        if self.depth > MAX_NESTING {
            return;
        }
        self.depth += 1;
        match e {
            ast::Expr::Name(n) => {
                if matches!(n.ctx, ast::ExprContext::Store | ast::ExprContext::Del) {
                    self.add(n.id.as_str());
                }
            }
            ast::Expr::Lambda(_) => {}
            ast::Expr::ListComp(_)
            | ast::Expr::SetComp(_)
            | ast::Expr::DictComp(_)
            | ast::Expr::Generator(_) => {}
            _ => visitor::walk_expr(self, e),
        }
        self.depth -= 1;
    }
    fn visit_except_handler(&mut self, h: &'a ast::ExceptHandler) {
        let ast::ExceptHandler::ExceptHandler(x) = h;
        if let Some(n) = &x.name {
            self.add(n.as_str());
        }
        visitor::walk_except_handler(self, h);
    }
}

/// Every name mentioned inside functions, lambdas and classes nested in a body.
struct Nested<'m> {
    interned: &'m mut FxHashMap<String, Rc<str>>,
    level: usize,
    names: NameSet,
    depth: usize,
}

impl<'a> Visitor<'a> for Nested<'_> {
    fn visit_stmt(&mut self, s: &'a ast::Stmt) {
        if self.depth > MAX_NESTING {
            return;
        }
        self.depth += 1;
        let nested = matches!(s, ast::Stmt::FunctionDef(_) | ast::Stmt::ClassDef(_));
        if nested {
            self.level += 1;
        }
        if self.level > 0
            && let ast::Stmt::Nonlocal(n) = s
        {
            for x in &n.names {
                let x = intern(self.interned, x.as_str());
                self.names.insert(x);
            }
        }
        visitor::walk_stmt(self, s);
        if nested {
            self.level -= 1;
        }
        self.depth -= 1;
    }
    fn visit_expr(&mut self, e: &'a ast::Expr) {
        if self.depth > MAX_NESTING {
            return;
        }
        self.depth += 1;
        // A generator expression is a function of its own: what it reads from the enclosing
        // function must live in cells (its outermost iterable is counted too: harmless).
        let nested = matches!(e, ast::Expr::Lambda(_) | ast::Expr::Generator(_));
        if nested {
            self.level += 1;
        }
        if self.level > 0
            && let ast::Expr::Name(n) = e
        {
            let x = intern(self.interned, n.id.as_str());
            self.names.insert(x);
        }
        if self.level > 0
            && let ast::Expr::Call(c) = e
            && let ast::Expr::Name(n) = &*c.func
            && n.id.as_str() == "super"
        {
            // super() reads the method's first argument.
        }
        visitor::walk_expr(self, e);
        if nested {
            self.level -= 1;
        }
        self.depth -= 1;
    }
}

fn nested_names(body: &[ast::Stmt], interned: &mut FxHashMap<String, Rc<str>>) -> NameSet {
    let mut v = Nested {
        interned,
        level: 0,
        names: NameSet::default(),
        depth: 0,
    };
    for s in body {
        v.visit_stmt(s);
    }
    v.names
}

fn nested_names_expr(e: &ast::Expr, interned: &mut FxHashMap<String, Rc<str>>) -> NameSet {
    let mut v = Nested {
        interned,
        level: 0,
        names: NameSet::default(),
        depth: 0,
    };
    v.visit_expr(e);
    v.names
}

/// Refuse trees deeper than [`MAX_NESTING`] before any recursive pass looks at them; measured
/// without recursion beyond the limit.
pub(super) fn check_depth(body: &[ast::Stmt]) -> Result<(), usize> {
    struct D {
        depth: usize,
        max: usize,
        at: usize,
    }
    impl<'a> Visitor<'a> for D {
        fn visit_stmt(&mut self, s: &'a ast::Stmt) {
            if self.depth > MAX_NESTING {
                return;
            }
            self.depth += 1;
            if self.depth > self.max {
                self.max = self.depth;
                self.at = s.start().to_usize();
            }
            visitor::walk_stmt(self, s);
            self.depth -= 1;
        }
        fn visit_expr(&mut self, e: &'a ast::Expr) {
            if self.depth > MAX_NESTING {
                return;
            }
            self.depth += 1;
            if self.depth > self.max {
                self.max = self.depth;
                self.at = e.start().to_usize();
            }
            visitor::walk_expr(self, e);
            self.depth -= 1;
        }
    }
    let mut d = D {
        depth: 0,
        max: 0,
        at: 0,
    };
    for s in body {
        d.visit_stmt(s);
    }
    if d.max > MAX_NESTING {
        return Err(d.at);
    }
    Ok(())
}

/// Whether loading `e` reads the variable `t` stores into (`s = s + t`).
fn same_variable(t: &Target, e: &Expr) -> bool {
    match (t, e) {
        (Target::Fast(a), Expr::Fast(b))
        | (Target::Cell(a), Expr::Cell(b))
        | (Target::Free(a), Expr::Free(b)) => a == b,
        (Target::Global(a, _), Expr::Global(b, _, _))
        | (Target::Name(a, _), Expr::Name(b, _, _)) => a == b,
        _ => false,
    }
}
