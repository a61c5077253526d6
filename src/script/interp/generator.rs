//! Generators: functions with `yield` and generator expressions, with CPython's protocol
//! (`next`, `send`, `throw`, `close`, `return value` as `StopIteration.value`, `yield from`,
//! PEP 479's RuntimeError for a StopIteration escaping the body, GeneratorExit on close).
//!
//! # Why coroutines
//! The evaluator is a tree-walker: a generator's frame state is the Rust call stack of the
//! evaluator itself (which statement of which loop, inside which `try`/`with`). So each
//! started generator runs on a stack of its own (corosensei's stackful coroutines), and
//! `yield` is a stack switch back to whoever resumed it. Everything the evaluator does
//! (finally blocks, `with` exits, tracebacks, limits) then works inside generators unchanged.
//!
//! # The rules that keep it sound
//! * A coroutine only ever runs while the interpreter that started it is running it: the
//!   resumer passes its own address in and the generator refuses to resume from another one
//!   (an `Interpreter` that moved while a generator was suspended).
//! * What the interpreter keeps per running frame is handed over at each switch: the
//!   generator's [`FrameInfo`] and the exceptions its `except` clauses are handling leave the
//!   interpreter's stacks at `yield` and come back at resume; the Rust-stack bounds of the
//!   recursion check switch to the coroutine's stack and back.
//! * A suspended generator that is dropped is closed the way CPython closes it (GeneratorExit
//!   at the `yield`, so `finally` blocks run) at the next statement boundary: its coroutine
//!   waits in [`GenQueue`], which the evaluator drains between statements. Without an
//!   interpreter to run it (the interpreter is gone), dropping the coroutine unwinds its
//!   stack, which frees what its frames hold.

use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

use corosensei::stack::DefaultStack;
use corosensei::{Coroutine, CoroutineResult, Yielder};

use super::super::errors::{PyException, PyResult};
use super::super::native::{Args, NativeCx, NativeObject};
use super::super::value::{CellRef, Dict, Function, Value};
use super::iter::is_stop_iteration;
use super::stmt::{Flow, Frame};
use super::{FrameInfo, Interpreter};
use crate::script::ExcType;

/// Each started generator's stack. Only touched pages take memory; the size bounds how deep
/// calls made from inside a generator may go (the recursion check raises RecursionError
/// `STACK_MARGIN` before its end). Debug builds use several times more stack per call.
pub(crate) const STACK_SIZE: usize = if cfg!(debug_assertions) {
    2 << 20
} else {
    512 << 10
};
const STACK_MARGIN: usize = if cfg!(debug_assertions) {
    512 << 10
} else {
    128 << 10
};
/// Finished generators' stacks kept for the next ones (a generator expression in a loop
/// would otherwise map and unmap a stack per iteration).
const STACK_POOL: usize = 16;

/// What a resumer sends into the coroutine: `send(value)` (next() sends None) or `throw(e)`.
pub(crate) enum GenInput {
    Send(Value),
    Throw(PyException),
}

/// The resume message: the resuming interpreter's address and the input.
pub(crate) struct GenIn(*mut Interpreter, GenInput);
/// The yield message: the yielded value (and the interpreter's address, passed back so the
/// compiler sees it escape into the switch, as every caller of the evaluator does).
pub(crate) struct GenOut(Value, *mut Interpreter);

type Coro = Coroutine<GenIn, GenOut, PyResult<Value>, GenStack>;

/// A generator's stack: corosensei's (mapped, with a guard page), counted in the run's memory
/// budget while it exists (crate::budget).
pub(crate) struct GenStack(DefaultStack);

impl GenStack {
    fn new() -> PyResult<GenStack> {
        if !crate::budget::can_allocate(STACK_SIZE as u64) {
            return Err(PyException::new(ExcType::MemoryError, ""));
        }
        let s = DefaultStack::new(STACK_SIZE)
            .map_err(|_| PyException::new(ExcType::MemoryError, ""))?;
        crate::budget::charge(STACK_SIZE as i64);
        Ok(GenStack(s))
    }
}

