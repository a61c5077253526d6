//! Exceptions as they travel through Rust (`PyException`), and as the embedder sees an uncaught
//! one (`ScriptError`, with CPython's traceback text).

use super::marks::Marks;
use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;

use super::exc_type::ExcType;
use super::value::{Dict, Value};

pub type PyResult<T> = Result<T, PyException>;

/// One line of a traceback: where a frame was when the exception passed through it.
#[derive(Clone, Debug)]
pub struct TraceEntry {
    pub file: Rc<str>,
    pub line: u32,
    pub func: Rc<str>,
    /// CPython's `~~^~~` under the source line ([`Marks::NONE`]: none).
    pub marks: Marks,
}

/// What was raised. Native code raises by type without an interpreter at hand
/// (`PyException::new(ExcType::RuntimeError, msg)`); the interpreter makes the instance from
/// the type when a script looks at it (`except … as e`), so the common path allocates no object.
#[derive(Clone)]
pub enum Payload {
    Lazy { kind: ExcType, message: String },
    Value(Value),
}

#[derive(Clone)]
pub struct ExcInner {
    pub payload: Payload,
    /// Innermost frame first (the order frames are unwound in); printed reversed.
    pub traceback: Vec<TraceEntry>,
    /// The step/time limit and cancellation: no `except` clause may catch them, or a script
    /// could swallow its own stop.
    pub uncatchable: bool,
    /// For SyntaxError: the column (1-based) and the offending line's text.
    pub column: Option<u32>,
    pub line_hint: Option<u32>,
    /// What CPython's "Did you mean: 'x'?" looks at, kept for when the exception is printed.
    pub hint: Option<Box<Hint>>,
    /// The innermost frame's traceback entry is already recorded (it was caught in that frame,
    /// then re-raised): the frame must not add a second one when the exception leaves it.
    pub frame_recorded: bool,
    /// The markers of the innermost failing node in the frame being unwound: set once, by the
    /// first node the exception leaves, and taken when the frame's entry is recorded.
    pub marks: Option<Marks>,
    /// Raised by a method call's lookup of the method (not by the call): the markers go under
    /// `obj.name`, as CPython's LOAD_METHOD location.
    pub in_lookup: bool,
}

/// The names near which a NameError / AttributeError happened.
#[derive(Clone)]
pub enum Hint {
    /// An unknown name: the function's local variable names and its globals (builtins are
    /// searched last).
    Name {
        name: Rc<str>,
        locals: Vec<Rc<str>>,
        globals: Rc<RefCell<Dict>>,
    },
    /// A missing attribute of `obj`.
    Attr { obj: Value, name: String },
}

/// A Python exception in flight (boxed: `Result<Value, PyException>` stays two words).
#[derive(Clone)]
pub struct PyException(pub Box<ExcInner>);

