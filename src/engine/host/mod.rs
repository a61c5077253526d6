//! The host implementation of the device interface: typed buffers (one Rust element type
//! per dtype, so a float32 element costs 4 bytes and float32 math is float32 math) and the
//! kernels that compute on them. It serves CPU tensors and is the value path of the
//! simulated GPU.

pub(crate) mod arith;
pub(crate) mod conv;
pub(crate) mod conv_f32;
pub(crate) mod dot;
pub(crate) mod elementwise;
pub(crate) mod extreme;
pub(crate) mod math;
pub(crate) mod matmul;
pub(crate) mod nn;
mod pack_scratch;
pub(crate) mod pair_dot;
mod pool2x2;
pub(crate) mod reduce;
pub(crate) mod sgemm;
mod sgemm_avx512;
pub(crate) mod stl_select;
mod transpose4;

pub use crate::engine::element::{Element, Num, convert};

use super::dtype::{DType, Scalar};
use super::error::{EngineError, Result};
use super::hostbuf;
use super::hostmem;
use super::layout::Layout;
use half::{bf16, f16};

/// A typed host buffer: the values of one storage.
#[derive(Debug, Clone, PartialEq)]
pub enum HostStorage {
    Bool(Vec<bool>),
    U8(Vec<u8>),
    I8(Vec<i8>),
    I16(Vec<i16>),
    I32(Vec<i32>),
    I64(Vec<i64>),
    F16(Vec<f16>),
    BF16(Vec<bf16>),
    F32(Vec<f32>),
    F64(Vec<f64>),
}

/// `match` over every variant of a [`HostStorage`], binding the vector as `$v` (its element
/// type differs per arm, so `$body` is usually a call of a generic function).
#[macro_export]
macro_rules! host_dispatch {
    ($s:expr, $v:ident => $body:expr) => {
        match $s {
            $crate::engine::host::HostStorage::Bool($v) => $body,
            $crate::engine::host::HostStorage::U8($v) => $body,
            $crate::engine::host::HostStorage::I8($v) => $body,
            $crate::engine::host::HostStorage::I16($v) => $body,
            $crate::engine::host::HostStorage::I32($v) => $body,
            $crate::engine::host::HostStorage::I64($v) => $body,
            $crate::engine::host::HostStorage::F16($v) => $body,
            $crate::engine::host::HostStorage::BF16($v) => $body,
            $crate::engine::host::HostStorage::F32($v) => $body,
            $crate::engine::host::HostStorage::F64($v) => $body,
        }
    };
}
pub use host_dispatch;

/// Calls `$f::<T>($args)` with `T` the element type of `$dtype`.
#[macro_export]
macro_rules! dtype_dispatch {
    ($dtype:expr, $f:ident ( $($args:expr),* )) => {
        match $dtype {
            $crate::engine::dtype::DType::Bool => $f::<bool>($($args),*),
            $crate::engine::dtype::DType::UInt8 => $f::<u8>($($args),*),
            $crate::engine::dtype::DType::Int8 => $f::<i8>($($args),*),
            $crate::engine::dtype::DType::Int16 => $f::<i16>($($args),*),
            $crate::engine::dtype::DType::Int32 => $f::<i32>($($args),*),
            $crate::engine::dtype::DType::Int64 => $f::<i64>($($args),*),
            $crate::engine::dtype::DType::Float16 => $f::<half::f16>($($args),*),
            $crate::engine::dtype::DType::BFloat16 => $f::<half::bf16>($($args),*),
            $crate::engine::dtype::DType::Float32 => $f::<f32>($($args),*),
            $crate::engine::dtype::DType::Float64 => $f::<f64>($($args),*),
        }
    };
}
pub use dtype_dispatch;

/// Element types that know their own variant of [`HostStorage`].
pub(crate) trait Stored: Element {
    fn wrap(v: Vec<Self>) -> HostStorage;
    fn slice(h: &HostStorage) -> Option<&[Self]>;
}

macro_rules! stored {
    ($t:ty, $var:ident) => {
        impl Stored for $t {
            #[inline]
            fn wrap(v: Vec<Self>) -> HostStorage {
                HostStorage::$var(v)
            }
            #[inline]
            fn slice(h: &HostStorage) -> Option<&[Self]> {
                match h {
                    HostStorage::$var(v) => Some(v),
                    _ => None,
                }
            }
        }
    };
}
stored!(bool, Bool);
stored!(u8, U8);
stored!(i8, I8);
stored!(i16, I16);
stored!(i32, I32);
stored!(i64, I64);
stored!(f16, F16);
stored!(bf16, BF16);
stored!(f32, F32);
stored!(f64, F64);

