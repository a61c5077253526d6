//! Text formatting with CPython's exact output: float repr (shortest round-trip, exponent
//! rules), string repr (quote choice, escapes), format specs (`{x:>8.3f}`), `%`-formatting and
//! `str.format`.

use super::errors::{PyException, PyResult};
use super::interp::Interpreter;
use super::value::Value;
use crate::script::ExcType;
use crate::script::NativeCx;

/// Shortest round-trip digits and decimal exponent of a finite nonzero float:
/// value = 0.d1d2d3… × 10^exp  (returned as digits "d1d2…" and exp such that
/// the first digit is at position 10^(exp-1)).
fn shortest_digits(f: f64) -> (String, i32) {
    // Rust's `{:e}` prints the shortest representation that round-trips.
    let s = format!("{:e}", f.abs());
    let (mant, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mant.chars().filter(|c| c.is_ascii_digit()).collect();
    let digits = digits.trim_end_matches('0').to_string();
    let digits = if digits.is_empty() {
        "0".to_string()
    } else {
        digits
    };
    // Only floats whose shortest form has 16 or more digits can sit exactly halfway between
    // two shortest candidates (the spacing of doubles is about 1e-16 relative).
    if digits.len() >= 16
        && let Some(even) = tie_to_even(f.abs(), &digits, exp + 1)
    {
        return (even, exp + 1);
    }
    (digits, exp + 1)
}

/// The exact decimal value of a finite positive double: its significant digits (no trailing
/// zeros) and the exponent `e` with value = 0.d1d2… × 10^e.
fn exact_digits(a: f64) -> (String, i32) {
    use num_bigint::BigUint;
    let bits = a.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1u64 << 52) - 1);
    let (m, e2) = if biased == 0 {
        (frac, -1074)
    } else {
        (frac | (1u64 << 52), biased - 1075)
    };
    // a = m × 2^e2 = num × 10^-scale
    let (num, scale) = if e2 >= 0 {
        (BigUint::from(m) << (e2 as u32), 0)
    } else {
        (
            BigUint::from(m) * BigUint::from(5u32).pow((-e2) as u32),
            -e2,
        )
    };
    let s = num.to_string();
    let exp = s.len() as i32 - scale;
    (s.trim_end_matches('0').to_string(), exp)
}

/// CPython's repr (David Gay's shortest mode) breaks an exact tie between two shortest
/// candidates towards the even last digit; Rust's `{:e}` rounds such a tie up
/// (2**-25 is `2.9802322387695312e-08` in CPython, `…313e-08` from Rust). When `a` lies
/// exactly halfway between the two `digits.len()`-digit candidates, this returns the even one
/// if it also reads back as `a`.
fn tie_to_even(a: f64, digits: &str, exp: i32) -> Option<String> {
    let n = digits.len();
    let (exact, exact_exp) = exact_digits(a);
    if exact.len() != n + 1 || !exact.ends_with('5') || exact_exp != exp {
        return None;
    }
    let low = &exact[..n];
    let last = low.bytes().last()? - b'0';
    if last.is_multiple_of(2) {
        return (low != digits && reads_back(low, exp, a)).then(|| low.to_string());
    }
    // The upper candidate: `low` plus one in its last place (a carry would make it shorter,
    // and a shorter form would already have been found).
    let mut up = low.as_bytes().to_vec();
    let pos = up.iter().rposition(|&b| b != b'9')?;
    up[pos] += 1;
    for b in up.iter_mut().skip(pos + 1) {
        *b = b'0';
    }
    let up = String::from_utf8(up).ok()?;
    (up != digits && !up.ends_with('0') && reads_back(&up, exp, a)).then_some(up)
}

fn reads_back(digits: &str, exp: i32, a: f64) -> bool {
    format!("0.{digits}e{exp}").parse::<f64>() == Ok(a)
}

