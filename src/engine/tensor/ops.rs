//! Elementwise ops with broadcasting and type promotion, comparisons, `where`, clamp,
//! reductions: their front halves (checks, promotion, output, autograd, event). The values
//! come from the device interface ([`crate::engine::backend::BackendStorage`]).

use super::{Tensor, autograd, broadcast_shapes, wrap_dim};
use crate::engine::backend::{Arg, BackendStorage, Operands, ReduceOp};
use crate::engine::device::Device;
use crate::engine::dtype::{Category, DType, ResultType, Scalar, default_float};
use crate::engine::error::{EngineError, Result};
use crate::engine::layout::Layout;
use crate::engine::runtime::Runtime;
use crate::engine::storage::DeviceStorage;
use crate::engine::timing::Cost;

pub(super) use crate::engine::op::{BinaryOp, Reduction, UnaryOp};

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

/// An operand made ready for a back half: read in place, cast into a temporary, or a
/// number.
pub(crate) enum Prepared<'a> {
    Borrowed(std::cell::Ref<'a, Option<DeviceStorage>>, Layout),
    Owned(DeviceStorage, Layout),
    Scalar(Scalar),
}

impl Prepared<'_> {
    pub(crate) fn arg(&self) -> Result<Arg<'_, DeviceStorage>> {
        Ok(match self {
            Prepared::Borrowed(r, l) => Arg::Tensor(
                r.as_ref()
                    .ok_or_else(|| EngineError::runtime("internal: a phantom reached a kernel"))?,
                l,
            ),
            Prepared::Owned(s, l) => Arg::Tensor(s, l),
            Prepared::Scalar(s) => Arg::Scalar(*s),
        })
    }
    /// The storage and layout of a tensor operand.
    pub(crate) fn pair(&self) -> Result<(&DeviceStorage, &Layout)> {
        match self.arg()? {
            Arg::Tensor(s, l) => Ok((s, l)),
            Arg::Scalar(_) => Err(EngineError::runtime(
                "internal: a number where a tensor was expected",
            )),
        }
    }
}

/// `t`'s values as `dtype`, read through a layout broadcast to `shape` (a cast copies).
pub(crate) fn prepare<'a>(t: &'a Tensor, dtype: DType, shape: &[usize]) -> Result<Prepared<'a>> {
    let r = t.read();
    if r.is_none() && t.numel() > 0 {
        return Err(t.phantom_error());
    }
    if t.dtype() == dtype {
        return Ok(Prepared::Borrowed(r, t.layout.broadcast_as(shape)));
    }
    let cast = match r.as_ref() {
        Some(s) => s.to_dtype(&t.layout, dtype)?,
        None => return Err(t.phantom_error()),
    };
    Ok(Prepared::Owned(
        cast,
        Layout::contiguous(&t.layout.shape).broadcast_as(shape),
    ))
}

/// An elementwise operand: 0-dim CPU tensors joining a CUDA op travel as numbers, as
/// PyTorch passes them to its kernels.
fn prepare_operand<'a>(
    o: &'a Operand,
    dtype: DType,
    shape: &[usize],
    device: Device,
) -> Result<Prepared<'a>> {
    match o {
        Operand::Scalar(s) => Ok(Prepared::Scalar(*s)),
        Operand::Tensor(t)
            if t.dim() == 0 && t.device() == Device::Cpu && device != Device::Cpu =>
        {
            // the kernel converts the number to the compute dtype, as it would the element
            Ok(Prepared::Scalar(t.scalars()?[0]))
        }
        Operand::Tensor(t) => prepare(t, dtype, shape),
    }
}

impl Runtime {
    /// First tensor's CUDA index (for recording host errors).
    fn dev_hint(ops: &[&Operand]) -> Option<u32> {
        ops.iter().find_map(|o| match o {
            Operand::Tensor(t) => t.device().cuda_index(),
            _ => None,
        })
    }

    /// `a <op> b` with broadcasting and promotion.
    pub fn binary(&self, op: BinaryOp, a: &Operand, b: &Operand) -> Result<Tensor> {
        self.binary_alpha(op, a, b, None)
    }

