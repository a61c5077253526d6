//! The builtin functions (`print`, `len`, `range`, …) and the builtin types' constructors.

pub(crate) mod methods;

use std::cell::RefCell;
use std::rc::Rc;

use super::errors::{PyException, PyResult};
use super::interp::Interpreter;
use super::native::{Args, CmpOp, NativeCx};
use super::value::{BuiltinType, Dict, IterState, Property, RangeObj, Value};
use crate::script::ExcType;

fn reg(
    it: &mut Interpreter,
    name: &str,
    f: impl Fn(&mut Interpreter, Args) -> PyResult<Value> + 'static,
) {
    it.builtins
        .borrow_mut()
        .set_str(name, Value::native_fn(name, f));
}

pub(crate) fn install(it: &mut Interpreter) {
    use BuiltinType as B;
    for (name, t) in [
        ("int", B::Int),
        ("float", B::Float),
        ("str", B::Str),
        ("bool", B::Bool),
        ("list", B::List),
        ("tuple", B::Tuple),
        ("dict", B::Dict),
        ("set", B::Set),
        ("frozenset", B::Set),
        ("range", B::Range),
        ("slice", B::Slice),
        ("type", B::Type),
        ("super", B::Super),
        ("staticmethod", B::StaticMethod),
        ("classmethod", B::ClassMethod),
        ("property", B::Property),
    ] {
        let c = it.types.get(t);
        it.builtins.borrow_mut().set_str(name, Value::Class(c));
    }
    let object = it.types.object.clone();
    {
        let mut d = object.dict.borrow_mut();
        d.set_str(
            "__setattr__",
            Value::native_fn("__setattr__", |it, args| {
                let a = args.exact("__setattr__", 3)?;
                let name = attr_name(&a[1])?;
                it.object_setattr(&a[0], &name, a[2].clone())?;
                Ok(Value::None)
            }),
        );
        d.set_str(
            "__getattribute__",
            Value::native_fn("__getattribute__", |it, args| {
                let a = args.exact("__getattribute__", 2)?;
                let name = attr_name(&a[1])?;
                match &a[0] {
                    Value::Instance(inst) => {
                        if let Some(v) = inst.dict.borrow().get_str(&name) {
                            return Ok(v.clone());
                        }
                        match inst.class.lookup(&name) {
                            Some(v) => Ok(it.bind(v, a[0].clone())),
                            None => Err(it.no_attribute(&a[0], &name)),
                        }
                    }
                    other => it.getattr(other, &name),
                }
            }),
        );
        d.set_str(
            "__delattr__",
            Value::native_fn("__delattr__", |it, args| {
                let a = args.exact("__delattr__", 2)?;
                let name = a[1].as_str().unwrap_or("").to_string();
                if let Value::Instance(inst) = &a[0] {
                    let old = inst.dict.borrow_mut().remove_str(&name);
                    if old.is_none() {
                        return Err(it.no_attribute(&a[0], &name));
                    }
                }
                Ok(Value::None)
            }),
        );
        d.set_str(
            "__init__",
            Value::native_fn("__init__", |_it, _args| Ok(Value::None)),
        );
        d.set_str(
            "__new__",
            Value::native_fn("__new__", |_it, args| match args.positional.first() {
                Some(Value::Class(c)) => Ok(Value::Instance(Rc::new(
                    super::interp::builtin_subclass::new_instance(c),
                ))),
                _ => Err(PyException::type_error(
                    "object.__new__(X): X is not a type object",
                )),
            }),
        );
        d.set_str(
            "__repr__",
            Value::native_fn("__repr__", |_it, args| {
                let a = args.exact("__repr__", 1)?;
                Ok(Value::string(match &a[0] {
                    Value::Instance(i) => format!(
                        "<{}.{} object at 0x{:012x}>",
                        i.class.module,
                        i.class.name,
                        a[0].ptr_id().unwrap_or(0)
                    ),
                    other => format!("<{} object>", other.type_name()),
                }))
            }),
        );
        d.set_str(
            "__eq__",
            Value::native_fn("__eq__", |_it, args| {
                let a = args.exact("__eq__", 2)?;
                Ok(if a[0].is(&a[1]) {
                    Value::Bool(true)
                } else {
                    Value::NotImplemented
                })
            }),
        );
        d.set_str(
            "__hash__",
            Value::native_fn("__hash__", |_it, args| {
                let a = args.exact("__hash__", 1)?;
                Ok(Value::Int((a[0].ptr_id().unwrap_or(0) >> 4) as i64))
            }),
        );
    }
    it.builtins
        .borrow_mut()
        .set_str("object", Value::Class(object));
    let excs: Vec<(String, Value)> = it
        .exc_classes
        .iter()
        .map(|(k, v)| (k.clone(), Value::Class(v.clone())))
        .collect();
    for (k, v) in excs {
        it.builtins.borrow_mut().set_str(&k, v);
    }
    it.builtins
        .borrow_mut()
        .set_str("NotImplemented", Value::NotImplemented);
    it.builtins
        .borrow_mut()
        .set_str("Ellipsis", Value::Ellipsis);
    it.builtins
        .borrow_mut()
        .set_str("__name__", Value::str("builtins"));
    it.main.set_attr("__name__", Value::str("__main__"));

    reg(it, "print", |it, mut args| {
        let sep = print_text_kw(&mut args, "sep", " ")?;
        let end = print_text_kw(&mut args, "end", "\n")?;
        let file = args.take_kw("file");
        let _ = args.take_kw("flush");
        if let Some((k, _)) = args.keywords.first() {
            return Err(PyException::type_error(format!(
                "'{k}' is an invalid keyword argument for print()"
            )));
        }
        let mut out = String::new();
        for (i, v) in args.positional.iter().enumerate() {
            if i > 0 {
                out.push_str(&sep);
            }
            out.push_str(&it.str(v)?);
        }
        out.push_str(&end);
        use super::modules::sys::{StreamKind, stream_kind, write_stream};
        let file = match file {
            None | Some(Value::None) => super::modules::sys::replaced_stdout(it),
            f => f,
        };
        match file {
            None | Some(Value::None) => it.write_stdout(&out),
            Some(f) => match stream_kind(&f) {
                Some(kind) => write_stream(it, kind, &out),
                // Any object with a write method, as CPython's print calls file.write(text).
                None => match it.getattr_opt(&f, "write")? {
                    Some(w) => {
                        it.call(&w, Args::new(vec![Value::string(out)]))?;
                    }
                    None if f.type_name() == "TextIOWrapper" => {
                        write_stream(it, StreamKind::Stderr, &out)
                    }
                    None => {
                        return Err(PyException::new(
                            ExcType::AttributeError,
                            format!("'{}' object has no attribute 'write'", f.type_name()),
                        ));
                    }
                },
            },
        }
        Ok(Value::None)
    });
    reg(it, "len", |it, args| {
        let a = args.exact("len", 1)?;
        Ok(Value::Int(it.len(&a[0])? as i64))
    });
    reg(it, "repr", |it, args| {
        let a = args.exact("repr", 1)?;
        Ok(Value::string(it.repr(&a[0])?))
    });
    reg(it, "ascii", |it, args| {
        let a = args.exact("ascii", 1)?;
        Ok(Value::string(it.repr(&a[0])?))
    });
    reg(it, "format", |it, args| {
        let a = args.range("format", 1, 2)?;
        let spec = match a.get(1) {
            Some(Value::Str(s)) => s.to_string(),
            Some(o) => {
                return Err(PyException::type_error(format!(
                    "format() argument 2 must be str, not {}",
                    o.type_name()
                )));
            }
            None => String::new(),
        };
        Ok(Value::string(it.format_value(&a[0], &spec)?))
    });
    reg(it, "isinstance", |it, args| {
        let a = args.exact("isinstance", 2)?;
        Ok(Value::Bool(isinstance_any(it, &a[0], &a[1], "isinstance")?))
    });
    reg(it, "issubclass", |_it, args| {
        let a = args.exact("issubclass", 2)?;
        let Value::Class(c) = &a[0] else {
            return Err(PyException::type_error(
                "issubclass() arg 1 must be a class",
            ));
        };
        fn check(c: &super::value::Class, t: &Value) -> PyResult<bool> {
            match t {
                Value::Class(t) => {
                    Ok(t.kind == super::value::ClassKind::Object || c.is_subclass(t))
                }
                Value::Tuple(ts) => {
                    for x in ts.iter() {
                        if check(c, x)? {
                            return Ok(true);
                        }
                    }
                    Ok(false)
                }
                _ => Err(PyException::type_error(
                    "issubclass() arg 2 must be a class, a tuple of classes, or a union",
                )),
            }
        }
        Ok(Value::Bool(check(c, &a[1])?))
    });
    reg(it, "callable", |_it, args| {
        let a = args.exact("callable", 1)?;
        Ok(Value::Bool(match &a[0] {
            Value::Function(_)
            | Value::NativeFn(_)
            | Value::BoundMethod(_)
            | Value::BuiltinMethod(_)
            | Value::Class(_) => true,
            Value::Instance(i) => i.class.lookup_user("__call__").is_some(),
            Value::Native(n) => n.is_callable(),
            _ => false,
        }))
    });
    reg(it, "id", |_it, args| {
        let a = args.exact("id", 1)?;
        Ok(Value::Int(match a[0].ptr_id() {
            Some(p) => p as i64,
            None => match &a[0] {
                Value::Int(i) => 0x1000 + i.wrapping_mul(32),
                Value::Bool(b) => 0x900 + *b as i64 * 32,
                Value::None => 0x800,
                Value::Float(f) => f.to_bits() as i64 & 0x7fff_ffff_ffff,
                _ => 0x700,
            },
        }))
    });
    reg(it, "hash", |it, args| {
        let a = args.exact("hash", 1)?;
        let k = it.hkey(&a[0])?;
        Ok(Value::Int(match (&a[0], &k) {
            (_, super::value::HKey::Hashed(b)) => b.1,
            (_, super::value::HKey::HashedObject(b)) => b.1,
            (_, super::value::HKey::EqObject(h, _)) => *h,
            _ => k.py_hash(),
        }))
    });
    reg(it, "abs", |it, args| {
        let a = args.exact("abs", 1)?;
        match &a[0] {
            Value::Int(i) => match i.checked_abs() {
                Some(r) => Ok(Value::Int(r)),
                None => {
                    super::bigint::value(num_traits::Signed::abs(&num_bigint::BigInt::from(*i)))
                }
            },
            Value::BigInt(b) => super::bigint::value(num_traits::Signed::abs(&**b)),
            Value::Bool(b) => Ok(Value::Int(*b as i64)),
            Value::Float(f) => Ok(Value::Float(f.abs())),
            Value::Instance(i) if i.class.lookup_user("__abs__").is_some() => {
                let m = i.class.lookup_user("__abs__").unwrap_or(Value::None);
                it.call_bound(&m, a[0].clone(), Args::default())
            }
            Value::Native(_) => it.call_method(&a[0], "abs", Args::default()),
            o => Err(PyException::type_error(format!(
                "bad operand type for abs(): '{}'",
                o.type_name()
            ))),
        }
    });
    reg(it, "round", |it, args| {
        let a = args.bind("round", &["number", "ndigits"], 1)?;
        let x = a[0].clone().unwrap_or(Value::None);
        let nd = a[1].clone().filter(|v| !v.is_none());
        round(it, &x, nd)
    });
    reg(it, "divmod", |it, args| {
        let a = args.exact("divmod", 2)?;
        let float_zero = matches!((&a[0], &a[1]), (Value::Float(_), _) | (_, Value::Float(_)))
            && matches!(a[1].as_float(), Some(z) if z == 0.0)
            && matches!(
                a[0],
                Value::Int(_) | Value::Bool(_) | Value::Float(_) | Value::BigInt(_)
            );
        if float_zero {
            return Err(PyException::new(
                ExcType::ZeroDivisionError,
                "float divmod()",
            ));
        }
        let q = it.binary_op(super::native::BinOp::FloorDiv, &a[0], &a[1])?;
        let r = it.binary_op(super::native::BinOp::Mod, &a[0], &a[1])?;
        Ok(Value::tuple(vec![q, r]))
    });
    reg(it, "pow", |it, args| {
        let a = args.range("pow", 2, 3)?;
        if let Some(m) = a.get(2).filter(|m| !m.is_none()) {
            use super::bigint::{is_int, to_big};
            if !(is_int(&a[0]) && is_int(&a[1]) && is_int(m)) {
                return Err(PyException::type_error(
                    "pow() 3rd argument not allowed unless all arguments are integers",
                ));
            }
            let (Some(mut b), Some(mut e), Some(m)) = (a[0].as_int(), a[1].as_int(), m.as_int())
            else {
                let (b, e, m) = (to_big(&a[0]), to_big(&a[1]), to_big(m));
                let (b, e, m) = (
                    b.unwrap_or_default(),
                    e.unwrap_or_default(),
                    m.unwrap_or_default(),
                );
                return super::bigint::pow_mod(&b, &e, &m, &mut || it.check_time());
            };
            if m == 0 {
                return Err(PyException::value_error("pow() 3rd argument cannot be 0"));
            }
            if e < 0 {
                let (b, e, m) = (b.into(), e.into(), m.into());
                return super::bigint::pow_mod(&b, &e, &m, &mut || it.check_time());
            }
            let mut r: i128 = 1;
            let mm = m as i128;
            b = (b as i128).rem_euclid(mm) as i64;
            while e > 0 {
                if e & 1 == 1 {
                    r = (r * b as i128).rem_euclid(mm);
                }
                b = ((b as i128 * b as i128).rem_euclid(mm)) as i64;
                e >>= 1;
            }
            let r = r as i64;
            return Ok(Value::Int(if m < 0 && r > 0 { r + m } else { r }));
        }
        it.binary_op(super::native::BinOp::Pow, &a[0], &a[1])
    });
    reg(it, "chr", |_it, args| {
        let a = args.exact("chr", 1)?;
        if let Value::BigInt(_) = &a[0] {
            return Err(PyException::new(
                ExcType::OverflowError,
                "Python int too large to convert to C int",
            ));
        }
        let n = a[0]
            .as_int()
            .ok_or_else(|| PyException::not_an_integer(a[0].type_name()))?;
        let c = u32::try_from(n)
            .ok()
            .and_then(char::from_u32)
            .ok_or_else(|| PyException::value_error("chr() arg not in range(0x110000)"))?;
        Ok(Value::string(c.to_string()))
    });
    reg(it, "ord", |_it, args| {
        let a = args.exact("ord", 1)?;
        let s = a[0].as_str().ok_or_else(|| {
            PyException::type_error(format!(
                "ord() expected string of length 1, but {} found",
                a[0].type_name()
            ))
        })?;
        let mut cs = s.chars();
        match (cs.next(), cs.next()) {
            (Some(c), None) => Ok(Value::Int(c as i64)),
            _ => Err(PyException::type_error(format!(
                "ord() expected a character, but string of length {} found",
                s.chars().count()
            ))),
        }
    });
    for (name, radix) in [("hex", 16u32), ("oct", 8), ("bin", 2)] {
        reg(it, name, move |_it, args| {
            let a = args.exact(name, 1)?;
            let (digits, neg) = super::bigint::radix_magnitude(&a[0], radix)
                .ok_or_else(|| PyException::not_an_integer(a[0].type_name()))?;
            let prefix = match radix {
                16 => "0x",
                8 => "0o",
                _ => "0b",
            };
            let sign = if neg { "-" } else { "" };
            Ok(Value::string(format!("{sign}{prefix}{digits}")))
        });
    }
    reg(it, "getattr", |it, args| {
        let a = args.range("getattr", 2, 3)?;
        let name = attr_name(&a[1])?;
        if a.len() == 3 {
            match it.getattr(&a[0], &name) {
                Ok(v) => Ok(v),
                Err(e) if e.kind() == Some(ExcType::AttributeError) => Ok(a[2].clone()),
                Err(e) => Err(e),
            }
        } else {
            it.getattr(&a[0], &name)
        }
    });
    reg(it, "setattr", |it, args| {
        let a = args.exact("setattr", 3)?;
        let name = attr_name(&a[1])?;
        it.setattr(&a[0], &name, a[2].clone())?;
        Ok(Value::None)
    });
    reg(it, "delattr", |it, args| {
        let a = args.exact("delattr", 2)?;
        let name = attr_name(&a[1])?;
        it.delattr(&a[0], &name)?;
        Ok(Value::None)
    });
    reg(it, "hasattr", |it, args| {
        let a = args.exact("hasattr", 2)?;
        let name = attr_name(&a[1])?;
        match it.getattr(&a[0], &name) {
            Ok(_) => Ok(Value::Bool(true)),
            Err(e) if e.kind() == Some(ExcType::AttributeError) => Ok(Value::Bool(false)),
            Err(e) => Err(e),
        }
    });
    reg(it, "vars", |it, args| {
        let a = args.exact("vars", 1)?;
        it.getattr(&a[0], "__dict__")
    });
    reg(it, "dir", |it, args| {
        let a = args.range("dir", 0, 1)?;
        let mut names: Vec<String> = Vec::new();
        match a.first() {
            Some(Value::Instance(i)) => {
                names.extend(
                    i.dict
                        .borrow()
                        .keys()
                        .iter()
                        .filter_map(|k| k.as_str().map(|s| s.to_string())),
                );
                let mut cls = vec![i.class.clone()];
                cls.extend(i.class.mro.iter().cloned());
                for c in cls {
                    names.extend(
                        c.dict
                            .borrow()
                            .keys()
                            .iter()
                            .filter_map(|k| k.as_str().map(|s| s.to_string())),
                    );
                }
            }
            Some(Value::Module(m)) => {
                it.load_lazy_package(m);
                names.extend(
                    m.dict
                        .borrow()
                        .keys()
                        .iter()
                        .filter_map(|k| k.as_str().map(|s| s.to_string())),
                )
            }
            Some(Value::Class(c)) => names.extend(
                c.dict
                    .borrow()
                    .keys()
                    .iter()
                    .filter_map(|k| k.as_str().map(|s| s.to_string())),
            ),
            Some(Value::Native(n)) => names.extend(n.dir()),
            Some(v) => names.extend(methods::method_names(v).iter().map(|s| s.to_string())),
            None => names.extend(
                it.main
                    .dict
                    .borrow()
                    .keys()
                    .iter()
                    .filter_map(|k| k.as_str().map(|s| s.to_string())),
            ),
        }
        names.sort();
        names.dedup();
        Ok(Value::list(names.into_iter().map(Value::string).collect()))
    });
    reg(it, "iter", |it, args| {
        let a = args.exact("iter", 1)?;
        it.get_iter(&a[0])
    });
    reg(it, "next", |it, args| {
        let a = args.range("next", 1, 2)?;
        if !matches!(a[0], Value::Iter(_) | Value::Instance(_) | Value::Native(_)) {
            return Err(PyException::type_error(format!(
                "'{}' object is not an iterator",
                a[0].type_name()
            )));
        }
        // A generator's return value travels in its StopIteration.
        if let Some(g) = a[0].downcast::<super::interp::generator::Generator>() {
            use super::interp::generator::{GenInput, GenStep};
            return match it.gen_resume(g, GenInput::Send(Value::None))? {
                GenStep::Yielded(v) => Ok(v),
                GenStep::Returned(v) => match a.get(1) {
                    Some(d) => Ok(d.clone()),
                    None => Err(it.stop_iteration(v)),
                },
            };
        }
        match it.next_item(&a[0])? {
            Some(v) => Ok(v),
            None => match a.get(1) {
                Some(d) => Ok(d.clone()),
                None => Err(PyException::new(ExcType::StopIteration, "")),
            },
        }
    });
    reg(it, "enumerate", |it, mut args| {
        let start = args.take_kw("start");
        let a = args.range("enumerate", 1, 2)?;
        let n = match start.as_ref().or(a.get(1)) {
            Some(v) => v
                .as_int()
                .ok_or_else(|| PyException::not_an_integer(v.type_name()))?,
            None => 0,
        };
        let inner = it.get_iter(&a[0])?;
        Ok(Value::Iter(Rc::new(RefCell::new(IterState::Enumerate {
            inner,
            n,
        }))))
    });
    reg(it, "zip", |it, mut args| {
        let _ = args.take_kw("strict");
        let mut inners = Vec::new();
        for v in &args.positional {
            inners.push(it.get_iter(v)?);
        }
        Ok(Value::Iter(Rc::new(RefCell::new(IterState::Zip {
            inners,
        }))))
    });
    reg(it, "map", |it, args| {
        if args.positional.len() < 2 {
            return Err(PyException::type_error(
                "map() must have at least two arguments.",
            ));
        }
        let func = args.positional[0].clone();
        let mut inners = Vec::new();
        for v in &args.positional[1..] {
            inners.push(it.get_iter(v)?);
        }
        Ok(Value::Iter(Rc::new(RefCell::new(IterState::Map {
            func,
            inners,
        }))))
    });
    reg(it, "filter", |it, args| {
        let a = args.exact("filter", 2)?;
        let inner = it.get_iter(&a[1])?;
        Ok(Value::Iter(Rc::new(RefCell::new(IterState::Filter {
            func: a[0].clone(),
            inner,
        }))))
    });
    reg(it, "reversed", |it, args| {
        let a = args.exact("reversed", 1)?;
        // A dict/list subclass without `__reversed__` reverses its items.
        let target = crate::script::interp::builtin_subclass::inherited_base(&a[0], "__reversed__")
            .unwrap_or_else(|| a[0].clone());
        let items = match &target {
            Value::List(_) | Value::Tuple(_) | Value::Range(_) | Value::Str(_) => {
                it.iterate(&target)?
            }
            Value::Dict(d) => d.borrow().keys(),
            Value::Instance(i) => {
                if let Some(m) = i.class.lookup_user("__reversed__") {
                    return it.call_bound(&m, a[0].clone(), Args::default());
                }
                if i.class.lookup_user("__len__").is_some()
                    && i.class.lookup_user("__getitem__").is_some()
                {
                    it.iterate(&a[0])?
                } else {
                    return Err(PyException::type_error(format!(
                        "'{}' object is not reversible",
                        i.class.name
                    )));
                }
            }
            o => match methods::dict_view_items(o) {
                Some(items) => items,
                None => {
                    return Err(PyException::type_error(format!(
                        "'{}' object is not reversible",
                        o.type_name()
                    )));
                }
            },
        };
        let mut items = items;
        items.reverse();
        Ok(Value::iter_from_vec(items))
    });
    reg(it, "sum", |it, mut args| {
        let start = args.take_kw("start");
        let a = args.range("sum", 1, 2)?;
        let mut acc = start.or_else(|| a.get(1).cloned()).unwrap_or(Value::Int(0));
        if matches!(acc, Value::Str(_)) {
            return Err(PyException::type_error(
                "sum() can't sum strings [use ''.join(seq) instead]",
            ));
        }
        let src = a[0].clone();
        let iter = it.get_iter(&src)?;
        while let Some(v) = it.next_item(&iter)? {
            it.step()?;
            acc = it.binary_op(super::native::BinOp::Add, &acc, &v)?;
        }
        Ok(acc)
    });
    reg(it, "min", |it, args| min_max(it, args, "min", CmpOp::Lt));
    reg(it, "max", |it, args| min_max(it, args, "max", CmpOp::Gt));
    reg(it, "any", |it, args| {
        let a = args.exact("any", 1)?;
        let iter = it.get_iter(&a[0])?;
        while let Some(v) = it.next_item(&iter)? {
            it.work(1)?;
            if it.truthy(&v)? {
                return Ok(Value::Bool(true));
            }
        }
        Ok(Value::Bool(false))
    });
    reg(it, "all", |it, args| {
        let a = args.exact("all", 1)?;
        let iter = it.get_iter(&a[0])?;
        while let Some(v) = it.next_item(&iter)? {
            it.work(1)?;
            if !it.truthy(&v)? {
                return Ok(Value::Bool(false));
            }
        }
        Ok(Value::Bool(true))
    });
    reg(it, "sorted", |it, mut args| {
        let key = args.take_kw("key").filter(|k| !k.is_none());
        let reverse = match args.take_kw("reverse") {
            Some(r) => it.truthy(&r)?,
            None => false,
        };
        let a = args.exact("sorted", 1)?;
        let items = it.iterate(&a[0])?;
        Ok(Value::list(sort_values(it, items, key.as_ref(), reverse)?))
    });
    reg(it, "input", |_it, _args| {
        Err(PyException::new(
            ExcType::EOFError,
            "EOF when reading a line",
        ))
    });
    // Files live in the run's in-memory file system (modules/_fs.py), never on the host.
    reg(it, "open", |it, args| {
        let fs = it.import_module("_fs")?;
        let open = it.getattr(&fs, "open")?;
        it.call(&open, args)
    });
    reg(it, "exit", |it, args| {
        super::modules::sys::quitter(it, args, "exit")
    });
    reg(it, "quit", |it, args| {
        super::modules::sys::quitter(it, args, "quit")
    });
    reg(it, "globals", |it, _args| {
        // The main module's namespace (scripts are single-module).
        Ok(Value::Dict(it.main.dict.clone()))
    });
}