/// `repr(float)` exactly as CPython prints it.
pub fn float_repr(f: f64) -> String {
    if f.is_nan() {
        return "nan".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "inf".into() } else { "-inf".into() };
    }
    if f == 0.0 {
        return if f.is_sign_negative() {
            "-0.0".into()
        } else {
            "0.0".into()
        };
    }
    let sign = if f < 0.0 { "-" } else { "" };
    let (digits, exp) = shortest_digits(f);
    // CPython's repr uses scientific notation when exp10 < -4 or >= 16.
    let e10 = exp - 1;
    if !(-4..16).contains(&e10) {
        let (first, rest) = digits.split_at(1);
        let mant = if rest.is_empty() {
            first.to_string()
        } else {
            format!("{first}.{rest}")
        };
        let es = if e10 < 0 {
            format!("-{:02}", -e10)
        } else {
            format!("+{e10:02}")
        };
        return format!("{sign}{mant}e{es}");
    }
    let n = digits.len() as i32;
    let body = if exp <= 0 {
        format!("0.{}{}", "0".repeat((-exp) as usize), digits)
    } else if exp >= n {
        format!("{}{}.0", digits, "0".repeat((exp - n) as usize))
    } else {
        let (a, b) = digits.split_at(exp as usize);
        format!("{a}.{b}")
    };
    format!("{sign}{body}")
}

/// `repr(str)`: single quotes unless the text has a `'` and no `"`.
pub(crate) fn str_repr(s: &str) -> String {
    let q = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(q);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == q => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push(q);
    out
}

/// A parsed format spec: `[[fill]align][sign][#][0][width][,|_][.precision][type]`.
#[derive(Default, Debug)]
struct Spec {
    fill: Option<char>,
    align: Option<char>,
    sign: Option<char>,
    alt: bool,
    zero: bool,
    width: Option<usize>,
    grouping: Option<char>,
    precision: Option<usize>,
    ty: Option<char>,
}

fn bad_spec(spec: &str) -> PyException {
    PyException::new(
        ExcType::ValueError,
        format!("Invalid format specifier '{spec}'"),
    )
}

fn parse_spec(spec: &str) -> PyResult<Spec> {
    let cs: Vec<char> = spec.chars().collect();
    let mut s = Spec::default();
    let mut i = 0;
    let is_align = |c: char| matches!(c, '<' | '>' | '^' | '=');
    if cs.len() >= 2 && is_align(cs[1]) {
        s.fill = Some(cs[0]);
        s.align = Some(cs[1]);
        i = 2;
    } else if !cs.is_empty() && is_align(cs[0]) {
        s.align = Some(cs[0]);
        i = 1;
    }
    if let Some(&c) = cs.get(i)
        && matches!(c, '+' | '-' | ' ')
    {
        s.sign = Some(c);
        i += 1;
    }
    if cs.get(i) == Some(&'#') {
        s.alt = true;
        i += 1;
    }
    if cs.get(i) == Some(&'0') {
        s.zero = true;
        i += 1;
    }
    let start = i;
    while cs.get(i).is_some_and(|c| c.is_ascii_digit()) {
        i += 1;
    }
    if i > start {
        let w: String = cs[start..i].iter().collect();
        s.width = Some(w.parse().map_err(|_| bad_spec(spec))?);
        if s.width.unwrap_or(0) > 10_000 {
            return Err(PyException::new(
                ExcType::ValueError,
                "Too many decimal digits in format string",
            ));
        }
    }
    if let Some(&c) = cs.get(i)
        && (c == ',' || c == '_')
    {
        s.grouping = Some(c);
        i += 1;
    }
    if cs.get(i) == Some(&'.') {
        i += 1;
        let st = i;
        while cs.get(i).is_some_and(|c| c.is_ascii_digit()) {
            i += 1;
        }
        if i == st {
            return Err(PyException::new(
                ExcType::ValueError,
                "Format specifier missing precision",
            ));
        }
        let p: String = cs[st..i].iter().collect();
        let p: usize = p.parse().map_err(|_| bad_spec(spec))?;
        if p > 1000 {
            return Err(PyException::new(ExcType::ValueError, "precision too big"));
        }
        s.precision = Some(p);
    }
    if let Some(&c) = cs.get(i) {
        s.ty = Some(c);
        i += 1;
    }
    if i != cs.len() {
        return Err(bad_spec(spec));
    }
    Ok(s)
}

fn group(int_part: &str, sep: char, every: usize) -> String {
    let digits: Vec<char> = int_part.chars().collect();
    let mut out = String::new();
    for (i, c) in digits.iter().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(every) {
            out.push(sep);
        }
        out.push(*c);
    }
    out
}

/// The fill and alignment in effect: the `0` flag means fill `0` unless a fill is given, and
/// `=` alignment for numbers unless an alignment is given (CPython's format-spec parser).
fn fill_align(s: &Spec, default_align: char) -> (char, char) {
    let fill = s.fill.unwrap_or(if s.zero { '0' } else { ' ' });
    let align = s.align.unwrap_or(if s.zero && default_align == '>' {
        '='
    } else {
        default_align
    });
    (fill, align)
}

