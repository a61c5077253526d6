//! Deferred definitions: a prelude's top-level `def`s and `class`es are parsed, compiled and
//! run at the first use of their name instead of at import. `import torch.nn` parsed and
//! compiled ~7,500 lines of Python (about 25 ms, most of a short script's run) although a
//! typical script uses a dozen of its 350 definitions.
//!
//! The prelude is cut at its top-level statements by a line scanner ([`top_level_statements`]).
//! Every other statement runs at import as before, in source order, with the deferred ones
//! blanked out (line numbers kept). A deferred definition runs in the module's own namespace
//! when its name is first missed: an attribute of the module (`nn.Linear`, `hasattr`), a
//! global lookup of code in that module (a method naming another class), or everything at
//! once for `dir()`, `from … import *` and the check environment's snapshot. A definition's
//! run only binds its name (the preludes' `def`s and `class`es have no other effect when they
//! run), so running it later binds the same value; the test
//! `deferred_prelude_defines_what_the_whole_prelude_defines` holds torch.nn to that.

use std::cell::RefCell;
use std::rc::Rc;

use super::super::compile::LineNumbers;
use super::super::errors::PyResult;
use super::super::ir::FuncCode;
use super::super::value::{Dict, FxHashMap, Module, Value};
use super::Interpreter;
use super::prelude_table::statements_of;
use super::source_lines::SourceLines;
use super::top_level::TopStmt;
#[cfg(test)]
use super::top_level::top_level_statements;

/// A prelude cut into what runs at import and the definitions that wait for their name.
/// Built once per thread and prelude; shared by every interpreter on that thread.
pub(crate) struct Split {
    file: Rc<str>,
    /// What runs at import, in order: the prelude without its deferred definitions (their
    /// lines left blank), cut at the aliases of deferred definitions.
    eager: Vec<EagerStep>,
    /// The whole prelude's lines, for tracebacks.
    lines: Rc<SourceLines>,
    defs: Vec<DeferredDef>,
}

struct DeferredDef {
    name: Rc<str>,
    text: &'static str,
    first_line: u32,
    /// Compiled at the first run that needs it.
    code: RefCell<Option<Rc<FuncCode>>>,
}

/// A piece of a deferred prelude's import.
enum EagerStep {
    /// Statements, compiled as one block.
    Code(Rc<FuncCode>),
    /// `TARGET = NAME` (or `MODULE.TARGET = NAME`, MODULE a global of the prelude), NAME one
    /// of its deferred definitions: the name is bound at its first use instead of the
    /// statement running the definition at import. torch._extra's 111 `torch.NAME = NAME` and
    /// `_t_NAME = NAME` lines otherwise compile 104 of its 175 definitions.
    Alias(AliasStmt),
}

struct AliasStmt {
    /// MODULE: None for a name of the prelude itself.
    module: Option<Rc<str>>,
    target: Rc<str>,
    name: Rc<str>,
    /// The statement, run as written when MODULE turns out not to be a module.
    text: &'static str,
    first_line: u32,
}

/// Eager statements of a prelude gathered into one text, and the prelude line of each of
/// its lines (the deferred definitions between them left out).
#[derive(Default)]
struct EagerChunk {
    code: String,
    numbers: Vec<u32>,
    /// The prelude line after the last statement's last line break.
    next_line: u32,
}

impl EagerChunk {
    /// Append a statement's text, which starts at `first_line` and holds `newlines` line
    /// breaks.
    fn push(&mut self, text: &str, first_line: u32, newlines: u32) {
        self.code.push_str(text);
        self.numbers.extend(first_line..first_line + newlines);
        self.next_line = first_line + newlines;
    }
}

/// A module's names that are not bound yet in this interpreter, and where each comes from.
pub(crate) struct Pending {
    module: Rc<Module>,
    /// The module's own prelude (None: a module whose deferred names are all aliases).
    split: Option<Rc<Split>>,
    names: FxHashMap<Rc<str>, Source>,
}

/// What binds a deferred name.
#[derive(Clone)]
enum Source {
    /// The definition at this index of the module's `split.defs`.
    Def(usize),
    /// Another module's attribute (itself deferred there): torch.nn.functional's `relu` is
    /// torch.nn's `_f_relu`.
    Alias { from: Rc<Module>, name: Rc<str> },
}

impl Source {
    /// Where a name runs among the others of its module when all run (definitions in source
    /// order, then the aliases).
    fn order(&self) -> usize {
        match self {
            Source::Def(i) => *i,
            Source::Alias { .. } => usize::MAX,
        }
    }
}

