//! The random draws of [`GpuStorage`] that run on random.cu's kernels: each takes its
//! (seed, offset) from the device's Philox generator exactly as the host's mirror of the
//! same stream (src/engine/random/cuda/) does, so the sim and the device draw the same
//! numbers, and returns `false` when the case has no kernel (the caller draws on the host).

use super::super::ops::Elem;
use super::{GpuStorage, esize};
use crate::engine::error::Result;
use crate::engine::random::CudaGenerator;

impl GpuStorage {
    /// `torch.randint(low, high)` / `random_(from, to)` on elements `start..start + n`:
    /// `low + r % range` with 32-bit draws below a range of 2^28, 64-bit draws from there
    /// (the host's `random::cuda::random_from_to_`). `false` for a dtype without a kernel.
    pub(crate) fn randint(
        &self,
        start: usize,
        n: usize,
        generator: &mut CudaGenerator,
        low: i64,
        range: u64,
    ) -> Result<bool> {
        let Some(e @ (Elem::F32 | Elem::F64 | Elem::I64 | Elem::I32 | Elem::U8)) = self.elem()
        else {
            return Ok(false);
        };
        // the kernel takes the bounds as (low, high) with low < high in int64: a range that
        // does not fit (beyond 2^63) stays with the host's mirror
        let Some(high) = i64::try_from(range)
            .ok()
            .and_then(|r| low.checked_add(r))
            .filter(|&h| h > low)
        else {
            return Ok(false);
        };
        if n == 0 {
            return Ok(true);
        }
        let unroll = if range >= 1 << 28 { 2 } else { 4 };
        let (seed, offset) = self.philox_for_draw(generator, n, unroll);
        let p = self.ptr().offset(start as u64 * esize(self.dtype));
        self.ctx
            .run(|k| k.randint(e, n, seed, offset, low, high, p).map(|_| ()))?;
        Ok(true)
    }
}

impl GpuStorage {
    /// The (seed, offset) of a grid-stride draw of `n` elements, `unroll` values per thread
    /// and call: the generator advances by the launch's counter increment, as PyTorch's
    /// `philox_cuda_state` under `calc_execution_policy`.
    pub(super) fn philox_for_draw(
        &self,
        generator: &mut CudaGenerator,
        n: usize,
        unroll: u64,
    ) -> (u64, u64) {
        let (_, increment) = super::super::ops::random_policy(n as u64, unroll, self.ctx.sm_count);
        generator.philox_state(increment)
    }

    /// Where elements `start..` begin.
    fn at_element(&self, start: usize) -> super::DevicePtr {
        self.ptr().offset(start as u64 * esize(self.dtype))
    }

    /// `bernoulli_(p)` (p checked by the caller) on elements `start..start + n`.
    pub(crate) fn bernoulli_scalar(
        &self,
        start: usize,
        n: usize,
        generator: &mut CudaGenerator,
        p: f64,
    ) -> Result<bool> {
        let Some(e) = self.elem() else {
            return Ok(false);
        };
        if n == 0 {
            return Ok(true);
        }
        let (seed, offset) = self.philox_for_draw(generator, n, super::super::ops::draw_unroll(e));
        let out = self.at_element(start);
        self.ctx
            .run(|k| k.bernoulli_scalar(e, n, seed, offset, p, out))?;
        Ok(true)
    }

    /// `torch.bernoulli(p)` into this fresh float32/float64 buffer (elements `start..start +
    /// n`) from `p`'s contiguous elements `p_start..p_start + n` of the same dtype; the
    /// generator advances as PyTorch's `philox_cuda_state(10)`. `false` for another dtype.
    pub(crate) fn bernoulli_tensor(
        &self,
        start: usize,
        n: usize,
        generator: &mut CudaGenerator,
        p: &GpuStorage,
        p_start: usize,
    ) -> Result<bool> {
        let Some(e @ (Elem::F32 | Elem::F64)) = self.elem() else {
            return Ok(false);
        };
        if p.elem() != Some(e) {
            return Ok(false);
        }
        let (seed, offset) = generator.philox_state(10);
        if n == 0 {
            return Ok(true);
        }
        let out = self.at_element(start);
        let probs = p.at_element(p_start);
        self.ctx
            .run(|k| k.bernoulli_tensor(e, n, seed, offset, probs, out))?;
        Ok(true)
    }

    /// `exponential_(lambd)` (lambd checked by the caller) on elements `start..start + n` of
    /// a float32/float64 buffer.
    pub(crate) fn exponential(
        &self,
        start: usize,
        n: usize,
        generator: &mut CudaGenerator,
        lambda: f64,
    ) -> Result<bool> {
        let Some(e @ (Elem::F32 | Elem::F64)) = self.elem() else {
            return Ok(false);
        };
        if n == 0 {
            return Ok(true);
        }
        let (seed, offset) = self.philox_for_draw(generator, n, super::super::ops::draw_unroll(e));
        let out = self.at_element(start);
        self.ctx
            .run(|k| k.exponential(e, n, seed, offset, lambda, out))?;
        Ok(true)
    }

    /// F.dropout's noise for 0 < p < 1 on elements `start..start + n` of a float32 buffer
    /// (contiguous): `keep` and `scale` rounded to float as the host's mirror
    /// (`random::cuda::dropout_`) rounds them, `vec` the largest of 4, 2, 1 dividing `n`.
    pub(crate) fn dropout_noise(
        &self,
        start: usize,
        n: usize,
        generator: &mut CudaGenerator,
        p: f64,
    ) -> Result<bool> {
        if self.elem() != Some(Elem::F32) || !(p > 0.0 && p < 1.0) {
            return Ok(false);
        }
        if n == 0 {
            return Ok(true);
        }
        let keep = (1.0 - p) as f32;
        let scale = (1.0 / keep as f64) as f32;
        let mut vec = 4usize;
        while vec > 1 && !n.is_multiple_of(vec) {
            vec /= 2;
        }
        let (seed, offset) = self.philox_for_draw(generator, n, 4);
        let out = self.at_element(start);
        self.ctx
            .run(|k| k.dropout_noise(n, seed, offset, keep, scale, vec as i32, out))?;
        Ok(true)
    }
}

impl GpuStorage {
    /// randn / normal_(mean, std) on elements `start..start + n` of a float16 buffer: the
    /// float normal rounded to half, as the host's mirror (`random::cuda::normal_`) does.
    pub(crate) fn normal_f16(
        &self,
        start: usize,
        n: usize,
        generator: &mut CudaGenerator,
        mean: f64,
        std: f64,
    ) -> Result<bool> {
        if n == 0 {
            return Ok(true);
        }
        let (seed, offset) = self.philox_for_draw(generator, n, 4);
        let out = self.at_element(start);
        self.ctx
            .run(|k| k.normal_f16(n, seed, offset, mean as f32, std as f32, out))?;
        Ok(true)
    }
}

/// A float16 / bfloat16 fill value as the bit pattern the host's own fill stores (so both
/// round the number alike); `None` for every other dtype.
pub(super) fn half_bits(
    dtype: crate::engine::dtype::DType,
    value: crate::engine::dtype::Scalar,
) -> Result<Option<u16>> {
    use crate::engine::dtype::DType;
    use crate::engine::host::HostStorage;
    if !matches!(dtype, DType::Float16 | DType::BFloat16) {
        return Ok(None);
    }
    Ok(match HostStorage::full(dtype, 1, value)? {
        HostStorage::F16(v) => v.first().map(|x| x.to_bits()),
        HostStorage::BF16(v) => v.first().map(|x| x.to_bits()),
        _ => None,
    })
}
