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

fn reduction(case: &Value) -> nx::loss::Reduction {
    match case["reduction"].as_str() {
        Some("sum") => nx::loss::Reduction::Sum,
        Some("none") => nx::loss::Reduction::None,
        _ => nx::loss::Reduction::Mean,
    }
}

/// Class-index targets: -1 becomes the ignore index -100 when the case says so.
fn targets(case: &Value) -> Vec<i64> {
    let ignore = case["ignore"].as_bool().unwrap_or(false);
    gen_f32(&case["target"])
        .iter()
        .map(|&v| if ignore && v == -1.0 { -100 } else { v as i64 })
        .collect()
}

fn class_shape(case: &Value) -> nx::loss::ClassShape {
    let shape = usizes(&case["shape"]);
    if shape.len() == 1 {
        nx::loss::ClassShape {
            n: 1,
            c: shape[0],
            map: 1,
            one_d: true,
        }
    } else {
        nx::loss::ClassShape {
            n: shape[0],
            c: shape[1],
            map: shape[2..].iter().product(),
            one_d: false,
        }
    }
}

fn loss_case(case: &Value) -> Result<Vec<f32>, String> {
    use nx::loss as L;
    let op = case["op"].as_str().unwrap_or("");
    let red = reduction(case);
    let x = gen_f32(&case["input"]);
    let weight = case.get("weight").map(gen_f32);
    let err = |e: L::LossError| format!("{e:?}");
    match op {
        "cross_entropy" => {
            let ls = case["smoothing"].as_f64().unwrap_or(0.0);
            L::cross_entropy_f32(
                &x,
                class_shape(case),
                &targets(case),
                weight.as_deref(),
                red,
                -100,
                ls,
            )
            .map_err(err)
        }
        "nll_loss" => Ok(L::nll_loss_f32(
            &x,
            class_shape(case),
            &targets(case),
            weight.as_deref(),
            red,
            -100,
        )
        .map_err(err)?
        .loss),
        "cross_entropy_backward" => {
            // autograd: nll_loss_backward, then log_softmax_backward along the class dimension.
            let cs = class_shape(case);
            let t = targets(case);
            let mut logp = vec![0f32; x.len()];
            nx::softmax::log_softmax_f32(&x, &mut logp, cs.n, cs.c, cs.map);
            let fwd = L::nll_loss_f32(&logp, cs, &t, weight.as_deref(), red, -100).map_err(err)?;
            let g = if red == L::Reduction::None {
                gen_f32(
                    &serde_json::json!({"kind": "normal", "seed": 7, "n": fwd.loss.len(), "mean": 0.0, "std": 1.0}),
                )
            } else {
                vec![1.0]
            };
            let mut gl = vec![0f32; x.len()];
            L::nll_loss_backward_f32(
                &g,
                cs,
                &t,
                weight.as_deref(),
                red,
                -100,
                fwd.total_weight,
                &mut gl,
            );
            let mut gi = vec![0f32; x.len()];
            nx::softmax::log_softmax_backward_f32(&gl, &logp, &mut gi, cs.n, cs.c, cs.map);
            Ok(gi)
        }
        "cross_entropy_probs" => {
            let p = gen_f32(&case["probs"]);
            Ok(L::cross_entropy_probs_f32(
                &x,
                class_shape(case),
                &p,
                None,
                red,
                case["smoothing"].as_f64().unwrap_or(0.0),
            ))
        }
        _ => {
            let t = gen_f32(&case["target"]);
            let ones = |n: usize| -> Vec<f32> {
                if red == L::Reduction::None {
                    gen_f32(
                        &serde_json::json!({"kind": "normal", "seed": 7, "n": n, "mean": 0.0, "std": 1.0}),
                    )
                } else {
                    vec![1.0]
                }
            };
            let flag = |k: &str| case[k].as_bool().unwrap_or(false);
            Ok(match op {
                "mse_loss" => L::mse_loss_f32(&x, &t, red),
                "mse_loss_backward" => L::mse_loss_backward_f32(&ones(x.len()), &x, &t, red),
                "l1_loss" => L::l1_loss_f32(&x, &t, red),
                "smooth_l1_loss" => {
                    L::smooth_l1_loss_f32(&x, &t, red, case["beta"].as_f64().unwrap_or(1.0))
                }
                "huber_loss" => {
                    L::huber_loss_f32(&x, &t, red, case["delta"].as_f64().unwrap_or(1.0))
                }
                "bce" => {
                    let w = if flag("weighted") {
                        weight.as_deref()
                    } else {
                        None
                    };
                    L::binary_cross_entropy_f32(&x, &t, w, red).map_err(err)?
                }
                "bce_backward" => {
                    L::binary_cross_entropy_backward_f32(&ones(x.len()), &x, &t, None, red)
                }
                "bce_with_logits_backward" => {
                    let w = if flag("weighted") {
                        weight.as_deref()
                    } else {
                        None
                    };
                    let pw = if flag("pos_weighted") {
                        weight.as_deref()
                    } else {
                        None
                    };
                    L::bce_with_logits_backward_f32(&ones(x.len()), &x, &t, w, pw, red)
                }
                "smooth_l1_loss_backward" => L::smooth_loss_backward_f32(
                    &ones(x.len()),
                    &x,
                    &t,
                    red,
                    L::SmoothLoss::SmoothL1 {
                        beta: case["beta"].as_f64().unwrap_or(1.0),
                    },
                ),
                "huber_loss_backward" => L::smooth_loss_backward_f32(
                    &ones(x.len()),
                    &x,
                    &t,
                    red,
                    L::SmoothLoss::Huber {
                        delta: case["delta"].as_f64().unwrap_or(1.0),
                    },
                ),
                "bce_with_logits" => {
                    let w = if flag("weighted") {
                        weight.as_deref()
                    } else {
                        None
                    };
                    let pw = if flag("pos_weighted") {
                        weight.as_deref()
                    } else {
                        None
                    };
                    L::bce_with_logits_f32(&x, &t, w, pw, red)
                }
                _ => return Err(format!("unknown op {op}")),
            })
        }
    }
}