/// The key of a module namespace in [`Interpreter::deferred`].
fn key_of(globals: &Rc<RefCell<Dict>>) -> usize {
    Rc::as_ptr(globals) as usize
}

/// The name a top-level `def NAME` / `async def NAME` / `class NAME` statement binds; None
/// for any other statement (decorated definitions too: a decorator may do anything).
fn defined_name(stmt: &str) -> Option<&str> {
    let rest = stmt
        .strip_prefix("def ")
        .or_else(|| stmt.strip_prefix("async def "))
        .or_else(|| stmt.strip_prefix("class "))?;
    let rest = rest.trim_start();
    let len = rest
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
        .count();
    let name = &rest[..len];
    match name.bytes().next() {
        Some(b) if !b.is_ascii_digit() => Some(name),
        _ => None,
    }
}

/// `(MODULE, TARGET, NAME)` of a statement `TARGET = NAME` or `MODULE.TARGET = NAME` (all
/// three identifiers) followed only by blank and comment lines; None for any other.
fn alias_parts(stmt: &str) -> Option<(Option<&str>, &str, &str)> {
    let mut lines = stmt.lines();
    let first = lines.next()?.trim_end();
    if !lines.all(|l| l.trim().is_empty() || l.trim_start().starts_with('#')) {
        return None;
    }
    let (lhs, rhs) = first.split_once(" = ")?;
    let ident = |s: &str| {
        s.bytes().next().is_some_and(|b| !b.is_ascii_digit())
            && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
    };
    let (module, target) = match lhs.split_once('.') {
        Some((m, t)) => (Some(m), t),
        None => (None, lhs),
    };
    (ident(rhs) && ident(target) && module.is_none_or(ident)).then_some((module, target, rhs))
}

/// Which of `stmts` are deferred (Some(name)): the definitions whose name no other deferred
/// definition binds and that no builtin has (a global lookup finds a builtin before it would
/// miss).
fn deferrable<'a>(
    src: &'a str,
    stmts: &[TopStmt],
    is_builtin: impl Fn(&str) -> bool,
) -> Vec<Option<&'a str>> {
    let names: Vec<Option<&str>> = stmts
        .iter()
        .map(|s| defined_name(&src[s.start..s.end]))
        .collect();
    let mut count: FxHashMap<&str, usize> = FxHashMap::default();
    for n in names.iter().flatten() {
        *count.entry(n).or_default() += 1;
    }
    names
        .into_iter()
        .map(|n| n.filter(|n| count.get(n) == Some(&1) && !is_builtin(n)))
        .collect()
}

impl Interpreter {
    /// Run the prelude `source` as module `name` with its top-level definitions deferred to
    /// the first use of their names (see the module comment); otherwise as
    /// [`Interpreter::module_from_source`].
    pub(crate) fn module_from_source_deferred(
        &mut self,
        name: &str,
        source: &'static str,
    ) -> PyResult<Value> {
        self.mark_stack_base();
        let split = self.split_of(name, source)?;
        self.sources.insert(split.file.clone(), split.lines.clone());
        let module = Rc::new(Module::new(name));
        let key = key_of(&module.dict);
        let names = split
            .defs
            .iter()
            .enumerate()
            .map(|(i, d)| (d.name.clone(), Source::Def(i)))
            .collect();
        // pending before the import runs: its own statements may name a deferred definition
        self.deferred.insert(
            key,
            Pending {
                module: module.clone(),
                split: Some(split.clone()),
                names,
            },
        );
        if let Err(e) = self.run_eager_steps(&split, &module) {
            self.deferred.remove(&key);
            return Err(e);
        }
        let v = Value::Module(module);
        self.modules.insert(name.to_string(), v.clone());
        Ok(v)
    }

