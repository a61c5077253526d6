//! The kernel calls: for each op family of kernels/*.cu, the entry name, the launch geometry
//! (PyTorch's where our kernels follow PyTorch's, see each function) and the argument array, on
//! any [`GpuDevice`]. The engine's device trait implementations for the emulated and cuda
//! devices are thin on top of this: they hand over device pointers, layouts and scalars.
//!
//! Everything here works on device pointers and element counts; the caller (the op's front
//! half) has done PyTorch's host checks, promotion and output allocation.

mod draws;
mod half;
mod norm;
pub use draws::draw_unroll;

use super::gpu::GpuDevice;
use super::kernels::{MATMUL_TILE, NLL_LOSS_THREADS, REDUCE_THREADS, SOFTMAX_THREADS};
use super::launch::{
    CtReduceGeom, CtShape, CtStrides, DeviceError, DevicePtr, Dim3, KernelArgs, LaunchConfig,
};

/// One product C = alpha * A @ B + beta * C, batched over `batch` entries, as both matmul.cu's
/// tiled kernel ([`Kernels::gemm`]) and cuBLAS ([`super::cublas::Cublas::gemm`]) take it:
/// A's element (i, k) of entry `e` is at `a.0 + i * a.1 + k * a.2 + e * a.3` (in elements;
/// a stride of 0 broadcasts), B's likewise, and C is row-major with row stride `c.1` and
/// entry stride `c.2`.
#[derive(Debug, Clone, Copy)]
pub struct Gemm {
    pub elem: Elem,
    pub batch: usize,
    pub m: usize,
    pub n: usize,
    pub k: usize,
    pub alpha: f64,
    pub a: (DevicePtr, isize, isize, isize),
    pub b: (DevicePtr, isize, isize, isize),
    pub beta: f64,
    pub c: (DevicePtr, isize, isize),
}

/// The element types the kernels are instantiated for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Elem {
    F32,
    F64,
    I64,
    I32,
    U8,
    Bool,
}

impl Elem {
    pub const ALL: [Elem; 6] = [
        Elem::F32,
        Elem::F64,
        Elem::I64,
        Elem::I32,
        Elem::U8,
        Elem::Bool,
    ];
    /// The entry-name suffix (`add_f32`).
    pub fn suffix(self) -> &'static str {
        match self {
            Elem::F32 => "f32",
            Elem::F64 => "f64",
            Elem::I64 => "i64",
            Elem::I32 => "i32",
            Elem::U8 => "u8",
            Elem::Bool => "bool",
        }
    }
    pub fn size(self) -> usize {
        match self {
            Elem::F32 | Elem::I32 => 4,
            Elem::F64 | Elem::I64 => 8,
            Elem::U8 | Elem::Bool => 1,
        }
    }
    pub fn is_float(self) -> bool {
        matches!(self, Elem::F32 | Elem::F64)
    }
    /// The kernels' element type for an engine dtype (None: no kernel instantiation).
    pub fn of(dtype: crate::engine::DType) -> Option<Elem> {
        use crate::engine::DType;
        Some(match dtype {
            DType::Float32 => Elem::F32,
            DType::Float64 => Elem::F64,
            DType::Int64 => Elem::I64,
            DType::Int32 => Elem::I32,
            DType::UInt8 => Elem::U8,
            DType::Bool => Elem::Bool,
            _ => return None,
        })
    }
}

/// A scalar kernel argument, already in the kernel's element type.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scalar {
    F32(f32),
    F64(f64),
    I64(i64),
    I32(i32),
    U8(u8),
    Bool(bool),
}

impl Scalar {
    /// `v` converted to `elem` as PyTorch converts a Python scalar for a kernel of that type
    /// (floats round to nearest, integers truncate toward zero and wrap, bool is `v != 0`).
    pub fn from_f64(v: f64, elem: Elem) -> Scalar {
        match elem {
            Elem::F32 => Scalar::F32(v as f32),
            Elem::F64 => Scalar::F64(v),
            Elem::I64 => Scalar::I64(v as i64),
            Elem::I32 => Scalar::I32(v as i64 as i32),
            Elem::U8 => Scalar::U8(v as i64 as u8),
            Elem::Bool => Scalar::Bool(v != 0.0),
        }
    }
    /// An integer scalar in `elem` (exact for int64, unlike a trip through f64).
    pub(crate) fn from_i64(v: i64, elem: Elem) -> Scalar {
        match elem {
            Elem::F32 => Scalar::F32(v as f32),
            Elem::F64 => Scalar::F64(v as f64),
            Elem::I64 => Scalar::I64(v),
            Elem::I32 => Scalar::I32(v as i32),
            Elem::U8 => Scalar::U8(v as u8),
            Elem::Bool => Scalar::Bool(v != 0),
        }
    }
    /// Appends the value as the kernel parameter of its element type.
    pub fn push(self, args: &mut KernelArgs) {
        match self {
            Scalar::F32(v) => args.push(v),
            Scalar::F64(v) => args.push(v),
            Scalar::I64(v) => args.push(v),
            Scalar::I32(v) => args.push(v),
            Scalar::U8(v) => args.push(v),
            Scalar::Bool(v) => args.push(v),
        };
    }
    fn elem(self) -> Elem {
        match self {
            Scalar::F32(_) => Elem::F32,
            Scalar::F64(_) => Elem::F64,
            Scalar::I64(_) => Elem::I64,
            Scalar::I32(_) => Elem::I32,
            Scalar::U8(_) => Elem::U8,
            Scalar::Bool(_) => Elem::Bool,
        }
    }
}

/// A strided operand: its device pointer (at its storage offset) and strides in elements over
/// the op's output shape (0 where it broadcasts).
#[derive(Debug, Clone, Copy)]
pub struct Strided<'a> {
    pub ptr: DevicePtr,
    pub strides: &'a [isize],
}

