//! The interpreter: its state (modules, frames, limits, output) and the public entry points.
//! Evaluation lives in the submodules: `stmt` (statements), `expr` (expressions), `call`
//! (calling and argument binding), `ops` (operators, truth, equality, hashing), `attr`
//! (attribute access and method dispatch), `iter` (the iteration protocol), `classes`.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::errors::{Payload, PyException, PyResult, ScriptError, final_line, render_frames};
use super::value::{Class, Dict, FxHashMap, Module, Value};
use crate::script::ExcType;
use crate::units::fmt_secs;

mod attr;
pub(crate) mod builtin_subclass;
mod call;
mod classes;
mod concat;
mod deferred;
mod dunder;
mod expr;
pub(crate) mod generator;
mod iter;
mod lazy_methods;
mod ops;
mod polled;
mod prelude_table;
mod script_dir;
mod source_lines;
mod top_level;
pub(crate) use ops::{
    MAX_ITEMS, MAX_STR, budget_for, dict_grow_check, dict_items, grow_check, memory_error,
};

impl Interpreter {
    /// MemoryError unless the run's memory budget has room for `bytes` more: for native code
    /// (the torch bindings) before it builds something big, such as `x.tolist()`.
    pub(crate) fn check_alloc(&self, bytes: u64) -> PyResult<()> {
        if crate::budget::can_allocate(bytes) {
            Ok(())
        } else {
            Err(memory_error())
        }
    }
}
mod stmt;

pub(crate) use classes::Types;

/// Python frames deeper than this raise RecursionError (CPython's default). The stack check
/// ([`DEFAULT_STACK_LIMIT`]) may stop recursion earlier, in debug builds especially.
pub const DEFAULT_RECURSION_LIMIT: usize = 1000;

/// How much of the thread's stack the evaluator may use before raising RecursionError. Run
/// scripts on a thread with at least 8 MiB of stack (the main thread has that on Linux).
pub(crate) const DEFAULT_STACK_LIMIT: usize = 5 << 20;

/// Units of builtin work between two checks of the wall-time limit: about a millisecond of
/// comparisons or copies.
pub(crate) const WORK_CHECK: u64 = 1 << 16;

/// Most bytes of `print` output (and, separately, of stderr) kept between two
/// [`Interpreter::take_stdout`]s; past it the rest is dropped and [`TRUNCATED_NOTE`] says so.
pub(crate) const MAX_OUTPUT: usize = 8 << 20;

/// Appended once where output was cut at [`MAX_OUTPUT`].
pub(crate) const TRUNCATED_NOTE: &str =
    "\n[cudatutor: output truncated: only the first 8 MiB of what the script printed are kept]\n";

/// Budgets that stop runaway scripts.
#[derive(Clone)]
pub struct Limits {
    /// Statements, loop iterations and calls counted together.
    pub max_steps: u64,
    pub max_wall: Duration,
    /// Set to true from another thread to stop the script (raises KeyboardInterrupt).
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_steps: 20_000_000,
            max_wall: Duration::from_secs(20),
            cancel: None,
        }
    }
}

/// Where a frame is: for tracebacks and [`Interpreter::current_line`].
#[allow(dead_code)]
pub(crate) struct FrameInfo {
    pub file: Rc<str>,
    pub func: Rc<str>,
    pub line: u32,
    pub is_main: bool,
}

type ModuleInit = Rc<dyn Fn(&mut Interpreter) -> PyResult<Value>>;
/// A module's initialiser as an embedder hands it over.
pub(crate) type ModuleInitBox = Box<dyn Fn(&mut Interpreter) -> PyResult<Value>>;

