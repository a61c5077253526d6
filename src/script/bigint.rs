//! Arbitrary-precision ints beside the `i64` fast path.
//!
//! `Value::Int(i64)` holds every int that fits 64 bits; `Value::BigInt(Rc<BigInt>)` holds the
//! others, and only those (so two equal ints always have the same representation and `HKey`).
//! The i64 operators in `interp/ops.rs` use `checked_*` and come here only when a result
//! overflows; everything here demotes results that fit back to `Value::Int`.
//!
//! Limits (what CPython does not bound, but a tutorial must): a result of more than
//! [`MAX_BITS`] bits raises `MemoryError` before it is computed where its size is known in
//! advance (`**`, `<<`, `*`), so `10**10**10` and `1 << 10**12` fail at once instead of
//! exhausting memory. Decimal conversion honours CPython 3.11's `int_max_str_digits` (4300).

use std::cmp::Ordering;
use std::rc::Rc;

use num_bigint::{BigInt, BigUint, Sign};
use num_integer::Integer;
use num_traits::{FromPrimitive, One, Signed, ToPrimitive, Zero};

use super::errors::{PyException, PyResult};
use super::native::BinOp;
use super::value::Value;
use crate::script::ExcType;

/// The largest int a script may build: 2**20 bits (128 KiB, about 315 000 decimal digits).
/// Far beyond what exercises need (2**1000000 fits), small enough that one multiplication or
/// division of such numbers stays well under the run's wall-time limit in a debug build.
pub(crate) const MAX_BITS: u64 = 1 << 20;

/// CPython 3.11's default `sys.get_int_max_str_digits()`.
pub(crate) const MAX_STR_DIGITS: usize = 4300;

pub(crate) fn memory_error() -> PyException {
    PyException::new(ExcType::MemoryError, "")
}

fn float_overflow() -> PyException {
    PyException::new(ExcType::OverflowError, "int too large to convert to float")
}

/// A BigInt as a value: `Int` when it fits 64 bits; MemoryError past [`MAX_BITS`].
pub(crate) fn value(b: BigInt) -> PyResult<Value> {
    if let Some(i) = b.to_i64() {
        return Ok(Value::Int(i));
    }
    if b.bits() > MAX_BITS {
        return Err(memory_error());
    }
    Ok(Value::BigInt(Rc::new(b)))
}

/// An i128 as a value (`Int` when it fits).
pub(crate) fn from_i128(v: i128) -> Value {
    match i64::try_from(v) {
        Ok(i) => Value::Int(i),
        Err(_) => Value::BigInt(Rc::new(BigInt::from(v))),
    }
}

/// Any int value (bool, int, big int) as an i128, if it fits.
pub(crate) fn to_i128(v: &Value) -> Option<i128> {
    match v {
        Value::Int(i) => Some(*i as i128),
        Value::Bool(b) => Some(*b as i128),
        Value::BigInt(b) => b.to_i128(),
        _ => None,
    }
}

/// Any int value (bool, int, big int) as a BigInt.
pub(crate) fn to_big(v: &Value) -> Option<BigInt> {
    match v {
        Value::Int(i) => Some(BigInt::from(*i)),
        Value::Bool(b) => Some(BigInt::from(*b as i64)),
        Value::BigInt(b) => Some((**b).clone()),
        _ => None,
    }
}

/// True for int-like builtin values (bool, int, big int).
pub(crate) fn is_int(v: &Value) -> bool {
    matches!(v, Value::Int(_) | Value::Bool(_) | Value::BigInt(_))
}

