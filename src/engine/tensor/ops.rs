//! Elementwise ops with broadcasting and type promotion, comparisons, `where`, reductions.

use super::{Tensor, autograd, broadcast_shapes, broadcast_values, wrap_dim};
use crate::engine::device::Device;
use crate::engine::dtype::{Category, DEFAULT_FLOAT, DType, ResultType, Scalar};
use crate::engine::error::{EngineError, Result};
use crate::engine::runtime::Runtime;
use crate::engine::timing::Cost;

/// An argument of an elementwise op: a tensor or a Python number.
#[derive(Debug, Clone)]
pub enum Operand {
    Tensor(Tensor),
    Scalar(Scalar),
}

impl From<Tensor> for Operand {
    fn from(t: Tensor) -> Self {
        Operand::Tensor(t)
    }
}
impl From<&Tensor> for Operand {
    fn from(t: &Tensor) -> Self {
        Operand::Tensor(t.clone())
    }
}
impl From<Scalar> for Operand {
    fn from(s: Scalar) -> Self {
        Operand::Scalar(s)
    }
}
impl From<f64> for Operand {
    fn from(v: f64) -> Self {
        Operand::Scalar(Scalar::Float(v))
    }
}
impl From<i64> for Operand {
    fn from(v: i64) -> Self {
        Operand::Scalar(Scalar::Int(v))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    FloorDiv,
    Rem,
    Pow,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    /// `&`, `|`, `^` (bitwise; logical on bool).
    BitAnd,
    BitOr,
    BitXor,
    LogicalAnd,
    LogicalOr,
    LogicalXor,
    Maximum,
    Minimum,
}

impl BinaryOp {
    pub fn name(self) -> &'static str {
        use BinaryOp::*;
        match self {
            Add => "add",
            Sub => "sub",
            Mul => "mul",
            Div => "div",
            FloorDiv => "floor_divide",
            Rem => "remainder",
            Pow => "pow",
            Eq => "eq",
            Ne => "ne",
            Lt => "lt",
            Le => "le",
            Gt => "gt",
            Ge => "ge",
            BitAnd => "bitwise_and",
            BitOr => "bitwise_or",
            BitXor => "bitwise_xor",
            LogicalAnd => "logical_and",
            LogicalOr => "logical_or",
            LogicalXor => "logical_xor",
            Maximum => "maximum",
            Minimum => "minimum",
        }
    }
    fn is_comparison(self) -> bool {
        use BinaryOp::*;
        matches!(
            self,
            Eq | Ne | Lt | Le | Gt | Ge | LogicalAnd | LogicalOr | LogicalXor
        )
    }
    fn grad_fn(self) -> Option<&'static str> {
        use BinaryOp::*;
        Some(match self {
            Add => "AddBackward0",
            Sub => "SubBackward0",
            Mul => "MulBackward0",
            Div => "DivBackward0",
            Pow => "PowBackward0",
            Rem => "RemainderBackward0",
            Maximum => "MaximumBackward0",
            Minimum => "MinimumBackward0",
            _ => return None,
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnaryOp {
    Neg,
    Abs,
    Exp,
    Log,
    Sqrt,
    Sigmoid,
    Tanh,
    Relu,
    Sin,
    Cos,
    Floor,
    Ceil,
    Round,
    Sign,
    Reciprocal,
    LogicalNot,
    /// `~`
    BitNot,
    IsNan,
    IsFinite,
}

impl UnaryOp {
    pub fn name(self) -> &'static str {
        use UnaryOp::*;
        match self {
            Neg => "neg",
            Abs => "abs",
            Exp => "exp",
            Log => "log",
            Sqrt => "sqrt",
            Sigmoid => "sigmoid",
            Tanh => "tanh",
            Relu => "relu",
            Sin => "sin",
            Cos => "cos",
            Floor => "floor",
            Ceil => "ceil",
            Round => "round",
            Sign => "sign",
            Reciprocal => "reciprocal",
            LogicalNot => "logical_not",
            BitNot => "bitwise_not",
            IsNan => "isnan",
            IsFinite => "isfinite",
        }
    }
    fn float_only(self) -> bool {
        use UnaryOp::*;
        matches!(
            self,
            Exp | Log | Sqrt | Sigmoid | Tanh | Sin | Cos | Reciprocal
        )
    }
    fn grad_fn(self) -> Option<&'static str> {
        use UnaryOp::*;
        Some(match self {
            Neg => "NegBackward0",
            Abs => "AbsBackward0",
            Exp => "ExpBackward0",
            Log => "LogBackward0",
            Sqrt => "SqrtBackward0",
            Sigmoid => "SigmoidBackward0",
            Tanh => "TanhBackward0",
            Relu => "ReluBackward0",
            Sin => "SinBackward0",
            Cos => "CosBackward0",
            Reciprocal => "ReciprocalBackward0",
            _ => return None,
        })
    }
}

/// `reduction=` of the losses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reduction {
    None,
    Mean,
    Sum,
}

