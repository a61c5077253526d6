//! numpy's array printing (numpy/_core/arrayprint.py defaults: precision 8, floatmode
//! 'maxprec', linewidth 75, threshold 1000, edgeitems 3), for what `t.numpy()` returns.

use super::dtype::{Category, DType, round_f16};

use std::cell::Cell;

/// `np.set_printoptions` state (numpy's defaults until changed; reset per run).
#[derive(Clone, Copy, Debug)]
pub(crate) struct PrintOptions {
    pub precision: usize,
    pub suppress: bool,
    pub linewidth: usize,
    pub threshold: usize,
    pub edgeitems: usize,
}

impl Default for PrintOptions {
    fn default() -> Self {
        PrintOptions {
            precision: 8,
            suppress: false,
            linewidth: 75,
            threshold: 1000,
            edgeitems: 3,
        }
    }
}

thread_local! {
    static OPTIONS: Cell<PrintOptions> = Cell::new(PrintOptions::default());
}

pub(crate) fn options() -> PrintOptions {
    OPTIONS.with(|o| o.get())
}

pub(crate) fn set_options(o: PrintOptions) {
    OPTIONS.with(|c| c.set(o));
}

/// Whether `a` and `b` are the same element of `dtype`.
fn same(dtype: DType, a: f64, b: f64) -> bool {
    match dtype {
        DType::Float32 => a as f32 == b as f32,
        DType::Float16 => round_f16(a) == round_f16(b),
        _ => a == b,
    }
}

/// The fewest digits `render(p)` (p = 0 to the precision) that read back as the same element
/// as `v`, Dragon4-unique style; `render(precision)` when none does.
fn shortest_unique(v: f64, dtype: DType, render: impl Fn(usize) -> String) -> String {
    let prec = options().precision;
    (0..=prec)
        .map(&render)
        .find(|c| c.parse::<f64>().is_ok_and(|x| same(dtype, x, v)))
        .unwrap_or_else(|| render(prec))
}

/// numpy's "2." form: a point added to a whole number, trailing fractional zeros trimmed.
fn trim_fraction(s: &mut String) {
    if !s.contains('.') {
        s.push('.');
    } else {
        while s.ends_with('0') {
            s.pop();
        }
    }
}

/// Positional digits of `v` (finite, |v| < 1e16): the fewest fractional digits (at most
/// `precision`) that read back as the same element, trailing zeros and nothing after the
/// point trimmed to "2." form.
fn positional(v: f64, dtype: DType) -> String {
    let mut s = shortest_unique(v, dtype, |p| format!("{v:.p$}"));
    trim_fraction(&mut s);
    if s == "-0." && v == 0.0 && !v.is_sign_negative() {
        s = "0.".into();
    }
    s
}

/// Scientific digits: (mantissa "1.5", exponent -5), mantissa digits unique up to the
/// precision.
fn scientific(v: f64, dtype: DType) -> (String, i32) {
    let s = shortest_unique(v, dtype, |p| format!("{v:.p$e}"));
    let (m, e) = s.split_once('e').expect("an exponent");
    let mut m = m.to_string();
    trim_fraction(&mut m);
    (m, e.parse().expect("exponent digits"))
}

enum Fmt {
    Int(usize),
    Bool,
    Float(FloatFmt),
}

/// How numpy lays out the floats of one array (FloatingFormat's widths).
struct FloatFmt {
    exp: bool,
    pad_left: usize,
    pad_right: usize,
    /// scientific: fractional digits of every mantissa, and exponent digits
    prec: usize,
    exp_size: usize,
    dtype: DType,
}