impl Drop for GenStack {
    fn drop(&mut self) {
        crate::budget::charge(-(STACK_SIZE as i64));
    }
}

// SAFETY: forwards to DefaultStack, which upholds the trait's contract.
unsafe impl corosensei::stack::Stack for GenStack {
    fn base(&self) -> corosensei::stack::StackPointer {
        self.0.base()
    }
    fn limit(&self) -> corosensei::stack::StackPointer {
        self.0.limit()
    }
    // Windows keeps a stack's bounds in the thread's TEB as well.
    #[cfg(windows)]
    fn teb_fields(&self) -> corosensei::stack::StackTebFields {
        self.0.teb_fields()
    }
    #[cfg(windows)]
    fn update_teb_fields(&mut self, stack_limit: usize, guaranteed_stack_bytes: usize) {
        self.0
            .update_teb_fields(stack_limit, guaranteed_stack_bytes)
    }
}
type GenYielder = Yielder<GenIn, GenOut>;

/// One step of a generator.
pub(crate) enum GenStep {
    Yielded(Value),
    /// It finished: `return value` (None without one).
    Returned(Value),
}

struct GenStart {
    fun: Rc<Function>,
    locals: Vec<Option<Value>>,
    cells: Vec<CellRef>,
}

enum GenState {
    /// Called but not started: the bound arguments wait for the first `next()`.
    Created(Box<GenStart>),
    Suspended(Box<Coro>),
    Running,
    Done,
}

/// A generator object (`type(g).__name__ == 'generator'`).
pub(crate) struct Generator {
    name: Rc<str>,
    qualname: Rc<str>,
    file: Rc<str>,
    def_line: u32,
    /// The generator function's globals: whether resuming it enters untrusted code.
    globals: Rc<RefCell<Dict>>,
    state: RefCell<GenState>,
    /// The address of the interpreter whose frames the coroutine's stack refers to.
    interp: Cell<usize>,
    queue: Weak<GenQueue>,
}

/// The running generator as `yield` finds it: one per resume, innermost last.
pub(crate) struct GenCtx {
    yielder: *const GenYielder,
    /// `Interpreter::handled` entries below this belong to the resumer.
    handled_base: usize,
    /// The coroutine stack's bounds for the recursion check.
    own_base: usize,
    own_limit: usize,
}

/// Suspended generators that were dropped, waiting to be closed (see the module docs).
#[derive(Default)]
pub(crate) struct GenQueue {
    pending: RefCell<Vec<PendingClose>>,
    flag: Cell<bool>,
}

struct PendingClose {
    coro: Box<Coro>,
    qualname: Rc<str>,
    addr: usize,
    interp: usize,
}

impl GenQueue {
    /// Something waits to be closed (checked before every statement).
    #[inline]
    pub(crate) fn pending(&self) -> bool {
        self.flag.get()
    }
}

impl Drop for Generator {
    fn drop(&mut self) {
        let st = std::mem::replace(self.state.get_mut(), GenState::Done);
        if let GenState::Created(start) = st {
            // A chain of unstarted generators over each other frees without deep recursion.
            let GenStart { fun, locals, cells } = *start;
            let mut held: Vec<Value> = locals.into_iter().flatten().collect();
            for cell in cells {
                if let Ok(c) = Rc::try_unwrap(cell)
                    && let Some(v) = c.into_inner()
                {
                    held.push(v);
                }
            }
            held.push(Value::Function(fun));
            super::super::drop::drop_values(held);
            return;
        }
        if let GenState::Suspended(coro) = st {
            let closing = PendingClose {
                coro,
                qualname: self.qualname.clone(),
                addr: self as *const Generator as usize,
                interp: self.interp.get(),
            };
            match self.queue.upgrade() {
                Some(q) => {
                    q.pending.borrow_mut().push(closing);
                    q.flag.set(true);
                }
                // No interpreter left to run `finally` blocks: unwinding the coroutine's stack
                // still frees everything its frames hold.
                None => drop(closing),
            }
        }
    }
}

