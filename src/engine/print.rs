//! PyTorch's tensor printing (torch/_tensor_str.py with default print options: precision 4,
//! threshold 1000, edgeitems 3, linewidth 80, sci_mode None).

use super::device::Device;
use super::dtype::{Category, DType, Scalar};
use super::error::Result;
use super::runtime::Runtime;
use super::tensor::CommaSeparated;
use super::tensor::Tensor;

/// `torch.set_printoptions(...)`: per thread (one script runs on one thread), reset by
/// [`reset_print_options`] when a run's torch module is installed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct PrintOptions {
    pub precision: usize,
    pub threshold: usize,
    pub edgeitems: usize,
    pub linewidth: usize,
    /// `None`: PyTorch's automatic choice; `Some(b)` forces scientific notation on or off.
    pub sci_mode: Option<bool>,
}

impl Default for PrintOptions {
    fn default() -> Self {
        PrintOptions {
            precision: 4,
            threshold: 1000,
            edgeitems: 3,
            linewidth: 80,
            sci_mode: None,
        }
    }
}

thread_local! {
    static OPTIONS: std::cell::Cell<PrintOptions> = std::cell::Cell::new(PrintOptions::default());
}

pub(crate) fn print_options() -> PrintOptions {
    OPTIONS.with(|o| o.get())
}

pub(crate) fn set_print_options(opts: PrintOptions) {
    OPTIONS.with(|o| o.set(opts));
}

pub(crate) fn reset_print_options() {
    set_print_options(PrintOptions::default());
}

/// Python's `f"{v:.{p}f}"`.
pub(crate) fn fmt_fixed(v: f64, p: usize) -> String {
    if v.is_nan() {
        "nan".to_string()
    } else if v.is_infinite() {
        if v > 0.0 {
            "inf".to_string()
        } else {
            "-inf".to_string()
        }
    } else {
        format!("{v:.p$}")
    }
}

/// Python's `f"{v:.{p}e}"` (`1.0000e+00`).
pub(crate) fn fmt_sci(v: f64, p: usize) -> String {
    if !v.is_finite() {
        return fmt_fixed(v, p);
    }
    let s = format!("{v:.p$e}");
    let (m, e) = s.split_once('e').expect("exponent");
    let e: i32 = e.parse().expect("exponent digits");
    format!("{m}e{}{:02}", if e < 0 { '-' } else { '+' }, e.abs())
}

struct Formatter {
    floating: bool,
    int_mode: bool,
    sci_mode: bool,
    max_width: usize,
    dtype: DType,
}

/// An element as the printer reads it: f64 for most dtypes, the exact i64 for int64 (whose
/// values past 2**53 an f64 would round: `tensor(9007199254740993)`).
pub(crate) trait PrintVal: Copy {
    fn f(self) -> f64;
    fn int_str(self) -> String;
}

impl PrintVal for f64 {
    fn f(self) -> f64 {
        self
    }
    fn int_str(self) -> String {
        format!("{}", self as i64)
    }
}

impl PrintVal for i64 {
    fn f(self) -> f64 {
        self as f64
    }
    fn int_str(self) -> String {
        self.to_string()
    }
}

fn scalar_str<V: PrintVal>(dtype: DType, v: V) -> String {
    match dtype.category() {
        Category::Bool => if v.f() != 0.0 { "True" } else { "False" }.to_string(),
        Category::Integral => v.int_str(),
        Category::Floating => fmt_fixed(v.f(), print_options().precision),
    }
}

impl Formatter {
    fn new<V: PrintVal>(vals: &[V], dtype: DType) -> Formatter {
        let mut f = Formatter {
            floating: dtype.is_floating_point(),
            int_mode: true,
            sci_mode: false,
            max_width: 1,
            dtype,
        };
        if !f.floating {
            for &v in vals {
                f.max_width = f.max_width.max(scalar_str(dtype, v).len());
            }
            return f;
        }
        let nz: Vec<f64> = vals
            .iter()
            .map(|v| v.f())
            .filter(|v| v.is_finite() && *v != 0.0)
            .collect();
        if nz.is_empty() {
            return f;
        }
        let min = nz.iter().map(|v| v.abs()).fold(f64::INFINITY, f64::min);
        let max = nz.iter().map(|v| v.abs()).fold(0.0, f64::max);
        f.int_mode = nz.iter().all(|v| *v == v.ceil());
        // _tensor_str.py decides scientific notation once (set_printoptions(sci_mode=...) or
        // the automatic rule) and measures the widths in the notation it chose
        f.sci_mode = print_options()
            .sci_mode
            .unwrap_or(max / min > 1000.0 || max > 1.0e8 || min < 1.0e-4);
        for &v in &nz {
            let w = if f.sci_mode {
                fmt_sci(v, print_options().precision).len()
            } else if f.int_mode {
                fmt_fixed(v, 0).len() + 1
            } else {
                fmt_fixed(v, print_options().precision).len()
            };
            f.max_width = f.max_width.max(w);
        }
        f
    }