/// The name argument of `getattr`, `setattr`, `object.__setattr__` and the like, which must be
/// a string.
fn attr_name(v: &Value) -> PyResult<String> {
    v.as_str()
        .map(str::to_string)
        .ok_or_else(|| PyException::type_error("attribute name must be string"))
}

/// `print`'s `sep=` or `end=` (`kw`): a string, or `default` when absent or None.
fn print_text_kw(args: &mut Args, kw: &str, default: &str) -> PyResult<String> {
    match args.take_kw(kw) {
        None | Some(Value::None) => Ok(default.to_string()),
        Some(Value::Str(s)) => Ok(s.to_string()),
        Some(o) => Err(PyException::type_error(format!(
            "{kw} must be None or a string, not {}",
            o.type_name()
        ))),
    }
}

fn isinstance_any(it: &mut Interpreter, v: &Value, t: &Value, fname: &str) -> PyResult<bool> {
    match t {
        Value::Class(c) => Ok(it.isinstance(v, c)),
        Value::Tuple(ts) => {
            for x in ts.iter() {
                if isinstance_any(it, v, x, fname)? {
                    return Ok(true);
                }
            }
            Ok(false)
        }
        _ => Err(PyException::type_error(format!(
            "{fname}() arg 2 must be a type, a tuple of types, or a union"
        ))),
    }
}

