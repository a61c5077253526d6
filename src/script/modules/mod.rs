//! The standard modules a lesson may import: `sys`, `math`, `random` (deterministic), `os`
//! (`environ`/`getenv` here, the file functions and `os.path` from the in-memory file system of
//! `_fs.py`), `time` (sleep does not block; it advances a virtual clock), and the Python
//! preludes (`json`, `dataclasses`, `argparse`, `collections`, …).

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use num_bigint::{BigInt, Sign};
use num_integer::Integer;
use num_traits::ToPrimitive;

use super::errors::{PyException, PyResult};
use super::interp::Interpreter;
use super::native::{Args, NativeCx, NativeObject};
use super::value::{Module, Value};
use crate::script::ExcType;

mod collections_native;
pub(crate) mod hostfs;
pub(crate) mod mt;
pub(crate) mod structseq;
pub(crate) mod sys;
mod warnings_native;

/// `(name, source)` for each module name: the file `<name>.py` next to this one, or the file
/// named after `in` where the name is not a file name (`os.path`).
macro_rules! preludes {
    ($($name:literal $(in $file:literal)?),* $(,)?) => {
        &[$(($name, preludes!(@source $name $($file)?))),*]
    };
    (@source $name:literal) => {
        include_str!(concat!($name, ".py"))
    };
    (@source $name:literal $file:literal) => {
        include_str!($file)
    };
}

/// Standard modules written in Python with generators and classes. CPython implements most of
/// them in C, so their frames never show in its tracebacks, nor in ours
/// ([`Interpreter::hide_frames_of`]).
pub(crate) const PRELUDES: &[(&str, &str)] = preludes!(
    "itertools",
    "functools",
    "collections",
    "typing",
    "random",
    "bisect",
    "_fs",
    "os.path" in "ospath.py",
    "json",
    "dataclasses",
    "argparse",
    "csv",
    "warnings",
    "io",
    "contextlib",
);

/// The preludes whose top-level definitions run at the first use of their names
/// (script/interp/deferred.rs), as torch's do: torch.nn and torch.utils.data import
/// collections, so every script with a model compiled all of its classes (about 1.8 ms);
/// argparse compiled its parser for a script that builds one Namespace; torch._extra imports
/// `_fs` for torch.save/load, so the first `torch.cat` compiled the file system's every
/// function (a fifth of a small script's start-up). Their `def`s and `class`es only bind
/// their names, no eager statement rebinds one, and nothing at import walks the namespace.
pub(crate) const DEFERRING: &[&str] = &["collections", "functools", "argparse", "_fs"];

pub(crate) fn install(it: &mut Interpreter) {
    it.register_preludes(PRELUDES, DEFERRING);
    it.hide_frames_of(PRELUDES.iter().map(|&(name, _)| name));
    it.register_module("sys", Box::new(sys::module));
    it.register_module("math", Box::new(|_it| Ok(math())));
    it.register_module("_random", Box::new(|_it| Ok(mt::module())));
    it.register_module("os", Box::new(os_module));
    // os.path at its first access: it imports the in-memory file system, which a script that
    // reads os.environ (torch does, for its thread count) does not need
    it.set_lazy_package("os", None);
    it.register_module("_hostfs", Box::new(hostfs::module));
    it.register_module("time", Box::new(|_it| Ok(time())));
    it.register_module("_warnings", Box::new(warnings_native::module));
    it.register_module("_collections", Box::new(collections_native::module));
}

fn num(it: &mut Interpreter, v: &Value) -> PyResult<f64> {
    match v {
        Value::Int(_) | Value::Bool(_) | Value::Float(_) => Ok(v.as_float().unwrap_or(0.0)),
        Value::BigInt(b) => super::bigint::to_f64(b),
        _ => super::builtins::to_float(it, v).map_err(|_| {
            PyException::type_error(format!("must be real number, not {}", v.type_name()))
        }),
    }
}

fn domain() -> PyException {
    PyException::value_error("math domain error")
}

/// A function of `math` that takes exactly one argument.
fn one_arg(
    m: &Module,
    name: &'static str,
    f: impl Fn(&mut Interpreter, &Value) -> PyResult<Value> + 'static,
) {
    m.add_fn(name, move |it, args| {
        let a = args.exact(name, 1)?;
        f(it, &a[0])
    });
}

fn f1(m: &Module, name: &'static str, f: impl Fn(f64) -> PyResult<f64> + 'static) {
    one_arg(m, name, move |it, v| f(num(it, v)?).map(Value::Float));
}

