//! Every kernel of kernels/*.cu, run on the emulated device through the kernel calls of
//! src/engine/cuda/ops.rs, against values computed on the host: exact where the host is exact
//! (IEEE +, -, *, / and every integer, bool, compare, copy, index and selection kernel; sums of
//! integers), else within a stated relative tolerance (transcendental functions: 2e-7 for f32,
//! 1e-15 for f64, the libm's last bit; float reductions, softmax and GEMM, whose order of
//! additions is the kernel's: 1e-5 for f32, 1e-12 for f64). Softmax, log_softmax and nll_loss
//! are also checked against the engine's PyTorch-CPU-exact numerics (engine::numerics).
//! The last test checks that every entry point the binary holds was launched here.

use cudatutor::engine::cuda::emulated::{self, EmulatedDevice};
use cudatutor::engine::cuda::gpu::{GpuDevice, GpuKind};
use cudatutor::engine::cuda::launch::{
    CtReduceGeom, CtShape, CtStrides, DeviceError, DevicePtr, Dim3, KernelArgs, LaunchConfig,
};
use cudatutor::engine::cuda::ops::{
    BinaryKernel, CompareKernel, Elem, Gemm, Kernels, NllReduction, ReduceKernel, Scalar, Strided,
    UnaryKernel,
};
use std::collections::BTreeSet;
use std::sync::Mutex;

static LAUNCHED: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());

/// The emulated device, recording every entry launched.
struct Recorder(EmulatedDevice);

impl GpuDevice for Recorder {
    fn kind(&self) -> GpuKind {
        self.0.kind()
    }
    fn name(&self) -> String {
        self.0.name()
    }
    fn arch(&self) -> String {
        self.0.arch()
    }
    fn launch(&self, entry: &str, cfg: LaunchConfig, args: &KernelArgs) -> Result<(), DeviceError> {
        LAUNCHED.lock().unwrap().insert(entry.to_string());
        self.0.launch(entry, cfg, args)
    }
    fn mem_alloc(&self, bytes: u64) -> Result<DevicePtr, DeviceError> {
        self.0.mem_alloc(bytes)
    }
    fn mem_free(&self, ptr: DevicePtr, bytes: u64) {
        self.0.mem_free(ptr, bytes)
    }
    fn mem_info(&self) -> (u64, u64) {
        self.0.mem_info()
    }
    fn copy_h2d(&self, dst: DevicePtr, src: &[u8], nb: bool) -> Result<(), DeviceError> {
        self.0.copy_h2d(dst, src, nb)
    }
    fn copy_d2h(&self, dst: &mut [u8], src: DevicePtr) -> Result<(), DeviceError> {
        self.0.copy_d2h(dst, src)
    }
    fn copy_d2d(&self, dst: DevicePtr, src: DevicePtr, bytes: u64) -> Result<(), DeviceError> {
        self.0.copy_d2d(dst, src, bytes)
    }
    fn synchronize(&self) -> Result<(), DeviceError> {
        self.0.synchronize()
    }
    fn take_device_log(&self) -> Vec<String> {
        self.0.take_device_log()
    }
    fn poisoned(&self) -> bool {
        self.0.poisoned()
    }
}

fn device() -> Recorder {
    Recorder(EmulatedDevice::new(1 << 32, 1 << 32).expect("the emulated device is built"))
}

const ELEMS: [Elem; 6] = Elem::ALL;
const NUMERIC: [Elem; 5] = [Elem::F32, Elem::F64, Elem::I64, Elem::I32, Elem::U8];
const FLOATS: [Elem; 2] = [Elem::F32, Elem::F64];

/// Values of one element type, held as f64 (exact for every value used here).
fn cast(v: f64, e: Elem) -> f64 {
    match e {
        Elem::F32 => v as f32 as f64,
        Elem::F64 => v,
        Elem::I64 => v as i64 as f64,
        Elem::I32 => v as i64 as i32 as f64,
        Elem::U8 => v as i64 as u8 as f64,
        Elem::Bool => f64::from(u8::from(v != 0.0)),
    }
}

fn bytes_of(v: &[f64], e: Elem) -> Vec<u8> {
    let mut out = Vec::new();
    for &x in v {
        match e {
            Elem::F32 => out.extend((x as f32).to_le_bytes()),
            Elem::F64 => out.extend(x.to_le_bytes()),
            Elem::I64 => out.extend((x as i64).to_le_bytes()),
            Elem::I32 => out.extend((x as i64 as i32).to_le_bytes()),
            Elem::U8 => out.push(x as i64 as u8),
            Elem::Bool => out.push(u8::from(x != 0.0)),
        }
    }
    out
}

fn values_of(b: &[u8], e: Elem) -> Vec<f64> {
    match e {
        Elem::F32 => b
            .chunks(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()) as f64)
            .collect(),
        Elem::F64 => b
            .chunks(8)
            .map(|c| f64::from_le_bytes(c.try_into().unwrap()))
            .collect(),
        Elem::I64 => b
            .chunks(8)
            .map(|c| i64::from_le_bytes(c.try_into().unwrap()) as f64)
            .collect(),
        Elem::I32 => b
            .chunks(4)
            .map(|c| i32::from_le_bytes(c.try_into().unwrap()) as f64)
            .collect(),
        Elem::U8 | Elem::Bool => b.iter().map(|&x| x as f64).collect(),
    }
}

struct Buf {
    ptr: DevicePtr,
    n: usize,
    elem: Elem,
}

impl Buf {
    /// The buffer as a contiguous 1-D operand.
    fn flat(&self) -> Strided<'static> {
        Strided {
            ptr: self.ptr,
            strides: &[1],
        }
    }
}

fn upload(d: &Recorder, v: &[f64], e: Elem) -> Buf {
    let raw = bytes_of(v, e);
    let p = d
        .mem_alloc((raw.len().max(1) as u64).next_multiple_of(512))
        .unwrap();
    d.copy_h2d(p, &raw, false).unwrap();
    Buf {
        ptr: p,
        n: v.len(),
        elem: e,
    }
}

fn alloc(d: &Recorder, n: usize, e: Elem) -> Buf {
    upload(d, &vec![0.0; n], e)
}

fn download(d: &Recorder, b: &Buf) -> Vec<f64> {
    let mut raw = vec![0u8; b.n * b.elem.size()];
    d.copy_d2h(&mut raw, b.ptr).unwrap();
    values_of(&raw, b.elem)
}

fn k(d: &Recorder) -> Kernels<'_> {
    Kernels {
        device: d,
        sm_count: 132,
    }
}

/// Relative tolerance for a transcendental result of `e`.
fn libm_tol(e: Elem) -> f64 {
    if e == Elem::F32 { 2e-7 } else { 1e-15 }
}

fn check(what: &str, got: &[f64], want: &[f64], rel: f64) {
    assert_eq!(got.len(), want.len(), "{what}");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let ok = (g.is_nan() && w.is_nan()) || g == w || (g - w).abs() <= rel * w.abs().max(1e-30);
        assert!(ok, "{what}[{i}]: got {g:?}, want {w:?} (rel tol {rel:e})");
    }
}

const A: [f64; 12] = [
    -3.5, -1.0, -0.25, 0.0, 0.5, 1.0, 2.0, 2.75, 7.0, -7.5, 3.0, 100.0,
];
const B: [f64; 12] = [
    2.0, -4.0, 0.5, 3.0, -0.5, 1.0, 2.0, -2.25, 5.0, 1.5, -3.0, 0.125,
];

fn s(strides: &[isize]) -> &[isize] {
    strides
}

#[test]
fn unary_kernels_on_every_dtype() {
    let d = device();
    let kk = k(&d);
    // kernel name (as the op table gives it), the dtypes elementwise.cu builds it for, and an
    // independent reference
    type Case = (&'static str, &'static [Elem], fn(f64) -> f64);
    let ops: [Case; 16] = [
        ("neg", &NUMERIC, |x| -x),
        ("abs", &NUMERIC, f64::abs),
        ("relu", &NUMERIC, |x| x.max(0.0)),
        ("exp", &FLOATS, f64::exp),
        ("log", &FLOATS, f64::ln),
        ("sqrt", &FLOATS, f64::sqrt),
        ("tanh", &FLOATS, f64::tanh),
        ("sigmoid", &FLOATS, |x| 1.0 / (1.0 + (-x).exp())),
        ("sin", &FLOATS, f64::sin),
        ("cos", &FLOATS, f64::cos),
        ("floor", &FLOATS, f64::floor),
        ("ceil", &FLOATS, f64::ceil),
        ("frac", &FLOATS, |x| x - x.trunc()),
        ("deg2rad", &FLOATS, |x| x * (std::f64::consts::PI / 180.0)),
        ("rad2deg", &FLOATS, |x| x * (180.0 / std::f64::consts::PI)),
        ("logical_not", &[Elem::Bool], |x| {
            f64::from(u8::from(x == 0.0))
        }),
    ];
    for (name, elems, f) in ops {
        let op = UnaryKernel::from_name(name).unwrap_or_else(|| panic!("no kernel {name}"));
        for e in Elem::ALL {
            assert_eq!(op.supports(e), elems.contains(&e), "{name} built for {e:?}");
        }
        for &e in elems {
            let x: Vec<f64> = A.iter().map(|&v| cast(v, e)).collect();
            let (a, out) = (upload(&d, &x, e), alloc(&d, 12, e));
            // A [3, 4] input read transposed ([4, 3] view), so strides are exercised.
            kk.unary(
                op,
                e,
                &[4, 3],
                Strided {
                    ptr: a.ptr,
                    strides: s(&[1, 4]),
                },
                Strided {
                    ptr: out.ptr,
                    strides: s(&[3, 1]),
                },
            )
            .unwrap();
            let want: Vec<f64> = (0..12)
                .map(|i| cast(f(x[(i % 3) * 4 + i / 3]), e))
                .collect();
            let tol = if matches!(
                name,
                "neg" | "abs" | "relu" | "floor" | "ceil" | "frac" | "logical_not" | "sqrt"
            ) {
                0.0
            } else {
                libm_tol(e) * 2.0
            };
            check(&format!("{op:?} {e:?}"), &download(&d, &out), &want, tol);
        }
    }
}