    /// `source` cut and its import code compiled: once per thread.
    fn split_of(&mut self, name: &str, source: &'static str) -> PyResult<Rc<Split>> {
        thread_local! {
            static SPLITS: RefCell<Vec<(String, usize, Rc<Split>)>> = const { RefCell::new(Vec::new()) };
        }
        let at = source.as_ptr() as usize;
        let hit = SPLITS.with(|c| {
            c.borrow()
                .iter()
                .find(|(n, p, _)| n == name && *p == at)
                .map(|(_, _, s)| s.clone())
        });
        if let Some(s) = hit {
            return Ok(s);
        }
        let file: Rc<str> = format!("<{name}>").into();
        let stmts = statements_of(source);
        let names = deferrable(source, &stmts, |n| self.is_builtin(n));
        let deferred_names: Vec<&str> = names.iter().flatten().copied().collect();
        let aliases: Vec<_> = stmts
            .iter()
            .map(|s| alias_parts(&source[s.start..s.end]))
            .collect();
        // an alias of a name that another alias rebinds stays a statement: its value would
        // depend on which runs first
        let alias_targets: Vec<&str> = aliases
            .iter()
            .flatten()
            .filter(|(module, _, _)| module.is_none())
            .map(|(_, target, _)| *target)
            .collect();
        let mut eager = Vec::new();
        // the statements since the last alias
        let mut chunk = EagerChunk::default();
        let header_lines = stmts.first().map_or_else(
            || source.bytes().filter(|&b| b == b'\n').count() as u32,
            |s| s.first_line - 1,
        );
        chunk.push(
            &source[..stmts.first().map_or(source.len(), |s| s.start)],
            1,
            header_lines,
        );
        let mut defs = Vec::new();
        for ((s, n), alias) in stmts.iter().zip(names).zip(aliases) {
            let text = &source[s.start..s.end];
            let alias = alias.filter(|(_, _, name)| {
                deferred_names.contains(name) && !alias_targets.contains(name)
            });
            match (n, alias) {
                (Some(n), _) => defs.push(DeferredDef {
                    name: n.into(),
                    text,
                    first_line: s.first_line,
                    code: RefCell::new(None),
                }),
                (None, Some((module, target, alias_of))) => {
                    if let Some(c) = self.compile_chunk(std::mem::take(&mut chunk), &file, name)? {
                        eager.push(EagerStep::Code(c));
                    }
                    eager.push(EagerStep::Alias(AliasStmt {
                        module: module.map(Rc::from),
                        target: target.into(),
                        name: alias_of.into(),
                        text,
                        first_line: s.first_line,
                    }));
                }
                (None, None) => chunk.push(text, s.first_line, s.newlines),
            }
        }
        if let Some(c) = self.compile_chunk(chunk, &file, name)? {
            eager.push(EagerStep::Code(c));
        }
        let lines = Rc::new(SourceLines::of_static(source));
        let split = Rc::new(Split {
            file,
            eager,
            lines,
            defs,
        });
        SPLITS.with(|c| c.borrow_mut().push((name.to_string(), at, split.clone())));
        Ok(split)
    }

    /// `chunk` compiled, None when it holds no statement.
    fn compile_chunk(
        &mut self,
        mut chunk: EagerChunk,
        file: &Rc<str>,
        modname: &str,
    ) -> PyResult<Option<Rc<FuncCode>>> {
        if chunk.code.trim().is_empty() {
            return Ok(None);
        }
        // the text after the last line break (a prelude's last line without one)
        chunk.numbers.push(chunk.next_line);
        let numbers = LineNumbers::Each(chunk.numbers);
        self.compile_parsed_numbered(&chunk.code, file, modname, numbers)
            .map(Some)
    }