#[test]
fn losses() {
    assert_family(
        "loss",
        run_family("loss", |case: &Value| loss_case(case).map(Bits::F32)),
    );
}

#[test]
fn var_std_norm_cumsum() {
    assert_family(
        "stats",
        run_family("stats", |case: &Value| {
            let op = case["op"].as_str().unwrap_or("");
            let (shape, strides, offset) = view(&case["view"]);
            let x = if case["input"]["kind"] == "linspace" {
                nx::range::linspace_f32(0.1, 1.7, 17)
            } else {
                gen_f32(&case["input"])
            };
            let v = nx::sum::View {
                shape: &shape,
                strides: &strides,
                offset,
            };
            let dims = usizes(&case["dims"]);
            let corr = case["correction"].as_f64().unwrap_or(1.0);
            Ok(Bits::F32(match op {
                "var" => nx::stats::var_f32(&x, v, &dims, corr, false),
                "std" => nx::stats::var_f32(&x, v, &dims, corr, true),
                "var_mean" => {
                    let (a, b) = nx::stats::var_mean_f32(&x, v, &dims, corr, false);
                    a.into_iter().chain(b).collect()
                }
                "norm" => {
                    let p = if case["p"] == "inf" {
                        f64::INFINITY
                    } else {
                        case["p"].as_f64().unwrap_or(2.0)
                    };
                    nx::stats::vector_norm_f32(&x, v, &dims, nx::stats::NormOrd::from_f64(p))
                }
                "cumsum" | "cumprod" => {
                    let dim = case["dim"].as_u64().unwrap_or(0) as usize;
                    nx::stats::cumulative_f32(&x, v, dim, op == "cumprod")
                }
                _ => return Err(format!("unknown op {op}")),
            }))
        }),
    );
}

#[test]
fn linspace_arange() {
    assert_family(
        "range",
        run_family("range", |case: &Value| {
            let f = |k: &str| case[k].as_f64().unwrap_or(0.0);
            Ok(Bits::F32(match case["op"].as_str() {
                Some("linspace") => {
                    nx::range::linspace_f32(f("start"), f("end"), f("steps") as usize)
                }
                _ => nx::range::arange_f32(f("start"), f("end"), f("step")),
            }))
        }),
    );
}

