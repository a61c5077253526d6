//! PyTorch's CUDA random streams (`CUDAGeneratorImpl` + curand Philox4x32-10), computed on
//! the host: which value lands in each element of a `torch.rand(..., device='cuda')`.
//!
//! **Unverified**: written from PyTorch's source (CUDAGeneratorImpl.cpp,
//! native/cuda/DistributionTemplates.h, Dropout.cu) and curand's headers, not yet compared
//! with a GPU; tests/cuda/random_*.py print the values a GPU run should match. The integer
//! and uniform paths are exact arithmetic (u32 -> float, one fused multiply-add); the
//! normal and exponential paths call the GPU's `logf`/`__sincosf`, which are approximated
//! here by libm's `logf` and the double `sin`/`cos` rounded to float, so those can differ in
//! the last bits. The batched normal takes both without libm calls for nearly every lane
//! (rounded_log.rs, rounded_sin.rs), with libm's bits.

mod decided;
mod kernels;
mod philox;
mod rounded_log;
mod rounded_sin;
#[cfg(target_arch = "x86_64")]
mod x86;

pub use kernels::{
    DropoutOutput, bernoulli_scalar_, bernoulli_tensor_, dropout_, exponential_, normal_, random_,
    random_from_to_, uniform_,
};
pub use philox::{PhiloxState, philox4x32_10};

use super::cpu_generator::DEFAULT_SEED;

/// `torch.cuda` generator state: a seed and the Philox offset every kernel launch advances.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CudaGenerator {
    seed: u64,
    offset: u64,
}

impl Default for CudaGenerator {
    /// `torch.Generator(device='cuda')`: the default seed, offset 0. (The process-wide
    /// default CUDA generator is instead seeded nondeterministically on first use, unless
    /// `torch.manual_seed` ran.)
    fn default() -> Self {
        CudaGenerator::new(DEFAULT_SEED)
    }
}

impl CudaGenerator {
    pub fn new(seed: u64) -> Self {
        CudaGenerator { seed, offset: 0 }
    }

    /// `manual_seed`: a new seed and offset 0.
    pub fn manual_seed(&mut self, seed: u64) {
        self.seed = seed;
        self.offset = 0;
    }

    pub fn initial_seed(&self) -> u64 {
        self.seed
    }

    /// `get_offset()`: Philox words per thread used so far (a multiple of 4).
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// `set_offset(offset)` (`graphsafe_set_state` aside).
    pub(crate) fn set_offset(&mut self, offset: u64) -> Result<(), String> {
        if !offset.is_multiple_of(4) {
            return Err("offset must be a multiple of 4".to_string());
        }
        self.offset = offset;
        Ok(())
    }

    /// `philox_cuda_state(increment)`: the (seed, offset) a launch uses; the offset then
    /// advances by `increment` rounded up to a multiple of 4.
    pub fn philox_state(&mut self, increment: u64) -> (u64, u64) {
        let at = self.offset;
        self.offset = self.offset.wrapping_add(increment.div_ceil(4) * 4);
        (self.seed, at)
    }

    /// `torch.cuda.get_rng_state()`: seed then offset, 8 bytes each, little-endian.
    pub fn get_state(&self) -> Vec<u8> {
        let mut v = self.seed.to_le_bytes().to_vec();
        v.extend_from_slice(&(self.offset as i64).to_le_bytes());
        v
    }

    /// `torch.cuda.set_rng_state(state)`: 16 bytes, or 8 (a seed alone, offset 0).
    pub fn set_state(&mut self, bytes: &[u8]) -> Result<(), String> {
        let seed = |b: &[u8]| u64::from_le_bytes(b[..8].try_into().unwrap_or([0; 8]));
        match bytes.len() {
            8 => {
                self.manual_seed(seed(bytes));
                Ok(())
            }
            16 => {
                self.manual_seed(seed(bytes));
                let off = u64::from_le_bytes(bytes[8..16].try_into().unwrap_or([0; 8]));
                self.set_offset(off)
            }
            _ => Err("RNG state is wrong size".to_string()),
        }
    }
}

/// The device properties the launch configuration depends on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeviceShape {
    /// `multiProcessorCount`.
    pub sm_count: u32,
    /// `maxThreadsPerMultiProcessor`.
    pub max_threads_per_sm: u32,
}

impl DeviceShape {
    /// NVIDIA H200: 132 SMs, 2048 threads each.
    pub const H200: DeviceShape = DeviceShape {
        sm_count: 132,
        max_threads_per_sm: 2048,
    };
}

/// `calc_execution_policy`: 256-thread blocks, at most `SMs * (threads per SM / 256)`
/// blocks, and the Philox offset increment (4 per grid-stride iteration).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LaunchPolicy {
    pub block: u64,
    pub grid: u64,
    pub counter_offset: u64,
}

pub(crate) const BLOCK_SIZE: u64 = 256;

pub(crate) fn launch_policy(numel: u64, unroll: u64, device: DeviceShape) -> LaunchPolicy {
    let blocks_per_sm = (device.max_threads_per_sm as u64 / BLOCK_SIZE).max(1);
    let grid = numel
        .div_ceil(BLOCK_SIZE)
        .min(device.sm_count as u64 * blocks_per_sm)
        .max(1);
    let counter_offset = ((numel.max(1) - 1) / (BLOCK_SIZE * grid * unroll) + 1) * 4;
    LaunchPolicy {
        block: BLOCK_SIZE,
        grid,
        counter_offset,
    }
}