    /// Run a prelude's import: its statements, and its aliases bound for their first use.
    fn run_eager_steps(&mut self, split: &Split, module: &Rc<Module>) -> PyResult<()> {
        for step in &split.eager {
            match step {
                EagerStep::Code(code) => self.exec_module_code(code, module, false)?,
                EagerStep::Alias(a) => {
                    let into = match &a.module {
                        None => Some(module.clone()),
                        Some(m) => match module.get_attr(m) {
                            Some(Value::Module(m)) => Some(m),
                            _ => None,
                        },
                    };
                    match into {
                        Some(into) => {
                            self.bind_deferred_alias(&into, &a.target, module, &a.name)?
                        }
                        None => {
                            let code = self.compile_parsed_at(
                                a.text,
                                &split.file,
                                &module.name,
                                a.first_line,
                            )?;
                            self.exec_module_code(&code, module, false)?;
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Run the deferred definition of `name` in the module whose namespace is `globals`.
    /// Ok(false): that module defers no such name (any more).
    pub(crate) fn run_deferred(
        &mut self,
        globals: &Rc<RefCell<Dict>>,
        name: &str,
    ) -> PyResult<bool> {
        let key = key_of(globals);
        let Some(p) = self.deferred.get_mut(&key) else {
            return Ok(false);
        };
        let Some((name, source)) = p.names.remove_entry(name) else {
            return Ok(false);
        };
        let (module, split) = (p.module.clone(), p.split.clone());
        // a script that assigned the name first keeps its value
        if module.dict.borrow().contains_str(&name) {
            return Ok(true);
        }
        let r = match &source {
            Source::Def(idx) => match &split {
                Some(split) => self
                    .deferred_code(split, *idx, &module.name)
                    .and_then(|code| self.exec_module_code(&code, &module, false)),
                None => Ok(()),
            },
            Source::Alias {
                from,
                name: from_name,
            } => self
                .getattr(&Value::Module(from.clone()), from_name)
                .map(|v| module.set_attr(&name, v)),
        };
        if let Err(e) = r {
            // not defined after all (a MemoryError, an interrupt): the next use tries again
            if !module.dict.borrow().contains_str(&name) {
                self.deferred
                    .entry(key)
                    .or_insert_with(|| Pending {
                        module: module.clone(),
                        split,
                        names: FxHashMap::default(),
                    })
                    .names
                    .insert(name, source);
            }
            return Err(e);
        }
        Ok(true)
    }

    /// Run every deferred definition of the module whose namespace is `globals`, in source
    /// order (for `dir()`, `import *`: every name must be there).
    pub(crate) fn run_all_deferred(&mut self, globals: &Rc<RefCell<Dict>>) -> PyResult<()> {
        let Some(p) = self.deferred.get(&key_of(globals)) else {
            return Ok(());
        };
        let mut names: Vec<(usize, Rc<str>)> = p
            .names
            .iter()
            .map(|(n, s)| (s.order(), n.clone()))
            .collect();
        names.sort_unstable();
        for (_, n) in names {
            self.run_deferred(globals, &n)?;
        }
        Ok(())
    }

    /// Before the learner's code rebinds or deletes an attribute of `module`: run its pending
    /// definitions, so each sees the namespace its import left (a script's
    /// `torch.optim.Adam = 5` must not become the base of a later `AdamW(Adam)`), as every one
    /// of them would have at import. Prelude code does not settle it, at import or at call
    /// (torch._extra's `torch.cat = ...` would compile all of torch's aliases): the preludes
    /// rebind nothing a deferred definition reads.
    pub(crate) fn settle_deferred_before_rebind(
        &mut self,
        module: &Rc<RefCell<Dict>>,
    ) -> PyResult<()> {
        if self.initializing.is_empty()
            && self.deferred.contains_key(&key_of(module))
            && !self.in_prelude_code()
        {
            self.run_all_deferred(module)?;
        }
        Ok(())
    }

    /// Whether the running frame is a prelude's (its file is `<module name>`, a registered
    /// module: `<stdin>` and `<string>` are the learner's).
    fn in_prelude_code(&self) -> bool {
        self.frames.last().is_some_and(|f| {
            f.file
                .strip_prefix('<')
                .and_then(|n| n.strip_suffix('>'))
                .is_some_and(|n| self.module_inits.contains_key(n))
        })
    }

    /// Run the deferred definitions of every module (before the check environment copies the
    /// namespaces it puts back after the learner's code).
    pub(crate) fn run_every_deferred(&mut self) -> PyResult<()> {
        let globals: Vec<Rc<RefCell<Dict>>> = self
            .deferred
            .values()
            .map(|p| p.module.dict.clone())
            .collect();
        for g in &globals {
            self.run_all_deferred(g)?;
        }
        Ok(())
    }

    /// The pending alias `module.name = from.from_name`, taken out of the pending names (so
    /// `module.name` no longer binds itself at its first use) without running `from`'s
    /// deferred definition: the caller binds `module.name` to something that reads
    /// `from.from_name` when it is called (torch._extra's argument-parsing wrappers).
    pub(crate) fn take_deferred_alias(
        &mut self,
        module: &Rc<Module>,
        name: &str,
    ) -> Option<(Rc<Module>, Rc<str>)> {
        let pending = self.deferred.get_mut(&key_of(&module.dict))?;
        // a value set after the alias was (the alias took the name's old value away) replaces
        // it: torch._extra sets torch.amax again, to its out= wrapper of the aliased function
        if module.dict.borrow().contains_str(name) {
            pending.names.remove(name);
            return None;
        }
        match pending.names.get(name)? {
            Source::Alias { .. } => match pending.names.remove(name)? {
                Source::Alias { from, name } => Some((from, name)),
                Source::Def(_) => None,
            },
            Source::Def(_) => None,
        }
    }

    /// Bind `module.name` to `from.from_name` (AttributeError when it has none), at the first
    /// use of `module.name` when `from` defers that name: torch.nn.functional's Python-written
    /// functions are torch.nn's deferred `_f_` definitions, and binding them at import would
    /// run all 91. The name's present value (a native function the prelude's replaces) goes.
    pub(crate) fn bind_deferred_alias(
        &mut self,
        module: &Rc<Module>,
        name: &str,
        from: &Rc<Module>,
        from_name: &str,
    ) -> PyResult<()> {
        let deferred_there = self
            .deferred
            .get(&key_of(&from.dict))
            .is_some_and(|p| p.names.contains_key(from_name));
        if !deferred_there {
            let v = self.getattr(&Value::Module(from.clone()), from_name)?;
            module.set_attr(name, v);
            return Ok(());
        }
        let old = module.dict.borrow_mut().remove_str(name);
        drop(old);
        self.deferred
            .entry(key_of(&module.dict))
            .or_insert_with(|| Pending {
                module: module.clone(),
                split: None,
                names: FxHashMap::default(),
            })
            .names
            .insert(
                name.into(),
                Source::Alias {
                    from: from.clone(),
                    name: from_name.into(),
                },
            );
        Ok(())
    }

    fn deferred_code(
        &mut self,
        split: &Split,
        idx: usize,
        modname: &str,
    ) -> PyResult<Rc<FuncCode>> {
        let Some(d) = split.defs.get(idx) else {
            return Err(super::super::errors::PyException::new(
                crate::script::ExcType::SystemError,
                "deferred definition out of range",
            ));
        };
        if let Some(code) = d.code.borrow().clone() {
            return Ok(code);
        }
        let code = self.compile_deferred_definition(d.text, &split.file, modname, d.first_line)?;
        *d.code.borrow_mut() = Some(code.clone());
        Ok(code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn firsts(src: &str) -> Vec<u32> {
        top_level_statements(src)
            .iter()
            .map(|s| s.first_line)
            .collect()
    }

    #[test]
    fn statements_start_at_column_zero_outside_brackets_strings_and_continuations() {
        let src = "x = (1,\n2)\ns = '''\nnot = a statement\n'''\ndef f():\n    return 1\n\n# c\nclass A:\n    pass\ny = 1 + \\\n2\nz = 'a\\'b'\n";
        assert_eq!(firsts(src), vec![1, 3, 6, 10, 12, 14]);
    }

    #[test]
    fn clauses_and_decorators_stay_with_their_statement() {
        let src = "try:\n    a\nexcept E:\n    b\nfinally:\n    c\n@dec\ndef f():\n    pass\nif x:\n    y\nelse:\n    z\n";
        assert_eq!(firsts(src), vec![1, 7, 10]);
    }

    #[test]
    fn only_plain_uniquely_named_definitions_are_deferred() {
        let src = "def f():\n    pass\nclass C(B):\n    pass\ndef g(): pass\ndef g(): pass\ndef len(x): pass\n@d\ndef h(): pass\nx = 1\n";
        let stmts = top_level_statements(src);
        let names = deferrable(src, &stmts, |n| n == "len");
        assert_eq!(
            names,
            vec![Some("f"), Some("C"), None, None, None, None, None]
        );
    }

    #[test]
    fn aliases_are_one_name_assigned_to_another() {
        assert_eq!(alias_parts("a = b\n"), Some((None, "a", "b")));
        assert_eq!(
            alias_parts("torch.amax = amax\n# c\n\n"),
            Some((Some("torch"), "amax", "amax"))
        );
        for not_alias in [
            "a = b()\n",
            "a = b.c\n",
            "a.b.c = d\n",
            "a = 1\n",
            "a, b = c\n",
            "a = b\nc = d\n",
            "a = b  # why\n",
        ] {
            assert_eq!(alias_parts(not_alias), None, "{not_alias}");
        }
    }

    #[test]
    fn each_deferring_prelude_is_cut_where_the_parser_sees_its_statements() {
        for (name, src) in crate::torch::deferring_preludes() {
            let parsed = rustpython_ruff_python_parser::parse_module(src).expect("prelude parses");
            let index = super::super::super::compile::LineIndex::new(src);
            let expected: Vec<u32> = parsed
                .syntax()
                .body
                .iter()
                .map(|s| {
                    use rustpython_ruff_text_size::Ranged;
                    index.line(s.start().to_usize())
                })
                .collect();
            assert_eq!(firsts(src), expected, "{name}");
        }
    }
}
