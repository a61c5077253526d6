//! `np.random.default_rng(seed)`: numpy's `Generator` over a `PCG64` bit generator, as numpy
//! 2.4 computes it, so a seeded script prints numpy's numbers.
//!
//! - Seeding: `SeedSequence(seed)` (the entropy's 32-bit words mixed into a pool of four by
//!   numpy's hashmix/mix), `generate_state(4, uint64)` gives PCG64's 128-bit state and
//!   increment; `pcg_setseq_128_srandom_r` then steps twice. Without a seed, 128 bits from the OS.
//! - PCG64: 128-bit LCG, XSL-RR output of the stepped state; `next32` hands out the two halves
//!   of one 64-bit draw (low half first).
//! - `random`: 53 high bits of a 64-bit draw; `integers`: Lemire's bounded method (32-bit
//!   draws for ranges below 2**32); `normal`/`standard_normal`: numpy's 256-layer ziggurat;
//!   `shuffle`/`permutation`: Fisher-Yates with `random_interval`'s masked rejection;
//!   `choice`: numpy's branches (integers with replacement, a cdf search with `p`, Floyd's
//!   sampling or a tail shuffle without replacement).

use super::array::{NdArray, err, np_value, numel};
use super::bit_stream::{
    BitStream, generator_object, sample_larger_than_population, shuffle_rows, size_arg,
    sized_draws, sized_result,
};
use crate::engine::dtype::DType;
use crate::script::ExcType;
use crate::script::{Args, Interpreter, NativeObject, PyResult, Value};
use std::cell::RefCell;
use std::sync::OnceLock;

// ---- SeedSequence (numpy/random/bit_generator.pyx) ----
const INIT_A: u32 = 0x43b0_d7e5;
const MULT_A: u32 = 0x931e_8875;
const INIT_B: u32 = 0x8b51_f9dd;
const MULT_B: u32 = 0x58f3_8ded;
const MIX_MULT_L: u32 = 0xca01_f9dd;
const MIX_MULT_R: u32 = 0x4973_f715;
const XSHIFT: u32 = 16;
const POOL_SIZE: usize = 4;

fn hashmix(value: u32, hash_const: &mut u32) -> u32 {
    let mut v = value ^ *hash_const;
    *hash_const = hash_const.wrapping_mul(MULT_A);
    v = v.wrapping_mul(*hash_const);
    v ^ (v >> XSHIFT)
}

fn mix(x: u32, y: u32) -> u32 {
    let r = MIX_MULT_L
        .wrapping_mul(x)
        .wrapping_sub(MIX_MULT_R.wrapping_mul(y));
    r ^ (r >> XSHIFT)
}

/// The pool `SeedSequence(entropy)` mixes its entropy words into.
fn seed_pool(entropy: &[u32]) -> [u32; POOL_SIZE] {
    let mut pool = [0u32; POOL_SIZE];
    let mut hc = INIT_A;
    for (i, slot) in pool.iter_mut().enumerate() {
        *slot = hashmix(entropy.get(i).copied().unwrap_or(0), &mut hc);
    }
    for src in 0..POOL_SIZE {
        for dst in 0..POOL_SIZE {
            if src != dst {
                let h = hashmix(pool[src], &mut hc);
                pool[dst] = mix(pool[dst], h);
            }
        }
    }
    for &word in entropy.iter().skip(POOL_SIZE) {
        for dst in pool.iter_mut() {
            let h = hashmix(word, &mut hc);
            *dst = mix(*dst, h);
        }
    }
    pool
}

/// `SeedSequence.generate_state(n64, np.uint64)`.
fn generate_state(pool: &[u32; POOL_SIZE], n64: usize) -> Vec<u64> {
    let mut hc = INIT_B;
    let words: Vec<u32> = (0..n64 * 2)
        .map(|i| {
            let mut v = pool[i % POOL_SIZE] ^ hc;
            hc = hc.wrapping_mul(MULT_B);
            v = v.wrapping_mul(hc);
            v ^ (v >> XSHIFT)
        })
        .collect();
    words
        .chunks(2)
        .map(|w| w[0] as u64 | ((w[1] as u64) << 32))
        .collect()
}

