//! Launches on 16-bit floats (float16, bfloat16), which the kernels see as their bit
//! patterns: fill.cu's `fill_b16` and random.cu's `normal_f16`.

use super::{Kernels, RANDOM_THREADS, n_i64, random_policy};
use crate::engine::cuda::launch::{DeviceError, DevicePtr, Dim3, KernelArgs, LaunchConfig};

impl Kernels<'_> {
    /// `n` contiguous 16-bit elements at `out` set to `bits`.
    pub fn fill_bits16(&self, n: usize, bits: u16, out: DevicePtr) -> Result<(), DeviceError> {
        if n == 0 {
            return Ok(());
        }
        let args = KernelArgs::new().arg(n_i64(n)?).arg(bits).arg(out);
        self.launch("fill_b16", self.elementwise_cfg(n), &args)
    }

    /// randn / normal_(mean, std) into `n` contiguous float16 elements (four float normals
    /// per curand4, as float32's).
    pub fn normal_f16(
        &self,
        n: usize,
        seed: u64,
        offset: u64,
        mean: f32,
        std: f32,
        out: DevicePtr,
    ) -> Result<(), DeviceError> {
        if n == 0 {
            return Ok(());
        }
        let (grid, _) = random_policy(n as u64, 4, self.sm_count);
        let cfg = LaunchConfig::new(Dim3::x(grid), Dim3::x(RANDOM_THREADS));
        let args = KernelArgs::new()
            .arg(n_i64(n)?)
            .arg(seed)
            .arg(offset)
            .arg(mean)
            .arg(std)
            .arg(out);
        self.launch("normal_f16", cfg, &args)
    }
}
