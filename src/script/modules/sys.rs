//! `sys`: what learners' scripts read from it (`argv`, `version`, `version_info`, `platform`,
//! `maxsize`, `float_info`, `modules`, the recursion limit) and `sys.exit`, with CPython 3.11's
//! values. `sys.stdout` / `sys.stderr` write into the run's captured output.

use super::structseq::StructSeq;
use crate::script::ExcType;
use crate::script::errors::{PyException, PyResult};
use crate::script::interp::Interpreter;
use crate::script::native::{Args, NativeCx, NativeObject};
use crate::script::value::{Module, Value};

/// The interpreter cudatutor stands in for: the recordings' python3 (CPython 3.11.7).
pub(crate) const VERSION: &str = "3.11.7 (main, May  9 2026, 07:35:25) [GCC 12.2.0]";

/// The most `sys.setrecursionlimit` accepts here: beyond it the interpreter's stack guard
/// would stop deep recursion first anyway (RecursionError either way, never a crash).
pub(crate) const MAX_RECURSION_LIMIT: i64 = 100_000;

/// Which of the run's streams a `sys.stdout`-like object writes to.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum StreamKind {
    Stdout,
    Stderr,
}

/// `sys.stdout` / `sys.stderr`.
pub(crate) struct Stream(pub StreamKind);

impl Stream {
    fn name(&self) -> &'static str {
        match self.0 {
            StreamKind::Stdout => "<stdout>",
            StreamKind::Stderr => "<stderr>",
        }
    }
}

/// Where `print(..., file=f)` writes when `f` is one of the run's streams.
pub(crate) fn stream_kind(v: &Value) -> Option<StreamKind> {
    v.downcast::<Stream>().map(|s| s.0)
}

/// What a script put in `sys.stdout` in place of the run's output stream
/// (`contextlib.redirect_stdout(buf)`, `sys.stdout = f`), where `print()` then writes; None
/// while it is the run's stream (or sys was never imported).
pub(crate) fn replaced_stdout(it: &Interpreter) -> Option<Value> {
    let Some(Value::Module(m)) = it.modules.get("sys") else {
        return None;
    };
    match m.get_attr("stdout") {
        Some(v) if stream_kind(&v) != Some(StreamKind::Stdout) => Some(v),
        _ => None,
    }
}

pub(crate) fn write_stream(it: &mut Interpreter, kind: StreamKind, s: &str) {
    match kind {
        StreamKind::Stdout => it.write_stdout(s),
        StreamKind::Stderr => it.write_stderr(s),
    }
}

impl NativeObject for Stream {
    fn type_name(&self) -> &str {
        "TextIOWrapper"
    }
    fn plain_attr(&self, name: &str) -> Option<Value> {
        let kind = self.0;
        Some(match name {
            "write" => Value::native_fn("write", move |it, args| {
                let a = args.exact("write", 1)?;
                let Value::Str(s) = &a[0] else {
                    return Err(PyException::type_error(format!(
                        "write() argument must be str, not {}",
                        a[0].type_name()
                    )));
                };
                write_stream(it, kind, s);
                Ok(Value::Int(s.chars().count() as i64))
            }),
            "flush" => Value::native_fn("flush", |_it, _args| Ok(Value::None)),
            "isatty" => Value::native_fn("isatty", |_it, _args| Ok(Value::Bool(false))),
            "name" => Value::str(self.name()),
            "encoding" => Value::str("utf-8"),
            _ => return None,
        })
    }
    fn plain_repr(&self) -> Option<String> {
        Some(format!(
            "<_io.TextIOWrapper name='{}' mode='w' encoding='utf-8'>",
            self.name()
        ))
    }
}

/// `sys.modules`: a live view of the imported modules.
struct Modules;

impl Modules {
    fn snapshot(it: &Interpreter) -> Vec<(String, Value)> {
        let mut v: Vec<(String, Value)> = it
            .modules
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        v.sort_by(|a, b| a.0.cmp(&b.0));
        v
    }
}

