//! The tree the evaluator walks: ruff's AST after name resolution. Locals are slots in a
//! frame vector, closure variables are shared cells, constants are ready values and every
//! statement knows its line — so evaluation does no string lookups for locals and never
//! re-parses literals.

use std::rc::Rc;

use super::marks::Marks;
use super::native::{BinOp, CmpOp, UnaryOp};
use super::value::Value;

/// Where a captured variable comes from in the defining frame.
#[derive(Clone, Copy, Debug)]
pub enum Capture {
    Cell(u32),
    Free(u32),
}

/// A compiled body: a function, a lambda, a class body or a module.
pub struct FuncCode {
    pub name: Rc<str>,
    pub qualname: Rc<str>,
    pub file: Rc<str>,
    pub line: u32,
    /// Positional parameter names (positional-only first).
    pub params: Vec<Rc<str>>,
    pub posonly: usize,
    /// `*args` slot follows the positional ones; then keyword-only; then `**kwargs`.
    pub vararg: Option<Rc<str>>,
    pub kwonly: Vec<Rc<str>>,
    pub kwarg: Option<Rc<str>>,
    /// Fast local slots (parameters first, in the order above) and their names.
    pub local_names: Vec<Rc<str>>,
    /// Own cells (captured locals) and their names.
    pub cell_names: Vec<Rc<str>>,
    /// Parameters that are captured: (parameter slot, cell index) — moved at call time.
    pub param_cells: Vec<(u32, u32)>,
    pub free_names: Vec<Rc<str>>,
    pub body: Vec<Stmt>,
    /// A lambda's body is one expression whose value is returned.
    pub is_lambda: bool,
    /// The body holds `yield`: calling the function makes a generator (a generator
    /// expression is such a function too, taking the outermost iterator as `.0`).
    pub is_generator: bool,
    /// The docstring: a string literal as the body's first statement (`__doc__`).
    pub doc: Option<Rc<str>>,
    /// A prelude method whose body waits for its first call (interp/lazy_methods.rs): this
    /// code is its signature with a `pass` body; the whole is compiled from the text here.
    pub deferred: Option<Box<DeferredBody>>,
}

/// The text of a method whose body was cut from its class's compile, and its code once
/// compiled.
pub struct DeferredBody {
    /// The method's statement as written (decorators, header and body), indented as in its
    /// class.
    pub text: &'static str,
    /// The file line `text` starts on.
    pub first_line: u32,
    pub file: Rc<str>,
    pub class_qualname: Rc<str>,
    pub compiled: std::cell::OnceCell<Rc<FuncCode>>,
}

impl FuncCode {
    /// The code a call runs: a deferred method's compiled code once compiled, else this.
    pub fn runnable(&self) -> &FuncCode {
        match &self.deferred {
            Some(d) => d.compiled.get().map_or(self, |c| c),
            None => self,
        }
    }
}

/// `def`/`lambda`: the code plus what is evaluated when the definition runs.
pub struct FuncDef {
    pub code: Rc<FuncCode>,
    pub defaults: Vec<Expr>,
    pub kwdefaults: Vec<Option<Expr>>,
    pub captures: Vec<Capture>,
    /// Parameter and return annotations (`"return"` last), evaluated at definition time in
    /// the enclosing scope into the function's `__annotations__`.
    pub annotations: Vec<(Rc<str>, Expr)>,
}

pub struct ClassDef {
    pub name: Rc<str>,
    pub bases: Vec<Expr>,
    pub body: Rc<FuncCode>,
    pub captures: Vec<Capture>,
}

pub struct Stmt {
    pub line: u32,
    pub kind: StmtKind,
}

pub struct Handler {
    pub line: u32,
    pub typ: Option<Expr>,
    pub name: Option<Target>,
    pub body: Vec<Stmt>,
}

pub enum StmtKind {
    Expr(Expr),
    /// `a = b = value`: every target gets the same value, left to right.
    Assign(Vec<Target>, Expr),
    /// With the target's markers: loading or storing it can fail (the operation itself, no).
    AugAssign(Target, BinOp, Expr, Marks),
    /// `name = name + value` (the same variable on both sides): an assignment of a `+`
    /// (`left`, `right` and the `+`'s markers) that appends in place when both sides are
    /// strs and the variable holds the only reference, as CPython's `unicode_concatenate`.
    ConcatAssign {
        target: Target,
        left: Expr,
        right: Expr,
        marks: Marks,
    },
    If(Expr, Vec<Stmt>, Vec<Stmt>),
    While(Expr, Vec<Stmt>, Vec<Stmt>),
    For(Target, Expr, Vec<Stmt>, Vec<Stmt>),
    Break,
    Continue,
    Pass,
    Return(Option<Expr>),
    Raise(Option<Expr>, Option<Expr>),
    Try {
        body: Vec<Stmt>,
        handlers: Vec<Handler>,
        orelse: Vec<Stmt>,
        finalbody: Vec<Stmt>,
    },
    With(Vec<(Expr, Option<Target>)>, Vec<Stmt>),
    Def {
        decorators: Vec<Expr>,
        func: Rc<FuncDef>,
        target: Target,
    },
    Class {
        decorators: Vec<Expr>,
        class: Rc<ClassDef>,
        target: Target,
    },
    /// `import a.b.c` binds `a` (the top package); `import a.b as c` binds the submodule.
    Import {
        module: Rc<str>,
        bind_top: bool,
        target: Target,
    },
    ImportFrom {
        module: Rc<str>,
        names: Vec<(Rc<str>, Target)>,
    },
    ImportStar {
        module: Rc<str>,
    },
    Delete(Vec<Target>),
    /// The markers go under the test when it fails.
    Assert(Expr, Option<Expr>, Marks),
    /// `name: annotation` in a class body or module: the annotation is evaluated and stored
    /// in the namespace's `__annotations__` (what `dataclass` and `typing` read).
    Annotate(Rc<str>, Expr),
}