fn backward_op(case: &Value) -> Result<(nx::backward::Backward, bool), String> {
    use nx::backward::Backward as B;
    let p = |k: &str| numerics_support::param(case, k);
    Ok(match case["fn"].as_str().unwrap_or("") {
        "relu" => (B::Relu, false),
        "sigmoid" => (B::Sigmoid, true),
        "tanh" => (B::Tanh, true),
        "gelu" => (B::Gelu, false),
        "gelu_tanh" => (B::GeluTanh, false),
        "silu" => (B::Silu, false),
        "softplus" => (
            B::Softplus {
                beta: p("beta"),
                threshold: p("threshold"),
            },
            false,
        ),
        "elu" => (
            B::Elu {
                alpha: p("alpha"),
                scale: 1.0,
                input_scale: 1.0,
            },
            false,
        ),
        "leaky_relu" => (B::LeakyRelu { slope: p("slope") }, false),
        f => return Err(format!("unknown backward {f}")),
    })
}

/// The forward output a relu/sigmoid/tanh backward saves: PyTorch's own, recorded with the
/// case (tanh's comes from MKL, which the numerics only approximate).
fn recorded_output(case: &Value) -> Result<Vec<f32>, String> {
    let hex = case["y"]["hex"]
        .as_str()
        .ok_or("no recorded forward output")?;
    Ok(numerics_support::unpack_hex(hex, 8)
        .into_iter()
        .map(|b| f32::from_bits(b as u32))
        .collect())
}

#[test]
fn pointwise_and_activation_backward() {
    assert_family(
        "pointwise",
        run_family("pointwise", |case: &Value| {
            use nx::pointwise as P;
            let op = case["op"].as_str().unwrap_or("");
            if op == "backward" {
                let (bw, uses_output) = backward_op(case)?;
                let x = gen_f32(&case["x"]);
                let g = gen_f32(&case["g"]);
                let v = if uses_output {
                    recorded_output(case)?
                } else {
                    x
                };
                let mut out = vec![0f32; g.len()];
                nx::backward::backward_f32(bw, &g, &v, &mut out);
                return Ok(Bits::F32(out));
            }
            let (a, b, c) = (
                gen_f32(&case["a"]),
                gen_f32(&case["b"]),
                gen_f32(&case["c"]),
            );
            let s = P::scalar(case["s"].as_f64().unwrap_or(0.0));
            let out: Vec<f32> = (0..a.len())
                .map(|i| match op {
                    "add" => P::add_alpha(a[i], b[i], s),
                    "sub" => P::sub_alpha(a[i], b[i], s),
                    "mul" => a[i] * s,
                    "div" => a[i] / s,
                    "addcmul" => P::addcmul(a[i], b[i], c[i], s),
                    "addcdiv" => P::addcdiv(a[i], b[i], c[i], s),
                    _ => P::lerp(a[i], b[i], s),
                })
                .collect();
            Ok(Bits::F32(out))
        }),
    );
}