    fn format<V: PrintVal>(&self, v: V) -> String {
        let ret = if self.floating {
            let v = v.f();
            if self.sci_mode {
                fmt_sci(v, print_options().precision)
            } else if self.int_mode {
                let mut r = fmt_fixed(v, 0);
                if v.is_finite() {
                    r.push('.');
                }
                r
            } else {
                fmt_fixed(v, print_options().precision)
            }
        } else {
            scalar_str(self.dtype, v)
        };
        let pad = self.max_width.saturating_sub(ret.chars().count());
        format!("{}{ret}", " ".repeat(pad))
    }
}

/// A contiguous block of values with a shape (sub-tensors are slices of it).
#[derive(Clone, Copy)]
struct Block<'a, V> {
    vals: &'a [V],
    shape: &'a [usize],
}

impl<'a, V> Block<'a, V> {
    fn row(&self, i: usize) -> Block<'a, V> {
        let inner: usize = self.shape[1..].iter().product();
        Block {
            vals: &self.vals[i * inner..(i + 1) * inner],
            shape: &self.shape[1..],
        }
    }
}

/// The rows of a dimension of `n` a summarised print shows: the first and last `edge`, or all
/// of them when there are no more than `2 * edge` (numpy's rule too).
pub(super) fn summarized_indices(n: usize, edge: usize) -> impl Iterator<Item = usize> {
    let (head, tail) = if n > 2 * edge {
        (0..edge, n - edge..n)
    } else {
        (0..n, n..n)
    };
    head.chain(tail)
}

fn summarized<V: PrintVal>(b: Block<V>, out: &mut Vec<V>) {
    let edge = print_options().edgeitems;
    match b.shape.len() {
        0 => out.extend_from_slice(b.vals),
        1 => {
            let n = b.shape[0];
            if n > 2 * edge {
                out.extend_from_slice(&b.vals[..edge]);
                out.extend_from_slice(&b.vals[n - edge..]);
            } else {
                out.extend_from_slice(b.vals);
            }
        }
        _ => {
            let n = b.shape[0];
            for i in summarized_indices(n, edge) {
                summarized(b.row(i), out);
            }
        }
    }
}

fn vector_str<V: PrintVal>(b: Block<V>, indent: usize, summarize: bool, f: &Formatter) -> String {
    let edge = print_options().edgeitems;
    let element_length = f.max_width + 2;
    let per_line = ((print_options().linewidth.saturating_sub(indent)) / element_length).max(1);
    let n = b.shape[0];
    let data: Vec<String> = if summarize && n > 2 * edge {
        b.vals[..edge]
            .iter()
            .map(|&v| f.format(v))
            .chain([" ...".to_string()])
            .chain(b.vals[n - edge..].iter().map(|&v| f.format(v)))
            .collect()
    } else {
        b.vals.iter().map(|&v| f.format(v)).collect()
    };
    let lines: Vec<String> = data.chunks(per_line).map(|c| c.join(", ")).collect();
    format!(
        "[{}]",
        lines.join(&format!(",\n{}", " ".repeat(indent + 1)))
    )
}

fn tensor_str_with<V: PrintVal>(
    b: Block<V>,
    indent: usize,
    summarize: bool,
    f: &Formatter,
) -> String {
    let edge = print_options().edgeitems;
    let dim = b.shape.len();
    if dim == 0 {
        return f.format(b.vals[0]);
    }
    if dim == 1 {
        return vector_str(b, indent, summarize, f);
    }
    let n = b.shape[0];
    let slices: Vec<String> = if summarize && n > 2 * edge {
        (0..edge)
            .map(|i| tensor_str_with(b.row(i), indent + 1, summarize, f))
            .chain(["...".to_string()])
            .chain((n - edge..n).map(|i| tensor_str_with(b.row(i), indent + 1, summarize, f)))
            .collect()
    } else {
        (0..n)
            .map(|i| tensor_str_with(b.row(i), indent + 1, summarize, f))
            .collect()
    };
    let sep = format!(",{}{}", "\n".repeat(dim - 1), " ".repeat(indent + 1));
    format!("[{}]", slices.join(&sep))
}

