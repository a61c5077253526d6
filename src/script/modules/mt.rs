//! `_random`: CPython's Mersenne Twister core (Modules/_randommodule.c), so a seeded script
//! prints CPython's numbers: MT19937 seeded by `init_by_array` with the seed's 32-bit words,
//! `random()` from two draws (27 + 26 bits), `getrandbits(k)` filled from the least significant
//! word up. `random.py` (the prelude next to this file) builds CPython's algorithms on it.
//! String seeds go through SHA-512 as `random.seed(str)` does (version 2).

use std::cell::RefCell;
use std::rc::Rc;

use num_bigint::{BigInt, BigUint, Sign};
use num_traits::Signed;

use crate::script::ExcType;
use crate::script::errors::{PyException, PyResult};
use crate::script::native::{NativeCx, NativeObject};
use crate::script::value::{Module, Value};

const N: usize = 624;
const M: usize = 397;

/// The generator state.
#[derive(Clone)]
pub(crate) struct Mt19937 {
    mt: [u32; N],
    index: usize,
}

impl Mt19937 {
    /// `init_genrand`: the state numpy's legacy `RandomState(seed)` starts from, and the
    /// base that `init_by_array` mixes a key into.
    pub(crate) fn init_genrand(s: u32) -> Mt19937 {
        let mut mt = [0u32; N];
        mt[0] = s;
        for i in 1..N {
            mt[i] = 1_812_433_253u32
                .wrapping_mul(mt[i - 1] ^ (mt[i - 1] >> 30))
                .wrapping_add(i as u32);
        }
        Mt19937 { mt, index: N }
    }

    /// `init_by_array` (key never empty: a zero seed is the key `[0]`).
    pub(crate) fn from_key(key: &[u32]) -> Mt19937 {
        let mut g = Mt19937::init_genrand(19_650_218);
        let mt = &mut g.mt;
        let (mut i, mut j) = (1usize, 0usize);
        let len = key.len().max(1);
        for _ in 0..N.max(len) {
            let prev = mt[i - 1] ^ (mt[i - 1] >> 30);
            mt[i] = (mt[i] ^ prev.wrapping_mul(1_664_525))
                .wrapping_add(key.get(j).copied().unwrap_or(0))
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
            if j >= len {
                j = 0;
            }
        }
        for _ in 0..N - 1 {
            let prev = mt[i - 1] ^ (mt[i - 1] >> 30);
            mt[i] = (mt[i] ^ prev.wrapping_mul(1_566_083_941)).wrapping_sub(i as u32);
            i += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
        }
        mt[0] = 0x8000_0000;
        g
    }

    /// Seeded by a non-negative integer: its 32-bit words, least significant first.
    pub(crate) fn from_seed(n: &BigUint) -> Mt19937 {
        let mut key = n.to_u32_digits();
        if key.is_empty() {
            key.push(0);
        }
        Mt19937::from_key(&key)
    }

