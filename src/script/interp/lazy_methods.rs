//! Prelude methods whose bodies are compiled at their first call. A deferred class of a
//! prelude (deferred.rs) is compiled at the first use of its name, but then all of it:
//! `nn.Module` is 24 KB of Python, parsed and compiled (about 2 ms in a fresh process) when a
//! script touches it, for the dozen methods a script calls of its ninety.
//!
//! The class is compiled with each method's body cut out of its text (a `pass` in its place,
//! the line breaks kept so every line keeps its number). The method's `def` still runs with
//! the class body: its decorators, defaults and annotations are evaluated then, as written.
//! Its code holds the signature only, and a [`DeferredBody`] with the method's own text; the
//! first call parses and compiles that text as a method of the class
//! ([`Compiler::compile_deferred_method`]) and every later call runs the result.
//!
//! Only methods of a class at the prelude's top level are cut: their bodies see the module's
//! globals and nothing of an enclosing function, so compiling one alone gives the code
//! compiling it with its class gives (the test
//! `deferred_bodies_compile_to_what_the_whole_class_compiles` holds every prelude to that).
//! `super()` finds the class through the function's owner, not a cell, so it needs nothing
//! of the class's compile either.

use std::rc::Rc;

use super::super::compile::{Compiler, LineNumbers};
use super::super::errors::PyResult;
use super::super::ir::{DeferredBody, FuncCode};
use super::super::value::Function;
use super::Interpreter;
use super::stmt::{module_frame, parse_source};
use super::top_level::{header_end, statements_at};

/// A method of a class text whose body can wait.
#[derive(Debug, PartialEq)]
pub(crate) struct LazyMethod {
    /// The method's statement in the class text: from its first decorator or `def` to the end
    /// of its body (with the blank and comment lines that follow it).
    pub(crate) start: usize,
    pub(crate) end: usize,
    /// Where its body starts: the line after the header's `:`.
    pub(crate) body_start: usize,
    /// The line of the class text (from 1) its statement starts on.
    pub(crate) line: u32,
}

/// The methods of `class_text` (one top-level `class` statement) whose bodies can be cut: a
/// plain `def` at the class body's indentation (decorated or not) whose body starts on the
/// line after its header. Empty for anything else (a one-line class, tabs).
pub(crate) fn lazy_methods(class_text: &str) -> Vec<LazyMethod> {
    let bytes = class_text.as_bytes();
    if !class_text.starts_with("class ") {
        return Vec::new();
    }
    let Some(colon) = header_end(class_text, 0) else {
        return Vec::new();
    };
    let Some(body) = rest_of_line_is_empty(class_text, colon) else {
        return Vec::new();
    };
    // the body's indentation: its first line that holds code
    let mut indent = None;
    let mut pos = body;
    let first_body_line = 1 + count_newlines(&bytes[..body]);
    while pos < bytes.len() {
        let end = class_text[pos..]
            .find('\n')
            .map_or(bytes.len(), |n| pos + n);
        let text = &bytes[pos..end];
        let spaces = text.iter().take_while(|&&b| b == b' ').count();
        match text.get(spaces) {
            None | Some(b'#') | Some(b'\r') => {}
            Some(b'\t') | Some(b'\x0c') => return Vec::new(),
            Some(_) => {
                indent = Some(spaces);
                break;
            }
        }
        pos = end + 1;
    }
    let Some(indent) = indent.filter(|&i| i > 0) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for stmt in statements_at(&class_text[body..], indent) {
        let (start, end) = (body + stmt.start, body + stmt.end);
        let text = &class_text[start..end];
        let Some(def_at) = def_offset(text, indent) else {
            continue;
        };
        let Some(colon) = header_end(class_text, start + def_at) else {
            continue;
        };
        if colon > end {
            continue;
        }
        let Some(body_start) = rest_of_line_is_empty(class_text, colon) else {
            continue;
        };
        if body_start >= end {
            continue;
        }
        out.push(LazyMethod {
            start,
            end,
            body_start,
            line: first_body_line + stmt.first_line - 1,
        });
    }
    out
}

/// Where the `def` of a class body's statement (at `indent`) starts, past its decorators
/// (one line each); None for a statement that is not a plain `def`.
fn def_offset(stmt: &str, indent: usize) -> Option<usize> {
    let mut at = 0;
    loop {
        let rest = &stmt[at..];
        let code = rest.get(indent..)?;
        if !code.starts_with('@') {
            return code.starts_with("def ").then_some(at);
        }
        if !header_closes(code) {
            return None;
        }
        at += rest.find('\n')? + 1;
    }
}