pub struct Interpreter {
    pub(crate) limits: Limits,
    /// What a stopped run was building when its limit fell (a comprehension's partial
    /// result): dropped with the interpreter, after the run's report.
    pub(crate) left_at_stop: Vec<Value>,
    pub(crate) steps: u64,
    pub(crate) started: Instant,
    pub(crate) next_check: u64,
    /// Units of work done inside builtin calls (see [`Interpreter::work`]), and when the
    /// limits are checked next.
    pub(crate) work_done: u64,
    pub(crate) next_work_check: u64,
    pub(crate) builtins: Rc<RefCell<Dict>>,
    pub(crate) main: Rc<Module>,
    pub(crate) modules: FxHashMap<String, Value>,
    pub(crate) module_inits: FxHashMap<String, ModuleInit>,
    /// Packages whose registered submodules load at their first attribute access instead of
    /// with the package (`import torch` need not compile torch.optim's prelude for a script
    /// that never trains), with the module to import once when some other name is missing
    /// (a prelude that sets the package's Python-written functions).
    pub(crate) lazy_packages: FxHashMap<String, Option<String>>,
    /// Modules whose init is running (CPython's "partially initialized module"): a lazy
    /// package's `import *` inside one of its own children does not load that child again.
    pub(crate) initializing: std::collections::HashSet<String>,
    /// Submodules a package deletes from its namespace after importing them (PyTorch's
    /// torch/optim/__init__.py ends with `del optimizer`): importable by name, never an
    /// attribute of the package.
    pub(crate) detached: std::collections::HashSet<String>,
    /// The prelude definitions that run at the first use of their name (deferred.rs), by
    /// module namespace.
    pub(crate) deferred: FxHashMap<usize, deferred::Pending>,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
    /// Whether stdout / stderr reached [`MAX_OUTPUT`] (what follows is dropped).
    pub(crate) stdout_full: bool,
    pub(crate) stderr_full: bool,
    /// The order of what was written: (to stderr, bytes), one entry per run of writes to
    /// the same stream, so that a report can show both streams as a terminal would.
    pub(crate) output_order: Vec<(bool, usize)>,
    /// Lines another part of the program prints to stderr on its own (the device log of a
    /// kernel assert, at the synchronization that reports it), fetched before each write.
    pub(crate) stderr_source: Option<Box<dyn FnMut() -> Vec<String>>>,
    pub(crate) frames: Vec<FrameInfo>,
    pub(crate) sources: FxHashMap<Rc<str>, Rc<source_lines::SourceLines>>,
    pub(crate) exc_classes: FxHashMap<String, Rc<Class>>,
    pub(crate) native_classes: FxHashMap<String, Rc<Class>>,
    pub(crate) types: Types,
    pub(crate) env: RefCell<BTreeMap<String, String>>,
    /// `os.putenv` / `os.unsetenv` since the last write through `os.environ`: the process
    /// environment (what CUDA reads) differs from `os.environ` there, as in CPython.
    pub(crate) putenv: RefCell<BTreeMap<String, Option<String>>>,
    pub(crate) main_file: Rc<str>,
    /// Modules written in Python that stand for code the mirrored library writes in C
    /// (CPython's itertools, PyTorch's `torch.amax`): their frames never show in tracebacks,
    /// so ours leave them out too ([`Interpreter::hide_frames_of`]).
    hidden_modules: Vec<&'static str>,
    /// `sys.argv[0]`: the script's path as the learner gave it (None: the traceback name).
    pub(crate) argv0: Option<String>,
    /// Host folders the script may read (`run --allow-read`), see modules/hostfs.rs.
    pub(crate) host_mounts: Vec<crate::script::modules::hostfs::HostMount>,
    /// The main script's folder, where `import NAME` finds NAME.py (see script_dir.rs).
    pub(crate) script_dir: Option<std::path::PathBuf>,
    pub(crate) recursion_limit: usize,
    /// Time `time.sleep` pretended to sleep: added to `time.time()`/`perf_counter()`.
    pub(crate) slept: Duration,
    pub(crate) nested_depth: usize,
    pub(crate) repr_stack: Vec<usize>,
    /// The exceptions whose `except` clauses are running, innermost last: what an exception
    /// raised meanwhile gets as its `__context__`.
    pub(crate) handled: Vec<Value>,
    /// Address of a local at the outermost entry point, and how much stack below it the
    /// evaluator may use (the Rust stack is the real bound on recursion).
    pub(crate) stack_base: usize,
    pub(crate) stack_limit: usize,
    /// The generators running now, innermost last (what `yield` switches back from).
    pub(crate) gen_ctx: Vec<generator::GenCtx>,
    /// Suspended generators dropped since the last statement, to be closed.
    pub(crate) gen_queue: Rc<generator::GenQueue>,
    /// Stacks of finished generators, for the next ones.
    pub(crate) gen_stacks: Vec<generator::GenStack>,
    /// While checks run: what brackets each call from trusted code into the learner's
    /// (see [`CallGuard`]), and how many such calls are running now.
    pub(crate) call_guard: Option<Rc<CallGuard>>,
    pub(crate) untrusted_depth: usize,
    /// The run's memory budget on this thread, for as long as the interpreter lives.
    _budget: crate::budget::RunBudget,
}

/// Calls into untrusted code while a check runs. Python code whose globals are one of the
/// trusted namespaces (the check block's, the modules it uses) is trusted; any other function
/// or generator (the learner's) is untrusted. A call from trusted into untrusted code saves
/// the world as the trusted code has it ([`GuardedWorld::save`]: usually pristine, or with a
/// check's own deliberate patch such as `torch.cuda.is_available = lambda: False`) and puts it
/// back when the call has returned (its locals dropped), so what the learner's function
/// patched (`torch.equal`, `F.cross_entropy`) is undone before the check's own code uses it
/// again, even inside one expression. Calls the untrusted code makes in turn run as they
/// are: the learner's function sees its own patches.
pub struct CallGuard {
    trusted: std::collections::HashSet<usize, super::value::FxBuild>,
    world: Rc<dyn GuardedWorld>,
}