#[test]
fn optimizers() {
    assert_family(
        "optim",
        run_family("optim", |case: &Value| {
            use nx::optim as O;
            let n = case["n"].as_u64().unwrap_or(1) as usize;
            let kw = &case["kw"];
            let f = |k: &str, d: f64| kw[k].as_f64().unwrap_or(d);
            let b = |k: &str| kw[k].as_bool().unwrap_or(false);
            let mut p = gen_f32(&case["param"]);
            let grad_seed = case["grad_seed"].as_u64().unwrap_or(0);
            let steps = case["steps"].as_u64().unwrap_or(1);
            let grad = |k: u64| {
                gen_f32(
                    &serde_json::json!({"kind": "normal", "seed": grad_seed + k, "n": n, "mean": 0.0, "std": 1.0}),
                )
            };
            // The square roots PyTorch took (MKL's vsSqrt), keyed by input bits: the test checks
            // the rest of each update exactly; a lookup that misses means our state diverged.
            let table: std::collections::HashMap<u32, u32> = case["sqrt"]
                .as_object()
                .map(|m| {
                    m.iter()
                        .map(|(k, v)| {
                            let h = |s: &str| u32::from_str_radix(s, 16).unwrap_or(0);
                            (h(k), h(v.as_str().unwrap_or("0")))
                        })
                        .collect()
                })
                .unwrap_or_default();
            let missing = std::cell::Cell::new(0usize);
            let sqrt = |x: f32| match table.get(&x.to_bits()) {
                Some(&b) => f32::from_bits(b),
                None => {
                    missing.set(missing.get() + 1);
                    x.sqrt()
                }
            };
            let mut out = Vec::new();
            match case["op"].as_str().unwrap_or("") {
                "sgd" => {
                    let cfg = O::Sgd {
                        lr: f("lr", 1e-3),
                        momentum: f("momentum", 0.0),
                        dampening: f("dampening", 0.0),
                        weight_decay: f("weight_decay", 0.0),
                        nesterov: b("nesterov"),
                        maximize: b("maximize"),
                    };
                    let mut buf = None;
                    for k in 0..steps {
                        O::sgd_step(&cfg, &mut p, &grad(k), &mut buf);
                        out.extend_from_slice(&p);
                    }
                }
                op @ ("adam" | "adamw") => {
                    let betas = kw["betas"].as_array();
                    let beta = |i: usize, d: f64| betas.and_then(|a| a[i].as_f64()).unwrap_or(d);
                    let cfg = O::Adam {
                        lr: f("lr", 1e-3),
                        beta1: beta(0, 0.9),
                        beta2: beta(1, 0.999),
                        eps: f("eps", 1e-8),
                        weight_decay: f("weight_decay", if op == "adamw" { 1e-2 } else { 0.0 }),
                        amsgrad: b("amsgrad"),
                        maximize: b("maximize"),
                        decoupled_weight_decay: op == "adamw",
                    };
                    let mut st = O::AdamState::new(n, cfg.amsgrad);
                    for k in 0..steps {
                        O::adam_step_with_sqrt(&cfg, &mut p, &grad(k), &mut st, sqrt);
                        out.extend_from_slice(&p);
                    }
                }
                "rmsprop" => {
                    let cfg = O::RmsProp {
                        lr: f("lr", 1e-2),
                        alpha: f("alpha", 0.99),
                        eps: f("eps", 1e-8),
                        weight_decay: f("weight_decay", 0.0),
                        momentum: f("momentum", 0.0),
                        centered: b("centered"),
                        maximize: b("maximize"),
                    };
                    let mut st = O::RmsPropState::new(n);
                    for k in 0..steps {
                        O::rmsprop_step_with_sqrt(&cfg, &mut p, &grad(k), &mut st, sqrt);
                        out.extend_from_slice(&p);
                    }
                }
                op => return Err(format!("unknown optimizer {op}")),
            }
            if missing.get() > 0 {
                return Err(format!(
                    "{} square roots of values PyTorch never had (the state diverged)",
                    missing.get()
                ));
            }
            Ok(Bits::F32(out))
        }),
    );
}

