//! `torch.linspace` and `torch.arange` values (RangeFactoriesKernel.cpp).
//!
//! arange runs through `cpu_serial_kernel_vec` with no inputs, so its output is written in
//! steps of two vectors: each vector's lanes come from `Vectorized::arange(base, step)`
//! (`base + i * step` in double, rounded), the tail from the scalar formula. linspace counts
//! from `start` for the first half and back from `end` for the second.

/// Lanes of the range kernels' vectors.
const LANES: usize = 8;

/// `torch.linspace(start, end, steps)` in float32 (start and end are rounded to float first).
/// Every element, vector lanes included, is `start + step * i` for the first half and
/// `end - step * (steps - 1 - i)` for the second, each with one FMA (measured: the lane-wise
/// `base + i * step` of `Vectorized::arange` misses 10% of the values).
pub fn linspace_f32(start: f64, end: f64, steps: usize) -> Vec<f32> {
    let (start, end) = (start as f32, end as f32);
    if steps == 1 {
        return vec![start];
    }
    let step = (end - start) / (steps as i64 - 1) as f32;
    let halfway = steps / 2;
    (0..steps)
        .map(|idx| {
            if idx < halfway {
                step.mul_add(idx as f32, start)
            } else {
                (-step).mul_add((steps - idx - 1) as f32, end)
            }
        })
        .collect()
}

/// The number of elements of `torch.arange(start, end, step)` for floating types:
/// ceil((end - start) / step) in double.
pub(crate) fn arange_len(start: f64, end: f64, step: f64) -> usize {
    let n = ((end - start) / step).ceil();
    if n.is_finite() && n > 0.0 {
        n as usize
    } else {
        0
    }
}

/// `torch.arange(start, end, step)` in float32: values computed in double and rounded.
pub fn arange_f32(start: f64, end: f64, step: f64) -> Vec<f32> {
    let n = arange_len(start, end, step);
    let mut out = vec![0f32; n];
    let chunk = 2 * LANES;
    let split = n - n % chunk;
    let mut idx = 0;
    while idx < split {
        let base = step.mul_add(idx as f64, start) as f32;
        for (i, o) in out[idx..idx + LANES].iter_mut().enumerate() {
            *o = if i == 0 {
                base
            } else {
                ((i as f64).mul_add(step, base as f64)) as f32
            };
        }
        idx += LANES;
    }
    for (i, o) in out.iter_mut().enumerate().skip(split) {
        *o = step.mul_add(i as f64, start) as f32;
    }
    out
}