// ---- PCG64 (numpy/random/src/pcg64/pcg64.h) ----
const PCG_MULT: u128 = (2_549_297_995_355_413_924u128 << 64) | 4_865_540_595_714_422_341u128;

#[derive(Clone)]
pub(crate) struct Pcg64 {
    state: u128,
    inc: u128,
    has_uint32: bool,
    uinteger: u32,
}

impl Pcg64 {
    fn from_entropy(entropy: &[u32]) -> Pcg64 {
        let v = generate_state(&seed_pool(entropy), 4);
        let initstate = ((v[0] as u128) << 64) | v[1] as u128;
        let initseq = ((v[2] as u128) << 64) | v[3] as u128;
        let mut g = Pcg64 {
            state: 0,
            inc: (initseq << 1) | 1,
            has_uint32: false,
            uinteger: 0,
        };
        g.step();
        g.state = g.state.wrapping_add(initstate);
        g.step();
        g
    }

    fn step(&mut self) {
        self.state = self.state.wrapping_mul(PCG_MULT).wrapping_add(self.inc);
    }

    pub(crate) fn next_double(&mut self) -> f64 {
        (self.next64() >> 11) as f64 * (1.0 / 9_007_199_254_740_992.0)
    }

    fn next_float(&mut self) -> f32 {
        (self.next32() >> 8) as f32 * (1.0f32 / 16_777_216.0f32)
    }

    /// Lemire's bounded draw in [0, rng] on `bits`-bit draws, as numpy writes it twice:
    /// `buffered_bounded_lemire_uint32` (bits 32, rng < 2**32 - 1, on `next32`) and
    /// `bounded_lemire_uint64` (bits 64, rng < 2**64 - 1, on `next64`). The product of a draw
    /// and `rng + 1` fits in 128 bits for both; its low `bits` are the leftover, its high ones
    /// the value.
    fn lemire(&mut self, rng: u64, bits: u32) -> u64 {
        let low = u64::MAX >> (64 - bits);
        let excl = rng + 1;
        let draw = |g: &mut Pcg64| {
            let d = if bits == 32 {
                g.next32() as u64
            } else {
                g.next64()
            };
            d as u128 * excl as u128
        };
        let mut m = draw(self);
        let mut leftover = m as u64 & low;
        if leftover < excl {
            let threshold = (low - rng) % excl;
            while leftover < threshold {
                m = draw(self);
                leftover = m as u64 & low;
            }
        }
        (m >> bits) as u64
    }

    /// `random_bounded_uint64(off=0, rng)` without the mask: one value in [0, rng].
    pub(crate) fn bounded(&mut self, rng: u64) -> u64 {
        if rng == 0 {
            0
        } else if rng <= 0xffff_ffff {
            if rng == 0xffff_ffff {
                self.next32() as u64
            } else {
                self.lemire(rng, 32)
            }
        } else if rng == u64::MAX {
            self.next64()
        } else {
            self.lemire(rng, 64)
        }
    }

    /// `random_standard_normal`: the 256-layer ziggurat.
    pub(crate) fn standard_normal(&mut self) -> f64 {
        let z = ziggurat();
        loop {
            let mut r = self.next64();
            let idx = (r & 0xff) as usize;
            r >>= 8;
            let sign = r & 1;
            let rabs = (r >> 1) & 0x000f_ffff_ffff_ffff;
            let mut x = rabs as f64 * z.wi[idx];
            if sign & 1 != 0 {
                x = -x;
            }
            if rabs < z.ki[idx] {
                return x;
            }
            if idx == 0 {
                loop {
                    let xx = -ZIG_INV_R * (-self.next_double()).ln_1p();
                    let yy = -(-self.next_double()).ln_1p();
                    if yy + yy > xx * xx {
                        return if (rabs >> 8) & 1 != 0 {
                            -(ZIG_R + xx)
                        } else {
                            ZIG_R + xx
                        };
                    }
                }
            } else if (z.fi[idx - 1] - z.fi[idx]) * self.next_double() + z.fi[idx]
                < (-0.5 * x * x).exp()
            {
                return x;
            }
        }
    }
}