    /// `a + alpha * b` / `a - alpha * b` (add/sub with `alpha=`: one fused multiply-add per
    /// element, as PyTorch computes it); `alpha` is ignored by the other ops.
    pub(crate) fn binary_alpha(
        &self,
        op: BinaryOp,
        a: &Operand,
        b: &Operand,
        alpha: Option<Scalar>,
    ) -> Result<Tensor> {
        let hint = Self::dev_hint(&[a, b]);
        let alpha = alpha.filter(|_| matches!(op, BinaryOp::Add | BinaryOp::Sub));
        match self.binary_inner(op, a, b, alpha) {
            Ok((t, cost)) => {
                self.complete(op.name(), t.device(), cost, Vec::new())?;
                Ok(t)
            }
            Err(e) => Err(self.host_error(op.name(), hint, e)),
        }
    }

    fn binary_inner(
        &self,
        op: BinaryOp,
        a: &Operand,
        b: &Operand,
        alpha: Option<Scalar>,
    ) -> Result<(Tensor, Cost)> {
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
            Div | Atan2 if compute.category() != Category::Floating => {
                compute = default_float();
                default_float()
            }
            Eq | Ne | Lt | Le | Gt | Ge | LogicalAnd | LogicalOr | LogicalXor => DType::Bool,
            _ => compute,
        };
        // ATen's sub_check (TORCH_CHECK_NOT_IMPLEMENTED): no bool operand at all
        if op == Sub {
            let is_bool = |o: &Operand| match o {
                Operand::Tensor(t) => t.dtype() == DType::Bool,
                Operand::Scalar(s) => matches!(s, Scalar::Bool(_)),
            };
            if compute == DType::Bool {
                return Err(EngineError::not_implemented(
                    "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead.",
                ));
            }
            if is_bool(a) || is_bool(b) {
                return Err(EngineError::not_implemented(
                    "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.",
                ));
            }
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
        if let Some(al) = alpha {
            // ATen's alpha_check
            if compute != DType::Bool && matches!(al, Scalar::Bool(_)) {
                return Err(EngineError::runtime(
                    "Boolean alpha only supported for Boolean results.",
                ));
            }
            if !compute.is_floating_point() && matches!(al, Scalar::Float(_)) {
                return Err(EngineError::runtime(
                    "For integral input tensors, argument alpha must not be a floating point number.",
                ));
            }
        }
        // sub(a, b, alpha) is add(a, b, -alpha)
        let fused = alpha.map(|al| match (op, al) {
            (Sub, Scalar::Int(i)) => Scalar::Int(i.wrapping_neg()),
            (Sub, Scalar::Float(f)) => Scalar::Float(-f),
            (_, al) => al,
        });
        let sa: Vec<usize> = match a {
            Operand::Tensor(t) => t.layout.shape.clone(),
            _ => vec![],
        };
        let sb: Vec<usize> = match b {
            Operand::Tensor(t) => t.layout.shape.clone(),
            _ => vec![],
        };
        let shape = broadcast_shapes(&sa, &sb)?;
        let n = super::checked_numel(&shape)?;
        let int = compute.category() != Category::Floating;
        if int
            && matches!(op, FloorDiv | Rem | Fmod | TruncDiv)
            && device == Device::Cpu
            && self.has_zero(b)?
        {
            return Err(EngineError::runtime("ZeroDivisionError"));
        }
        let mut out = self.produce(&tensors, shape.clone(), out_dt, device, || {
            let pa = prepare_operand(a, compute, &shape, device)?;
            let pb = prepare_operand(b, compute, &shape, device)?;
            match fused {
                Some(al) => DeviceStorage::add_scaled(
                    Operands::new([pa.arg()?, pb.arg()?], &shape, compute),
                    al,
                ),
                None => DeviceStorage::binary(
                    op,
                    Operands::new([pa.arg()?, pb.arg()?], &shape, compute),
                    out_dt,
                ),
            }
        })?;
        if !op.is_comparison() {
            if let Some(g) = op.grad_fn() {
                self.grad_of(&tensors, &mut out, g);
            }
            if matches!(
                op,
                Add | Sub | Mul | Div | Pow | Maximum | Minimum | Atan2 | Hypot
            ) {
                let edge = |o: &Operand| match o {
                    Operand::Tensor(t) => autograd::edge_of(t),
                    Operand::Scalar(_) => autograd::Edge::None,
                };
                let kind = autograd::Kind::binary(op, a, b, alpha);
                autograd::attach(&mut out, &[edge(a), edge(b)], kind);
                if let Some((name, shown)) = scalar_overload_node(op, a, b) {
                    out = out.into_pytorch_node(name, Some(shown));
                }
            }
        }
        let bytes = tensors.iter().map(|t| t.nbytes()).sum::<usize>() + out.nbytes();
        Ok((out, Cost::new(bytes as u64, n as u64)))
    }