fn round(it: &mut Interpreter, x: &Value, nd: Option<Value>) -> PyResult<Value> {
    match x {
        Value::BigInt(b) => match nd {
            None => Ok(x.clone()),
            Some(n) => match n {
                Value::Int(n) if n < 0 => super::bigint::round_neg(b, n.unsigned_abs()),
                Value::BigInt(n) if n.sign() == num_bigint::Sign::Minus => Ok(Value::Int(0)),
                Value::Int(_) | Value::Bool(_) | Value::BigInt(_) => Ok(x.clone()),
                _ => Err(PyException::not_an_integer(n.type_name())),
            },
        },
        Value::Int(_) | Value::Bool(_) => {
            let i = x.as_int().unwrap_or(0);
            match nd {
                None => Ok(Value::Int(i)),
                Some(n) => {
                    let n = n
                        .as_int()
                        .ok_or_else(|| PyException::type_error("ndigits must be an integer"))?;
                    if n >= 0 {
                        return Ok(Value::Int(i));
                    }
                    super::bigint::round_neg(&i.into(), n.unsigned_abs())
                }
            }
        }
        Value::Float(f) => match nd {
            None => {
                if f.is_nan() {
                    return Err(PyException::value_error(
                        "cannot convert float NaN to integer",
                    ));
                }
                if f.is_infinite() {
                    return Err(PyException::new(
                        ExcType::OverflowError,
                        "cannot convert float infinity to integer",
                    ));
                }
                super::bigint::from_f64(f.round_ties_even())
            }
            Some(n) => {
                let n = n
                    .as_int()
                    .ok_or_else(|| PyException::type_error("ndigits must be an integer"))?;
                if !f.is_finite() {
                    return Ok(Value::Float(*f));
                }
                if n >= 0 {
                    // Correctly rounded decimal (what CPython does via its dtoa).
                    let s = format!("{:.*}", (n.min(400)) as usize, f);
                    Ok(Value::Float(s.parse().unwrap_or(*f)))
                } else {
                    let p = 10f64.powi((-n).min(400) as i32);
                    Ok(Value::Float((f / p).round_ties_even() * p))
                }
            }
        },
        Value::Instance(i) if i.class.lookup_user("__round__").is_some() => {
            let m = i.class.lookup_user("__round__").unwrap_or(Value::None);
            let args = match nd {
                Some(n) => vec![n],
                None => vec![],
            };
            it.call_bound(&m, x.clone(), Args::new(args))
        }
        Value::Native(_) => {
            let f = it.call_method(x, "item", Args::default())?;
            round(it, &f, nd)
        }
        o => Err(PyException::type_error(format!(
            "type {} doesn't define __round__ method",
            o.type_name()
        ))),
    }
}

