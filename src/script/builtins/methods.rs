//! Methods of the builtin types (`str.split`, `list.append`, `dict.items`, …), dispatched by
//! name without building a method object on the common `x.method(...)` path.

use std::cell::RefCell;
use std::rc::Rc;

use super::super::errors::{PyException, PyResult};
use super::super::interp::{Interpreter, MAX_ITEMS, MAX_STR, budget_for, grow_check};
use super::super::native::{Args, NativeCx, NativeObject};
use super::super::value::{BuiltinType, Class, ClassKind, Dict, DictIterKind, IterState, Value};
use crate::script::ExcType;
use crate::script::PyStr;

const STR_METHODS: &[&str] = &[
    "split",
    "rsplit",
    "join",
    "strip",
    "lstrip",
    "rstrip",
    "replace",
    "startswith",
    "endswith",
    "upper",
    "lower",
    "title",
    "capitalize",
    "swapcase",
    "casefold",
    "format",
    "count",
    "find",
    "rfind",
    "index",
    "rindex",
    "isdigit",
    "isascii",
    "isalpha",
    "isalnum",
    "isspace",
    "isupper",
    "islower",
    "isnumeric",
    "isdecimal",
    "isidentifier",
    "istitle",
    "center",
    "ljust",
    "rjust",
    "zfill",
    "splitlines",
    "partition",
    "rpartition",
    "removeprefix",
    "removesuffix",
    "encode",
    "expandtabs",
];
const LIST_METHODS: &[&str] = &[
    "append", "extend", "pop", "insert", "remove", "index", "count", "sort", "reverse", "clear",
    "copy",
];
const DICT_METHODS: &[&str] = &[
    "keys",
    "values",
    "items",
    "get",
    "update",
    "setdefault",
    "pop",
    "popitem",
    "clear",
    "copy",
    "fromkeys",
];
const SET_METHODS: &[&str] = &[
    "add",
    "remove",
    "discard",
    "pop",
    "clear",
    "copy",
    "update",
    "union",
    "intersection",
    "difference",
    "symmetric_difference",
    "issubset",
    "issuperset",
    "isdisjoint",
    "intersection_update",
    "difference_update",
];
const TUPLE_METHODS: &[&str] = &["count", "index"];
const INT_METHODS: &[&str] = &[
    "bit_length",
    "bit_count",
    "conjugate",
    "is_integer",
    "__index__",
    "__int__",
    "__float__",
];
const FLOAT_METHODS: &[&str] = &["is_integer", "conjugate", "__int__", "__float__"];
const ITER_METHODS: &[&str] = &["__next__", "__iter__"];
const RANGE_METHODS: &[&str] = &["count", "index"];

pub(crate) fn method_names(v: &Value) -> &'static [&'static str] {
    match v {
        Value::Str(_) => STR_METHODS,
        Value::List(_) => LIST_METHODS,
        Value::Dict(_) => DICT_METHODS,
        Value::Set(_) => SET_METHODS,
        Value::Tuple(_) => TUPLE_METHODS,
        Value::Int(_) | Value::Bool(_) | Value::BigInt(_) => INT_METHODS,
        Value::Float(_) => FLOAT_METHODS,
        Value::Iter(_) => ITER_METHODS,
        Value::Range(_) => RANGE_METHODS,
        _ => &[],
    }
}

/// The width of `ljust`/`rjust`/`center`/`zfill`: past [`MAX_STR`] bytes the result could
/// not be held, so MemoryError (CPython's answer when the allocation fails).
fn pad_width(w: u64) -> PyResult<usize> {
    usize::try_from(w)
        .ok()
        .filter(|&w| w <= MAX_STR)
        .ok_or_else(|| PyException::new(ExcType::MemoryError, ""))
}

fn names_for(t: BuiltinType) -> &'static [&'static str] {
    match t {
        BuiltinType::Str => STR_METHODS,
        BuiltinType::List => LIST_METHODS,
        BuiltinType::Dict => DICT_METHODS,
        BuiltinType::Set => SET_METHODS,
        BuiltinType::Tuple => TUPLE_METHODS,
        BuiltinType::Int | BuiltinType::Bool => INT_METHODS,
        BuiltinType::Float => FLOAT_METHODS,
        _ => &[],
    }
}

/// `x.name` for a builtin value: a method object, or a data attribute.
pub(crate) fn builtin_attr(_it: &mut Interpreter, obj: &Value, name: &str) -> Option<Value> {
    if method_names(obj).contains(&name) {
        return Some(Value::BuiltinMethod(Rc::new((obj.clone(), name.into()))));
    }
    match (obj, name) {
        (Value::Int(_) | Value::Bool(_), "real" | "numerator") => {
            Some(Value::Int(obj.as_int().unwrap_or(0)))
        }
        (Value::BigInt(_), "real" | "numerator") => Some(obj.clone()),
        (Value::Int(_) | Value::Bool(_) | Value::BigInt(_), "imag") => Some(Value::Int(0)),
        (Value::Int(_) | Value::Bool(_) | Value::BigInt(_), "denominator") => Some(Value::Int(1)),
        (Value::Float(f), "real") => Some(Value::Float(*f)),
        (Value::Float(_), "imag") => Some(Value::Float(0.0)),
        _ => None,
    }
}