/// PyTorch's CPU allocation failure for a buffer of `n` elements of `dtype`.
pub(crate) fn alloc_error(dtype: DType, n: usize) -> EngineError {
    EngineError::runtime(hostmem::cpu_alloc_error(
        (n as u64).saturating_mul(dtype.element_size() as u64),
    ))
}

/// Ok when the run has room for `work` bytes of working memory ([`hostmem::room_for`]); else
/// PyTorch's allocation failure naming `pytorch_bytes`, the buffer PyTorch itself asks for
/// first at that point (usually the output: `numel × element_size`).
pub(crate) fn ensure_room(work: u64, pytorch_bytes: u64) -> Result<()> {
    if hostmem::room_for(work) {
        Ok(())
    } else {
        Err(EngineError::runtime(hostmem::cpu_alloc_error(
            pytorch_bytes,
        )))
    }
}

/// [`ensure_room`] for `n` elements needing `per_element` bytes of working memory each,
/// reported as PyTorch's buffer of `n` elements of `dtype`.
pub(crate) fn ensure_room_for_elements(n: usize, per_element: u64, dtype: DType) -> Result<()> {
    let n = n as u64;
    ensure_room(
        n.saturating_mul(per_element),
        n.saturating_mul(dtype.element_size() as u64),
    )
}

/// `Some(v)` or PyTorch's allocation failure.
pub fn got<T: Element>(v: Option<Vec<T>>, n: usize) -> Result<Vec<T>> {
    v.ok_or_else(|| alloc_error(T::DTYPE, n))
}

impl HostStorage {
    pub fn dtype(&self) -> DType {
        match self {
            HostStorage::Bool(_) => DType::Bool,
            HostStorage::U8(_) => DType::UInt8,
            HostStorage::I8(_) => DType::Int8,
            HostStorage::I16(_) => DType::Int16,
            HostStorage::I32(_) => DType::Int32,
            HostStorage::I64(_) => DType::Int64,
            HostStorage::F16(_) => DType::Float16,
            HostStorage::BF16(_) => DType::BFloat16,
            HostStorage::F32(_) => DType::Float32,
            HostStorage::F64(_) => DType::Float64,
        }
    }

