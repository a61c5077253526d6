//! `torch._C._adam_update_` and `torch._C._sgd_update_`: one optimiser step of one float32 CPU
//! parameter in one pass over its elements (engine::numerics::optim), for the single-tensor
//! paths of torch/optim.py. Each element goes through the float32 ops of those paths in their
//! order, so the bits are the op-by-op path's; what is saved is a buffer and a pass per op.
//! Each answers False and changes nothing where one pass cannot stand in for the ops (another
//! device or dtype, a strided, shared or value-less buffer, an inference tensor, grad mode on):
//! optim.py then runs its ops one by one, with their errors.

use super::need_tensor;
use crate::engine::host::HostStorage;
use crate::engine::numerics::optim::{AdamScalars, SgdScalars, adam_update, sgd_update};
use crate::engine::storage::DeviceStorage;
use crate::engine::timing::Cost;
use crate::engine::{DType, Device, Runtime, Tensor};
use crate::script::{Args, ExcType, Module, PyException, PyResult, Value};
use std::cell::RefMut;
use std::rc::Rc;

pub(crate) fn register(m: &Module, rt: &Rc<Runtime>) {
    let r = rt.clone();
    // _adam_update_(param, grad, exp_avg, exp_avg_sq, max_exp_avg_sq, maximize, decay_factor,
    //               l2, one_minus_beta1, beta2, one_minus_beta2, bias_correction2_sqrt, eps,
    //               neg_step_size): decay_factor / l2 / max_exp_avg_sq None when off
    m.add_fn("_adam_update_", move |it, args| {
        super::at_line(&r, it);
        adam(&r, &args)
    });
    let r = rt.clone();
    // _sgd_update_(param, grad, momentum_buffer, maximize, weight_decay, momentum,
    //              one_minus_dampening, nesterov, neg_lr): weight_decay / momentum_buffer None
    //              when off (momentum_buffer: one from an earlier step)
    m.add_fn("_sgd_update_", move |it, args| {
        super::at_line(&r, it);
        sgd(&r, &args)
    });
}

fn arg_error(fname: &str, what: &str) -> PyException {
    PyException::new(
        ExcType::TypeError,
        format!("{fname}(): argument '{what}' has the wrong type"),
    )
}

/// A Python number as the f32 scalar an op takes (None for None).
fn number(v: &Value, fname: &str, what: &str) -> PyResult<Option<f32>> {
    match v {
        Value::None => Ok(None),
        Value::Int(i) => Ok(Some(*i as f64 as f32)),
        Value::Float(f) => Ok(Some(*f as f32)),
        Value::Bool(b) => Ok(Some(f32::from(u8::from(*b)))),
        _ => Err(arg_error(fname, what)),
    }
}

fn required(v: &Value, fname: &str, what: &str) -> PyResult<f32> {
    number(v, fname, what)?.ok_or_else(|| arg_error(fname, what))
}

fn flag(v: &Value) -> bool {
    matches!(v, Value::Bool(true))
}

fn tensor_or_none(v: &Value, fname: &str, what: &str) -> PyResult<Option<Tensor>> {
    match v {
        Value::None => Ok(None),
        v => need_tensor(v, fname, what).map(Some),
    }
}

/// Whether one pass may update `ts` (the first the parameter, every other of its shape): all
/// float32 on the CPU with values, contiguous, outside inference mode, no two sharing storage,
/// and grad mode off (as under the optimiser's `no_grad`).
fn fusable(rt: &Runtime, ts: &[&Tensor]) -> bool {
    let shape = &ts[0].layout.shape;
    !rt.grad_enabled()
        && ts.iter().all(|t| {
            t.device() == Device::Cpu
                && t.dtype() == DType::Float32
                && !t.is_phantom()
                && !t.storage.inference
                && &t.layout.shape == shape
                && t.layout.is_contiguous()
        })
        && ts
            .iter()
            .enumerate()
            .all(|(i, a)| ts[..i].iter().all(|b| !Rc::ptr_eq(&a.storage, &b.storage)))
}

/// The float32 values of a checked tensor's view, writable.
fn values_mut(t: &Tensor) -> Option<RefMut<'_, [f32]>> {
    let range = t.layout.contiguous_range()?;
    RefMut::filter_map(t.storage.data.borrow_mut(), |d| match d {
        Some(DeviceStorage::Host(HostStorage::F32(v))) => v.get_mut(range),
        _ => None,
    })
    .ok()
}

/// The ops the one pass stands for, on the host timeline as the op-by-op path records them,
/// and the writes for `run --explain`.
fn record(rt: &Runtime, ops: &[&str], written: &[&Tensor]) {
    let n = written[0].numel() as u64;
    for op in ops {
        rt.cpu_op(op, Cost::new(3 * 4 * n, n));
    }
    for t in written {
        t.storage.provenance.note_write(rt.line());
    }
}

