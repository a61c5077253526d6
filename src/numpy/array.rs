//! `numpy.ndarray` and numpy's scalar types as script values.
//!
//! An array is a strided view (numpy's signed strides, in elements) of an engine
//! [`Storage`]: the same storage a CPU tensor holds, so `torch.from_numpy(a)` and `t.numpy()`
//! share memory as in PyTorch (a write through one is seen by the other). Values are read and
//! written through the storage's typed host buffer; arithmetic is done in f64 and rounded to
//! the result dtype per element (exact for + - * / and sqrt of float32, as f64 holds every
//! float32 product and quotient before the one rounding).

use crate::engine::device::Device;
use crate::engine::dtype::{Category, DType, Scalar};
use crate::engine::host::HostStorage;
use crate::engine::layout::Layout;
use crate::engine::runtime::Runtime;
use crate::engine::storage::DeviceStorage;
use crate::engine::tensor::{Storage, Tensor};
use crate::script::ExcType;
use crate::script::{PyException, PyResult, Value};
use std::rc::Rc;

pub(crate) struct NdArray {
    pub(crate) rt: Rc<Runtime>,
    pub(crate) storage: Rc<Storage>,
    pub(crate) shape: Vec<usize>,
    /// In elements; negative for reversed views (`a[::-1]`).
    pub(crate) strides: Vec<isize>,
    pub(crate) offset: usize,
}

/// A numpy scalar (`np.float64(0.1)`, what `a.sum()` and `a[0, 1]` return).
#[derive(Clone, Copy)]
pub(crate) struct NpScalar {
    pub dtype: DType,
    pub v: f64,
}

pub(crate) fn err(kind: ExcType, msg: impl Into<String>) -> PyException {
    PyException::new(kind, msg.into())
}

pub(crate) fn contiguous_strides(shape: &[usize]) -> Vec<isize> {
    crate::engine::layout::contiguous_strides(shape)
        .into_iter()
        .map(|s| s as isize)
        .collect()
}

pub(crate) fn numel(shape: &[usize]) -> usize {
    shape.iter().product()
}

/// numpy's size in its MemoryError (`_ArrayMemoryError._size_to_string`): binary units,
/// three significant figures (`745. GiB`, `7.45 GiB`), whole bytes below 1 KiB.
pub(crate) fn numpy_size_string(bytes: u128) -> String {
    const UNITS: [&str; 7] = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let bits = 128 - bytes.leading_zeros() as usize;
    let mut unit = bits.saturating_sub(1).max(1) / 10;
    let mut n = bytes as f64 / (1u128 << (unit * 10)) as f64;
    if n.round() == 1024.0 {
        unit += 1;
        n /= 1024.0;
    }
    if unit >= UNITS.len() {
        n *= (1u128 << ((unit - (UNITS.len() - 1)) * 10)) as f64;
        unit = UNITS.len() - 1;
    }
    if unit == 0 {
        return format!("{n:.0} {}", UNITS[0]);
    }
    if n.round() < 1000.0 {
        // Python's '{:#.3g}': three significant figures, the point always kept
        let digits = if n >= 100.0 {
            0
        } else if n >= 10.0 {
            1
        } else {
            2
        };
        let text = format!("{n:.digits$}");
        // rounding may carry into a new digit (99.95 -> 100.0): keep three figures
        let int_digits = text.split('.').next().map_or(0, str::len);
        let text = if int_digits + digits > 3 {
            format!("{n:.prec$}", prec = digits.saturating_sub(1))
        } else {
            text
        };
        let text = if text.contains('.') { text } else { text + "." };
        return format!("{text} {}", UNITS[unit]);
    }
    format!("{n:.0}. {}", UNITS[unit])
}

/// numpy's MemoryError for an array of `shape` and `dtype` when the run has no room for it
/// (`per_element` bytes of working memory each): asked before an array is built, so a size
/// the script decides is an exception, never an aborting allocation.
pub(crate) fn ensure_room(shape: &[usize], dtype: DType, per_element: u64) -> PyResult<()> {
    let n = shape
        .iter()
        .try_fold(1u128, |a, &d| a.checked_mul(d as u128))
        .unwrap_or(u128::MAX);
    let work = n.saturating_mul(per_element as u128);
    if work <= u64::MAX as u128 && crate::budget::room_for(work as u64) {
        return Ok(());
    }
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    let tuple = if dims.len() == 1 {
        format!("({},)", dims[0])
    } else {
        format!("({})", dims.join(", "))
    };
    let bytes = n.saturating_mul(dtype.element_size() as u128);
    Err(err(
        ExcType::MemoryError,
        format!(
            "Unable to allocate {} for an array with shape {tuple} and data type {}",
            numpy_size_string(bytes),
            np_name(dtype)
        ),
    ))
}

