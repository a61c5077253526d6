//! The typed buffers the random kernels write into, and the small conversions between
//! dtypes that PyTorch's kernels apply on the way out (`static_cast<scalar_t>`).

use super::half::{f32_to_f16_bits, f64_to_f16_bits};

/// A tensor's elements, in the order the kernel visits them (memory order for a contiguous
/// tensor; [`iteration_order`](super::iteration_order) for a strided one). float16 elements
/// are IEEE binary16 bit patterns.
#[derive(Debug)]
pub enum ElementsMut<'a> {
    Bool(&'a mut [bool]),
    U8(&'a mut [u8]),
    I8(&'a mut [i8]),
    I16(&'a mut [i16]),
    I32(&'a mut [i32]),
    I64(&'a mut [i64]),
    F16(&'a mut [u16]),
    F32(&'a mut [f32]),
    F64(&'a mut [f64]),
}

/// The element type alone (for checks that happen before any buffer exists).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ElementType {
    Bool,
    U8,
    I8,
    I16,
    I32,
    I64,
    F16,
    F32,
    F64,
}

impl ElementType {
    pub(crate) fn is_floating(self) -> bool {
        matches!(self, ElementType::F16 | ElementType::F32 | ElementType::F64)
    }

    /// How `caffe2::TypeMeta` names it in ATen messages ("float", "c10::Half", "long int").
    pub(crate) fn type_meta_name(self) -> &'static str {
        match self {
            ElementType::Bool => "bool",
            ElementType::U8 => "unsigned char",
            ElementType::I8 => "signed char",
            ElementType::I16 => "short int",
            ElementType::I32 => "int",
            ElementType::I64 => "long int",
            ElementType::F16 => "c10::Half",
            ElementType::F32 => "float",
            ElementType::F64 => "double",
        }
    }

    /// The ScalarType name ATen prints in some messages ("Float", "Long").
    pub(crate) fn scalar_type_name(self) -> &'static str {
        match self {
            ElementType::Bool => "Bool",
            ElementType::U8 => "Byte",
            ElementType::I8 => "Char",
            ElementType::I16 => "Short",
            ElementType::I32 => "Int",
            ElementType::I64 => "Long",
            ElementType::F16 => "Half",
            ElementType::F32 => "Float",
            ElementType::F64 => "Double",
        }
    }

    /// Mantissa digits of a floating type (`std::numeric_limits<T>::digits`).
    pub(crate) fn float_digits(self) -> Option<u32> {
        match self {
            ElementType::F16 => Some(11),
            ElementType::F32 => Some(24),
            ElementType::F64 => Some(53),
            _ => None,
        }
    }

    /// [lowest, max] of the type as f64 (integers exact up to 2^53).
    pub(crate) fn limits_f64(self) -> (f64, f64) {
        match self {
            ElementType::Bool => (0.0, 1.0),
            ElementType::U8 => (0.0, 255.0),
            ElementType::I8 => (-128.0, 127.0),
            ElementType::I16 => (-32768.0, 32767.0),
            ElementType::I32 => (i32::MIN as f64, i32::MAX as f64),
            ElementType::I64 => (i64::MIN as f64, i64::MAX as f64),
            ElementType::F16 => (-65504.0, 65504.0),
            ElementType::F32 => (f32::MIN as f64, f32::MAX as f64),
            ElementType::F64 => (f64::MIN, f64::MAX),
        }
    }

    /// [lowest, max] of an integral type as i64.
    pub(crate) fn limits_i64(self) -> Option<(i64, i64)> {
        Some(match self {
            ElementType::Bool => (0, 1),
            ElementType::U8 => (0, 255),
            ElementType::I8 => (-128, 127),
            ElementType::I16 => (-32768, 32767),
            ElementType::I32 => (i32::MIN as i64, i32::MAX as i64),
            ElementType::I64 => (i64::MIN, i64::MAX),
            _ => return None,
        })
    }
}

impl ElementsMut<'_> {
    pub fn len(&self) -> usize {
        match self {
            ElementsMut::Bool(s) => s.len(),
            ElementsMut::U8(s) => s.len(),
            ElementsMut::I8(s) => s.len(),
            ElementsMut::I16(s) => s.len(),
            ElementsMut::I32(s) => s.len(),
            ElementsMut::I64(s) => s.len(),
            ElementsMut::F16(s) => s.len(),
            ElementsMut::F32(s) => s.len(),
            ElementsMut::F64(s) => s.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// A shorter-lived view of the same elements (to pass on and keep using).
    pub(crate) fn reborrow(&mut self) -> ElementsMut<'_> {
        match self {
            ElementsMut::Bool(s) => ElementsMut::Bool(s),
            ElementsMut::U8(s) => ElementsMut::U8(s),
            ElementsMut::I8(s) => ElementsMut::I8(s),
            ElementsMut::I16(s) => ElementsMut::I16(s),
            ElementsMut::I32(s) => ElementsMut::I32(s),
            ElementsMut::I64(s) => ElementsMut::I64(s),
            ElementsMut::F16(s) => ElementsMut::F16(s),
            ElementsMut::F32(s) => ElementsMut::F32(s),
            ElementsMut::F64(s) => ElementsMut::F64(s),
        }
    }

    pub(crate) fn element_type(&self) -> ElementType {
        match self {
            ElementsMut::Bool(_) => ElementType::Bool,
            ElementsMut::U8(_) => ElementType::U8,
            ElementsMut::I8(_) => ElementType::I8,
            ElementsMut::I16(_) => ElementType::I16,
            ElementsMut::I32(_) => ElementType::I32,
            ElementsMut::I64(_) => ElementType::I64,
            ElementsMut::F16(_) => ElementType::F16,
            ElementsMut::F32(_) => ElementType::F32,
            ElementsMut::F64(_) => ElementType::F64,
        }
    }

    /// Writes `f(i)` (an int64) into element i, cast as `static_cast<scalar_t>(int64_t)`
    /// casts: integers wrap, floats round to nearest (half through float).
    pub(crate) fn fill_from_i64(&mut self, mut f: impl FnMut() -> i64) {
        match self {
            ElementsMut::Bool(s) => polled(s, |v| *v = f() != 0),
            ElementsMut::U8(s) => polled(s, |v| *v = f() as u8),
            ElementsMut::I8(s) => polled(s, |v| *v = f() as i8),
            ElementsMut::I16(s) => polled(s, |v| *v = f() as i16),
            ElementsMut::I32(s) => polled(s, |v| *v = f() as i32),
            ElementsMut::I64(s) => polled(s, |v| *v = f()),
            ElementsMut::F16(s) => polled(s, |v| *v = f32_to_f16_bits(f() as f32)),
            ElementsMut::F32(s) => polled(s, |v| *v = f() as f32),
            ElementsMut::F64(s) => polled(s, |v| *v = f() as f64),
        }
    }

    /// Writes `f()` (a double sample) cast to the element type, as
    /// `static_cast<scalar_t>(double)`: float16 through float, integers truncated.
    pub(crate) fn fill_from_f64(&mut self, mut f: impl FnMut() -> f64) {
        match self {
            ElementsMut::Bool(s) => polled(s, |v| *v = f() != 0.0),
            ElementsMut::U8(s) => polled(s, |v| *v = f() as i64 as u8),
            ElementsMut::I8(s) => polled(s, |v| *v = f() as i64 as i8),
            ElementsMut::I16(s) => polled(s, |v| *v = f() as i64 as i16),
            ElementsMut::I32(s) => polled(s, |v| *v = f() as i64 as i32),
            ElementsMut::I64(s) => polled(s, |v| *v = f() as i64),
            ElementsMut::F16(s) => polled(s, |v| *v = f64_to_f16_bits(f())),
            ElementsMut::F32(s) => polled(s, |v| *v = f() as f32),
            ElementsMut::F64(s) => polled(s, |v| *v = f()),
        }
    }

    /// Writes a boolean outcome per element (bernoulli), as 0/1 of the element type.
    pub(crate) fn fill_from_bool(&mut self, mut f: impl FnMut(usize) -> bool) {
        let mut i = 0usize;
        let mut next = || {
            let b = f(i);
            i += 1;
            b
        };
        match self {
            ElementsMut::Bool(s) => polled(s, |v| *v = next()),
            ElementsMut::U8(s) => polled(s, |v| *v = next() as u8),
            ElementsMut::I8(s) => polled(s, |v| *v = next() as i8),
            ElementsMut::I16(s) => polled(s, |v| *v = next() as i16),
            ElementsMut::I32(s) => polled(s, |v| *v = next() as i32),
            ElementsMut::I64(s) => polled(s, |v| *v = next() as i64),
            ElementsMut::F16(s) => polled(s, |v| *v = if next() { 0x3c00 } else { 0 }),
            ElementsMut::F32(s) => polled(s, |v| *v = next() as u8 as f32),
            ElementsMut::F64(s) => polled(s, |v| *v = next() as u8 as f64),
        }
    }
}

/// The order in which ATen's TensorIterator visits the elements of one output tensor
/// (sizes/strides in elements): dimensions sorted by stride, smallest fastest, equal
/// strides broken by size. Returns each visit's storage offset (relative to the tensor's
/// own offset). A contiguous tensor yields 0, 1, 2, ...
pub fn iteration_order(sizes: &[usize], strides: &[usize]) -> Vec<usize> {
    let ndim = sizes.len().min(strides.len());
    // perm[0] is the fastest dimension; start from ATen's reversed order.
    let mut perm: Vec<usize> = (0..ndim).rev().collect();
    let should_swap = |d0: usize, d1: usize| -> i32 {
        let (s0, s1) = (strides[d0], strides[d1]);
        if s0 == 0 || s1 == 0 {
            return 0;
        }
        if s0 < s1 {
            return -1;
        }
        if s0 > s1 {
            return 1;
        }
        if sizes[d0] > sizes[d1] {
            return 1;
        }
        0
    };
    crate::engine::numerics::iter::insertion_sort_dims(&mut perm, should_swap);
    let total: usize = sizes.iter().take(ndim).product();
    let mut out = Vec::with_capacity(total);
    if total == 0 {
        return out;
    }
    let mut index = vec![0usize; ndim];
    let mut offset = 0usize;
    for _ in 0..total {
        out.push(offset);
        // Advance the odometer, fastest dimension first.
        for &d in perm.iter() {
            index[d] += 1;
            offset += strides[d];
            if index[d] < sizes[d] {
                break;
            }
            offset -= strides[d] * sizes[d];
            index[d] = 0;
        }
    }
    out
}

/// Visits every element of `s` in order, polling the run's deadline and cancel flag between
/// chunks of [`CHUNK`](crate::engine::interrupt::CHUNK) elements: once a stop is due the rest
/// is left as it is, and the op ends with the stop instead of its result
/// ([`should_stop`](crate::engine::interrupt::should_stop)). The draws happen in the same order
/// as without polls, so the random stream is unchanged.
pub(crate) fn polled<T>(s: &mut [T], mut f: impl FnMut(&mut T)) {
    for part in s.chunks_mut(crate::engine::interrupt::CHUNK) {
        if crate::engine::interrupt::should_stop() {
            return;
        }
        part.iter_mut().for_each(&mut f);
    }
}

/// The elements of `s` in order, as [`polled`] visits them: the iteration ends early when a
/// stop is due.
pub(crate) fn polled_mut<T>(s: &mut [T]) -> impl Iterator<Item = &mut T> {
    s.chunks_mut(crate::engine::interrupt::CHUNK)
        .take_while(|_| !crate::engine::interrupt::should_stop())
        .flatten()
}

/// `s.chunks_exact_mut(16)` (Box-Muller's blocks), polled as [`polled_mut`].
pub(crate) fn polled_blocks16<T>(s: &mut [T]) -> impl Iterator<Item = &mut [T]> {
    const { assert!(crate::engine::interrupt::CHUNK.is_multiple_of(16)) };
    s.chunks_mut(crate::engine::interrupt::CHUNK)
        .take_while(|_| !crate::engine::interrupt::should_stop())
        .flat_map(|c| c.chunks_exact_mut(16))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contiguous_is_memory_order() {
        assert_eq!(iteration_order(&[2, 3], &[3, 1]), vec![0, 1, 2, 3, 4, 5]);
    }

    #[test]
    fn transposed_is_memory_order() {
        // A (3, 2) transpose of a contiguous (2, 3): strides (1, 3).
        assert_eq!(iteration_order(&[3, 2], &[1, 3]), vec![0, 1, 2, 3, 4, 5]);
    }

    #[test]
    fn sliced_columns_skip_storage() {
        // x[:, ::2] of a (2, 4): sizes (2, 2), strides (4, 2).
        assert_eq!(iteration_order(&[2, 2], &[4, 2]), vec![0, 2, 4, 6]);
    }

    #[test]
    fn scalar_and_empty() {
        assert_eq!(iteration_order(&[], &[]), vec![0]);
        assert!(iteration_order(&[0, 3], &[3, 1]).is_empty());
    }
}