fn wrap(v: f64, e: Elem) -> f64 {
    // Integer results wrap in their width, as the kernels' C arithmetic does.
    match e {
        Elem::I32 => (v as i64 as i32) as f64,
        Elem::U8 => (v as i64 as u8) as f64,
        _ => cast(v, e),
    }
}

#[test]
fn binary_kernels_with_broadcasting_on_every_dtype() {
    let d = device();
    let kk = k(&d);
    type F = fn(f64, f64) -> f64;
    let numeric: [(BinaryKernel, F); 5] = [
        (BinaryKernel::Add, |a, b| a + b),
        (BinaryKernel::Sub, |a, b| a - b),
        (BinaryKernel::Mul, |a, b| a * b),
        (BinaryKernel::Maximum, f64::max),
        (BinaryKernel::Minimum, f64::min),
    ];
    let float: [(BinaryKernel, F); 2] = [
        (BinaryKernel::Div, |a, b| a / b),
        (BinaryKernel::Pow, f64::powf),
    ];
    let or: F = |a, b| f64::from(u8::from(a != 0.0 || b != 0.0));
    let and: F = |a, b| f64::from(u8::from(a != 0.0 && b != 0.0));
    let xor: F = |a, b| f64::from(u8::from((a != 0.0) != (b != 0.0)));
    let boolean: [(BinaryKernel, F); 7] = [
        (BinaryKernel::Add, or),
        (BinaryKernel::Mul, and),
        (BinaryKernel::Maximum, or),
        (BinaryKernel::Minimum, and),
        (BinaryKernel::LogicalAnd, and),
        (BinaryKernel::LogicalOr, or),
        (BinaryKernel::LogicalXor, xor),
    ];
    let bitwise: [(BinaryKernel, F); 3] = [
        (BinaryKernel::BitwiseAnd, |a, b| {
            ((a as i64) & (b as i64)) as f64
        }),
        (BinaryKernel::BitwiseOr, |a, b| {
            ((a as i64) | (b as i64)) as f64
        }),
        (BinaryKernel::BitwiseXor, |a, b| {
            ((a as i64) ^ (b as i64)) as f64
        }),
    ];
    let mut cases: Vec<(BinaryKernel, Elem, F)> = Vec::new();
    for e in NUMERIC {
        for (op, f) in numeric {
            cases.push((op, e, f));
        }
    }
    for e in FLOATS {
        for (op, f) in float {
            cases.push((op, e, f));
        }
    }
    for (op, f) in boolean {
        cases.push((op, Elem::Bool, f));
    }
    for e in [Elem::I64, Elem::I32, Elem::U8, Elem::Bool] {
        for (op, f) in bitwise {
            cases.push((op, e, f));
        }
    }
    for (op, e, f) in cases {
        let x: Vec<f64> = A.iter().map(|&v| cast(v, e)).collect();
        let y: Vec<f64> = B[..4].iter().map(|&v| cast(v, e)).collect();
        let (a, b, out) = (upload(&d, &x, e), upload(&d, &y, e), alloc(&d, 12, e));
        // [3, 4] OP [4] (b broadcast over rows).
        kk.binary(
            op,
            e,
            &[3, 4],
            Strided {
                ptr: a.ptr,
                strides: s(&[4, 1]),
            },
            Strided {
                ptr: b.ptr,
                strides: s(&[0, 1]),
            },
            Strided {
                ptr: out.ptr,
                strides: s(&[4, 1]),
            },
        )
        .unwrap();
        let want: Vec<f64> = (0..12)
            .map(|i| {
                let r = f(x[i], y[i % 4]);
                if e == Elem::Bool { r } else { wrap(r, e) }
            })
            .collect();
        let tol = if op == BinaryKernel::Pow {
            libm_tol(e) * 4.0
        } else {
            0.0
        };
        check(&format!("{op:?} {e:?}"), &download(&d, &out), &want, tol);
    }
}

#[test]
fn scalar_operands_and_pytorchs_division_by_a_scalar() {
    let d = device();
    let kk = k(&d);
    type F = fn(f64, f64) -> f64;
    let mut cases: Vec<(BinaryKernel, bool, Elem, F)> = Vec::new();
    for e in NUMERIC {
        cases.push((BinaryKernel::Add, false, e, |a, b| a + b));
        cases.push((BinaryKernel::Sub, false, e, |a, b| a - b));
        cases.push((BinaryKernel::Sub, true, e, |a, b| b - a));
        cases.push((BinaryKernel::Mul, false, e, |a, b| a * b));
        cases.push((BinaryKernel::Maximum, false, e, f64::max));
        cases.push((BinaryKernel::Minimum, false, e, f64::min));
    }
    for e in FLOATS {
        cases.push((BinaryKernel::Pow, false, e, f64::powf));
        cases.push((BinaryKernel::Pow, true, e, |a, b| b.powf(a)));
        cases.push((BinaryKernel::Div, true, e, |a, b| b / a));
        cases.push((BinaryKernel::Div, false, e, |a, b| a / b)); // checked below
    }
    for (op, first, e, f) in cases {
        let x: Vec<f64> = A.iter().map(|&v| cast(v, e)).collect();
        let sv = 3.0;
        let (a, out) = (upload(&d, &x, e), alloc(&d, 12, e));
        kk.binary_scalar(
            op,
            first,
            &[12],
            a.flat(),
            Scalar::from_f64(sv, e),
            out.flat(),
        )
        .unwrap();
        let got = download(&d, &out);
        let want: Vec<f64> = if op == BinaryKernel::Div && !first {
            // PyTorch's CUDA x / s is x * (1 / s), rounded in the element type.
            x.iter()
                .map(|&v| {
                    if e == Elem::F32 {
                        (v as f32 * (1.0f32 / 3.0)) as f64
                    } else {
                        v * (1.0 / 3.0)
                    }
                })
                .collect()
        } else {
            x.iter().map(|&v| wrap(f(v, sv), e)).collect()
        };
        let tol = if op == BinaryKernel::Pow {
            libm_tol(e) * 4.0
        } else {
            0.0
        };
        check(
            &format!("{op:?} scalar_first={first} {e:?}"),
            &got,
            &want,
            tol,
        );
    }
}

#[test]
fn comparisons_where_isnan_on_every_dtype() {
    let d = device();
    let kk = k(&d);
    type Case = (CompareKernel, fn(f64, f64) -> bool);
    let ops: [Case; 6] = [
        (CompareKernel::Eq, |a, b| a == b),
        (CompareKernel::Ne, |a, b| a != b),
        (CompareKernel::Lt, |a, b| a < b),
        (CompareKernel::Le, |a, b| a <= b),
        (CompareKernel::Gt, |a, b| a > b),
        (CompareKernel::Ge, |a, b| a >= b),
    ];
    for e in ELEMS {
        let x: Vec<f64> = A.iter().map(|&v| cast(v, e)).collect();
        let y: Vec<f64> = B.iter().map(|&v| cast(v, e)).collect();
        let (a, b) = (upload(&d, &x, e), upload(&d, &y, e));
        for (op, f) in ops {
            let out = alloc(&d, 12, Elem::Bool);
            kk.compare(op, e, &[12], a.flat(), b.flat(), out.flat())
                .unwrap();
            let want: Vec<f64> = (0..12)
                .map(|i| f64::from(u8::from(f(x[i], y[i]))))
                .collect();
            check(&format!("{op:?} {e:?}"), &download(&d, &out), &want, 0.0);
            let out = alloc(&d, 12, Elem::Bool);
            let sv = cast(1.0, e);
            kk.compare_scalar(op, &[12], a.flat(), Scalar::from_f64(sv, e), out.flat())
                .unwrap();
            let want: Vec<f64> = (0..12).map(|i| f64::from(u8::from(f(x[i], sv)))).collect();
            check(
                &format!("{op:?} scalar {e:?}"),
                &download(&d, &out),
                &want,
                0.0,
            );
        }
        // where(cond, a, b) with cond = a > b.
        let cond: Vec<f64> = (0..12).map(|i| f64::from(u8::from(x[i] > y[i]))).collect();
        let (c, out) = (upload(&d, &cond, Elem::Bool), alloc(&d, 12, e));
        kk.where_(e, &[12], c.flat(), a.flat(), b.flat(), out.flat())
            .unwrap();
        let want: Vec<f64> = (0..12)
            .map(|i| if cond[i] != 0.0 { x[i] } else { y[i] })
            .collect();
        check(&format!("where {e:?}"), &download(&d, &out), &want, 0.0);
    }
    for e in FLOATS {
        let x = vec![1.0, f64::NAN, -0.0, f64::INFINITY];
        let (a, out) = (upload(&d, &x, e), alloc(&d, 4, Elem::Bool));
        let args = KernelArgs::new()
            .arg(4i64)
            .arg(CtShape::new(&[4]).unwrap())
            .arg(CtStrides::new(&[1]).unwrap())
            .arg(CtStrides::new(&[1]).unwrap())
            .arg(a.ptr)
            .arg(out.ptr);
        d.launch(
            &format!("isnan_{}", e.suffix()),
            LaunchConfig::new(Dim3::x(1), Dim3::x(32)),
            &args,
        )
        .unwrap();
        check("isnan", &download(&d, &out), &[0.0, 1.0, 0.0, 0.0], 0.0);
    }
}