/// `a <op> b` for ints of any size (the i64 path's overflow lands here too).
pub(crate) fn int_op(op: BinOp, a: &BigInt, b: &BigInt) -> PyResult<Value> {
    match op {
        BinOp::Add => value(a + b),
        BinOp::Sub => value(a - b),
        BinOp::Mul => {
            if a.is_zero() || b.is_zero() {
                return Ok(Value::Int(0));
            }
            if a.bits() + b.bits() - 1 > MAX_BITS {
                return Err(memory_error());
            }
            value(a * b)
        }
        BinOp::TrueDiv => Ok(Value::Float(true_div(a, b)?)),
        BinOp::FloorDiv => {
            nonzero_divisor(b, "integer division or modulo by zero")?;
            value(a.div_floor(b))
        }
        BinOp::Mod => {
            nonzero_divisor(b, "integer modulo by zero")?;
            value(a.mod_floor(b))
        }
        BinOp::Pow => pow(a, b),
        BinOp::LShift => {
            non_negative_shift(b)?;
            if a.is_zero() {
                return Ok(Value::Int(0));
            }
            match b.to_u64() {
                Some(n) if a.bits().saturating_add(n) <= MAX_BITS => value(a << n),
                _ => Err(memory_error()),
            }
        }
        BinOp::RShift => {
            non_negative_shift(b)?;
            match b.to_u64() {
                // BigInt's >> rounds toward negative infinity, as Python's does.
                Some(n) if n < a.bits() => value(a >> n),
                _ => Ok(Value::Int(if a.is_negative() { -1 } else { 0 })),
            }
        }
        BinOp::And => value(a & b),
        BinOp::Or => value(a | b),
        BinOp::Xor => value(a ^ b),
        BinOp::MatMul => Err(PyException::new(
            ExcType::TypeError,
            "unsupported operand type(s) for @: 'int' and 'int'",
        )),
    }
}

/// CPython's ZeroDivisionError for a zero right operand; each operator words it its own way.
fn nonzero_divisor(b: &BigInt, message: &str) -> PyResult<()> {
    if b.is_zero() {
        return Err(PyException::new(ExcType::ZeroDivisionError, message));
    }
    Ok(())
}

/// `<<` and `>>` refuse a negative count alike.
fn non_negative_shift(b: &BigInt) -> PyResult<()> {
    if b.is_negative() {
        return Err(PyException::new(
            ExcType::ValueError,
            "negative shift count",
        ));
    }
    Ok(())
}

fn pow(a: &BigInt, b: &BigInt) -> PyResult<Value> {
    if b.is_negative() {
        // CPython hands int ** negative int to float's power.
        let (x, y) = (to_f64(a)?, to_f64(b)?);
        if x == 0.0 {
            return Err(PyException::new(
                ExcType::ZeroDivisionError,
                "0.0 cannot be raised to a negative power",
            ));
        }
        return Ok(Value::Float(x.powf(y)));
    }
    if b.is_zero() {
        return Ok(Value::Int(1));
    }
    let mag = a.magnitude();
    if mag.is_zero() || mag.is_one() {
        let odd = b.is_odd();
        return Ok(Value::Int(if a.is_negative() && odd {
            -1
        } else if mag.is_zero() {
            0
        } else {
            1
        }));
    }
    // |a| >= 2: the result has at least (bits(a) - 1) * b + 1 bits.
    let e = match b.to_u64() {
        Some(e) if e <= MAX_BITS => e,
        _ => return Err(memory_error()),
    };
    if (mag.bits() - 1).saturating_mul(e) + 1 > MAX_BITS {
        return Err(memory_error());
    }
    value(a.pow(e as u32))
}

/// `pow(a, e, m)` with CPython's semantics (negative exponents use the modular inverse).
/// `check` is called between steps of a long exponentiation (the run's time limit).
pub(crate) fn pow_mod(
    a: &BigInt,
    e: &BigInt,
    m: &BigInt,
    check: &mut dyn FnMut() -> PyResult<()>,
) -> PyResult<Value> {
    if m.is_zero() {
        return Err(PyException::new(
            ExcType::ValueError,
            "pow() 3rd argument cannot be 0",
        ));
    }
    let neg_m = m.is_negative();
    let mm = m.abs();
    let mut base = a.mod_floor(&mm);
    let mut e = e.clone();
    if e.is_negative() {
        base = mod_inverse(&base, &mm).ok_or_else(|| {
            PyException::new(
                ExcType::ValueError,
                "base is not invertible for the given modulus",
            )
        })?;
        e = -e;
    }
    let mut r = BigInt::one() % &mm;
    let nbits = e.bits();
    // One step with a modulus of 10^300000 takes hundreds of milliseconds: then every step
    // polls, so the limit holds within one step; small moduli poll every 64.
    let every = if mm.bits() > 4096 { 1 } else { 64 };
    for i in (0..nbits).rev() {
        if i % every == 0 {
            check()?;
        }
        r = (&r * &r) % &mm;
        if e.bit(i) {
            r = (&r * &base) % &mm;
        }
    }
    if neg_m && !r.is_zero() {
        r -= &mm;
    }
    value(r)
}