/// Threads per block of the grid-stride elementwise kernels (PyTorch's elementwise kernels
/// use 128).
pub(crate) const ELEMENTWISE_THREADS: u32 = 128;
/// PyTorch's `CUDA_NUM_THREADS` (at::cuda::detail), the block of `GET_BLOCKS` launches.
pub(crate) const CUDA_NUM_THREADS: u32 = 128;

/// The kernel calls on one device. `sm_count` is the device's multiprocessor count (some of
/// PyTorch's grids depend on it, and so which thread reports an assert and which random
/// number lands where; the emulated device reports the sim's H200: 132 SMs of 2048 threads).
pub struct Kernels<'a> {
    pub device: &'a dyn GpuDevice,
    pub sm_count: u32,
}

/// maxThreadsPerMultiProcessor of sm_80 and sm_90 (A100, H100, H200).
pub(crate) const MAX_THREADS_PER_SM: u32 = 2048;
/// Threads per block of PyTorch's random kernels.
pub(crate) const RANDOM_THREADS: u32 = 256;

/// PyTorch's `calc_execution_policy` for a random kernel drawing `unroll` values per curand4:
/// (grid, Philox offset increment).
pub fn random_policy(n: u64, unroll: u64, sm_count: u32) -> (u32, u64) {
    let blocks_per_sm = (MAX_THREADS_PER_SM / RANDOM_THREADS).max(1) as u64;
    let grid = n
        .div_ceil(RANDOM_THREADS as u64)
        .min(sm_count as u64 * blocks_per_sm)
        .max(1);
    let increment = ((n.max(1) - 1) / (RANDOM_THREADS as u64 * grid * unroll) + 1) * 4;
    (grid as u32, increment)
}

fn grid_for(n: u64, block: u32, cap: u64) -> u32 {
    n.div_ceil(block as u64)
        .clamp(1, cap.max(1))
        .min(i32::MAX as u64) as u32
}

fn n_i64(n: usize) -> Result<i64, DeviceError> {
    i64::try_from(n).map_err(|_| DeviceError::Unsupported("more than 2^63 elements".into()))
}

/// A unary kernel of elementwise.cu, by the name an op's definition gives it
/// (engine::op::unary's `cuda:`); the launch is `<name>_<dtype>`, for the dtypes the file
/// builds it for ([`super::kernels::unary_entries`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnaryKernel {
    name: &'static str,
}

/// elementwise.cu's unary entry points by kernel name: for each name, the full entry name
/// per element type it is built for (indexed as [`Elem::ALL`]). Built once from the file, so
/// a dispatch is one hash lookup and formats no string.
type UnaryTable = std::collections::HashMap<String, [Option<&'static str>; Elem::ALL.len()]>;

fn unary_table() -> &'static UnaryTable {
    static TABLE: std::sync::OnceLock<UnaryTable> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = UnaryTable::new();
        for entry in super::kernels::unary_entries() {
            for (i, e) in Elem::ALL.into_iter().enumerate() {
                let Some(name) = entry
                    .strip_suffix(e.suffix())
                    .and_then(|rest| rest.strip_suffix('_'))
                else {
                    continue;
                };
                // the table lives for the process: each entry name is leaked once
                let full: &'static str = Box::leak(entry.clone().into_boxed_str());
                table
                    .entry(name.to_string())
                    .or_insert([None; Elem::ALL.len()])[i] = Some(full);
            }
        }
        table
    })
}

impl UnaryKernel {
    /// The kernel of this name, if elementwise.cu defines it for some dtype.
    pub fn from_name(name: &'static str) -> Option<UnaryKernel> {
        unary_table()
            .contains_key(name)
            .then_some(UnaryKernel { name })
    }
    pub fn name(self) -> &'static str {
        self.name
    }
    /// Whether the file builds it for elements of `e`.
    pub fn supports(self, e: Elem) -> bool {
        self.entry(e).is_some()
    }
    /// The entry point for elements of `e` (`exp_f32`), if the file builds it.
    pub fn entry(self, e: Elem) -> Option<&'static str> {
        let i = Elem::ALL.iter().position(|&x| x == e)?;
        unary_table().get(self.name)?[i]
    }
}

/// Binary ops of elementwise.cu (tensor OP tensor).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinaryKernel {
    Add,
    Sub,
    Mul,
    Div,
    Pow,
    Maximum,
    Minimum,
    LogicalAnd,
    LogicalOr,
    LogicalXor,
    BitwiseAnd,
    BitwiseOr,
    BitwiseXor,
}

impl BinaryKernel {
    pub fn name(self) -> &'static str {
        match self {
            BinaryKernel::Add => "add",
            BinaryKernel::Sub => "sub",
            BinaryKernel::Mul => "mul",
            BinaryKernel::Div => "div",
            BinaryKernel::Pow => "pow",
            BinaryKernel::Maximum => "maximum",
            BinaryKernel::Minimum => "minimum",
            BinaryKernel::LogicalAnd => "logical_and",
            BinaryKernel::LogicalOr => "logical_or",
            BinaryKernel::LogicalXor => "logical_xor",
            BinaryKernel::BitwiseAnd => "bitwise_and",
            BinaryKernel::BitwiseOr => "bitwise_or",
            BinaryKernel::BitwiseXor => "bitwise_xor",
        }
    }
}

/// Comparisons of compare.cu (bool output).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompareKernel {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl CompareKernel {
    pub fn name(self) -> &'static str {
        match self {
            CompareKernel::Eq => "eq",
            CompareKernel::Ne => "ne",
            CompareKernel::Lt => "lt",
            CompareKernel::Le => "le",
            CompareKernel::Gt => "gt",
            CompareKernel::Ge => "ge",
        }
    }
}