#[test]
fn copies_and_casts_between_every_pair() {
    let d = device();
    let kk = k(&d);
    for src in ELEMS {
        for dst in ELEMS {
            // Non-negative values below 256: every pair is defined (float -> uint8 of a
            // negative number is undefined in C, as in CUDA).
            let x: Vec<f64> = [0.0, 1.0, 2.75, 7.5, 100.25, 3.0]
                .iter()
                .map(|&v| cast(v, src))
                .collect();
            let (a, out) = (upload(&d, &x, src), alloc(&d, 6, dst));
            // a [2, 3] read transposed into a contiguous [3, 2].
            kk.copy(
                src,
                dst,
                &[3, 2],
                Strided {
                    ptr: a.ptr,
                    strides: s(&[1, 3]),
                },
                Strided {
                    ptr: out.ptr,
                    strides: s(&[2, 1]),
                },
            )
            .unwrap();
            let want: Vec<f64> = (0..6).map(|i| cast(x[(i % 2) * 3 + i / 2], dst)).collect();
            check(
                &format!("copy {src:?} -> {dst:?}"),
                &download(&d, &out),
                &want,
                0.0,
            );
        }
    }
}

#[test]
fn fill_fill_strided_and_arange() {
    let d = device();
    let kk = k(&d);
    for e in ELEMS {
        let out = alloc(&d, 300, e);
        kk.fill(300, Scalar::from_f64(2.0, e), out.ptr).unwrap();
        check(
            &format!("fill {e:?}"),
            &download(&d, &out),
            &vec![cast(2.0, e); 300],
            0.0,
        );
        // fill_strided: column 1 of a [4, 3] tensor.
        let out = alloc(&d, 12, e);
        let mut args = KernelArgs::new()
            .arg(4i64)
            .arg(CtShape::new(&[4]).unwrap())
            .arg(CtStrides::new(&[3]).unwrap());
        Scalar::from_f64(1.0, e).push(&mut args);
        args.push(out.ptr.offset(e.size() as u64));
        d.launch(
            &format!("fill_strided_{}", e.suffix()),
            LaunchConfig::new(Dim3::x(1), Dim3::x(64)),
            &args,
        )
        .unwrap();
        let want: Vec<f64> = (0..12)
            .map(|i| if i % 3 == 1 { cast(1.0, e) } else { 0.0 })
            .collect();
        check(
            &format!("fill_strided {e:?}"),
            &download(&d, &out),
            &want,
            0.0,
        );
    }
    for e in [Elem::F32, Elem::F64, Elem::I64, Elem::I32] {
        let out = alloc(&d, 20, e);
        kk.arange(e, 20, -3.0, 2.0, out.ptr).unwrap();
        let want: Vec<f64> = (0..20).map(|i| -3.0 + 2.0 * i as f64).collect();
        check(&format!("arange {e:?}"), &download(&d, &out), &want, 0.0);
    }
    let out = alloc(&d, 10, Elem::F32);
    kk.arange(Elem::F32, 10, 0.0, 0.1, out.ptr).unwrap();
    let want: Vec<f64> = (0..10).map(|i| (0.1f32 * i as f32) as f64).collect();
    check("arange f32 0.1", &download(&d, &out), &want, 0.0);
}

#[test]
fn reductions_on_every_dtype() {
    let d = device();
    let kk = k(&d);
    // [2, 700, 3], reduced over the middle dimension (300+ elements: several threads per row).
    let (outer, len, inner) = (2usize, 700usize, 3usize);
    let geom = CtReduceGeom {
        outer: 2,
        len: 700,
        inner: 3,
        s_outer: 2100,
        s_len: 3,
        s_inner: 1,
    };
    for e in ELEMS {
        let x: Vec<f64> = (0..outer * len * inner)
            .map(|i| {
                cast(
                    ((i * 37 + 11) % 23) as f64 - 9.0 + if e.is_float() { 0.25 } else { 0.0 },
                    e,
                )
            })
            .collect();
        let a = upload(&d, &x, e);
        let rows: Vec<Vec<f64>> = (0..outer * inner)
            .map(|r| {
                (0..len)
                    .map(|j| x[(r / inner) * len * inner + j * inner + r % inner])
                    .collect()
            })
            .collect();
        // sum: ints and bool accumulate into int64; floats in their own type.
        let sum_elem = if e.is_float() { e } else { Elem::I64 };
        let out = alloc(&d, 6, sum_elem);
        kk.reduce(ReduceKernel::Sum, e, geom, a.ptr, out.ptr, None)
            .unwrap();
        let want: Vec<f64> = rows.iter().map(|r| r.iter().sum()).collect();
        check(
            &format!("sum {e:?}"),
            &download(&d, &out),
            &want,
            if e == Elem::F32 { 1e-5 } else { 1e-12 },
        );
        if e.is_float() {
            let out = alloc(&d, 6, e);
            kk.reduce(ReduceKernel::Mean, e, geom, a.ptr, out.ptr, None)
                .unwrap();
            let want: Vec<f64> = rows
                .iter()
                .map(|r| r.iter().sum::<f64>() / len as f64)
                .collect();
            check(
                &format!("mean {e:?}"),
                &download(&d, &out),
                &want,
                if e == Elem::F32 { 1e-5 } else { 1e-12 },
            );
        }
        for (op, is_max) in [(ReduceKernel::Max, true), (ReduceKernel::Min, false)] {
            let (vals, idx) = (alloc(&d, 6, e), alloc(&d, 6, Elem::I64));
            kk.reduce(op, e, geom, a.ptr, vals.ptr, Some(idx.ptr))
                .unwrap();
            let best: Vec<(f64, f64)> = rows
                .iter()
                .map(|r| {
                    let mut bi = 0;
                    for (j, &v) in r.iter().enumerate() {
                        if (is_max && v > r[bi]) || (!is_max && v < r[bi]) {
                            bi = j;
                        }
                    }
                    (r[bi], bi as f64)
                })
                .collect();
            check(
                &format!("{op:?} values {e:?}"),
                &download(&d, &vals),
                &best.iter().map(|b| b.0).collect::<Vec<_>>(),
                0.0,
            );
            check(
                &format!("{op:?} indices {e:?}"),
                &download(&d, &idx),
                &best.iter().map(|b| b.1).collect::<Vec<_>>(),
                0.0,
            );
            let arg = alloc(&d, 6, Elem::I64);
            let argop = if is_max {
                ReduceKernel::Argmax
            } else {
                ReduceKernel::Argmin
            };
            kk.reduce(argop, e, geom, a.ptr, arg.ptr, None).unwrap();
            check(
                &format!("{argop:?} {e:?}"),
                &download(&d, &arg),
                &best.iter().map(|b| b.1).collect::<Vec<_>>(),
                0.0,
            );
        }
        for (op, all) in [(ReduceKernel::Any, false), (ReduceKernel::All, true)] {
            let out = alloc(&d, 6, Elem::Bool);
            kk.reduce(op, e, geom, a.ptr, out.ptr, None).unwrap();
            let want: Vec<f64> = rows
                .iter()
                .map(|r| {
                    f64::from(u8::from(if all {
                        r.iter().all(|&v| v != 0.0)
                    } else {
                        r.iter().any(|&v| v != 0.0)
                    }))
                })
                .collect();
            check(&format!("{op:?} {e:?}"), &download(&d, &out), &want, 0.0);
        }
    }
    // NaN propagates through max (first NaN wins), as in PyTorch.
    let x = vec![1.0, f64::NAN, 3.0, f64::NAN];
    let (a, v, i) = (
        upload(&d, &x, Elem::F32),
        alloc(&d, 1, Elem::F32),
        alloc(&d, 1, Elem::I64),
    );
    let g = CtReduceGeom {
        outer: 1,
        len: 4,
        inner: 1,
        s_outer: 4,
        s_len: 1,
        s_inner: 1,
    };
    kk.reduce(ReduceKernel::Max, Elem::F32, g, a.ptr, v.ptr, Some(i.ptr))
        .unwrap();
    assert!(download(&d, &v)[0].is_nan());
    assert_eq!(download(&d, &i), vec![1.0]);
}

#[test]
fn softmax_and_log_softmax_match_the_engines_numerics() {
    let d = device();
    let kk = k(&d);
    for (outer, dim, inner) in [(4usize, 5usize, 1usize), (2, 300, 1), (3, 4, 5)] {
        let n = outer * dim * inner;
        let x32: Vec<f32> = (0..n)
            .map(|i| ((i * 29 % 17) as f32 - 8.0) * 0.37)
            .collect();
        let x: Vec<f64> = x32.iter().map(|&v| v as f64).collect();
        for log in [false, true] {
            let mut host = vec![0.0f32; n];
            if log {
                cudatutor::engine::numerics::softmax::log_softmax_f32(
                    &x32, &mut host, outer, dim, inner,
                );
            } else {
                cudatutor::engine::numerics::softmax::softmax_f32(
                    &x32, &mut host, outer, dim, inner,
                );
            }
            for e in FLOATS {
                let (a, out) = (upload(&d, &x, e), alloc(&d, n, e));
                kk.softmax(log, e, outer, dim, inner, a.ptr, out.ptr)
                    .unwrap();
                let want: Vec<f64> = host.iter().map(|&v| v as f64).collect();
                check(
                    &format!("softmax log={log} {e:?} [{outer},{dim},{inner}]"),
                    &download(&d, &out),
                    &want,
                    1e-5,
                );
            }
        }
    }
}