/// `str.upper` etc. as unbound functions taking the receiver first; `dict.fromkeys`.
pub(crate) fn unbound_builtin(_it: &mut Interpreter, c: &Rc<Class>, name: &str) -> Option<Value> {
    let ClassKind::Builtin(t) = c.kind else {
        return None;
    };
    if t == BuiltinType::Dict && name == "fromkeys" {
        return Some(Value::native_fn("fromkeys", |it, args| {
            let a = args.range("fromkeys", 1, 2)?;
            let v = a.get(1).cloned().unwrap_or(Value::None);
            let mut d = Dict::new();
            for k in it.iterate(&a[0])? {
                let h = it.key_in(&d, &k)?;
                d.insert(h, k, v.clone());
            }
            Ok(Value::dict(d))
        }));
    }
    // `dict.__init__(self, ...)`, `dict.__setitem__(self, k, v)`, `list.__len__(self)`: what
    // a dict/list subclass calls its builtin base's slots with.
    let slot = match t {
        BuiltinType::Dict | BuiltinType::List => {
            let sample = if t == BuiltinType::Dict {
                Value::dict(Dict::new())
            } else {
                Value::list(Vec::new())
            };
            name == "__init__" || _it.builtin_dunder(&sample, name).is_some()
        }
        _ => false,
    };
    if !names_for(t).contains(&name) && !slot {
        return None;
    }
    let n: Rc<str> = name.into();
    Some(Value::native_fn(name, move |it, mut args| {
        if args.positional.is_empty() {
            return Err(PyException::type_error(format!(
                "unbound method {n}() needs an argument"
            )));
        }
        let recv = args.positional.remove(0);
        let r = if let Some(base) = crate::script::interp::builtin_subclass::base_of(&recv) {
            it.call_subclass_builtin_method(&recv, &base, &n, args)?
        } else if slot {
            match it.builtin_dunder(&recv, &n) {
                Some(f) => Some(it.call(&f, args)?),
                None => None,
            }
        } else {
            call_builtin_method(it, &recv, &n, args)?
        };
        match r {
            Some(v) => Ok(v),
            None => Err(it.no_attribute(&recv, &n)),
        }
    }))
}

/// A live view for `d.keys()` / `values()` / `items()`: iterates the dict as it is now (and
/// fails like CPython's if the dict changes size meanwhile), prints like CPython's views.
struct DictView {
    kind: DictIterKind,
    dict: Rc<RefCell<Dict>>,
    /// An OrderedDict's view (`odict_keys([...])`, as `model.state_dict().keys()` prints).
    ordered: bool,
}

/// The view `kind` of `dict` as an OrderedDict's `keys()` / `values()` / `items()` give it
/// (collections.OrderedDict keeps its items in a plain dict: see the `_collections` module).
pub(crate) fn ordered_dict_view(dict: &Rc<RefCell<Dict>>, kind: DictIterKind) -> Value {
    Value::native(DictView {
        kind,
        dict: dict.clone(),
        ordered: true,
    })
}

/// The items of a dict view in order, for `reversed(view)` (CPython >= 3.8); None for any
/// other value.
pub(crate) fn dict_view_items(v: &Value) -> Option<Vec<Value>> {
    Some(v.downcast::<DictView>()?.items())
}

impl DictView {
    fn items(&self) -> Vec<Value> {
        let d = self.dict.borrow();
        match self.kind {
            DictIterKind::Keys => d.keys(),
            DictIterKind::Values => d.values(),
            DictIterKind::Items => d
                .iter()
                .map(|(k, v)| Value::tuple(vec![k.clone(), v.clone()]))
                .collect(),
        }
    }
}

impl NativeObject for DictView {
    fn type_name(&self) -> &str {
        match (self.kind, self.ordered) {
            (DictIterKind::Keys, false) => "dict_keys",
            (DictIterKind::Values, false) => "dict_values",
            (DictIterKind::Items, false) => "dict_items",
            (DictIterKind::Keys, true) => "odict_keys",
            (DictIterKind::Values, true) => "odict_values",
            (DictIterKind::Items, true) => "odict_items",
        }
    }
    fn iter(&self, _: NativeCx<'_>) -> PyResult<Option<Value>> {
        Ok(Some(Value::Iter(Rc::new(RefCell::new(
            IterState::over_dict(&self.dict, self.kind),
        )))))
    }
    fn len(&self, _: NativeCx<'_>) -> PyResult<Option<usize>> {
        Ok(Some(self.dict.borrow().len()))
    }
    fn contains(&self, NativeCx { it, .. }: NativeCx<'_>, v: &Value) -> PyResult<Option<bool>> {
        if self.kind == DictIterKind::Keys {
            let k = it.key_in_cell(&self.dict, v)?;
            return Ok(Some(self.dict.borrow().contains(&k)));
        }
        for x in &self.items() {
            if it.eq(x, v)? {
                return Ok(Some(true));
            }
        }
        Ok(Some(false))
    }
    fn repr(&self, NativeCx { it, .. }: NativeCx<'_>) -> PyResult<Option<String>> {
        let inner = it.repr(&Value::list(self.items()))?;
        Ok(Some(format!("{}({inner})", self.type_name())))
    }
    fn bool(&self, _: NativeCx<'_>) -> PyResult<Option<bool>> {
        Ok(Some(!self.dict.borrow().is_empty()))
    }
    fn compare(
        &self,
        cx: NativeCx<'_>,
        op: super::super::native::CmpOp,
        other: &Value,
    ) -> PyResult<Option<Value>> {
        // keys and items views are set-like: equal to a set or another such view with the same
        // members; a list is never equal to one, and a values view only to itself (CPython)
        if op != super::super::native::CmpOp::Eq || self.kind == DictIterKind::Values {
            return Ok(None);
        }
        let mine = self.items();
        let o = match other.downcast::<DictView>() {
            Some(o) if o.kind != DictIterKind::Values => o.items(),
            Some(_) => return Ok(None),
            None => match other {
                Value::Set(_) => cx.it.iterate(other)?,
                _ => return Ok(None),
            },
        };
        if o.len() != mine.len() {
            return Ok(Some(Value::Bool(false)));
        }
        for x in &mine {
            let mut found = false;
            for y in &o {
                if cx.it.eq(x, y)? {
                    found = true;
                    break;
                }
            }
            if !found {
                return Ok(Some(Value::Bool(false)));
            }
        }
        Ok(Some(Value::Bool(true)))
    }
}