/// Ops PyTorch computes in MKL: the stand-ins are not bit-exact, so this measures how often they
/// differ from PyTorch and by how much, and holds those to what docs/engine.md states.
#[test]
fn mkl_stand_ins() {
    use nx::unary::Unary as U;
    use std::collections::BTreeMap;
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/numerics/mkl.json");
    let doc: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("mkl.json")).expect("json");
    // op -> (elements, elements that differ, largest difference in ulps)
    let mut seen: BTreeMap<String, (usize, usize, i64)> = BTreeMap::new();
    for case in doc["cases"].as_array().expect("cases") {
        let op = case["op"].as_str().unwrap_or("");
        let x = gen_f32(&case["input"]);
        let got: Vec<f32> = if op == "logsumexp" {
            let (shape, strides, offset) = view(&case["view"]);
            let dims = usizes(&case["dims"]);
            nx::stats::logsumexp_f32(
                &x,
                nx::sum::View {
                    shape: &shape,
                    strides: &strides,
                    offset,
                },
                &dims,
            )
        } else {
            let u = match op {
                "exp" => U::Exp,
                "log" => U::Log,
                "log2" => U::Log2,
                "log10" => U::Log10,
                "sqrt" => U::Sqrt,
                "pow05" => U::PowScalar { exponent: 0.5 },
                "tanh" => U::Tanh,
                "sin" => U::Sin,
                "cos" => U::Cos,
                "tan" => U::Tan,
                "erf" => U::Erf,
                "erfc" => U::Erfc,
                _ => panic!("unknown op {op}"),
            };
            assert!(u.is_mkl(), "{op} should be marked as an MKL op");
            let mut out = vec![0f32; x.len()];
            nx::unary::unary_f32(u, &x, &mut out);
            out
        };
        let want: Vec<u32> =
            numerics_support::unpack_hex(case["expect"]["hex"].as_str().expect("hex"), 8)
                .into_iter()
                .map(|b| b as u32)
                .collect();
        assert_eq!(got.len(), want.len(), "{op}: length");
        let e = seen.entry(op.to_string()).or_default();
        for (g, &w) in got.iter().zip(&want) {
            e.0 += 1;
            let wf = f32::from_bits(w);
            if g.to_bits() != w && !(g.is_nan() && wf.is_nan()) {
                e.1 += 1;
                let ulps = (g.to_bits() as i64 - w as i64).abs();
                e.2 = e.2.max(ulps);
            }
        }
    }
    // Bounds: the rates measured on these recorded samples (docs/engine.md, "Numerics"), which
    // are higher than over all float32 inputs because typical values are the hard ones.
    let bound = |op: &str| -> (f64, i64) {
        match op {
            "sqrt" | "pow05" => (0.16, 1),
            "tan" => (0.19, 1),
            "log" | "sin" | "cos" | "erfc" | "logsumexp" => (0.06, 1),
            "exp" | "erf" => (0.02, 1),
            _ => (0.01, 1),
        }
    };
    let mut report = Vec::new();
    for (op, (n, bad, max_ulp)) in &seen {
        let rate = *bad as f64 / *n as f64;
        report.push(format!(
            "{op}: {bad} of {n} differ ({:.2}%), max {max_ulp} ulp",
            100.0 * rate
        ));
        let (r, u) = bound(op);
        assert!(
            rate <= r && *max_ulp <= u,
            "{op}: {bad} of {n} differ, max {max_ulp} ulp (bound {r}, {u} ulp)"
        );
    }
    eprintln!("numerics mkl stand-ins:\n  {}", report.join("\n  "));
}

#[test]
fn prod_max_min_argmax() {
    assert_family(
        "extrema",
        run_family("extrema", |case: &Value| {
            let (shape, strides, offset) = view(&case["view"]);
            let v = nx::sum::View {
                shape: &shape,
                strides: &strides,
                offset,
            };
            let x = gen_f32(&case["input"]);
            let dims = usizes(&case["dims"]);
            Ok(match case["op"].as_str().unwrap_or("") {
                "prod" => Bits::F32(nx::reduce::prod_f32(&x, v, &dims)),
                "amax" => Bits::F32(nx::reduce::amax_f32(&x, v, &dims)),
                "amin" => Bits::F32(nx::reduce::amin_f32(&x, v, &dims)),
                op => {
                    let dim = case["dim"].as_u64().unwrap_or(0) as usize;
                    Bits::I64(nx::reduce::argmax_f32(&x, v, dim, op == "argmin"))
                }
            })
        }),
    );
}

fn unary_f64_op(name: &str) -> Result<nx::unary_f64::UnaryF64, String> {
    use nx::unary_f64::UnaryF64 as U;
    let elu = |alpha: f64, scale: f64, input_scale: f64| U::Elu {
        alpha,
        scale,
        input_scale,
    };
    Ok(match name {
        "log1p" => U::Log1p,
        "expm1" => U::Expm1,
        "sigmoid" => U::Sigmoid,
        "silu" => U::Silu,
        "softplus" => U::Softplus {
            beta: 1.0,
            threshold: 20.0,
        },
        "softplus_b3" => U::Softplus {
            beta: 3.0,
            threshold: 0.2,
        },
        "elu" => elu(1.0, 1.0, 1.0),
        "celu_a05" => elu(0.5, 1.0, 1.0 / 0.5),
        "selu" => elu(1.6732632423543772, 1.0507009873554805, 1.0),
        "mish" => U::Mish,
        "gelu" => U::Gelu,
        "gelu_tanh" => U::GeluTanh,
        "logsigmoid" => U::LogSigmoid,
        "sinh" => U::Sinh,
        "cosh" => U::Cosh,
        op => return Err(format!("unknown op {op}")),
    })
}