impl Reduction {
    pub fn parse(s: &str) -> Result<Reduction> {
        match s {
            "none" => Ok(Reduction::None),
            "mean" => Ok(Reduction::Mean),
            "sum" => Ok(Reduction::Sum),
            _ => Err(EngineError::value(format!(
                "{s} is not a valid value for reduction"
            ))),
        }
    }
}

fn py_floor_div_int(a: i64, b: i64) -> i64 {
    let q = a.wrapping_div(b);
    if (a.wrapping_rem(b) != 0) && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

fn py_rem_int(a: i64, b: i64) -> i64 {
    let r = a.wrapping_rem(b);
    if r != 0 && ((r < 0) != (b < 0)) {
        r + b
    } else {
        r
    }
}

impl Runtime {
    /// The common device of tensor operands (CPU 0-dim tensors may join CUDA ones, as
    /// scalars), with PyTorch's mismatch messages.
    pub(crate) fn common_device(&self, ts: &[&Tensor]) -> Result<Device> {
        if let Some(m) = ts.iter().find(|t| t.is_meta()) {
            let _ = m;
            if let Some(o) = ts.iter().find(|t| !t.is_meta()) {
                return Err(EngineError::runtime(format!(
                    "Tensor on device {} is not on the expected device meta!",
                    o.device()
                )));
            }
            return Ok(Device::Meta);
        }
        let common = ts
            .iter()
            .map(|t| t.device())
            .find(|d| *d != Device::Cpu)
            .unwrap_or(Device::Cpu);
        for t in ts {
            let d = t.device();
            if d == common || (d == Device::Cpu && t.dim() == 0 && common.is_cuda()) {
                continue;
            }
            return Err(EngineError::runtime(format!(
                "Expected all tensors to be on the same device, but found at least two devices, {common} and {d}!"
            )));
        }
        Ok(common)
    }

    fn out_grad(&self, inputs: &[&Tensor], out: &mut Tensor, grad_fn: Option<&'static str>) {
        if self.grad_enabled()
            && out.dtype().is_floating_point()
            && inputs.iter().any(|t| t.requires_grad)
            && let Some(g) = grad_fn
        {
            out.requires_grad = true;
            out.grad_fn = Some(g);
        }
    }

    /// First tensor's CUDA index (for recording host errors).
    fn dev_hint(ops: &[&Operand]) -> Option<u32> {
        ops.iter().find_map(|o| match o {
            Operand::Tensor(t) => t.device().cuda_index(),
            _ => None,
        })
    }

    /// `a <op> b` with broadcasting and promotion.
    pub fn binary(&self, op: BinaryOp, a: &Operand, b: &Operand) -> Result<Tensor> {
        let hint = Self::dev_hint(&[a, b]);
        let r = self.binary_inner(op, a, b);
        match r {
            Ok((t, cost)) => {
                self.complete(op.name(), t.device(), cost, Vec::new())?;
                Ok(t)
            }
            Err(e) => Err(self.host_error(op.name(), hint, e)),
        }
    }

    fn binary_inner(&self, op: BinaryOp, a: &Operand, b: &Operand) -> Result<(Tensor, Cost)> {
        use BinaryOp::*;
        let tensors: Vec<&Tensor> = [a, b]
            .iter()
            .filter_map(|o| match o {
                Operand::Tensor(t) => Some(t),
                _ => None,
            })
            .collect();
        if tensors.is_empty() {
            return Err(EngineError::type_error(
                "expected at least one tensor operand",
            ));
        }
        let device = self.common_device(&tensors)?;
        let mut rt = ResultType::new();
        for o in [a, b] {
            rt = match o {
                Operand::Tensor(t) => rt.tensor(t.dtype(), t.dim()),
                Operand::Scalar(s) => rt.scalar(*s),
            };
        }
        let mut compute = rt.result();
        let out_dt = match op {
            Div if compute.category() != Category::Floating => {
                compute = DEFAULT_FLOAT;
                DEFAULT_FLOAT
            }
            Eq | Ne | Lt | Le | Gt | Ge | LogicalAnd | LogicalOr | LogicalXor => DType::Bool,
            _ => compute,
        };
        if op == Sub && compute == DType::Bool {
            return Err(EngineError::runtime(
                "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead.",
            ));
        }
        if matches!(op, BitAnd | BitOr | BitXor) && compute.is_floating_point() {
            return Err(EngineError::runtime(format!(
                "\"{}_cpu\" not implemented for '{}'",
                op.name(),
                compute.scalar_name()
            )));
        }
        if op == Pow
            && compute.is_integral()
            && let Operand::Scalar(Scalar::Int(e)) = b
            && *e < 0
        {
            return Err(EngineError::runtime(
                "Integers to negative integer powers are not allowed.",
            ));
        }
        let sa: Vec<usize> = match a {
            Operand::Tensor(t) => t.shape.clone(),
            _ => vec![],
        };
        let sb: Vec<usize> = match b {
            Operand::Tensor(t) => t.shape.clone(),
            _ => vec![],
        };
        let shape = broadcast_shapes(&sa, &sb)?;
        let n = super::checked_numel(&shape)?;
        let phantom = tensors.iter().any(|t| t.is_phantom())
            || n > super::MAX_HOST_ELEMENTS
            || device == Device::Meta;
        let data = if phantom {
            None
        } else {
            // Operands are read in place when they can be (a contiguous tensor of the compute
            // dtype, a Python number, a never-written zeros tensor): copying 8 MB per operand
            // per op made a 1M-element `x + 1` spend most of its time in page faults.
            let va = ElementSource::read(a, &shape, compute);
            let vb = ElementSource::read(b, &shape, compute);
            let int = compute.category() != Category::Floating;
            if int && matches!(op, FloorDiv | Rem) && device == Device::Cpu && vb.contains_zero() {
                return Err(EngineError::runtime("ZeroDivisionError"));
            }
            // Each arm instantiates `combine` with its own closure so the op and the
            // output cast inline into one loop: a fn pointer plus a per-element dtype match
            // was most of a 1M-element `x + 1`.
            macro_rules! go {
                ($f:expr) => {
                    combine(&va, &vb, n, out_dt, $f)
                };
            }
            Some(match op {
                Add => {
                    if compute == DType::Bool {
                        go!(|x, y| ((x != 0.0) || (y != 0.0)) as i32 as f64)
                    } else {
                        go!(|x, y| x + y)
                    }
                }
                Sub => go!(|x, y| x - y),
                Mul => {
                    if compute == DType::Bool {
                        go!(|x, y| ((x != 0.0) && (y != 0.0)) as i32 as f64)
                    } else {
                        go!(|x, y| x * y)
                    }
                }
                Div => go!(|x, y| x / y),
                FloorDiv if int => go!(|x, y| {
                    if y == 0.0 {
                        0.0
                    } else {
                        py_floor_div_int(x as i64, y as i64) as f64
                    }
                }),
                FloorDiv => go!(|x, y| (x / y).floor()),
                Rem if int => go!(|x, y| {
                    if y == 0.0 {
                        0.0
                    } else {
                        py_rem_int(x as i64, y as i64) as f64
                    }
                }),
                Rem => go!(|x, y| {
                    let r = x % y;
                    if r != 0.0 && ((r < 0.0) != (y < 0.0)) {
                        r + y
                    } else {
                        r
                    }
                }),
                Pow if int => go!(|x, y| (x as i64).wrapping_pow(y.max(0.0) as u32) as f64),
                Pow => go!(|x: f64, y| x.powf(y)),
                Eq => go!(|x, y| (x == y) as i32 as f64),
                Ne => go!(|x, y| (x != y) as i32 as f64),
                Lt => go!(|x, y| (x < y) as i32 as f64),
                Le => go!(|x, y| (x <= y) as i32 as f64),
                Gt => go!(|x, y| (x > y) as i32 as f64),
                Ge => go!(|x, y| (x >= y) as i32 as f64),
                BitAnd => go!(|x, y| ((x as i64) & (y as i64)) as f64),
                BitOr => go!(|x, y| ((x as i64) | (y as i64)) as f64),
                BitXor => go!(|x, y| ((x as i64) ^ (y as i64)) as f64),
                LogicalAnd => go!(|x, y| ((x != 0.0) && (y != 0.0)) as i32 as f64),
                LogicalOr => go!(|x, y| ((x != 0.0) || (y != 0.0)) as i32 as f64),
                LogicalXor => go!(|x, y| ((x != 0.0) != (y != 0.0)) as i32 as f64),
                Maximum => go!(|x: f64, y: f64| {
                    if x.is_nan() || y.is_nan() {
                        f64::NAN
                    } else {
                        x.max(y)
                    }
                }),
                Minimum => go!(|x: f64, y: f64| {
                    if x.is_nan() || y.is_nan() {
                        f64::NAN
                    } else {
                        x.min(y)
                    }
                }),
            })
        };
        let mut out = self.alloc_tensor(shape, out_dt, device, data, false)?;
        if !op.is_comparison() {
            self.out_grad(&tensors, &mut out, op.grad_fn());
            if matches!(op, Add | Sub | Mul | Div | Pow) {
                let edge = |o: &Operand| match o {
                    Operand::Tensor(t) => autograd::edge_of(t),
                    Operand::Scalar(_) => autograd::Edge::None,
                };
                let kind = autograd::Kind::binary(op, a, b);
                autograd::attach(&mut out, &[edge(a), edge(b)], kind);
            }
        }
        let bytes = tensors.iter().map(|t| t.nbytes()).sum::<usize>() + out.nbytes();
        Ok((out, Cost::new(bytes as u64, n as u64)))
    }

    pub fn add(&self, a: &Operand, b: &Operand) -> Result<Tensor> {
        self.binary(BinaryOp::Add, a, b)
    }
    pub fn sub(&self, a: &Operand, b: &Operand) -> Result<Tensor> {
        self.binary(BinaryOp::Sub, a, b)
    }
    pub fn mul(&self, a: &Operand, b: &Operand) -> Result<Tensor> {
        self.binary(BinaryOp::Mul, a, b)
    }
    pub fn div(&self, a: &Operand, b: &Operand) -> Result<Tensor> {
        self.binary(BinaryOp::Div, a, b)
    }

    /// An elementwise function of one tensor.
    pub fn unary(&self, op: UnaryOp, t: &Tensor) -> Result<Tensor> {
        use UnaryOp::*;
        let name = op.name();
        let err = |e| Err(self.host_error(name, t.device().cuda_index(), e));
        let dt = t.dtype();
        if op == Neg && dt == DType::Bool {
            return err(EngineError::runtime(
                "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.",
            ));
        }
        if op == BitNot && dt.is_floating_point() {
            return err(EngineError::runtime(format!(
                "\"bitwise_not_cpu\" not implemented for '{}'",
                dt.scalar_name()
            )));
        }
        let out_dt = match op {
            LogicalNot | IsNan | IsFinite => DType::Bool,
            _ if op.float_only() && !dt.is_floating_point() => DEFAULT_FLOAT,
            _ => dt,
        };
        let data = if t.is_phantom() {
            None
        } else {
            let f32m = out_dt != DType::Float64;
            let f: fn(f64) -> f64 = match op {
                Neg => |x| -x,
                Abs => f64::abs,
                Exp => f64::exp,
                Log => f64::ln,
                Sqrt => f64::sqrt,
                Sigmoid => |x| 1.0 / (1.0 + (-x).exp()),
                Tanh => f64::tanh,
                Relu => |x| if x > 0.0 || x.is_nan() { x } else { 0.0 },
                Sin => f64::sin,
                Cos => f64::cos,
                Floor => f64::floor,
                Ceil => f64::ceil,
                Round => f64::round_ties_even,
                Sign => |x| {
                    if x > 0.0 {
                        1.0
                    } else if x < 0.0 {
                        -1.0
                    } else {
                        x
                    }
                },
                Reciprocal => |x| 1.0 / x,
                LogicalNot => |x| (x == 0.0) as i32 as f64,
                BitNot => |x| !(x as i64) as f64,
                IsNan => |x| x.is_nan() as i32 as f64,
                IsFinite => |x| x.is_finite() as i32 as f64,
            };
            let mut v = t.values_unchecked();
            let bitnot_bool = op == BitNot && dt == DType::Bool;
            for x in v.iter_mut() {
                let y = if bitnot_bool {
                    (*x == 0.0) as i32 as f64
                } else if f32m && matches!(op, Exp | Log | Tanh | Sin | Cos | Sigmoid | Sqrt) {
                    // float32 math, like PyTorch's float kernels
                    let xf = *x as f32;
                    (match op {
                        Exp => xf.exp(),
                        Log => xf.ln(),
                        Tanh => xf.tanh(),
                        Sin => xf.sin(),
                        Cos => xf.cos(),
                        Sqrt => xf.sqrt(),
                        _ => 1.0 / (1.0 + (-xf).exp()),
                    }) as f64
                } else {
                    f(*x)
                };
                *x = out_dt.cast(y);
            }
            Some(v)
        };
        let mut out = match self.alloc_tensor(t.shape.clone(), out_dt, t.device(), data, false) {
            Ok(o) => o,
            Err(e) => return err(e),
        };
        self.out_grad(&[t], &mut out, op.grad_fn());
        if op.grad_fn().is_some() {
            let kind = autograd::Kind::Unary(op, t.detach(), out.detach());
            autograd::attach(&mut out, &[autograd::edge_of(t)], kind);
        }
        let cost = Cost::new((t.nbytes() + out.nbytes()) as u64, t.numel() as u64);
        self.complete(name, t.device(), cost, Vec::new())?;
        Ok(out)
    }

    /// `clamp(min, max)` with Python-number bounds.
    pub fn clamp(&self, t: &Tensor, min: Option<Scalar>, max: Option<Scalar>) -> Result<Tensor> {
        if min.is_none() && max.is_none() {
            return Err(self.host_error(
                "clamp",
                t.device().cuda_index(),
                EngineError::runtime(
                    "torch.clamp: At least one of 'min' or 'max' must not be None",
                ),
            ));
        }
        let mut rt = ResultType::new().tensor(t.dtype(), t.dim());
        for s in [min, max].into_iter().flatten() {
            rt = rt.scalar(s);
        }
        let dt = rt.result();
        let lo = min.map(|s| dt.cast(s.as_f64()));
        let hi = max.map(|s| dt.cast(s.as_f64()));
        let data = if t.is_phantom() {
            None
        } else {
            Some(
                t.values_unchecked()
                    .into_iter()
                    .map(|x| {
                        let mut y = dt.cast(x);
                        if let Some(l) = lo
                            && y < l
                        {
                            y = l;
                        }
                        if let Some(h) = hi
                            && y > h
                        {
                            y = h;
                        }
                        y
                    })
                    .collect(),
            )
        };
        let mut out = self
            .alloc_tensor(t.shape.clone(), dt, t.device(), data, false)
            .map_err(|e| self.host_error("clamp", t.device().cuda_index(), e))?;
        self.out_grad(&[t], &mut out, Some("ClampBackward1"));
        self.complete(
            "clamp",
            t.device(),
            Cost::new(2 * t.nbytes() as u64, t.numel() as u64),
            Vec::new(),
        )?;
        Ok(out)
    }

    /// `torch.where(cond, a, b)`.
    pub fn where_(&self, cond: &Tensor, a: &Operand, b: &Operand) -> Result<Tensor> {
        let hint = cond.device().cuda_index();
        let r = (|| -> Result<Tensor> {
            if cond.dtype() != DType::Bool {
                return Err(EngineError::runtime(format!(
                    "where expected condition to be a boolean tensor, but got a tensor with dtype {}",
                    cond.dtype().scalar_name()
                )));
            }
            let mut ts: Vec<&Tensor> = vec![cond];
            let mut rt = ResultType::new();
            let mut shape = cond.shape.clone();
            for o in [a, b] {
                match o {
                    Operand::Tensor(t) => {
                        ts.push(t);
                        rt = rt.tensor(t.dtype(), t.dim());
                        shape = broadcast_shapes(&shape, &t.shape)?;
                    }
                    Operand::Scalar(s) => rt = rt.scalar(*s),
                }
            }
            let device = self.common_device(&ts)?;
            let dt = rt.result();
            let n = super::checked_numel(&shape)?;
            let phantom = ts.iter().any(|t| t.is_phantom()) || n > super::MAX_HOST_ELEMENTS;
            let data = if phantom {
                None
            } else {
                let c = broadcast_values(cond, &shape);
                let get = |o: &Operand| match o {
                    Operand::Tensor(t) => broadcast_values(t, &shape),
                    Operand::Scalar(s) => vec![s.as_f64(); n],
                };
                let (va, vb) = (get(a), get(b));
                Some(
                    (0..n)
                        .map(|i| dt.cast(if c[i] != 0.0 { va[i] } else { vb[i] }))
                        .collect(),
                )
            };
            let mut out = self.alloc_tensor(shape, dt, device, data, false)?;
            self.out_grad(&ts, &mut out, Some("WhereBackward0"));
            Ok(out)
        })();
        match r {
            Ok(t) => {
                self.complete(
                    "where",
                    t.device(),
                    Cost::new(4 * t.nbytes() as u64, t.numel() as u64),
                    Vec::new(),
                )?;
                Ok(t)
            }
            Err(e) => Err(self.host_error("where", hint, e)),
        }
    }

    // ----- reductions -----

    /// Values grouped per output element: (output shape, groups of reduced values).
    fn reduce_groups(
        &self,
        t: &Tensor,
        dims: Option<&[i64]>,
        keepdim: bool,
    ) -> Result<(Vec<usize>, usize, Tensor)> {
        let nd = t.dim();
        let mut red = vec![false; nd];
        match dims {
            None => red.iter_mut().for_each(|r| *r = true),
            Some(ds) if ds.is_empty() => red.iter_mut().for_each(|r| *r = true),
            Some(ds) => {
                for &d in ds {
                    let d = wrap_dim(d, nd)?;
                    if nd > 0 {
                        red[d] = true;
                    }
                }
            }
        }
        let keep: Vec<usize> = (0..nd).filter(|&i| !red[i]).collect();
        let rdims: Vec<usize> = (0..nd).filter(|&i| red[i]).collect();
        let perm: Vec<i64> = keep.iter().chain(rdims.iter()).map(|&i| i as i64).collect();
        let p = if nd > 0 { t.permute(&perm)? } else { t.clone() };
        let group: usize = rdims.iter().map(|&i| t.shape[i]).product();
        let out_shape: Vec<usize> = if keepdim {
            (0..nd)
                .map(|i| if red[i] { 1 } else { t.shape[i] })
                .collect()
        } else {
            keep.iter().map(|&i| t.shape[i]).collect()
        };
        // The reduced dims last: each output element reduces one contiguous run of `group`
        // values of `p`.
        Ok((out_shape, group, p))
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn reduce_op(
        &self,
        name: &'static str,
        t: &Tensor,
        dims: Option<&[i64]>,
        keepdim: bool,
        out_dt: DType,
        f: impl Fn(&[f64]) -> f64,
        grad_fn: Option<&'static str>,
    ) -> Result<Tensor> {
        let (shape, group, grouped) = self
            .reduce_groups(t, dims, keepdim)
            .map_err(|e| self.host_error(name, t.device().cuda_index(), e))?;
        let n = super::checked_numel(&shape)
            .map_err(|e| self.host_error(name, t.device().cuda_index(), e))?;
        // An empty reduced dim makes an output larger than the input (sum of a
        // [1000, 2**20, 0] over its last dim): bound it like any other result.
        let data = if t.is_phantom() || n > super::MAX_HOST_ELEMENTS {
            None
        } else if group == 0 {
            Some(vec![out_dt.cast(f(&[])); n])
        } else {
            Some(
                grouped.with_values(|vals| vals.chunks(group).map(|c| out_dt.cast(f(c))).collect()),
            )
        };
        let mut out = self
            .alloc_tensor(shape, out_dt, t.device(), data, false)
            .map_err(|e| self.host_error(name, t.device().cuda_index(), e))?;
        self.out_grad(&[t], &mut out, grad_fn);
        self.complete(
            name,
            t.device(),
            Cost::new((t.nbytes() + out.nbytes()) as u64, t.numel() as u64),
            Vec::new(),
        )?;
        Ok(out)
    }

    /// `sum(dim=None, keepdim=False, dtype=None)`; ints and bools sum to int64.
    pub fn sum(
        &self,
        t: &Tensor,
        dims: Option<&[i64]>,
        keepdim: bool,
        dtype: Option<DType>,
    ) -> Result<Tensor> {
        let dt = dtype.unwrap_or(if t.dtype().is_floating_point() {
            t.dtype()
        } else {
            DType::Int64
        });
        let mut out = self.reduce_op(
            "sum",
            t,
            dims,
            keepdim,
            dt,
            |c| c.iter().sum(),
            Some("SumBackward0"),
        )?;
        Self::reduce_node(&mut out, t, dims, keepdim, false);
        Ok(out)
    }

    /// The backward node of sum/mean over `dims`.
    fn reduce_node(out: &mut Tensor, t: &Tensor, dims: Option<&[i64]>, keepdim: bool, mean: bool) {
        let nd = t.dim();
        let mut reduced = vec![dims.is_none_or(|d| d.is_empty()); nd];
        for &d in dims.unwrap_or(&[]) {
            if let Ok(d) = wrap_dim(d, nd)
                && nd > 0
            {
                reduced[d] = true;
            }
        }
        let kind = autograd::Kind::Reduce {
            in_shape: t.shape.clone(),
            reduced,
            keepdim,
            mean,
        };
        autograd::attach(out, &[autograd::edge_of(t)], kind);
    }

    pub fn mean(&self, t: &Tensor, dims: Option<&[i64]>, keepdim: bool) -> Result<Tensor> {
        if !t.dtype().is_floating_point() {
            return Err(self.host_error(
                "mean",
                t.device().cuda_index(),
                // torch 2.15 raises this as NotImplementedError (recorded: reduce_mean_int_error)
                EngineError::not_implemented(format!(
                    "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: {}",
                    t.dtype().scalar_name()
                )),
            ));
        }
        let dt = t.dtype();
        self.reduce_op(
            "mean",
            t,
            dims,
            keepdim,
            dt,
            |c| {
                if dt == DType::Float64 {
                    c.iter().sum::<f64>() / c.len() as f64
                } else {
                    (c.iter().sum::<f64>() as f32 / c.len() as f32) as f64
                }
            },
            Some("MeanBackward0"),
        )
        .map(|mut out| {
            Self::reduce_node(&mut out, t, dims, keepdim, true);
            out
        })
    }

    pub fn prod(&self, t: &Tensor, dim: Option<i64>, keepdim: bool) -> Result<Tensor> {
        let dt = if t.dtype().is_floating_point() {
            t.dtype()
        } else {
            DType::Int64
        };
        let dims = dim.map(|d| vec![d]);
        self.reduce_op(
            "prod",
            t,
            dims.as_deref(),
            keepdim,
            dt,
            |c| c.iter().product(),
            Some("ProdBackward0"),
        )
    }

    /// `std`/`var` with Bessel's correction (`unbiased=True`, i.e. correction=1).
    pub fn var(
        &self,
        t: &Tensor,
        dims: Option<&[i64]>,
        correction: f64,
        keepdim: bool,
        std: bool,
    ) -> Result<Tensor> {
        let name = if std { "std" } else { "var" };
        if !t.dtype().is_floating_point() {
            return Err(self.host_error(
                name,
                t.device().cuda_index(),
                EngineError::runtime(
                    "std and var only support floating point and complex dtypes".to_string(),
                ),
            ));
        }
        self.reduce_op(
            name,
            t,
            dims,
            keepdim,
            t.dtype(),
            |c| {
                let n = c.len() as f64;
                let m = c.iter().sum::<f64>() / n;
                let v =
                    c.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - correction).max(0.0);
                if std { v.sqrt() } else { v }
            },
            Some(if std { "StdBackward0" } else { "VarBackward0" }),
        )
    }

    pub fn any(&self, t: &Tensor, dim: Option<i64>, keepdim: bool) -> Result<Tensor> {
        let dims = dim.map(|d| vec![d]);
        self.reduce_op(
            "any",
            t,
            dims.as_deref(),
            keepdim,
            DType::Bool,
            |c| c.iter().any(|&x| x != 0.0) as i32 as f64,
            None,
        )
    }

    pub fn all(&self, t: &Tensor, dim: Option<i64>, keepdim: bool) -> Result<Tensor> {
        let dims = dim.map(|d| vec![d]);
        self.reduce_op(
            "all",
            t,
            dims.as_deref(),
            keepdim,
            DType::Bool,
            |c| c.iter().all(|&x| x != 0.0) as i32 as f64,
            None,
        )
    }

    /// `max()` / `min()` over all elements.
    pub fn max_all(&self, t: &Tensor, is_max: bool) -> Result<Tensor> {
        let name = if is_max { "max" } else { "min" };
        if t.numel() == 0 {
            return Err(self.host_error(name, t.device().cuda_index(), EngineError::runtime(format!(
                "{name}(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument."
            ))));
        }
        self.reduce_op(
            name,
            t,
            None,
            false,
            t.dtype(),
            move |c| extreme(c, is_max).1,
            Some(if is_max {
                "MaxBackward1"
            } else {
                "MinBackward1"
            }),
        )
    }

    /// `max(dim)` / `min(dim)`: (values, indices).
    pub fn max_dim(
        &self,
        t: &Tensor,
        dim: i64,
        keepdim: bool,
        is_max: bool,
    ) -> Result<(Tensor, Tensor)> {
        let name = if is_max { "max" } else { "min" };
        let values = self.reduce_op(
            name,
            t,
            Some(&[dim]),
            keepdim,
            t.dtype(),
            move |c| extreme(c, is_max).1,
            Some(if is_max {
                "MaxBackward0"
            } else {
                "MinBackward0"
            }),
        )?;
        let idx = self.reduce_op(
            name,
            t,
            Some(&[dim]),
            keepdim,
            DType::Int64,
            move |c| extreme(c, is_max).0 as f64,
            None,
        )?;
        Ok((values, idx))
    }

    /// `argmax(dim=None)` / `argmin`.
    pub fn argmax(
        &self,
        t: &Tensor,
        dim: Option<i64>,
        keepdim: bool,
        is_max: bool,
    ) -> Result<Tensor> {
        let name = if is_max { "argmax" } else { "argmin" };
        if t.numel() == 0 {
            return Err(self.host_error(
                name,
                t.device().cuda_index(),
                EngineError::index(format!(
                    "{name}(): Expected reduction dim to be specified for input.numel() == 0."
                )),
            ));
        }
        let dims = dim.map(|d| vec![d]);
        let flat;
        let src = if dim.is_none() {
            flat = t.view_of(vec![t.numel()], vec![1], 0);
            // a flat view is only right for contiguous data
            if t.is_contiguous() { &flat } else { t }
        } else {
            t
        };
        if dim.is_none() && !t.is_contiguous() {
            let c = self.contiguous(t)?;
            let f = c.view_of(vec![c.numel()], vec![1], c.offset);
            return self.reduce_op(
                name,
                &f,
                None,
                keepdim,
                DType::Int64,
                move |c| extreme(c, is_max).0 as f64,
                None,
            );
        }
        let src = if dim.is_none() {
            src.view_of(vec![t.numel()], vec![1], t.offset)
        } else {
            src.clone()
        };
        self.reduce_op(
            name,
            &src,
            dims.as_deref(),
            keepdim,
            DType::Int64,
            move |c| extreme(c, is_max).0 as f64,
            None,
        )
    }
}

/// (index, value) of the first maximum (or minimum); NaN wins.
fn extreme(c: &[f64], is_max: bool) -> (usize, f64) {
    let mut bi = 0;
    let mut bv = c.first().copied().unwrap_or(f64::NAN);
    for (i, &v) in c.iter().enumerate() {
        if bv.is_nan() {
            break;
        }
        if v.is_nan() || (is_max && v > bv) || (!is_max && v < bv) {
            bi = i;
            bv = v;
        }
    }
    (bi, bv)
}

/// `f` applied to `a` and `b` element by element, cast to `out`. Generic over `f` and over the
/// cast so both inline into the loop.
fn combine(
    a: &ElementSource,
    b: &ElementSource,
    n: usize,
    out: DType,
    f: impl Fn(f64, f64) -> f64,
) -> Vec<f64> {
    match out {
        DType::Float32 => combine_cast(a, b, n, f, |v| v as f32 as f64),
        DType::Float64 => combine_cast(a, b, n, f, |v| v),
        other => combine_cast(a, b, n, f, move |v| other.cast(v)),
    }
}

fn combine_cast(
    a: &ElementSource,
    b: &ElementSource,
    n: usize,
    f: impl Fn(f64, f64) -> f64,
    cast: impl Fn(f64) -> f64,
) -> Vec<f64> {
    use crate::engine::hostbuf::{collect, filled};
    match (a, b) {
        (ElementSource::Constant(x), ElementSource::Constant(y)) => filled(n, cast(f(*x, *y))),
        (ElementSource::Constant(x), _) => collect(b.slice().iter().map(|&y| cast(f(*x, y)))),
        (_, ElementSource::Constant(y)) => collect(a.slice().iter().map(|&x| cast(f(x, *y)))),
        _ => collect(
            a.slice()
                .iter()
                .zip(b.slice())
                .map(|(&x, &y)| cast(f(x, y))),
        ),
    }
}

/// The elements of one operand of an elementwise op, in the result's logical order.
enum ElementSource<'a> {
    /// Every element has this value (a Python number, or a tensor that was never written).
    Constant(f64),
    /// A contiguous tensor of the right shape and dtype, read in place.
    Borrowed(std::cell::Ref<'a, [f64]>),
    /// Broadcast and/or cast into a fresh buffer.
    Owned(Vec<f64>),
}

impl<'a> ElementSource<'a> {
    /// `o`'s elements broadcast to `shape` and cast to `compute`, borrowed
    /// from the tensor when no broadcast or cast is needed.
    fn read(o: &'a Operand, shape: &[usize], compute: DType) -> ElementSource<'a> {
        match o {
            Operand::Scalar(s) => ElementSource::Constant(compute.cast(s.as_f64())),
            Operand::Tensor(t) => {
                let data = t.storage.data.borrow();
                if data.is_empty() {
                    ElementSource::Constant(0.0)
                } else if t.shape == shape && t.dtype() == compute && t.is_contiguous() {
                    let range = t.offset..t.offset + t.numel();
                    ElementSource::Borrowed(std::cell::Ref::map(data, |d| &d[range]))
                } else {
                    drop(data);
                    let v = broadcast_values(t, shape);
                    ElementSource::Owned(if t.dtype() == compute {
                        v
                    } else {
                        v.into_iter().map(|x| compute.cast(x)).collect()
                    })
                }
            }
        }
    }

    /// The elements as a slice; not for `Constant`, which has no buffer.
    fn slice(&self) -> &[f64] {
        match self {
            ElementSource::Constant(_) => &[],
            ElementSource::Borrowed(s) => &s[..],
            ElementSource::Owned(v) => v,
        }
    }

    fn contains_zero(&self) -> bool {
        match self {
            ElementSource::Constant(x) => *x == 0.0,
            _ => self.slice().contains(&0.0),
        }
    }
}