fn arg_str<'a>(v: &'a Value, fname: &str, i: usize) -> PyResult<&'a str> {
    v.as_str().ok_or_else(|| {
        PyException::type_error(format!(
            "{fname}() argument {i} must be str, not {}",
            v.type_name()
        ))
    })
}

fn py_split_whitespace(s: &str, maxsplit: i64) -> Vec<Value> {
    let mut out = Vec::new();
    let mut rest = s.trim_start();
    let mut n = 0;
    while !rest.is_empty() {
        if maxsplit >= 0 && n >= maxsplit {
            out.push(Value::str(rest));
            return out;
        }
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        out.push(Value::str(&rest[..end]));
        rest = rest[end..].trim_start();
        n += 1;
    }
    out
}

/// Call `recv.name(args)` for builtin receivers. `Ok(None)`: no such method.
pub(crate) fn call_builtin_method(
    it: &mut Interpreter,
    recv: &Value,
    name: &str,
    args: Args,
) -> PyResult<Option<Value>> {
    match recv {
        Value::Native(n) => n.call_method(NativeCx::new(n, it), name, args),
        Value::Str(s) => {
            // String methods are linear scans at memory speed: a sixty-fourth of a unit of
            // work per byte keeps a loop of them on huge strings under the time limit.
            it.work((s.len() / 64) as u64)?;
            // `s.split()` of a 20 MB string makes ten million strings: when the result has
            // taken the run past its memory budget it is dropped and this is MemoryError.
            match str_method(it, s, name, args)? {
                Some(v) if !crate::budget::can_allocate(0) => {
                    drop(v);
                    Err(super::super::interp::memory_error())
                }
                r => Ok(r),
            }
        }
        Value::List(l) => list_method(it, recv, l, name, args),
        Value::Dict(d) => dict_method(it, d, name, args),
        Value::Set(d) => set_method(it, d, name, args),
        Value::Tuple(t) => match name {
            "count" => {
                let a = args.exact("count", 1)?;
                let mut n = 0;
                for x in t.iter() {
                    it.work(1)?;
                    if it.eq(x, &a[0])? {
                        n += 1;
                    }
                }
                Ok(Some(Value::Int(n)))
            }
            "index" => {
                let a = args.range("index", 1, 3)?;
                for (i, x) in t.iter().enumerate() {
                    it.work(1)?;
                    if it.eq(x, &a[0])? {
                        return Ok(Some(Value::Int(i as i64)));
                    }
                }
                Err(PyException::value_error("tuple.index(x): x not in tuple"))
            }
            _ => Ok(None),
        },
        Value::Int(_) | Value::Bool(_) => {
            let i = recv.as_int().unwrap_or(0);
            Ok(match name {
                "bit_length" => Some(Value::Int(64 - i.unsigned_abs().leading_zeros() as i64)),
                "bit_count" => Some(Value::Int(i.unsigned_abs().count_ones() as i64)),
                "conjugate" | "__index__" | "__int__" => Some(Value::Int(i)),
                "is_integer" => Some(Value::Bool(true)),
                "__float__" => Some(Value::Float(i as f64)),
                _ => None,
            })
        }
        Value::BigInt(b) => Ok(match name {
            "bit_length" => Some(Value::Int(b.bits() as i64)),
            "bit_count" => Some(Value::Int(
                b.magnitude()
                    .iter_u64_digits()
                    .map(|d| d.count_ones() as i64)
                    .sum(),
            )),
            "conjugate" | "__index__" | "__int__" => Some(recv.clone()),
            "is_integer" => Some(Value::Bool(true)),
            "__float__" => Some(Value::Float(crate::script::bigint::to_f64(b)?)),
            _ => None,
        }),
        Value::Float(f) => Ok(match name {
            "is_integer" => Some(Value::Bool(f.is_finite() && f.fract() == 0.0)),
            "conjugate" | "__float__" => Some(Value::Float(*f)),
            "__int__" => Some(super::to_int(it, recv, None)?),
            _ => None,
        }),
        Value::Iter(_) => match name {
            "__next__" => match it.next_item(recv)? {
                Some(v) => Ok(Some(v)),
                None => Err(PyException::new(ExcType::StopIteration, "")),
            },
            "__iter__" => Ok(Some(recv.clone())),
            _ => Ok(None),
        },
        Value::Instance(i) => match &i.base {
            Some(base) => it.call_subclass_builtin_method(recv, base, name, args),
            None => Ok(None),
        },
        Value::Range(r) => match name {
            "count" | "index" => {
                let a = args.exact(name, 1)?;
                let pos = super::super::bigint::to_i128(&a[0]).and_then(|v| r.index_of(v));
                if name == "count" {
                    Ok(Some(Value::Int(pos.is_some() as i64)))
                } else {
                    match pos {
                        Some(p) => Ok(Some(Value::Int(p as i64))),
                        None => Err(PyException::value_error(format!(
                            "{} is not in range",
                            it.repr(&a[0])?
                        ))),
                    }
                }
            }
            _ => Ok(None),
        },
        _ => Ok(None),
    }
}

