//! What numpy's two bit generators share: PCG64 behind `np.random.default_rng()`
//! (generator.rs) and MT19937 behind the legacy `np.random` functions and `RandomState`
//! (random.rs). numpy's distributions.c builds the same draws on both, and their methods read
//! `size` and return a scalar or an array the same way.

use super::array::{NdArray, err, np_value, numel};
use super::funcs::shape_arg;
use crate::engine::dtype::DType;
use crate::script::{ExcType, Interpreter, PyException, PyResult, Value};
use std::cell::RefCell;

/// A stream of random words.
pub(crate) trait BitStream {
    fn next32(&mut self) -> u32;
    fn next64(&mut self) -> u64;

    /// `random_interval(max)`: uniform in [0, max] by masked rejection, from 32-bit words while
    /// max fits in 32 bits.
    fn interval(&mut self, max: u64) -> u64 {
        if max == 0 {
            return 0;
        }
        let mut mask = max;
        for s in [1, 2, 4, 8, 16, 32] {
            mask |= mask >> s;
        }
        loop {
            let v = if max <= 0xffff_ffff {
                self.next32() as u64 & mask
            } else {
                self.next64() & mask
            };
            if v <= max {
                return v;
            }
        }
    }
}

/// `_shuffle_raw` on an array's rows (its first dimension): i from n-1 down to 1 swaps with
/// `random_interval(i)`.
pub(crate) fn shuffle_rows<B: BitStream>(bits: &RefCell<B>, arr: &NdArray) -> PyResult<()> {
    let Some(&n) = arr.shape.first() else {
        return Ok(());
    };
    let inner: usize = arr.shape[1..].iter().product();
    let mut vals = arr.values()?;
    for i in (1..n).rev() {
        let j = bits.borrow_mut().interval(i as u64) as usize;
        if i != j {
            for k in 0..inner {
                vals.swap(i * inner + k, j * inner + k);
            }
        }
    }
    arr.write(&arr.offsets(), &vals)
}

/// A `size` argument: None (or absent) for one scalar draw, else the shape to fill.
pub(crate) fn size_arg(it: &mut Interpreter, v: &Option<Value>) -> PyResult<Option<Vec<usize>>> {
    match v {
        None | Some(Value::None) => Ok(None),
        Some(v) => shape_arg(it, v).map(Some),
    }
}

/// The draws `vals` as the method returns them: a numpy scalar without `size`, else an array
/// of that shape.
pub(crate) fn sized_result(vals: Vec<f64>, size: Option<Vec<usize>>, dt: DType) -> PyResult<Value> {
    match size {
        None => Ok(np_value(dt, vals[0])),
        Some(s) => Ok(Value::native(NdArray::from_f64(
            &super::runtime(),
            &vals,
            s,
            dt,
        )?)),
    }
}

/// One value of `draw` without `size`, else one for each element of `size` in order, returned
/// as `sized_result` does. (`size_arg` has checked that the run has room for them.)
pub(crate) fn sized_draws(
    size: Option<Vec<usize>>,
    dt: DType,
    mut draw: impl FnMut() -> f64,
) -> PyResult<Value> {
    let n = size.as_ref().map_or(1, |s| numel(s));
    let vals = (0..n).map(|_| draw()).collect();
    sized_result(vals, size, dt)
}

/// numpy's error for a sample without replacement larger than its population; `when` is how
/// that API words the case (`replace is False`, `'replace=False'`).
pub(crate) fn sample_larger_than_population(when: &str) -> PyException {
    err(
        ExcType::ValueError,
        format!("Cannot take a larger sample than population when {when}"),
    )
}

/// The `NativeObject` of a generator's Python object: its type name, its `methods`, which
/// `call` runs, and its repr.
macro_rules! generator_object {
    ($ty:ty, $name:literal, $repr:literal, $methods:expr, $call:expr) => {
        impl NativeObject for $ty {
            fn type_name(&self) -> &str {
                $name
            }
            fn getattr(
                &self,
                $crate::script::NativeCx { this, .. }: $crate::script::NativeCx<'_>,
                name: &str,
            ) -> PyResult<Option<Value>> {
                Ok(super::bound_method(this, $methods, name, $call))
            }
            fn plain_repr(&self) -> Option<String> {
                Some($repr.into())
            }
        }
    };
}
pub(crate) use generator_object;