/// Reductions of reduce.cu.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReduceKernel {
    Sum,
    Mean,
    Max,
    Min,
    Argmax,
    Argmin,
    Any,
    All,
}

/// The float classification tests of compare.cu (bool output).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FloatTest {
    IsNan,
    IsInf,
    IsFinite,
}

/// The activations' backward kernels of elementwise.cu (from the forward's result).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BackwardKernel {
    Sigmoid,
    Tanh,
    /// ReLU's threshold_backward (threshold 0, value 0).
    Threshold,
}

/// nll_loss's reduction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NllReduction {
    None,
    Mean,
    Sum,
}

impl Kernels<'_> {
    fn launch(&self, entry: &str, cfg: LaunchConfig, args: &KernelArgs) -> Result<(), DeviceError> {
        self.device.launch(entry, cfg, args)
    }

    fn elementwise_cfg(&self, n: usize) -> LaunchConfig {
        let cap = self.sm_count as u64 * 4 * 8;
        LaunchConfig::new(
            Dim3::x(grid_for(n as u64, ELEMENTWISE_THREADS, cap)),
            Dim3::x(ELEMENTWISE_THREADS),
        )
    }

    /// `torch.zeros/ones/full`: out[i] = value for a contiguous `out` of `n` elements.
    pub fn fill(&self, n: usize, value: Scalar, out: DevicePtr) -> Result<(), DeviceError> {
        if n == 0 {
            return Ok(());
        }
        let mut args = KernelArgs::new();
        args.push(n_i64(n)?);
        value.push(&mut args);
        args.push(out);
        let entry = format!("fill_{}", value.elem().suffix());
        self.launch(&entry, self.elementwise_cfg(n), &args)
    }

    /// `x.fill_(v)` on a strided view: out at `out.strides` over `shape` = value.
    pub fn fill_strided(
        &self,
        shape: &[usize],
        value: Scalar,
        out: Strided,
    ) -> Result<(), DeviceError> {
        let n: usize = shape.iter().product();
        if n == 0 {
            return Ok(());
        }
        let mut args = KernelArgs::new()
            .arg(n_i64(n)?)
            .arg(CtShape::new(shape)?)
            .arg(CtStrides::new(out.strides)?);
        value.push(&mut args);
        args.push(out.ptr);
        let entry = format!("fill_strided_{}", value.elem().suffix());
        self.launch(&entry, self.elementwise_cfg(n), &args)
    }

    /// Launches an elementwise kernel of the files' common layout (elementwise.cu,
    /// compare.cu): `n`, the shape, each input's strides, the output's strides, each input's
    /// pointer, the scalar operands, the output's pointer; nothing for an empty shape.
    fn elementwise(
        &self,
        entry: &str,
        shape: &[usize],
        inputs: &[Strided],
        scalars: &[Scalar],
        out: Strided,
    ) -> Result<(), DeviceError> {
        let n: usize = shape.iter().product();
        if n == 0 {
            return Ok(());
        }
        let mut args = KernelArgs::new().arg(n_i64(n)?).arg(CtShape::new(shape)?);
        for x in inputs {
            args.push(CtStrides::new(x.strides)?);
        }
        args.push(CtStrides::new(out.strides)?);
        for x in inputs {
            args.push(x.ptr);
        }
        for &v in scalars {
            v.push(&mut args);
        }
        args.push(out.ptr);
        self.launch(entry, self.elementwise_cfg(n), &args)
    }

    /// out (bool) = isnan(a), for float `elem`.
    pub fn isnan(
        &self,
        elem: Elem,
        shape: &[usize],
        a: Strided,
        out: Strided,
    ) -> Result<(), DeviceError> {
        self.elementwise(&format!("isnan_{}", elem.suffix()), shape, &[a], &[], out)
    }

    /// out (bool) = isnan / isinf / isfinite (a), for float `elem`.
    pub fn float_test(
        &self,
        test: FloatTest,
        elem: Elem,
        shape: &[usize],
        a: Strided,
        out: Strided,
    ) -> Result<(), DeviceError> {
        let name = match test {
            FloatTest::IsNan => return self.isnan(elem, shape, a, out),
            FloatTest::IsInf => "isinf",
            FloatTest::IsFinite => "isfinite",
        };
        self.elementwise(&format!("{name}_{}", elem.suffix()), shape, &[a], &[], out)
    }

    /// out = a + alpha * b (`torch.add(a, b, alpha=)`; the multiply-add fused for floats, as
    /// PyTorch's CUDA kernel compiles it). `alpha` is in the element type.
    pub fn add_alpha(
        &self,
        shape: &[usize],
        a: Strided,
        b: Strided,
        alpha: Scalar,
        out: Strided,
    ) -> Result<(), DeviceError> {
        let elem = alpha.elem();
        if elem == Elem::Bool {
            return Err(DeviceError::Unsupported("add with alpha on bool".into()));
        }
        let entry = format!("add_alpha_{}", elem.suffix());
        self.elementwise(&entry, shape, &[a, b], &[alpha], out)
    }

    /// The gradient of sigmoid / tanh / relu from the result `y` and the result's gradient
    /// `grad` (float `elem`), elementwise over `shape`.
    pub fn activation_backward(
        &self,
        op: BackwardKernel,
        elem: Elem,
        shape: &[usize],
        grad: Strided,
        y: Strided,
        out: Strided,
    ) -> Result<(), DeviceError> {
        let name = match op {
            BackwardKernel::Sigmoid => "sigmoid_backward",
            BackwardKernel::Tanh => "tanh_backward",
            BackwardKernel::Threshold => "threshold_backward",
        };
        self.elementwise(
            &format!("{name}_{}", elem.suffix()),
            shape,
            &[grad, y],
            &[],
            out,
        )
    }

    /// var (std when `take_sqrt`) with `correction` over the middle dimension of `geom`
    /// (reduce.cu's Welford kernel; float `elem`); `out` is contiguous [outer, inner].
    pub fn var(
        &self,
        elem: Elem,
        geom: CtReduceGeom,
        correction: f64,
        take_sqrt: bool,
        input: DevicePtr,
        out: DevicePtr,
    ) -> Result<(), DeviceError> {
        let Some((cfg, mut args)) = norm::float_param_reduce_launch(elem, geom, correction, "var")?
        else {
            return Ok(());
        };
        args.push(take_sqrt);
        args.push(input);
        args.push(out);
        self.launch(&format!("var_{}", elem.suffix()), cfg, &args)
    }

    /// cumsum (cumprod when `prod`) along the middle dimension of a contiguous
    /// [outer, len, inner] input of `elem` into a contiguous output (float: the same type;
    /// integers and bool: int64), with PyTorch's outer-dim scan geometry.
    #[allow(clippy::too_many_arguments)]
    pub fn scan(
        &self,
        prod: bool,
        elem: Elem,
        outer: usize,
        len: usize,
        inner: usize,
        input: DevicePtr,
        out: DevicePtr,
    ) -> Result<(), DeviceError> {
        if outer == 0 || len == 0 || inner == 0 {
            return Ok(());
        }
        let block = inner.min(512) as u32;
        let cfg = LaunchConfig::new(
            Dim3::new(
                grid_for(outer as u64, 1, 65535),
                grid_for(inner as u64, block, 65535),
                1,
            ),
            Dim3::x(block),
        );
        let args = KernelArgs::new()
            .arg(n_i64(outer)?)
            .arg(n_i64(len)?)
            .arg(n_i64(inner)?)
            .arg(input)
            .arg(out);
        let name = if prod { "cumprod" } else { "cumsum" };
        self.launch(&format!("{name}_{}", elem.suffix()), cfg, &args)
    }

    /// `torch.arange(start, start + n * step, step)` into a contiguous `out` of `elem`.
    pub fn arange(
        &self,
        elem: Elem,
        n: usize,
        start: f64,
        step: f64,
        out: DevicePtr,
    ) -> Result<(), DeviceError> {
        if n == 0 {
            return Ok(());
        }
        let mut args = KernelArgs::new();
        args.push(n_i64(n)?);
        match elem {
            Elem::F32 => args.push(start as f32).push(step as f32),
            Elem::F64 => args.push(start).push(step),
            Elem::I64 | Elem::I32 => args.push(start as i64).push(step as i64),
            _ => return Err(DeviceError::Unsupported(format!("arange of {elem:?}"))),
        };
        args.push(out);
        self.launch(
            &format!("arange_{}", elem.suffix()),
            self.elementwise_cfg(n),
            &args,
        )
    }

    /// out = op(a) elementwise over `shape`.
    pub fn unary(
        &self,
        op: UnaryKernel,
        elem: Elem,
        shape: &[usize],
        a: Strided,
        out: Strided,
    ) -> Result<(), DeviceError> {
        let entry = op
            .entry(elem)
            .ok_or_else(|| DeviceError::Unsupported(format!("{} {elem:?}", op.name())))?;
        self.elementwise(entry, shape, &[a], &[], out)
    }

    /// out = op(a, b) elementwise over `shape` (broadcast operands have stride 0).
    pub fn binary(
        &self,
        op: BinaryKernel,
        elem: Elem,
        shape: &[usize],
        a: Strided,
        b: Strided,
        out: Strided,
    ) -> Result<(), DeviceError> {
        let entry = format!("{}_{}", op.name(), elem.suffix());
        self.elementwise(&entry, shape, &[a, b], &[], out)
    }

    /// out = op(a, s) (or op(s, a) when `scalar_first`) with a scalar operand passed as a
    /// kernel argument, as PyTorch's gpu_kernel_with_scalars does: no device tensor for the
    /// scalar, so `x + 1` allocates only its output. Division by a scalar is PyTorch's
    /// `a * (1 / s)` (the reciprocal in the element type).
    pub fn binary_scalar(
        &self,
        op: BinaryKernel,
        scalar_first: bool,
        shape: &[usize],
        a: Strided,
        s: Scalar,
        out: Strided,
    ) -> Result<(), DeviceError> {
        let elem = s.elem();
        let (name, s) = match (op, scalar_first, s) {
            (BinaryKernel::Div, false, Scalar::F32(v)) => ("mul_scalar", Scalar::F32(1.0 / v)),
            (BinaryKernel::Div, false, Scalar::F64(v)) => ("mul_scalar", Scalar::F64(1.0 / v)),
            (BinaryKernel::Add, _, _) => ("add_scalar", s),
            (BinaryKernel::Mul, _, _) => ("mul_scalar", s),
            (BinaryKernel::Maximum, _, _) => ("maximum_scalar", s),
            (BinaryKernel::Minimum, _, _) => ("minimum_scalar", s),
            (BinaryKernel::Sub, false, _) => ("sub_scalar", s),
            (BinaryKernel::Sub, true, _) => ("sub_rscalar", s),
            (BinaryKernel::Pow, false, _) if elem.is_float() => ("pow_scalar", s),
            (BinaryKernel::Pow, true, _) if elem.is_float() => ("pow_rscalar", s),
            (BinaryKernel::Div, true, _) if elem.is_float() => ("div_rscalar", s),
            _ => {
                return Err(DeviceError::Unsupported(format!(
                    "{} with a scalar operand on {elem:?}",
                    op.name()
                )));
            }
        };
        self.elementwise(&format!("{name}_{}", elem.suffix()), shape, &[a], &[s], out)
    }

    /// out (bool) = a OP b.
    pub fn compare(
        &self,
        op: CompareKernel,
        elem: Elem,
        shape: &[usize],
        a: Strided,
        b: Strided,
        out: Strided,
    ) -> Result<(), DeviceError> {
        let entry = format!("{}_{}", op.name(), elem.suffix());
        self.elementwise(&entry, shape, &[a, b], &[], out)
    }

    /// out (bool) = a OP s.
    pub fn compare_scalar(
        &self,
        op: CompareKernel,
        shape: &[usize],
        a: Strided,
        s: Scalar,
        out: Strided,
    ) -> Result<(), DeviceError> {
        let entry = format!("{}_scalar_{}", op.name(), s.elem().suffix());
        self.elementwise(&entry, shape, &[a], &[s], out)
    }

    /// out = cond ? a : b.
    pub fn where_(
        &self,
        elem: Elem,
        shape: &[usize],
        cond: Strided,
        a: Strided,
        b: Strided,
        out: Strided,
    ) -> Result<(), DeviceError> {
        self.elementwise(
            &format!("where_{}", elem.suffix()),
            shape,
            &[cond, a, b],
            &[],
            out,
        )
    }

    /// Strided copy with a dtype cast (`.contiguous()`, `.to(dtype)`, `copy_`).
    pub fn copy(
        &self,
        src_elem: Elem,
        dst_elem: Elem,
        shape: &[usize],
        src: Strided,
        dst: Strided,
    ) -> Result<(), DeviceError> {
        let n: usize = shape.iter().product();
        if n == 0 {
            return Ok(());
        }
        let args = KernelArgs::new()
            .arg(n_i64(n)?)
            .arg(CtShape::new(shape)?)
            .arg(CtStrides::new(src.strides)?)
            .arg(CtStrides::new(dst.strides)?)
            .arg(src.ptr)
            .arg(dst.ptr);
        self.launch(
            &format!("copy_{}_to_{}", src_elem.suffix(), dst_elem.suffix()),
            self.elementwise_cfg(n),
            &args,
        )
    }

    /// A reduction over the middle dimension of a [outer, len, inner] view (`geom`); `out`
    /// is contiguous [outer, inner] (values for sum/mean/max/min/any/all, indices for
    /// argmax/argmin); `indices` receives max/min's indices when given.
    pub fn reduce(
        &self,
        op: ReduceKernel,
        elem: Elem,
        geom: CtReduceGeom,
        input: DevicePtr,
        out: DevicePtr,
        indices: Option<DevicePtr>,
    ) -> Result<(), DeviceError> {
        let n_out = geom.outer.saturating_mul(geom.inner).max(0) as u64;
        if n_out == 0 {
            return Ok(());
        }
        let cfg = LaunchConfig::new(Dim3::x(grid_for(n_out, 1, 65535)), Dim3::x(REDUCE_THREADS));
        let mut args = KernelArgs::new().arg(geom).arg(input);
        let name = match op {
            ReduceKernel::Sum => "sum",
            ReduceKernel::Mean => "mean",
            ReduceKernel::Any => "any",
            ReduceKernel::All => "all",
            ReduceKernel::Argmax => "argmax",
            ReduceKernel::Argmin => "argmin",
            ReduceKernel::Max => "max",
            ReduceKernel::Min => "min",
        };
        args.push(out);
        if matches!(op, ReduceKernel::Max | ReduceKernel::Min) {
            args.push(indices.unwrap_or(DevicePtr::NULL));
        }
        self.launch(&format!("{name}_{}", elem.suffix()), cfg, &args)
    }

    /// softmax / log_softmax over the middle dimension of a contiguous [outer, dim, inner].
    #[allow(clippy::too_many_arguments)]
    pub fn softmax(
        &self,
        log: bool,
        elem: Elem,
        outer: usize,
        dim: usize,
        inner: usize,
        input: DevicePtr,
        out: DevicePtr,
    ) -> Result<(), DeviceError> {
        let rows = (outer as u64).saturating_mul(inner as u64);
        if rows == 0 || dim == 0 {
            return Ok(());
        }
        let cfg = LaunchConfig::new(Dim3::x(grid_for(rows, 1, 65535)), Dim3::x(SOFTMAX_THREADS));
        let args = KernelArgs::new()
            .arg(n_i64(outer)?)
            .arg(n_i64(dim)?)
            .arg(n_i64(inner)?)
            .arg(input)
            .arg(out);
        let name = if log { "log_softmax" } else { "softmax" };
        self.launch(&format!("{name}_{}", elem.suffix()), cfg, &args)
    }

    /// The gradient of softmax / log_softmax over the middle dimension of contiguous
    /// [outer, dim, inner] `grad` and `out` (the forward's result) into `gin`: PyTorch's
    /// persistent warp kernel, block min(next_pow2(dim), 32) threads, one block per row.
    #[allow(clippy::too_many_arguments)]
    pub fn softmax_backward(
        &self,
        log: bool,
        elem: Elem,
        outer: usize,
        dim: usize,
        inner: usize,
        grad: DevicePtr,
        out: DevicePtr,
        gin: DevicePtr,
    ) -> Result<(), DeviceError> {
        let rows = (outer as u64).saturating_mul(inner as u64);
        if rows == 0 || dim == 0 {
            return Ok(());
        }
        let warp = (dim as u64).next_power_of_two().min(32) as u32;
        let cfg = LaunchConfig::new(Dim3::x(grid_for(rows, 1, 65535)), Dim3::x(warp));
        let args = KernelArgs::new()
            .arg(n_i64(outer)?)
            .arg(n_i64(dim)?)
            .arg(n_i64(inner)?)
            .arg(grad)
            .arg(out)
            .arg(gin);
        let name = if log {
            "log_softmax_backward"
        } else {
            "softmax_backward"
        };
        self.launch(&format!("{name}_{}", elem.suffix()), cfg, &args)
    }

    /// nll_loss's input gradient into the zeroed `[n, c]` `grad_input` (Loss.cu's backward
    /// kernels): 'mean'/'sum' as one block of NLL_LOSS_THREADS with the forward's
    /// `total_weight` (one element), 'none' GET_BLOCKS(n) x CUDA_NUM_THREADS with `grad_output`
    /// of n elements.
    #[allow(clippy::too_many_arguments)]
    pub fn nll_loss_backward(
        &self,
        elem: Elem,
        target_u8: bool,
        reduction: NllReduction,
        n: usize,
        n_classes: usize,
        grad_output: DevicePtr,
        target: DevicePtr,
        weight: Option<DevicePtr>,
        ignore_index: i64,
        total_weight: DevicePtr,
        grad_input: DevicePtr,
    ) -> Result<(), DeviceError> {
        if n == 0 {
            return Ok(());
        }
        let suffix = format!("{}_{}", elem.suffix(), if target_u8 { "u8" } else { "i64" });
        let weight = weight.unwrap_or(DevicePtr::NULL);
        let c = n_i64(n_classes)?;
        if reduction == NllReduction::None {
            let cfg = LaunchConfig::new(
                Dim3::x(grid_for(n as u64, CUDA_NUM_THREADS, u64::MAX)),
                Dim3::x(CUDA_NUM_THREADS),
            );
            let args = KernelArgs::new()
                .arg(n_i64(n)?)
                .arg(target)
                .arg(grad_output)
                .arg(grad_input)
                .arg(weight)
                .arg(c)
                .arg(ignore_index);
            return self.launch(
                &format!("nll_loss_backward_no_reduce_cuda_kernel_{suffix}"),
                cfg,
                &args,
            );
        }
        let args = KernelArgs::new()
            .arg(grad_input)
            .arg(grad_output)
            .arg(target)
            .arg(weight)
            .arg(total_weight)
            .arg(reduction == NllReduction::Mean)
            .arg(n_i64(n)?)
            .arg(c)
            .arg(c)
            .arg(ignore_index);
        self.launch(
            &format!("nll_loss_backward_reduce_cuda_kernel_2d_{suffix}"),
            LaunchConfig::new(Dim3::x(1), Dim3::x(NLL_LOSS_THREADS)),
            &args,
        )
    }

    /// F.nll_loss forward as PyTorch launches it (Loss.cu): a 2-d input [n, c] with 'mean' or
    /// 'sum' is one block of NLL_LOSS_THREADS; a 1-d input [c] is <<<1, 1>>>; 'none' is
    /// GET_BLOCKS(n) blocks of CUDA_NUM_THREADS. `target_u8`: the target is uint8 (else int64).
    /// `output` and `total_weight` are one element each ('none': output has n elements).
    #[allow(clippy::too_many_arguments)]
    pub fn nll_loss(
        &self,
        elem: Elem,
        target_u8: bool,
        reduction: NllReduction,
        batch: Option<usize>,
        n_classes: usize,
        input: DevicePtr,
        target: DevicePtr,
        weight: Option<DevicePtr>,
        ignore_index: i64,
        output: DevicePtr,
        total_weight: DevicePtr,
    ) -> Result<(), DeviceError> {
        let suffix = format!("{}_{}", elem.suffix(), if target_u8 { "u8" } else { "i64" });
        let weight = weight.unwrap_or(DevicePtr::NULL);
        let c = n_i64(n_classes)?;
        match (reduction, batch) {
            (NllReduction::None, Some(n)) => {
                if n == 0 {
                    return Ok(());
                }
                let cfg = LaunchConfig::new(
                    Dim3::x(grid_for(n as u64, CUDA_NUM_THREADS, u64::MAX)),
                    Dim3::x(CUDA_NUM_THREADS),
                );
                let args = KernelArgs::new()
                    .arg(n_i64(n)?)
                    .arg(input)
                    .arg(c)
                    .arg(target)
                    .arg(output)
                    .arg(weight)
                    .arg(ignore_index);
                self.launch(
                    &format!("nll_loss_forward_no_reduce_cuda_kernel_{suffix}"),
                    cfg,
                    &args,
                )
            }
            (r, Some(n)) => {
                let args = KernelArgs::new()
                    .arg(output)
                    .arg(total_weight)
                    .arg(input)
                    .arg(target)
                    .arg(weight)
                    .arg(r == NllReduction::Mean)
                    .arg(n_i64(n)?)
                    .arg(c)
                    .arg(c)
                    .arg(ignore_index);
                self.launch(
                    &format!("nll_loss_forward_reduce_cuda_kernel_2d_{suffix}"),
                    LaunchConfig::new(Dim3::x(1), Dim3::x(NLL_LOSS_THREADS)),
                    &args,
                )
            }
            (r, None) => {
                let args = KernelArgs::new()
                    .arg(output)
                    .arg(total_weight)
                    .arg(input)
                    .arg(target)
                    .arg(weight)
                    .arg(r == NllReduction::Mean)
                    .arg(c)
                    .arg(ignore_index);
                self.launch(
                    &format!("nll_loss_forward_reduce_cuda_kernel_1d_{suffix}"),
                    LaunchConfig::new(Dim3::x(1), Dim3::x(1)),
                    &args,
                )
            }
        }
    }

    /// index_select(src, dim, indices) on a contiguous src viewed as [outer, dim_size, inner];
    /// out is contiguous [outer, n_indices, inner]. At most 16 indices: PyTorch's
    /// indexSelectSmallIndex geometry (block min(slice, 128), grid min(ceil(slice / 128),
    /// 8 * SMs)); more: indexSelectLargeIndex. `embedding` selects the embedding entry points
    /// (same kernels, float weights).
    #[allow(clippy::too_many_arguments)]
    pub fn index_select(
        &self,
        elem: Elem,
        embedding: bool,
        index_i32: bool,
        outer: usize,
        dim_size: usize,
        inner: usize,
        n_indices: usize,
        src: DevicePtr,
        indices: DevicePtr,
        out: DevicePtr,
    ) -> Result<(), DeviceError> {
        if n_indices == 0 || outer == 0 || inner == 0 {
            return Ok(());
        }
        let small = n_indices <= 16;
        let slice = (outer as u64).saturating_mul(inner as u64);
        let cap = 8 * self.sm_count as u64;
        let cfg = if small {
            LaunchConfig::new(
                Dim3::x(grid_for(slice, 128, cap)),
                Dim3::x(slice.min(128) as u32),
            )
        } else {
            LaunchConfig::new(
                Dim3::x(grid_for(slice.saturating_mul(n_indices as u64), 128, cap)),
                Dim3::x(128),
            )
        };
        let kind = match (embedding, small) {
            (false, true) => "index_select_small",
            (false, false) => "index_select_large",
            (true, true) => "embedding_small",
            (true, false) => "embedding_large",
        };
        let i32s = if index_i32 { "_i32" } else { "" };
        let args = if embedding {
            KernelArgs::new()
                .arg(n_i64(dim_size)?)
                .arg(n_i64(inner)?)
                .arg(n_i64(n_indices)?)
                .arg(src)
                .arg(indices)
                .arg(out)
        } else {
            KernelArgs::new()
                .arg(n_i64(outer)?)
                .arg(n_i64(dim_size)?)
                .arg(n_i64(inner)?)
                .arg(n_i64(n_indices)?)
                .arg(src)
                .arg(indices)
                .arg(out)
        };
        self.launch(&format!("{kind}_{}{i32s}", elem.suffix()), cfg, &args)
    }

    /// index_add into the zeroed contiguous `out` [outer, dim_size, inner] of the contiguous
    /// `src` [outer, n_indices, inner] at `indices` (float `elem`; atomicAdd, block 128).
    #[allow(clippy::too_many_arguments)]
    pub fn index_add(
        &self,
        elem: Elem,
        index_i32: bool,
        outer: usize,
        dim_size: usize,
        inner: usize,
        n_indices: usize,
        src: DevicePtr,
        indices: DevicePtr,
        out: DevicePtr,
    ) -> Result<(), DeviceError> {
        let total = (outer as u64)
            .saturating_mul(n_indices as u64)
            .saturating_mul(inner as u64);
        if total == 0 {
            return Ok(());
        }
        let cfg = LaunchConfig::new(
            Dim3::x(grid_for(total, 128, 8 * self.sm_count as u64)),
            Dim3::x(128),
        );
        let args = KernelArgs::new()
            .arg(n_i64(outer)?)
            .arg(n_i64(dim_size)?)
            .arg(n_i64(inner)?)
            .arg(n_i64(n_indices)?)
            .arg(src)
            .arg(indices)
            .arg(out);
        let i32s = if index_i32 { "_i32" } else { "" };
        self.launch(&format!("index_add_{}{i32s}", elem.suffix()), cfg, &args)
    }

    /// gather(input, dim, index): out and index share `shape`.
    #[allow(clippy::too_many_arguments)]
    pub fn gather(
        &self,
        elem: Elem,
        shape: &[usize],
        dim: usize,
        index_size: usize,
        input: Strided,
        index: Strided,
        out: Strided,
    ) -> Result<(), DeviceError> {
        let n: usize = shape.iter().product();
        if n == 0 {
            return Ok(());
        }
        let args = KernelArgs::new()
            .arg(n_i64(n)?)
            .arg(CtShape::new(shape)?)
            .arg(dim as i32)
            .arg(n_i64(index_size)?)
            .arg(CtStrides::new(input.strides)?)
            .arg(CtStrides::new(index.strides)?)
            .arg(CtStrides::new(out.strides)?)
            .arg(input.ptr)
            .arg(index.ptr)
            .arg(out.ptr);
        self.launch(
            &format!("gather_{}", elem.suffix()),
            self.elementwise_cfg(n),
            &args,
        )
    }

    /// x[idx] with one int64 index tensor on `dim` (PyTorch's index_elementwise_kernel<128,4>
    /// geometry: block 128, grid ceil(n / 512)). `shape` is the output's.
    #[allow(clippy::too_many_arguments)]
    pub fn index(
        &self,
        elem: Elem,
        shape: &[usize],
        dim: usize,
        dim_size: usize,
        src: Strided,
        idx_ptr: DevicePtr,
        idx_stride: isize,
        out: Strided,
    ) -> Result<(), DeviceError> {
        let n: usize = shape.iter().product();
        if n == 0 {
            return Ok(());
        }
        let cfg = LaunchConfig::new(Dim3::x(grid_for(n as u64, 512, u64::MAX)), Dim3::x(128));
        let args = KernelArgs::new()
            .arg(n_i64(n)?)
            .arg(CtShape::new(shape)?)
            .arg(dim as i32)
            .arg(n_i64(dim_size)?)
            .arg(CtStrides::new(src.strides)?)
            .arg(CtStrides::new(out.strides)?)
            .arg(idx_stride as i64)
            .arg(src.ptr)
            .arg(idx_ptr)
            .arg(out.ptr);
        self.launch(&format!("index_{}", elem.suffix()), cfg, &args)
    }

    /// [`Gemm`]'s product with matmul.cu's tiled kernel.
    pub fn gemm(&self, g: &Gemm) -> Result<(), DeviceError> {
        if g.m == 0 || g.n == 0 || g.batch == 0 {
            return Ok(());
        }
        let t = MATMUL_TILE as u64;
        let cfg = LaunchConfig::new(
            Dim3::new(
                grid_for(g.n as u64, t as u32, 65535 * 1024),
                grid_for(g.m as u64, t as u32, 65535),
                grid_for(g.batch as u64, 1, 65535),
            ),
            Dim3::new(MATMUL_TILE, MATMUL_TILE, 1),
        );
        let mut args = KernelArgs::new()
            .arg(n_i64(g.m)?)
            .arg(n_i64(g.n)?)
            .arg(n_i64(g.k)?);
        let name = match g.elem {
            Elem::F32 => {
                args.push(g.alpha as f32);
                "sgemm"
            }
            Elem::F64 => {
                args.push(g.alpha);
                "dgemm"
            }
            _ => return Err(DeviceError::Unsupported(format!("matmul of {:?}", g.elem))),
        };
        args.push(g.a.0);
        args.push(g.a.1 as i64);
        args.push(g.a.2 as i64);
        args.push(g.a.3 as i64);
        args.push(g.b.0);
        args.push(g.b.1 as i64);
        args.push(g.b.2 as i64);
        args.push(g.b.3 as i64);
        if g.elem == Elem::F32 {
            args.push(g.beta as f32);
        } else {
            args.push(g.beta);
        }
        args.push(g.c.0);
        args.push(g.c.1 as i64);
        args.push(g.c.2 as i64);
        self.launch(name, cfg, &args)
    }

    /// torch.rand/uniform_ (`normal`: randn/normal_) on a contiguous `out` of `n` elements,
    /// drawn as PyTorch's CUDA generator draws them from (seed, offset). Returns how far the
    /// generator's Philox offset must advance (PyTorch's counter increment).
    #[allow(clippy::too_many_arguments)]
    pub fn random_float(
        &self,
        normal: bool,
        elem: Elem,
        n: usize,
        seed: u64,
        offset: u64,
        a: f64,
        b: f64,
        out: DevicePtr,
    ) -> Result<u64, DeviceError> {
        let unroll = if elem == Elem::F32 { 4 } else { 2 };
        let (grid, increment) = random_policy(n as u64, unroll, self.sm_count);
        if n == 0 {
            return Ok(0);
        }
        let cfg = LaunchConfig::new(Dim3::x(grid), Dim3::x(RANDOM_THREADS));
        let mut args = KernelArgs::new().arg(n_i64(n)?).arg(seed).arg(offset);
        match elem {
            Elem::F32 => args.push(a as f32).push(b as f32),
            Elem::F64 => args.push(a).push(b),
            _ => return Err(DeviceError::Unsupported(format!("random {elem:?}"))),
        };
        args.push(out);
        let name = if normal { "normal" } else { "uniform" };
        self.launch(&format!("{name}_{}", elem.suffix()), cfg, &args)?;
        Ok(increment)
    }

    /// torch.randint(low, high) into a contiguous `out` of `n` elements (64-bit draws when
    /// the range reaches 2^28, else 32-bit). Returns the Philox offset increment.
    #[allow(clippy::too_many_arguments)]
    pub fn randint(
        &self,
        elem: Elem,
        n: usize,
        seed: u64,
        offset: u64,
        low: i64,
        high: i64,
        out: DevicePtr,
    ) -> Result<u64, DeviceError> {
        if high <= low {
            return Err(DeviceError::Launch(format!(
                "randint: empty range [{low}, {high})"
            )));
        }
        let range = high.wrapping_sub(low) as u64;
        let unroll = if range >= 1 << 28 { 2 } else { 4 };
        let (grid, increment) = random_policy(n as u64, unroll, self.sm_count);
        if n == 0 {
            return Ok(0);
        }
        let cfg = LaunchConfig::new(Dim3::x(grid), Dim3::x(RANDOM_THREADS));
        let args = KernelArgs::new()
            .arg(n_i64(n)?)
            .arg(seed)
            .arg(offset)
            .arg(low)
            .arg(range)
            .arg(out);
        self.launch(&format!("randint_{}", elem.suffix()), cfg, &args)?;
        Ok(increment)
    }
}