fn str_method(it: &mut Interpreter, s: &PyStr, name: &str, args: Args) -> PyResult<Option<Value>> {
    let s: &str = s;
    let v = match name {
        "split" | "rsplit" => {
            let a = args.bind(name, &["sep", "maxsplit"], 0)?;
            let maxsplit = a[1].as_ref().and_then(|v| v.as_int()).unwrap_or(-1);
            // The pieces are counted before they are made: `s.split()` of a 20 MB string is
            // ten million strings (~700 MB), and kept in a loop that aborted the process at
            // its address-space limit instead of raising MemoryError.
            let pieces = match a[0].as_ref().filter(|v| !v.is_none()) {
                None => count_words(s),
                Some(sep) => match sep.as_str() {
                    Some(sep) if !sep.is_empty() => s.matches(sep).count() + 1,
                    _ => 1,
                },
            };
            let pieces = if maxsplit < 0 {
                pieces
            } else {
                pieces.min(maxsplit as usize + 1)
            };
            budget_for_pieces(pieces, s.len())?;
            match a[0].as_ref().filter(|v| !v.is_none()) {
                None => {
                    if name == "split" || maxsplit < 0 {
                        Value::list(py_split_whitespace(s, maxsplit))
                    } else {
                        let rev: String = s.chars().rev().collect();
                        let mut parts: Vec<Value> = py_split_whitespace(&rev, maxsplit)
                            .into_iter()
                            .map(|p| {
                                Value::string(p.as_str().unwrap_or("").chars().rev().collect())
                            })
                            .collect();
                        parts.reverse();
                        Value::list(parts)
                    }
                }
                Some(sep) => {
                    let sep = arg_str(sep, name, 1)?;
                    if sep.is_empty() {
                        return Err(PyException::value_error("empty separator"));
                    }
                    let parts: Vec<Value> = if maxsplit < 0 {
                        s.split(sep).map(Value::str).collect()
                    } else if name == "split" {
                        s.splitn(maxsplit as usize + 1, sep)
                            .map(Value::str)
                            .collect()
                    } else {
                        let mut p: Vec<Value> = s
                            .rsplitn(maxsplit as usize + 1, sep)
                            .map(Value::str)
                            .collect();
                        p.reverse();
                        p
                    };
                    Value::list(parts)
                }
            }
        }
        "join" => {
            let a = args.exact("join", 1)?;
            let items = it.iterate(&a[0])?;
            let total = items
                .iter()
                .map(|x| x.as_str().map_or(0, str::len))
                .sum::<usize>()
                .saturating_add(s.len().saturating_mul(items.len().saturating_sub(1)));
            if total > MAX_STR {
                return Err(PyException::new(ExcType::MemoryError, ""));
            }
            budget_for::<u8>(total)?;
            let mut out = String::new();
            out.try_reserve_exact(total)
                .map_err(|_| super::super::interp::memory_error())?;
            for (i, x) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(s);
                }
                match x {
                    Value::Str(p) => it.push_str_polled(&mut out, p)?,
                    other => {
                        return Err(PyException::type_error(format!(
                            "sequence item {i}: expected str instance, {} found",
                            other.type_name()
                        )));
                    }
                }
            }
            Value::string(out)
        }
        "strip" | "lstrip" | "rstrip" => {
            let a = args.range(name, 0, 1)?;
            let chars: Option<Vec<char>> = match a.first() {
                Some(Value::None) | None => None,
                Some(v) => Some(arg_str(v, name, 1)?.chars().collect()),
            };
            let pred = |c: char| match &chars {
                Some(cs) => cs.contains(&c),
                None => c.is_whitespace(),
            };
            Value::str(match name {
                "strip" => s.trim_matches(pred),
                "lstrip" => s.trim_start_matches(pred),
                _ => s.trim_end_matches(pred),
            })
        }
        "replace" => {
            let a = args.range("replace", 2, 3)?;
            let old = arg_str(&a[0], "replace", 1)?;
            let new = arg_str(&a[1], "replace", 2)?;
            let count = a.get(2).and_then(|c| c.as_int()).unwrap_or(-1);
            // The result's length before it is built: past the string limit (or the run's
            // memory budget) it is MemoryError, as CPython's failed allocation is, not an
            // abort (`('x' * 10**7).replace('x', 'y' * 1000)` asked for 10 GB).
            let found = if old.is_empty() {
                s.chars().count() + 1
            } else {
                s.matches(old).count()
            };
            let found = if count < 0 {
                found
            } else {
                found.min(count as usize)
            };
            let total = (found as u128) * (new.len() as u128) + s.len() as u128;
            if total > MAX_STR as u128 {
                return Err(PyException::new(ExcType::MemoryError, ""));
            }
            budget_for::<u8>(total as usize)?;
            it.work((total / 64) as u64)?;
            if count < 0 {
                if old.is_empty() {
                    let mut out = String::from(new);
                    for c in s.chars() {
                        out.push(c);
                        out.push_str(new);
                    }
                    Value::string(out)
                } else {
                    Value::string(s.replace(old, new))
                }
            } else {
                Value::string(s.replacen(old, new, count as usize))
            }
        }
        "startswith" | "endswith" => {
            let a = args.range(name, 1, 3)?;
            let Some(s) = char_range(s, a.get(1), a.get(2))? else {
                return Ok(Some(Value::Bool(false)));
            };
            let pats: Vec<Value> = match &a[0] {
                Value::Tuple(t) => (**t).clone(),
                v => vec![v.clone()],
            };
            let mut r = false;
            for p in &pats {
                let p = p.as_str().ok_or_else(|| {
                    PyException::type_error(format!(
                        "{name} first arg must be str or a tuple of str, not {}",
                        p.type_name()
                    ))
                })?;
                if (name == "startswith" && s.starts_with(p))
                    || (name == "endswith" && s.ends_with(p))
                {
                    r = true;
                }
            }
            Value::Bool(r)
        }
        "upper" => Value::string(s.to_uppercase()),
        "lower" | "casefold" => Value::string(s.to_lowercase()),
        "swapcase" => Value::string(
            s.chars()
                .map(|c| {
                    if c.is_uppercase() {
                        c.to_lowercase().collect::<String>()
                    } else {
                        c.to_uppercase().collect()
                    }
                })
                .collect(),
        ),
        "title" => {
            let mut out = String::new();
            let mut prev_alpha = false;
            for c in s.chars() {
                if c.is_alphabetic() {
                    if prev_alpha {
                        out.extend(c.to_lowercase());
                    } else {
                        out.extend(c.to_uppercase());
                    }
                    prev_alpha = true;
                } else {
                    out.push(c);
                    prev_alpha = false;
                }
            }
            Value::string(out)
        }
        "capitalize" => {
            let mut cs = s.chars();
            Value::string(match cs.next() {
                Some(f) => f
                    .to_uppercase()
                    .chain(cs.flat_map(|c| c.to_lowercase()))
                    .collect(),
                None => String::new(),
            })
        }
        "format" => Value::string(super::super::strfmt::str_format(
            it,
            s,
            &args.positional,
            &args.keywords,
        )?),
        "count" => {
            let a = args.range("count", 1, 3)?;
            let p = arg_str(&a[0], "count", 1)?;
            let Some(s) = char_range(s, a.get(1), a.get(2))? else {
                return Ok(Some(Value::Int(0)));
            };
            Value::Int(if p.is_empty() {
                s.chars().count() as i64 + 1
            } else {
                s.matches(p).count() as i64
            })
        }
        "find" | "rfind" | "index" | "rindex" => {
            let a = args.range(name, 1, 3)?;
            let p = arg_str(&a[0], name, 1)?;
            let chars: Vec<char> = s.chars().collect();
            let n = chars.len() as i64;
            let norm = |v: Option<&Value>, d: i64| -> i64 {
                match v.and_then(|v| v.as_int()) {
                    Some(x) if x < 0 => (x + n).max(0),
                    Some(x) => x.min(n),
                    None => d,
                }
            };
            let start = norm(a.get(1), 0) as usize;
            let end = norm(a.get(2), n) as usize;
            let hay: String = chars
                .get(start..end.max(start))
                .map(|c| c.iter().collect())
                .unwrap_or_default();
            let found = if name.starts_with('r') {
                hay.rfind(p)
            } else {
                hay.find(p)
            };
            match found {
                Some(b) => Value::Int((hay[..b].chars().count() + start) as i64),
                None => {
                    if name.ends_with("index") {
                        return Err(PyException::value_error("substring not found"));
                    }
                    Value::Int(-1)
                }
            }
        }
        "isdigit" | "isnumeric" | "isdecimal" => Value::Bool(
            !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_digit() || (name != "isdecimal" && c.is_numeric())),
        ),
        "isascii" => Value::Bool(s.is_ascii()),
        "isalpha" => Value::Bool(!s.is_empty() && s.chars().all(char::is_alphabetic)),
        "isalnum" => Value::Bool(!s.is_empty() && s.chars().all(char::is_alphanumeric)),
        "isspace" => Value::Bool(!s.is_empty() && s.chars().all(char::is_whitespace)),
        "isupper" => {
            Value::Bool(s.chars().any(char::is_uppercase) && !s.chars().any(char::is_lowercase))
        }
        "islower" => {
            Value::Bool(s.chars().any(char::is_lowercase) && !s.chars().any(char::is_uppercase))
        }
        "istitle" => {
            let t = str_method(it, &PyStr::from(s), "title", Args::default())?;
            Value::Bool(
                t.as_ref().and_then(|t| t.as_str()) == Some(s)
                    && s.chars().any(char::is_alphabetic),
            )
        }
        "isidentifier" => Value::Bool(
            s.chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_')
                && s.chars().all(|c| c.is_alphanumeric() || c == '_'),
        ),
        "center" | "ljust" | "rjust" => {
            let a = args.range(name, 1, 2)?;
            let w = a[0]
                .as_int()
                .ok_or_else(|| PyException::type_error("integer argument expected"))?
                .max(0) as u64;
            let w = pad_width(w)?;
            let fill = a
                .get(1)
                .and_then(|f| f.as_str())
                .and_then(|f| f.chars().next())
                .unwrap_or(' ');
            let n = s.chars().count();
            if n >= w {
                Value::str(s)
            } else {
                let pad = w - n;
                let f = |k: usize| fill.to_string().repeat(k);
                Value::string(match name {
                    "ljust" => format!("{s}{}", f(pad)),
                    "rjust" => format!("{}{s}", f(pad)),
                    _ => {
                        let left = pad / 2 + (pad & w & 1);
                        format!("{}{s}{}", f(left), f(pad - left))
                    }
                })
            }
        }
        "zfill" => {
            let a = args.exact("zfill", 1)?;
            let w = pad_width(a[0].as_int().unwrap_or(0).max(0) as u64)?;
            let n = s.chars().count();
            if n >= w {
                Value::str(s)
            } else {
                let (sign, rest) = if s.starts_with(['-', '+']) {
                    s.split_at(1)
                } else {
                    ("", s)
                };
                Value::string(format!("{sign}{}{rest}", "0".repeat(w - n)))
            }
        }
        "splitlines" => {
            budget_for_pieces(s.matches('\n').count() + 1, s.len())?;
            Value::list(s.lines().map(Value::str).collect())
        }
        "partition" | "rpartition" => {
            let a = args.exact(name, 1)?;
            let sep = arg_str(&a[0], name, 1)?;
            if sep.is_empty() {
                return Err(PyException::value_error("empty separator"));
            }
            let f = if name == "partition" {
                s.find(sep)
            } else {
                s.rfind(sep)
            };
            Value::tuple(match f {
                Some(i) => vec![
                    Value::str(&s[..i]),
                    Value::str(sep),
                    Value::str(&s[i + sep.len()..]),
                ],
                None => {
                    if name == "partition" {
                        vec![Value::str(s), Value::str(""), Value::str("")]
                    } else {
                        vec![Value::str(""), Value::str(""), Value::str(s)]
                    }
                }
            })
        }
        "removeprefix" => {
            let a = args.exact(name, 1)?;
            let p = arg_str(&a[0], name, 1)?;
            Value::str(s.strip_prefix(p).unwrap_or(s))
        }
        "removesuffix" => {
            let a = args.exact(name, 1)?;
            let p = arg_str(&a[0], name, 1)?;
            Value::str(s.strip_suffix(p).unwrap_or(s))
        }
        "expandtabs" => {
            let a = args.bind("expandtabs", &["tabsize"], 0)?;
            let tabsize = match &a[0] {
                None => 8,
                Some(v) => v
                    .as_int()
                    .ok_or_else(|| PyException::not_an_integer(v.type_name()))?,
            };
            Value::string(expand_tabs(s, tabsize)?)
        }
        "encode" => {
            return Err(PyException::new(
                ExcType::NotImplementedError,
                "cudatutor does not support bytes",
            ));
        }
        _ => return Ok(None),
    };
    Ok(Some(v))
}