fn generator_of(this: &Rc<dyn NativeObject>) -> PyResult<&Generator> {
    this.as_any()
        .downcast_ref::<Generator>()
        .ok_or_else(|| PyException::type_error("descriptor requires a 'generator' object"))
}

impl Generator {
    fn repr_text(&self) -> String {
        format!(
            "<generator object {} at 0x{:012x}>",
            self.qualname, self as *const Generator as usize
        )
    }
}

impl NativeObject for Generator {
    fn type_name(&self) -> &str {
        "generator"
    }
    fn iter(&self, NativeCx { this, .. }: NativeCx<'_>) -> PyResult<Option<Value>> {
        Ok(Some(Value::Native(this.clone())))
    }
    fn next(&self, NativeCx { it, .. }: NativeCx<'_>) -> PyResult<Option<Value>> {
        match it.gen_resume(self, GenInput::Send(Value::None))? {
            GenStep::Yielded(v) => Ok(Some(v)),
            GenStep::Returned(_) => Ok(None),
        }
    }
    fn getattr(&self, NativeCx { this, .. }: NativeCx<'_>, name: &str) -> PyResult<Option<Value>> {
        let this = this.clone();
        Ok(Some(match name {
            "__next__" => Value::native_fn("__next__", move |it, args| {
                args.exact("__next__", 0)?;
                let g = generator_of(&this)?;
                let step = it.gen_resume(g, GenInput::Send(Value::None))?;
                it.step_value(step)
            }),
            "send" => Value::native_fn("send", move |it, args| {
                let a = args.exact("send", 1)?;
                let g = generator_of(&this)?;
                let step = it.gen_resume(g, GenInput::Send(a[0].clone()))?;
                it.step_value(step)
            }),
            "throw" => Value::native_fn("throw", move |it, args| {
                let a = args.range("throw", 1, 3)?;
                let e = it.thrown_exception(&a[0], a.get(1))?;
                let g = generator_of(&this)?;
                let step = it.gen_resume(g, GenInput::Throw(e))?;
                it.step_value(step)
            }),
            "close" => Value::native_fn("close", move |it, args| {
                args.exact("close", 0)?;
                let g = generator_of(&this)?;
                it.gen_close(g)?;
                Ok(Value::None)
            }),
            "__iter__" => Value::native_fn("__iter__", move |_it, _args| {
                Ok(Value::Native(this.clone()))
            }),
            "gi_running" => Value::Bool(matches!(*self.state.borrow(), GenState::Running)),
            "gi_suspended" => Value::Bool(matches!(*self.state.borrow(), GenState::Suspended(_))),
            "__name__" => Value::Str((&self.name).into()),
            "__qualname__" => Value::Str((&self.qualname).into()),
            _ => return Ok(None),
        }))
    }
    fn repr(&self, _: NativeCx<'_>) -> PyResult<Option<String>> {
        Ok(Some(self.repr_text()))
    }
    fn dir(&self) -> Vec<String> {
        [
            "__iter__",
            "__name__",
            "__next__",
            "__qualname__",
            "close",
            "gi_running",
            "gi_suspended",
            "send",
            "throw",
        ]
        .map(String::from)
        .to_vec()
    }
}

impl Interpreter {
    /// The generator a generator function's call returns: its arguments bound, not started.
    pub(crate) fn make_generator(
        &mut self,
        fun: Rc<Function>,
        locals: Vec<Option<Value>>,
        cells: Vec<CellRef>,
    ) -> Value {
        let code = &fun.code;
        let g = Generator {
            name: code.name.clone(),
            qualname: code.qualname.clone(),
            file: code.file.clone(),
            def_line: code.line,
            globals: fun.globals.clone(),
            interp: Cell::new(self as *const Interpreter as usize),
            queue: Rc::downgrade(&self.gen_queue),
            state: RefCell::new(GenState::Created(Box::new(GenStart {
                fun: fun.clone(),
                locals,
                cells,
            }))),
        };
        Value::native(g)
    }