impl NativeObject for Modules {
    fn type_name(&self) -> &str {
        "dict"
    }
    fn getitem(&self, NativeCx { it, .. }: NativeCx<'_>, key: &Value) -> PyResult<Option<Value>> {
        let found = key.as_str().and_then(|k| it.modules.get(k).cloned());
        match found {
            Some(m) => Ok(Some(m)),
            None => Err(it.key_error(key)),
        }
    }
    fn contains(&self, NativeCx { it, .. }: NativeCx<'_>, item: &Value) -> PyResult<Option<bool>> {
        Ok(Some(
            item.as_str().is_some_and(|k| it.modules.contains_key(k)),
        ))
    }
    fn len(&self, NativeCx { it, .. }: NativeCx<'_>) -> PyResult<Option<usize>> {
        Ok(Some(it.modules.len()))
    }
    fn iter(&self, NativeCx { it, .. }: NativeCx<'_>) -> PyResult<Option<Value>> {
        let keys = Modules::snapshot(it)
            .into_iter()
            .map(|(k, _)| Value::string(k))
            .collect();
        Ok(Some(Value::iter_from_vec(keys)))
    }
    fn plain_attr(&self, name: &str) -> Option<Value> {
        Some(match name {
            "keys" => Value::native_fn("keys", |it, _args| {
                let keys = Modules::snapshot(it)
                    .into_iter()
                    .map(|(k, _)| Value::string(k))
                    .collect();
                Ok(Value::list(keys))
            }),
            "get" => Value::native_fn("get", |it, args| {
                let a = args.range("get", 1, 2)?;
                let found = a[0].as_str().and_then(|k| it.modules.get(k).cloned());
                Ok(found.unwrap_or_else(|| a.get(1).cloned().unwrap_or(Value::None)))
            }),
            "items" => Value::native_fn("items", |it, _args| {
                let items = Modules::snapshot(it)
                    .into_iter()
                    .map(|(k, v)| Value::tuple(vec![Value::string(k), v]))
                    .collect();
                Ok(Value::list(items))
            }),
            _ => return None,
        })
    }
    fn repr(&self, NativeCx { it, .. }: NativeCx<'_>) -> PyResult<Option<String>> {
        let mut s = String::from("{");
        for (i, (k, v)) in Modules::snapshot(it).iter().enumerate() {
            if i > 0 {
                s.push_str(", ");
            }
            s.push_str(&format!("'{k}': {}", it.repr(v)?));
        }
        s.push('}');
        Ok(Some(s))
    }
}

/// `exit(code)` / `quit(code)` (site's Quitter): `raise SystemExit(code)`, code None by default.
pub(crate) fn quitter(it: &mut Interpreter, args: Args, fname: &str) -> PyResult<Value> {
    let a = args.range(fname, 0, 1)?;
    let code = a.first().cloned().unwrap_or(Value::None);
    let cls = it.exc_class(ExcType::SystemExit);
    let inst = it.new_exception_instance(&cls, vec![code]);
    Err(PyException::from_value(inst))
}

/// `sys.exit(code)`: raises SystemExit the way `PyErr_SetObject` does, so None gives no
/// arguments and a tuple gives its items as the arguments.
fn sys_exit(it: &mut Interpreter, args: Args) -> PyResult<Value> {
    let a = args.range("exit", 0, 1)?;
    let args = match a.first() {
        None | Some(Value::None) => Vec::new(),
        Some(Value::Tuple(t)) => t.to_vec(),
        Some(v) => vec![v.clone()],
    };
    let cls = it.exc_class(ExcType::SystemExit);
    let inst = it.new_exception_instance(&cls, args);
    Err(PyException::from_value(inst))
}