fn mod_inverse(a: &BigInt, m: &BigInt) -> Option<BigInt> {
    let g = a.extended_gcd(m);
    if !g.gcd.is_one() {
        return None;
    }
    Some(g.x.mod_floor(m))
}

/// `-a` for a value already known not to fit i64 or to overflow it.
pub(crate) fn neg(a: &BigInt) -> PyResult<Value> {
    value(-a)
}

/// Python's `float(int)`: correctly rounded (half to even), OverflowError past the float range.
pub(crate) fn to_f64(a: &BigInt) -> PyResult<f64> {
    let bits = a.bits();
    if bits <= 64 {
        let m = a.magnitude().to_u64().unwrap_or(0) as f64;
        return Ok(if a.is_negative() { -m } else { m });
    }
    if bits > 1025 {
        return Err(float_overflow());
    }
    // The top 64 bits, with the bits shifted out folded into the lowest one (a sticky bit),
    // round exactly as the whole number would; scaling by a power of two is then exact.
    let shift = bits - 64;
    let mag = a.magnitude();
    let mut top = (mag >> shift).to_u64().unwrap_or(u64::MAX);
    if mag.trailing_zeros().unwrap_or(0) < shift {
        top |= 1;
    }
    let f = ldexp(top as f64, shift as i32);
    if f.is_infinite() {
        return Err(float_overflow());
    }
    Ok(if a.is_negative() { -f } else { f })
}

/// `x * 2**e`, exact whenever the result is representable.
fn ldexp(mut x: f64, mut e: i32) -> f64 {
    while e > 1000 {
        x *= 2f64.powi(1000);
        e -= 1000;
    }
    while e < -1000 {
        x *= 2f64.powi(-1000);
        e += 1000;
    }
    x * 2f64.powi(e)
}

/// Python's `a / b` for ints: correctly rounded (CPython's `long_true_divide`).
pub(crate) fn true_div(a: &BigInt, b: &BigInt) -> PyResult<f64> {
    const MANT: i64 = f64::MANTISSA_DIGITS as i64; // 53
    const MIN_EXP: i64 = f64::MIN_EXP as i64; // -1021
    const MAX_EXP: i64 = f64::MAX_EXP as i64; // 1024
    nonzero_divisor(b, "division by zero")?;
    let negate = a.is_negative() != b.is_negative();
    let signed = |f: f64| if negate { -f } else { f };
    let overflow = || {
        PyException::new(
            ExcType::OverflowError,
            "integer division result too large for a float",
        )
    };
    let (a, b) = (a.magnitude(), b.magnitude());
    if a.is_zero() {
        return Ok(signed(0.0));
    }
    let (a_bits, b_bits) = (a.bits() as i64, b.bits() as i64);
    if a_bits <= MANT && b_bits <= MANT {
        let (x, y) = (
            a.to_u64().unwrap_or(0) as f64,
            b.to_u64().unwrap_or(1) as f64,
        );
        return Ok(signed(x / y));
    }
    let diff = a_bits - b_bits;
    if diff > MAX_EXP {
        return Err(overflow());
    }
    if diff < MIN_EXP - MANT - 1 {
        return Ok(signed(0.0));
    }
    let shift = diff.max(MIN_EXP) - MANT - 2;
    let mut inexact = false;
    let x: BigUint = if shift <= 0 {
        a << ((-shift) as u64)
    } else {
        if a.trailing_zeros().unwrap_or(0) < shift as u64 {
            inexact = true;
        }
        a >> (shift as u64)
    };
    let (q, r) = x.div_rem(b);
    if !r.is_zero() {
        inexact = true;
    }
    let x_bits = q.bits() as i64;
    let extra_bits = x_bits.max(MIN_EXP - shift) - MANT;
    // q has at most MANT + 3 bits here.
    let mut low = q.to_u64().unwrap_or(0);
    if !(1..=62).contains(&extra_bits) {
        return Err(overflow());
    }
    let mask = 1u64 << (extra_bits - 1);
    let lo = low | inexact as u64;
    if (lo & mask) != 0 && (lo & (3 * mask - 1)) != 0 {
        low += mask;
    }
    low &= !(2 * mask - 1);
    let dx = low as f64;
    if shift + x_bits >= MAX_EXP && (shift + x_bits > MAX_EXP || dx == ldexp(1.0, x_bits as i32)) {
        return Err(overflow());
    }
    Ok(signed(ldexp(dx, shift as i32)))
}