/// numpy's name of a dtype (`float64`, `int64`, `bool`): the same word as torch's.
pub(crate) fn np_name(dt: DType) -> &'static str {
    dt.name()
}

/// Offsets (relative, in elements) of every element of a (shape, strides) walk, row-major.
pub(crate) fn walk(shape: &[usize], strides: &[isize]) -> Vec<isize> {
    let mut out = vec![0isize];
    for (&n, &s) in shape.iter().zip(strides) {
        let mut next = Vec::with_capacity(out.len() * n);
        for &o in &out {
            for i in 0..n {
                next.push(o + i as isize * s);
            }
        }
        out = next;
    }
    out
}

impl NdArray {
    /// A fresh contiguous array holding `h` (its share of the run's host-memory budget).
    pub(crate) fn from_host(
        rt: &Rc<Runtime>,
        h: HostStorage,
        shape: Vec<usize>,
    ) -> PyResult<NdArray> {
        let n = numel(&shape);
        if h.len() != n {
            return Err(err(
                ExcType::ValueError,
                "internal: value count does not match the shape",
            ));
        }
        let t = rt
            .alloc_out(shape.clone(), h.dtype(), Device::Cpu, true, false)
            .map_err(crate::binding::py_err)?;
        if t.wants_values() {
            t.set_values(DeviceStorage::Host(h))
                .map_err(crate::binding::py_err)?;
        }
        Ok(NdArray {
            rt: rt.clone(),
            storage: t.storage.clone(),
            strides: contiguous_strides(&shape),
            shape,
            offset: 0,
        })
    }

    /// A fresh array of f64 values (each converted to `dtype` as numpy casts).
    pub(crate) fn from_f64(
        rt: &Rc<Runtime>,
        vals: &[f64],
        shape: Vec<usize>,
        dtype: DType,
    ) -> PyResult<NdArray> {
        let cast: Vec<f64> = vals.iter().map(|&v| np_cast(dtype, v)).collect();
        let h = HostStorage::from_f64s(dtype, &cast).map_err(crate::binding::py_err)?;
        NdArray::from_host(rt, h, shape)
    }

    /// `t.numpy()`: the tensor's own storage and layout.
    pub(crate) fn from_tensor(rt: &Rc<Runtime>, t: &Tensor) -> NdArray {
        NdArray {
            rt: rt.clone(),
            storage: t.storage.clone(),
            shape: t.layout.shape.clone(),
            strides: t.layout.strides.iter().map(|&s| s as isize).collect(),
            offset: t.layout.offset,
        }
    }

    /// `torch.from_numpy(a)`: a CPU tensor over the same memory.
    pub(crate) fn to_tensor(&self) -> PyResult<Tensor> {
        if self.strides.iter().any(|&s| s < 0) {
            return Err(err(
                ExcType::ValueError,
                "At least one stride in the given numpy array is negative, and tensors with negative strides are not currently supported. (You can probably work around this by making a copy of your array  with array.copy().)",
            ));
        }
        Ok(Tensor {
            storage: self.storage.clone(),
            layout: Layout::new(
                self.shape.clone(),
                self.strides.iter().map(|&s| s as usize).collect(),
                self.offset,
            ),
            requires_grad: false,
            grad_fn: None,
            node: None,
            leaf: None,
        })
    }

    pub(crate) fn dtype(&self) -> DType {
        self.storage.dtype
    }
    pub(crate) fn ndim(&self) -> usize {
        self.shape.len()
    }
    pub(crate) fn size(&self) -> usize {
        numel(&self.shape)
    }
    pub(crate) fn view(&self, shape: Vec<usize>, strides: Vec<isize>, offset: usize) -> NdArray {
        NdArray {
            rt: self.rt.clone(),
            storage: self.storage.clone(),
            shape,
            strides,
            offset,
        }
    }
    pub(crate) fn is_c_contiguous(&self) -> bool {
        let c = contiguous_strides(&self.shape);
        self.shape
            .iter()
            .zip(self.strides.iter().zip(&c))
            .all(|(&n, (&s, &e))| n <= 1 || s == e)
    }