/// A two-argument float function of `math`, like [`f1`].
fn f2(m: &Module, name: &'static str, f: impl Fn(f64, f64) -> PyResult<f64> + 'static) {
    m.add_fn(name, move |it, args| {
        let a = args.exact(name, 2)?;
        let (x, y) = (num(it, &a[0])?, num(it, &a[1])?);
        f(x, y).map(Value::Float)
    });
}

/// `value`, or CPython's "math domain error" when the arguments lie `outside` the function's
/// domain (the value computed there is thrown away).
fn unless_outside(outside: bool, value: f64) -> PyResult<f64> {
    if outside { Err(domain()) } else { Ok(value) }
}

fn to_int_checked(f: f64) -> PyResult<Value> {
    super::bigint::from_f64(f)
}

/// `frexp` of an int too large for a float (CPython's log functions take this path):
/// `v = x * 2**e` with 0.5 <= x < 1. `None` for anything else.
fn big_frexp(v: &Value) -> PyResult<Option<(f64, i64)>> {
    use num_traits::{Signed, Zero};
    let Value::BigInt(b) = v else {
        return Ok(None);
    };
    if b.is_negative() {
        return Err(domain());
    }
    if super::bigint::to_f64(b).is_ok() {
        return Ok(None);
    }
    let bits = b.bits();
    let shift = bits - 64;
    let mut top = (&**b >> shift).to_u64().unwrap_or(u64::MAX);
    let mag = b.magnitude();
    if !mag.is_zero() && mag.trailing_zeros().unwrap_or(0) < shift {
        top |= 1; // sticky: round the 53-bit mantissa as the whole number would
    }
    let (mut x, mut e) = (top as f64 / 2f64.powi(64), bits as i64);
    if x == 1.0 {
        x = 0.5;
        e += 1;
    }
    Ok(Some((x, e)))
}

/// `f(v)` for a log function, ints beyond the float range included (`math.log(10**400)`).
fn log_of(it: &mut Interpreter, v: &Value, f: fn(f64) -> f64) -> PyResult<f64> {
    if let Some((x, e)) = big_frexp(v)? {
        return Ok(f(x) + f(2.0) * e as f64);
    }
    let x = num(it, v)?;
    if x <= 0.0 {
        return Err(domain());
    }
    Ok(f(x))
}

fn int_arg(v: &Value) -> PyResult<BigInt> {
    super::bigint::to_big(v).ok_or_else(|| PyException::not_an_integer(v.type_name()))
}

/// An int argument that must not be negative; `message` is CPython's ValueError otherwise.
fn non_negative_int_arg(v: &Value, message: &str) -> PyResult<BigInt> {
    let n = int_arg(v)?;
    if n.sign() == Sign::Minus {
        return Err(PyException::value_error(message));
    }
    Ok(n)
}

/// The product lo * (lo + 1) * ... * hi by binary splitting (fast for long ranges).
fn range_product(lo: u64, hi: u64) -> BigInt {
    if lo > hi {
        return BigInt::from(1u32);
    }
    if hi - lo < 16 {
        let mut r = BigInt::from(1u32);
        for i in lo..=hi {
            r *= i;
        }
        return r;
    }
    let mid = lo + (hi - lo) / 2;
    range_product(lo, mid) * range_product(mid + 1, hi)
}

/// log2 of lo * ... * hi, to refuse products past the int size cap before computing them.
fn range_log2(lo: u64, hi: u64) -> f64 {
    if lo > hi {
        return 0.0;
    }
    // ln Γ via Stirling is enough for a size estimate; exact sum for short ranges.
    if hi - lo < 1_000_000 {
        return (lo..=hi).map(|i| (i as f64).log2()).sum();
    }
    let lf = |n: f64| n * n.log2() - n * std::f64::consts::LOG2_E;
    lf(hi as f64) - lf((lo.max(2) - 1) as f64)
}

fn checked_product(lo: u64, hi: u64) -> PyResult<BigInt> {
    if range_log2(lo, hi) > super::bigint::MAX_BITS as f64 {
        return Err(super::bigint::memory_error());
    }
    Ok(range_product(lo, hi))
}

