//! The 32-bit Mersenne Twister exactly as ATen's `at::mt19937` runs it: seeded from the low
//! 32 bits of a 64-bit seed (Knuth's 1812433253 recurrence), the whole 624-word state
//! regenerated at once when it runs out (`left` counts down to 0), and MT19937's tempering.
//! `left`/`next` are kept in ATen's form so `torch.get_rng_state()` bytes round-trip.

/// Words of state.
pub(super) const STATE_N: usize = 624;
const STATE_M: usize = 397;
const MATRIX_A: u32 = 0x9908_b0df;
const UPPER_MASK: u32 = 0x8000_0000;
const LOWER_MASK: u32 = 0x7fff_ffff;

/// The engine's data, field for field what ATen serialises (`mt19937_data_pod`).
#[derive(Clone, PartialEq, Eq)]
pub(super) struct Mt19937 {
    /// The full 64-bit seed it was built with (only the low 32 bits reach the state).
    pub(crate) seed: u64,
    /// Draws left before the state is regenerated; a fresh engine has 1.
    pub(crate) left: i32,
    pub(crate) seeded: bool,
    /// Index of the next state word to temper.
    pub(crate) next: u32,
    pub(crate) state: [u32; STATE_N],
}

impl std::fmt::Debug for Mt19937 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mt19937")
            .field("seed", &self.seed)
            .field("left", &self.left)
            .field("next", &self.next)
            .finish_non_exhaustive()
    }
}

impl Mt19937 {
    pub(super) fn new(seed: u64) -> Self {
        let mut state = [0u32; STATE_N];
        state[0] = seed as u32;
        for j in 1..STATE_N {
            let prev = state[j - 1];
            state[j] = 1_812_433_253u32
                .wrapping_mul(prev ^ (prev >> 30))
                .wrapping_add(j as u32);
        }
        Mt19937 {
            seed,
            left: 1,
            seeded: true,
            next: 0,
            state,
        }
    }

    pub(super) fn seed(&self) -> u64 {
        self.seed
    }

    /// ATen's `is_valid`: what `set_rng_state` insists on.
    pub(super) fn is_valid(&self) -> bool {
        self.seeded
            && self.left > 0
            && self.left as usize <= STATE_N
            && self.next as usize <= STATE_N
    }

    /// The next tempered 32-bit output.
    pub(super) fn next_u32(&mut self) -> u32 {
        self.left -= 1;
        if self.left == 0 {
            self.regenerate();
        }
        // A restored state may point one past the end only when `left` forces a regenerate
        // first (is_valid bounds both); the modulo keeps a corrupt one from panicking.
        let mut y = self.state[self.next as usize % STATE_N];
        self.next += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^= y >> 18;
        y
    }

    fn twist(u: u32, v: u32) -> u32 {
        let mixed = (u & UPPER_MASK) | (v & LOWER_MASK);
        (mixed >> 1) ^ if v & 1 != 0 { MATRIX_A } else { 0 }
    }

    /// Regenerates all 624 words (ATen's `next_state`; note the odd-bit test is on `v`, the
    /// following word, as in the Cokus variant ATen uses).
    fn regenerate(&mut self) {
        self.left = STATE_N as i32;
        self.next = 0;
        let s = &mut self.state;
        for i in 0..STATE_N - STATE_M {
            s[i] = s[i + STATE_M] ^ Self::twist(s[i], s[i + 1]);
        }
        for i in STATE_N - STATE_M..STATE_N - 1 {
            s[i] = s[i + STATE_M - STATE_N] ^ Self::twist(s[i], s[i + 1]);
        }
        s[STATE_N - 1] = s[STATE_M - 1] ^ Self::twist(s[STATE_N - 1], s[0]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_mt19937_outputs() {
        // The reference implementation's first outputs for seed 5489 (std::mt19937's default).
        let mut mt = Mt19937::new(5489);
        assert_eq!(mt.next_u32(), 3_499_211_612);
        assert_eq!(mt.next_u32(), 581_869_302);
        // std::mt19937: the 10000th output for the default seed is 4123659995.
        let mut mt = Mt19937::new(5489);
        let mut last = 0;
        for _ in 0..10000 {
            last = mt.next_u32();
        }
        assert_eq!(last, 4_123_659_995);
    }

    #[test]
    fn only_low_32_bits_of_the_seed_matter() {
        let mut a = Mt19937::new(7);
        let mut b = Mt19937::new(7 + (1u64 << 32));
        for _ in 0..1000 {
            assert_eq!(a.next_u32(), b.next_u32());
        }
        assert_ne!(a.seed(), b.seed());
    }
}