/// Digits grouped with `sep` every `every`; when the number is zero-padded (`010,`), the
/// padding zeros are grouped too and the result grows to at least `width` (CPython).
fn group_padded(digits: &str, sep: char, every: usize, s: &Spec, used: usize) -> String {
    let target = s.width.unwrap_or(0).saturating_sub(used);
    let mut d = digits.to_string();
    let mut out = group(&d, sep, every);
    if fill_align(s, '>') == ('0', '=') {
        while out.chars().count() < target {
            d.insert(0, '0');
            out = group(&d, sep, every);
        }
    }
    out
}

/// CPython's check of the thousands separator against the presentation type.
fn check_grouping(s: &Spec) -> PyResult<()> {
    let Some(g) = s.grouping else {
        return Ok(());
    };
    let ok = match s.ty {
        None | Some('d' | 'e' | 'f' | 'g' | 'E' | 'G' | '%' | 'F') => true,
        Some('b' | 'o' | 'x' | 'X') => g == '_',
        _ => false,
    };
    if ok {
        return Ok(());
    }
    Err(PyException::new(
        ExcType::ValueError,
        format!("Cannot specify '{g}' with '{}'.", s.ty.unwrap_or('s')),
    ))
}

/// Pad `body` (sign separate, for `=` alignment and zero padding).
fn pad(sign: &str, body: &str, s: &Spec, default_align: char) -> String {
    let width = s.width.unwrap_or(0);
    let len = sign.chars().count() + body.chars().count();
    if len >= width {
        return format!("{sign}{body}");
    }
    let n = width - len;
    let (fill, align) = fill_align(s, default_align);
    let f = |k: usize| fill.to_string().repeat(k);
    match align {
        '<' => format!("{sign}{body}{}", f(n)),
        '^' => format!("{}{sign}{body}{}", f(n / 2), f(n - n / 2)),
        '=' => format!("{sign}{}{body}", f(n)),
        _ => format!("{}{sign}{body}", f(n)),
    }
}

/// `%e`-style exponent fixup: Rust prints `1.5e3`, Python `1.5e+03`.
fn fix_exp(s: &str) -> String {
    match s.split_once('e') {
        Some((m, e)) => {
            let (sign, digits) = if let Some(d) = e.strip_prefix('-') {
                ('-', d)
            } else {
                ('+', e)
            };
            format!("{m}e{sign}{:0>2}", digits)
        }
        None => s.to_string(),
    }
}

/// Format a float with a type char (f, e, g, %, or None for the repr-like default).
/// The `#` alternate form: a decimal point even when no digits follow it (`2.E+19`, `0.`).
fn with_point(s: String) -> String {
    if s.contains('.') {
        return s;
    }
    match s.find(['e', 'E', '%']) {
        Some(k) => format!("{}.{}", &s[..k], &s[k..]),
        None => format!("{s}."),
    }
}

fn format_float(f: f64, ty: Option<char>, prec: Option<usize>, alt: bool) -> String {
    // 'n' is 'g' in the C locale CPython runs in.
    let ty = if ty == Some('n') { Some('g') } else { ty };
    let s = format_float_inner(f, ty, prec, alt);
    if alt && f.is_finite() {
        with_point(s)
    } else {
        s
    }
}

fn format_float_inner(f: f64, ty: Option<char>, prec: Option<usize>, alt: bool) -> String {
    if f.is_nan() {
        return if ty.is_some_and(|t| t.is_ascii_uppercase()) {
            "NAN".into()
        } else {
            "nan".into()
        };
    }
    if f.is_infinite() {
        let s = if ty.is_some_and(|t| t.is_ascii_uppercase()) {
            "INF"
        } else {
            "inf"
        };
        return s.into();
    }
    let a = f.abs();
    match ty {
        Some('f') | Some('F') => format!("{:.*}", prec.unwrap_or(6), a),
        Some('e') | Some('E') => {
            let s = fix_exp(&format!("{:.*e}", prec.unwrap_or(6), a));
            if ty == Some('E') { s.to_uppercase() } else { s }
        }
        Some('%') => format!("{:.*}%", prec.unwrap_or(6), a * 100.0),
        Some('g') | Some('G') => {
            let p = prec.unwrap_or(6).max(1);
            let s = general(a, p, alt);
            if ty == Some('G') { s.to_uppercase() } else { s }
        }
        None => match prec {
            // With a precision and no type: like 'g' but always at least one digit after '.'.
            Some(p) => general_repr(a, p.max(1), alt),
            None => float_repr(a),
        },
        Some(_) => float_repr(a),
    }
}