    /// Storage offsets of the elements in row-major order.
    pub(crate) fn offsets(&self) -> Vec<usize> {
        walk(&self.shape, &self.strides)
            .into_iter()
            .map(|o| (self.offset as isize + o) as usize)
            .collect()
    }

    fn with_host<R>(&self, f: impl FnOnce(&HostStorage) -> R) -> PyResult<R> {
        let d = self.storage.data.borrow();
        match &*d {
            Some(DeviceStorage::Host(h)) => Ok(f(h)),
            _ => Err(err(
                ExcType::NotImplementedError,
                "cudatutor: this array's values are not kept (a phantom tensor's memory)",
            )),
        }
    }

    /// The elements in row-major order, widened to f64.
    pub(crate) fn values(&self) -> PyResult<Vec<f64>> {
        // the offsets, the storage widened and the values (a broadcast view is its full size)
        ensure_room(&self.shape, self.dtype(), 24)?;
        let offs = self.offsets();
        self.with_host(|h| {
            let all = h.gather_f64(&Layout::contiguous(&[h.len()]));
            offs.iter()
                .map(|&o| all.get(o).copied().unwrap_or(0.0))
                .collect()
        })
    }

    /// The elements as Python numbers (int64 exact).
    pub(crate) fn scalars(&self) -> PyResult<Vec<Scalar>> {
        ensure_room(
            &self.shape,
            self.dtype(),
            8 + 2 * std::mem::size_of::<Scalar>() as u64,
        )?;
        let offs = self.offsets();
        self.with_host(|h| {
            let all = h.gather_scalars(&Layout::contiguous(&[h.len()]));
            offs.iter()
                .map(|&o| all.get(o).copied().unwrap_or(Scalar::Int(0)))
                .collect()
        })
    }

    /// Write f64 values (cast to this array's dtype) at storage offsets.
    pub(crate) fn write(&self, offsets: &[usize], vals: &[f64]) -> PyResult<()> {
        let dt = self.dtype();
        let vals: Vec<f64> = vals.iter().map(|&v| np_cast(dt, v)).collect();
        let mut d = self.storage.data.borrow_mut();
        match &mut *d {
            Some(DeviceStorage::Host(h)) => {
                h.write_f64_at(offsets, &vals);
                Ok(())
            }
            _ => Err(err(
                ExcType::NotImplementedError,
                "cudatutor: this array's values are not kept",
            )),
        }
    }

    /// A contiguous copy (optionally in another dtype).
    pub(crate) fn copy_as(&self, dtype: DType) -> PyResult<NdArray> {
        let v = self.values()?;
        NdArray::from_f64(&self.rt, &v, self.shape.clone(), dtype)
    }

    /// This array read as `shape` under broadcasting.
    pub(crate) fn broadcast_to(&self, shape: &[usize]) -> PyResult<NdArray> {
        let n = shape.len();
        let k = self.ndim();
        if k > n {
            return Err(broadcast_error(&self.shape, shape));
        }
        let mut strides = vec![0isize; n];
        for i in 0..n {
            if i + k >= n {
                let j = i + k - n;
                if self.shape[j] == shape[i] {
                    strides[i] = self.strides[j];
                } else if self.shape[j] == 1 {
                    strides[i] = 0;
                } else {
                    return Err(broadcast_error(&self.shape, shape));
                }
            }
        }
        Ok(self.view(shape.to_vec(), strides, self.offset))
    }