fn min_max(it: &mut Interpreter, mut args: Args, name: &str, op: CmpOp) -> PyResult<Value> {
    let key = args.take_kw("key").filter(|k| !k.is_none());
    let default = args.take_kw("default");
    if let Some((k, _)) = args.keywords.first() {
        return Err(PyException::type_error(format!(
            "'{k}' is an invalid keyword argument for {name}()"
        )));
    }
    // one iterable is walked item by item (CPython's `max(range(10**12))` runs until stopped,
    // it never builds a list); several arguments are the items themselves
    let iter = match args.positional.len() {
        0 => {
            return Err(PyException::type_error(format!(
                "{name} expected at least 1 argument, got 0"
            )));
        }
        1 => it.get_iter(&args.positional[0])?,
        _ => {
            if default.is_some() {
                return Err(PyException::type_error(format!(
                    "Cannot specify a default for {name}() with multiple positional arguments"
                )));
            }
            it.get_iter(&Value::tuple(args.positional.clone()))?
        }
    };
    let mut best: Option<(Value, Value)> = None;
    while let Some(v) = it.next_item(&iter)? {
        it.work(1)?;
        let k = match &key {
            Some(f) => it.call(f, Args::new(vec![v.clone()]))?,
            None => v.clone(),
        };
        best = match best {
            None => Some((k, v)),
            Some((bk, bv)) => {
                let r = it.compare(op, &k, &bk)?;
                if it.truthy(&r)? {
                    Some((k, v))
                } else {
                    Some((bk, bv))
                }
            }
        };
    }
    match best {
        Some((_, v)) => Ok(v),
        None => match default {
            Some(d) => Ok(d),
            None => Err(PyException::value_error(format!(
                "{name}() arg is an empty sequence"
            ))),
        },
    }
}