/// The 'g' presentation: precision p significant digits, scientific if exp < -4 or >= p.
/// No type but a precision (`format(x, '.3')`): like 'g', but scientific from exponent p - 1
/// on, and a fixed result keeps at least one digit after the point.
fn general_repr(a: f64, p: usize, alt: bool) -> String {
    let e = format!("{:.*e}", p - 1, a);
    let (m, x) = e.split_once('e').unwrap_or((&e, "0"));
    let exp: i32 = x.parse().unwrap_or(0);
    let trim = |m: &str| -> String {
        if alt || !m.contains('.') {
            m.to_string()
        } else {
            m.trim_end_matches('0').trim_end_matches('.').to_string()
        }
    };
    if exp < -4 || exp >= p as i32 - 1 {
        let es = if exp < 0 {
            format!("-{:02}", -exp)
        } else {
            format!("+{exp:02}")
        };
        format!("{}e{es}", trim(m))
    } else {
        let decimals = (p as i32 - 1 - exp).max(0) as usize;
        let s = trim(&format!("{:.*}", decimals, a));
        if s.contains('.') { s } else { format!("{s}.0") }
    }
}

fn general(a: f64, p: usize, alt: bool) -> String {
    if a == 0.0 {
        return if alt {
            format!("{:.*}", p - 1, 0.0)
        } else {
            "0".into()
        };
    }
    let e = format!("{:.*e}", p - 1, a);
    let exp: i32 = e
        .split_once('e')
        .and_then(|(_, x)| x.parse().ok())
        .unwrap_or(0);
    if exp < -4 || exp >= p as i32 {
        let (m, _) = e.split_once('e').unwrap_or((&e, ""));
        let m = if alt || !m.contains('.') {
            m.to_string()
        } else {
            m.trim_end_matches('0').trim_end_matches('.').to_string()
        };
        let es = if exp < 0 {
            format!("-{:02}", -exp)
        } else {
            format!("+{exp:02}")
        };
        format!("{m}e{es}")
    } else {
        let decimals = (p as i32 - 1 - exp).max(0) as usize;
        let s = format!("{:.*}", decimals, a);
        if alt || !s.contains('.') {
            s
        } else {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        }
    }
}

