//! curand's Philox4x32-10 (`curandStatePhilox4_32_10_t`): a 128-bit counter, a 64-bit key,
//! ten rounds; `curand_init(seed, subsequence, offset)` puts the subsequence in the
//! counter's high 64 bits and the offset (in 32-bit words) in the low ones.

const W32_0: u32 = 0x9E37_79B9;
const W32_1: u32 = 0xBB67_AE85;
const M4X32_0: u32 = 0xD251_1F53;
const M4X32_1: u32 = 0xCD9E_8D57;

fn round(ctr: [u32; 4], key: [u32; 2]) -> [u32; 4] {
    let p0 = M4X32_0 as u64 * ctr[0] as u64;
    let p1 = M4X32_1 as u64 * ctr[2] as u64;
    let (hi0, lo0) = ((p0 >> 32) as u32, p0 as u32);
    let (hi1, lo1) = ((p1 >> 32) as u32, p1 as u32);
    [hi1 ^ ctr[1] ^ key[0], lo1, hi0 ^ ctr[3] ^ key[1], lo0]
}

/// The Philox4x32-10 bijection of one counter block.
pub fn philox4x32_10(mut ctr: [u32; 4], mut key: [u32; 2]) -> [u32; 4] {
    for _ in 0..9 {
        ctr = round(ctr, key);
        key[0] = key[0].wrapping_add(W32_0);
        key[1] = key[1].wrapping_add(W32_1);
    }
    round(ctr, key)
}

/// [`philox4x32_10`] of `L` counter blocks at once, `ctr[word][lane]`: the same arithmetic
/// lane by lane, laid out so that the compiler keeps the lanes in vector registers (a `randn`
/// of a 256 x 256 CUDA tensor is 65,536 blocks). Each product's low half is a 32-bit
/// multiply and its high half the top of a 64-bit one, which the compiler turns into a
/// vector multiply-high (16 lanes fill a 512-bit register). Inlined so that a caller compiled
/// for AVX2 or AVX-512 runs it in that width.
#[inline(always)]
pub(crate) fn philox4x32_10_lanes<const L: usize>(
    mut ctr: [[u32; L]; 4],
    mut key: [u32; 2],
) -> [[u32; L]; 4] {
    use std::array::from_fn;
    let high = |m: u32, x: u32| ((m as u64 * x as u64) >> 32) as u32;
    for r in 0..10 {
        ctr = [
            from_fn(|l| high(M4X32_1, ctr[2][l]) ^ ctr[1][l] ^ key[0]),
            ctr[2].map(|x| M4X32_1.wrapping_mul(x)),
            from_fn(|l| high(M4X32_0, ctr[0][l]) ^ ctr[3][l] ^ key[1]),
            ctr[0].map(|x| M4X32_0.wrapping_mul(x)),
        ];
        if r < 9 {
            key[0] = key[0].wrapping_add(W32_0);
            key[1] = key[1].wrapping_add(W32_1);
        }
    }
    ctr
}

/// [`philox4x32_10`] of eight counter blocks in AVX2 registers, `ctr[word]` holding the word
/// of every lane. The portable lanes vectorise as well where LLVM keeps their loop whole, but
/// not in every caller (in the batched normal they came out partly scalar); these do not
/// depend on it.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn philox4x32_10_x8(
    mut ctr: [std::arch::x86_64::__m256i; 4],
    mut key: [u32; 2],
) -> [std::arch::x86_64::__m256i; 4] {
    use std::arch::x86_64::*;
    // the high and low halves of `m * x` in each 32-bit lane: even lanes' products, then odd
    // lanes' (shifted down), with the halves blended back into place
    let mul_high_low = |m: u32, x: __m256i| {
        let m = _mm256_set1_epi32(m as i32);
        let even = _mm256_mul_epu32(x, m);
        let odd = _mm256_mul_epu32(_mm256_srli_epi64::<32>(x), m);
        let high = _mm256_blend_epi32::<0b1010_1010>(_mm256_srli_epi64::<32>(even), odd);
        let low = _mm256_blend_epi32::<0b1010_1010>(even, _mm256_slli_epi64::<32>(odd));
        (high, low)
    };
    let xor3 = |a, b, k: u32| _mm256_xor_si256(_mm256_xor_si256(a, b), _mm256_set1_epi32(k as i32));
    for r in 0..10 {
        let (high1, low1) = mul_high_low(M4X32_1, ctr[2]);
        let (high0, low0) = mul_high_low(M4X32_0, ctr[0]);
        ctr = [
            xor3(high1, ctr[1], key[0]),
            low1,
            xor3(high0, ctr[3], key[1]),
            low0,
        ];
        if r < 9 {
            key[0] = key[0].wrapping_add(W32_0);
            key[1] = key[1].wrapping_add(W32_1);
        }
    }
    ctr
}

/// One thread's curand Philox state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PhiloxState {
    ctr: [u32; 4],
    key: [u32; 2],
    output: [u32; 4],
    /// Which word of `output` `curand()` returns next (curand's STATE).
    word: u32,
}

impl PhiloxState {
    /// `curand_init(seed, subsequence, offset, &state)`.
    pub fn new(seed: u64, subsequence: u64, offset: u64) -> Self {
        let mut s = PhiloxState {
            ctr: [0; 4],
            key: [seed as u32, (seed >> 32) as u32],
            output: [0; 4],
            word: 0,
        };
        s.incr_hi(subsequence);
        // skipahead(offset): whole blocks, then the word within one.
        s.word += (offset & 3) as u32;
        let mut blocks = offset / 4;
        if s.word > 3 {
            blocks += 1;
            s.word -= 4;
        }
        s.incr_by(blocks);
        s.output = philox4x32_10(s.ctr, s.key);
        s
    }