/// An update's `n` arguments, the first two read as the parameter and its gradient.
fn update_args<'a>(
    args: &'a Args,
    fname: &str,
    n: usize,
) -> PyResult<(&'a [Value], Tensor, Tensor)> {
    let a = args.exact(fname, n)?;
    let param = need_tensor(&a[0], fname, "param")?;
    let grad = need_tensor(&a[1], fname, "grad")?;
    Ok((a, param, grad))
}

/// The ops an update stands for (`(taken, op)` in order, those taken): what the unfused
/// optimizer would have run, for the timeline.
fn ops_taken(steps: &[(bool, &'static str)]) -> Vec<&'static str> {
    steps
        .iter()
        .filter(|(taken, _)| *taken)
        .map(|&(_, op)| op)
        .collect()
}

fn adam(rt: &Runtime, args: &Args) -> PyResult<Value> {
    const F: &str = "_adam_update_";
    let (a, param, grad) = update_args(args, F, 14)?;
    let exp_avg = need_tensor(&a[2], F, "exp_avg")?;
    let exp_avg_sq = need_tensor(&a[3], F, "exp_avg_sq")?;
    let max_sq = tensor_or_none(&a[4], F, "max_exp_avg_sq")?;
    let s = AdamScalars {
        maximize: flag(&a[5]),
        decay_factor: number(&a[6], F, "decay_factor")?,
        l2: number(&a[7], F, "l2")?,
        one_minus_beta1: required(&a[8], F, "one_minus_beta1")?,
        beta2: required(&a[9], F, "beta2")?,
        one_minus_beta2: required(&a[10], F, "one_minus_beta2")?,
        bias_correction2_sqrt: required(&a[11], F, "bias_correction2_sqrt")?,
        eps: required(&a[12], F, "eps")?,
        neg_step_size: required(&a[13], F, "neg_step_size")?,
    };
    let mut ts = vec![&param, &grad, &exp_avg, &exp_avg_sq];
    ts.extend(max_sq.as_ref());
    if !fusable(rt, &ts) {
        return Ok(Value::Bool(false));
    }
    {
        let (Some(mut p), Some(g), Some(mut m), Some(mut v)) = (
            values_mut(&param),
            values_mut(&grad),
            values_mut(&exp_avg),
            values_mut(&exp_avg_sq),
        ) else {
            return Ok(Value::Bool(false));
        };
        let mut mx = max_sq.as_ref().map(values_mut);
        if matches!(mx, Some(None)) {
            return Ok(Value::Bool(false));
        }
        adam_update(
            &s,
            &mut p,
            &g,
            &mut m,
            &mut v,
            mx.as_mut().and_then(|m| m.as_deref_mut()),
        );
    }
    let ops = ops_taken(&[
        (s.maximize, "neg"),
        (s.decay_factor.is_some(), "mul_"),
        (s.l2.is_some(), "add"),
        (true, "lerp_"),
        (true, "mul_"),
        (true, "addcmul_"),
        (max_sq.is_some(), "maximum"),
        (true, "sqrt"),
        (true, "div"),
        (true, "add_"),
        (true, "addcdiv_"),
    ]);
    let mut written = vec![&param, &exp_avg, &exp_avg_sq];
    written.extend(max_sq.as_ref());
    record(rt, &ops, &written);
    Ok(Value::Bool(true))
}

fn sgd(rt: &Runtime, args: &Args) -> PyResult<Value> {
    const F: &str = "_sgd_update_";
    let (a, param, grad) = update_args(args, F, 9)?;
    let buf = tensor_or_none(&a[2], F, "momentum_buffer")?;
    let momentum = number(&a[5], F, "momentum")?;
    let s = SgdScalars {
        maximize: flag(&a[3]),
        weight_decay: number(&a[4], F, "weight_decay")?,
        momentum: match momentum {
            Some(m) => Some((m, required(&a[6], F, "one_minus_dampening")?)),
            None => None,
        },
        nesterov: flag(&a[7]),
        neg_lr: required(&a[8], F, "neg_lr")?,
    };
    // momentum needs the buffer of an earlier step (the first step's is a new tensor)
    if s.momentum.is_some() != buf.is_some() {
        return Ok(Value::Bool(false));
    }
    let mut ts = vec![&param, &grad];
    ts.extend(buf.as_ref());
    if !fusable(rt, &ts) {
        return Ok(Value::Bool(false));
    }
    {
        let (Some(mut p), Some(g)) = (values_mut(&param), values_mut(&grad)) else {
            return Ok(Value::Bool(false));
        };
        let mut b = buf.as_ref().map(values_mut);
        if matches!(b, Some(None)) {
            return Ok(Value::Bool(false));
        }
        sgd_update(&s, &mut p, &g, b.as_mut().and_then(|b| b.as_deref_mut()));
    }
    let with_momentum = s.momentum.is_some();
    let ops = ops_taken(&[
        (s.maximize, "neg"),
        (s.weight_decay.is_some(), "add"),
        (with_momentum, "mul_"),
        (with_momentum, "add_"),
        (with_momentum && s.nesterov, "add"),
        (true, "add_"),
    ]);
    let mut written = vec![&param];
    written.extend(buf.as_ref());
    record(rt, &ops, &written);
    Ok(Value::Bool(true))
}