/// The namespaces a [`CallGuard`] keeps as the trusted code left them.
pub trait GuardedWorld {
    /// The world as it is now, to be put back by [`GuardedWorld::put_back`].
    fn save(&self) -> Box<dyn std::any::Any>;
    /// The world as `save` found it.
    fn put_back(&self, saved: Box<dyn std::any::Any>);
}

impl CallGuard {
    /// A guard trusting the given namespaces (module dicts, by identity).
    pub fn new(trusted: &[Rc<RefCell<Dict>>], world: Rc<dyn GuardedWorld>) -> CallGuard {
        CallGuard {
            trusted: trusted.iter().map(|d| Rc::as_ptr(d) as usize).collect(),
            world,
        }
    }
}

/// An untrusted call in progress: the guard and the world it puts back.
pub(crate) struct UntrustedCall {
    guard: Rc<CallGuard>,
    saved: Box<dyn std::any::Any>,
}

/// `out.push_str(s)` up to [`MAX_OUTPUT`] bytes; the write that crosses it keeps what fits
/// (cut at a character boundary) and adds [`TRUNCATED_NOTE`]; later writes are dropped.
fn push_capped(out: &mut String, full: &mut bool, s: &str) {
    if *full {
        return;
    }
    if out.len() + s.len() <= MAX_OUTPUT {
        out.push_str(s);
        return;
    }
    let mut cut = MAX_OUTPUT.saturating_sub(out.len()).min(s.len());
    while !s.is_char_boundary(cut) {
        cut -= 1;
    }
    out.push_str(&s[..cut]);
    out.push_str(TRUNCATED_NOTE);
    *full = true;
}

impl Interpreter {
    /// How much Rust stack the evaluator may use before RecursionError (the thread must have
    /// more than this: [`DEFAULT_STACK_LIMIT`] suits an 8 MiB thread).
    pub(crate) fn set_stack_limit(&mut self, bytes: usize) {
        self.stack_limit = bytes;
    }

    /// Records that the innermost frame is now at `line` (what a traceback, a warning or
    /// `sys._getframe().f_lineno` reports for it).
    #[inline]
    pub(crate) fn set_line(&mut self, line: u32) {
        if let Some(fi) = self.frames.last_mut() {
            fi.line = line;
        }
    }

    pub fn new(limits: Limits) -> Interpreter {
        let types = Types::new();
        let main = Rc::new(Module::new("__main__"));
        let mut it = Interpreter {
            limits,
            left_at_stop: Vec::new(),
            steps: 0,
            started: Instant::now(),
            next_check: 1024,
            work_done: 0,
            next_work_check: WORK_CHECK,
            builtins: Rc::new(RefCell::new(Dict::new())),
            main,
            modules: FxHashMap::default(),
            module_inits: FxHashMap::default(),
            lazy_packages: FxHashMap::default(),
            initializing: std::collections::HashSet::new(),
            detached: std::collections::HashSet::new(),
            deferred: FxHashMap::default(),
            stdout: String::new(),
            stderr: String::new(),
            stdout_full: false,
            stderr_full: false,
            output_order: Vec::new(),
            stderr_source: None,
            frames: Vec::new(),
            sources: FxHashMap::default(),
            exc_classes: FxHashMap::default(),
            native_classes: FxHashMap::default(),
            types,
            env: RefCell::new(BTreeMap::new()),
            putenv: RefCell::new(BTreeMap::new()),
            main_file: "<main>".into(),
            hidden_modules: Vec::new(),
            argv0: None,
            host_mounts: Vec::new(),
            script_dir: None,
            recursion_limit: DEFAULT_RECURSION_LIMIT,
            slept: Duration::ZERO,
            nested_depth: 0,
            repr_stack: Vec::new(),
            handled: Vec::new(),
            stack_base: 0,
            stack_limit: DEFAULT_STACK_LIMIT,
            gen_ctx: Vec::new(),
            gen_queue: Rc::default(),
            gen_stacks: Vec::new(),
            call_guard: None,
            untrusted_depth: 0,
            _budget: crate::budget::RunBudget::begin(crate::budget::run_limit()),
        };
        classes::install_exceptions(&mut it);
        super::builtins::install(&mut it);
        super::modules::install(&mut it);
        it
    }