/// `s[start:end]` by character positions with slice semantics (negative from the end,
/// clamped, `None` = the default), for the methods that take `start, end`; `None` when
/// `start` is past the end (CPython's `startswith`/`count` then answer False/0).
fn char_range<'a>(
    s: &'a str,
    start: Option<&Value>,
    end: Option<&Value>,
) -> PyResult<Option<&'a str>> {
    let bound = |v: Option<&Value>| -> PyResult<Option<i64>> {
        match v {
            None | Some(Value::None) => Ok(None),
            Some(v) => v.as_int().map(Some).ok_or_else(|| {
                PyException::type_error(
                    "slice indices must be integers or None or have an __index__ method",
                )
            }),
        }
    };
    let (b0, b1) = (bound(start)?, bound(end)?);
    if b0.is_none() && b1.is_none() {
        return Ok(Some(s));
    }
    let n = if s.is_ascii() {
        s.len()
    } else {
        s.chars().count()
    } as i64;
    let norm = |x: i64| if x < 0 { (x + n).max(0) } else { x };
    let lo = b0.map_or(0, norm);
    let hi = b1.map_or(n, norm).min(n);
    if lo > n {
        return Ok(None);
    }
    if hi <= lo {
        return Ok(Some(""));
    }
    let (lo, hi) = (lo as usize, hi as usize);
    if s.is_ascii() {
        return Ok(Some(&s[lo..hi]));
    }
    let mut idx = s
        .char_indices()
        .map(|(i, _)| i)
        .chain(std::iter::once(s.len()));
    let a = idx.nth(lo).unwrap_or(s.len());
    let b = if hi > lo {
        idx.nth(hi - lo - 1).unwrap_or(s.len())
    } else {
        a
    };
    Ok(Some(&s[a..b]))
}