    /// Run `g` until it yields or finishes.
    pub(crate) fn gen_resume(&mut self, g: &Generator, input: GenInput) -> PyResult<GenStep> {
        if matches!(*g.state.borrow(), GenState::Running) {
            return Err(PyException::value_error("generator already executing"));
        }
        if matches!(*g.state.borrow(), GenState::Done) {
            return match input {
                GenInput::Send(_) => Ok(GenStep::Returned(Value::None)),
                GenInput::Throw(e) => Err(e),
            };
        }
        // CPython counts a generator's frame in the recursion depth like any call's.
        self.check_stack()?;
        if self.frames.len() >= self.recursion_limit {
            return Err(PyException::new(
                ExcType::RecursionError,
                "maximum recursion depth exceeded",
            ));
        }
        let me = self as *const Interpreter as usize;
        let state = std::mem::replace(&mut *g.state.borrow_mut(), GenState::Running);
        let mut coro = match state {
            GenState::Created(start) => match input {
                GenInput::Throw(mut e) => {
                    *g.state.borrow_mut() = GenState::Done;
                    e.leave_frame(g.file.clone(), g.def_line, g.name.clone());
                    return Err(e);
                }
                GenInput::Send(ref v) if !v.is_none() => {
                    *g.state.borrow_mut() = GenState::Created(start);
                    return Err(PyException::type_error(
                        "can't send non-None value to a just-started generator",
                    ));
                }
                GenInput::Send(_) => match self.new_coroutine(start) {
                    Ok(c) => c,
                    Err(e) => {
                        *g.state.borrow_mut() = GenState::Done;
                        return Err(e);
                    }
                },
            },
            GenState::Suspended(c) => {
                if g.interp.get() != me {
                    *g.state.borrow_mut() = GenState::Suspended(c);
                    return Err(PyException::runtime_error(
                        "this generator was started by another interpreter and cannot resume here",
                    ));
                }
                c
            }
            GenState::Running | GenState::Done => {
                return Err(PyException::new(
                    ExcType::SystemError,
                    "generator state changed",
                ));
            }
        };
        g.interp.set(me);
        let guard = self.enter_untrusted(&g.globals);
        let result = self.run_coroutine(&mut coro, input);
        self.leave_untrusted(guard);
        match result {
            CoroutineResult::Yield(GenOut(v, from)) => {
                debug_assert_eq!(
                    from as usize, me,
                    "a generator yields to its own interpreter"
                );
                *g.state.borrow_mut() = GenState::Suspended(coro);
                Ok(GenStep::Yielded(v))
            }
            CoroutineResult::Return(r) => {
                *g.state.borrow_mut() = GenState::Done;
                self.recycle_stack(*coro);
                r.map(GenStep::Returned)
            }
        }
    }

    /// Resume a coroutine with this interpreter's bookkeeping around it: a context for its
    /// `yield`, and the resumer's stack bounds back afterwards.
    fn run_coroutine(
        &mut self,
        coro: &mut Coro,
        input: GenInput,
    ) -> CoroutineResult<GenOut, PyResult<Value>> {
        let (base, limit) = (self.stack_base, self.stack_limit);
        self.gen_ctx.push(GenCtx {
            yielder: std::ptr::null(),
            handled_base: self.handled.len(),
            own_base: 0,
            own_limit: 0,
        });
        let r = coro.resume(GenIn(self as *mut Interpreter, input));
        // The body took its context off when it yielded or returned.
        self.stack_base = base;
        self.stack_limit = limit;
        r
    }

    fn new_coroutine(&mut self, start: Box<GenStart>) -> PyResult<Box<Coro>> {
        let stack = match self.gen_stacks.pop() {
            Some(s) => s,
            None => GenStack::new()?,
        };
        Ok(Box::new(Coroutine::with_stack(
            stack,
            move |y: &GenYielder, GenIn(interp, _first): GenIn| {
                // SAFETY: `interp` is the interpreter running `resume` right now (run_coroutine
                // passes `self`); it stays in place while the coroutine exists (gen_resume
                // refuses another address) and is used here only while it resumes us.
                let it = unsafe { &mut *interp };
                it.generator_body(y, *start)
            },
        )))
    }