/// CPython's `m_tgamma` (Modules/mathmodule.c): exact factorials for integers up to 23,
/// else the Lanczos approximation with g = 6.02468..., N = 13. Its constants are spelled as in
/// CPython's source, digits past f64's precision included, so the two can be compared by eye.
#[allow(clippy::excessive_precision)]
fn tgamma(x: f64) -> PyResult<f64> {
    const NUM: [f64; 13] = [
        23531376880.410759688572007674451636754734846804940,
        42919803642.649098768957899047001988850926355848959,
        35711959237.355668049440185451547166705960488635843,
        17921034426.037209699919755754458931112671403265390,
        6039542586.3520280050642916443072979210699388420708,
        1439720407.3117216736632230727949123939715485786772,
        248874557.86205415651146038641322942321632125127801,
        31426415.585400194380614231628318205362874684987640,
        2876370.6289353724412254090516208496135991145378768,
        186056.26539522349504029498971604569928220784236328,
        8071.6720023658162106380029022722506138218516325024,
        210.82427775157934587250973392071336271166969580291,
        2.5066282746310002701649081771338373386264310793408,
    ];
    const DEN: [f64; 13] = [
        0.0,
        39916800.0,
        120543840.0,
        150917976.0,
        105258076.0,
        45995730.0,
        13339535.0,
        2637558.0,
        357423.0,
        32670.0,
        1925.0,
        66.0,
        1.0,
    ];
    const G: f64 = 6.024680040776729583740234375;
    const G_MINUS_HALF: f64 = 5.524680040776729583740234375;
    fn lanczos_sum(x: f64) -> f64 {
        let (mut num, mut den) = (0.0, 0.0);
        if x < 5.0 {
            for i in (0..13).rev() {
                num = num * x + NUM[i];
                den = den * x + DEN[i];
            }
        } else {
            for i in 0..13 {
                num = num / x + NUM[i];
                den = den / x + DEN[i];
            }
        }
        num / den
    }
    fn sinpi(x: f64) -> f64 {
        // CPython's m_sinpi: reduce to [0, 2) then pick the exact quadrant formula
        let y = x.abs() % 2.0;
        let n = (2.0 * y).round() as i64;
        let pi = std::f64::consts::PI;
        let r = match n {
            0 => (pi * y).sin(),
            1 => (pi * (y - 0.5)).cos(),
            2 => (pi * (1.0 - y)).sin(),
            3 => -(pi * (y - 1.5)).cos(),
            4 => (pi * (y - 2.0)).sin(),
            _ => 0.0,
        };
        (1.0f64).copysign(x) * r
    }
    let range = || PyException::new(ExcType::OverflowError, "math range error");
    if !x.is_finite() {
        if x.is_nan() || x > 0.0 {
            return Ok(x);
        }
        return Err(domain());
    }
    if x == 0.0 {
        return Err(domain());
    }
    if x == x.floor() {
        if x < 0.0 {
            return Err(domain());
        }
        if x <= 23.0 {
            let mut f = 1.0;
            for k in 2..(x as i64) {
                f *= k as f64;
            }
            return Ok(f);
        }
    }
    let absx = x.abs();
    if absx < 1e-20 {
        let r = 1.0 / x;
        return if r.is_infinite() { Err(range()) } else { Ok(r) };
    }
    if absx > 200.0 {
        return if x < 0.0 {
            Ok(0.0 / sinpi(x))
        } else {
            Err(range())
        };
    }
    let y = absx + G_MINUS_HALF;
    let z = if absx > G_MINUS_HALF {
        let q = y - absx;
        q - G_MINUS_HALF
    } else {
        let q = y - G_MINUS_HALF;
        q - absx
    };
    let z = z * G / y;
    let mut r;
    if x < 0.0 {
        r = -std::f64::consts::PI / sinpi(absx) / absx * y.exp() / lanczos_sum(absx);
        r -= z * r;
        if absx < 140.0 {
            r /= y.powf(absx - 0.5);
        } else {
            let s = y.powf(absx / 2.0 - 0.25);
            r /= s;
            r /= s;
        }
    } else {
        r = lanczos_sum(absx) / y.exp();
        r += z * r;
        if absx < 140.0 {
            r *= y.powf(absx - 0.5);
        } else {
            let s = y.powf(absx / 2.0 - 0.25);
            r *= s;
            r *= s;
        }
    }
    if r.is_infinite() { Err(range()) } else { Ok(r) }
}