/// `str.expandtabs`: each tab becomes the spaces up to the next multiple of `tabsize` columns
/// (the column restarts after `\n` and `\r`); a tabsize <= 0 removes tabs, as in CPython.
fn expand_tabs(s: &str, tabsize: i64) -> PyResult<String> {
    const MAX_LEN: usize = 64 << 20;
    let mut out = String::with_capacity(s.len());
    let mut col: usize = 0;
    for c in s.chars() {
        match c {
            '\t' => {
                if tabsize > 0 {
                    let t = usize::try_from(tabsize).unwrap_or(usize::MAX);
                    let n = t - col % t;
                    if out.len().saturating_add(n) > MAX_LEN {
                        return Err(PyException::new(ExcType::MemoryError, ""));
                    }
                    out.extend(std::iter::repeat_n(' ', n));
                    col += n;
                }
            }
            '\n' | '\r' => {
                out.push(c);
                col = 0;
            }
            _ => {
                out.push(c);
                col += 1;
            }
        }
    }
    Ok(out)
}

fn list_method(
    it: &mut Interpreter,
    recv: &Value,
    l: &Rc<RefCell<crate::script::value::Seq>>,
    name: &str,
    args: Args,
) -> PyResult<Option<Value>> {
    let v = match name {
        "append" => {
            let a = args.exact("append", 1)?;
            {
                let lb = l.borrow();
                grow_check(&lb, lb.capacity(), 1)?;
            }
            l.borrow_mut().push(a[0].clone());
            Value::None
        }
        "extend" => {
            let a = args.exact("extend", 1)?;
            let items = it.iterate(&a[0])?;
            if l.borrow().len() + items.len() > MAX_ITEMS {
                return Err(PyException::new(ExcType::MemoryError, ""));
            }
            {
                let lb = l.borrow();
                grow_check(&lb, lb.capacity(), items.len())?;
            }
            l.borrow_mut().extend(items);
            Value::None
        }
        "pop" => {
            let a = args.range("pop", 0, 1)?;
            let n = l.borrow().len();
            if n == 0 {
                return Err(PyException::index_error("pop from empty list"));
            }
            let i = match a.first() {
                Some(v) => it
                    .seq_index(v, n, "list")?
                    .ok_or_else(|| PyException::index_error("pop index out of range"))?,
                None => n - 1,
            };
            l.borrow_mut().remove(i)
        }
        "insert" => {
            let a = args.exact("insert", 2)?;
            let i = a[0]
                .as_int()
                .ok_or_else(|| PyException::not_an_integer(a[0].type_name()))?;
            let n = l.borrow().len() as i64;
            let i = if i < 0 { (i + n).max(0) } else { i.min(n) } as usize;
            l.borrow_mut().insert(i, a[1].clone());
            Value::None
        }
        "remove" => {
            let a = args.exact("remove", 1)?;
            let items = it.copy_polled(&l.borrow())?;
            for (i, x) in items.iter().enumerate() {
                it.work(1)?;
                if it.eq(x, &a[0])? {
                    let old = {
                        let mut lb = l.borrow_mut();
                        if i < lb.len() {
                            Some(lb.remove(i))
                        } else {
                            None
                        }
                    };
                    drop(old);
                    return Ok(Some(Value::None));
                }
            }
            return Err(PyException::value_error("list.remove(x): x not in list"));
        }
        "index" => {
            let a = args.range("index", 1, 3)?;
            let items = it.copy_polled(&l.borrow())?;
            let start = a.get(1).and_then(|v| v.as_int()).unwrap_or(0).max(0) as usize;
            for (i, x) in items.iter().enumerate().skip(start) {
                it.work(1)?;
                if it.eq(x, &a[0])? {
                    return Ok(Some(Value::Int(i as i64)));
                }
            }
            let r = it.repr(&a[0])?;
            return Err(PyException::value_error(format!("{r} is not in list")));
        }
        "count" => {
            let a = args.exact("count", 1)?;
            let items = it.copy_polled(&l.borrow())?;
            let mut n = 0;
            for x in &items {
                it.work(1)?;
                if it.eq(x, &a[0])? {
                    n += 1;
                }
            }
            Value::Int(n)
        }
        "sort" => {
            let mut args = args;
            let key = args.take_kw("key").filter(|k| !k.is_none());
            let reverse = match args.take_kw("reverse") {
                Some(r) => it.truthy(&r)?,
                None => false,
            };
            args.exact("sort", 0)?;
            let items = std::mem::take(&mut **l.borrow_mut());
            let sorted = super::sort_values(it, items, key.as_ref(), reverse)?;
            **l.borrow_mut() = sorted;
            Value::None
        }
        "reverse" => {
            args.exact("reverse", 0)?;
            l.borrow_mut().reverse();
            Value::None
        }
        "clear" => {
            args.exact("clear", 0)?;
            let old = std::mem::take(&mut *l.borrow_mut());
            drop(old);
            Value::None
        }
        "copy" => {
            args.exact("copy", 0)?;
            Value::list(it.copy_polled(&l.borrow())?)
        }
        _ => {
            let _ = recv;
            return Ok(None);
        }
    };
    Ok(Some(v))
}