/// Stable merge sort with a fallible `<` (Rust's sort may panic on inconsistent orders, and
/// user `__lt__` or NaNs can be inconsistent).
pub(crate) fn sort_values(
    it: &mut Interpreter,
    items: Vec<Value>,
    key: Option<&Value>,
    reverse: bool,
) -> PyResult<Vec<Value>> {
    super::interp::budget_for::<(Value, Value)>(items.len().saturating_mul(2))?;
    let mut keyed: Vec<(Value, Value)> = Vec::with_capacity(items.len());
    for v in items {
        it.work(1)?;
        let k = match key {
            Some(f) => it.call(f, Args::new(vec![v.clone()]))?,
            None => v.clone(),
        };
        keyed.push((k, v));
    }
    if reverse {
        keyed.reverse();
    }
    let sorted = merge_sort(it, keyed, reverse)?;
    let mut out: Vec<Value> = sorted.into_iter().map(|(_, v)| v).collect();
    if reverse {
        out.reverse();
    }
    Ok(out)
}

fn lt(it: &mut Interpreter, a: &Value, b: &Value) -> PyResult<bool> {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => Ok(x < y),
        (Value::Float(x), Value::Float(y)) => Ok(x < y),
        (Value::Str(x), Value::Str(y)) => Ok(x < y),
        _ => {
            let r = it.compare(CmpOp::Lt, a, b)?;
            it.truthy(&r)
        }
    }
}