    /// A finished coroutine's stack goes back to the pool.
    fn recycle_stack(&mut self, coro: Coro) {
        if coro.done() && self.gen_stacks.len() < STACK_POOL {
            self.gen_stacks.push(coro.into_stack());
        }
    }

    /// The generator's frame, run on its coroutine's stack.
    fn generator_body(&mut self, y: &GenYielder, start: GenStart) -> PyResult<Value> {
        let here = 0u8;
        let base = std::hint::black_box(&here) as *const u8 as usize;
        let limit = STACK_SIZE - STACK_MARGIN;
        self.stack_base = base;
        self.stack_limit = limit;
        if let Some(ctx) = self.gen_ctx.last_mut() {
            ctx.yielder = y;
            ctx.own_base = base;
            ctx.own_limit = limit;
        }
        let GenStart { fun, locals, cells } = start;
        // a deferred method's body was compiled by the call that made the generator
        let code = fun.code.runnable();
        let mut frame = Frame::with_locals(code, fun.globals.clone(), &fun.closure, locals);
        frame.cells = cells;
        frame.func = Some(&fun);
        self.frames.push(FrameInfo {
            file: code.file.clone(),
            func: code.name.clone(),
            line: code.line,
            is_main: *code.file == *self.main_file,
        });
        let r = self.exec_block(&mut frame, &code.body);
        let line = self.frames.last().map(|f| f.line).unwrap_or(0);
        self.frames.pop();
        drop(frame);
        if let Some(ctx) = self.gen_ctx.pop() {
            self.handled.truncate(ctx.handled_base);
        }
        match r {
            Ok(Flow::Return(v)) => Ok(v),
            Ok(_) => Ok(Value::None),
            Err(mut e) => {
                e.leave_frame(code.file.clone(), line, code.name.clone());
                if !e.0.uncatchable && is_stop_iteration(&e) {
                    return Err(self.stop_iteration_escaped(e));
                }
                Err(e)
            }
        }
    }

    /// PEP 479: a StopIteration leaving a generator's body becomes `RuntimeError: generator
    /// raised StopIteration`, raised from it.
    fn stop_iteration_escaped(&mut self, mut e: PyException) -> PyException {
        let cause = self.exc_value(&mut e);
        Self::with_exc_chain(&cause, |ch| ch.traceback = e.0.traceback.clone());
        let mut r = PyException::new(ExcType::RuntimeError, "generator raised StopIteration");
        let rv = self.exc_value(&mut r);
        Self::with_exc_chain(&rv, |ch| {
            ch.cause = cause.clone();
            ch.context = cause;
            ch.suppress_context = true;
        });
        r
    }

    /// `yield v`: hand `v` to the resumer and wait; the value sent back is the result (or the
    /// exception thrown in is raised here).
    pub(crate) fn gen_yield(&mut self, v: Value) -> PyResult<Value> {
        let Some(ctx) = self.gen_ctx.pop() else {
            return Err(PyException::new(
                ExcType::SystemError,
                "yield outside a running generator",
            ));
        };
        let frame = self.frames.pop();
        let handled = self
            .handled
            .split_off(ctx.handled_base.min(self.handled.len()));
        // SAFETY: the yielder lives on this coroutine's stack (it is the body closure's
        // argument) for as long as the coroutine runs, and this code runs on that stack.
        let y = unsafe { &*ctx.yielder };
        let GenIn(_, input) = y.suspend(GenOut(v, self as *mut Interpreter));
        // Resumed (possibly from elsewhere): the resumer pushed a fresh context.
        if let Some(now) = self.gen_ctx.last_mut() {
            now.yielder = ctx.yielder;
            now.own_base = ctx.own_base;
            now.own_limit = ctx.own_limit;
        }
        self.stack_base = ctx.own_base;
        self.stack_limit = ctx.own_limit;
        if let Some(fr) = frame {
            self.frames.push(fr);
        }
        self.handled.extend(handled);
        match input {
            GenInput::Send(v) => Ok(v),
            GenInput::Throw(e) => Err(e),
        }
    }