fn dict_method(
    it: &mut Interpreter,
    d: &Rc<RefCell<Dict>>,
    name: &str,
    args: Args,
) -> PyResult<Option<Value>> {
    let v = match name {
        "keys" | "values" | "items" => {
            args.exact(name, 0)?;
            Value::native(DictView {
                kind: match name {
                    "keys" => DictIterKind::Keys,
                    "values" => DictIterKind::Values,
                    _ => DictIterKind::Items,
                },
                dict: d.clone(),
                ordered: false,
            })
        }
        "get" => {
            let a = args.range("get", 1, 2)?;
            let k = it.key_in_cell(d, &a[0])?;
            let v = d.borrow().get(&k).cloned();
            v.unwrap_or_else(|| a.get(1).cloned().unwrap_or(Value::None))
        }
        "setdefault" => {
            let a = args.range("setdefault", 1, 2)?;
            let k = it.key_in_cell(d, &a[0])?;
            let cur = d.borrow().get(&k).cloned();
            match cur {
                Some(v) => v,
                None => {
                    let v = a.get(1).cloned().unwrap_or(Value::None);
                    d.borrow_mut().insert(k, a[0].clone(), v.clone());
                    v
                }
            }
        }
        "pop" => {
            let a = args.range("pop", 1, 2)?;
            let k = it.key_in_cell(d, &a[0])?;
            let r = d.borrow_mut().remove(&k);
            match r {
                Some((_, v)) => v,
                None => match a.get(1) {
                    Some(dflt) => dflt.clone(),
                    None => return Err(it.key_error(&a[0])),
                },
            }
        }
        "popitem" => {
            args.exact("popitem", 0)?;
            let r = d.borrow_mut().pop_last();
            match r {
                Some((k, v)) => Value::tuple(vec![k, v]),
                None => {
                    return Err(PyException::new(
                        ExcType::KeyError,
                        "'popitem(): dictionary is empty'",
                    ));
                }
            }
        }
        "update" => {
            let mut tmp = it.copy_dict_polled(&d.borrow())?;
            if let Some(src) = args.positional.first() {
                super::dict_update(it, &mut tmp, src)?;
            }
            for (k, v) in &args.keywords {
                tmp.set_str(k, v.clone());
            }
            let old = std::mem::replace(&mut *d.borrow_mut(), tmp);
            drop(old);
            Value::None
        }
        "clear" => {
            let old = d.borrow_mut().clear();
            drop(old);
            Value::None
        }
        "copy" => Value::dict(it.copy_dict_polled(&d.borrow())?),
        _ => return Ok(None),
    };
    Ok(Some(v))
}