// ---- the ziggurat tables ----
// numpy's ziggurat_constants.h spells it with one digit more than f64 keeps.
#[allow(clippy::excessive_precision)]
const ZIG_R: f64 = 3.654_152_885_361_008_8;
const ZIG_INV_R: f64 = 1.0 / ZIG_R;

struct Ziggurat {
    ki: [u64; 256],
    wi: [f64; 256],
    fi: [f64; 256],
}

/// numpy's tables for the normal ziggurat, rebuilt by Marsaglia and Tsang's recurrence
/// x' = sqrt(-2 ln(v/x + f(x))), f(x) = exp(-x²/2), from the base x = r with the layer area
/// v = 0.004928673233974652, in doubles: ki = round(2**52 x_{i+1}/x_i), wi = x/2**52, fi = f(x).
/// numpy's constants were computed with a slightly different libm: two of its entries differ
/// from this recurrence (x at step 218 is two ulps lower, f at table index 38 one ulp higher);
/// both are applied here, so every entry equals numpy's (checked entry by entry against
/// numpy 2.4's ziggurat_constants.h when this was written).
fn ziggurat() -> &'static Ziggurat {
    static Z: OnceLock<Ziggurat> = OnceLock::new();
    Z.get_or_init(|| {
        let v = 0.004_928_673_233_974_652f64;
        let m1 = 4_503_599_627_370_496.0f64; // 2**52
        let mut xs = [0.0f64; 255];
        xs[0] = ZIG_R;
        for k in 1..255 {
            let x = xs[k - 1];
            let mut next = (-2.0 * (v / x + (-0.5 * x * x).exp()).ln()).sqrt();
            if k == 218 {
                next = f64::from_bits(next.to_bits() - 2);
            }
            xs[k] = next;
        }
        let mut z = Ziggurat {
            ki: [0; 256],
            wi: [0.0; 256],
            fi: [0.0; 256],
        };
        let q = v / (-0.5 * ZIG_R * ZIG_R).exp();
        z.wi[0] = q / m1;
        z.ki[0] = ((ZIG_R / q) * m1) as u64;
        z.fi[0] = 1.0;
        for j in 1..256 {
            let x = xs[255 - j];
            z.wi[j] = x / m1;
            z.fi[j] = (-0.5 * x * x).exp();
            if j == 38 {
                z.fi[j] = f64::from_bits(z.fi[j].to_bits() + 1);
            }
        }
        for j in 2..256 {
            z.ki[j] = ((xs[256 - j] / xs[255 - j]) * m1).round() as u64;
        }
        z
    })
}

// ---- the Python object ----
impl BitStream for Pcg64 {
    fn next64(&mut self) -> u64 {
        self.step();
        let s = self.state;
        let x = ((s >> 64) as u64) ^ (s as u64);
        x.rotate_right((s >> 122) as u32)
    }

    fn next32(&mut self) -> u32 {
        if self.has_uint32 {
            self.has_uint32 = false;
            return self.uinteger;
        }
        let next = self.next64();
        self.has_uint32 = true;
        self.uinteger = (next >> 32) as u32;
        next as u32
    }
}

pub(crate) struct Generator(pub RefCell<Pcg64>);