    /// `yield from sub`: pass what `sub` yields through, what is sent or thrown in down to it,
    /// and evaluate to what it returned.
    pub(crate) fn yield_from(&mut self, sub: Value) -> PyResult<Value> {
        let mut input = GenInput::Send(Value::None);
        loop {
            let step = match sub.downcast::<Generator>() {
                Some(g) => {
                    if let GenInput::Throw(e) = &input
                        && self.exc_is(e, ExcType::GeneratorExit)
                    {
                        self.gen_close(g)?;
                        let GenInput::Throw(e) = input else {
                            unreachable!()
                        };
                        return Err(e);
                    }
                    self.gen_resume(g, input)?
                }
                None => self.delegate_step(&sub, input)?,
            };
            match step {
                GenStep::Returned(v) => return Ok(v),
                GenStep::Yielded(v) => {
                    input = match self.gen_yield(v) {
                        Ok(sent) => GenInput::Send(sent),
                        Err(e) => GenInput::Throw(e),
                    };
                }
            }
        }
    }

    /// One step of `yield from` over an iterator that is not a generator.
    fn delegate_step(&mut self, sub: &Value, input: GenInput) -> PyResult<GenStep> {
        match input {
            GenInput::Send(v) if v.is_none() => Ok(match self.next_item(sub)? {
                Some(x) => GenStep::Yielded(x),
                None => GenStep::Returned(Value::None),
            }),
            GenInput::Send(v) => self.delegate_call(sub, "send", vec![v]),
            GenInput::Throw(e) => {
                if self.exc_is(&e, ExcType::GeneratorExit) {
                    if let Some(close) = self.getattr_opt(sub, "close")? {
                        self.call(&close, Args::default())?;
                    }
                    return Err(e);
                }
                if self.getattr_opt(sub, "throw")?.is_none() {
                    return Err(e);
                }
                let mut e = e;
                let v = self.exc_value(&mut e);
                self.delegate_call(sub, "throw", vec![v])
            }
        }
    }

    fn delegate_call(&mut self, sub: &Value, name: &str, args: Vec<Value>) -> PyResult<GenStep> {
        match self.call_method(sub, name, Args::new(args)) {
            Ok(v) => Ok(GenStep::Yielded(v)),
            Err(mut e) if !e.0.uncatchable && is_stop_iteration(&e) => {
                let v = self.exc_value(&mut e);
                let value = match &v {
                    Value::Instance(i) => i.dict.borrow().get_str("value").cloned(),
                    _ => None,
                };
                Ok(GenStep::Returned(value.unwrap_or(Value::None)))
            }
            Err(e) => Err(e),
        }
    }

    /// `g.close()`: GeneratorExit at the `yield`; yielding again is CPython's RuntimeError.
    pub(crate) fn gen_close(&mut self, g: &Generator) -> PyResult<()> {
        {
            let mut st = g.state.borrow_mut();
            match &*st {
                GenState::Created(_) => {
                    *st = GenState::Done;
                    return Ok(());
                }
                GenState::Done => return Ok(()),
                _ => {}
            }
        }
        let exit = PyException::new(ExcType::GeneratorExit, "");
        match self.gen_resume(g, GenInput::Throw(exit)) {
            Ok(GenStep::Yielded(_)) => Err(PyException::runtime_error(
                "generator ignored GeneratorExit",
            )),
            Ok(GenStep::Returned(_)) => Ok(()),
            Err(e)
                if !e.0.uncatchable
                    && (self.exc_is(&e, ExcType::GeneratorExit) || is_stop_iteration(&e)) =>
            {
                Ok(())
            }
            Err(e) => Err(e),
        }
    }

    /// Is `e` an instance of the builtin exception class `kind` (or a subclass)?
    pub(crate) fn exc_is(&mut self, e: &PyException, kind: ExcType) -> bool {
        let cls = Value::Class(self.exc_class(kind));
        self.exc_matches(e, &cls).unwrap_or(false)
    }