impl Fmt {
    fn new(vals: &[f64], dtype: DType) -> Fmt {
        match dtype.category() {
            Category::Bool => Fmt::Bool,
            Category::Integral => Fmt::Int(
                vals.iter()
                    .map(|v| format!("{}", *v as i64).len())
                    .max()
                    .unwrap_or(0),
            ),
            Category::Floating => {
                let finite: Vec<f64> = vals.iter().copied().filter(|v| v.is_finite()).collect();
                let abs_nz: Vec<f64> = finite
                    .iter()
                    .map(|v| v.abs())
                    .filter(|v| *v != 0.0)
                    .collect();
                let (mut exp, mut pad_left, mut pad_right, mut prec, mut exp_size) =
                    (false, 0, 0, 0, 0);
                if let (Some(mx), Some(mn)) = (
                    abs_nz.iter().cloned().reduce(f64::max),
                    abs_nz.iter().cloned().reduce(f64::min),
                ) {
                    exp = mx >= 1e8 || (!options().suppress && (mn < 1e-4 || mx / mn > 1000.0));
                }
                if exp {
                    for &v in &finite {
                        let (m, e) = scientific(v, dtype);
                        let (i, f) = m.split_once('.').unwrap();
                        pad_left = pad_left.max(i.len());
                        prec = prec.max(f.len());
                        exp_size = exp_size.max(format!("{}", e.abs()).len().max(2));
                    }
                    pad_right = exp_size + 2 + prec;
                } else {
                    for &v in &finite {
                        let s = positional(v, dtype);
                        let (i, f) = s.split_once('.').unwrap();
                        pad_left = pad_left.max(i.len());
                        pad_right = pad_right.max(f.len());
                    }
                }
                if finite.len() != vals.len() {
                    let neginf = vals.iter().any(|v| v.is_infinite() && *v < 0.0);
                    let offset = pad_right + 1;
                    pad_left = pad_left
                        .max(3usize.saturating_sub(offset))
                        .max((3 + neginf as usize).saturating_sub(offset));
                }
                Fmt::Float(FloatFmt {
                    exp,
                    pad_left,
                    pad_right,
                    prec,
                    exp_size,
                    dtype,
                })
            }
        }
    }

    fn fmt(&self, v: f64) -> String {
        match self {
            Fmt::Int(w) => format!("{:>w$}", v as i64),
            Fmt::Bool => if v != 0.0 { " True" } else { "False" }.to_string(),
            Fmt::Float(f) => f.fmt(v),
        }
    }
}

impl FloatFmt {
    fn fmt(&self, v: f64) -> String {
        if !v.is_finite() {
            let s = if v.is_nan() {
                "nan"
            } else if v > 0.0 {
                "inf"
            } else {
                "-inf"
            };
            return format!("{s:>w$}", w = self.pad_left + self.pad_right + 1);
        }
        if self.exp {
            let (m, e) = scientific(v, self.dtype);
            let (i, f) = m.split_once('.').unwrap();
            format!(
                "{i:>l$}.{f:0<p$}e{}{:0>x$}",
                if e < 0 { '-' } else { '+' },
                e.abs(),
                l = self.pad_left,
                p = self.prec,
                x = self.exp_size,
            )
        } else {
            let s = positional(v, self.dtype);
            let (i, f) = s.split_once('.').unwrap();
            format!("{i:>l$}.{f:<r$}", l = self.pad_left, r = self.pad_right)
        }
    }
}

/// The elements numpy shows (all, or the edge items of each dim when summarised), for sizing.
fn shown(vals: &[f64], shape: &[usize], summary: bool) -> Vec<f64> {
    if !summary || shape.is_empty() {
        return vals.to_vec();
    }
    let inner: usize = shape[1..].iter().product();
    super::print::summarized_indices(shape[0], options().edgeitems)
        .flat_map(|i| shown(&vals[i * inner..(i + 1) * inner], &shape[1..], summary))
        .collect()
}

fn extend_line(s: &mut String, line: &mut String, word: &str, width: usize, prefix: &str) {
    let needs_wrap = line.len() + word.len() > width && line.len() > prefix.len();
    if needs_wrap {
        s.push_str(line.trim_end());
        s.push('\n');
        *line = prefix.to_string();
    }
    line.push_str(word);
}

#[allow(clippy::too_many_arguments)]
fn recurse(
    vals: &[f64],
    shape: &[usize],
    f: &Fmt,
    hanging: &str,
    width: usize,
    sep: &str,
    summary: bool,
) -> String {
    if shape.is_empty() {
        return f.fmt(vals[0]);
    }
    let next_hanging = format!("{hanging} ");
    let next_width = width - 1;
    let n = shape[0];
    let inner: usize = shape[1..].iter().product();
    let edge = options().edgeitems;
    let show_summary = summary && 2 * edge < n;
    let items: Vec<Option<usize>> = if show_summary {
        (0..edge)
            .map(Some)
            .chain([None])
            .chain((n - edge..n).map(Some))
            .collect()
    } else {
        (0..n).map(Some).collect()
    };
    let sub = |i: usize| {
        recurse(
            &vals[i * inner..(i + 1) * inner],
            &shape[1..],
            f,
            &next_hanging,
            next_width,
            sep,
            summary,
        )
    };
    let mut s = String::new();
    if shape.len() == 1 {
        let elem_width = width - sep.trim_end().len().max(1);
        let mut line = hanging.to_string();
        let last = items.len() - 1;
        for (k, it) in items.iter().enumerate() {
            let word = match it {
                Some(i) => sub(*i),
                None => "...".to_string(),
            };
            extend_line(&mut s, &mut line, &word, elem_width, hanging);
            if k != last {
                line.push_str(sep);
            }
        }
        s.push_str(&line);
    } else {
        let line_sep = format!("{}{}", sep.trim_end(), "\n".repeat(shape.len() - 1));
        let last = items.len() - 1;
        for (k, it) in items.iter().enumerate() {
            let nested = match it {
                Some(i) => sub(*i),
                None => "...".to_string(),
            };
            s.push_str(hanging);
            s.push_str(&nested);
            if k != last {
                s.push_str(&line_sep);
            }
        }
    }
    format!("[{}]", &s[hanging.len()..])
}