/// `format(v, spec)` for builtin values.
pub(crate) fn format_spec(it: &mut Interpreter, v: &Value, spec: &str) -> PyResult<String> {
    if spec.is_empty() {
        return it.str(v);
    }
    let s = parse_spec(spec)?;
    match v {
        Value::Bool(_) | Value::Int(_) | Value::BigInt(_)
            if !matches!(s.ty, Some('e' | 'E' | 'f' | 'F' | 'g' | 'G' | '%')) =>
        {
            check_grouping(&s)?;
            if let Value::Bool(b) = v
                && s.ty.is_none()
            {
                return Ok(pad("", if *b { "True" } else { "False" }, &s, '<'));
            }
            if s.precision.is_some() {
                return Err(PyException::new(
                    ExcType::ValueError,
                    "Precision not allowed in integer format specifier",
                ));
            }
            let digits = |radix: u32| -> PyResult<(String, bool)> {
                match v {
                    Value::BigInt(b) if radix == 10 => Ok((
                        crate::script::bigint::decimal_magnitude(b)?,
                        b.sign() == num_bigint::Sign::Minus,
                    )),
                    _ => Ok(crate::script::bigint::radix_magnitude(v, radix).unwrap_or_default()),
                }
            };
            let ((body, neg), prefix) = match s.ty {
                None | Some('d') | Some('n') => (digits(10)?, ""),
                Some('x') => (digits(16)?, "0x"),
                Some('X') => {
                    let (d, n) = digits(16)?;
                    ((d.to_ascii_uppercase(), n), "0X")
                }
                Some('o') => (digits(8)?, "0o"),
                Some('b') => (digits(2)?, "0b"),
                Some('c') => {
                    if s.sign.is_some() {
                        return Err(PyException::new(
                            ExcType::ValueError,
                            "Sign not allowed with integer format specifier 'c'",
                        ));
                    }
                    if s.alt {
                        return Err(PyException::new(
                            ExcType::ValueError,
                            "Alternate form (#) not allowed with integer format specifier 'c'",
                        ));
                    }
                    if let Value::BigInt(_) = v {
                        return Err(PyException::new(
                            ExcType::OverflowError,
                            "Python int too large to convert to C long",
                        ));
                    }
                    let c = v
                        .as_int()
                        .and_then(|i| u32::try_from(i).ok())
                        .and_then(char::from_u32)
                        .ok_or_else(|| {
                            PyException::new(
                                ExcType::OverflowError,
                                "%c arg not in range(0x110000)",
                            )
                        })?;
                    return Ok(pad("", &c.to_string(), &s, '>'));
                }
                Some(t) => {
                    return Err(PyException::new(
                        ExcType::ValueError,
                        format!(
                            "Unknown format code '{t}' for object of type '{}'",
                            v.type_name()
                        ),
                    ));
                }
            };
            let sign = sign_str(neg, s.sign);
            let sign = if s.alt {
                format!("{sign}{prefix}")
            } else {
                sign.to_string()
            };
            let body = match s.grouping {
                Some(g) => {
                    let every = if matches!(s.ty, Some('x' | 'X' | 'o' | 'b')) {
                        4
                    } else {
                        3
                    };
                    group_padded(&body, g, every, &s, sign.chars().count())
                }
                None => body,
            };
            Ok(pad(&sign, &body, &s, '>'))
        }
        Value::Int(_) | Value::Float(_) | Value::Bool(_) | Value::BigInt(_) => {
            check_grouping(&s)?;
            let f = match v {
                Value::BigInt(b) => crate::script::bigint::to_f64(b)?,
                _ => v.as_float().unwrap_or(0.0),
            };
            if let Some(t) = s.ty
                && !matches!(t, 'e' | 'E' | 'f' | 'F' | 'g' | 'G' | '%' | 'n')
            {
                return Err(PyException::new(
                    ExcType::ValueError,
                    format!(
                        "Unknown format code '{t}' for object of type '{}'",
                        v.type_name()
                    ),
                ));
            }
            let body = format_float(f, s.ty, s.precision, s.alt);
            let neg = f.is_sign_negative() && !f.is_nan();
            let sign = sign_str(neg, s.sign);
            let body = match s.grouping {
                Some(g) => {
                    let (ip, rest) = match body.find(|c: char| !c.is_ascii_digit()) {
                        Some(k) => body.split_at(k),
                        None => (body.as_str(), ""),
                    };
                    let used = sign.len() + rest.chars().count();
                    format!("{}{}", group_padded(ip, g, 3, &s, used), rest)
                }
                None => body,
            };
            Ok(pad(sign, &body, &s, '>'))
        }
        Value::Str(st) => {
            if let Some(t) = s.ty
                && t != 's'
            {
                return Err(PyException::new(
                    ExcType::ValueError,
                    format!("Unknown format code '{t}' for object of type 'str'"),
                ));
            }
            if s.sign.is_some() {
                return Err(PyException::new(
                    ExcType::ValueError,
                    "Sign not allowed in string format specifier",
                ));
            }
            let body: String = match s.precision {
                Some(p) => st.chars().take(p).collect(),
                None => st.to_string(),
            };
            Ok(pad("", &body, &s, '<'))
        }
        Value::None | Value::List(_) | Value::Tuple(_) | Value::Dict(_) => {
            let text = it.str(v)?;
            if s.ty.is_some() || s.precision.is_some() || s.sign.is_some() {
                return Err(PyException::new(
                    ExcType::TypeError,
                    format!(
                        "unsupported format string passed to {}.__format__",
                        v.type_name()
                    ),
                ));
            }
            Ok(pad("", &text, &s, '<'))
        }
        _ => {
            let text = it.str(v)?;
            Ok(pad("", &text, &s, '<'))
        }
    }
}

fn sign_str(neg: bool, sign: Option<char>) -> &'static str {
    if neg {
        "-"
    } else {
        match sign {
            Some('+') => "+",
            Some(' ') => " ",
            _ => "",
        }
    }
}

/// The next positional argument of a `%` format, counted off by `ai`.
fn next_argument(items: &[Value], ai: &mut usize) -> PyResult<Value> {
    let v = items.get(*ai).cloned().ok_or_else(|| {
        PyException::new(ExcType::TypeError, "not enough arguments for format string")
    })?;
    *ai += 1;
    Ok(v)
}

/// The argument a `*` width or precision takes; CPython names the C type it would not fit
/// (`ssize_t` for a width, `int` for a precision).
fn star_argument(items: &[Value], ai: &mut usize, c_type: &str) -> PyResult<i64> {
    let v = next_argument(items, ai)?;
    if let Value::BigInt(_) = v {
        return Err(PyException::new(
            ExcType::OverflowError,
            format!("Python int too large to convert to C {c_type}"),
        ));
    }
    v.as_int()
        .ok_or_else(|| PyException::new(ExcType::TypeError, "* wants int"))
}