fn merge_sort(
    it: &mut Interpreter,
    mut v: Vec<(Value, Value)>,
    reverse: bool,
) -> PyResult<Vec<(Value, Value)>> {
    if v.len() <= 1 {
        return Ok(v);
    }
    let right = v.split_off(v.len() / 2);
    let left = merge_sort(it, v, reverse)?;
    let right = merge_sort(it, right, reverse)?;
    let mut out = Vec::with_capacity(left.len() + right.len());
    let mut l = left.into_iter().peekable();
    let mut r = right.into_iter().peekable();
    loop {
        match (l.peek(), r.peek()) {
            (Some(a), Some(b)) => {
                // Take from the right only when strictly smaller: keeps the sort stable.
                // (With reverse the input was reversed, and stability is restored at the end.)
                let take_right = if reverse {
                    lt(it, &b.0, &a.0)? && !lt(it, &a.0, &b.0)?
                } else {
                    lt(it, &b.0, &a.0)?
                };
                if take_right {
                    if let Some(x) = r.next() {
                        out.push(x);
                    }
                } else if let Some(x) = l.next() {
                    out.push(x);
                }
            }
            (Some(_), None) => out.extend(l.by_ref()),
            (None, Some(_)) => out.extend(r.by_ref()),
            (None, None) => break,
        }
    }
    it.work(out.len() as u64)?;
    Ok(out)
}

fn parse_float_str(s: &str) -> Option<f64> {
    let t = s.trim().to_ascii_lowercase();
    let t = t.replace('_', "");
    match t.as_str() {
        "inf" | "+inf" | "infinity" | "+infinity" => return Some(f64::INFINITY),
        "-inf" | "-infinity" => return Some(f64::NEG_INFINITY),
        "nan" | "+nan" | "-nan" => return Some(f64::NAN),
        _ => {}
    }
    if t.is_empty()
        || !t
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | '+' | '-'))
    {
        return None;
    }
    t.parse().ok()
}