/// The body numpy's array2string gives (`prefix_len` columns of `array(` before it).
fn body(
    vals: &[f64],
    shape: &[usize],
    dtype: DType,
    sep: &str,
    prefix_len: usize,
    width: usize,
) -> String {
    let summary = vals.len() > options().threshold;
    let f = Fmt::new(&shown(vals, shape, summary), dtype);
    let hanging = " ".repeat(prefix_len + 1);
    recurse(vals, shape, &f, &hanging, width, sep, summary)
}

/// A 0-d array's str: the scalar's Python-style repr (`3.5`, `2.0`, `7`, `True`).
fn scalar(v: f64, dtype: DType) -> String {
    match dtype.category() {
        Category::Bool => if v != 0.0 { "True" } else { "False" }.to_string(),
        Category::Integral => format!("{}", v as i64),
        Category::Floating => {
            if v.is_nan() {
                return "nan".into();
            }
            if v.is_infinite() {
                return if v > 0.0 { "inf".into() } else { "-inf".into() };
            }
            let s = positional(v, dtype);
            if s.ends_with('.') { format!("{s}0") } else { s }
        }
    }
}

/// `str(array)` / `print(array)`.
pub(crate) fn numpy_str(vals: &[f64], shape: &[usize], dtype: DType) -> String {
    if shape.is_empty() {
        return scalar(vals.first().copied().unwrap_or(0.0), dtype);
    }
    if vals.is_empty() {
        return "[]".into();
    }
    body(vals, shape, dtype, " ", 0, options().linewidth)
}

/// numpy's name of a dtype.
pub(crate) fn numpy_dtype_name(dtype: DType) -> &'static str {
    dtype.name()
}

/// `repr(array)`: `array([1., 2.], dtype=float32)`.
pub(crate) fn numpy_repr(vals: &[f64], shape: &[usize], dtype: DType) -> String {
    let implied = matches!(dtype, DType::Float64 | DType::Int64 | DType::Bool);
    let mut extras = Vec::new();
    if (vals.is_empty() && shape != [0]) || vals.len() > options().threshold {
        let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
        extras.push(if dims.len() == 1 {
            format!("shape=({},)", dims[0])
        } else {
            format!("shape=({})", dims.join(", "))
        });
    }
    if !implied || vals.is_empty() {
        extras.push(format!("dtype={}", numpy_dtype_name(dtype)));
    }
    let lst = if shape.is_empty() {
        let v = vals.first().copied().unwrap_or(0.0);
        Fmt::new(&[v], dtype).fmt(v).trim_start().to_string()
    } else if vals.is_empty() {
        "[]".to_string()
    } else {
        body(
            vals,
            shape,
            dtype,
            ", ",
            "array(".len(),
            options().linewidth - 1,
        )
    };
    if extras.is_empty() {
        return format!("array({lst})");
    }
    let arr = format!("array({lst},");
    let extra = format!("{})", extras.join(", "));
    let last_len = arr.len() - arr.rfind('\n').map_or(0, |i| i + 1);
    let spacer = if last_len + extra.len() + 1 > options().linewidth {
        format!("\n{}", " ".repeat("array(".len()))
    } else {
        " ".to_string()
    };
    format!("{arr}{spacer}{extra}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn str_of_an_array_is_numpys() {
        assert_eq!(
            numpy_str(&[1.0, 2.0, 3.0], &[3], DType::Float32),
            "[1. 2. 3.]"
        );
        assert_eq!(
            numpy_str(&[1.0, 2.0, 3.0, 4.0], &[2, 2], DType::Int64),
            "[[1 2]\n [3 4]]"
        );
    }
}