/// `fmt % args`.
pub(crate) fn percent_format(it: &mut Interpreter, fmt: &str, args: &Value) -> PyResult<String> {
    let (items, mapping): (Vec<Value>, Option<Value>) = match args {
        Value::Tuple(t) => ((**t).clone(), None),
        Value::Dict(_) => (vec![args.clone()], Some(args.clone())),
        other => (vec![other.clone()], None),
    };
    let mut out = String::new();
    let cs: Vec<char> = fmt.chars().collect();
    let mut i = 0;
    let mut ai = 0;
    while i < cs.len() {
        let c = cs[i];
        if c != '%' {
            out.push(c);
            i += 1;
            continue;
        }
        i += 1;
        if cs.get(i) == Some(&'%') {
            out.push('%');
            i += 1;
            continue;
        }
        let mut key_val = None;
        if cs.get(i) == Some(&'(') {
            let st = i + 1;
            let mut j = st;
            while j < cs.len() && cs[j] != ')' {
                j += 1;
            }
            let key: String = cs[st..j.min(cs.len())].iter().collect();
            i = j + 1;
            let m = mapping
                .clone()
                .ok_or_else(|| PyException::new(ExcType::TypeError, "format requires a mapping"))?;
            key_val = Some(it.getitem(&m, &Value::string(key))?);
        }
        let st = i;
        while i < cs.len() && matches!(cs[i], '-' | '+' | ' ' | '#' | '0') {
            i += 1;
        }
        let mut flags: String = cs[st..i].iter().collect();
        let mut width = String::new();
        let mut wide: Option<u64> = None;
        if cs.get(i) == Some(&'*') {
            // `%*d`: the width is the next argument.
            i += 1;
            let w = star_argument(&items, &mut ai, "ssize_t")?;
            // CPython pads to any width it can allocate; past the spec parser's digits the
            // padding is added below, after the budget says yes
            if w.unsigned_abs() > 10_000 {
                wide = Some(w.unsigned_abs());
            } else {
                width = w.unsigned_abs().to_string();
            }
            if w < 0 {
                flags.push('-');
            }
        } else {
            while i < cs.len() && cs[i].is_ascii_digit() {
                width.push(cs[i]);
                i += 1;
            }
        }
        let mut prec = None;
        if cs.get(i) == Some(&'.') {
            i += 1;
            let mut p = String::new();
            if cs.get(i) == Some(&'*') {
                // `%.*f`: the precision is the next argument
                i += 1;
                let n = star_argument(&items, &mut ai, "int")?;
                p = n.clamp(0, 10_000).to_string();
            }
            while i < cs.len() && cs[i].is_ascii_digit() {
                p.push(cs[i]);
                i += 1;
            }
            prec = Some(p);
        }
        let Some(&ty) = cs.get(i) else {
            return Err(PyException::new(ExcType::ValueError, "incomplete format"));
        };
        i += 1;
        let v = match key_val {
            Some(v) => v,
            None => next_argument(&items, &mut ai)?,
        };
        let mut spec = String::new();
        let left = flags.contains('-');
        if left {
            spec.push('<');
        }
        if flags.contains('+') {
            spec.push('+');
        } else if flags.contains(' ') {
            spec.push(' ');
        }
        if flags.contains('#') {
            spec.push('#');
        }
        if flags.contains('0') && !left && ty != 's' && ty != 'r' {
            spec.push('0');
        }
        spec.push_str(&width);
        let text = match ty {
            's' | 'r' | 'a' => {
                let s = if ty == 's' { it.str(&v)? } else { it.repr(&v)? };
                let s: String = match &prec {
                    Some(p) => s.chars().take(p.parse().unwrap_or(0)).collect(),
                    None => s,
                };
                // %-formatting right-aligns strings unless '-' is given.
                let spec = if left { spec } else { format!(">{spec}") };
                format_spec(it, &Value::string(s), &spec)?
            }
            'd' | 'i' | 'u' => {
                let n = match &v {
                    Value::Float(f) => crate::script::bigint::from_f64(*f)?,
                    Value::Int(_) | Value::Bool(_) => Value::Int(v.as_int().unwrap_or(0)),
                    Value::BigInt(_) => v.clone(),
                    other => {
                        let native = match other {
                            Value::Native(n) => n.to_int(NativeCx::new(n, it))?,
                            _ => None,
                        };
                        match native {
                            Some(i) => Value::Int(i),
                            None => {
                                return Err(PyException::new(
                                    ExcType::TypeError,
                                    format!(
                                        "%{ty} format: a real number is required, not {}",
                                        other.type_name()
                                    ),
                                ));
                            }
                        }
                    }
                };
                format_spec(it, &n, &spec)?
            }
            'x' | 'X' | 'o' => {
                if !crate::script::bigint::is_int(&v) {
                    return Err(PyException::new(
                        ExcType::TypeError,
                        format!(
                            "%{ty} format: an integer is required, not {}",
                            v.type_name()
                        ),
                    ));
                }
                let n = v.clone();
                spec.push(ty);
                format_spec(it, &n, &spec)?
            }
            'f' | 'F' | 'e' | 'E' | 'g' | 'G' => {
                if let Value::BigInt(b) = &v {
                    crate::script::bigint::to_f64(b)?;
                }
                // a native number (a one-element tensor) converts through its __float__
                let native = match &v {
                    Value::Native(n) if v.as_float().is_none() => {
                        n.to_float(NativeCx::new(n, it))?
                    }
                    _ => None,
                };
                let f = v.as_float().or(native).ok_or_else(|| {
                    PyException::new(
                        ExcType::TypeError,
                        format!("must be real number, not {}", v.type_name()),
                    )
                })?;
                spec.push('.');
                spec.push_str(prec.as_deref().filter(|p| !p.is_empty()).unwrap_or("6"));
                spec.push(ty);
                format_spec(it, &Value::Float(f), &spec)?
            }
            'c' => match &v {
                Value::Str(s) if s.chars().count() == 1 => s.to_string(),
                Value::Str(_) => {
                    return Err(PyException::new(
                        ExcType::TypeError,
                        "%c requires int or char",
                    ));
                }
                other => {
                    if let Value::BigInt(_) = other {
                        return Err(PyException::new(
                            ExcType::OverflowError,
                            "%c arg not in range(0x110000)",
                        ));
                    }
                    let n = other.as_int().ok_or_else(|| {
                        PyException::new(ExcType::TypeError, "%c requires int or char")
                    })?;
                    u32::try_from(n)
                        .ok()
                        .and_then(char::from_u32)
                        .map(|c| c.to_string())
                        .ok_or_else(|| {
                            PyException::new(
                                ExcType::OverflowError,
                                "%c arg not in range(0x110000)",
                            )
                        })?
                }
            },
            other => {
                return Err(PyException::new(
                    ExcType::ValueError,
                    format!(
                        "unsupported format character '{other}' (0x{:x}) at index {}",
                        other as u32,
                        i - 1
                    ),
                ));
            }
        };
        match wide {
            Some(w) => pad_wide(
                &mut out,
                &text,
                w,
                flags.contains('-'),
                flags.contains('0') && !matches!(ty, 's' | 'r' | 'a' | 'c'),
            )?,
            None => out.push_str(&text),
        }
    }
    if mapping.is_none() && ai < items.len() {
        return Err(PyException::new(
            ExcType::TypeError,
            "not all arguments converted during string formatting",
        ));
    }
    Ok(out)
}