/// Calling a builtin type: `int("3")`, `list(x)`, `range(5)`, `property(f)` …
pub(crate) fn construct(it: &mut Interpreter, t: BuiltinType, args: Args) -> PyResult<Value> {
    use BuiltinType as B;
    match t {
        B::Int => {
            let a = args.bind("int", &["x", "base"], 0)?;
            // A big-int base is out of range like any other (ValueError below).
            let base = a[1].as_ref().map(|b| match b {
                Value::BigInt(_) => i64::MAX,
                b => b.as_int().unwrap_or(10),
            });
            let Some(x) = a[0].clone() else {
                return Ok(Value::Int(0));
            };
            to_int(it, &x, base)
        }
        B::Float => {
            let a = args.range("float", 0, 1)?;
            let Some(x) = a.first() else {
                return Ok(Value::Float(0.0));
            };
            to_float(it, x).map(Value::Float)
        }
        B::Str => {
            // `str(x)`, the common call, without binding: `bind`'s slot vector, the
            // argument's clone and their frees took about 400 of the 2,500 instructions of a
            // `s += str(i)` step (callgrind).
            if args.keywords.is_empty()
                && let [v] = args.positional.as_slice()
            {
                return Ok(Value::string(it.str(v)?));
            }
            let a = args.bind("str", &["object"], 0)?;
            match &a[0] {
                Some(v) => Ok(Value::string(it.str(v)?)),
                None => Ok(Value::str("")),
            }
        }
        B::Bool => {
            let a = args.range("bool", 0, 1)?;
            match a.first() {
                Some(v) => Ok(Value::Bool(it.truthy(v)?)),
                None => Ok(Value::Bool(false)),
            }
        }
        B::List => {
            let a = args.range("list", 0, 1)?;
            match a.first() {
                Some(v) => Ok(Value::list(it.iterate(v)?)),
                None => Ok(Value::list(Vec::new())),
            }
        }
        B::Tuple => {
            let a = args.range("tuple", 0, 1)?;
            match a.first() {
                Some(Value::Tuple(_)) => Ok(a[0].clone()),
                Some(v) => Ok(Value::tuple(it.iterate(v)?)),
                None => Ok(Value::tuple(Vec::new())),
            }
        }
        B::Set => {
            let a = args.range("set", 0, 1)?;
            if let Some(Value::Set(src)) = a.first() {
                return Ok(Value::Set(Rc::new(RefCell::new(
                    it.copy_set_polled(&src.borrow())?,
                ))));
            }
            let mut d = Dict::new();
            if let Some(v) = a.first() {
                for x in it.iterate(v)? {
                    it.work(1)?;
                    let k = it.key_in(&d, &x)?;
                    super::interp::dict_grow_check(&d)?;
                    d.insert(k, x, Value::None);
                }
            }
            Ok(Value::Set(Rc::new(RefCell::new(d))))
        }
        B::Dict => {
            let mut d = Dict::new();
            if args.positional.len() > 1 {
                return Err(PyException::type_error(format!(
                    "dict expected at most 1 argument, got {}",
                    args.positional.len()
                )));
            }
            match args.positional.first() {
                // a copy of the table as it is, a chunk at a time (no key hashed again)
                Some(Value::Dict(src)) => d = it.copy_dict_polled(&src.borrow())?,
                Some(src) => dict_update(it, &mut d, src)?,
                None => {}
            }
            for (k, v) in args.keywords {
                d.set_str(&k, v);
            }
            Ok(Value::dict(d))
        }
        B::Range => {
            let a = args.range("range", 1, 3)?;
            let mut n: Vec<i128> = Vec::new();
            for v in a {
                n.push(match v {
                    Value::Int(i) => *i as i128,
                    Value::Bool(b) => *b as i128,
                    Value::BigInt(_) => match super::bigint::to_i128(v) {
                        Some(x) if x.abs() <= super::value::RANGE_BOUND => x,
                        _ => {
                            return Err(PyException::new(
                                ExcType::OverflowError,
                                "cudatutor's range() takes ints up to 2**120 in magnitude",
                            ));
                        }
                    },
                    other => it.index_int(other)? as i128,
                });
            }
            let (start, stop, step) = match n.as_slice() {
                [s] => (0, *s, 1),
                [a, b] => (*a, *b, 1),
                [a, b, c] => (*a, *b, *c),
                _ => (0, 0, 1),
            };
            if step == 0 {
                return Err(PyException::value_error("range() arg 3 must not be zero"));
            }
            Ok(Value::Range(Rc::new(RangeObj { start, stop, step })))
        }
        B::Slice => {
            let a = args.range("slice", 1, 3)?;
            let s = match a {
                [x] => [Value::None, x.clone(), Value::None],
                [x, y] => [x.clone(), y.clone(), Value::None],
                [x, y, z] => [x.clone(), y.clone(), z.clone()],
                _ => [Value::None, Value::None, Value::None],
            };
            Ok(Value::Slice(Rc::new(s)))
        }
        B::Type => match args.positional.len() {
            1 => Ok(Value::Class(it.type_of(&args.positional[0]))),
            3 => {
                let name = args.positional[0].as_str().unwrap_or("X").to_string();
                let bases = args.positional[1].as_vec().unwrap_or_default();
                let mut d = Dict::new();
                if let Value::Dict(src) = &args.positional[2] {
                    d = src.borrow().clone();
                }
                Ok(Value::Class(it.make_class(&name, "__main__", bases, d)?))
            }
            _ => Err(PyException::type_error("type() takes 1 or 3 arguments")),
        },
        B::Super => {
            let a = args.exact("super", 2)?;
            let Value::Class(c) = &a[0] else {
                return Err(PyException::type_error("super() argument 1 must be a type"));
            };
            Ok(Value::Super(Rc::new((c.clone(), a[1].clone()))))
        }
        B::StaticMethod => {
            let a = args.exact("staticmethod", 1)?;
            Ok(Value::StaticMethod(Rc::new(a[0].clone())))
        }
        B::ClassMethod => {
            let a = args.exact("classmethod", 1)?;
            Ok(Value::ClassMethod(Rc::new(a[0].clone())))
        }
        B::Property => {
            let a = args.bind("property", &["fget", "fset", "fdel", "doc"], 0)?;
            Ok(Value::Property(Rc::new(Property {
                fget: a[0].clone().unwrap_or(Value::None),
                fset: a[1].clone().unwrap_or(Value::None),
            })))
        }
        other => Err(PyException::type_error(format!(
            "cannot create '{}' instances",
            super::value::builtin_type_name(other)
        ))),
    }
}

