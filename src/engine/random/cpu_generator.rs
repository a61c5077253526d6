//! `torch.Generator()` on the CPU (ATen's `CPUGeneratorImpl`): an mt19937 engine plus the
//! spare Box-Muller samples ATen's scalar normal sampler keeps between calls.

use super::mt19937::{Mt19937, STATE_N};

/// `torch.initial_seed()` of a fresh process and of a fresh `torch.Generator()`.
pub const DEFAULT_SEED: u64 = 67_280_421_310_721;

/// The seed of a fresh process's default CPU generator and of `torch.seed()` /
/// `Generator.seed()`: 64 bits read from /dev/urandom, as c10's getNonDeterministicRandom does
/// for the CPU (the CUDA generators keep [`DEFAULT_SEED`] until seeded). Without
/// /dev/urandom, the standard library's per-process random hasher keys mixed with the clock.
pub fn nondeterministic_seed() -> u64 {
    use std::io::Read;
    let mut bytes = [0u8; 8];
    let from_os = std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .is_ok();
    if from_os {
        return u64::from_le_bytes(bytes);
    }
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0),
    );
    h.finish()
}

/// Bytes in `torch.get_rng_state()` (ATen's `CPUGeneratorImplState` on x86-64/aarch64).
pub const CPU_STATE_BYTES: usize = 5056;

#[derive(Debug, Clone, PartialEq)]
pub struct CpuGenerator {
    engine: Mt19937,
    /// The cached second sample of `at::normal_distribution<float>` (unused by CPU kernels
    /// today, but part of the state PyTorch saves).
    next_float_normal: Option<f32>,
    /// The cached second sample of `at::normal_distribution<double>`, which every scalar
    /// (small or strided) `normal_` draws from, whatever the tensor's dtype.
    next_double_normal: Option<f64>,
}

impl Default for CpuGenerator {
    fn default() -> Self {
        CpuGenerator::new(DEFAULT_SEED)
    }
}

/// Why a Python integer cannot seed a generator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SeedError {
    /// Outside [-2^63, 2^64): PyTorch raises `ValueError` with this text.
    Overflow,
}

impl SeedError {
    /// The exception type and message PyTorch raises.
    pub fn python_error(&self) -> (crate::engine::ErrorKind, &'static str) {
        match self {
            SeedError::Overflow => (
                crate::engine::ErrorKind::ValueError,
                "Overflow when unpacking long long",
            ),
        }
    }
}

/// How `manual_seed` turns a Python int into the 64-bit seed: non-negative values up to
/// 2^64-1 as they are, negative values down to -2^63 as their two's complement
/// (`manual_seed(-1)` gives `initial_seed() == 2**64 - 1`).
pub fn seed_from_int(seed: i128) -> Result<u64, SeedError> {
    if (0..=u64::MAX as i128).contains(&seed) {
        Ok(seed as u64)
    } else if (i64::MIN as i128..0).contains(&seed) {
        Ok(seed as i64 as u64)
    } else {
        Err(SeedError::Overflow)
    }
}

impl CpuGenerator {
    pub fn new(seed: u64) -> Self {
        CpuGenerator {
            engine: Mt19937::new(seed),
            next_float_normal: None,
            next_double_normal: None,
        }
    }

    /// `manual_seed(seed)`: a fresh engine and no cached normal samples.
    pub fn manual_seed(&mut self, seed: u64) {
        *self = CpuGenerator::new(seed);
    }

    /// `initial_seed()`: the 64-bit seed last set (all 64 bits, though only 32 reach the
    /// engine).
    pub fn initial_seed(&self) -> u64 {
        self.engine.seed()
    }

    /// One 32-bit draw (`CPUGeneratorImpl::random`).
    pub fn random(&mut self) -> u32 {
        self.engine.next_u32()
    }

    /// Two draws, the first in the high half (`CPUGeneratorImpl::random64`).
    pub(crate) fn random64(&mut self) -> u64 {
        let hi = self.engine.next_u32() as u64;
        let lo = self.engine.next_u32() as u64;
        (hi << 32) | lo
    }

    pub(crate) fn take_double_normal(&mut self) -> Option<f64> {
        self.next_double_normal.take()
    }

    pub(crate) fn set_double_normal(&mut self, v: f64) {
        self.next_double_normal = Some(v);
    }

    /// `torch.get_rng_state()`: ATen's legacy POD layout, little-endian, zero padding.
    pub fn get_state(&self) -> Vec<u8> {
        let e = &self.engine;
        let mut out = Vec::with_capacity(CPU_STATE_BYTES);
        out.extend_from_slice(&e.seed.to_le_bytes());
        out.extend_from_slice(&e.left.to_le_bytes());
        out.extend_from_slice(&(e.seeded as i32).to_le_bytes());
        out.extend_from_slice(&(e.next as u64).to_le_bytes());
        for w in e.state.iter() {
            out.extend_from_slice(&(*w as u64).to_le_bytes());
        }
        let (valid, y) = match self.next_double_normal {
            Some(y) => (1i32, y),
            None => (0, 0.0),
        };
        out.extend_from_slice(&0f64.to_le_bytes()); // normal_x: unused since ATen's rewrite
        out.extend_from_slice(&y.to_le_bytes());
        out.extend_from_slice(&0f64.to_le_bytes()); // normal_rho: unused
        out.extend_from_slice(&valid.to_le_bytes());
        out.extend_from_slice(&[0u8; 4]);
        let (fvalid, fy) = match self.next_float_normal {
            Some(y) => (1u8, y),
            None => (0, 0.0),
        };
        out.extend_from_slice(&fy.to_le_bytes());
        out.push(fvalid);
        out.extend_from_slice(&[0u8; 3]);
        debug_assert_eq!(out.len(), CPU_STATE_BYTES);
        out
    }

    /// `torch.set_rng_state(state)`: the inverse of [`get_state`](Self::get_state), with
    /// ATen's checks and messages.
    pub fn set_state(&mut self, bytes: &[u8]) -> Result<(), String> {
        if bytes.len() != CPU_STATE_BYTES {
            return Err(format!(
                "Expected a CPUGeneratorImplState of size {CPU_STATE_BYTES} but found the input RNG state size to be {}",
                bytes.len()
            ));
        }
        let u64_at = |o: usize| u64::from_le_bytes(bytes[o..o + 8].try_into().unwrap_or([0; 8]));
        let i32_at = |o: usize| i32::from_le_bytes(bytes[o..o + 4].try_into().unwrap_or([0; 4]));
        let mut state = [0u32; STATE_N];
        for (i, w) in state.iter_mut().enumerate() {
            // ATen copies each 64-bit legacy word into a 32-bit one: the high half is dropped.
            *w = u64_at(24 + 8 * i) as u32;
        }
        let engine = Mt19937 {
            seed: u64_at(0),
            left: i32_at(8),
            seeded: i32_at(12) != 0,
            next: u64_at(16) as u32,
            state,
        };
        if !engine.is_valid() {
            return Err("Invalid mt19937 state".to_string());
        }
        self.engine = engine;
        self.next_double_normal = if i32_at(5040) != 0 {
            Some(f64::from_le_bytes(
                bytes[5024..5032].try_into().unwrap_or([0; 8]),
            ))
        } else {
            None
        };
        self.next_float_normal = if bytes[5052] != 0 {
            Some(f32::from_le_bytes(
                bytes[5048..5052].try_into().unwrap_or([0; 4]),
            ))
        } else {
            None
        };
        Ok(())
    }
}