    /// curand's `Philox_State_Incr(s, n)`, carry quirks included.
    fn incr_by(&mut self, n: u64) {
        let nlo = n as u32;
        let mut nhi = (n >> 32) as u32;
        self.ctr[0] = self.ctr[0].wrapping_add(nlo);
        if self.ctr[0] < nlo {
            nhi = nhi.wrapping_add(1);
        }
        self.ctr[1] = self.ctr[1].wrapping_add(nhi);
        if nhi <= self.ctr[1] {
            return;
        }
        self.ctr[2] = self.ctr[2].wrapping_add(1);
        if self.ctr[2] != 0 {
            return;
        }
        self.ctr[3] = self.ctr[3].wrapping_add(1);
    }

    /// `Philox_State_Incr_hi(s, n)`: the subsequence half of the counter.
    fn incr_hi(&mut self, n: u64) {
        let nlo = n as u32;
        let mut nhi = (n >> 32) as u32;
        self.ctr[2] = self.ctr[2].wrapping_add(nlo);
        if self.ctr[2] < nlo {
            nhi = nhi.wrapping_add(1);
        }
        self.ctr[3] = self.ctr[3].wrapping_add(nhi);
    }

    #[cfg(test)]
    fn incr(&mut self) {
        for w in self.ctr.iter_mut() {
            *w = w.wrapping_add(1);
            if *w != 0 {
                return;
            }
        }
    }

    #[cfg(test)]
    /// `curand4(&state)`: the next four words.
    pub(crate) fn next4(&mut self) -> [u32; 4] {
        let tmp = self.output;
        self.incr();
        self.output = philox4x32_10(self.ctr, self.key);
        let o = self.output;
        match self.word {
            0 => tmp,
            1 => [tmp[1], tmp[2], tmp[3], o[0]],
            2 => [tmp[2], tmp[3], o[0], o[1]],
            _ => [tmp[3], o[0], o[1], o[2]],
        }
    }

    #[cfg(test)]
    /// `curand(&state)`: the next word.
    pub(crate) fn next_word(&mut self) -> u32 {
        let v = self.output[self.word.min(3) as usize];
        self.word += 1;
        if self.word == 4 {
            self.incr();
            self.output = philox4x32_10(self.ctr, self.key);
            self.word = 0;
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random123_known_answers() {
        // Known-answer vectors of Random123's philox4x32_10 (kat_vectors).
        assert_eq!(
            philox4x32_10([0; 4], [0; 2]),
            [0x6627_e8d5, 0xe169_c58d, 0xbc57_ac4c, 0x9b00_dbd8]
        );
        assert_eq!(
            philox4x32_10([u32::MAX; 4], [u32::MAX; 2]),
            [0x408f_276d, 0x41c8_3b0e, 0xa20b_c7c6, 0x6d54_51fd]
        );
        assert_eq!(
            philox4x32_10(
                [0x243f_6a88, 0x85a3_08d3, 0x1319_8a2e, 0x0370_7344],
                [0xa409_3822, 0x299f_31d0]
            ),
            [0xd16c_fe09, 0x94fd_cceb, 0x5001_e420, 0x2412_6ea1]
        );
    }

    /// Every lane of [`philox4x32_10_lanes`] against the one-block function, for random
    /// counters and keys (high bits included).
    fn lanes_give_each_lanes_own_block<const L: usize>() {
        let mut x = 0x1234_5678_9abc_def0u64 ^ L as u64;
        let mut next = || {
            // xorshift64
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..100 {
            let key = [next() as u32, next() as u32];
            let ctr: [[u32; L]; 4] =
                std::array::from_fn(|_| std::array::from_fn(|_| next() as u32));
            let got = philox4x32_10_lanes(ctr, key);
            for lane in 0..L {
                let one = philox4x32_10(ctr.map(|w| w[lane]), key);
                assert_eq!(got.map(|w| w[lane]), one, "lane {lane} of {L}");
            }
        }
    }

    #[test]
    fn eight_and_sixteen_lanes_give_each_lanes_own_block() {
        lanes_give_each_lanes_own_block::<8>();
        lanes_give_each_lanes_own_block::<16>();
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx2_lanes_give_each_lanes_own_block() {
        use std::arch::x86_64::__m256i;
        if !crate::engine::numerics::fast::has_avx2_fma() {
            eprintln!("this CPU has no AVX2: the portable lanes serve it, tested above");
            return;
        }
        let mut x = 0x0f1e_2d3c_4b5a_6978u64;
        for _ in 0..1000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let key = [(x >> 32) as u32, x as u32];
            let ctr: [[u32; 8]; 4] = std::array::from_fn(|w| {
                std::array::from_fn(|l| (x.rotate_left(7 * w as u32 + l as u32) >> 16) as u32)
            });
            // SAFETY: [u32; 8] and __m256i are the same 32 plain bytes; the CPU has AVX2
            let got = unsafe {
                let lanes = ctr.map(|w| std::mem::transmute::<[u32; 8], __m256i>(w));
                philox4x32_10_x8(lanes, key).map(|w| std::mem::transmute::<__m256i, [u32; 8]>(w))
            };
            for lane in 0..8 {
                let one = philox4x32_10(ctr.map(|w| w[lane]), key);
                assert_eq!(got.map(|w| w[lane]), one, "lane {lane} of the AVX2 form");
            }
        }
    }

    #[test]
    fn offsets_inside_a_block_shift_the_words() {
        let mut a = PhiloxState::new(42, 7, 0);
        let words: Vec<u32> = (0..12).map(|_| a.next_word()).collect();
        for off in 0..8u64 {
            let mut b = PhiloxState::new(42, 7, off);
            let got = b.next4();
            assert_eq!(got.to_vec(), words[off as usize..off as usize + 4].to_vec());
        }
    }
}