pub(crate) fn module(it: &mut Interpreter) -> PyResult<Value> {
    let m = Module::new("sys");
    let argv0 = it.argv0().to_string();
    m.set_attr("argv", Value::list(vec![Value::string(argv0)]));
    m.set_attr("version", Value::str(VERSION));
    m.set_attr(
        "version_info",
        Value::native(StructSeq::sys(
            "version_info",
            vec![
                ("major", Value::Int(3)),
                ("minor", Value::Int(11)),
                ("micro", Value::Int(7)),
                ("releaselevel", Value::str("final")),
                ("serial", Value::Int(0)),
            ],
        )),
    );
    m.set_attr("hexversion", Value::Int(0x030b07f0));
    m.set_attr(
        "float_info",
        Value::native(StructSeq::sys(
            "float_info",
            vec![
                ("max", Value::Float(f64::MAX)),
                ("max_exp", Value::Int(f64::MAX_EXP as i64)),
                ("max_10_exp", Value::Int(f64::MAX_10_EXP as i64)),
                ("min", Value::Float(f64::MIN_POSITIVE)),
                ("min_exp", Value::Int(f64::MIN_EXP as i64)),
                ("min_10_exp", Value::Int(f64::MIN_10_EXP as i64)),
                ("dig", Value::Int(f64::DIGITS as i64)),
                ("mant_dig", Value::Int(f64::MANTISSA_DIGITS as i64)),
                ("epsilon", Value::Float(f64::EPSILON)),
                ("radix", Value::Int(2)),
                ("rounds", Value::Int(1)),
            ],
        )),
    );
    m.set_attr("platform", Value::str("linux"));
    m.set_attr("byteorder", Value::str("little"));
    m.set_attr("maxsize", Value::Int(i64::MAX));
    m.set_attr("maxunicode", Value::Int(0x10ffff));
    m.set_attr("executable", Value::str("/usr/bin/python3"));
    m.set_attr("path", Value::list(vec![Value::str("")]));
    // `sys.__stdout__` is the object `sys.stdout` starts as (`sys.stdout is sys.__stdout__`
    // once a redirect_stdout has put it back).
    let (stdout, stderr) = (
        Value::native(Stream(StreamKind::Stdout)),
        Value::native(Stream(StreamKind::Stderr)),
    );
    m.set_attr("stdout", stdout.clone());
    m.set_attr("stderr", stderr.clone());
    m.set_attr("__stdout__", stdout);
    m.set_attr("__stderr__", stderr);
    m.set_attr("modules", Value::native(Modules));
    m.add_fn("exit", sys_exit);
    m.add_fn("getrecursionlimit", |it, args| {
        args.exact("getrecursionlimit", 0)?;
        Ok(Value::Int(it.recursion_limit as i64))
    });
    m.add_fn("setrecursionlimit", |it, args| {
        let a = args.exact("setrecursionlimit", 1)?;
        let n = match &a[0] {
            Value::Int(n) => *n,
            Value::Bool(b) => *b as i64,
            Value::BigInt(_) => i64::MAX,
            other => {
                return Err(PyException::not_an_integer(other.type_name()));
            }
        };
        if n < 1 {
            return Err(PyException::value_error(
                "recursion limit must be greater or equal than 1",
            ));
        }
        let depth = it.frames.len() as i64;
        if n <= depth {
            return Err(PyException::new(
                ExcType::RecursionError,
                format!(
                    "cannot set the recursion limit to {n} at the recursion depth {depth}: the limit is too low"
                ),
            ));
        }
        it.recursion_limit = n.min(MAX_RECURSION_LIMIT) as usize;
        Ok(Value::None)
    });
    m.add_fn("get_int_max_str_digits", |_it, args| {
        args.exact("get_int_max_str_digits", 0)?;
        Ok(Value::Int(crate::script::bigint::MAX_STR_DIGITS as i64))
    });
    m.add_fn("getdefaultencoding", |_it, _args| Ok(Value::str("utf-8")));
    m.add_fn("exc_info", |it, args| {
        args.exact("exc_info", 0)?;
        Ok(match it.handled.last().cloned() {
            Some(v) => {
                let t = Value::Class(it.type_of(&v));
                Value::tuple(vec![t, v, Value::None])
            }
            None => Value::tuple(vec![Value::None, Value::None, Value::None]),
        })
    });
    m.add_fn("exception", |it, args| {
        args.exact("exception", 0)?;
        Ok(it.handled.last().cloned().unwrap_or(Value::None))
    });
    Ok(m.into_value())
}