#[test]
fn nll_loss_every_variant_matches_the_engines_numerics() {
    let d = device();
    let kk = k(&d);
    let (n, c) = (70usize, 5usize);
    let logp32: Vec<f32> = (0..n * c).map(|i| -((i * 13 % 19) as f32) * 0.21).collect();
    let logp: Vec<f64> = logp32.iter().map(|&v| v as f64).collect();
    let target: Vec<i64> = (0..n as i64)
        .map(|i| if i % 9 == 4 { -100 } else { i % c as i64 })
        .collect();
    let w32: Vec<f32> = vec![1.0, 2.0, 0.5, 1.5, 0.25];
    use cudatutor::engine::numerics::loss::Reduction as R;
    for e in FLOATS {
        for u8_target in [false, true] {
            let te = if u8_target { Elem::U8 } else { Elem::I64 };
            // uint8 targets cannot hold -100: use ignore_index 255 for them.
            let ignore = if u8_target { 255 } else { -100 };
            let t: Vec<f64> = target
                .iter()
                .map(|&v| if v == -100 { ignore as f64 } else { v as f64 })
                .collect();
            let (pi, pt, pw) = (
                upload(&d, &logp, e),
                upload(&d, &t, te),
                upload(&d, &w32.iter().map(|&v| v as f64).collect::<Vec<_>>(), e),
            );
            let t_i64: Vec<i64> = t.iter().map(|&v| v as i64).collect();
            for (red, hred) in [
                (NllReduction::Mean, R::Mean),
                (NllReduction::Sum, R::Sum),
                (NllReduction::None, R::None),
            ] {
                let out = alloc(&d, n.max(2), e);
                let tw = alloc(&d, 1, e);
                kk.nll_loss(
                    e,
                    u8_target,
                    red,
                    Some(n),
                    c,
                    pi.ptr,
                    pt.ptr,
                    Some(pw.ptr),
                    ignore,
                    out.ptr,
                    tw.ptr,
                )
                .unwrap();
                let shape = cudatutor::engine::numerics::loss::ClassShape {
                    n,
                    c,
                    map: 1,
                    one_d: false,
                };
                let host = cudatutor::engine::numerics::loss::nll_loss_f32(
                    &logp32,
                    shape,
                    &t_i64,
                    Some(&w32),
                    hred,
                    ignore,
                )
                .unwrap();
                let got = download(&d, &out);
                let got = if red == NllReduction::None {
                    got[..n].to_vec()
                } else {
                    got[..1].to_vec()
                };
                let want: Vec<f64> = host.loss.iter().map(|&v| v as f64).collect();
                if red != NllReduction::None {
                    check(
                        "total_weight",
                        &download(&d, &tw),
                        &[host.total_weight as f64],
                        1e-6,
                    );
                }
                check(
                    &format!("nll_loss {red:?} {e:?} u8={u8_target}"),
                    &got,
                    &want,
                    1e-5,
                );
            }
            // 1-d input [c] with one target.
            let one = upload(&d, &[2.0], te);
            let out = alloc(&d, 2, e);
            kk.nll_loss(
                e,
                u8_target,
                NllReduction::Sum,
                None,
                c,
                pi.ptr,
                one.ptr,
                Some(pw.ptr),
                ignore,
                out.ptr,
                out.ptr.offset(e.size() as u64),
            )
            .unwrap();
            check(
                "nll_loss 1d",
                &download(&d, &out),
                &[-(logp[2] * 0.5), 0.5]
                    .iter()
                    .map(|&v| cast(v, e))
                    .collect::<Vec<_>>(),
                1e-6,
            );
        }
    }
}

#[test]
fn gather_index_select_embedding_and_advanced_indexing() {
    let d = device();
    let kk = k(&d);
    for e in ELEMS {
        // src [4, 5]
        let x: Vec<f64> = (0..20).map(|i| cast(i as f64 * 1.5 - 4.0, e)).collect();
        let a = upload(&d, &x, e);
        // gather(src, 1, idx) with idx [4, 2]
        let idx: Vec<f64> = vec![0.0, 4.0, 1.0, 1.0, 3.0, 2.0, 4.0, 0.0];
        let (pi, out) = (upload(&d, &idx, Elem::I64), alloc(&d, 8, e));
        kk.gather(
            e,
            &[4, 2],
            1,
            5,
            Strided {
                ptr: a.ptr,
                strides: s(&[5, 1]),
            },
            Strided {
                ptr: pi.ptr,
                strides: s(&[2, 1]),
            },
            Strided {
                ptr: out.ptr,
                strides: s(&[2, 1]),
            },
        )
        .unwrap();
        let want: Vec<f64> = (0..8).map(|p| x[(p / 2) * 5 + idx[p] as usize]).collect();
        check(&format!("gather {e:?}"), &download(&d, &out), &want, 0.0);
        // index_select(src, 0, rows) small (3 indices) and large (20 indices), int64 and int32.
        for count in [3usize, 20] {
            let rows: Vec<f64> = (0..count).map(|i| ((i * 3 + 1) % 4) as f64).collect();
            for i32s in [false, true] {
                let pr = upload(&d, &rows, if i32s { Elem::I32 } else { Elem::I64 });
                let out = alloc(&d, count * 5, e);
                kk.index_select(e, false, i32s, 1, 4, 5, count, a.ptr, pr.ptr, out.ptr)
                    .unwrap();
                let want: Vec<f64> = rows
                    .iter()
                    .flat_map(|&r| (0..5).map(move |c| r as usize * 5 + c))
                    .map(|i| x[i])
                    .collect();
                check(
                    &format!("index_select {e:?} n={count} i32={i32s}"),
                    &download(&d, &out),
                    &want,
                    0.0,
                );
                if e.is_float() {
                    let out = alloc(&d, count * 5, e);
                    kk.index_select(e, true, i32s, 1, 4, 5, count, a.ptr, pr.ptr, out.ptr)
                        .unwrap();
                    check(
                        &format!("embedding {e:?} n={count} i32={i32s}"),
                        &download(&d, &out),
                        &want,
                        0.0,
                    );
                }
            }
        }
        // index_select along dim 1: src [4, 5] as [outer 4, dim 5, inner 1].
        let cols = upload(&d, &[4.0, 0.0], Elem::I64);
        let out = alloc(&d, 8, e);
        kk.index_select(e, false, false, 4, 5, 1, 2, a.ptr, cols.ptr, out.ptr)
            .unwrap();
        let want: Vec<f64> = (0..4).flat_map(|r| [x[r * 5 + 4], x[r * 5]]).collect();
        check(
            &format!("index_select dim 1 {e:?}"),
            &download(&d, &out),
            &want,
            0.0,
        );
        // x[idx] on dim 0 with a negative index.
        let ix = upload(&d, &[3.0, -4.0, 1.0], Elem::I64);
        let out = alloc(&d, 15, e);
        kk.index(
            e,
            &[3, 5],
            0,
            4,
            Strided {
                ptr: a.ptr,
                strides: s(&[5, 1]),
            },
            ix.ptr,
            1,
            Strided {
                ptr: out.ptr,
                strides: s(&[5, 1]),
            },
        )
        .unwrap();
        let want: Vec<f64> = [3usize, 0, 1]
            .iter()
            .flat_map(|&r| (0..5).map(move |c| r * 5 + c))
            .map(|i| x[i])
            .collect();
        check(&format!("index {e:?}"), &download(&d, &out), &want, 0.0);
    }
}

#[test]
fn index_asserts_print_pytorch_215s_lines_with_pytorchs_threads() {
    // embedding(10, 3) with ids [1, 10]: indexSelectSmallIndex, block min(3, 128) = 3 threads;
    // every thread checks every index before copying, so threads 0, 1, 2 report.
    let d = device();
    let kk = k(&d);
    let w = upload(&d, &vec![0.5; 30], Elem::F32);
    let ids = upload(&d, &[1.0, 10.0], Elem::I64);
    let out = alloc(&d, 6, Elem::F32);
    kk.index_select(Elem::F32, true, false, 1, 10, 3, 2, w.ptr, ids.ptr, out.ptr)
        .unwrap();
    let log = d.take_device_log();
    let want: Vec<String> = (0..3)
        .map(|t| format!("/__w/pytorch/pytorch/aten/src/ATen/native/cuda/Indexing.cu:1582: indexSelectSmallIndex: block: [0,0,0], thread: [{t},0,0] Assertion `srcIndex < srcSelectDimSize` failed."))
        .collect();
    assert_eq!(log, want);
    assert!(d.poisoned());

    // x[idx] out of range: IndexKernel.cu:111, operator(), element 600 is thread 88 of block 1.
    let d = device();
    let kk = k(&d);
    let x = upload(&d, &[1.0; 5], Elem::F32);
    let mut idx = vec![0.0; 700];
    idx[600] = 5.0;
    let pi = upload(&d, &idx, Elem::I64);
    let out = alloc(&d, 700, Elem::F32);
    kk.index(Elem::F32, &[700], 0, 5, x.flat(), pi.ptr, 1, out.flat())
        .unwrap();
    assert_eq!(
        d.take_device_log(),
        vec!["/__w/pytorch/pytorch/aten/src/ATen/native/cuda/IndexKernel.cu:111: operator(): block: [1,0,0], thread: [88,0,0] Assertion `-sizes[i] <= index && index < sizes[i] && \"index out of bounds\"` failed.".to_string()]
    );

    // nll_loss 'none' with two bad targets: Loss.cu:179, one line per failing thread.
    let d = device();
    let kk = k(&d);
    let logp = upload(&d, &vec![-1.0; 300 * 3], Elem::F32);
    let mut t = vec![0.0; 300];
    t[5] = 3.0;
    t[130] = -2.0;
    let pt = upload(&d, &t, Elem::I64);
    let out = alloc(&d, 300, Elem::F32);
    kk.nll_loss(
        Elem::F32,
        false,
        NllReduction::None,
        Some(300),
        3,
        logp.ptr,
        pt.ptr,
        None,
        -100,
        out.ptr,
        out.ptr,
    )
    .unwrap();
    let log = d.take_device_log();
    assert_eq!(log.len(), 2, "{log:?}");
    assert!(log[0].ends_with("Loss.cu:179: nll_loss_forward_no_reduce_cuda_kernel: block: [0,0,0], thread: [5,0,0] Assertion `cur_target >= 0 && cur_target < n_classes` failed."), "{}", log[0]);
    assert!(
        log[1].contains("block: [1,0,0], thread: [2,0,0]"),
        "{}",
        log[1]
    );
}

