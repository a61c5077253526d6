//! Deterministic random generators (one for the CPU, one per GPU). Same seed, same numbers,
//! every run; the stream is not PyTorch's (values differ from real torch, shapes and ranges
//! do not).

/// `torch.initial_seed()` of a fresh process.
pub const DEFAULT_SEED: u64 = 67280421310721;

#[derive(Debug, Clone)]
pub struct Generator {
    state: u64,
    seed: u64,
    spare_normal: Option<f64>,
}

impl Generator {
    pub fn new(seed: u64) -> Self {
        Generator {
            state: seed,
            seed,
            spare_normal: None,
        }
    }
    pub fn seed(&mut self, seed: u64) {
        *self = Generator::new(seed);
    }
    pub fn initial_seed(&self) -> u64 {
        self.seed
    }
    /// splitmix64.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in [0, 1) with 24 random bits (exact in float32).
    pub fn uniform_f32(&mut self) -> f64 {
        (self.next_u64() >> 40) as f64 / (1u64 << 24) as f64
    }
    /// Uniform in [0, 1) with 53 random bits.
    pub fn uniform_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    /// Standard normal (Box-Muller).
    pub fn normal(&mut self) -> f64 {
        if let Some(z) = self.spare_normal.take() {
            return z;
        }
        let u1 = 1.0 - self.uniform_f64();
        let u2 = self.uniform_f64();
        let r = (-2.0 * u1.ln()).sqrt();
        let th = 2.0 * std::f64::consts::PI * u2;
        self.spare_normal = Some(r * th.sin());
        r * th.cos()
    }
    /// Uniform integer in [low, high).
    pub fn int_range(&mut self, low: i64, high: i64) -> i64 {
        let span = (high - low) as u64;
        low + (self.next_u64() % span) as i64
    }
}