/// `i / j` for i64s: exact operands go straight to float division.
pub(crate) fn i64_true_div(a: i64, b: i64) -> PyResult<f64> {
    const EXACT: u64 = 1 << 53;
    if b == 0 {
        return Err(PyException::new(
            ExcType::ZeroDivisionError,
            "division by zero",
        ));
    }
    if a.unsigned_abs() <= EXACT && b.unsigned_abs() <= EXACT {
        return Ok(a as f64 / b as f64);
    }
    true_div(&BigInt::from(a), &BigInt::from(b))
}

/// Exact comparison of an int with a float, as CPython does (`None` when `f` is NaN).
pub(crate) fn cmp_int_float(a: &BigInt, f: f64) -> Option<Ordering> {
    if f.is_nan() {
        return None;
    }
    if f.is_infinite() {
        return Some(if f > 0.0 {
            Ordering::Less
        } else {
            Ordering::Greater
        });
    }
    let fl = f.floor();
    let fb = BigInt::from_f64(fl)?;
    Some(match a.cmp(&fb) {
        Ordering::Equal if f != fl => Ordering::Less,
        o => o,
    })
}

/// [`cmp_int_float`] for an i64 (no allocation when the int is exactly a float).
pub(crate) fn cmp_i64_float(a: i64, f: f64) -> Option<Ordering> {
    if a.unsigned_abs() <= 1 << 53 {
        return (a as f64).partial_cmp(&f);
    }
    cmp_int_float(&BigInt::from(a), f)
}

const HASH_MODULUS: u64 = (1 << 61) - 1;

/// CPython's hash of an int: |a| modulo 2**61 - 1 with a's sign (-1 becomes -2).
pub(crate) fn hash(a: &BigInt) -> i64 {
    let m = (a.magnitude() % BigUint::from(HASH_MODULUS))
        .to_u64()
        .unwrap_or(0) as i64;
    let h = if a.is_negative() { -m } else { m };
    if h == -1 { -2 } else { h }
}

fn str_digits_error() -> PyException {
    PyException::new(
        ExcType::ValueError,
        format!(
            "Exceeds the limit ({MAX_STR_DIGITS} digits) for integer string conversion; \
             use sys.set_int_max_str_digits() to increase the limit"
        ),
    )
}

/// The decimal digits of |a| (no sign), with CPython's 4300-digit limit.
pub(crate) fn decimal_magnitude(a: &BigInt) -> PyResult<String> {
    // A number of b bits has at least floor((b - 1) * log10(2)) + 1 digits.
    if (a.bits().saturating_sub(1)) as f64 * std::f64::consts::LOG10_2 >= MAX_STR_DIGITS as f64 {
        return Err(str_digits_error());
    }
    let s = a.magnitude().to_str_radix(10);
    if s.len() > MAX_STR_DIGITS {
        return Err(str_digits_error());
    }
    Ok(s)
}

/// `str(a)` / `repr(a)`.
pub(crate) fn to_decimal(a: &BigInt) -> PyResult<String> {
    let m = decimal_magnitude(a)?;
    Ok(if a.is_negative() { format!("-{m}") } else { m })
}

/// The digits of |v| in `radix` for any int value (no prefix, no sign), and its sign.
pub(crate) fn radix_magnitude(v: &Value, radix: u32) -> Option<(String, bool)> {
    match v {
        Value::Int(i) => {
            let m = i.unsigned_abs();
            Some((
                match radix {
                    16 => format!("{m:x}"),
                    8 => format!("{m:o}"),
                    2 => format!("{m:b}"),
                    _ => m.to_string(),
                },
                *i < 0,
            ))
        }
        Value::Bool(b) => Some(((*b as u8).to_string(), false)),
        Value::BigInt(b) => Some((b.magnitude().to_str_radix(radix), b.is_negative())),
        _ => None,
    }
}