#[cfg(test)]
mod tests {
    use super::{Elem, UnaryKernel};

    #[test]
    fn the_unary_table_names_each_entry_elementwise_cu_builds() {
        let entries = super::super::kernels::unary_entries();
        assert!(!entries.is_empty());
        let exp = UnaryKernel::from_name("exp").expect("exp is a unary kernel");
        assert_eq!(exp.entry(Elem::F32), Some("exp_f32"));
        assert_eq!(exp.entry(Elem::F64), Some("exp_f64"));
        // a name with an underscore, built for one dtype only
        let not = UnaryKernel::from_name("logical_not").expect("logical_not is a unary kernel");
        assert_eq!(not.entry(Elem::Bool), Some("logical_not_bool"));
        assert!(!not.supports(Elem::F32));
        assert!(UnaryKernel::from_name("no_such_kernel").is_none());
        // every entry of the file is reachable through the table, and nothing else is
        for entry in &entries {
            let found = Elem::ALL.into_iter().any(|e| {
                entry
                    .strip_suffix(e.suffix())
                    .and_then(|r| r.strip_suffix('_'))
                    .and_then(|name| super::unary_table().get(name))
                    .is_some_and(|row| row.contains(&Some(entry.as_str())))
            });
            assert!(found, "{entry} is not in the unary table");
        }
        let in_table: usize = super::unary_table()
            .values()
            .map(|row| row.iter().flatten().count())
            .sum();
        assert_eq!(in_table, entries.len());
    }
}