    /// `sys.argv[0]` as `python3 FILE` sets it: FILE as typed (default: the traceback name).
    pub(crate) fn set_argv0(&mut self, path: &str) {
        self.argv0 = Some(path.to_string());
    }

    /// Lets the script read the files under host folder `dir`, read-only
    /// (`cudatutor run --allow-read DIR`). Err: the folder cannot be used.
    pub(crate) fn allow_read(&mut self, dir: &std::path::Path) -> Result<(), String> {
        let mounts = crate::script::modules::hostfs::mounts_for(dir)?;
        self.host_mounts.extend(mounts);
        Ok(())
    }

    pub(crate) fn argv0(&self) -> &str {
        self.argv0.as_deref().unwrap_or(&self.main_file)
    }

    /// Remember where the stack starts when entering from outside (not on re-entry).
    fn mark_stack_base(&mut self) {
        if self.frames.is_empty() {
            let here = 0u8;
            self.stack_base = std::hint::black_box(&here) as *const u8 as usize;
        }
    }

    /// RecursionError when the Rust stack is deeper than the limit below the entry point.
    #[inline]
    pub(crate) fn check_stack(&self) -> PyResult<()> {
        let here = 0u8;
        let addr = std::hint::black_box(&here) as *const u8 as usize;
        if self.stack_base > addr && self.stack_base - addr > self.stack_limit {
            return Err(PyException::new(
                ExcType::RecursionError,
                "maximum recursion depth exceeded",
            ));
        }
        Ok(())
    }

    /// Stack bytes in use below the entry point (for tests and tuning).
    pub fn stack_used(&self) -> usize {
        let here = 0u8;
        let addr = std::hint::black_box(&here) as *const u8 as usize;
        self.stack_base.saturating_sub(addr)
    }

    /// Register a module importable by name ("torch", "torch.nn", …). `init` runs at first
    /// import and returns the module value.
    pub fn register_module(&mut self, name: &str, init: ModuleInitBox) {
        self.module_inits.insert(name.to_string(), Rc::from(init));
        self.modules.remove(name);
    }

    /// Register each prelude `(name, Python source)` as a module run at its first import;
    /// those named in `deferring` compile each top-level definition at its first use
    /// ([`Interpreter::module_from_source_deferred`]), the others whole.
    pub(crate) fn register_preludes(
        &mut self,
        preludes: &'static [(&'static str, &'static str)],
        deferring: &[&str],
    ) {
        for &(name, src) in preludes {
            if deferring.contains(&name) {
                self.register_module(
                    name,
                    Box::new(move |it| it.module_from_source_deferred(name, src)),
                );
            } else {
                self.register_module(name, Box::new(move |it| it.module_from_source(name, src)));
            }
        }
    }

    /// Leave the frames of these modules' preludes (file `<name>`) out of every traceback:
    /// the library they mirror implements them in C.
    pub(crate) fn hide_frames_of(&mut self, modules: impl IntoIterator<Item = &'static str>) {
        self.hidden_modules.extend(modules);
    }

    /// The frames a traceback prints: not those of the modules [`Interpreter::hide_frames_of`]
    /// named.
    fn visible_frames(
        &self,
        frames: &[super::errors::TraceEntry],
    ) -> Vec<super::errors::TraceEntry> {
        let hidden = |file: &str| {
            file.strip_prefix('<')
                .and_then(|f| f.strip_suffix('>'))
                .is_some_and(|name| self.hidden_modules.contains(&name))
        };
        frames
            .iter()
            .filter(|t| !hidden(&t.file))
            .cloned()
            .collect()
    }

    /// Run Python source as the module `name` (a prelude written in Python) and return the
    /// module value; it is also importable by that name afterwards.
    pub fn module_from_source(&mut self, name: &str, source: &str) -> PyResult<Value> {
        self.mark_stack_base();
        let file: Rc<str> = format!("<{name}>").into();
        let module = Rc::new(Module::new(name));
        let code = self.compile_prelude(source, &file, name)?;
        self.exec_module_code(&code, &module, false)?;
        let v = Value::Module(module);
        self.modules.insert(name.to_string(), v.clone());
        Ok(v)
    }

    /// Run a whole script as `__main__`.
    pub fn run_main(&mut self, source: &str, filename: &str) -> Result<(), ScriptError> {
        self.main_file = filename.into();
        self.started = Instant::now();
        self.steps = 0;
        self.next_check = 1024;
        self.work_done = 0;
        self.next_work_check = WORK_CHECK;
        self.run_in_main(source, filename)
    }