#[test]
fn gemm_in_both_precisions_with_transposes_batches_and_beta() {
    let d = device();
    let kk = k(&d);
    let (batch, m, n, kd) = (2usize, 19usize, 23usize, 37usize);
    for e in FLOATS {
        let a: Vec<f64> = (0..batch * m * kd)
            .map(|i| cast(((i * 7) % 13) as f64 * 0.25 - 1.5, e))
            .collect();
        // B stored transposed: element (q, j) of batch b at b*n*kd + j*kd + q.
        let b: Vec<f64> = (0..batch * n * kd)
            .map(|i| cast(((i * 5) % 11) as f64 * 0.5 - 2.0, e))
            .collect();
        let c0: Vec<f64> = (0..batch * m * n)
            .map(|i| cast((i % 7) as f64, e))
            .collect();
        let (pa, pb, pc) = (upload(&d, &a, e), upload(&d, &b, e), upload(&d, &c0, e));
        kk.gemm(&Gemm {
            elem: e,
            batch,
            m,
            n,
            k: kd,
            alpha: 2.0,
            a: (pa.ptr, kd as isize, 1, (m * kd) as isize),
            b: (pb.ptr, 1, kd as isize, (n * kd) as isize),
            beta: 0.5,
            c: (pc.ptr, n as isize, (m * n) as isize),
        })
        .unwrap();
        let mut want = Vec::new();
        for bi in 0..batch {
            for i in 0..m {
                for j in 0..n {
                    let dot: f64 = (0..kd)
                        .map(|q| a[bi * m * kd + i * kd + q] * b[bi * n * kd + j * kd + q])
                        .sum();
                    want.push(2.0 * dot + 0.5 * c0[bi * m * n + i * n + j]);
                }
            }
        }
        check(
            &format!("gemm {e:?}"),
            &download(&d, &pc),
            &want,
            if e == Elem::F32 { 1e-5 } else { 1e-12 },
        );
    }
}

#[test]
fn philox_random_numbers_are_reproducible_in_range_and_distributed() {
    let d = device();
    let kk = k(&d);
    for e in FLOATS {
        let n = 4001;
        let (a, b) = (alloc(&d, n, e), alloc(&d, n, e));
        kk.random_float(false, e, n, 7, 0, -2.0, 3.0, a.ptr)
            .unwrap();
        kk.random_float(false, e, n, 7, 0, -2.0, 3.0, b.ptr)
            .unwrap();
        let (x, y) = (download(&d, &a), download(&d, &b));
        assert_eq!(x, y, "same seed and offset, same numbers");
        assert!(x.iter().all(|&v| (-2.0..3.0).contains(&v)));
        let mean = x.iter().sum::<f64>() / n as f64;
        assert!((mean - 0.5).abs() < 0.1, "uniform mean {mean}");
        kk.random_float(false, e, n, 7, 1000, -2.0, 3.0, b.ptr)
            .unwrap();
        assert_ne!(x, download(&d, &b), "another offset, other numbers");
        kk.random_float(true, e, n, 7, 0, 1.0, 2.0, a.ptr).unwrap();
        let z = download(&d, &a);
        let mean = z.iter().sum::<f64>() / n as f64;
        let var = z.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n as f64;
        assert!(
            (mean - 1.0).abs() < 0.1 && (var - 4.0).abs() < 0.5,
            "normal mean {mean} var {var}"
        );
    }
    for e in NUMERIC {
        let n = 1001;
        let a = alloc(&d, n, e);
        kk.randint(e, n, 3, 0, 2, 7, a.ptr).unwrap();
        let x = download(&d, &a);
        assert!(
            x.iter()
                .all(|&v| (2.0..7.0).contains(&v) && v.fract() == 0.0)
        );
        for v in 2..7 {
            assert!(x.contains(&(v as f64)), "randint never drew {v}");
        }
    }
}

#[test]
fn every_entry_point_in_the_binary_is_launched_by_these_tests() {
    // Runs the others (again) so it can be run alone, then compares the sets.
    unary_kernels_on_every_dtype();
    binary_kernels_with_broadcasting_on_every_dtype();
    scalar_operands_and_pytorchs_division_by_a_scalar();
    comparisons_where_isnan_on_every_dtype();
    copies_and_casts_between_every_pair();
    fill_fill_strided_and_arange();
    reductions_on_every_dtype();
    softmax_and_log_softmax_match_the_engines_numerics();
    nll_loss_every_variant_matches_the_engines_numerics();
    gather_index_select_embedding_and_advanced_indexing();
    index_asserts_print_pytorch_215s_lines_with_pytorchs_threads();
    gemm_in_both_precisions_with_transposes_batches_and_beta();
    philox_random_numbers_are_reproducible_in_range_and_distributed();
    activation_backward_and_add_alpha_match_the_host();
    isinf_and_isfinite();
    var_and_std_by_welford_match_the_host();
    cumsum_and_cumprod_on_every_dtype_match_the_host();
    softmax_backward_is_pytorchs_warp_kernel_and_close_to_the_host();
    nll_loss_backward_every_variant_matches_the_host();
    index_add_matches_the_host();
    draws_norms_and_half_fills_match_the_hosts_mirror();
    let launched = LAUNCHED.lock().unwrap().clone();
    let all: BTreeSet<String> = emulated::entry_names()
        .into_iter()
        .flat_map(|(_, e)| e.into_iter().map(str::to_string))
        .collect();
    let missing: Vec<&String> = all.difference(&launched).collect();
    assert!(missing.is_empty(), "never launched: {missing:?}");
}

/// curand's Philox4x32-10, written out independently of random.cu (counter = (offset / 4 + k,
/// idx), key = seed; the round as in Salmon et al. and curand's header).
fn philox_ref(seed: u64, offset: u64, idx: u64, k: u64) -> [u32; 4] {
    let c = offset / 4 + k;
    let mut ctr = [c as u32, (c >> 32) as u32, idx as u32, (idx >> 32) as u32];
    let mut key = [seed as u32, (seed >> 32) as u32];
    for r in 0..10 {
        if r > 0 {
            key[0] = key[0].wrapping_add(0x9E37_79B9);
            key[1] = key[1].wrapping_add(0xBB67_AE85);
        }
        let p0 = 0xD251_1F53u64 * ctr[0] as u64;
        let p1 = 0xCD9E_8D57u64 * ctr[2] as u64;
        ctr = [
            (p1 >> 32) as u32 ^ ctr[1] ^ key[0],
            p1 as u32,
            (p0 >> 32) as u32 ^ ctr[3] ^ key[1],
            p0 as u32,
        ];
    }
    ctr
}

#[test]
fn random_numbers_follow_pytorchs_cuda_layout_counters_and_offsets() {
    // A small device (2 SMs) so the grid-stride loop takes several curand4 calls per thread.
    let d = device();
    let kk = Kernels {
        device: &d,
        sm_count: 2,
    };
    let n = 40_000usize;
    let (seed, offset) = (0x1234_5678_9abc_def0u64, 8u64);
    let threads = 256 * 16; // grid min(ceil(n / 256), 2 * 2048 / 256) = 16 blocks
    let out = alloc(&d, n, Elem::F32);
    let inc = kk
        .random_float(false, Elem::F32, n, seed, offset, 0.0, 1.0, out.ptr)
        .unwrap();
    assert_eq!(inc, 12, "((n - 1) / (256 * 16 * 4) + 1) * 4");
    let got = download(&d, &out);
    let mut want = vec![f64::NAN; n];
    for k in 0..n.div_ceil(threads * 4) {
        for idx in 0..threads {
            let base = k * threads * 4 + idx;
            if base >= n {
                break;
            }
            let w = philox_ref(seed, offset, idx as u64, k as u64);
            for (ii, word) in w.iter().enumerate() {
                let li = base + ii * threads;
                if li < n {
                    // curand_uniform: (0, 1] with one fused multiply-add, then uniform_'s
                    // `r * range + from` (another fma) mapping 1.0 to `from`.
                    let u = (*word as f32).mul_add(2.328_306_4e-10, 2.328_306_4e-10 / 2.0);
                    let v = u.mul_add(1.0, 0.0);
                    want[li] = if v == 1.0 { 0.0 } else { v as f64 };
                }
            }
        }
    }
    check("uniform_f32 layout", &got, &want, 0.0);
    // randint below 2^28: four 32-bit draws per curand4.
    let out = alloc(&d, n, Elem::I64);
    let inc = kk.randint(Elem::I64, n, seed, 0, -5, 95, out.ptr).unwrap();
    assert_eq!(inc, 12);
    let got = download(&d, &out);
    for (li, g) in got.iter().enumerate() {
        let (k, rem) = (li / (threads * 4), li % (threads * 4));
        let (ii, idx) = (rem / threads, rem % threads);
        let w = philox_ref(seed, 0, idx as u64, k as u64)[ii];
        assert_eq!(*g, (w as u64 % 100) as f64 - 5.0, "randint[{li}]");
    }
}