/// `int(f)` for a finite float of any size.
pub(crate) fn from_f64(f: f64) -> PyResult<Value> {
    if f.is_nan() {
        return Err(PyException::new(
            ExcType::ValueError,
            "cannot convert float NaN to integer",
        ));
    }
    if f.is_infinite() {
        return Err(PyException::new(
            ExcType::OverflowError,
            "cannot convert float infinity to integer",
        ));
    }
    let t = f.trunc();
    const TWO63: f64 = 9_223_372_036_854_775_808.0; // 2**63, exact
    if (-TWO63..TWO63).contains(&t) {
        return Ok(Value::Int(t as i64));
    }
    value(BigInt::from_f64(t).unwrap_or_default())
}

/// Why `int(str)` failed.
#[derive(Debug, PartialEq)]
pub(crate) enum ParseError {
    Invalid,
    /// More decimal digits than CPython's limit: how many.
    TooManyDigits(usize),
}

impl ParseError {
    pub(crate) fn into_exception(self, s: &str, base: u32) -> PyException {
        match self {
            ParseError::Invalid => PyException::new(
                ExcType::ValueError,
                format!(
                    "invalid literal for int() with base {base}: {}",
                    super::strfmt::str_repr(s)
                ),
            ),
            ParseError::TooManyDigits(n) => {
                PyException::new(ExcType::ValueError, too_many_digits(n))
            }
        }
    }
}

fn too_many_digits(n: usize) -> String {
    format!(
        "Exceeds the limit ({MAX_STR_DIGITS} digits) for integer string conversion: value has \
         {n} digits; use sys.set_int_max_str_digits() to increase the limit"
    )
}

/// `int(s, base)` with CPython's syntax: surrounding whitespace, a sign, a `0x`/`0o`/`0b`
/// prefix (base 0 or the matching base), single underscores between digits (and after the
/// prefix); base 0 rejects leading zeros of a nonzero decimal. `base` is 0 or 2..=36.
pub(crate) fn parse(s: &str, base: u32) -> Result<Value, ParseError> {
    let base_zero = base == 0;
    let t = s.trim();
    let (neg, t) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let lower = |i: usize| t.as_bytes().get(i).map(|c| c.to_ascii_lowercase());
    let prefixed = lower(0) == Some(b'0');
    let (body, base, had_prefix) = match (base, lower(1)) {
        (0 | 16, Some(b'x')) if prefixed => (&t[2..], 16, true),
        (0 | 8, Some(b'o')) if prefixed => (&t[2..], 8, true),
        (0 | 2, Some(b'b')) if prefixed => (&t[2..], 2, true),
        (0, _) => (t, 10, false),
        (b, _) => (t, b, false),
    };
    // Underscores: single, between digits, or right after a prefix.
    let bytes = body.as_bytes();
    if bytes.is_empty() || bytes.last() == Some(&b'_') || (bytes[0] == b'_' && !had_prefix) {
        return Err(ParseError::Invalid);
    }
    let mut digits = Vec::with_capacity(bytes.len());
    let mut prev_us = false;
    for &c in bytes {
        if c == b'_' {
            if prev_us {
                return Err(ParseError::Invalid);
            }
            prev_us = true;
            continue;
        }
        prev_us = false;
        let d = (c as char).to_digit(36).ok_or(ParseError::Invalid)?;
        if d >= base {
            return Err(ParseError::Invalid);
        }
        digits.push(d as u8);
    }
    if digits.is_empty() {
        return Err(ParseError::Invalid);
    }
    if base_zero
        && !had_prefix
        && digits.len() > 1
        && digits[0] == 0
        && digits.iter().any(|d| *d != 0)
    {
        // `int("010", 0)` is invalid: only zeros may lead a decimal in base 0.
        return Err(ParseError::Invalid);
    }
    if !base.is_power_of_two() && digits.len() > MAX_STR_DIGITS {
        return Err(ParseError::TooManyDigits(digits.len()));
    }
    if digits.len() <= 12 {
        let mut v: i64 = 0;
        for d in &digits {
            v = v * base as i64 + *d as i64;
        }
        return Ok(Value::Int(if neg { -v } else { v }));
    }
    let mag = BigUint::from_radix_be(&digits, base).ok_or(ParseError::Invalid)?;
    let b = BigInt::from_biguint(if neg { Sign::Minus } else { Sign::Plus }, mag);
    value(b).map_err(|_| ParseError::Invalid)
}

