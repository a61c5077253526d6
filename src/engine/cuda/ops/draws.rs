//! The launches of random.cu's bernoulli, exponential and dropout kernels: PyTorch's random
//! launch policy (256 threads, [`random_policy`]'s grid), each returning the Philox offset
//! increment the caller's generator must take (the caller takes it first, from the same
//! policy, as [`Kernels::random_float`]'s callers do).

use super::{Elem, Kernels, RANDOM_THREADS, n_i64, random_policy};
use crate::engine::cuda::launch::{DeviceError, DevicePtr, Dim3, KernelArgs, LaunchConfig};

/// Threads per block of ATen's bernoulli_tensor_cuda_kernel (CUDA_tensor_apply2's
/// max_threads_per_block).
const BERNOULLI_TENSOR_THREADS: u32 = 512;

/// Values one curand4 call gives a draw over `elem`: 2 doubles for float64, else 4 floats.
pub fn draw_unroll(elem: Elem) -> u64 {
    if elem == Elem::F64 { 2 } else { 4 }
}

impl Kernels<'_> {
    fn random_cfg(&self, n: usize, unroll: u64) -> LaunchConfig {
        let (grid, _) = random_policy(n as u64, unroll, self.sm_count);
        LaunchConfig::new(Dim3::x(grid), Dim3::x(RANDOM_THREADS))
    }

    /// `bernoulli_(p)` with a number `p` into a contiguous `out` of `n` elements.
    pub fn bernoulli_scalar(
        &self,
        elem: Elem,
        n: usize,
        seed: u64,
        offset: u64,
        p: f64,
        out: DevicePtr,
    ) -> Result<(), DeviceError> {
        if n == 0 {
            return Ok(());
        }
        let cfg = self.random_cfg(n, draw_unroll(elem));
        let args = KernelArgs::new()
            .arg(n_i64(n)?)
            .arg(seed)
            .arg(offset)
            .arg(p)
            .arg(out);
        self.launch(&format!("bernoulli_scalar_{}", elem.suffix()), cfg, &args)
    }

    /// `torch.bernoulli(p)` with a contiguous tensor of probabilities `p` (float32 or
    /// float64, like `out`) into a contiguous `out` of `n` elements: ATen's
    /// bernoulli_tensor_cuda_kernel, 512-thread blocks of four elements per thread.
    #[allow(clippy::too_many_arguments)]
    pub fn bernoulli_tensor(
        &self,
        elem: Elem,
        n: usize,
        seed: u64,
        offset: u64,
        p: DevicePtr,
        out: DevicePtr,
    ) -> Result<(), DeviceError> {
        if !elem.is_float() {
            return Err(DeviceError::Unsupported(format!(
                "bernoulli_tensor {elem:?}"
            )));
        }
        if n == 0 {
            return Ok(());
        }
        let grid = (n as u64).div_ceil(BERNOULLI_TENSOR_THREADS as u64 * 4);
        let grid = u32::try_from(grid)
            .ok()
            .filter(|&g| g <= i32::MAX as u32)
            .ok_or_else(|| DeviceError::Unsupported(format!("bernoulli_tensor of {n} elements")))?;
        let cfg = LaunchConfig::new(Dim3::x(grid), Dim3::x(BERNOULLI_TENSOR_THREADS));
        let args = KernelArgs::new()
            .arg(n_i64(n)?)
            .arg(seed)
            .arg(offset)
            .arg(p)
            .arg(out);
        self.launch(&format!("bernoulli_tensor_{}", elem.suffix()), cfg, &args)
    }

    /// `exponential_(lambd)` into a contiguous float32/float64 `out` of `n` elements.
    pub fn exponential(
        &self,
        elem: Elem,
        n: usize,
        seed: u64,
        offset: u64,
        lambda: f64,
        out: DevicePtr,
    ) -> Result<(), DeviceError> {
        if !elem.is_float() {
            return Err(DeviceError::Unsupported(format!("exponential {elem:?}")));
        }
        if n == 0 {
            return Ok(());
        }
        let cfg = self.random_cfg(n, draw_unroll(elem));
        let args = KernelArgs::new()
            .arg(n_i64(n)?)
            .arg(seed)
            .arg(offset)
            .arg(lambda)
            .arg(out);
        self.launch(&format!("exponential_{}", elem.suffix()), cfg, &args)
    }

    /// F.dropout's float32 noise (`keep` = 1 - p, `scale` = 1 / keep, both as float) into a
    /// contiguous `out` of `n` elements; `vec` elements per thread and draw (1, 2 or 4).
    #[allow(clippy::too_many_arguments)]
    pub fn dropout_noise(
        &self,
        n: usize,
        seed: u64,
        offset: u64,
        keep: f32,
        scale: f32,
        vec: i32,
        out: DevicePtr,
    ) -> Result<(), DeviceError> {
        if n == 0 {
            return Ok(());
        }
        let cfg = self.random_cfg(n, 4);
        let args = KernelArgs::new()
            .arg(n_i64(n)?)
            .arg(seed)
            .arg(offset)
            .arg(keep)
            .arg(scale)
            .arg(vec)
            .arg(out);
        self.launch("dropout_noise_f32", cfg, &args)
    }
}