// ----- the kernels that replaced host fallbacks (autograd backward, var/std, scans, ...) -----

use cudatutor::engine::backend::{Arg as HArg, BackendStorage, NllLoss, Operands, ReduceOp};
use cudatutor::engine::cuda::ops::{BackwardKernel, FloatTest};
use cudatutor::engine::dtype::{DType, Scalar as HScalar};
use cudatutor::engine::host::HostStorage;
use cudatutor::engine::layout::Layout;
use cudatutor::engine::tensor::{Reduction, UnaryOp};

fn dtype_of(e: Elem) -> DType {
    match e {
        Elem::F32 => DType::Float32,
        Elem::F64 => DType::Float64,
        Elem::I64 => DType::Int64,
        Elem::I32 => DType::Int32,
        Elem::U8 => DType::UInt8,
        Elem::Bool => DType::Bool,
    }
}

/// Host values of `e` (exact for every value used here).
fn host(v: &[f64], e: Elem) -> HostStorage {
    match e {
        Elem::F32 => HostStorage::F32(v.iter().map(|&x| x as f32).collect()),
        Elem::F64 => HostStorage::F64(v.to_vec()),
        Elem::I64 => HostStorage::I64(v.iter().map(|&x| x as i64).collect()),
        Elem::I32 => HostStorage::I32(v.iter().map(|&x| x as i64 as i32).collect()),
        Elem::U8 => HostStorage::U8(v.iter().map(|&x| x as i64 as u8).collect()),
        Elem::Bool => HostStorage::Bool(v.iter().map(|&x| x != 0.0).collect()),
    }
}

fn host_values(h: &HostStorage) -> Vec<f64> {
    h.gather_f64(&Layout::contiguous(&[h.len()]))
}

/// The device interface hands gather its index with a layout: the host reads a transposed or
/// offset index through it, as it reads the same index made contiguous.
#[test]
fn host_gather_reads_a_strided_index_through_its_layout() {
    let src = HostStorage::F32((0..6).map(|v| v as f32).collect());
    let src_layout = Layout::contiguous(&[2, 3]);
    // the index [[0, 1, 2], [2, 0, 1]], stored transposed after one unused entry
    let stored = HostStorage::I64(vec![9, 0, 2, 1, 0, 2, 1]);
    let strided = Layout::new(vec![2, 3], vec![1, 2], 1);
    let dense = HostStorage::I64(vec![0, 1, 2, 2, 0, 1]);
    let want = [0.0, 1.0, 2.0, 5.0, 3.0, 4.0];
    for (index, layout) in [(&stored, strided), (&dense, Layout::contiguous(&[2, 3]))] {
        let got = HostStorage::gather((&src, &src_layout), 1, (index, &layout)).unwrap();
        assert!(got.bad.is_empty());
        assert_eq!(host_values(&got.value), want, "index layout {layout:?}");
    }
}

#[test]
fn activation_backward_and_add_alpha_match_the_host() {
    let d = device();
    let kk = k(&d);
    let shape = [3usize, 4];
    let l = Layout::contiguous(&shape);
    let cs = [4isize, 1];
    let g: Vec<f64> = A.iter().map(|v| v * 0.75).collect();
    // results of sigmoid/tanh (in (-1, 1)), with a zero, a negative and a NaN for relu's
    let y: Vec<f64> = vec![
        0.25,
        -0.5,
        0.0,
        0.875,
        -0.0,
        0.5,
        f64::NAN,
        0.125,
        -0.75,
        0.9,
        0.3,
        0.6,
    ];
    for e in FLOATS {
        let dt = dtype_of(e);
        let (pg, py) = (upload(&d, &g, e), upload(&d, &y, e));
        let (hg, hy) = (host(&g, e), host(&y, e));
        for (op, kop) in [
            (UnaryOp::Sigmoid, BackwardKernel::Sigmoid),
            (UnaryOp::Tanh, BackwardKernel::Tanh),
            (UnaryOp::Relu, BackwardKernel::Threshold),
        ] {
            let out = alloc(&d, 12, e);
            kk.activation_backward(
                kop,
                e,
                &shape,
                Strided {
                    ptr: pg.ptr,
                    strides: &cs,
                },
                Strided {
                    ptr: py.ptr,
                    strides: &cs,
                },
                Strided {
                    ptr: out.ptr,
                    strides: &cs,
                },
            )
            .unwrap();
            let grad_y = Operands::new([(&hg, &l), (&hy, &l)], &shape, dt);
            let want = HostStorage::activation_backward(op, grad_y).unwrap();
            // float32 and sigmoid/relu: the host's arithmetic exactly; the host's float64
            // tanh backward does not fuse 1 - y * y (PyTorch's CUDA kernel does)
            let tol = if e == Elem::F64 && kop == BackwardKernel::Tanh {
                1e-15
            } else {
                0.0
            };
            check(
                &format!("{kop:?} backward {e:?}"),
                &download(&d, &out),
                &host_values(&want),
                tol,
            );
        }
    }
    // a + alpha * b with b broadcast along dim 0, every numeric dtype
    for e in NUMERIC {
        let dt = dtype_of(e);
        let a: Vec<f64> = A.iter().map(|&v| cast(v, e)).collect();
        let b: Vec<f64> = B[..4].iter().map(|&v| cast(v, e)).collect();
        let alpha = if e.is_float() { -0.375 } else { 3.0 };
        let (pa, pb, out) = (upload(&d, &a, e), upload(&d, &b, e), alloc(&d, 12, e));
        let bs = [0isize, 1];
        kk.add_alpha(
            &shape,
            Strided {
                ptr: pa.ptr,
                strides: &cs,
            },
            Strided {
                ptr: pb.ptr,
                strides: &bs,
            },
            Scalar::from_f64(alpha, e),
            Strided {
                ptr: out.ptr,
                strides: &cs,
            },
        )
        .unwrap();
        let (ha, hb) = (host(&a, e), host(&b, e));
        let lb = Layout::new(vec![3, 4], vec![0, 1], 0);
        let hs = if e.is_float() {
            HScalar::Float(alpha)
        } else {
            HScalar::Int(alpha as i64)
        };
        let ab = [HArg::Tensor(&ha, &l), HArg::Tensor(&hb, &lb)];
        let want = HostStorage::add_scaled(Operands::new(ab, &shape, dt), hs).unwrap();
        check(
            &format!("add_alpha {e:?}"),
            &download(&d, &out),
            &host_values(&want),
            0.0,
        );
    }
}

#[test]
fn isinf_and_isfinite() {
    let d = device();
    let kk = k(&d);
    let x = [1.0, f64::INFINITY, -f64::INFINITY, f64::NAN, -0.0, 1e300];
    for e in FLOATS {
        let a = upload(&d, &x, e);
        for test in [FloatTest::IsNan, FloatTest::IsInf, FloatTest::IsFinite] {
            let out = alloc(&d, x.len(), Elem::Bool);
            kk.float_test(
                test,
                e,
                &[x.len()],
                Strided {
                    ptr: a.ptr,
                    strides: &[1],
                },
                Strided {
                    ptr: out.ptr,
                    strides: &[1],
                },
            )
            .unwrap();
            let want: Vec<f64> = x
                .iter()
                .map(|&v| cast(v, e))
                .map(|v| {
                    f64::from(u8::from(match test {
                        FloatTest::IsNan => v.is_nan(),
                        FloatTest::IsInf => v.is_infinite(),
                        FloatTest::IsFinite => v.is_finite(),
                    }))
                })
                .collect();
            check(&format!("{test:?} {e:?}"), &download(&d, &out), &want, 0.0);
        }
    }
}