pub enum Target {
    Fast(u32),
    Cell(u32),
    Free(u32),
    /// With the name's precomputed [`key_hash`](super::value::key_hash), as in [`Expr::Global`].
    Global(Rc<str>, u64),
    /// A name in a class body or module namespace (`ns` of the frame, else globals).
    Name(Rc<str>, u64),
    /// The markers go under the target when setting or deleting it fails.
    Attr(Box<Expr>, Rc<str>, Marks),
    Item(Box<Expr>, Box<Expr>, Marks),
    /// `a, *b, c = …`: `star` is the index of the starred target; the markers go under the
    /// targets when the value cannot be unpacked into them.
    Unpack(Vec<Target>, Option<usize>, Marks),
}

/// List, set and dict comprehensions run eagerly in the enclosing frame's slots; a generator
/// expression is compiled as a generator function instead ([`Expr::GenExpr`]).
pub enum CompKind {
    List,
    Set,
    Dict,
}

impl CompKind {
    /// The name of the frame CPython 3.11 runs the comprehension in.
    pub(crate) fn frame_name(&self) -> &'static str {
        match self {
            CompKind::List => "<listcomp>",
            CompKind::Set => "<setcomp>",
            CompKind::Dict => "<dictcomp>",
        }
    }
}

pub struct CompFor {
    pub target: Target,
    pub iter: Expr,
    pub ifs: Vec<Expr>,
}

pub enum FPart {
    Lit(Rc<str>),
    Value {
        expr: Box<Expr>,
        conv: Option<char>,
        spec: Option<Vec<FPart>>,
        debug: Option<Rc<str>>,
    },
}

/// What a call passes, the same for `f(...)` and `obj.name(...)`: the argument expressions,
/// the keyword ones (`None` for `**kw`), whether any is starred or `**` (the slow path that
/// expands them), and the call's line.
pub struct CallArgs {
    pub args: Vec<Expr>,
    pub kws: Vec<(Option<Rc<str>>, Expr)>,
    pub star: bool,
    pub line: u32,
}

pub enum Expr {
    Const(Value),
    Fast(u32),
    Cell(u32),
    Free(u32),
    /// Module globals, then builtins; with the name's [`key_hash`](super::value::key_hash)
    /// (computed once, here) and where a NameError points.
    Global(Rc<str>, u64, Marks),
    /// Class-body/module namespace, then globals, then builtins.
    Name(Rc<str>, u64, Marks),
    Attr(Box<Expr>, Rc<str>, Marks),
    Subscript(Box<Expr>, Box<Expr>, Marks),
    Slice(Option<Box<Expr>>, Option<Box<Expr>>, Option<Box<Expr>>),
    Call {
        func: Box<Expr>,
        call: CallArgs,
        marks: Marks,
    },
    /// `obj.name(args)`: avoids making a bound method object per call.
    CallMethod {
        obj: Box<Expr>,
        name: Rc<str>,
        call: CallArgs,
        /// The call's markers, then those of `obj.name` (a failed method lookup).
        marks: Box<[Marks; 2]>,
    },
    /// Zero-argument `super()` in a method: needs the frame's class and first argument.
    Super {
        line: u32,
    },
    Bin(BinOp, Box<Expr>, Box<Expr>, Marks),
    Unary(UnaryOp, Box<Expr>, Marks),
    Not(Box<Expr>),
    And(Vec<Expr>),
    Or(Vec<Expr>),
    Compare(Box<Expr>, Vec<(CmpKind, Expr)>, Marks),
    IfExp(Box<Expr>, Box<Expr>, Box<Expr>),
    List(Vec<Expr>),
    Tuple(Vec<Expr>),
    Set(Vec<Expr>),
    /// `None` key = `**mapping`.
    Dict(Vec<(Option<Expr>, Expr)>),
    Starred(Box<Expr>),
    Comp {
        kind: CompKind,
        elt: Box<Expr>,
        value: Option<Box<Expr>>,
        gens: Vec<CompFor>,
        /// The whole comprehension: marked in the enclosing frame's traceback entry.
        marks: Marks,
    },
    /// `(elt for x in it ...)`: a generator function (`def`) called with `iter(it)`, the
    /// outermost iterable, evaluated here in the enclosing frame; not iterable fails at the
    /// whole expression (`marks`). Named as CPython's parser names it (genexp).
    #[allow(clippy::enum_variant_names)]
    GenExpr {
        def: Rc<FuncDef>,
        iter: Box<Expr>,
        marks: Marks,
    },
    Lambda(Rc<FuncDef>),
    FString(Vec<FPart>),
    Named(Box<Target>, Box<Expr>),
    /// `yield value` inside a generator: the value sent back in is the expression's value.
    Yield(Option<Box<Expr>>),
    /// `yield from iterable`: delegates; its value is what the subgenerator returned. The
    /// markers go under the whole expression when the delegation fails.
    YieldFrom(Box<Expr>, Marks),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpKind {
    Op(CmpOp),
    Is,
    IsNot,
    In,
    NotIn,
}