    /// Run more source in the same `__main__` namespace (exercise checks).
    pub fn run_in_main(&mut self, source: &str, filename: &str) -> Result<(), ScriptError> {
        self.mark_stack_base();
        let file: Rc<str> = filename.into();
        let main = self.main.clone();
        let r = self
            .compile_source(source, &file, "__main__")
            .and_then(|code| self.exec_module_code(&code, &main, true));
        self.frames.clear();
        r.map_err(|e| self.script_error_of(e))
    }

    /// Run source in the namespace of `module` instead of `__main__` (exercise checks run in a
    /// namespace of their own, reading the learner's variables from a copy). Errors as
    /// [`Interpreter::run_in_main`]'s: `line` is the innermost frame in the main script file.
    pub(crate) fn run_in_module(
        &mut self,
        source: &str,
        filename: &str,
        module: &Rc<Module>,
    ) -> Result<(), ScriptError> {
        self.mark_stack_base();
        let file: Rc<str> = filename.into();
        let r = self
            .compile_source(source, &file, &module.name)
            .and_then(|code| self.exec_module_code(&code, module, true));
        self.frames.clear();
        r.map_err(|e| self.script_error_of(e))
    }

    /// Every module imported so far (not `__main__`), in no particular order.
    pub(crate) fn loaded_modules(&self) -> Vec<Rc<Module>> {
        self.modules
            .values()
            .filter_map(|v| match v {
                Value::Module(m) if !Rc::ptr_eq(m, &self.main) => Some(m.clone()),
                _ => None,
            })
            .collect()
    }

    /// The `__main__` module (its namespace is the script's globals).
    pub(crate) fn main_module(&self) -> Rc<Module> {
        self.main.clone()
    }

    /// Whether `name` is a builtin (`len`, `print`, …), which a global of that name shadows.
    pub(crate) fn is_builtin(&self, name: &str) -> bool {
        self.builtins.borrow().contains_str(name)
    }

    /// Set a global in `__main__`.
    pub fn set_main_global(&mut self, name: &str, v: Value) {
        let old = self.main.dict.borrow_mut().set_str(name, v);
        drop(old);
    }

    /// Read a global of `__main__` (for checks and tests).
    pub fn main_global(&self, name: &str) -> Option<Value> {
        self.main.dict.borrow().get_str(name).cloned()
    }

    /// Everything `print()` wrote since the last call.
    pub fn take_stdout(&mut self) -> String {
        self.stdout_full = false;
        std::mem::take(&mut self.stdout)
    }
    /// Append to stdout, keeping at most [`MAX_OUTPUT`] bytes (then [`TRUNCATED_NOTE`]).
    pub(crate) fn write_stdout(&mut self, s: &str) {
        self.flush_stderr_source();
        self.push_output(false, s);
    }
    pub(crate) fn write_stderr(&mut self, s: &str) {
        self.flush_stderr_source();
        self.push_output(true, s);
    }
    pub(crate) fn take_stderr(&mut self) -> String {
        self.stderr_full = false;
        std::mem::take(&mut self.stderr)
    }

    /// Where stderr lines printed outside the script come from (see `stderr_source`).
    pub(crate) fn set_stderr_source(&mut self, source: Box<dyn FnMut() -> Vec<String>>) {
        self.stderr_source = Some(source);
    }

    /// Writes the lines the stderr source has now, in their place among the script's output.
    pub(crate) fn flush_stderr_source(&mut self) {
        let lines = match self.stderr_source.as_mut() {
            Some(source) => source(),
            None => return,
        };
        for line in lines {
            self.push_output(true, &line);
            self.push_output(true, "\n");
        }
    }

    /// The order of the stdout and stderr written since the last call: (to stderr, bytes)
    /// per run of writes to one stream, adding up to what `take_stdout` and `take_stderr`
    /// return.
    pub(crate) fn take_output_order(&mut self) -> Vec<(bool, usize)> {
        std::mem::take(&mut self.output_order)
    }

    fn push_output(&mut self, to_stderr: bool, s: &str) {
        let (buf, full) = if to_stderr {
            (&mut self.stderr, &mut self.stderr_full)
        } else {
            (&mut self.stdout, &mut self.stdout_full)
        };
        let before = buf.len();
        push_capped(buf, full, s);
        let added = buf.len() - before;
        if added == 0 {
            return;
        }
        match self.output_order.last_mut() {
            Some((err, n)) if *err == to_stderr => *n += added,
            _ => self.output_order.push((to_stderr, added)),
        }
    }

    /// The 1-based line now executing in the innermost frame of the main script file (0 before
    /// the script starts).
    pub fn current_line(&self) -> u32 {
        self.frames
            .iter()
            .rev()
            .find(|f| f.is_main)
            .map(|f| f.line)
            .unwrap_or(0)
    }

    /// `os.environ`: set entries before the run; the torch bindings read them.
    pub fn env(&self) -> &RefCell<BTreeMap<String, String>> {
        &self.env
    }