/// The bracketed contents (`_tensor_str`), for `numel > 0` tensors.
fn tensor_str<V: PrintVal>(vals: &[V], shape: &[usize], dtype: DType, indent: usize) -> String {
    let numel: usize = shape.iter().product();
    if numel == 0 {
        return "[]".to_string();
    }
    let summarize = numel > print_options().threshold;
    let b = Block { vals, shape };
    let f = if summarize {
        let mut s = Vec::new();
        summarized(b, &mut s);
        Formatter::new(&s, dtype)
    } else {
        Formatter::new(vals, dtype)
    };
    tensor_str_with(b, indent, summarize, &f)
}

fn add_suffixes(tensor_str: String, suffixes: &[String], indent: usize) -> String {
    let mut out = tensor_str.clone();
    let mut last_line_len = match tensor_str.rfind('\n') {
        Some(p) => tensor_str.len() - p + 1,
        None => tensor_str.len() + 2,
    };
    for s in suffixes {
        if last_line_len + s.len() + 2 > print_options().linewidth {
            out.push_str(&format!(",\n{}{s}", " ".repeat(indent)));
            last_line_len = indent + s.len();
        } else {
            out.push_str(&format!(", {s}"));
            last_line_len += s.len() + 2;
        }
    }
    out.push(')');
    out
}

fn shape_tuple(shape: &[usize]) -> String {
    match shape.len() {
        1 => format!("({},)", shape[0]),
        _ => format!("({})", shape.comma_separated()),
    }
}

/// `repr(t)` / `str(t)` given its values (row-major).
pub(crate) fn format_tensor<V: PrintVal>(vals: &[V], t: &Tensor) -> String {
    let prefix = "tensor(";
    let indent = prefix.len();
    let dtype = t.dtype();
    let mut suffixes = Vec::new();
    if t.device() != Device::Cpu {
        suffixes.push(format!("device='{}'", t.device()));
    }
    // _tensor_str.py: the dtype is left out when it is the default dtype (set_default_dtype),
    // int64 or bool
    let has_default = dtype == crate::engine::dtype::default_float()
        || matches!(dtype, DType::Int64 | DType::Bool);
    let body;
    if t.is_meta() {
        suffixes.push(format!("size={}", shape_tuple(t.shape())));
        if !has_default {
            suffixes.push(format!("dtype={dtype}"));
        }
        body = "...".to_string();
    } else if t.numel() == 0 {
        if t.dim() != 1 {
            suffixes.push(format!("size={}", shape_tuple(t.shape())));
        }
        if dtype != crate::engine::dtype::default_float() {
            suffixes.push(format!("dtype={dtype}"));
        }
        body = "[]".to_string();
    } else {
        if !has_default {
            suffixes.push(format!("dtype={dtype}"));
        }
        body = tensor_str(vals, t.shape(), dtype, indent);
    }
    if let Some(g) = t.grad_fn() {
        suffixes.push(format!("grad_fn=<{g}>"));
    } else if t.requires_grad() {
        suffixes.push("requires_grad=True".to_string());
    }
    add_suffixes(format!("{prefix}{body}"), &suffixes, indent)
}

impl Runtime {
    /// `repr(t)` (also `str(t)` / `print(t)`): a synchronising D2H copy for CUDA tensors.
    pub fn repr(&self, t: &Tensor) -> Result<String> {
        if t.is_meta() {
            self.host_event("repr", None, self.timing().host_query_us);
            return Ok(format_tensor::<f64>(&[], t));
        }
        let shown = if t.numel() > print_options().threshold {
            6usize.pow(t.dim() as u32).min(t.numel())
        } else {
            t.numel()
        };
        self.read_back(t, "repr", (shown * t.element_size()) as u64)?;
        if t.dtype() == DType::Int64 {
            let ints: Vec<i64> = t
                .scalars()?
                .into_iter()
                .map(|s| match s {
                    Scalar::Int(i) => i,
                    other => other.as_f64() as i64,
                })
                .collect();
            return Ok(format_tensor(&ints, t));
        }
        let vals = t.values()?;
        Ok(format_tensor(&vals, t))
    }
}