fn os_entropy() -> Vec<u32> {
    use std::io::Read;
    let mut bytes = [0u8; 16];
    let ok = std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .is_ok();
    if !ok {
        use std::hash::{BuildHasher, Hasher};
        for chunk in bytes.chunks_mut(8) {
            let mut h = std::collections::hash_map::RandomState::new().build_hasher();
            h.write_u8(0);
            chunk.copy_from_slice(&h.finish().to_le_bytes());
        }
    }
    bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// The 32-bit words of a seed (`_coerce_to_uint32_array`): an int's words low first, a
/// sequence's elements' words one after the other.
fn entropy_words(it: &mut Interpreter, seed: &Value, out: &mut Vec<u32>) -> PyResult<()> {
    match seed {
        Value::Float(_) => Err(err(ExcType::TypeError, "seed must be integer")),
        Value::List(_) | Value::Tuple(_) => {
            for v in it.iterate(seed)? {
                entropy_words(it, &v, out)?;
            }
            Ok(())
        }
        _ => {
            if let Some(arr) = seed.downcast::<NdArray>() {
                for v in arr.values()? {
                    entropy_words(it, &Value::Int(v as i64), out)?;
                }
                return Ok(());
            }
            let n = big_index(it, seed).map_err(|_| {
                err(
                    ExcType::TypeError,
                    format!(
                        "SeedSequence expects int or sequence of ints for entropy not {}",
                        it.repr(seed).unwrap_or_default()
                    ),
                )
            })?;
            if n.sign() == num_bigint::Sign::Minus {
                return Err(err(ExcType::ValueError, "expected non-negative integer"));
            }
            let digits = n.to_u32_digits().1;
            if digits.is_empty() {
                out.push(0);
            } else {
                out.extend(digits);
            }
            Ok(())
        }
    }
}

pub(crate) fn default_rng(it: &mut Interpreter, args: Args) -> PyResult<Value> {
    let a = args.bind("default_rng", &["seed"], 0)?;
    let entropy = match &a[0] {
        None | Some(Value::None) => os_entropy(),
        Some(v) => {
            if v.downcast::<Generator>().is_some() {
                return Ok(v.clone());
            }
            // SeedSequence's own check comes first: an int or a sequence of ints
            if matches!(v, Value::Float(_) | Value::Str(_)) {
                return Err(err(
                    ExcType::TypeError,
                    format!(
                        "SeedSequence expects int or sequence of ints for entropy not {}",
                        it.str(v)?
                    ),
                ));
            }
            let mut words = Vec::new();
            entropy_words(it, v, &mut words)?;
            words
        }
    };
    Ok(Value::native(Generator(RefCell::new(Pcg64::from_entropy(
        &entropy,
    )))))
}

/// A scalar float argument; an array one (numpy would broadcast it) is not supported.
fn scalar_f64(
    it: &mut Interpreter,
    v: &Option<Value>,
    default: f64,
    method: &str,
) -> PyResult<f64> {
    match v {
        None => Ok(default),
        Some(v) => {
            let o = super::ops::operand(it, v)?;
            if !o.shape.is_empty() || o.vals.len() != 1 {
                return Err(err(
                    ExcType::NotImplementedError,
                    format!("cudatutor's Generator.{method} takes scalar arguments only"),
                ));
            }
            Ok(o.vals[0])
        }
    }
}

fn dtype_name(it: &mut Interpreter, v: &Option<Value>) -> PyResult<Option<String>> {
    match v {
        None | Some(Value::None) => Ok(None),
        Some(v) => {
            let s = match v {
                Value::Str(s) => s.to_string(),
                _ => {
                    let r = it.str(v)?;
                    r.trim_start_matches("<class '")
                        .trim_end_matches("'>")
                        .trim_start_matches("numpy.")
                        .to_string()
                }
            };
            Ok(Some(s))
        }
    }
}

/// An int of any size (numpy's `int(x)` of a seed word or a bound).
fn big_index(it: &mut Interpreter, v: &Value) -> PyResult<num_bigint::BigInt> {
    match v {
        Value::BigInt(b) => Ok((**b).clone()),
        _ => Ok(num_bigint::BigInt::from(it.index_int(v)?)),
    }
}

fn int64_arg(it: &mut Interpreter, v: &Value) -> PyResult<i128> {
    use num_traits::ToPrimitive;
    big_index(it, v)?
        .to_i128()
        .ok_or_else(|| err(ExcType::ValueError, "high is out of bounds for int64"))
}

fn call(it: &mut Interpreter, g: &Generator, name: &str, args: Args) -> PyResult<Value> {
    match name {
        "random" => {
            let a = args.bind("random", &["size", "dtype", "out"], 0)?;
            let size = size_arg(it, &a[0])?;
            match dtype_name(it, &a[1])?.as_deref() {
                None | Some("float64") | Some("float") | Some("double") => {
                    sized_draws(size, DType::Float64, || g.0.borrow_mut().next_double())
                }
                Some("float32") => sized_draws(size, DType::Float32, || {
                    g.0.borrow_mut().next_float() as f64
                }),
                Some(d) => Err(err(
                    ExcType::TypeError,
                    format!("Unsupported dtype dtype('{d}') for random"),
                )),
            }
        }
        "integers" => {
            let a = args.bind("integers", &["low", "high", "size", "dtype", "endpoint"], 1)?;
            let first = int64_arg(it, a[0].as_ref().unwrap())?;
            let (mut low, mut high) = match &a[1] {
                None | Some(Value::None) => (0, first),
                Some(v) => (first, int64_arg(it, v)?),
            };
            let closed = match &a[4] {
                Some(v) => it.truthy(v)?,
                None => false,
            };
            let dt = match dtype_name(it, &a[3])?.as_deref() {
                None | Some("int64") | Some("int") => DType::Int64,
                Some("int32") => DType::Int32,
                Some(d) => {
                    return Err(err(
                        ExcType::NotImplementedError,
                        format!("cudatutor's Generator.integers with dtype {d}"),
                    ));
                }
            };
            let (lb, ub) = if dt == DType::Int32 {
                (i32::MIN as i128, i32::MAX as i128)
            } else {
                (i64::MIN as i128, i64::MAX as i128)
            };
            let tname = if dt == DType::Int32 { "int32" } else { "int64" };
            if !closed {
                high -= 1;
            }
            if low < lb {
                return Err(err(
                    ExcType::ValueError,
                    format!("low is out of bounds for {tname}"),
                ));
            }
            if high > ub {
                return Err(err(
                    ExcType::ValueError,
                    format!("high is out of bounds for {tname}"),
                ));
            }
            if low > high {
                let msg = if low == 0 {
                    if closed { "high < 0" } else { "high <= 0" }
                } else if closed {
                    "low > high"
                } else {
                    "low >= high"
                };
                return Err(err(ExcType::ValueError, msg));
            }
            let size = size_arg(it, &a[2])?;
            let rng = (high - low) as u64;
            low = low.max(lb);
            sized_draws(size, dt, || {
                (low + g.0.borrow_mut().bounded(rng) as i128) as f64
            })
        }
        "standard_normal" => {
            let a = args.bind("standard_normal", &["size", "dtype", "out"], 0)?;
            if let Some(d) = dtype_name(it, &a[1])?
                && d != "float64"
                && d != "float"
            {
                return Err(err(
                    ExcType::NotImplementedError,
                    format!("cudatutor's Generator.standard_normal with dtype {d}"),
                ));
            }
            let size = size_arg(it, &a[0])?;
            sized_draws(size, DType::Float64, || g.0.borrow_mut().standard_normal())
        }
        "normal" => {
            let a = args.bind("normal", &["loc", "scale", "size"], 0)?;
            let loc = scalar_f64(it, &a[0], 0.0, "normal")?;
            let scale = scalar_f64(it, &a[1], 1.0, "normal")?;
            if scale < 0.0 || scale.is_nan() {
                return Err(err(ExcType::ValueError, "scale < 0"));
            }
            let size = size_arg(it, &a[2])?;
            sized_draws(size, DType::Float64, || {
                loc + scale * g.0.borrow_mut().standard_normal()
            })
        }
        "uniform" => {
            let a = args.bind("uniform", &["low", "high", "size"], 0)?;
            let low = scalar_f64(it, &a[0], 0.0, "uniform")?;
            let high = scalar_f64(it, &a[1], 1.0, "uniform")?;
            let range = high - low;
            if !range.is_finite() {
                return Err(err(
                    ExcType::OverflowError,
                    "high - low range exceeds valid bounds",
                ));
            }
            if range < 0.0 {
                return Err(err(ExcType::ValueError, "high - low < 0"));
            }
            let size = size_arg(it, &a[2])?;
            sized_draws(size, DType::Float64, || {
                low + range * g.0.borrow_mut().next_double()
            })
        }
        "shuffle" => {
            let a = args.bind("shuffle", &["x", "axis"], 1)?;
            shuffle(it, g, a[0].as_ref().unwrap())?;
            Ok(Value::None)
        }
        "permutation" => {
            let a = args.bind("permutation", &["x", "axis"], 1)?;
            let x = a[0].as_ref().unwrap();
            let arr = match x {
                Value::Int(n) => {
                    let n = (*n).max(0) as usize;
                    let vals: Vec<f64> = (0..n).map(|i| i as f64).collect();
                    NdArray::from_f64(&super::runtime(), &vals, vec![n], DType::Int64)?
                }
                _ => {
                    let src = super::funcs::as_array(it, x)?;
                    src.copy_as(src.dtype())?
                }
            };
            if arr.shape.len() <= 1 {
                shuffle_rows(&g.0, &arr)?;
                return Ok(Value::native(arr));
            }
            // n-d: a shuffled index (one random_interval per row, as a 1-d shuffle), then the rows
            let rows = arr.shape[0];
            let mut idx: Vec<usize> = (0..rows).collect();
            for i in (1..rows).rev() {
                let j = g.0.borrow_mut().interval(i as u64) as usize;
                idx.swap(i, j);
            }
            permute_rows(&arr, &idx)
        }
        "choice" => choice(it, g, args),
        "spawn"
        | "bytes"
        | "exponential"
        | "binomial"
        | "poisson"
        | "beta"
        | "gamma"
        | "multinomial"
        | "dirichlet"
        | "permuted"
        | "standard_exponential"
        | "lognormal"
        | "laplace"
        | "logistic"
        | "geometric" => Err(err(
            ExcType::NotImplementedError,
            format!("cudatutor's numpy Generator does not support {name}() yet"),
        )),
        _ => Err(err(
            ExcType::AttributeError,
            format!("'numpy.random._generator.Generator' object has no attribute '{name}'"),
        )),
    }
}

fn permute_rows(arr: &NdArray, idx: &[usize]) -> PyResult<Value> {
    let inner: usize = arr.shape[1..].iter().product();
    let vals = arr.values()?;
    let mut out = Vec::with_capacity(vals.len());
    for &r in idx {
        out.extend_from_slice(&vals[r * inner..(r + 1) * inner]);
    }
    Ok(Value::native(NdArray::from_f64(
        &super::runtime(),
        &out,
        arr.shape.clone(),
        arr.dtype(),
    )?))
}

fn shuffle(it: &mut Interpreter, g: &Generator, x: &Value) -> PyResult<()> {
    if let Some(arr) = x.downcast::<NdArray>() {
        return shuffle_rows(&g.0, arr);
    }
    if let Value::List(l) = x {
        let n = l.borrow().len();
        for i in (1..n).rev() {
            let j = g.0.borrow_mut().interval(i as u64) as usize;
            l.borrow_mut().swap(i, j);
        }
        return Ok(());
    }
    let tn = it.type_of(x).name.clone();
    Err(err(
        ExcType::NotImplementedError,
        format!("cudatutor's Generator.shuffle of a {tn} object"),
    ))
}

/// `_shuffle_int(n, first, data)`: i from n-1 down to `first` swaps with
/// random_bounded_uint64(0, i).
fn shuffle_int(g: &Generator, data: &mut [i64], first: usize) {
    let n = data.len();
    for i in (first..n).rev() {
        let j = g.0.borrow_mut().bounded(i as u64) as usize;
        data.swap(i, j);
    }
}

fn choice(it: &mut Interpreter, g: &Generator, args: Args) -> PyResult<Value> {
    let a = args.bind(
        "choice",
        &["a", "size", "replace", "p", "axis", "shuffle"],
        1,
    )?;
    let src = a[0].as_ref().unwrap();
    let size = size_arg(it, &a[1])?;
    let replace = match &a[2] {
        Some(v) => it.truthy(v)?,
        None => true,
    };
    let shuffle = match &a[5] {
        Some(v) => it.truthy(v)?,
        None => true,
    };
    let n_out = size.as_ref().map_or(1, |s| numel(s));
    // the population: an int n means range(n)
    let pool: Option<NdArray> = match src {
        Value::Int(_) | Value::BigInt(_) => None,
        _ => Some(super::funcs::as_array(it, src)?),
    };
    let pop_size = match &pool {
        None => {
            let n = it.index_int(src)?;
            if n <= 0 && n_out != 0 {
                return Err(err(
                    ExcType::ValueError,
                    "a must be a positive integer unless no samples are taken",
                ));
            }
            n.max(0) as usize
        }
        Some(p) => {
            if p.shape.is_empty() {
                return Err(err(
                    ExcType::ValueError,
                    "a must be a sequence or an integer, not <class 'numpy.ndarray'>",
                ));
            }
            let n = p.shape[0];
            if n == 0 && n_out != 0 {
                return Err(err(
                    ExcType::ValueError,
                    "a cannot be empty unless no samples are taken",
                ));
            }
            n
        }
    };
    let p: Option<Vec<f64>> = match a[3].as_ref().filter(|v| !v.is_none()) {
        None => None,
        Some(pv) => {
            let o = super::ops::operand(it, pv)?;
            if o.shape.len() != 1 {
                return Err(err(ExcType::ValueError, "p must be 1-dimensional"));
            }
            if o.vals.len() != pop_size {
                return Err(err(ExcType::ValueError, "a and p must have same size"));
            }
            // kahan_sum
            let mut sum = 0.0f64;
            let mut c = 0.0f64;
            for &x in &o.vals {
                let y = x - c;
                let t = sum + y;
                c = (t - sum) - y;
                sum = t;
            }
            if sum.is_nan() {
                return Err(err(ExcType::ValueError, "Probabilities contain NaN"));
            }
            if o.vals.iter().any(|&x| x < 0.0) {
                return Err(err(
                    ExcType::ValueError,
                    "Probabilities are not non-negative",
                ));
            }
            let atol = f64::EPSILON.sqrt();
            if (sum - 1.0).abs() > atol {
                return Err(err(
                    ExcType::ValueError,
                    "Probabilities do not sum to 1. See Notes section of docstring for more information.",
                ));
            }
            Some(o.vals)
        }
    };
    let cdf_of = |p: &[f64]| -> Vec<f64> {
        let mut cdf = Vec::with_capacity(p.len());
        let mut s = 0.0;
        for &x in p {
            s += x;
            cdf.push(s);
        }
        let last = *cdf.last().unwrap_or(&1.0);
        cdf.iter().map(|c| c / last).collect()
    };
    // searchsorted(cdf, u, side='right')
    let search = |cdf: &[f64], u: f64| -> i64 { cdf.partition_point(|&c| c <= u) as i64 };
    let idx: Vec<i64> = if replace {
        match &p {
            Some(p) => {
                let cdf = cdf_of(p);
                (0..n_out)
                    .map(|_| {
                        let u = g.0.borrow_mut().next_double();
                        search(&cdf, u)
                    })
                    .collect()
            }
            None => {
                let rng = pop_size as u64 - 1;
                (0..n_out)
                    .map(|_| g.0.borrow_mut().bounded(rng) as i64)
                    .collect()
            }
        }
    } else {
        if n_out > pop_size {
            return Err(sample_larger_than_population("replace is False"));
        }
        match &p {
            Some(p) => {
                if p.iter().filter(|&&x| x > 0.0).count() < n_out {
                    return Err(err(
                        ExcType::ValueError,
                        "Fewer non-zero entries in p than size",
                    ));
                }
                let mut p = p.clone();
                let mut found: Vec<i64> = Vec::with_capacity(n_out);
                while found.len() < n_out {
                    let k = n_out - found.len();
                    let xs: Vec<f64> = (0..k).map(|_| g.0.borrow_mut().next_double()).collect();
                    for &f in &found {
                        p[f as usize] = 0.0;
                    }
                    let cdf = cdf_of(&p);
                    let mut seen = std::collections::HashSet::new();
                    for &x in &xs {
                        let v = search(&cdf, x);
                        if seen.insert(v) {
                            found.push(v);
                        }
                    }
                }
                found
            }
            None => {
                let size_i = n_out;
                let cutoff = if shuffle { 50 } else { 20 };
                if pop_size > 10000 && size_i > pop_size / cutoff {
                    let mut data: Vec<i64> = (0..pop_size as i64).collect();
                    shuffle_int(g, &mut data, (pop_size - size_i).max(1));
                    data[pop_size - size_i..].to_vec()
                } else {
                    // Floyd's algorithm
                    let mut set = std::collections::HashSet::new();
                    let mut data = vec![0i64; size_i];
                    for j in (pop_size - size_i)..pop_size {
                        let val = g.0.borrow_mut().bounded(j as u64) as i64;
                        let pick = if set.contains(&val) { j as i64 } else { val };
                        set.insert(pick);
                        data[j - pop_size + size_i] = pick;
                    }
                    if shuffle {
                        shuffle_int(g, &mut data, 1);
                    }
                    data
                }
            }
        }
    };
    match pool {
        None => {
            let vals: Vec<f64> = idx.iter().map(|&i| i as f64).collect();
            sized_result(vals, size, DType::Int64)
        }
        Some(pool) => {
            let inner: usize = pool.shape[1..].iter().product();
            let vals = pool.values()?;
            let mut picked = Vec::with_capacity(idx.len() * inner);
            for &i in &idx {
                let i = i as usize;
                picked.extend_from_slice(&vals[i * inner..(i + 1) * inner]);
            }
            match (&size, inner) {
                (None, 1) if pool.shape.len() == 1 => Ok(np_value(pool.dtype(), picked[0])),
                _ => {
                    let mut shape = size.clone().unwrap_or_default();
                    shape.extend_from_slice(&pool.shape[1..]);
                    Ok(Value::native(NdArray::from_f64(
                        &super::runtime(),
                        &picked,
                        shape,
                        pool.dtype(),
                    )?))
                }
            }
        }
    }
}

const METHODS: &[&str] = &[
    "random",
    "integers",
    "standard_normal",
    "normal",
    "uniform",
    "shuffle",
    "permutation",
    "choice",
    "spawn",
    "bytes",
    "exponential",
    "binomial",
    "poisson",
    "beta",
    "gamma",
    "multinomial",
    "dirichlet",
    "permuted",
    "standard_exponential",
    "lognormal",
    "laplace",
    "logistic",
    "geometric",
];

generator_object!(Generator, "Generator", "Generator(PCG64)", METHODS, call);

#[cfg(test)]
mod tests {
    use super::*;

    // Expected values printed by numpy 2.4.6 (`SeedSequence(s).generate_state(4, np.uint64)`,
    // `default_rng(s).bit_generator.state` / `random_raw()` / `standard_normal(5)`).
    #[test]
    fn seed_sequence_generates_numpy_state_words() {
        assert_eq!(
            generate_state(&seed_pool(&[0]), 4),
            vec![
                0xdb2c_d7e7_b0f4_78be,
                0xabf4_641a_2c71_ba49,
                0x20c6_ed6d_9d7b_8d41,
                0x2c40_99de_223c_39d4
            ]
        );
        // 2**70 + 5: three 32-bit words, low first
        assert_eq!(
            generate_state(&seed_pool(&[5, 0, 64]), 4),
            vec![
                0x0a14_346b_ef71_fe56,
                0x6c60_906e_9c13_de68,
                0x9b12_832d_9c9d_1cba,
                0x7c8f_cd31_6a15_af4e
            ]
        );
    }

    #[test]
    fn pcg64_seeded_state_and_raw_draws_match_numpy() {
        let g = Pcg64::from_entropy(&[12345]);
        assert_eq!(g.state, 33261208707367790463622745601869196757u128);
        assert_eq!(g.inc, 268209174141567072605526753992732310247u128);
        let mut g = Pcg64::from_entropy(&[42]);
        assert_eq!(
            [g.next64(), g.next64(), g.next64()],
            [
                0xc621_fbcd_16d9_2688,
                0x705a_5661_a791_ffc1,
                0xdbcd_12c2_6eda_1624
            ]
        );
    }

    #[test]
    fn ziggurat_normals_match_numpy_bits() {
        let mut g = Pcg64::from_entropy(&[42]);
        let got: Vec<f64> = (0..5).map(|_| g.standard_normal()).collect();
        assert_eq!(
            got,
            vec![
                0.30471707975443135,
                -1.0399841062404955,
                0.7504511958064572,
                0.9405647163912139,
                -1.9510351886538364
            ]
        );
    }
}