    /// The process environment's value of `key`, what a C library's `getenv` sees: `os.environ`
    /// unless `os.putenv` / `os.unsetenv` changed the key since.
    pub(crate) fn process_env(&self, key: &str) -> Option<String> {
        match self.putenv.borrow().get(key) {
            Some(v) => v.clone(),
            None => self.env.borrow().get(key).cloned(),
        }
    }

    /// Steps executed so far in this run.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Count one step and enforce the limits. Called per statement, loop iteration and call.
    #[inline]
    pub(crate) fn step(&mut self) -> PyResult<()> {
        self.steps += 1;
        if self.steps >= self.next_check {
            self.check_limits()?;
            return self.check_budget();
        }
        Ok(())
    }

    /// MemoryError when the run holds more than its memory budget (crate::budget): growth
    /// that no single allocation check saw (slice copies, `split` results, many small
    /// objects) is caught here, every 1024 steps and at every work check, while the
    /// budget's slack under `RLIMIT_AS` still has room. Not sticky: an `except MemoryError:`
    /// that frees what it kept goes on.
    #[cold]
    fn check_budget(&mut self) -> PyResult<()> {
        if crate::budget::can_allocate(0) {
            Ok(())
        } else {
            Err(memory_error())
        }
    }

    /// Enforce the wall-time and cancel limits inside one long builtin operation
    /// (`pow(a, b, m)` with huge numbers) without counting a step.
    pub(crate) fn check_time(&mut self) -> PyResult<()> {
        self.check_limits()
    }

    /// Count `units` of work done inside one builtin call (a comparison, an item copied,
    /// hashed or searched). Every [`WORK_CHECK`] units the wall-time limit and the cancel flag
    /// are checked, so one `sorted()` of millions of items, or a cheap-looking `x in big_list`
    /// in a loop, stops at the time limit with the same error as `while True:`. Work is not
    /// steps: a legitimately big sort does not use up the step budget.
    #[inline]
    pub(crate) fn work(&mut self, units: u64) -> PyResult<()> {
        self.work_done = self.work_done.wrapping_add(units);
        if self.work_done >= self.next_work_check {
            return self.work_check();
        }
        Ok(())
    }

    #[cold]
    fn work_check(&mut self) -> PyResult<()> {
        self.next_work_check = self.work_done.saturating_add(WORK_CHECK);
        let r = self.limits_exceeded();
        if r.is_err() {
            // Tripped: the next step checks again (and so on), as for the step limit.
            self.next_check = self.steps;
            return r;
        }
        self.check_budget()
    }

    /// Every 1024 steps: the limits. Once one is exceeded it stays exceeded (steps only grow,
    /// time only passes, the cancel flag stays set) and every later step checks again, so a
    /// `finally:` that calls or loops while the TimeoutError unwinds is stopped at once instead
    /// of running 1024 more steps per frame (`def f(): try: f() finally: f()` would otherwise
    /// unwind for 2**depth steps).
    #[cold]
    pub(crate) fn check_limits(&mut self) -> PyResult<()> {
        let r = self.limits_exceeded();
        if r.is_ok() {
            self.next_check = self.steps + 1024;
        }
        r
    }

    fn limits_exceeded(&mut self) -> PyResult<()> {
        let line = self.current_line();
        if self.steps > self.limits.max_steps {
            return Err(PyException::new(
                ExcType::TimeoutError,
                format!(
                    "the script ran more than {} steps (line {line})",
                    self.limits.max_steps
                ),
            )
            .uncatchable());
        }
        if let Some(c) = &self.limits.cancel
            && c.load(Ordering::Relaxed)
        {
            return Err(PyException::new(ExcType::KeyboardInterrupt, "").uncatchable());
        }
        if self.started.elapsed() > self.limits.max_wall {
            return Err(PyException::new(
                ExcType::TimeoutError,
                format!(
                    "the script ran longer than {} seconds (line {line})",
                    fmt_secs(self.limits.max_wall)
                ),
            )
            .uncatchable());
        }
        Ok(())
    }