/// The float64 kernels: softmax/log_softmax and the elementwise ops on SLEEF's double
/// functions, the double reductions (var/std/var_mean, prod, p=2 norm), var_mean of float32.
#[test]
fn float64_kernels() {
    assert_family(
        "double",
        run_family("double", |case: &Value| {
            let op = case["op"].as_str().unwrap_or("");
            if op == "softmax" || op == "log_softmax" {
                let shape = usizes(&case["shape"]);
                let d = case["dim"].as_u64().unwrap_or(0) as usize;
                let outer: usize = shape[..d].iter().product();
                let inner: usize = shape[d + 1..].iter().product();
                let x = gen_f64(&case["input"]);
                let mut out = vec![0f64; x.len()];
                if op == "softmax" {
                    nx::softmax::softmax_f64(&x, &mut out, outer, shape[d], inner);
                } else {
                    nx::softmax::log_softmax_f64(&x, &mut out, outer, shape[d], inner);
                }
                return Ok(Bits::F64(out));
            }
            let (shape, strides, offset) = view(&case["view"]);
            let v = nx::sum::View {
                shape: &shape,
                strides: &strides,
                offset,
            };
            if let Ok(u) = unary_f64_op(op) {
                let x = gen_f64(&case["input"]);
                let out_strides = nx::iter::allocated_output_strides(&shape, &[&strides]);
                let n: usize = shape.iter().product();
                let mut out = vec![0f64; n];
                let ov = nx::sum::View {
                    shape: &shape,
                    strides: &out_strides,
                    offset: 0,
                };
                nx::unary_f64::unary_strided_f64(u, &x, v, &mut out, ov);
                return Ok(Bits::F64(numerics_support::logical(
                    &out,
                    &shape,
                    &out_strides,
                    0,
                )));
            }
            let dims = usizes(&case["dims"]);
            let correction = case["correction"].as_f64().unwrap_or(1.0);
            if !is_f64(&case["input"]) {
                // float32 var_mean over every element
                let x = gen_f32(&case["input"]);
                let (var, mean) = nx::stats::var_mean_f32(&x, v, &dims, correction, false);
                return Ok(Bits::F32([var, mean].concat()));
            }
            let x = gen_f64(&case["input"]);
            Ok(Bits::F64(match op {
                "var" | "std" => nx::stats::var_f64(&x, v, &dims, correction, op == "std"),
                "var_mean" | "std_mean" => {
                    let (var, mean) =
                        nx::stats::var_mean_f64(&x, v, &dims, correction, op == "std_mean");
                    [var, mean].concat()
                }
                "prod" => nx::reduce::prod_f64(&x, v, &dims),
                "norm2" => nx::stats::vector_norm2_f64(&x, v, &dims)
                    .ok_or("the p=2 vector path does not apply")?,
                _ => return Err(format!("unknown op {op}")),
            }))
        }),
    );
}

/// float32 atan2 and pow of two tensors: SLEEF on the leading multiple of 32 of each row whose
/// operands are contiguous or one a broadcast scalar, glibc on the rest.
#[test]
fn float32_atan2_and_tensor_pow() {
    assert_family(
        "binary",
        run_family("binary", |case: &Value| {
            let op = match case["op"].as_str().unwrap_or("") {
                "atan2" => nx::binary::Binary::Atan2,
                "pow" => nx::binary::Binary::Pow,
                op => return Err(format!("unknown op {op}")),
            };
            let (shape, ast, aoff) = view(&case["av"]);
            let (_, bst, boff) = view(&case["bv"]);
            let (a, b) = (gen_f32(&case["a"]), gen_f32(&case["b"]));
            let out_strides = nx::iter::allocated_output_strides(&shape, &[&ast, &bst]);
            let n: usize = shape.iter().product();
            let mut out = vec![0f32; n];
            let av = nx::sum::View {
                shape: &shape,
                strides: &ast,
                offset: aoff,
            };
            let bv = nx::sum::View {
                shape: &shape,
                strides: &bst,
                offset: boff,
            };
            let ov = nx::sum::View {
                shape: &shape,
                strides: &out_strides,
                offset: 0,
            };
            nx::binary::binary_strided_f32(op, &a, av, &b, bv, &mut out, ov);
            Ok(Bits::F32(numerics_support::logical(
                &out,
                &shape,
                &out_strides,
                0,
            )))
        }),
    );
}