fn math() -> Value {
    let m = Module::new("math");
    f1(&m, "gamma", tgamma);
    m.set_attr("pi", Value::Float(std::f64::consts::PI));
    m.set_attr("e", Value::Float(std::f64::consts::E));
    m.set_attr("tau", Value::Float(std::f64::consts::TAU));
    m.set_attr("inf", Value::Float(f64::INFINITY));
    m.set_attr("nan", Value::Float(f64::NAN));
    f1(&m, "sqrt", |x| unless_outside(x < 0.0, x.sqrt()));
    f1(&m, "exp", |x| {
        let r = x.exp();
        if r.is_infinite() && x.is_finite() {
            Err(PyException::new(ExcType::OverflowError, "math range error"))
        } else {
            Ok(r)
        }
    });
    f1(&m, "log1p", |x| unless_outside(x <= -1.0, x.ln_1p()));
    f1(&m, "asin", |x| {
        unless_outside(!(-1.0..=1.0).contains(&x), x.asin())
    });
    f1(&m, "acos", |x| {
        unless_outside(!(-1.0..=1.0).contains(&x), x.acos())
    });
    // Defined for every float: no domain error to raise.
    for (name, f) in [
        ("expm1", f64::exp_m1 as fn(f64) -> f64),
        ("fabs", f64::abs),
        ("sin", f64::sin),
        ("cos", f64::cos),
        ("tan", f64::tan),
        ("atan", f64::atan),
        ("sinh", f64::sinh),
        ("cosh", f64::cosh),
        ("tanh", f64::tanh),
        ("degrees", f64::to_degrees),
        ("radians", f64::to_radians),
    ] {
        f1(&m, name, move |x| Ok(f(x)));
    }
    m.add_fn("log", |it, args| {
        let a = args.range("log", 1, 2)?;
        let x = log_of(it, &a[0], f64::ln)?;
        match a.get(1) {
            Some(b) => {
                let b = log_of(it, b, f64::ln)?;
                if b == 0.0 {
                    return Err(PyException::new(
                        ExcType::ZeroDivisionError,
                        "float division by zero",
                    ));
                }
                Ok(Value::Float(x / b))
            }
            None => Ok(Value::Float(x)),
        }
    });
    for (name, f) in [("log2", f64::log2 as fn(f64) -> f64), ("log10", f64::log10)] {
        one_arg(&m, name, move |it, v| Ok(Value::Float(log_of(it, v, f)?)));
    }
    for (name, f) in [
        ("floor", f64::floor as fn(f64) -> f64),
        ("ceil", f64::ceil),
        ("trunc", f64::trunc),
    ] {
        one_arg(&m, name, move |it, v| match v {
            Value::Int(_) | Value::Bool(_) => Ok(Value::Int(v.as_int().unwrap_or(0))),
            Value::BigInt(_) => Ok(v.clone()),
            v => to_int_checked(f(num(it, v)?)),
        });
    }
    f2(&m, "pow", |x, y| {
        unless_outside(x == 0.0 && y < 0.0, x.powf(y))
    });
    f2(&m, "atan2", |y, x| Ok(y.atan2(x)));
    m.add_fn("hypot", |it, args| {
        let mut s = 0.0f64;
        for v in &args.positional {
            let x = num(it, v)?;
            s += x * x;
        }
        Ok(Value::Float(s.sqrt()))
    });
    f2(&m, "copysign", |x, y| Ok(x.copysign(y)));
    f2(&m, "fmod", |x, y| unless_outside(y == 0.0, x % y));
    m.add_fn("modf", |it, args| {
        let a = args.exact("modf", 1)?;
        let x = num(it, &a[0])?;
        Ok(Value::tuple(vec![
            Value::Float(x.fract()),
            Value::Float(x.trunc()),
        ]))
    });
    for (name, test) in [
        ("isnan", f64::is_nan as fn(f64) -> bool),
        ("isinf", f64::is_infinite),
        ("isfinite", f64::is_finite),
    ] {
        one_arg(&m, name, move |it, v| Ok(Value::Bool(test(num(it, v)?))));
    }
    m.add_fn("isclose", |it, mut args| {
        let rel = args.take_kw("rel_tol");
        let abs = args.take_kw("abs_tol");
        let a = args.exact("isclose", 2)?;
        let (x, y) = (num(it, &a[0])?, num(it, &a[1])?);
        let rel = match rel {
            Some(v) => num(it, &v)?,
            None => 1e-9,
        };
        let abs = match abs {
            Some(v) => num(it, &v)?,
            None => 0.0,
        };
        if rel < 0.0 || abs < 0.0 {
            return Err(PyException::value_error("tolerances must be non-negative"));
        }
        if x == y {
            return Ok(Value::Bool(true));
        }
        if x.is_infinite() || y.is_infinite() {
            return Ok(Value::Bool(false));
        }
        let d = (x - y).abs();
        Ok(Value::Bool(
            d <= (rel * y.abs()).max(rel * x.abs()) || d <= abs,
        ))
    });
    m.add_fn("fsum", |it, args| {
        let a = args.exact("fsum", 1)?;
        // Neumaier summation: close to CPython's exactly rounded fsum for learner-sized inputs.
        let (mut s, mut c) = (0.0f64, 0.0f64);
        for v in it.iterate(&a[0])? {
            let x = num(it, &v)?;
            let t = s + x;
            if s.abs() >= x.abs() {
                c += (s - t) + x
            } else {
                c += (x - t) + s
            }
            s = t;
        }
        Ok(Value::Float(s + c))
    });
    m.add_fn("prod", |it, mut args| {
        let start = args.take_kw("start").unwrap_or(Value::Int(1));
        let a = args.exact("prod", 1)?;
        let mut acc = start;
        for v in it.iterate(&a[0])? {
            acc = it.binary_op(super::native::BinOp::Mul, &acc, &v)?;
        }
        Ok(acc)
    });
    one_arg(&m, "factorial", |_it, v| {
        let n = non_negative_int_arg(v, "factorial() not defined for negative values")?;
        let n = n
            .to_u64()
            .filter(|n| *n <= i64::MAX as u64)
            .ok_or_else(|| {
                PyException::new(
                    ExcType::OverflowError,
                    "factorial() argument should not exceed 9223372036854775807",
                )
            })?;
        super::bigint::value(checked_product(2, n)?)
    });
    m.add_fn("gcd", |_it, args| {
        let mut g = BigInt::from(0u32);
        for v in &args.positional {
            g = g.gcd(&int_arg(v)?);
        }
        super::bigint::value(g)
    });
    m.add_fn("lcm", |_it, args| {
        let mut l = BigInt::from(1u32);
        for v in &args.positional {
            let x = int_arg(v)?;
            if x.bits() + l.bits() > super::bigint::MAX_BITS {
                return Err(super::bigint::memory_error());
            }
            l = l.lcm(&x);
        }
        super::bigint::value(l)
    });
    one_arg(&m, "isqrt", |_it, v| {
        let n = non_negative_int_arg(v, "isqrt() argument must be nonnegative")?;
        super::bigint::value(num_integer::Roots::sqrt(&n))
    });
    for name in ["comb", "perm"] {
        m.add_fn(name, move |_it, args| {
            let a = args.range(name, 1, 2)?;
            let n = int_arg(&a[0])?;
            let k = match a.get(1) {
                Some(k) if !k.is_none() => int_arg(k)?,
                _ if name == "perm" => n.clone(),
                _ => return Err(PyException::type_error("comb expected 2 arguments, got 1")),
            };
            if n.sign() == Sign::Minus {
                return Err(PyException::value_error("n must be a non-negative integer"));
            }
            if k.sign() == Sign::Minus {
                return Err(PyException::value_error("k must be a non-negative integer"));
            }
            if k > n {
                return Ok(Value::Int(0));
            }
            let too_big = || {
                PyException::new(
                    ExcType::OverflowError,
                    format!("{name}() argument should not exceed 9223372036854775807"),
                )
            };
            let n = n
                .to_u64()
                .filter(|n| *n <= i64::MAX as u64)
                .ok_or_else(too_big)?;
            let k = k.to_u64().unwrap_or(0);
            let k = if name == "comb" { k.min(n - k) } else { k };
            let perm = checked_product(n - k + 1, n)?;
            if name == "perm" {
                return super::bigint::value(perm);
            }
            super::bigint::value(perm / range_product(2, k))
        });
    }
    m.into_value()
}