    /// Turn an escaped exception into the embedder's view, traceback text included.
    pub(crate) fn script_error_of(&mut self, mut e: PyException) -> ScriptError {
        if self.is_system_exit(&e) {
            return self.system_exit(&mut e);
        }
        let (type_name, message, exception) = self.exception_parts(&e);
        let mut text = String::new();
        if let Some(v) = &exception {
            text = self.render_chain(v);
        }
        let is_syntax = matches!(
            type_name.as_str(),
            "SyntaxError" | "IndentationError" | "TabError"
        );
        let line = if is_syntax {
            e.0.line_hint
        } else {
            e.0.traceback
                .iter()
                .find(|t| *t.file == *self.main_file)
                .map(|t| t.line)
        };
        if is_syntax {
            let file =
                e.0.traceback
                    .first()
                    .map(|t| t.file.clone())
                    .unwrap_or_else(|| self.main_file.clone());
            let ln = e.0.line_hint.unwrap_or(1);
            text.push_str(&format!("  File \"{file}\", line {ln}\n"));
            if let Some(src) = self.source_line(&file, ln) {
                let trimmed = src.trim_start();
                let indent = src.len() - trimmed.len();
                let trimmed = trimmed.trim_end();
                text.push_str(&format!("    {trimmed}\n"));
                if let Some(col) = e.0.column {
                    let caret = (col as usize)
                        .saturating_sub(1)
                        .saturating_sub(indent)
                        .min(trimmed.chars().count());
                    text.push_str(&format!("    {}^\n", " ".repeat(caret)));
                }
            }
        } else if !e.0.traceback.is_empty() {
            let sources = &self.sources;
            let lookup = |f: &str, n: u32| -> Option<String> {
                sources
                    .get(f)
                    .and_then(|s| s.line((n as usize).checked_sub(1)?))
                    .map(str::to_string)
            };
            text.push_str(&render_frames(
                &self.visible_frames(&e.0.traceback),
                &lookup,
            ));
        }
        let mut last = final_line(
            &self.printed_type_name(&type_name, exception.as_ref()),
            &message,
        );
        if matches!(type_name.as_str(), "NameError" | "AttributeError")
            && let Some(h) = e.0.hint.as_deref()
            && let Some(s) = self.suggestion(h)
        {
            last.push_str(&format!(". Did you mean: '{s}'?"));
        }
        text.push_str(&last);
        text.push('\n');
        ScriptError {
            type_name,
            message,
            line,
            column: e.0.column,
            traceback: text,
            exception,
            exit_status: None,
        }
    }

    fn is_system_exit(&mut self, e: &PyException) -> bool {
        if e.0.uncatchable {
            return false;
        }
        let cls = match &e.0.payload {
            Payload::Lazy { kind, .. } => self.exc_class(*kind),
            Payload::Value(Value::Instance(i)) => i.class.clone(),
            Payload::Value(_) => return false,
        };
        let system_exit = self.exc_class(ExcType::SystemExit);
        cls.is_subclass(&system_exit)
    }

    /// An uncaught SystemExit ends the run as CPython's `handle_system_exit` does: no
    /// traceback; the status is the code when it is an int (None: 0), otherwise the code is
    /// printed to stderr and the status is 1.
    fn system_exit(&mut self, e: &mut PyException) -> ScriptError {
        let v = self.exc_value(e);
        let code = match &v {
            Value::Instance(i) => i.dict.borrow().get_str("code").cloned(),
            _ => None,
        }
        .unwrap_or(Value::None);
        let (status, text) = match &code {
            Value::None => (0, String::new()),
            Value::Int(n) => ((*n & 0xff) as i32, String::new()),
            Value::Bool(b) => (i32::from(*b), String::new()),
            Value::BigInt(_) => (255, String::new()),
            other => {
                let s = self
                    .str(other)
                    .unwrap_or_else(|_| "<exception str() failed>".to_string());
                (1, format!("{s}\n"))
            }
        };
        let message = match &code {
            Value::None => String::new(),
            other => self.str(other).unwrap_or_default(),
        };
        ScriptError {
            type_name: v.type_name(),
            message,
            line: e
                .0
                .traceback
                .iter()
                .find(|t| *t.file == *self.main_file)
                .map(|t| t.line),
            column: None,
            traceback: text,
            exception: Some(v),
            exit_status: Some(status),
        }
    }