    pub(crate) fn next_u32(&mut self) -> u32 {
        const UPPER: u32 = 0x8000_0000;
        const LOWER: u32 = 0x7fff_ffff;
        const MATRIX_A: u32 = 0x9908_b0df;
        if self.index >= N {
            let mt = &mut self.mt;
            for kk in 0..N {
                let y = (mt[kk] & UPPER) | (mt[(kk + 1) % N] & LOWER);
                let mag = if y & 1 == 1 { MATRIX_A } else { 0 };
                mt[kk] = mt[(kk + M) % N] ^ (y >> 1) ^ mag;
            }
            self.index = 0;
        }
        let mut y = self.mt[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// A float in [0, 1) with 53 random bits.
    pub(crate) fn random(&mut self) -> f64 {
        let a = (self.next_u32() >> 5) as f64;
        let b = (self.next_u32() >> 6) as f64;
        (a * 67_108_864.0 + b) * (1.0 / 9_007_199_254_740_992.0)
    }

    /// `getrandbits(k)` for k >= 1.
    pub(crate) fn getrandbits(&mut self, k: u64) -> BigUint {
        if k <= 32 {
            return BigUint::from(self.next_u32() >> (32 - k));
        }
        let words = (k - 1) / 32 + 1;
        let mut left = k;
        let mut out = Vec::with_capacity(words as usize);
        for _ in 0..words {
            let mut r = self.next_u32();
            if left < 32 {
                r >>= 32 - left;
            }
            out.push(r);
            left = left.saturating_sub(32);
        }
        BigUint::from_slice(&out)
    }
}

/// SHA-512 (FIPS 180-4), for string seeds.
pub(crate) fn sha512(data: &[u8]) -> [u8; 64] {
    const K: [u64; 80] = [
        0x428a2f98d728ae22,
        0x7137449123ef65cd,
        0xb5c0fbcfec4d3b2f,
        0xe9b5dba58189dbbc,
        0x3956c25bf348b538,
        0x59f111f1b605d019,
        0x923f82a4af194f9b,
        0xab1c5ed5da6d8118,
        0xd807aa98a3030242,
        0x12835b0145706fbe,
        0x243185be4ee4b28c,
        0x550c7dc3d5ffb4e2,
        0x72be5d74f27b896f,
        0x80deb1fe3b1696b1,
        0x9bdc06a725c71235,
        0xc19bf174cf692694,
        0xe49b69c19ef14ad2,
        0xefbe4786384f25e3,
        0x0fc19dc68b8cd5b5,
        0x240ca1cc77ac9c65,
        0x2de92c6f592b0275,
        0x4a7484aa6ea6e483,
        0x5cb0a9dcbd41fbd4,
        0x76f988da831153b5,
        0x983e5152ee66dfab,
        0xa831c66d2db43210,
        0xb00327c898fb213f,
        0xbf597fc7beef0ee4,
        0xc6e00bf33da88fc2,
        0xd5a79147930aa725,
        0x06ca6351e003826f,
        0x142929670a0e6e70,
        0x27b70a8546d22ffc,
        0x2e1b21385c26c926,
        0x4d2c6dfc5ac42aed,
        0x53380d139d95b3df,
        0x650a73548baf63de,
        0x766a0abb3c77b2a8,
        0x81c2c92e47edaee6,
        0x92722c851482353b,
        0xa2bfe8a14cf10364,
        0xa81a664bbc423001,
        0xc24b8b70d0f89791,
        0xc76c51a30654be30,
        0xd192e819d6ef5218,
        0xd69906245565a910,
        0xf40e35855771202a,
        0x106aa07032bbd1b8,
        0x19a4c116b8d2d0c8,
        0x1e376c085141ab53,
        0x2748774cdf8eeb99,
        0x34b0bcb5e19b48a8,
        0x391c0cb3c5c95a63,
        0x4ed8aa4ae3418acb,
        0x5b9cca4f7763e373,
        0x682e6ff3d6b2b8a3,
        0x748f82ee5defb2fc,
        0x78a5636f43172f60,
        0x84c87814a1f0ab72,
        0x8cc702081a6439ec,
        0x90befffa23631e28,
        0xa4506cebde82bde9,
        0xbef9a3f7b2c67915,
        0xc67178f2e372532b,
        0xca273eceea26619c,
        0xd186b8c721c0c207,
        0xeada7dd6cde0eb1e,
        0xf57d4f7fee6ed178,
        0x06f067aa72176fba,
        0x0a637dc5a2c898a6,
        0x113f9804bef90dae,
        0x1b710b35131c471b,
        0x28db77f523047d84,
        0x32caab7b40c72493,
        0x3c9ebe0a15c9bebc,
        0x431d67c49c100d4c,
        0x4cc5d4becb3e42b6,
        0x597f299cfc657e2a,
        0x5fcb6fab3ad6faec,
        0x6c44198c4a475817,
    ];
    let mut h: [u64; 8] = [
        0x6a09e667f3bcc908,
        0xbb67ae8584caa73b,
        0x3c6ef372fe94f82b,
        0xa54ff53a5f1d36f1,
        0x510e527fade682d1,
        0x9b05688c2b3e6c1f,
        0x1f83d9abfb41bd6b,
        0x5be0cd19137e2179,
    ];
    let mut msg = data.to_vec();
    let bit_len = (data.len() as u128) * 8;
    msg.push(0x80);
    while msg.len() % 128 != 112 {
        msg.push(0);
    }
    msg.extend_from_slice(&bit_len.to_be_bytes());
    for block in msg.chunks_exact(128) {
        let mut w = [0u64; 80];
        for (t, word) in block.chunks_exact(8).enumerate() {
            let mut b = [0u8; 8];
            b.copy_from_slice(word);
            w[t] = u64::from_be_bytes(b);
        }
        for t in 16..80 {
            let s0 = w[t - 15].rotate_right(1) ^ w[t - 15].rotate_right(8) ^ (w[t - 15] >> 7);
            let s1 = w[t - 2].rotate_right(19) ^ w[t - 2].rotate_right(61) ^ (w[t - 2] >> 6);
            w[t] = w[t - 16]
                .wrapping_add(s0)
                .wrapping_add(w[t - 7])
                .wrapping_add(s1);
        }
        let mut v = h;
        for t in 0..80 {
            let s1 = v[4].rotate_right(14) ^ v[4].rotate_right(18) ^ v[4].rotate_right(41);
            let ch = (v[4] & v[5]) ^ (!v[4] & v[6]);
            let t1 = v[7]
                .wrapping_add(s1)
                .wrapping_add(ch)
                .wrapping_add(K[t])
                .wrapping_add(w[t]);
            let s0 = v[0].rotate_right(28) ^ v[0].rotate_right(34) ^ v[0].rotate_right(39);
            let maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
            let t2 = s0.wrapping_add(maj);
            v[7] = v[6];
            v[6] = v[5];
            v[5] = v[4];
            v[4] = v[3].wrapping_add(t1);
            v[3] = v[2];
            v[2] = v[1];
            v[1] = v[0];
            v[0] = t1.wrapping_add(t2);
        }
        for (x, y) in h.iter_mut().zip(v) {
            *x = x.wrapping_add(y);
        }
    }
    let mut out = [0u8; 64];
    for (i, x) in h.iter().enumerate() {
        out[i * 8..i * 8 + 8].copy_from_slice(&x.to_be_bytes());
    }
    out
}

/// `random.seed(s)` for a str (version 2): `int.from_bytes(s + sha512(s).digest(), 'big')`.
fn str_seed(s: &str) -> BigUint {
    let mut bytes = s.as_bytes().to_vec();
    bytes.extend_from_slice(&sha512(s.as_bytes()));
    BigUint::from_bytes_be(&bytes)
}

/// What `random.seed()` without an argument uses: CPython reads os.urandom; runs here are
/// reproducible instead.
const DEFAULT_SEED: u32 = 0x2545_f491;

/// `_random.Random`'s state as a native object (`random.py` keeps one per `Random`).
struct Core(RefCell<Mt19937>);

fn core_of(v: &Rc<dyn NativeObject>) -> PyResult<&Core> {
    v.as_any()
        .downcast_ref::<Core>()
        .ok_or_else(|| PyException::type_error("not a random generator"))
}

fn as_big(v: &Value) -> Option<BigInt> {
    match v {
        Value::Int(i) => Some(BigInt::from(*i)),
        Value::Bool(b) => Some(BigInt::from(*b as i64)),
        Value::BigInt(b) => Some((**b).clone()),
        _ => None,
    }
}

impl NativeObject for Core {
    fn type_name(&self) -> &str {
        "Random"
    }
    fn getattr(&self, NativeCx { this, .. }: NativeCx<'_>, name: &str) -> PyResult<Option<Value>> {
        let this = this.clone();
        Ok(Some(match name {
            "random" => Value::native_fn("random", move |_it, args| {
                args.exact("random", 0)?;
                Ok(Value::Float(core_of(&this)?.0.borrow_mut().random()))
            }),
            "getrandbits" => Value::native_fn("getrandbits", move |_it, args| {
                let a = args.exact("getrandbits", 1)?;
                let k = match &a[0] {
                    Value::Int(k) => *k,
                    Value::Bool(b) => *b as i64,
                    Value::BigInt(_) => {
                        return Err(PyException::new(
                            ExcType::OverflowError,
                            "Python int too large to convert to C int",
                        ));
                    }
                    other => {
                        return Err(PyException::not_an_integer(other.type_name()));
                    }
                };
                if k < 0 {
                    return Err(PyException::value_error(
                        "number of bits must be non-negative",
                    ));
                }
                if k == 0 {
                    return Ok(Value::Int(0));
                }
                if k > crate::script::bigint::MAX_BITS as i64 {
                    return Err(PyException::new(ExcType::MemoryError, ""));
                }
                let n = core_of(&this)?.0.borrow_mut().getrandbits(k as u64);
                crate::script::bigint::value(BigInt::from_biguint(Sign::Plus, n))
            }),
            "seed" => Value::native_fn("seed", move |it, args| {
                let a = args.exact("seed", 1)?;
                let n: BigUint = match &a[0] {
                    Value::None => BigUint::from(DEFAULT_SEED),
                    Value::Str(s) => str_seed(s),
                    v => match as_big(v) {
                        Some(b) => b.abs().to_biguint().unwrap_or_default(),
                        // Anything else seeds with its hash, read as an unsigned size_t.
                        None => {
                            let h = it.hkey(v)?.py_hash();
                            BigUint::from(h as u64)
                        }
                    },
                };
                *core_of(&this)?.0.borrow_mut() = Mt19937::from_seed(&n);
                Ok(Value::None)
            }),
            "getstate" => Value::native_fn("getstate", move |_it, args| {
                args.exact("getstate", 0)?;
                let g = core_of(&this)?.0.borrow();
                let mut items: Vec<Value> =
                    g.mt.iter().map(|w| Value::Int(i64::from(*w))).collect();
                items.push(Value::Int(g.index as i64));
                Ok(Value::tuple(items))
            }),
            "setstate" => Value::native_fn("setstate", move |_it, args| {
                let a = args.exact("setstate", 1)?;
                let items = match &a[0] {
                    Value::Tuple(t) => t.to_vec(),
                    _ => return Err(PyException::type_error("state vector must be a tuple")),
                };
                if items.len() != N + 1 {
                    return Err(PyException::value_error("state vector is the wrong size"));
                }
                let mut g = Mt19937 {
                    mt: [0; N],
                    index: 0,
                };
                for (i, v) in items.iter().enumerate() {
                    let w = as_big(v)
                        .and_then(|b| u32::try_from(&b).ok())
                        .ok_or_else(|| {
                            PyException::new(
                                ExcType::OverflowError,
                                "Python int too large to convert to C unsigned long",
                            )
                        })?;
                    if i < N {
                        g.mt[i] = w;
                    } else {
                        if w as usize > N {
                            return Err(PyException::value_error("invalid state"));
                        }
                        g.index = w as usize;
                    }
                }
                *core_of(&this)?.0.borrow_mut() = g;
                Ok(Value::None)
            }),
            _ => return Ok(None),
        }))
    }
}

/// The `_random` module: `Core()` makes a generator seeded as `seed()` without an argument.
pub(crate) fn module() -> Value {
    let m = Module::new("_random");
    m.add_fn("Core", |_it, args| {
        args.exact("Core", 0)?;
        Ok(Value::native(Core(RefCell::new(Mt19937::from_seed(
            &BigUint::from(DEFAULT_SEED),
        )))))
    });
    m.into_value()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha512_matches_the_standard_vectors() {
        let hex = |b: &[u8]| b.iter().map(|x| format!("{x:02x}")).collect::<String>();
        assert_eq!(
            hex(&sha512(b"abc")),
            "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a\
             2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"
        );
        assert_eq!(
            hex(&sha512(b"")),
            "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce\
             47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e"
        );
        // Two blocks (the padding spills over).
        let long = vec![b'a'; 200];
        assert_eq!(hex(&sha512(&long)).len(), 128);
    }

    #[test]
    fn the_reference_mt19937_stream() {
        // The reference implementation's first outputs for init_by_array({0x123, 0x234,
        // 0x345, 0x456}) (mt19937ar.out).
        let mut g = Mt19937::from_key(&[0x123, 0x234, 0x345, 0x456]);
        let first: Vec<u32> = (0..5).map(|_| g.next_u32()).collect();
        assert_eq!(
            first,
            [1067595299, 955945823, 477289528, 4107218783, 4228976476]
        );
    }
}