/// A decorator line that closes every bracket it opens (one written across lines stops the
/// cut: the scan for its `def` reads one line per decorator).
fn header_closes(line: &str) -> bool {
    let line = line.split('\n').next().unwrap_or("");
    let mut depth = 0i32;
    for b in line.bytes() {
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b'#' | b'\'' | b'"' => return false,
            _ => {}
        }
    }
    depth == 0
}

/// Where the line after `at` starts, when the rest of `at`'s line holds no code (spaces and
/// a comment at most).
fn rest_of_line_is_empty(text: &str, at: usize) -> Option<usize> {
    let rest = &text[at..];
    let end = rest.find('\n')?;
    let line = rest[..end].trim_start_matches([' ', '\t', '\r']);
    (line.is_empty() || line.starts_with('#')).then_some(at + end + 1)
}

fn count_newlines(bytes: &[u8]) -> u32 {
    bytes.iter().filter(|&&b| b == b'\n').count() as u32
}

/// `class_text` with the bodies of `methods` cut: each becomes `pass` on its first line and
/// its other lines empty, so the lines after it keep their numbers.
pub(crate) fn without_bodies(class_text: &str, methods: &[LazyMethod]) -> String {
    let mut out = String::with_capacity(class_text.len() / 4);
    let mut at = 0;
    for m in methods {
        out.push_str(&class_text[at..m.body_start]);
        let body = &class_text[m.body_start..m.end];
        // deeper than the `def`: one space more than its column
        let def_column = class_text[m.start..]
            .bytes()
            .take_while(|&b| b == b' ')
            .count();
        out.extend(std::iter::repeat_n(' ', def_column + 1));
        out.push_str("pass");
        out.extend(std::iter::repeat_n(
            '\n',
            count_newlines(body.as_bytes()) as usize,
        ));
        at = m.end;
    }
    out.push_str(&class_text[at..]);
    out
}

/// A deferred method's whole code, from its text: parsed inside a class (its lines keep
/// their numbers) and compiled as a method of its class.
fn compile_method_text(d: &DeferredBody) -> PyResult<FuncCode> {
    let mut source = String::with_capacity(d.text.len() + 10);
    source.push_str("class _:\n");
    source.push_str(d.text);
    let module = parse_source(&source, &d.file)?;
    let mut c = Compiler::new(&source, d.file.clone())
        .numbered(LineNumbers::From(d.first_line.saturating_sub(1)));
    c.compile_deferred_method(&module.body, d.class_qualname.clone())
        .map_err(|e| module_frame(e, &d.file))
}

impl Interpreter {
    /// Compile a prelude's deferred definition (its text as cut by the top-level scanner),
    /// a class's method bodies cut when it is a class.
    pub(super) fn compile_deferred_definition(
        &mut self,
        text: &'static str,
        file: &Rc<str>,
        modname: &str,
        first_line: u32,
    ) -> PyResult<Rc<FuncCode>> {
        let methods = lazy_methods(text);
        if methods.is_empty() {
            return self.compile_parsed_at(text, file, modname, first_line);
        }
        let cut = without_bodies(text, &methods);
        let deferring = methods
            .iter()
            .map(|m| (first_line + m.line - 1, &text[m.start..m.end]))
            .collect();
        self.compile_parsed_deferring(
            &cut,
            file,
            modname,
            LineNumbers::From(first_line),
            deferring,
        )
    }