// ------------------------------------------------------------ random

// ------------------------------------------------------------ os

/// `os.environ`: a live view of [`Interpreter::env`].
struct Environ;

impl NativeObject for Environ {
    fn type_name(&self) -> &str {
        "_Environ"
    }
    fn getitem(&self, NativeCx { it, .. }: NativeCx<'_>, key: &Value) -> PyResult<Option<Value>> {
        let k = env_str(key)?;
        let v = it.env().borrow().get(&k).cloned();
        match v {
            Some(v) => Ok(Some(Value::string(v))),
            None => Err(it.key_error(key)),
        }
    }
    fn setitem(&self, NativeCx { it, .. }: NativeCx<'_>, key: &Value, v: Value) -> PyResult<bool> {
        let k = env_str(key)?;
        let v = match v {
            Value::Str(s) => s.to_string(),
            other => {
                return Err(PyException::type_error(format!(
                    "str expected, not {}",
                    other.type_name()
                )));
            }
        };
        it.putenv.borrow_mut().remove(&k);
        it.env().borrow_mut().insert(k, v);
        Ok(true)
    }
    fn delitem(&self, NativeCx { it, .. }: NativeCx<'_>, key: &Value) -> PyResult<bool> {
        let k = env_str(key)?;
        it.putenv.borrow_mut().remove(&k);
        let old = it.env().borrow_mut().remove(&k);
        match old {
            Some(_) => Ok(true),
            None => Err(it.key_error(key)),
        }
    }
    fn contains(&self, NativeCx { it, .. }: NativeCx<'_>, v: &Value) -> PyResult<Option<bool>> {
        Ok(Some(match v.as_str() {
            Some(k) => it.env().borrow().contains_key(k),
            None => false,
        }))
    }
    fn len(&self, NativeCx { it, .. }: NativeCx<'_>) -> PyResult<Option<usize>> {
        Ok(Some(it.env().borrow().len()))
    }
    fn iter(&self, NativeCx { it, .. }: NativeCx<'_>) -> PyResult<Option<Value>> {
        let keys = it.env().borrow().keys().map(|k| Value::str(k)).collect();
        Ok(Some(Value::iter_from_vec(keys)))
    }
    fn repr(&self, NativeCx { it, .. }: NativeCx<'_>) -> PyResult<Option<String>> {
        let items: Vec<String> = it
            .env()
            .borrow()
            .iter()
            .map(|(k, v)| {
                format!(
                    "{}: {}",
                    super::strfmt::str_repr(k),
                    super::strfmt::str_repr(v)
                )
            })
            .collect();
        Ok(Some(format!("environ({{{}}})", items.join(", "))))
    }
    fn plain_attr(&self, name: &str) -> Option<Value> {
        match name {
            "get" => Some(Value::native_fn("get", |it, args| {
                let a = args.range("get", 1, 2)?;
                let k = env_str(&a[0])?;
                let v = it.env().borrow().get(&k).cloned();
                Ok(v.map(Value::string)
                    .unwrap_or_else(|| a.get(1).cloned().unwrap_or(Value::None)))
            })),
            "setdefault" => Some(Value::native_fn("setdefault", |it, args| {
                let a = args.exact("setdefault", 2)?;
                let k = env_str(&a[0])?;
                let d = a[1].as_str().unwrap_or("").to_string();
                let v = it.env().borrow_mut().entry(k).or_insert(d).clone();
                Ok(Value::string(v))
            })),
            "pop" => Some(Value::native_fn("pop", |it, args| {
                let a = args.range("pop", 1, 2)?;
                let k = env_str(&a[0])?;
                let v = it.env().borrow_mut().remove(&k);
                match v {
                    Some(v) => Ok(Value::string(v)),
                    None => match a.get(1) {
                        Some(d) => Ok(d.clone()),
                        None => Err(it.key_error(&a[0])),
                    },
                }
            })),
            // update(mapping_or_pairs, **kw): each entry as os.environ[key] = value
            "update" => Some(Value::native_fn("update", |it, args| {
                let pairs = environ_update_pairs(it, args)?;
                for (k, v) in pairs {
                    let (k, v) = (env_str(&k)?, env_str(&v)?);
                    it.putenv.borrow_mut().remove(&k);
                    it.env().borrow_mut().insert(k, v);
                }
                Ok(Value::None)
            })),
            "copy" => Some(Value::native_fn("copy", |it, _args| {
                let pairs: Vec<(String, Value)> = it
                    .env()
                    .borrow()
                    .iter()
                    .map(|(k, v)| (k.clone(), Value::str(v)))
                    .collect();
                Ok(Value::dict_from_pairs(
                    pairs.iter().map(|(k, v)| (k.as_str(), v.clone())).collect(),
                ))
            })),
            "keys" => Some(Value::native_fn("keys", |it, _args| {
                Ok(Value::list(
                    it.env().borrow().keys().map(|k| Value::str(k)).collect(),
                ))
            })),
            "items" => Some(Value::native_fn("items", |it, _args| {
                Ok(Value::list(
                    it.env()
                        .borrow()
                        .iter()
                        .map(|(k, v)| Value::tuple(vec![Value::str(k), Value::str(v)]))
                        .collect(),
                ))
            })),
            _ => None,
        }
    }
}

