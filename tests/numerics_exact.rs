//! Every function of `engine::numerics` against real PyTorch 2.15 (CPU, AVX512, one thread),
//! bit for bit. The fixtures come from scripts/record-numerics.py; each family is one test and
//! reports how many of its recorded cases match.

mod numerics_support;

use cudatutor::engine::numerics as nx;
use numerics_support::{Bits, assert_family, gen_f32, gen_f64, is_f64, run_family, usizes, view};
use serde_json::Value;

#[test]
fn sum_mean_nansum() {
    assert_family(
        "sum",
        run_family("sum", |case: &Value| {
            let (shape, strides, offset) = view(&case["view"]);
            let v = nx::sum::View {
                shape: &shape,
                strides: &strides,
                offset,
            };
            let dims = usizes(&case["dims"]);
            let op = case["op"].as_str().unwrap_or("");
            if is_f64(&case["input"]) {
                let x = gen_f64(&case["input"]);
                Ok(Bits::F64(match op {
                    "sum" => nx::sum::sum_dims_f64(&x, v, &dims),
                    "mean" => nx::sum::mean_dims_f64(&x, v, &dims),
                    "nansum" => nx::sum::nansum_dims_f64(&x, v, &dims),
                    _ => return Err(format!("unknown op {op}")),
                }))
            } else {
                let x = gen_f32(&case["input"]);
                Ok(Bits::F32(match op {
                    "sum" => nx::sum::sum_dims_f32(&x, v, &dims),
                    "mean" => nx::sum::mean_dims_f32(&x, v, &dims),
                    "nansum" => nx::sum::nansum_dims_f32(&x, v, &dims),
                    _ => return Err(format!("unknown op {op}")),
                }))
            }
        }),
    );
}

fn unary_op(case: &Value) -> Result<nx::unary::Unary, String> {
    use nx::unary::Unary as U;
    let p = |k: &str| numerics_support::param(case, k);
    Ok(match case["op"].as_str().unwrap_or("") {
        "sigmoid" => U::Sigmoid,
        "log1p" => U::Log1p,
        "expm1" => U::Expm1,
        "rsqrt" => U::Rsqrt,
        "reciprocal" => U::Reciprocal,
        "gelu" => U::Gelu,
        "gelu_tanh" => U::GeluTanh,
        "silu" => U::Silu,
        "softplus" | "softplus_b2" => U::Softplus {
            beta: p("beta"),
            threshold: p("threshold"),
        },
        "elu" | "elu_a05" => U::Elu {
            alpha: p("alpha"),
            scale: 1.0,
            input_scale: 1.0,
        },
        "leaky_relu" => U::LeakyRelu { slope: p("slope") },
        op if op.starts_with("pow") => U::PowScalar {
            exponent: case["params"]["exponent"].as_f64().unwrap_or(1.0),
        },
        op => return Err(format!("unknown op {op}")),
    })
}

#[test]
fn unary_elementwise() {
    assert_family(
        "unary",
        run_family("unary", |case: &Value| {
            let op = unary_op(case)?;
            let (shape, strides, offset) = view(&case["view"]);
            let x = gen_f32(&case["input"]);
            let out_strides = nx::iter::allocated_output_strides(&shape, &[&strides]);
            let n: usize = shape.iter().product();
            let mut out = vec![0f32; n];
            nx::unary::unary_strided_f32(
                op,
                &x,
                nx::sum::View {
                    shape: &shape,
                    strides: &strides,
                    offset,
                },
                &mut out,
                nx::sum::View {
                    shape: &shape,
                    strides: &out_strides,
                    offset: 0,
                },
            );
            Ok(Bits::F32(numerics_support::logical(
                &out,
                &shape,
                &out_strides,
                0,
            )))
        }),
    );
}

#[test]
fn softmax_log_softmax() {
    assert_family(
        "softmax",
        run_family("softmax", |case: &Value| {
            let shape = usizes(&case["shape"]);
            let d = case["dim"].as_u64().unwrap_or(0) as usize;
            let outer: usize = shape[..d].iter().product();
            let inner: usize = shape[d + 1..].iter().product();
            let dim = shape[d];
            let x = gen_f32(&case["input"]);
            let mut out = vec![0f32; x.len()];
            let op = case["op"].as_str().unwrap_or("");
            match op {
                "softmax" => nx::softmax::softmax_f32(&x, &mut out, outer, dim, inner),
                "log_softmax" => nx::softmax::log_softmax_f32(&x, &mut out, outer, dim, inner),
                "softmax_backward" | "log_softmax_backward" => {
                    let g = gen_f32(&case["grad"]);
                    let mut y = vec![0f32; x.len()];
                    if op == "softmax_backward" {
                        nx::softmax::softmax_f32(&x, &mut y, outer, dim, inner);
                        nx::softmax::softmax_backward_f32(&g, &y, &mut out, outer, dim, inner);
                    } else {
                        nx::softmax::log_softmax_f32(&x, &mut y, outer, dim, inner);
                        nx::softmax::log_softmax_backward_f32(&g, &y, &mut out, outer, dim, inner);
                    }
                }
                _ => return Err(format!("unknown op {op}")),
            }
            Ok(Bits::F32(out))
        }),
    );
}