    /// A function's code to run or inspect (`__doc__`): a deferred method's is compiled at
    /// the first need.
    pub(crate) fn function_code<'f>(&mut self, f: &'f Function) -> PyResult<&'f FuncCode> {
        if let Some(d) = &f.code.deferred {
            self.compile_deferred_body(d)?;
        }
        Ok(f.code.runnable())
    }

    /// Compile a deferred method's body, once (a failure, a MemoryError say, is retried at
    /// the next call).
    pub(crate) fn compile_deferred_body(&mut self, d: &DeferredBody) -> PyResult<()> {
        if d.compiled.get().is_some() {
            return Ok(());
        }
        let code = compile_method_text(d)?;
        let _ = d.compiled.set(Rc::new(code));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cut(src: &str) -> (Vec<u32>, String) {
        let m = lazy_methods(src);
        (m.iter().map(|m| m.line).collect(), without_bodies(src, &m))
    }

    #[test]
    fn method_bodies_are_cut_and_every_line_keeps_its_number() {
        let src = "class A(B):\n    '''doc'''\n    x = 1\n\n    def f(self, a=(1,\n              2)):\n        return a\n\n    # c\n    @property\n    def g(self) -> 'int:':\n        s = '''\nnot: a def\n'''\n        return s\n    def h(self): return 1\n";
        let (lines, text) = cut(src);
        assert_eq!(lines, vec![5, 10]);
        assert_eq!(
            text,
            "class A(B):\n    '''doc'''\n    x = 1\n\n    def f(self, a=(1,\n              2)):\n     pass\n\n\n    @property\n    def g(self) -> 'int:':\n     pass\n\n\n\n    def h(self): return 1\n"
        );
        assert_eq!(
            text.matches('\n').count(),
            src.matches('\n').count(),
            "line numbers kept"
        );
    }

    use super::super::super::ir::StmtKind;
    use crate::script::value::FxHashMap;

    /// What a method's code decides: its names, slots, cells, kind, docstring and the lines
    /// of its statements.
    fn fingerprint(c: &FuncCode) -> String {
        format!(
            "{} {} {} {:?} {} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {} {:?} {:?}",
            c.name,
            c.qualname,
            c.line,
            c.params,
            c.posonly,
            c.vararg,
            c.kwonly,
            c.kwarg,
            c.local_names,
            c.cell_names,
            c.param_cells,
            c.free_names,
            c.is_generator,
            c.doc,
            c.body.iter().map(|s| s.line).collect::<Vec<_>>()
        )
    }

    /// The methods of a compiled one-class module, by line.
    fn methods_of(module: &FuncCode) -> Vec<(u32, Rc<FuncCode>)> {
        let Some(StmtKind::Class { class, .. }) = module.body.first().map(|s| &s.kind) else {
            panic!("not a class");
        };
        class
            .body
            .body
            .iter()
            .filter_map(|s| match &s.kind {
                StmtKind::Def { func, .. } => Some((func.code.line, func.code.clone())),
                _ => None,
            })
            .collect()
    }

    fn compile(text: &str, first_line: u32, deferring: FxHashMap<u32, &'static str>) -> FuncCode {
        let parsed = rustpython_ruff_python_parser::parse_module(text).expect("parses");
        let module = parsed.into_syntax();
        Compiler::new(text, "<prelude>".into())
            .numbered(LineNumbers::From(first_line))
            .deferring(deferring)
            .compile_module(&module.body, "m")
            .unwrap_or_else(|e| panic!("compiles: {:?}", e.kind()))
    }

    #[test]
    fn deferred_bodies_compile_to_what_the_whole_class_compiles() {
        let preludes = crate::torch::PRELUDES
            .iter()
            .chain(crate::script::modules::PRELUDES.iter());
        let mut checked = 0;
        for (name, src) in preludes {
            for stmt in super::super::top_level::top_level_statements(src) {
                let text: &'static str = &src[stmt.start..stmt.end];
                let methods = lazy_methods(text);
                if methods.is_empty() {
                    continue;
                }
                let first = stmt.first_line + 100;
                let whole = methods_of(&compile(text, first, FxHashMap::default()));
                let deferring = methods
                    .iter()
                    .map(|m| (first + m.line - 1, &text[m.start..m.end]))
                    .collect();
                let cut = without_bodies(text, &methods);
                let lazy = methods_of(&compile(&cut, first, deferring));
                assert_eq!(whole.len(), lazy.len(), "{name} line {}", stmt.first_line);
                let mut deferred = 0;
                for ((line, eager), (lazy_line, stub)) in whole.iter().zip(&lazy) {
                    assert_eq!(line, lazy_line, "{name}");
                    let Some(d) = &stub.deferred else {
                        continue;
                    };
                    deferred += 1;
                    let code = compile_method_text(d)
                        .unwrap_or_else(|e| panic!("{name} line {line}: {:?}", e.kind()));
                    assert_eq!(fingerprint(&code), fingerprint(eager), "{name} line {line}");
                }
                assert_eq!(
                    deferred,
                    methods.len(),
                    "{name}: every cut body is deferred"
                );
                checked += deferred;
            }
        }
        assert!(checked > 300, "{checked} methods checked");
    }

    #[test]
    fn one_line_classes_async_defs_and_tabs_are_left_whole() {
        assert!(lazy_methods("class A: pass\n").is_empty());
        assert!(lazy_methods("class A:\n    async def f(self):\n        pass\n").is_empty());
        assert!(lazy_methods("class A:\n\tdef f(self):\n\t\tpass\n").is_empty());
        assert!(lazy_methods("def f():\n    pass\n").is_empty());
        // a decorator written across lines stops the cut of its method only
        let src = "class A:\n    @d(1,\n       2)\n    def f(self):\n        pass\n    def g(self):\n        pass\n";
        assert_eq!(cut(src).0, vec![6]);
    }
}