/// The (key, value) pairs of `os.environ.update(...)`: a mapping or an iterable of pairs,
/// then keyword arguments, as `MutableMapping.update` takes them.
fn environ_update_pairs(it: &mut Interpreter, mut args: Args) -> PyResult<Vec<(Value, Value)>> {
    let keywords = std::mem::take(&mut args.keywords);
    let a = args.range("update", 0, 1)?;
    let mut pairs = Vec::new();
    if let Some(src) = a.first() {
        if let Value::Dict(d) = src {
            pairs.extend(d.borrow().iter().map(|(k, v)| (k.clone(), v.clone())));
        } else {
            for item in it.iterate(src)? {
                let kv = it.iterate(&item)?;
                let [k, v]: [Value; 2] = kv.try_into().map_err(|_| {
                    PyException::value_error("dictionary update sequence element has wrong length")
                })?;
                pairs.push((k, v));
            }
        }
    }
    for (k, v) in keywords {
        pairs.push((Value::str(&k), v));
    }
    Ok(pairs)
}

/// A key or a value of `os.environ`: CPython takes only a str for either, with one message.
fn env_str(key: &Value) -> PyResult<String> {
    match key {
        Value::Str(s) => Ok(s.to_string()),
        other => Err(PyException::type_error(format!(
            "str expected, not {}",
            other.type_name()
        ))),
    }
}

