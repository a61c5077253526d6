//! The Python subset learners' exercises are written in: parsed with ruff's parser (a real
//! Python grammar, so syntax errors are real Python syntax errors), resolved into a small tree
//! ([`ir`]) and evaluated by our own tree-walker ([`Interpreter`]).
//!
//! # Embedding
//! ```
//! use cudatutor::script::{Interpreter, Limits, Module, Value};
//! let mut it = Interpreter::new(Limits::default());
//! it.register_module("demo", Box::new(|_it| {
//!     let m = Module::new("demo");
//!     m.add_fn("double", |_it, args| {
//!         let a = args.exact("double", 1)?;
//!         Ok(Value::Int(a[0].as_int().unwrap_or(0) * 2))
//!     });
//!     Ok(m.into_value())
//! }));
//! it.run_main("import demo\nprint(demo.double(21))\n", "exercise.py").unwrap();
//! assert_eq!(it.take_stdout(), "42\n");
//! ```
//!
//! # The native-object interface (for the torch bindings)
//! * A Rust type becomes a Python value by implementing [`NativeObject`] (every method has a
//!   default: implement `type_name`, `as_any` and what the type supports) and wrapping it with
//!   [`Value::native`] / `Value::Native(Rc::new(obj))`. Operators arrive in
//!   [`NativeObject::binary_op`] (with `reflected` for `2 * t`), comparisons in `compare`,
//!   `t[i]` in `getitem`, `for x in t` in `iter`, `with` in `enter`/`exit`, `print(t)` in `str`.
//!   Returning `Ok(None)` means "not supported": the interpreter raises CPython's error.
//! * Bound methods: in `getattr`, return `Value::native_fn(name, move |it, args| …)` capturing
//!   `this.clone()`; [`Args::bind`] parses `(input, dim=None, keepdim=False)`-style parameters
//!   with CPython's TypeErrors.
//! * Types: [`Interpreter::native_class`] gives the class object for a `type_name` (so
//!   `isinstance(x, torch.Tensor)` and `type(x)` work); `define_native_class(name, bases)`
//!   makes subclasses (`Parameter` under `Tensor`); [`Interpreter::set_class_ctor`] makes the
//!   class callable (`torch.Tensor([1.0])`).
//! * Errors: [`PyException::new`]`(ExcType::RuntimeError, msg)`, typed by [`ExcType`] (CPython's
//!   hierarchy plus torch's and numpy's own); a library's exception class is made with
//!   [`Interpreter::define_exception`]`(ExcType::OutOfMemoryError)` when its module installs
//!   (then `PyException::new(ExcType::OutOfMemoryError, …)` raises it and `except RuntimeError`
//!   catches it).
//! * Modules: [`Interpreter::register_module`] (Rust-built, with [`Module`]) and
//!   [`Interpreter::module_from_source`] (Python preludes such as `nn.Module`). Importing
//!   `torch` makes registered submodules (`torch.nn`) reachable as attributes.
//! * Calling back into Python: [`Interpreter::call`]`(&f, Args)`; [`Interpreter::repr`],
//!   [`Interpreter::str`], [`Interpreter::truthy`], [`Interpreter::iterate`] (collect any
//!   iterable), [`Interpreter::getattr`], [`Interpreter::binary_op`], [`Interpreter::eq`].
//! * Timeline: [`Interpreter::current_line`] is the line running in the innermost frame of the
//!   main script; [`Interpreter::env`] is `os.environ` (set `CUDA_LAUNCH_BLOCKING` before a run).
//!
//! # Lifetimes
//! Values are `Rc`s with no hidden extra references: an object is dropped at `del x`, when its
//! name is rebound, when a temporary's statement ends, or when the frame holding it returns —
//! when CPython would drop it. Reference cycles are not collected (CPython's gc would), except
//! that the interpreter clears module namespaces when it is dropped.
//!
//! # Limits
//! [`Limits`]: a step budget (one step per statement and loop iteration and call), wall time
//! and a cancel flag. Exceeding them raises `TimeoutError: the script ran more than N steps
//! (line L)` / `TimeoutError: the script ran longer than S seconds (line L)` /
//! `KeyboardInterrupt`, which no `except` clause can catch. Recursion raises
//! `RecursionError: maximum recursion depth exceeded` past [`DEFAULT_RECURSION_LIMIT`] Python
//! frames or when the evaluator has used [`interp::DEFAULT_STACK_LIMIT`] (5 MiB) of Rust stack
//! below its entry point — run scripts on a thread with at least 8 MiB of stack. A debug build
//! spends ~22 KB of stack per Python call (~230 frames); release builds far less.

pub(crate) mod bigint;
pub(crate) mod builtins;
mod dict_index;
pub(crate) mod drop;
pub(crate) mod errors;
pub(crate) mod exc_type;
pub(crate) mod interp;
pub(crate) mod ir;
pub(crate) mod native;
pub(crate) mod pystr;
pub mod strfmt;
pub(crate) mod value;

mod compile;
pub(crate) mod marks;
mod modules;
mod suggest;
mod syntax_error;
pub use syntax_error::MAX_SOURCE;

pub use errors::{PyException, PyResult, ScriptError, TraceEntry};
pub use exc_type::ExcType;
pub use interp::{CallGuard, DEFAULT_RECURSION_LIMIT, GuardedWorld, Interpreter, Limits};
pub(crate) use modules::mt::Mt19937;
pub(crate) use modules::structseq::StructSeq;
pub use native::{Args, BinOp, BinaryCall, CmpOp, NativeCx, NativeFn, NativeObject, UnaryOp};
pub use pystr::PyStr;
pub use value::{Class, Dict, HKey, Instance, Module, Value};

/// The bytes of a file under a host folder the run may read (`run --allow-read`), `path` as
/// the script wrote it; Err is the script's exception (FileNotFoundError, PermissionError, …).
pub(crate) fn read_host_file(it: &Interpreter, path: &str) -> PyResult<Vec<u8>> {
    modules::hostfs::read_bytes(it, path)
}