/// An int literal from the parser that does not fit u64 (its token text: decimal digits,
/// or `0x…`/`0o…`/`0b…`, possibly with underscores).
pub(crate) fn from_literal(token: &str) -> PyResult<Value> {
    let t: String = token.chars().filter(|c| *c != '_').collect();
    let lower = t.to_ascii_lowercase();
    let (body, radix) = if let Some(r) = lower.strip_prefix("0x") {
        (r.to_string(), 16)
    } else if let Some(r) = lower.strip_prefix("0o") {
        (r.to_string(), 8)
    } else if let Some(r) = lower.strip_prefix("0b") {
        (r.to_string(), 2)
    } else {
        (lower, 10)
    };
    if radix == 10 && body.len() > MAX_STR_DIGITS {
        // CPython reports it as a SyntaxError on the literal's line.
        return Err(PyException::new(
            ExcType::SyntaxError,
            format!(
                "{} - Consider hexadecimal for huge integer literals to avoid decimal \
                 conversion limits.",
                too_many_digits(body.len())
            ),
        ));
    }
    let b = BigInt::parse_bytes(body.as_bytes(), radix).ok_or_else(|| {
        PyException::new(
            ExcType::SyntaxError,
            format!("invalid integer literal {token}"),
        )
    })?;
    value(b)
}

/// The exact integer nearest `a` rounded to `-nd` decimal places (`round(a, nd)`, nd < 0),
/// ties to even, as CPython does.
pub(crate) fn round_neg(a: &BigInt, nd: u64) -> PyResult<Value> {
    if nd as f64 * std::f64::consts::LOG2_10 > a.bits() as f64 + 4.0 {
        return Ok(Value::Int(0));
    }
    let p = BigInt::from(10u32).pow(nd as u32);
    let (q, r) = a.div_mod_floor(&p);
    let twice = &r * 2u32;
    let q = match twice.cmp(&p) {
        Ordering::Greater => q + 1u32,
        Ordering::Equal if q.is_odd() => q + 1u32,
        _ => q,
    };
    value(q * p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn big(s: &str) -> BigInt {
        s.parse().unwrap()
    }

    #[test]
    fn demotes_and_caps() {
        assert!(matches!(value(BigInt::from(5)), Ok(Value::Int(5))));
        assert!(matches!(
            value(big("9223372036854775808")),
            Ok(Value::BigInt(_))
        ));
        assert!(value(BigInt::one() << (MAX_BITS + 1)).is_err());
        assert!(int_op(BinOp::LShift, &BigInt::one(), &big("1000000000000")).is_err());
        assert!(
            int_op(
                BinOp::Pow,
                &BigInt::from(10),
                &BigInt::from(10_000_000_000u64)
            )
            .is_err()
        );
    }

    #[test]
    fn float_conversion_rounds_half_even() {
        // 2**64 + 2**11 is halfway between two floats: ties to the even one (2**64).
        let h = (BigInt::one() << 64u32) + (BigInt::one() << 11u32);
        assert_eq!(to_f64(&h).unwrap(), 2f64.powi(64));
        // One more pushes it up.
        let h1 = &h + 1u32 + (BigInt::one() << 70u32);
        assert_eq!(to_f64(&h1).unwrap(), 2f64.powi(64) + 2f64.powi(70) + 4096.0);
        assert!(to_f64(&(BigInt::one() << 1024u32)).is_err());
        assert!(
            to_f64(&((BigInt::one() << 1024u32) - 1u32)).is_err(),
            "2**1024 - 1 rounds to 2**1024"
        );
    }

    #[test]
    fn parse_follows_cpython() {
        assert_eq!(
            parse("  -1_000 ", 10).ok().and_then(|v| v.as_int()),
            Some(-1000)
        );
        assert!(parse("1__0", 10).is_err());
        assert!(parse("_1", 10).is_err());
        assert!(parse("--1", 10).is_err());
        assert_eq!(parse("0x_ff", 0).ok().and_then(|v| v.as_int()), Some(255));
        assert_eq!(parse("010", 0).err(), Some(ParseError::Invalid));
        assert_eq!(parse("00", 0).ok().and_then(|v| v.as_int()), Some(0));
        assert_eq!(parse("010", 10).ok().and_then(|v| v.as_int()), Some(10));
        assert_eq!(
            parse(&"1".repeat(4301), 10).err(),
            Some(ParseError::TooManyDigits(4301))
        );
        assert!(parse(&"1".repeat(5000), 16).is_ok());
    }
}