#[test]
fn var_and_std_by_welford_match_the_host() {
    let d = device();
    let kk = k(&d);
    let (outer, len, inner) = (2usize, 700usize, 3usize);
    let geom = CtReduceGeom {
        outer: 2,
        len: 700,
        inner: 3,
        s_outer: 2100,
        s_len: 3,
        s_inner: 1,
    };
    let l = Layout::contiguous(&[outer, len, inner]);
    for e in FLOATS {
        let x: Vec<f64> = (0..outer * len * inner)
            .map(|i| cast(((i * 37 + 11) % 23) as f64 * 0.37 - 3.0, e))
            .collect();
        let a = upload(&d, &x, e);
        let hx = host(&x, e);
        for (correction, std) in [(1.0, false), (1.0, true), (0.0, false), (2.5, true)] {
            let out = alloc(&d, outer * inner, e);
            kk.var(e, geom, correction, std, a.ptr, out.ptr).unwrap();
            let op = ReduceOp::Var { correction, std };
            let want = hx
                .reduce(&l, op, &[false, true, false], dtype_of(e))
                .unwrap();
            // an independent two-pass reference in f64 too
            let two_pass: Vec<f64> = (0..outer * inner)
                .map(|r| {
                    let row: Vec<f64> = (0..len)
                        .map(|j| x[(r / inner) * len * inner + j * inner + r % inner])
                        .collect();
                    let m = row.iter().sum::<f64>() / len as f64;
                    let v = row.iter().map(|v| (v - m) * (v - m)).sum::<f64>()
                        / (len as f64 - correction);
                    if std { v.sqrt() } else { v }
                })
                .collect();
            let tol = if e == Elem::F32 { 1e-5 } else { 1e-12 };
            let got = download(&d, &out);
            check(
                &format!("var {e:?} c={correction} std={std}"),
                &got,
                &host_values(&want),
                tol,
            );
            check(&format!("var {e:?} two-pass"), &got, &two_pass, tol);
        }
        // one element with correction 1: 0 / 0 = nan, as PyTorch
        let g1 = CtReduceGeom {
            outer: 1,
            len: 1,
            inner: 1,
            s_outer: 1,
            s_len: 1,
            s_inner: 1,
        };
        let out = alloc(&d, 1, e);
        kk.var(e, g1, 1.0, true, a.ptr, out.ptr).unwrap();
        assert!(download(&d, &out)[0].is_nan(), "std of one element");
    }
}

#[test]
fn cumsum_and_cumprod_on_every_dtype_match_the_host() {
    let d = device();
    let kk = k(&d);
    for (shape, dim) in [
        (vec![2usize, 5, 3], 1usize),
        (vec![7], 0),
        (vec![3, 6], 1),
        (vec![4, 2], 0),
    ] {
        let n: usize = shape.iter().product();
        let l = Layout::contiguous(&shape);
        let outer: usize = shape[..dim].iter().product();
        let inner: usize = shape[dim + 1..].iter().product();
        for e in ELEMS {
            let x: Vec<f64> = (0..n)
                .map(|i| {
                    cast(
                        ((i * 7 + 3) % 5) as f64 - 2.0 + if e.is_float() { 0.3 } else { 0.0 },
                        e,
                    )
                })
                .collect();
            let a = upload(&d, &x, e);
            let oe = if e.is_float() { e } else { Elem::I64 };
            for prod in [false, true] {
                let out = alloc(&d, n, oe);
                kk.scan(prod, e, outer, shape[dim], inner, a.ptr, out.ptr)
                    .unwrap();
                // PyTorch scans integers and bools in int64 (the input promoted first)
                let want = host(&x, oe).scan(&l, dim, prod, dtype_of(oe)).unwrap();
                // the host accumulates float32 in double (PyTorch's CPU acc_type), the
                // kernel in float (PyTorch's CUDA scan)
                let tol = if e == Elem::F32 { 1e-6 } else { 0.0 };
                check(
                    &format!(
                        "cum{} {e:?} {shape:?} dim {dim}",
                        if prod { "prod" } else { "sum" }
                    ),
                    &download(&d, &out),
                    &host_values(&want),
                    tol,
                );
            }
        }
    }
}

/// PyTorch's softmax_warp_backward in float32, written out in the test: lane sums in order,
/// the XOR butterfly, then fma(-b, sum, a).
fn softmax_backward_ref(g: &[f32], y: &[f32], outer: usize, dim: usize, log: bool) -> Vec<f32> {
    let w = dim.next_power_of_two().min(32);
    let mut out = vec![0f32; g.len()];
    for r in 0..outer {
        let row = r * dim..(r + 1) * dim;
        let (gr, yr) = (&g[row.clone()], &y[row.clone()]);
        let a: Vec<f32> = if log {
            gr.to_vec()
        } else {
            gr.iter().zip(yr).map(|(g, y)| g * y).collect()
        };
        let mut lanes = vec![0f32; w];
        for (lane, s) in lanes.iter_mut().enumerate() {
            let mut k = lane;
            while k < dim {
                *s += a[k];
                k += w;
            }
        }
        let mut off = w / 2;
        while off > 0 {
            let prev = lanes.clone();
            for (lane, s) in lanes.iter_mut().enumerate() {
                *s += prev[lane ^ off];
            }
            off /= 2;
        }
        let sum = lanes[0];
        for k in 0..dim {
            let b = if log { yr[k].exp() } else { yr[k] };
            out[r * dim + k] = (-b).mul_add(sum, a[k]);
        }
    }
    out
}

#[test]
fn softmax_backward_is_pytorchs_warp_kernel_and_close_to_the_host() {
    let d = device();
    let kk = k(&d);
    for (outer, dim, inner) in [(4usize, 5usize, 1usize), (2, 300, 1), (3, 4, 5), (2, 40, 1)] {
        let n = outer * dim * inner;
        let shape = [outer, dim, inner];
        let x32: Vec<f32> = (0..n)
            .map(|i| ((i * 29 % 17) as f32 - 8.0) * 0.37)
            .collect();
        let g32: Vec<f32> = (0..n)
            .map(|i| ((i * 11 % 13) as f32 - 6.0) * 0.11)
            .collect();
        for log in [false, true] {
            let mut y32 = vec![0f32; n];
            if log {
                cudatutor::engine::numerics::softmax::log_softmax_f32(
                    &x32, &mut y32, outer, dim, inner,
                );
            } else {
                cudatutor::engine::numerics::softmax::softmax_f32(
                    &x32, &mut y32, outer, dim, inner,
                );
            }
            let y: Vec<f64> = y32.iter().map(|&v| v as f64).collect();
            let g: Vec<f64> = g32.iter().map(|&v| v as f64).collect();
            for e in FLOATS {
                let (pg, py, out) = (upload(&d, &g, e), upload(&d, &y, e), alloc(&d, n, e));
                kk.softmax_backward(log, e, outer, dim, inner, pg.ptr, py.ptr, out.ptr)
                    .unwrap();
                let got = download(&d, &out);
                let (hg, hy) = (host(&g, e), host(&y, e));
                let grad_y = Operands::new([&hg, &hy], &shape, hg.dtype());
                let want = HostStorage::softmax_backward(grad_y, 1, log).unwrap();
                // another formula and order than the CPU's: compare to the terms' scale
                let scale = g.iter().map(|v| v.abs()).fold(0.0, f64::max);
                let tol = if e == Elem::F32 { 1e-5 } else { 1e-12 };
                for (i, (a, b)) in got.iter().zip(host_values(&want)).enumerate() {
                    assert!(
                        (a - b).abs() <= tol * scale,
                        "softmax_backward log={log} {e:?} {shape:?} [{i}]: {a} vs {b}"
                    );
                }
                if e == Elem::F32 && inner == 1 {
                    let exact = softmax_backward_ref(&g32, &y32, outer, dim, log);
                    check(
                        &format!("softmax_backward log={log} warp order {shape:?}"),
                        &got,
                        &exact.iter().map(|&v| v as f64).collect::<Vec<_>>(),
                        0.0,
                    );
                }
            }
        }
    }
}

#[test]
fn nll_loss_backward_every_variant_matches_the_host() {
    let d = device();
    let kk = k(&d);
    let (n, c) = (70usize, 5usize);
    let target: Vec<i64> = (0..n as i64)
        .map(|i| if i % 9 == 4 { -100 } else { i % c as i64 })
        .collect();
    let w: Vec<f64> = vec![1.0, 2.0, 0.5, 1.5, 0.25];
    let gnone: Vec<f64> = (0..n).map(|i| ((i * 5 % 11) as f64 - 5.0) * 0.3).collect();
    for e in FLOATS {
        for u8_target in [false, true] {
            let te = if u8_target { Elem::U8 } else { Elem::I64 };
            let ignore = if u8_target { 255 } else { -100 };
            let t: Vec<f64> = target
                .iter()
                .map(|&v| if v == -100 { ignore as f64 } else { v as f64 })
                .collect();
            let (pt, pw) = (upload(&d, &t, te), upload(&d, &w, e));
            let ht = HostStorage::I64(t.iter().map(|&v| v as i64).collect());
            for (red, hred) in [
                (NllReduction::Mean, Reduction::Mean),
                (NllReduction::Sum, Reduction::Sum),
                (NllReduction::None, Reduction::None),
            ] {
                for weighted in [false, true] {
                    let gv = if red == NllReduction::None {
                        gnone.clone()
                    } else {
                        vec![cast(0.7, e)]
                    };
                    let pg = upload(&d, &gv, e);
                    let gin = alloc(&d, n * c, e);
                    let tw = alloc(&d, 1, e);
                    let pw = weighted.then_some(pw.ptr);
                    if red == NllReduction::Mean {
                        let loss = alloc(&d, 1, e);
                        kk.nll_loss(
                            e,
                            u8_target,
                            red,
                            Some(n),
                            c,
                            gin.ptr,
                            pt.ptr,
                            pw,
                            ignore,
                            loss.ptr,
                            tw.ptr,
                        )
                        .unwrap();
                    }
                    kk.nll_loss_backward(
                        e, u8_target, red, n, c, pg.ptr, pt.ptr, pw, ignore, tw.ptr, gin.ptr,
                    )
                    .unwrap();
                    let hw = host(&w, e);
                    let loss = NllLoss {
                        n,
                        c,
                        target: &ht,
                        weight: weighted.then_some(&hw),
                        ignore_index: ignore,
                        reduction: hred,
                    };
                    let want =
                        HostStorage::nll_loss_backward(&host(&gv, e), &loss, dtype_of(e)).unwrap();
                    check(
                        &format!("nll_loss_backward {red:?} {e:?} u8={u8_target} w={weighted}"),
                        &download(&d, &gin),
                        &host_values(&want),
                        0.0,
                    );
                }
            }
        }
    }
}

