//! Numbers as PyTorch's messages print them: a C++ `ostream <<` of a double (the `%g` rule
//! with 6 significant digits) in ATen's, Python's `repr(float)` in torch's Python code.

/// `std::cout << x` with default formatting: `1`, `0.5`, `-2.5`, `1e+06`, `3.40282e+38`.
pub fn cpp_double(x: f64) -> String {
    if let Some(special) = nan_inf_or_zero(x, "0") {
        return special;
    }
    let sci = format!("{x:.5e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if !(-4..6).contains(&exp) {
        let m = strip_zeros(mantissa);
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{m}e{sign}{:02}", exp.abs())
    } else {
        let decimals = (5 - exp).max(0) as usize;
        strip_zeros(&format!("{x:.decimals$}")).to_string()
    }
}

/// Python's `repr(x)` of a float: the shortest digits that round-trip, fixed notation for
/// exponents -4..16, else `d.ddde+XX`.
pub(super) fn py_float_repr(x: f64) -> String {
    if let Some(special) = nan_inf_or_zero(x, "0.0") {
        return special;
    }
    // Rust's `{:e}` prints the shortest round-trip digits: "-1.5e-7".
    let sci = format!("{x:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let negative = mantissa.starts_with('-');
    let digits: String = mantissa.chars().filter(|c| c.is_ascii_digit()).collect();
    let sign = if negative { "-" } else { "" };
    if (-4..16).contains(&exp) {
        let point = exp + 1;
        let body = if point <= 0 {
            format!("0.{}{}", "0".repeat((-point) as usize), digits)
        } else if point as usize >= digits.len() {
            format!("{}{}.0", digits, "0".repeat(point as usize - digits.len()))
        } else {
            format!(
                "{}.{}",
                &digits[..point as usize],
                &digits[point as usize..]
            )
        };
        format!("{sign}{body}")
    } else {
        let m = if digits.len() > 1 {
            format!("{}.{}", &digits[..1], &digits[1..])
        } else {
            digits
        };
        let esign = if exp < 0 { '-' } else { '+' };
        format!("{sign}{m}e{esign}{:02}", exp.abs())
    }
}

fn strip_zeros(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

/// The values both formats spell out rather than format: "nan", "inf", "-inf" and the
/// zeros (`zero`, with a "-" when negative); None for every other value.
fn nan_inf_or_zero(x: f64, zero: &str) -> Option<String> {
    if x.is_nan() {
        Some("nan".to_string())
    } else if x.is_infinite() {
        Some(if x > 0.0 { "inf" } else { "-inf" }.to_string())
    } else if x == 0.0 {
        Some(if x.is_sign_negative() {
            format!("-{zero}")
        } else {
            zero.to_string()
        })
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::{cpp_double, py_float_repr};

    #[test]
    fn matches_python_repr() {
        assert_eq!(py_float_repr(1.5), "1.5");
        assert_eq!(py_float_repr(2.0), "2.0");
        assert_eq!(py_float_repr(-0.1), "-0.1");
        assert_eq!(py_float_repr(1e-5), "1e-05");
        assert_eq!(py_float_repr(0.0001), "0.0001");
        assert_eq!(py_float_repr(1e16), "1e+16");
        assert_eq!(py_float_repr(123456789012345.0), "123456789012345.0");
        assert_eq!(py_float_repr(0.1 + 0.2), "0.30000000000000004");
    }

    #[test]
    fn matches_printf_g() {
        assert_eq!(cpp_double(1.0), "1");
        assert_eq!(cpp_double(0.5), "0.5");
        assert_eq!(cpp_double(-2.5), "-2.5");
        assert_eq!(cpp_double(1e6), "1e+06");
        assert_eq!(cpp_double(123456.0), "123456");
        assert_eq!(cpp_double(1234567.0), "1.23457e+06");
        assert_eq!(cpp_double(f32::MAX as f64), "3.40282e+38");
        assert_eq!(cpp_double(0.0001), "0.0001");
        assert_eq!(cpp_double(0.00001), "1e-05");
        assert_eq!(cpp_double(0.1 + 0.2), "0.3");
        assert_eq!(cpp_double(999999.5), "1e+06");
        assert_eq!(cpp_double(-1.5e-7), "-1.5e-07");
    }
}