    /// `a.reshape(shape)`: a view when the layout allows it (contiguous), else a copy.
    pub(crate) fn reshape(&self, dims: &[i64]) -> PyResult<NdArray> {
        let n = self.size();
        let neg: Vec<usize> = (0..dims.len()).filter(|&i| dims[i] < 0).collect();
        if neg.len() > 1 {
            return Err(err(
                ExcType::ValueError,
                "can only specify one unknown dimension",
            ));
        }
        let known: usize = dims
            .iter()
            .filter(|&&d| d >= 0)
            .map(|&d| d as usize)
            .product();
        let mut shape: Vec<usize> = dims.iter().map(|&d| d.max(0) as usize).collect();
        if let Some(&i) = neg.first() {
            if known == 0 || !n.is_multiple_of(known) {
                return Err(reshape_error(n, dims));
            }
            shape[i] = n / known;
        }
        if numel(&shape) != n {
            return Err(reshape_error(n, dims));
        }
        if self.is_c_contiguous() {
            Ok(self.view(shape.clone(), contiguous_strides(&shape), self.offset))
        } else {
            let c = self.copy_as(self.dtype())?;
            Ok(c.view(shape.clone(), contiguous_strides(&shape), 0))
        }
    }

    pub(crate) fn transpose(&self, perm: Option<&[usize]>) -> NdArray {
        let perm: Vec<usize> = match perm {
            Some(p) => p.to_vec(),
            None => (0..self.ndim()).rev().collect(),
        };
        self.view(
            perm.iter().map(|&d| self.shape[d]).collect(),
            perm.iter().map(|&d| self.strides[d]).collect(),
            self.offset,
        )
    }
}

fn reshape_error(n: usize, dims: &[i64]) -> PyException {
    let d: Vec<String> = dims.iter().map(|d| d.to_string()).collect();
    let s = if d.len() == 1 {
        format!("({},)", d[0])
    } else {
        format!("({})", d.join(", "))
    };
    err(
        ExcType::ValueError,
        format!("cannot reshape array of size {n} into shape {s}"),
    )
}

pub(crate) fn shape_str(shape: &[usize]) -> String {
    let d: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    if d.len() == 1 {
        format!("({},)", d[0])
    } else {
        format!("({})", d.join(","))
    }
}

fn broadcast_error(a: &[usize], b: &[usize]) -> PyException {
    err(
        ExcType::ValueError,
        format!(
            "operands could not be broadcast together with shapes {} {} ",
            shape_str(a),
            shape_str(b)
        ),
    )
}

/// numpy's broadcast of two shapes (its message names both whole shapes, not the clash).
pub(crate) fn broadcast_shapes(a: &[usize], b: &[usize]) -> PyResult<Vec<usize>> {
    crate::engine::tensor::broadcast_or_clash(a, b).map_err(|_| broadcast_error(a, b))
}

/// A value converted to `dtype` as numpy's casts do (floats to ints truncate).
pub(crate) fn np_cast(dtype: DType, v: f64) -> f64 {
    match dtype.category() {
        Category::Integral if v.is_finite() => {
            let t = v.trunc();
            match dtype {
                DType::Int64 => t as i64 as f64,
                DType::Int32 => t as i64 as i32 as f64,
                DType::Int16 => t as i64 as i16 as f64,
                DType::Int8 => t as i64 as i8 as f64,
                DType::UInt8 => t as i64 as u8 as f64,
                _ => t,
            }
        }
        _ => dtype.cast(v),
    }
}

impl NpScalar {
    pub(crate) fn new(dtype: DType, v: f64) -> NpScalar {
        NpScalar {
            dtype,
            v: np_cast(dtype, v),
        }
    }
    pub(crate) fn to_scalar(self) -> Scalar {
        Scalar::from_element(self.dtype, self.v)
    }
}

/// The Python value an element reads back as through `.item()` / `.tolist()`.
pub(crate) fn py_value(dtype: DType, v: f64) -> Value {
    crate::binding::scalar_value(Scalar::from_element(dtype, v))
}

/// The numpy scalar an element reads back as (`a[0]`, `a.sum()`).
pub(crate) fn np_value(dtype: DType, v: f64) -> Value {
    Value::native(NpScalar::new(dtype, v))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_numpy_writes_them() {
        assert_eq!(numpy_size_string(800_000_000_000), "745. GiB");
        assert_eq!(numpy_size_string(8_000_000_000), "7.45 GiB");
        assert_eq!(numpy_size_string(80_000_000_000), "74.5 GiB");
        assert_eq!(numpy_size_string(512), "512 bytes");
        assert_eq!(numpy_size_string(8 << 60), "8.00 EiB");
        assert_eq!(numpy_size_string(1u128 << 70), "1024. EiB");
    }
}