fn os() -> Value {
    let m = Module::new("os");
    m.set_attr("environ", Value::native(Environ));
    m.set_attr("name", Value::str("posix"));
    m.set_attr("sep", Value::str("/"));
    // putenv/unsetenv change the process environment (what CUDA reads at its start) and
    // not os.environ, as in CPython
    m.add_fn("putenv", |it, args| {
        let a = args.exact("putenv", 2)?;
        let (k, v) = (env_str(&a[0])?, env_str(&a[1])?);
        it.putenv.borrow_mut().insert(k, Some(v));
        Ok(Value::None)
    });
    m.add_fn("unsetenv", |it, args| {
        let a = args.exact("unsetenv", 1)?;
        let k = env_str(&a[0])?;
        it.putenv.borrow_mut().insert(k, None);
        Ok(Value::None)
    });
    // the machine's logical CPUs, as CPython's os.cpu_count()
    m.add_fn("cpu_count", |_it, args| {
        args.exact("cpu_count", 0)?;
        Ok(std::thread::available_parallelism()
            .map(|n| Value::Int(n.get() as i64))
            .unwrap_or(Value::None))
    });
    m.add_fn("getenv", |it, args| {
        let a = args.range("getenv", 1, 2)?;
        let k = env_str(&a[0])?;
        let v = it.env().borrow().get(&k).cloned();
        Ok(v.map(Value::string)
            .unwrap_or_else(|| a.get(1).cloned().unwrap_or(Value::None)))
    });
    m.into_value()
}

/// `os`: the environment from Rust, the file functions from the in-memory file system (`_fs`),
/// which is imported at the first call of one: `import os` for `os.environ` (torch reads the
/// thread count there at its first `torch.cat`) compiled the file system and six of its
/// functions. The functions are builtins here, as CPython's are (but `makedirs`).
fn os_module(_it: &mut Interpreter) -> PyResult<Value> {
    let m = os();
    if let Value::Module(om) = &m {
        for (name, fs_name) in [
            ("makedirs", "makedirs"),
            ("mkdir", "mkdir"),
            ("listdir", "listdir"),
            ("remove", "remove"),
            ("unlink", "remove"),
            ("rmdir", "rmdir"),
            ("getcwd", "getcwd"),
        ] {
            om.add_fn(name, move |it, args| {
                let fs = it.import_module("_fs")?;
                let f = it.getattr(&fs, fs_name)?;
                it.call(&f, args)
            });
        }
    }
    Ok(m)
}

// ------------------------------------------------------------ time

#[derive(Clone, Copy)]
enum CpuClock {
    Process,
    Thread,
}

/// CPU time used by the process or by this thread (`time.process_time`, `time.thread_time`).
#[cfg(unix)]
fn cpu_time(clock: CpuClock) -> Duration {
    let id = match clock {
        CpuClock::Process => libc::CLOCK_PROCESS_CPUTIME_ID,
        CpuClock::Thread => libc::CLOCK_THREAD_CPUTIME_ID,
    };
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; clock_gettime only writes it.
    if unsafe { libc::clock_gettime(id, &mut ts) } != 0 {
        return Duration::ZERO;
    }
    Duration::new(
        ts.tv_sec.max(0) as u64,
        ts.tv_nsec.clamp(0, 999_999_999) as u32,
    )
}

/// Without a CPU clock to read: the time since the process's first call.
#[cfg(not(unix))]
fn cpu_time(_clock: CpuClock) -> Duration {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START.get_or_init(std::time::Instant::now).elapsed()
}