    /// What `send`/`__next__`/`throw` return: the yielded value, or StopIteration(value).
    fn step_value(&mut self, step: GenStep) -> PyResult<Value> {
        match step {
            GenStep::Yielded(v) => Ok(v),
            GenStep::Returned(v) => Err(self.stop_iteration(v)),
        }
    }

    /// `StopIteration(value)` (no arguments for None), as a finished generator raises it.
    pub(crate) fn stop_iteration(&mut self, value: Value) -> PyException {
        let cls = self.exc_class(ExcType::StopIteration);
        let args = if value.is_none() { vec![] } else { vec![value] };
        PyException::from_value(self.new_exception_instance(&cls, args))
    }

    /// `g.throw(typ[, val])`'s exception, with CPython's checks.
    fn thrown_exception(&mut self, typ: &Value, val: Option<&Value>) -> PyResult<PyException> {
        let val = val.filter(|v| !v.is_none());
        match typ {
            Value::Class(c) if c.is_exception => {
                let inst = match val {
                    Some(v @ Value::Instance(i)) if i.class.is_subclass(c) => v.clone(),
                    Some(Value::Tuple(t)) => self.call(typ, Args::new(t.to_vec()))?,
                    Some(v) => self.call(typ, Args::new(vec![v.clone()]))?,
                    None => self.call(typ, Args::default())?,
                };
                Ok(PyException::from_value(inst))
            }
            Value::Instance(i) if i.class.is_exception => {
                if val.is_some() {
                    return Err(PyException::type_error(
                        "instance exception may not have a separate value",
                    ));
                }
                Ok(PyException::from_value(typ.clone()))
            }
            other => Err(PyException::type_error(format!(
                "exceptions must be classes or instances deriving from BaseException, not {}",
                other.type_name()
            ))),
        }
    }

    /// Close the suspended generators dropped since the last statement (CPython closes a
    /// generator when its last reference goes: its `finally` blocks run then).
    /// A limit tripped inside a `finally` run by the close (`while True: pass` there) is the
    /// run's error, raised here; other errors are reported as CPython reports them.
    pub(crate) fn close_pending_generators(&mut self) -> PyResult<()> {
        self.gen_queue.flag.set(false);
        loop {
            let next = self.gen_queue.pending.borrow_mut().pop();
            let Some(p) = next else { break };
            if let Err(e) = self.close_dropped(p) {
                let left = !self.gen_queue.pending.borrow().is_empty();
                self.gen_queue.flag.set(left);
                return Err(e);
            }
        }
        Ok(())
    }

    fn close_dropped(&mut self, mut p: PendingClose) -> PyResult<()> {
        let me = self as *const Interpreter as usize;
        if p.interp != me || self.frames.len() >= self.recursion_limit {
            return Ok(());
        }
        let mut fatal = None;
        let exit = PyException::new(ExcType::GeneratorExit, "");
        let problem = match self.run_coroutine(&mut p.coro, GenInput::Throw(exit)) {
            CoroutineResult::Yield(_) => Some(PyException::runtime_error(
                "generator ignored GeneratorExit",
            )),
            CoroutineResult::Return(Ok(_)) => None,
            CoroutineResult::Return(Err(e)) => {
                if e.0.uncatchable {
                    fatal = Some(e);
                    None
                } else if self.exc_is(&e, ExcType::GeneratorExit) || is_stop_iteration(&e) {
                    None
                } else {
                    Some(e)
                }
            }
        };
        if let Some(e) = problem {
            // CPython reports an exception it cannot raise anywhere like this.
            let text = self.script_error_of(e).traceback;
            let generator = format!("<generator object {} at 0x{:012x}>", p.qualname, p.addr);
            self.write_stderr(&format!("Exception ignored in: {generator}\n{text}"));
        }
        if p.coro.done() {
            let PendingClose { coro, .. } = p;
            self.recycle_stack(*coro);
        }
        fatal.map_or(Ok(()), Err)
    }
}