    /// What CPython prints above an exception's own traceback: the chain of causes
    /// (`raise … from …`) or contexts (raised while handling another), oldest first, each
    /// with its traceback and the sentence joining it to the next. Cycles end the chain.
    fn render_chain(&mut self, v: &Value) -> String {
        const CAUSE: &str =
            "\nThe above exception was the direct cause of the following exception:\n\n";
        const CONTEXT: &str =
            "\nDuring handling of the above exception, another exception occurred:\n\n";
        let mut seen = vec![v.ptr_id()];
        let mut parts: Vec<(String, &str)> = Vec::new();
        let mut cur = v.clone();
        while parts.len() < 100 {
            let Value::Instance(i) = &cur else { break };
            let next = match i.exc.borrow().as_deref() {
                Some(ch) if !ch.cause.is_none() => Some((ch.cause.clone(), CAUSE)),
                Some(ch) if !ch.suppress_context && !ch.context.is_none() => {
                    Some((ch.context.clone(), CONTEXT))
                }
                _ => None,
            };
            let Some((n, sep)) = next else { break };
            if seen.contains(&n.ptr_id()) {
                break;
            }
            seen.push(n.ptr_id());
            let mut body = String::new();
            if let Value::Instance(ni) = &n
                && let Some(ch) = ni.exc.borrow().as_deref()
                && !ch.traceback.is_empty()
            {
                let sources = &self.sources;
                let lookup = |f: &str, k: u32| -> Option<String> {
                    sources
                        .get(f)
                        .and_then(|s| s.line((k as usize).checked_sub(1)?))
                        .map(str::to_string)
                };
                body.push_str(&render_frames(&self.visible_frames(&ch.traceback), &lookup));
            }
            let msg = self
                .str(&n)
                .unwrap_or_else(|_| "<exception str() failed>".to_string());
            let printed = self.printed_type_name(&n.type_name(), Some(&n));
            body.push_str(&final_line(&printed, &msg));
            body.push('\n');
            parts.push((body, sep));
            cur = n;
        }
        let mut out = String::new();
        for (body, sep) in parts.iter().rev() {
            out.push_str(body);
            out.push_str(sep);
        }
        out
    }

    pub(crate) fn source_line(&self, file: &str, n: u32) -> Option<String> {
        self.sources
            .get(file)
            .and_then(|s| s.line((n as usize).checked_sub(1)?))
            .map(str::to_string)
    }

    /// Type name, message and instance of an exception (materialising a lazy one).
    /// The type as CPython's traceback prints it: qualified by its module unless that is
    /// `builtins` or `__main__` (`torch.OutOfMemoryError: CUDA out of memory. ...`).
    fn printed_type_name(&self, type_name: &str, value: Option<&Value>) -> String {
        let class = match value {
            Some(Value::Instance(i)) => Some(i.class.clone()),
            _ => self.exc_classes.get(type_name).cloned(),
        };
        match class {
            Some(c) if !matches!(&*c.module, "builtins" | "__main__") => {
                format!("{}.{}", c.module, type_name)
            }
            _ => type_name.to_string(),
        }
    }

    pub fn exception_parts(&mut self, e: &PyException) -> (String, String, Option<Value>) {
        match &e.0.payload {
            Payload::Lazy { kind, message } => (kind.name().to_string(), message.clone(), None),
            Payload::Value(v) => {
                let tn = v.type_name();
                let msg = match self.str(v) {
                    Ok(s) => s,
                    Err(_) => "<exception str() failed>".to_string(),
                };
                (tn, msg, Some(v.clone()))
            }
        }
    }

    /// Clear module namespaces so reference cycles through globals do not keep objects
    /// (tensors) alive after the run.
    /// Brackets every call from trusted into untrusted code with `guard` (checks), or stops.
    pub(crate) fn set_call_guard(&mut self, guard: Option<CallGuard>) {
        self.call_guard = guard.map(Rc::new);
        self.untrusted_depth = 0;
    }

    /// When a call of code with these globals crosses from trusted into untrusted code: the
    /// world as the trusted code has it, saved for [`Interpreter::leave_untrusted`].
    // Never inlined: call_function's frame is on the stack once per Python frame, and the
    // stack check (DEFAULT_STACK_LIMIT) must still let CPython's 1000 frames through.
    #[inline(never)]
    pub(crate) fn enter_untrusted(&mut self, globals: &Rc<RefCell<Dict>>) -> Option<UntrustedCall> {
        let guard = self.call_guard.as_ref()?;
        if self.untrusted_depth > 0 || guard.trusted.contains(&(Rc::as_ptr(globals) as usize)) {
            return None;
        }
        let guard = guard.clone();
        self.untrusted_depth = 1;
        let saved = guard.world.save();
        Some(UntrustedCall { guard, saved })
    }

    /// The untrusted call entered by [`Interpreter::enter_untrusted`] has returned.
    #[inline(never)]
    pub(crate) fn leave_untrusted(&mut self, call: Option<UntrustedCall>) {
        if let Some(UntrustedCall { guard, saved }) = call {
            self.untrusted_depth = 0;
            guard.world.put_back(saved);
        }
    }

    pub fn clear_namespaces(&mut self) {
        let old = self.main.dict.borrow_mut().clear();
        drop(old);
        let mods: Vec<Value> = self.modules.drain().map(|(_, v)| v).collect();
        for m in &mods {
            if let Value::Module(m) = m {
                let old = m.dict.borrow_mut().clear();
                drop(old);
            }
        }
    }
}

impl Drop for Interpreter {
    fn drop(&mut self) {
        self.clear_namespaces();
    }
}