#[test]
fn index_add_matches_the_host() {
    let d = device();
    let kk = k(&d);
    let (outer, size, inner) = (2usize, 6usize, 3usize);
    let idx = [4.0, 0.0, 4.0, 5.0, 1.0, 4.0];
    let n_idx = idx.len();
    let src: Vec<f64> = (0..outer * n_idx * inner)
        .map(|i| ((i * 13 % 7) as f64 - 3.0) * 0.1)
        .collect();
    for e in FLOATS {
        for ie in [Elem::I64, Elem::I32] {
            let (ps, pi, out) = (
                upload(&d, &src, e),
                upload(&d, &idx, ie),
                alloc(&d, outer * size * inner, e),
            );
            kk.index_add(
                e,
                ie == Elem::I32,
                outer,
                size,
                inner,
                n_idx,
                ps.ptr,
                pi.ptr,
                out.ptr,
            )
            .unwrap();
            let want =
                HostStorage::index_add(&host(&src, e), &[outer, size, inner], 1, &host(&idx, ie))
                    .unwrap();
            // the emulated device runs the atomics in position order, the host's order
            check(
                &format!("index_add {e:?} {ie:?}"),
                &download(&d, &out),
                &host_values(&want),
                0.0,
            );
        }
    }
}

/// The draws that replaced the host's mirror (bernoulli_(p) on every dtype, exponential_,
/// F.dropout's noise at each vector width, float16 randn) give the mirror's numbers exactly
/// (src/engine/random/cuda/kernels.rs, which the sim draws with), from the same (seed,
/// offset) and the same launch policy, for sizes of one partial block, several blocks and a
/// grid-stride loop; the 16-bit fill stores the bits it is given; the norms give the exact
/// values of inputs whose norms are exact (and propagate NaN).
#[test]
fn draws_norms_and_half_fills_match_the_hosts_mirror() {
    use cudatutor::engine::cuda::ops::random_policy;
    use cudatutor::engine::random::cuda::{self as rc, DeviceShape};
    use cudatutor::engine::random::{CudaGenerator, ElementsMut};
    let d = device();
    let kk = k(&d);
    let dev = DeviceShape::H200;
    // the kernel's (seed, offset): a fresh generator advanced by the launch's increment, as
    // GpuStorage does; the mirror draws from another fresh generator of the same seed
    let state = |seed: u64, n: usize, unroll: u64| {
        let mut g = CudaGenerator::new(seed);
        let (_, inc) = random_policy(n as u64, unroll, kk.sm_count);
        g.philox_state(inc)
    };
    let bits16 = |b: &Buf, n: usize| {
        let mut raw = vec![0u8; n * 2];
        d.copy_d2h(&mut raw, b.ptr).unwrap();
        raw.chunks(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect::<Vec<u16>>()
    };
    for n in [7usize, 300, 1_100_003] {
        for e in ELEMS {
            let unroll = if e == Elem::F64 { 2 } else { 4 };
            let (seed, offset) = state(11, n, unroll);
            let out = alloc(&d, n, e);
            kk.bernoulli_scalar(e, n, seed, offset, 0.4, out.ptr)
                .unwrap();
            let mut g = CudaGenerator::new(11);
            let want: Vec<f64> = if e == Elem::F64 {
                let mut v = vec![0f64; n];
                rc::bernoulli_scalar_(&mut g, ElementsMut::F64(&mut v), 0.4, dev).unwrap();
                v
            } else {
                let mut v = vec![0f32; n];
                rc::bernoulli_scalar_(&mut g, ElementsMut::F32(&mut v), 0.4, dev).unwrap();
                v.into_iter().map(f64::from).collect()
            };
            check(
                &format!("bernoulli_scalar {e:?} n={n}"),
                &download(&d, &out),
                &want,
                0.0,
            );
        }
        // torch.bernoulli(p) with a tensor of probabilities (0 and 1 among them, exact)
        for e in FLOATS {
            let probs: Vec<f64> = (0..n).map(|i| ((i * 37) % 101) as f64 / 100.0).collect();
            let probs: Vec<f64> = probs.into_iter().map(|p| p.min(1.0)).collect();
            let p = upload(&d, &probs, e);
            let mut g = CudaGenerator::new(13);
            let (seed, offset) = g.philox_state(10);
            let out = alloc(&d, n, e);
            kk.bernoulli_tensor(e, n, seed, offset, p.ptr, out.ptr)
                .unwrap();
            let mut g = CudaGenerator::new(13);
            let want: Vec<f64> = if e == Elem::F64 {
                let mut v = vec![0f64; n];
                let pr = cudatutor::engine::random::Probabilities::F64(&probs);
                rc::bernoulli_tensor_(&mut g, ElementsMut::F64(&mut v), pr).unwrap();
                v
            } else {
                let p32: Vec<f32> = probs.iter().map(|&x| x as f32).collect();
                let mut v = vec![0f32; n];
                let pr = cudatutor::engine::random::Probabilities::F32(&p32);
                rc::bernoulli_tensor_(&mut g, ElementsMut::F32(&mut v), pr).unwrap();
                v.into_iter().map(f64::from).collect()
            };
            check(
                &format!("bernoulli_tensor {e:?} n={n}"),
                &download(&d, &out),
                &want,
                0.0,
            );
        }
        for e in FLOATS {
            let unroll = if e == Elem::F64 { 2 } else { 4 };
            let (seed, offset) = state(5, n, unroll);
            let out = alloc(&d, n, e);
            kk.exponential(e, n, seed, offset, 1.5, out.ptr).unwrap();
            let mut g = CudaGenerator::new(5);
            let want: Vec<f64> = if e == Elem::F64 {
                let mut v = vec![0f64; n];
                rc::exponential_(&mut g, ElementsMut::F64(&mut v), 1.5, dev).unwrap();
                v
            } else {
                let mut v = vec![0f32; n];
                rc::exponential_(&mut g, ElementsMut::F32(&mut v), 1.5, dev).unwrap();
                v.into_iter().map(f64::from).collect()
            };
            check(
                &format!("exponential {e:?} n={n}"),
                &download(&d, &out),
                &want,
                0.0,
            );
        }
        // dropout's noise: sizes divisible by 4, by 2 only, and by neither
        for m in [n + 1, n + 3, n] {
            let p = 0.3;
            let keep = (1.0 - p) as f32;
            let scale = (1.0 / keep as f64) as f32;
            let mut vec = 4usize;
            while vec > 1 && !m.is_multiple_of(vec) {
                vec /= 2;
            }
            let (seed, offset) = state(9, m, 4);
            let out = alloc(&d, m, Elem::F32);
            kk.dropout_noise(m, seed, offset, keep, scale, vec as i32, out.ptr)
                .unwrap();
            let mut g = CudaGenerator::new(9);
            let want = rc::dropout_(&mut g, &vec![1f32; m], p, true, dev).unwrap();
            let want: Vec<f64> = want.output.into_iter().map(f64::from).collect();
            check(
                &format!("dropout_noise m={m} vec={vec}"),
                &download(&d, &out),
                &want,
                0.0,
            );
        }
        let (seed, offset) = state(3, n, 4);
        let out = alloc(&d, n.div_ceil(2), Elem::F32);
        kk.normal_f16(n, seed, offset, 0.5, 2.0, out.ptr).unwrap();
        let mut g = CudaGenerator::new(3);
        let mut want = vec![0u16; n];
        rc::normal_(&mut g, ElementsMut::F16(&mut want), 0.5, 2.0, dev).unwrap();
        assert_eq!(bits16(&out, n), want, "normal_f16 n={n}");
    }
    let out = alloc(&d, 5, Elem::F32);
    kk.fill_bits16(9, 0x3c00, out.ptr).unwrap();
    assert_eq!(bits16(&out, 10), [vec![0x3c00u16; 9], vec![0]].concat());
    for e in FLOATS {
        // rows [3, -4, 0, 12] and [1, nan, 2, 2]
        let x = upload(&d, &[3.0, -4.0, 0.0, 12.0, 1.0, f64::NAN, 2.0, 2.0], e);
        let geom = CtReduceGeom {
            outer: 2,
            len: 4,
            inner: 1,
            s_outer: 4,
            s_len: 1,
            s_inner: 1,
        };
        let inf = f64::INFINITY;
        let cube_root_1819 = if e == Elem::F32 {
            (1819f32).powf(1.0 / 3.0) as f64
        } else {
            1819f64.powf(1.0 / 3.0)
        };
        for (p, want) in [
            (2.0, [13.0, f64::NAN]),
            (1.0, [19.0, f64::NAN]),
            (inf, [12.0, f64::NAN]),
            (-inf, [0.0, f64::NAN]),
            (0.0, [3.0, 4.0]),
            (3.0, [cube_root_1819, f64::NAN]),
        ] {
            let out = alloc(&d, 2, e);
            kk.norm(e, geom, p, x.ptr, out.ptr).unwrap();
            let got = download(&d, &out);
            assert_eq!(got[0], want[0], "norm {e:?} p={p}");
            assert_eq!(
                got[1].is_nan(),
                want[1].is_nan(),
                "norm {e:?} p={p}: {got:?}"
            );
            if !want[1].is_nan() {
                assert_eq!(got[1], want[1], "norm {e:?} p={p}");
            }
        }
    }
}