impl PyException {
    /// An exception of a builtin type (or one defined with
    /// [`Interpreter::define_exception`](super::Interpreter::define_exception)) with a message.
    pub fn new(kind: ExcType, message: impl Into<String>) -> PyException {
        PyException::raised(Payload::Lazy {
            kind,
            message: message.into(),
        })
    }
    /// Raise an exception instance (a `Value::Instance` of an exception class).
    pub(crate) fn from_value(v: Value) -> PyException {
        PyException::raised(Payload::Value(v))
    }
    /// A freshly raised exception: no traceback, position or hint yet.
    fn raised(payload: Payload) -> PyException {
        PyException(Box::new(ExcInner {
            payload,
            traceback: Vec::new(),
            uncatchable: false,
            column: None,
            line_hint: None,
            frame_recorded: false,
            hint: None,
            marks: None,
            in_lookup: false,
        }))
    }
    pub fn type_error(msg: impl Into<String>) -> PyException {
        PyException::new(ExcType::TypeError, msg)
    }
    /// CPython's TypeError for a value of type `type_name` where an integer (`__index__`) is
    /// needed: `range(1.5)`, `[].insert('a', 1)`, `random.getrandbits(2.0)`.
    pub(crate) fn not_an_integer(type_name: impl std::fmt::Display) -> PyException {
        PyException::type_error(format!(
            "'{type_name}' object cannot be interpreted as an integer"
        ))
    }
    /// CPython's TypeErrors for a protocol a type lacks; the builtin, class and native arms
    /// of `iter()`, `len()`, `x[k] = v` and `del x[k]` all word them the same way.
    pub(crate) fn not_iterable(type_name: impl std::fmt::Display) -> PyException {
        PyException::type_error(format!("'{type_name}' object is not iterable"))
    }
    pub(crate) fn no_len(type_name: impl std::fmt::Display) -> PyException {
        PyException::type_error(format!("object of type '{type_name}' has no len()"))
    }
    pub(crate) fn no_item_assignment(type_name: impl std::fmt::Display) -> PyException {
        PyException::type_error(format!(
            "'{type_name}' object does not support item assignment"
        ))
    }
    pub(crate) fn no_item_deletion(type_name: impl std::fmt::Display) -> PyException {
        PyException::type_error(format!(
            "'{type_name}' object doesn't support item deletion"
        ))
    }
    pub(crate) fn value_error(msg: impl Into<String>) -> PyException {
        PyException::new(ExcType::ValueError, msg)
    }
    pub(crate) fn runtime_error(msg: impl Into<String>) -> PyException {
        PyException::new(ExcType::RuntimeError, msg)
    }
    pub fn index_error(msg: impl Into<String>) -> PyException {
        PyException::new(ExcType::IndexError, msg)
    }
    pub(crate) fn uncatchable(mut self) -> PyException {
        self.0.uncatchable = true;
        self
    }
    /// The exception's type when it is one of [`ExcType`]'s: always for `new`; for an instance,
    /// when its class is that type itself (a script's subclass of ValueError is not
    /// `ExcType::ValueError`).
    pub fn kind(&self) -> Option<ExcType> {
        match &self.0.payload {
            Payload::Lazy { kind, .. } => Some(*kind),
            Payload::Value(Value::Instance(i)) => {
                ExcType::from_name(&i.class.name).filter(|t| t.module() == &*i.class.module)
            }
            Payload::Value(_) => None,
        }
    }
    pub fn traceback(&self) -> &[TraceEntry] {
        &self.0.traceback
    }
    /// Mark an error as coming from a method lookup (see `in_lookup`).
    pub(crate) fn in_lookup(mut self) -> PyException {
        if self.0.marks.is_none() {
            self.0.in_lookup = true;
        }
        self
    }
    /// Remember the failing node's markers unless a node inside it already did.
    pub(crate) fn mark(mut self, m: &Marks) -> PyException {
        if self.0.marks.is_none() {
            self.0.marks = Some(*m);
        }
        self
    }
    /// The markers for the frame being left on `line`, cleared for the next frame out.
    pub(crate) fn take_marks(&mut self, line: u32) -> Marks {
        self.0.in_lookup = false;
        match self.0.marks.take() {
            Some(m) if m.line == line => m,
            _ => Marks::NONE,
        }
    }
    /// Record the frame `func` in `file`, which the exception leaves (or is caught in) at
    /// `line`, with the markers of its failing node.
    pub(crate) fn leave_frame(&mut self, file: Rc<str>, line: u32, func: Rc<str>) {
        let marks = self.take_marks(line);
        self.push_frame(TraceEntry {
            file,
            line,
            func,
            marks,
        });
    }
    /// Record the frame the exception is leaving.
    pub(crate) fn push_frame(&mut self, e: TraceEntry) {
        if self.0.frame_recorded {
            self.0.frame_recorded = false;
            return;
        }
        self.0.traceback.push(e);
    }
}

impl fmt::Debug for PyException {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0.payload {
            Payload::Lazy { kind, message } => write!(f, "{kind}: {message}"),
            Payload::Value(v) => write!(f, "<exception {}>", v.type_name()),
        }
    }
}

/// An exception that escaped the script: what `run_main` returns.
#[derive(Clone)]
pub struct ScriptError {
    /// `RuntimeError`, `SyntaxError`, `torch.OutOfMemoryError` is `OutOfMemoryError`…
    pub type_name: String,
    pub message: String,
    /// The line in the main script the error is reported at (innermost main-file frame).
    pub line: Option<u32>,
    pub column: Option<u32>,
    /// The whole CPython-style text, ending with the line "Type: message".
    pub traceback: String,
    /// The exception instance, for embedders that want its attributes.
    pub exception: Option<Value>,
    /// Set when the script ended with an uncaught `SystemExit` (`sys.exit(3)`): the process
    /// status python3 would exit with (0 for `sys.exit()`). `traceback` then holds only what
    /// python3 prints (the code when it is not an int).
    pub exit_status: Option<i32>,
}