    pub fn len(&self) -> usize {
        host_dispatch!(self, v => v.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// `n` zeros of `dtype`.
    pub fn zeros(dtype: DType, n: usize) -> Result<HostStorage> {
        fn z<T: Stored>(n: usize) -> Result<HostStorage> {
            Ok(T::wrap(got(hostbuf::try_zeroed::<T>(n), n)?))
        }
        dtype_dispatch!(dtype, z(n))
    }

    /// `n` copies of `value` converted to `dtype`.
    pub fn full(dtype: DType, n: usize, value: Scalar) -> Result<HostStorage> {
        fn f<T: Stored>(n: usize, value: Scalar) -> Result<HostStorage> {
            Ok(T::wrap(got(
                hostbuf::try_filled(n, T::from_scalar(value)),
                n,
            )?))
        }
        dtype_dispatch!(dtype, f(n, value))
    }

    /// Values given as f64 (each already an exact value of `dtype`).
    pub(crate) fn from_f64s(dtype: DType, vals: &[f64]) -> Result<HostStorage> {
        fn f<T: Stored>(vals: &[f64]) -> Result<HostStorage> {
            let mut v = got(hostbuf::try_with_capacity(vals.len()), vals.len())?;
            // polled: a convolution converts hundreds of MB of columns this way
            for chunk in vals.chunks(super::interrupt::CHUNK) {
                super::interrupt::poll()?;
                v.extend(chunk.iter().map(|&x| T::from_f64(x)));
            }
            Ok(T::wrap(v))
        }
        dtype_dispatch!(dtype, f(vals))
    }

    /// Python numbers converted to `dtype`.
    pub(crate) fn from_scalars(dtype: DType, vals: &[Scalar]) -> Result<HostStorage> {
        fn f<T: Stored>(vals: &[Scalar]) -> Result<HostStorage> {
            let v = hostbuf::try_collect(vals.iter().map(|&x| T::from_scalar(x)));
            Ok(T::wrap(got(v, vals.len())?))
        }
        dtype_dispatch!(dtype, f(vals))
    }

    /// The elements of `layout` in logical order, widened to f64. Polled: once a stop is due
    /// the rest is zeros, never seen, since the op ends with the stop
    /// ([`super::interrupt::should_stop`]).
    pub fn gather_f64(&self, layout: &Layout) -> Vec<f64> {
        fn g<T: Element>(v: &[T], layout: &Layout) -> Vec<f64> {
            use super::interrupt::{CHUNK, should_stop};
            let numel = layout.numel();
            let mut out = Vec::with_capacity(numel);
            if let Some(r) = layout.contiguous_range() {
                for chunk in v[r].chunks(CHUNK) {
                    if should_stop() {
                        break;
                    }
                    out.extend(chunk.iter().map(|x| x.to_f64()));
                }
                out.resize(numel, 0.0);
            } else {
                let mut stopped = false;
                layout.for_each_offset(|o| {
                    if out.len() % CHUNK == 0 && !stopped {
                        stopped = should_stop();
                    }
                    out.push(if stopped { 0.0 } else { v[o].to_f64() });
                });
            }
            out
        }
        host_dispatch!(self, v => g(v, layout))
    }

    /// The elements at the storage offsets `offsets`, in that order, as a new buffer of this
    /// dtype (exact for every dtype; an offset past the end reads as zero).
    pub(crate) fn take_at(&self, offsets: &[usize]) -> Result<HostStorage> {
        fn t<T: Stored>(v: &[T], offsets: &[usize]) -> Result<HostStorage> {
            let out = hostbuf::try_collect(
                offsets
                    .iter()
                    .map(|&o| v.get(o).copied().unwrap_or(T::ZERO)),
            );
            Ok(T::wrap(got(out, offsets.len())?))
        }
        host_dispatch!(self, v => t(v, offsets))
    }

    /// The elements of `layout` in logical order as Python numbers (int64 exact).
    pub(crate) fn gather_scalars(&self, layout: &Layout) -> Vec<Scalar> {
        fn g<T: Element>(v: &[T], layout: &Layout) -> Vec<Scalar> {
            let mut out = Vec::with_capacity(layout.numel());
            layout.for_each_offset(|o| out.push(v[o].to_scalar()));
            out
        }
        host_dispatch!(self, v => g(v, layout))
    }

    /// Write `vals` (f64, converted to this buffer's type) at the storage offsets `offsets`.
    pub(crate) fn write_f64_at(&mut self, offsets: &[usize], vals: &[f64]) {
        fn w<T: Element>(v: &mut [T], offsets: &[usize], vals: &[f64]) {
            for (&o, &x) in offsets.iter().zip(vals) {
                if let Some(slot) = v.get_mut(o) {
                    *slot = T::from_f64(x);
                }
            }
        }
        host_dispatch!(self, v => w(v, offsets, vals))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn storage_is_typed_and_sized_per_dtype() {
        for dt in DType::ALL {
            let z = HostStorage::zeros(dt, 5).unwrap();
            assert_eq!((z.dtype(), z.len()), (dt, 5));
            let f = HostStorage::full(dt, 3, Scalar::Int(7)).unwrap();
            assert_eq!(f.dtype(), dt);
        }
        let x = HostStorage::from_scalars(DType::Int64, &[Scalar::Int(i64::MIN + 1)]).unwrap();
        assert_eq!(
            x.gather_scalars(&Layout::contiguous(&[1])),
            vec![Scalar::Int(i64::MIN + 1)]
        );
        let f = HostStorage::from_f64s(DType::Float32, &[1.0, 2.0, 3.0, 4.0]).unwrap();
        assert!(matches!(f, HostStorage::F32(_)));
        let t = Layout::new(vec![2, 2], vec![1, 2], 0);
        assert_eq!(f.gather_f64(&t), vec![1.0, 3.0, 2.0, 4.0]);
        assert!(HostStorage::zeros(DType::Float64, usize::MAX / 16).is_err());
    }
}

/// The host as a device (CPU tensors and the simulated GPU's values).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct HostDevice;