/// `text` padded to `width` characters (`%*d` with a width past the spec parser's): spaces
/// on the right (`-`), zeros after the sign (`0`), else spaces on the left; MemoryError when
/// the run's budget has no room for the string, as CPython's allocation would fail.
fn pad_wide(out: &mut String, text: &str, width: u64, left: bool, zeros: bool) -> PyResult<()> {
    let len = text.chars().count() as u64;
    let pad = width.saturating_sub(len);
    let total = (out.len() as u64)
        .saturating_add(text.len() as u64)
        .saturating_add(pad);
    if total > super::interp::MAX_STR as u64 {
        return Err(super::interp::memory_error());
    }
    super::interp::budget_for::<u8>(total as usize)?;
    let pad = pad as usize;
    if left {
        out.push_str(text);
        out.extend(std::iter::repeat_n(' ', pad));
    } else if zeros {
        let digits = text.trim_start_matches(['-', '+', ' ']);
        out.push_str(&text[..text.len() - digits.len()]);
        out.extend(std::iter::repeat_n('0', pad));
        out.push_str(digits);
    } else {
        out.extend(std::iter::repeat_n(' ', pad));
        out.push_str(text);
    }
    Ok(())
}

/// `"...".format(*args, **kwargs)`.
pub(crate) fn str_format(
    it: &mut Interpreter,
    fmt: &str,
    args: &[Value],
    kwargs: &[(String, Value)],
) -> PyResult<String> {
    let cs: Vec<char> = fmt.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    let mut auto = 0usize;
    while i < cs.len() {
        let c = cs[i];
        if c == '{' {
            if cs.get(i + 1) == Some(&'{') {
                out.push('{');
                i += 2;
                continue;
            }
            // Find the matching close brace (nested braces inside the spec are allowed).
            let mut depth = 1;
            let mut j = i + 1;
            while j < cs.len() && depth > 0 {
                if cs[j] == '{' {
                    depth += 1;
                } else if cs[j] == '}' {
                    depth -= 1;
                }
                j += 1;
            }
            if depth != 0 {
                return Err(PyException::new(
                    ExcType::ValueError,
                    "Single '{' encountered in format string",
                ));
            }
            let field: String = cs[i + 1..j - 1].iter().collect();
            i = j;
            let (name_conv, spec) = match field.find(':') {
                Some(k) => (field[..k].to_string(), field[k + 1..].to_string()),
                None => (field.clone(), String::new()),
            };
            let (name, conv) = match name_conv.find('!') {
                Some(k) => (
                    name_conv[..k].to_string(),
                    name_conv[k + 1..].chars().next(),
                ),
                None => (name_conv, None),
            };
            // Nested replacement fields in the spec.
            let spec = if spec.contains('{') {
                str_format(it, &spec, args, kwargs)?
            } else {
                spec
            };
            let (head, rest) = match name.find(['.', '[']) {
                Some(k) => (name[..k].to_string(), name[k..].to_string()),
                None => (name.clone(), String::new()),
            };
            let mut v = if head.is_empty() {
                let v = args.get(auto).cloned().ok_or_else(|| {
                    PyException::new(
                        ExcType::IndexError,
                        format!("Replacement index {auto} out of range for positional args tuple"),
                    )
                })?;
                auto += 1;
                v
            } else if let Ok(n) = head.parse::<usize>() {
                args.get(n).cloned().ok_or_else(|| {
                    PyException::new(
                        ExcType::IndexError,
                        format!("Replacement index {n} out of range for positional args tuple"),
                    )
                })?
            } else {
                kwargs
                    .iter()
                    .find(|(k, _)| *k == head)
                    .map(|(_, v)| v.clone())
                    .ok_or_else(|| PyException::new(ExcType::KeyError, format!("'{head}'")))?
            };
            // Attribute and index access: {0.name} {0[1]}.
            let mut r = rest.as_str();
            while !r.is_empty() {
                if let Some(x) = r.strip_prefix('.') {
                    let end = x.find(['.', '[']).unwrap_or(x.len());
                    v = it.getattr(&v, &x[..end])?;
                    r = &x[end..];
                } else if let Some(x) = r.strip_prefix('[') {
                    let end = x.find(']').unwrap_or(x.len());
                    let key = &x[..end];
                    let k = match key.parse::<i64>() {
                        Ok(n) => Value::Int(n),
                        Err(_) => Value::str(key),
                    };
                    v = it.getitem(&v, &k)?;
                    r = x.get(end + 1..).unwrap_or("");
                } else {
                    break;
                }
            }
            let v = match conv {
                Some('r') | Some('a') => Value::string(it.repr(&v)?),
                Some('s') => Value::string(it.str(&v)?),
                _ => v,
            };
            out.push_str(&it.format_value(&v, &spec)?);
        } else if c == '}' {
            if cs.get(i + 1) == Some(&'}') {
                out.push('}');
                i += 2;
                continue;
            }
            return Err(PyException::new(
                ExcType::ValueError,
                "Single '}' encountered in format string",
            ));
        } else {
            out.push(c);
            i += 1;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::float_repr;

    #[test]
    fn float_reprs_match_cpython() {
        for (f, s) in [
            (1.0, "1.0"),
            (0.1, "0.1"),
            (1e16, "1e+16"),
            (1.5e-7, "1.5e-07"),
            (123456789012345.6, "123456789012345.6"),
            (1e15, "1000000000000000.0"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (-2.5, "-2.5"),
            (f64::INFINITY, "inf"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (5e-324, "5e-324"),
            (0.30000000000000004, "0.30000000000000004"),
        ] {
            assert_eq!(float_repr(f), s, "{f}");
        }
    }
}
