//! The seeded pseudo-random sequence the engine's unit tests draw their inputs from: the same
//! values on every run and machine, without a random-number dependency. Each test shapes the
//! raw states its own way (specials mixed in, a spread of magnitudes); the common case, values
//! in [-0.5, 0.5), is [`Lcg::centered`].

/// Numerical Recipes' 32-bit linear congruential generator.
pub(crate) struct Lcg(u32);

impl Lcg {
    pub(crate) fn new(seed: u32) -> Lcg {
        Lcg(seed)
    }

    /// The next state.
    pub(crate) fn next_u32(&mut self) -> u32 {
        self.0 = self.0.wrapping_mul(1664525).wrapping_add(1013904223);
        self.0
    }

    /// The next state's top 24 bits as a fraction, less a half: a value in [-0.5, 0.5).
    pub(crate) fn next_centered(&mut self) -> f32 {
        (self.next_u32() >> 8) as f32 / (1 << 24) as f32 - 0.5
    }

    /// `n` values of [`Lcg::next_centered`].
    pub(crate) fn centered(&mut self, n: usize) -> Vec<f32> {
        (0..n).map(|_| self.next_centered()).collect()
    }
}