impl fmt::Debug for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.traceback)
    }
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.message.is_empty() {
            write!(f, "{}", self.type_name)
        } else {
            write!(f, "{}: {}", self.type_name, self.message)
        }
    }
}

impl std::error::Error for ScriptError {}

/// CPython's last traceback line: "Type: message", or just "Type" for an empty message.
pub(crate) fn final_line(type_name: &str, message: &str) -> String {
    if message.is_empty() {
        type_name.to_string()
    } else {
        format!("{type_name}: {message}")
    }
}

/// Render "Traceback (most recent call last):" and the frames (outermost first).
/// `source_line(file, n)` gives the text of a line, if known. Like CPython (traceback.c,
/// `TB_RECURSIVE_CUTOFF`), a run of identical frames (same file, line and function: endless
/// recursion) shows its first 3 and then `[Previous line repeated N more times]`.
pub(crate) fn render_frames(
    frames: &[TraceEntry],
    source_line: &dyn Fn(&str, u32) -> Option<String>,
) -> String {
    const RECURSIVE_CUTOFF: usize = 3;
    let mut s = String::from("Traceback (most recent call last):\n");
    let same =
        |a: &TraceEntry, b: &TraceEntry| a.file == b.file && a.line == b.line && a.func == b.func;
    let mut previous: Option<&TraceEntry> = None;
    let mut repeats = 0usize;
    for e in frames.iter().rev() {
        if previous.is_some_and(|p| same(p, e)) {
            repeats += 1;
        } else {
            push_repeated(&mut s, repeats.saturating_sub(RECURSIVE_CUTOFF));
            repeats = 1;
            previous = Some(e);
        }
        if repeats > RECURSIVE_CUTOFF {
            continue;
        }
        s.push_str(&format!(
            "  File \"{}\", line {}, in {}\n",
            e.file, e.line, e.func
        ));
        if let Some(text) = source_line(&e.file, e.line) {
            let t = text.trim();
            if !t.is_empty() {
                s.push_str("    ");
                s.push_str(t);
                s.push('\n');
                if let Some(marks) = e.marks.render(&text) {
                    s.push_str(&marks);
                    s.push('\n');
                }
            }
        }
    }
    push_repeated(&mut s, repeats.saturating_sub(RECURSIVE_CUTOFF));
    s
}

/// CPython's line for frames left out of a repeated run.
fn push_repeated(s: &mut String, left_out: usize) {
    if left_out > 0 {
        let plural = if left_out > 1 { "s" } else { "" };
        s.push_str(&format!(
            "  [Previous line repeated {left_out} more time{plural}]\n"
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(line: u32, func: &str) -> TraceEntry {
        TraceEntry {
            file: "t.py".into(),
            line,
            func: func.into(),
            marks: Marks::NONE,
        }
    }

    /// Frames innermost first, as the interpreter stores them.
    fn rendered(outermost_first: &[TraceEntry]) -> String {
        let frames: Vec<TraceEntry> = outermost_first.iter().rev().cloned().collect();
        render_frames(&frames, &|_, n| Some(format!("line{n}")))
    }

    #[test]
    fn repeated_frames_collapse_after_three_as_in_cpython() {
        // What CPython 3.11 prints for `def f(n): return f(n+1)` cut to 8 frames of f, then a
        // different frame after the run (mutual recursion does not collapse: not identical).
        let mut frames = vec![frame(3, "<module>")];
        frames.extend((0..8).map(|_| frame(2, "f")));
        frames.push(frame(5, "g"));
        frames.push(frame(5, "g"));
        frames.push(frame(5, "g"));
        frames.push(frame(5, "g"));
        let f = "  File \"t.py\", line 2, in f\n    line2\n";
        let g = "  File \"t.py\", line 5, in g\n    line5\n";
        let expected = format!(
            "Traceback (most recent call last):\n  File \"t.py\", line 3, in <module>\n    line3\n\
             {f}{f}{f}  [Previous line repeated 5 more times]\n\
             {g}{g}{g}  [Previous line repeated 1 more time]\n"
        );
        assert_eq!(rendered(&frames), expected);
    }

    #[test]
    fn three_identical_frames_print_in_full() {
        let frames = vec![frame(2, "f"), frame(2, "f"), frame(2, "f")];
        let text = rendered(&frames);
        assert_eq!(text.matches("line 2, in f").count(), 3);
        assert!(!text.contains("repeated"), "{text}");
    }
}