fn time() -> Value {
    let m = Module::new("time");
    m.add_fn("time", |it, _args| {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or(Duration::ZERO)
            + it.slept;
        Ok(Value::Float(now.as_secs_f64()))
    });
    for name in ["perf_counter", "monotonic"] {
        m.add_fn(name, |it, _args| {
            Ok(Value::Float(
                (it.started.elapsed() + it.slept).as_secs_f64(),
            ))
        });
    }
    for name in ["perf_counter_ns", "monotonic_ns"] {
        m.add_fn(name, |it, _args| {
            Ok(Value::Int(
                (it.started.elapsed() + it.slept).as_nanos() as i64
            ))
        });
    }
    // CPU time, as CPython reads it: a (virtual) sleep does not count, nor does waiting for a
    // core on a loaded machine.
    m.add_fn("process_time", |_, _| {
        Ok(Value::Float(cpu_time(CpuClock::Process).as_secs_f64()))
    });
    m.add_fn("process_time_ns", |_, _| {
        Ok(Value::Int(cpu_time(CpuClock::Process).as_nanos() as i64))
    });
    m.add_fn("thread_time", |_, _| {
        Ok(Value::Float(cpu_time(CpuClock::Thread).as_secs_f64()))
    });
    m.add_fn("thread_time_ns", |_, _| {
        Ok(Value::Int(cpu_time(CpuClock::Thread).as_nanos() as i64))
    });
    m.add_fn("sleep", |it, args| {
        let a = args.exact("sleep", 1)?;
        let s = num(it, &a[0])?;
        if s < 0.0 {
            return Err(PyException::value_error(
                "sleep length must be non-negative",
            ));
        }
        // Never block the learner's run: the clock moves, the thread does not.
        if s.is_finite() {
            it.slept += Duration::from_secs_f64(s.min(1e6));
        }
        Ok(Value::None)
    });
    let _ = Args::default();
    m.into_value()
}

#[cfg(test)]
mod deferring_tests {
    use super::{DEFERRING, PRELUDES};
    use crate::script::{Interpreter, Limits};

    /// stdout (or the traceback) of `src` with the deferring preludes loaded as `install`
    /// loads them, and with each run whole at import (the reference).
    fn deferred_and_whole(src: &str) -> (String, String) {
        let run = |whole: bool| {
            let mut it = Interpreter::new(Limits::default());
            if whole {
                for &(name, prelude) in PRELUDES.iter().filter(|(n, _)| DEFERRING.contains(n)) {
                    it.register_module(
                        name,
                        Box::new(move |it| it.module_from_source(name, prelude)),
                    );
                }
            }
            match it.run_main(src, "deferring.py") {
                Ok(()) => it.take_stdout(),
                Err(e) => format!("{}FAILED: {}", it.take_stdout(), e.traceback),
            }
        };
        (run(false), run(true))
    }

    #[test]
    fn deferred_standard_modules_define_what_the_whole_modules_define() {
        for module in DEFERRING {
            let script = format!(
                "import {module} as m\n\
                 for n in dir(m):\n\
                 \x20   v = getattr(m, n)\n\
                 \x20   plain = v is None or isinstance(v, (bool, int, float, str, tuple, list, dict))\n\
                 \x20   print(n, type(v).__name__, getattr(v, '__qualname__', ''), getattr(v, '__module__', ''), repr(v) if plain else '')\n\
                 \x20   if isinstance(v, type):\n\
                 \x20       print('  mro', [c.__name__ for c in v.__mro__], sorted(vars(v)))\n"
            );
            let (deferred, whole) = deferred_and_whole(&script);
            assert!(whole.lines().count() > 5, "{module}: {whole}");
            assert!(!whole.contains("FAILED"), "{module}: {whole}");
            assert_eq!(deferred, whole, "{module}");
        }
    }

    #[test]
    fn deferred_standard_modules_behave_and_fail_as_the_whole_modules_do() {
        for script in [
            "from collections import OrderedDict, defaultdict, Counter, deque, namedtuple\n\
             P = namedtuple('P', 'x y')\nd = defaultdict(list)\nd[1].append(2)\n\
             print(P(1, 2), d, Counter('abca').most_common(1), deque([1, 2], maxlen=1), OrderedDict(a=1))\n",
            "import functools\n@functools.lru_cache(maxsize=None)\ndef f(n):\n    return n if n < 2 else f(n - 1) + f(n - 2)\n\
             print(f(20), f.cache_info(), functools.reduce(lambda a, b: a * b, [1, 2, 3]), functools.partial(max, 1)(2))\n",
            "import argparse\np = argparse.ArgumentParser(formatter_class=argparse.RawDescriptionHelpFormatter)\n\
             p.add_argument('--lr', type=float, default=0.1)\nprint(p.parse_args(['--lr', '2']), argparse.Namespace(a=1))\n\
             print(argparse.RawTextHelpFormatter is argparse.HelpFormatter)\n",
            "import argparse\np = argparse.ArgumentParser()\np.add_argument('--n', type=int)\np.parse_args(['--n', 'x'])\n",
            "from collections import Counter\nCounter(1)\n",
            "import collections\ncollections.OrderedDcit\n",
            "from functools import *\nfrom collections import *\nprint(sorted(k for k in globals() if not k.startswith('_')))\n",
            "import collections\ncollections.deque = 5\nprint(collections.deque, 'deque' in dir(collections))\n",
        ] {
            let (deferred, whole) = deferred_and_whole(script);
            assert_eq!(deferred, whole, "{script}");
        }
    }
}