    /// Whether an integer divisor has a zero (the CPU's ZeroDivisionError check).
    fn has_zero(&self, b: &Operand) -> Result<bool> {
        match b {
            Operand::Scalar(s) => Ok(s.as_f64() == 0.0),
            Operand::Tensor(t) => {
                if t.is_phantom() {
                    return Ok(false);
                }
                let h = t.host_values()?;
                crate::engine::host::elementwise::has_zero(Arg::Tensor(
                    &h,
                    &Layout::contiguous(&[t.numel()]),
                ))
            }
        }
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
            // torch 2.15 raises it as NotImplementedError (recorded: conformance op_neg e0)
            return err(EngineError::not_implemented(
                "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.",
            ));
        }
        if op == Relu && dt == DType::Bool {
            // ATen's relu (TORCH_CHECK_NOT_IMPLEMENTED)
            return err(EngineError::not_implemented(
                "Boolean inputs not supported for relu",
            ));
        }
        if op == BitNot && dt.is_floating_point() {
            // ATen's dispatch: NotImplementedError, as the fused activations below
            return err(EngineError::not_implemented(format!(
                "\"bitwise_not_cpu\" not implemented for '{}'",
                dt.scalar_name()
            )));
        }
        if op.is_activation() && !dt.is_floating_point() {
            return err(EngineError::not_implemented(format!(
                "\"{}_cpu\" not implemented for '{}'",
                name,
                dt.scalar_name()
            )));
        }
        let out_dt = match op {
            LogicalNot | IsNan | IsFinite => DType::Bool,
            _ if op.float_only() && !dt.is_floating_point() => default_float(),
            _ => dt,
        };
        // integer inputs of float functions are computed in float32
        let in_dt = if op.float_only() { out_dt } else { dt };
        let shape = t.layout.shape.clone();
        let mut out = match self.produce(&[t], shape.clone(), out_dt, t.device(), || {
            let p = prepare(t, in_dt, &shape)?;
            let (s, l) = p.pair()?;
            s.unary(l, op, out_dt)
        }) {
            Ok(o) => o,
            Err(e) => return err(e),
        };
        if let Some(g) = op.grad_fn() {
            self.grad_of(&[t], &mut out, g);
            // without a formula the node stays unattached: backward raises NotImplementedError
            if op.has_backward() {
                let kind = autograd::Kind::Unary(op, t.detach(), out.detach());
                autograd::attach(&mut out, &[autograd::edge_of(t)], kind);
            }
        }
        self.complete_pass(name, t, out)
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
        let shape = t.layout.shape.clone();
        let mut out = self
            .produce(&[t], shape.clone(), dt, t.device(), || {
                let p = prepare(t, dt, &shape)?;
                let (s, l) = p.pair()?;
                s.clamp(l, min, max)
            })
            .map_err(|e| self.host_error("clamp", t.device().cuda_index(), e))?;
        self.grad_of(&[t], &mut out, "ClampBackward1");
        let kind = autograd::Kind::Clamp {
            x: t.detach(),
            min,
            max,
        };
        autograd::attach(&mut out, &[autograd::edge_of(t)], kind);
        self.complete(
            "clamp",
            t.device(),
            Cost::new(2 * t.nbytes() as u64, t.numel() as u64),
            Vec::new(),
        )?;
        Ok(out)
    }

    /// `clamp(min, max)` where a bound is a tensor (`clamp.Tensor`): ATen computes
    /// `min(max(x, lo), hi)` in the dtype promoted over the input and both bounds, NaN in any
    /// of them giving NaN, which is `minimum(maximum(x, lo), hi)` elementwise. Its backward
    /// (ClampBackward0) is not implemented: the node stays unattached, so `backward()` raises
    /// NotImplementedError rather than splitting ties as maximum's backward would.
    pub(crate) fn clamp_tensor(
        &self,
        t: &Tensor,
        min: Option<&Operand>,
        max: Option<&Operand>,
    ) -> Result<Tensor> {
        if min.is_none() && max.is_none() {
            return self.clamp(t, None, None);
        }
        let mut rt = ResultType::new().tensor(t.dtype(), t.dim());
        for b in [min, max].into_iter().flatten() {
            rt = match b {
                Operand::Tensor(b) => rt.tensor(b.dtype(), b.dim()),
                Operand::Scalar(s) => rt.scalar(*s),
            };
        }
        let dt = rt.result();
        if dt == DType::Bool && min.is_some() && max.is_some() {
            return Err(self.host_error(
                "clamp",
                t.device().cuda_index(),
                EngineError::runtime("\"clamp_cpu\" not implemented for 'Bool'"),
            ));
        }
        // the bounds in the common dtype, detached: the composition must not record
        // maximum's and minimum's backward nodes
        let cast = |o: &Operand| -> Result<Operand> {
            Ok(match o {
                Operand::Tensor(b) => {
                    Operand::Tensor(self.to(&b.detach(), None, Some(dt), false, false, "clamp")?)
                }
                Operand::Scalar(s) => Operand::Scalar(*s),
            })
        };
        let mut out = self.to(&t.detach(), None, Some(dt), false, false, "clamp")?;
        if let Some(lo) = min {
            out = self.binary(BinaryOp::Maximum, &Operand::Tensor(out), &cast(lo)?)?;
        }
        if let Some(hi) = max {
            out = self.binary(BinaryOp::Minimum, &Operand::Tensor(out), &cast(hi)?)?;
        }
        let mut inputs = vec![t];
        for b in [min, max].into_iter().flatten() {
            if let Operand::Tensor(b) = b {
                inputs.push(b);
            }
        }
        self.grad_of(&inputs, &mut out, "ClampBackward0");
        Ok(out)
    }

    /// `torch.addcmul(a, b, c, value=)`, `torch.addcdiv(a, b, c, value=)` and
    /// `torch.lerp(a, b, weight c)` (a tensor or a number): broadcast, promoted (lerp: one
    /// dtype for all its tensors, as ATen asks), computed as PyTorch's CPU kernels round it,
    /// with their autograd nodes.
    pub(crate) fn ternary(
        &self,
        op: crate::engine::backend::TernaryOp,
        a: &Tensor,
        b: &Tensor,
        c: &Operand,
        value: Scalar,
    ) -> Result<Tensor> {
        use crate::engine::backend::TernaryOp;
        let hint = a.device().cuda_index();
        let r = (|| -> Result<(Tensor, Cost)> {
            let mut ts: Vec<&Tensor> = vec![a, b];
            if let Operand::Tensor(t) = c {
                ts.push(t);
            }
            let device = self.common_device(&ts)?;
            let mut rt = ResultType::new();
            let mut shape = a.layout.shape.clone();
            for t in &ts {
                rt = rt.tensor(t.dtype(), t.dim());
                shape = broadcast_shapes(&shape, &t.layout.shape)?;
            }
            let dt = rt.result();
            if op == TernaryOp::Lerp {
                // c10's TypeMeta names, as ATen's lerp check prints them
                let meta = |d: DType| match d {
                    DType::Float32 => "float",
                    DType::Float64 => "double",
                    DType::Float16 => "c10::Half",
                    DType::BFloat16 => "c10::BFloat16",
                    DType::Int64 => "long int",
                    DType::Int32 => "int",
                    DType::Int16 => "short int",
                    DType::Int8 => "signed char",
                    DType::UInt8 => "unsigned char",
                    _ => "bool",
                };
                let names = ["end", "weight"];
                for (t, name) in ts[1..].iter().zip(names) {
                    if t.dtype() != a.dtype() {
                        return Err(EngineError::runtime(format!(
                            "expected dtype {} for `{name}` but got dtype {}",
                            meta(a.dtype()),
                            meta(t.dtype())
                        )));
                    }
                }
                if !dt.is_floating_point() {
                    let k = if matches!(c, Operand::Scalar(_)) {
                        "lerp_kernel_scalar"
                    } else {
                        "lerp_kernel_tensor"
                    };
                    return Err(EngineError::runtime(format!(
                        "\"{k}\" not implemented for '{}'",
                        dt.scalar_name()
                    )));
                }
            }
            if op == TernaryOp::Addcdiv
                && !b.dtype().is_floating_point()
                && matches!(c, Operand::Tensor(t) if !t.dtype().is_floating_point())
            {
                return Err(EngineError::runtime(
                    "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform a true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as (input + value * tensor1 / tensor2) for float inputs. The future addcdiv behavior is just the latter implementation: (input + value * tensor1 / tensor2), for all dtypes.",
                ));
            }
            if dt == DType::Bool && op == TernaryOp::Addcmul {
                return Err(EngineError::not_implemented(
                    "\"addcmul_cpu_out\" not implemented for 'Bool'",
                ));
            }
            if !dt.is_floating_point() && matches!(value, Scalar::Float(_)) {
                return Err(EngineError::runtime(
                    "For integral input tensors, argument alpha must not be a floating point number.",
                ));
            }
            let n = super::checked_numel(&shape)?;
            let a_op = Operand::Tensor(a.clone());
            let b_op = Operand::Tensor(b.clone());
            let mut out = self.produce(&ts, shape.clone(), dt, device, || {
                let pa = prepare_operand(&a_op, dt, &shape, device)?;
                let pb = prepare_operand(&b_op, dt, &shape, device)?;
                let pc = prepare_operand(c, dt, &shape, device)?;
                DeviceStorage::ternary(
                    op,
                    Operands::new([pa.arg()?, pb.arg()?, pc.arg()?], &shape, dt),
                    value,
                )
            })?;
            // lerp.Tensor is the second lerp overload: LerpBackward1
            let name = match (op, c) {
                (TernaryOp::Lerp, Operand::Tensor(_)) => "LerpBackward1",
                _ => op.grad_fn(),
            };
            self.grad_of(&ts, &mut out, name);
            let mut edges = vec![autograd::edge_of(a), autograd::edge_of(b)];
            if let Operand::Tensor(t) = c {
                edges.push(autograd::edge_of(t));
            }
            let kind = autograd::Kind::Ternary {
                op,
                a: autograd::saved(&a_op),
                b: autograd::saved(&b_op),
                c: autograd::saved(c),
                value,
            };
            autograd::attach(&mut out, &edges, kind);
            let bytes = ts.iter().map(|t| t.nbytes()).sum::<usize>() + out.nbytes();
            Ok((out, Cost::new(bytes as u64, 3 * n as u64)))
        })();
        match r {
            Ok((t, cost)) => {
                self.complete(op.name(), t.device(), cost, Vec::new())?;
                Ok(t)
            }
            Err(e) => Err(self.host_error(op.name(), hint, e)),
        }
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
            let mut shape = cond.layout.shape.clone();
            for o in [a, b] {
                match o {
                    Operand::Tensor(t) => {
                        ts.push(t);
                        rt = rt.tensor(t.dtype(), t.dim());
                        shape = broadcast_shapes(&shape, &t.layout.shape)?;
                    }
                    Operand::Scalar(s) => rt = rt.scalar(*s),
                }
            }
            let device = self.common_device(&ts)?;
            let dt = rt.result();
            super::checked_numel(&shape)?;
            let mut out = self.produce(&ts, shape.clone(), dt, device, || {
                let pc = prepare(cond, DType::Bool, &shape)?;
                let pa = prepare_operand(a, dt, &shape, device)?;
                let pb = prepare_operand(b, dt, &shape, device)?;
                DeviceStorage::where_cond(
                    pc.pair()?,
                    Operands::new([pa.arg()?, pb.arg()?], &shape, dt),
                )
            })?;
            self.grad_of(&ts, &mut out, "WhereBackward0");
            let side = |o: &Operand| match o {
                Operand::Tensor(t) => (super::autograd::edge_of(t), Some(t.layout.shape.clone())),
                Operand::Scalar(_) => (super::autograd::Edge::None, None),
            };
            let ((ea, sa), (eb, sb)) = (side(a), side(b));
            let kind = super::autograd::Kind::Where {
                cond: cond.detach(),
                a: sa,
                b: sb,
            };
            super::autograd::attach(&mut out, &[ea, eb], kind);
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

    /// Which dims `dims` reduces (all for None or empty), and the output shape.
    fn reduced_dims(
        &self,
        t: &Tensor,
        dims: Option<&[i64]>,
        keepdim: bool,
    ) -> Result<(Vec<bool>, Vec<usize>)> {
        let nd = t.dim();
        let mut red = vec![false; nd];
        match dims {
            None | Some([]) => red.iter_mut().for_each(|r| *r = true),
            Some(ds) => {
                for &d in ds {
                    let d = wrap_dim(d, nd)?;
                    if nd > 0 {
                        red[d] = true;
                    }
                }
            }
        }
        let out_shape: Vec<usize> = if keepdim {
            (0..nd)
                .map(|i| if red[i] { 1 } else { t.layout.shape[i] })
                .collect()
        } else {
            (0..nd)
                .filter(|&i| !red[i])
                .map(|i| t.layout.shape[i])
                .collect()
        };
        Ok((red, out_shape))
    }

    /// A reduction of floating inputs only (mean, norm), computed and returned in the input's
    /// dtype; another dtype gets `refusal(its name)`, PyTorch's error for it.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn floating_reduce(
        &self,
        name: &'static str,
        t: &Tensor,
        dims: Option<&[i64]>,
        keepdim: bool,
        op: ReduceOp,
        grad_fn: &'static str,
        refusal: impl FnOnce(&str) -> EngineError,
    ) -> Result<Tensor> {
        let dt = t.dtype();
        if !dt.is_floating_point() {
            let e = refusal(dt.scalar_name());
            return Err(self.host_error(name, t.device().cuda_index(), e));
        }
        self.reduce_op(name, t, dims, keepdim, dt, dt, op, Some(grad_fn))
    }

    /// One reduction's front half: `op` over `dims` of `t` cast to `in_dt`, result `out_dt`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn reduce_op(
        &self,
        name: &'static str,
        t: &Tensor,
        dims: Option<&[i64]>,
        keepdim: bool,
        in_dt: DType,
        out_dt: DType,
        op: ReduceOp,
        grad_fn: Option<&'static str>,
    ) -> Result<Tensor> {
        let hint = t.device().cuda_index();
        let (red, shape) = self
            .reduced_dims(t, dims, keepdim)
            .map_err(|e| self.host_error(name, hint, e))?;
        let mut out = self
            .produce(&[t], shape, out_dt, t.device(), || {
                let p = prepare(t, in_dt, &t.layout.shape)?;
                let (s, l) = p.pair()?;
                s.reduce(l, op, &red, out_dt)
            })
            .map_err(|e| self.host_error(name, hint, e))?;
        if let Some(g) = grad_fn {
            self.grad_of(&[t], &mut out, g);
        }
        self.complete_pass(name, t, out)
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
            dt,
            ReduceOp::Sum,
            // PyTorch's sum() is SumBackward0, sum(dim) SumBackward1 (likewise mean)
            Some(if dims.is_some() {
                "SumBackward1"
            } else {
                "SumBackward0"
            }),
        )?;
        Self::reduce_node(&mut out, t, dims, false);
        Ok(out)
    }

    /// The backward node of sum/mean over `dims`.
    fn reduce_node(out: &mut Tensor, t: &Tensor, dims: Option<&[i64]>, mean: bool) {
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
            in_shape: t.layout.shape.clone(),
            reduced,
            mean,
        };
        autograd::attach(out, &[autograd::edge_of(t)], kind);
    }

    pub fn mean(&self, t: &Tensor, dims: Option<&[i64]>, keepdim: bool) -> Result<Tensor> {
        let grad_fn = if dims.is_some() {
            "MeanBackward1"
        } else {
            "MeanBackward0"
        };
        // torch 2.15 raises this as NotImplementedError (recorded: reduce_mean_int_error)
        let refusal = |got: &str| {
            EngineError::not_implemented(format!(
                "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: {got}"
            ))
        };
        let mut out =
            self.floating_reduce("mean", t, dims, keepdim, ReduceOp::Mean, grad_fn, refusal)?;
        Self::reduce_node(&mut out, t, dims, true);
        Ok(out)
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
            dt,
            ReduceOp::Prod,
            // derivatives.yaml: prod(self) is ProdBackward0, prod.dim_int ProdBackward1
            Some(if dim.is_some() {
                "ProdBackward1"
            } else {
                "ProdBackward0"
            }),
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
                EngineError::not_implemented(
                    "std and var only support floating point and complex dtypes".to_string(),
                ),
            ));
        }
        let dt = t.dtype();
        let mut out = self.reduce_op(
            name,
            t,
            dims,
            keepdim,
            dt,
            dt,
            ReduceOp::Var { correction, std },
            Some(if std { "StdBackward0" } else { "VarBackward0" }),
        )?;
        let std_out = std.then(|| out.detach());
        Self::stat_node(&mut out, t, dims, correction, std_out, None);
        Ok(out)
    }

    /// `torch.var_mean` / `torch.std_mean` (`std`): ATen's `std_var_mean_out`, where both
    /// results come from one Welford reduction (the mean is its running mean, not sum / n, and
    /// a reduction over every element is Welford's too, not var's two passes). The nodes are
    /// those of `var`/`std` and `mean`.
    pub fn var_mean(
        &self,
        t: &Tensor,
        dims: Option<&[i64]>,
        correction: f64,
        keepdim: bool,
        std: bool,
    ) -> Result<(Tensor, Tensor)> {
        let name = if std { "std_mean" } else { "var_mean" };
        if !t.dtype().is_floating_point() {
            return Err(self.host_error(
                name,
                t.device().cuda_index(),
                EngineError::not_implemented(
                    "std and var only support floating point and complex dtypes".to_string(),
                ),
            ));
        }
        let dt = t.dtype();
        let mut var = self.reduce_op(
            name,
            t,
            dims,
            keepdim,
            dt,
            dt,
            ReduceOp::WelfordVar { correction, std },
            Some(if std { "StdBackward0" } else { "VarBackward0" }),
        )?;
        let std_out = std.then(|| var.detach());
        Self::stat_node(&mut var, t, dims, correction, std_out, None);
        let mut mean = self.reduce_op(
            name,
            t,
            dims,
            keepdim,
            dt,
            dt,
            ReduceOp::WelfordMean,
            Some(if dims.is_some() {
                "MeanBackward1"
            } else {
                "MeanBackward0"
            }),
        )?;
        Self::reduce_node(&mut mean, t, dims, true);
        Ok((var, mean))
    }

    /// The backward node of var/std/norm over `dims`.
    pub(crate) fn stat_node(
        out: &mut Tensor,
        t: &Tensor,
        dims: Option<&[i64]>,
        correction: f64,
        std_out: Option<Tensor>,
        norm: Option<(f64, Tensor)>,
    ) {
        let nd = t.dim();
        let all = dims.is_none_or(|d| d.is_empty());
        let mut reduced = vec![all; nd];
        for &d in dims.unwrap_or(&[]) {
            if let Ok(d) = wrap_dim(d, nd)
                && nd > 0
            {
                reduced[d] = true;
            }
        }
        let kind = autograd::Kind::Stat {
            input: t.detach(),
            reduced,
            all,
            correction,
            std_out,
            norm,
        };
        autograd::attach(out, &[autograd::edge_of(t)], kind);
    }

    pub fn any(&self, t: &Tensor, dim: Option<i64>, keepdim: bool) -> Result<Tensor> {
        let dims = dim.map(|d| vec![d]);
        let dt = t.dtype();
        self.reduce_op(
            "any",
            t,
            dims.as_deref(),
            keepdim,
            dt,
            DType::Bool,
            ReduceOp::Any,
            None,
        )
    }

    pub fn all(&self, t: &Tensor, dim: Option<i64>, keepdim: bool) -> Result<Tensor> {
        let dims = dim.map(|d| vec![d]);
        let dt = t.dtype();
        self.reduce_op(
            "all",
            t,
            dims.as_deref(),
            keepdim,
            dt,
            DType::Bool,
            ReduceOp::All,
            None,
        )
    }

    /// `any` / `all` over a tuple of dims (2.2's IntArrayRef overloads); `dim=()` reduces
    /// nothing, giving each element's truth as bool.
    pub(crate) fn any_all_dims(
        &self,
        t: &Tensor,
        dims: &[i64],
        keepdim: bool,
        is_all: bool,
    ) -> Result<Tensor> {
        let (name, op) = if is_all {
            ("all", ReduceOp::All)
        } else {
            ("any", ReduceOp::Any)
        };
        if dims.is_empty() {
            let one = t.unsqueeze(0)?;
            return self.reduce_op(
                name,
                &one,
                Some(&[0]),
                false,
                t.dtype(),
                DType::Bool,
                op,
                None,
            );
        }
        self.reduce_op(
            name,
            t,
            Some(dims),
            keepdim,
            t.dtype(),
            DType::Bool,
            op,
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
        let dt = t.dtype();
        self.reduce_op(
            name,
            t,
            None,
            false,
            dt,
            dt,
            if is_max { ReduceOp::Max } else { ReduceOp::Min },
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
        let dt = t.dtype();
        let values = self.reduce_op(
            name,
            t,
            Some(&[dim]),
            keepdim,
            dt,
            dt,
            if is_max { ReduceOp::Max } else { ReduceOp::Min },
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
            dt,
            DType::Int64,
            if is_max {
                ReduceOp::ArgMax
            } else {
                ReduceOp::ArgMin
            },
            None,
        )?;
        Ok((values, idx))
    }

    /// `argmax(dim=None)` / `argmin`: over the flattened tensor when dim is None.
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
        let dt = t.dtype();
        self.reduce_op(
            name,
            t,
            dims.as_deref(),
            keepdim,
            dt,
            DType::Int64,
            if is_max {
                ReduceOp::ArgMax
            } else {
                ReduceOp::ArgMin
            },
            None,
        )
    }
}

/// PyTorch's node for `a op b` when a Python number makes it another overload
/// (derivatives.yaml): pow.Tensor_Scalar (`x ** 2`, PowBackward0: self), pow.Tensor_Tensor
/// (PowBackward1: self, exponent), pow.Scalar (`2 ** x`, PowBackward2: exponent), rsub.Scalar
/// (`1 - x`, RsubBackward1: self); the name and which of the engine's (a, b) edges it has.
/// None where the engine's node already is PyTorch's (`x - 1` is sub.Tensor with a wrapped
/// number: two edges).
fn scalar_overload_node(
    op: BinaryOp,
    a: &Operand,
    b: &Operand,
) -> Option<(&'static str, &'static [usize])> {
    let tensor = |o: &Operand| matches!(o, Operand::Tensor(_));
    match (op, tensor(a), tensor(b)) {
        (BinaryOp::Pow, true, false) => Some(("PowBackward0", &[0])),
        (BinaryOp::Pow, true, true) => Some(("PowBackward1", &[0, 1])),
        (BinaryOp::Pow, false, true) => Some(("PowBackward2", &[1])),
        (BinaryOp::Sub, false, true) => Some(("RsubBackward1", &[1])),
        _ => None,
    }
}