pub(crate) fn dict_update(it: &mut Interpreter, d: &mut Dict, src: &Value) -> PyResult<()> {
    match src {
        Value::Dict(s) => {
            let items: Vec<_> = s
                .borrow()
                .iter_full()
                .map(|(h, k, v)| (h.clone(), k.clone(), v.clone()))
                .collect();
            for (h, k, v) in items {
                it.work(1)?;
                super::interp::dict_grow_check(d)?;
                d.insert(h, k, v);
            }
        }
        Value::Instance(_) | Value::Native(_) if it.getattr_opt(src, "keys")?.is_some() => {
            for (k, v) in it.mapping_items(src)? {
                it.work(1)?;
                let h = it.key_in(d, &k)?;
                super::interp::dict_grow_check(d)?;
                d.insert(h, k, v);
            }
        }
        other => {
            for (i, item) in it.iterate(other)?.into_iter().enumerate() {
                let pair = it.iterate(&item).map_err(|_| {
                    PyException::type_error(format!(
                        "cannot convert dictionary update sequence element #{i} to a sequence"
                    ))
                })?;
                if pair.len() != 2 {
                    return Err(PyException::value_error(format!(
                        "dictionary update sequence element #{i} has length {}; 2 is required",
                        pair.len()
                    )));
                }
                let h = it.key_in(d, &pair[0])?;
                super::interp::dict_grow_check(d)?;
                d.insert(h, pair[0].clone(), pair[1].clone());
            }
        }
    }
    Ok(())
}

pub(crate) fn to_int(it: &mut Interpreter, x: &Value, base: Option<i64>) -> PyResult<Value> {
    match x {
        Value::Int(_) | Value::Bool(_) if base.is_none() => Ok(Value::Int(x.as_int().unwrap_or(0))),
        Value::BigInt(_) if base.is_none() => Ok(x.clone()),
        Value::Float(f) if base.is_none() => super::bigint::from_f64(*f),
        Value::Str(s) => {
            let b = base.unwrap_or(10);
            if b != 0 && !(2..=36).contains(&b) {
                return Err(PyException::value_error(
                    "int() base must be >= 2 and <= 36, or 0",
                ));
            }
            super::bigint::parse(s, b as u32).map_err(|e| e.into_exception(s, b as u32))
        }
        _ if base.is_some() => Err(PyException::type_error(
            "int() can't convert non-string with explicit base",
        )),
        Value::Native(n) => {
            let n = n.clone();
            match n.to_int(NativeCx::new(&n, it))? {
                Some(i) => Ok(Value::Int(i)),
                None => match n.to_float(NativeCx::new(&n, it))? {
                    Some(f) => to_int(it, &Value::Float(f), None),
                    None => Err(PyException::type_error(format!(
                        "int() argument must be a string, a bytes-like object or a real number, not '{}'",
                        n.type_name()
                    ))),
                },
            }
        }
        Value::Instance(i) => {
            for m in ["__int__", "__index__"] {
                if let Some(f) = i.class.lookup_user(m) {
                    return it.call_bound(&f, x.clone(), Args::default());
                }
            }
            Err(PyException::type_error(format!(
                "int() argument must be a string, a bytes-like object or a real number, not '{}'",
                i.class.name
            )))
        }
        other => Err(PyException::type_error(format!(
            "int() argument must be a string, a bytes-like object or a real number, not '{}'",
            other.type_name()
        ))),
    }
}

pub(crate) fn to_float(it: &mut Interpreter, x: &Value) -> PyResult<f64> {
    match x {
        Value::Float(f) => Ok(*f),
        Value::Int(_) | Value::Bool(_) => Ok(x.as_float().unwrap_or(0.0)),
        Value::BigInt(b) => super::bigint::to_f64(b),
        Value::Str(s) => parse_float_str(s).ok_or_else(|| {
            PyException::value_error(format!(
                "could not convert string to float: {}",
                super::strfmt::str_repr(s)
            ))
        }),
        Value::Native(n) => {
            let n = n.clone();
            n.to_float(NativeCx::new(&n, it))?.ok_or_else(|| {
                PyException::type_error(format!(
                    "float() argument must be a string or a real number, not '{}'",
                    n.type_name()
                ))
            })
        }
        Value::Instance(i) => match i.class.lookup_user("__float__") {
            Some(f) => {
                let r = it.call_bound(&f, x.clone(), Args::default())?;
                r.as_float()
                    .ok_or_else(|| PyException::type_error("__float__ returned non-float"))
            }
            None => Err(PyException::type_error(format!(
                "float() argument must be a string or a real number, not '{}'",
                i.class.name
            ))),
        },
        other => Err(PyException::type_error(format!(
            "float() argument must be a string or a real number, not '{}'",
            other.type_name()
        ))),
    }
}