fn set_method(
    it: &mut Interpreter,
    d: &Rc<RefCell<Dict>>,
    name: &str,
    args: Args,
) -> PyResult<Option<Value>> {
    let other_set = |it: &mut Interpreter, v: &Value| -> PyResult<Dict> {
        let mut o = Dict::new();
        for x in it.iterate(v)? {
            let h = it.key_in(&o, &x)?;
            o.insert(h, x, Value::None);
        }
        Ok(o)
    };
    let v = match name {
        "add" => {
            let a = args.exact("add", 1)?;
            let k = it.key_in_cell(d, &a[0])?;
            if !d.borrow().contains(&k) {
                super::super::interp::dict_grow_check(&d.borrow())?;
                d.borrow_mut().insert(k, a[0].clone(), Value::None);
            }
            Value::None
        }
        "remove" | "discard" => {
            let a = args.exact(name, 1)?;
            let k = it.key_in_cell(d, &a[0])?;
            let r = d.borrow_mut().remove(&k);
            if r.is_none() && name == "remove" {
                return Err(it.key_error(&a[0]));
            }
            Value::None
        }
        "pop" => {
            // CPython pops the first entry of its table, i.e. the first in its printed order
            // (recomputed per pop, so only for sets small enough for that to stay cheap).
            let first = {
                let b = d.borrow();
                if b.len() <= 4096 {
                    super::super::value::cpython_set_order_of(&b)
                        .into_iter()
                        .next()
                } else {
                    b.iter().next().map(|(k, _)| k.clone())
                }
            };
            let Some(k) = first else {
                return Err(PyException::new(
                    ExcType::KeyError,
                    "'pop from an empty set'",
                ));
            };
            let hk = it.hkey(&k)?;
            let removed = d.borrow_mut().remove(&hk);
            drop(removed);
            k
        }
        "clear" => {
            let old = d.borrow_mut().clear();
            drop(old);
            Value::None
        }
        "copy" => Value::Set(Rc::new(RefCell::new(it.copy_set_polled(&d.borrow())?))),
        "update" | "intersection_update" | "difference_update" => {
            for src in &args.positional {
                let o = other_set(it, src)?;
                let mut cur = it.copy_dict_polled(&d.borrow())?;
                match name {
                    "update" => {
                        for (h, k, _) in o.iter_full() {
                            it.work(1)?;
                            if !cur.contains(h) {
                                super::super::interp::dict_grow_check(&cur)?;
                                cur.insert(h.clone(), k.clone(), Value::None);
                            }
                        }
                    }
                    "intersection_update" => {
                        let mut keep = Dict::new();
                        for (h, k, _) in cur.iter_full() {
                            it.work(1)?;
                            if o.contains(h) {
                                keep.insert(h.clone(), k.clone(), Value::None);
                            }
                        }
                        cur = keep;
                    }
                    _ => {
                        for (h, _, _) in o.iter_full() {
                            it.work(1)?;
                            cur.remove(h);
                        }
                    }
                }
                *d.borrow_mut() = cur;
            }
            Value::None
        }
        "union" | "intersection" | "difference" | "symmetric_difference" => {
            let mut acc = Value::Set(Rc::new(RefCell::new(it.copy_dict_polled(&d.borrow())?)));
            for src in &args.positional {
                let o = Value::Set(Rc::new(RefCell::new(other_set(it, src)?)));
                let op = match name {
                    "union" => super::super::native::BinOp::Or,
                    "intersection" => super::super::native::BinOp::And,
                    "difference" => super::super::native::BinOp::Sub,
                    _ => super::super::native::BinOp::Xor,
                };
                acc = it.binary_op(op, &acc, &o)?;
            }
            acc
        }
        "issubset" | "issuperset" | "isdisjoint" => {
            let a = args.exact(name, 1)?;
            let o = other_set(it, &a[0])?;
            let s = d.borrow();
            // (a lookup per item: counted as work, so a loop of them on big sets is stopped)
            let (probe, table) = if name == "issuperset" {
                (&o, &*s)
            } else {
                (&*s, &o)
            };
            let mut all_in = true;
            let mut any_in = false;
            for (h, _, _) in probe.iter_full() {
                it.work(1)?;
                let found = table.contains(h);
                all_in &= found;
                any_in |= found;
                if (name == "isdisjoint" && any_in) || (name != "isdisjoint" && !all_in) {
                    break;
                }
            }
            Value::Bool(if name == "isdisjoint" {
                !any_in
            } else {
                all_in
            })
        }
        _ => return Ok(None),
    };
    Ok(Some(v))
}

/// Words `str.split()` finds (runs of non-whitespace), counted without building them.
fn count_words(s: &str) -> usize {
    let mut words = 0;
    let mut in_word = false;
    for c in s.chars() {
        let space = c.is_whitespace();
        if !space && !in_word {
            words += 1;
        }
        in_word = !space;
    }
    words
}

/// Asks the run's memory budget for a list of `pieces` new strings holding `bytes` in all:
/// each piece is a list slot plus a small heap string (its header and the allocator's
/// rounding: an estimate of 48 bytes for a short word, on the high side).
fn budget_for_pieces(pieces: usize, bytes: usize) -> PyResult<()> {
    const PIECE_OVERHEAD: usize = 48;
    let per_piece = std::mem::size_of::<Value>() + PIECE_OVERHEAD;
    budget_for::<u8>(pieces.saturating_mul(per_piece).saturating_add(bytes))
}
