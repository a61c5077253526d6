//! The in-place random fills of ATen's CPU backend (`uniform_`, `normal_`, `random_`,
//! `bernoulli_`, `exponential_`, ...): argument checks with PyTorch's messages, then the
//! kernels of native/cpu/DistributionTemplates.h, element by element in visit order.

use super::avx_mathfun;
use super::cpu_generator::CpuGenerator;
use super::elements::{ElementType, ElementsMut, polled, polled_blocks16, polled_mut};
use super::half::{f16_bits_to_f32, f32_to_f16_bits};
use super::messages::{cpp_double, py_float_repr};
use super::sampling::{self, CpuCapability};
use crate::engine::ErrorKind;
use crate::engine::numerics::fast::avx2_fma;
use crate::engine::numerics::lanes::Real;

/// A failed check, with the exception PyTorch raises.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RandomError {
    /// The exception PyTorch raises.
    pub kind: ErrorKind,
    pub message: String,
}

impl RandomError {
    pub(crate) fn runtime(message: impl Into<String>) -> Self {
        RandomError {
            kind: ErrorKind::RuntimeError,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for RandomError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.kind.name(), self.message)
    }
}

impl std::error::Error for RandomError {}

pub type Result<T> = std::result::Result<T, RandomError>;

/// ATen's dispatch error for a dtype a kernel has no version of.
pub(crate) fn not_implemented(what: &str, t: ElementType) -> RandomError {
    RandomError {
        kind: ErrorKind::NotImplementedError,
        message: format!("\"{what}\" not implemented for '{}'", t.scalar_type_name()),
    }
}

fn float_only(out: &ElementsMut, what: &str) -> Result<()> {
    let t = out.element_type();
    if t.is_floating() {
        Ok(())
    } else {
        Err(not_implemented(what, t))
    }
}

// ------------------------------------------------------------------ uniform_

/// The checks `uniform_` makes on every backend (ATen's `uniform_impl_`).
pub(crate) fn check_uniform_args(t: ElementType, from: f64, to: f64) -> Result<()> {
    if !t.is_floating() {
        return Err(not_implemented("check_uniform_bounds", t));
    }
    let (min, max) = t.limits_f64();
    let dtype = t.type_meta_name();
    if !(from >= min && from <= max) {
        return Err(RandomError::runtime(format!(
            "from is out of bounds for {dtype}"
        )));
    }
    if !(to >= min && to <= max) {
        return Err(RandomError::runtime(format!(
            "to is out of bounds for {dtype}"
        )));
    }
    if from > to {
        return Err(RandomError::runtime(format!(
            "uniform_ expects to return a [from, to) range, but found from={} > to={}",
            cpp_double(from),
            cpp_double(to)
        )));
    }
    if to - from > max {
        return Err(RandomError::runtime(format!(
            "uniform_ expects to-from <= std::numeric_limits<{}>::max(), but found to={} and from={} which result in to-from to exceed the limit",
            t.scalar_type_name(),
            cpp_double(to),
            cpp_double(from)
        )));
    }
    Ok(())
}

/// `tensor.uniform_(from, to)` (also `torch.rand`, `rand_like`: from 0 to 1).
pub fn uniform_(
    rng: &mut CpuGenerator,
    out: ElementsMut,
    from: f64,
    to: f64,
    cap: CpuCapability,
) -> Result<()> {
    check_uniform_args(out.element_type(), from, to)?;
    match out {
        // A sample that rounds up onto `to` becomes `from`, keeping the range half-open
        // (PyTorch's clamp after the cast to the element type).
        ElementsMut::F32(s) => {
            let (a, b) = (from as f32, to as f32);
            for v in polled_mut(s) {
                let x = sampling::uniform_f32(rng, a, b, cap);
                *v = if x == b { a } else { x };
            }
        }
        ElementsMut::F64(s) => {
            for v in polled_mut(s) {
                let x = sampling::uniform_f64(rng, from, to, cap);
                *v = if x == to { from } else { x };
            }
        }
        ElementsMut::F16(s) => {
            // Sampled in float (opmath), stored as half, then the same clamp.
            let (a, b) = (from as f32, to as f32);
            let to_half = f32_to_f16_bits(b);
            let from_half = f32_to_f16_bits(a);
            for v in polled_mut(s) {
                let h = f32_to_f16_bits(sampling::uniform_f32(rng, a, b, cap));
                *v = if same_half(h, to_half) { from_half } else { h };
            }
        }
        _ => unreachable!("checked floating above"),
    }
    Ok(())
}

fn same_half(a: u16, b: u16) -> bool {
    f16_bits_to_f32(a) == f16_bits_to_f32(b)
}

// ------------------------------------------------------------------- normal_

/// How `normal_` draws: ATen fills contiguous tensors of 16 or more elements with a
/// batched Box-Muller over 16 uniforms at a time, everything else one cached-pair sample
/// at a time (the two give different numbers for the same seed).
pub fn normal_uses_batches(numel: usize, contiguous: bool) -> bool {
    numel >= 16 && contiguous
}

/// `normal_`'s check on std (NaN passes, as in ATen: only std < 0 fails).
pub(crate) fn check_normal_std(std: f64) -> Result<()> {
    if std < 0.0 {
        return Err(RandomError::runtime(format!(
            "normal expects std >= 0.0, but found std {}",
            cpp_double(std)
        )));
    }
    Ok(())
}

/// `tensor.normal_(mean, std)` (also `torch.randn`, `randn_like`, `torch.normal(m, s, size)`).
/// `contiguous` is whether the tensor is (it selects the batched path, see
/// [`normal_uses_batches`]); `out` is in visit order.
pub fn normal_(
    rng: &mut CpuGenerator,
    out: ElementsMut,
    mean: f64,
    std: f64,
    contiguous: bool,
    cap: CpuCapability,
) -> Result<()> {
    check_normal_std(std)?;
    float_only(&out, "normal_kernel_cpu")?;
    if out.is_empty() {
        return Ok(());
    }
    if !normal_uses_batches(out.len(), contiguous) {
        let mut out = out;
        out.fill_from_f64(|| sampling::normal_f64(rng, mean, std, cap));
        return Ok(());
    }
    match out {
        ElementsMut::F32(s) => normal_fill_f32(rng, s, mean as f32, std as f32, cap),
        ElementsMut::F64(s) => normal_fill_f64(rng, s, mean, std, cap),
        ElementsMut::F16(s) => {
            // Sampled in float through a 16-element buffer, stored as half.
            let mut buf = [0f32; 16];
            let n = s.len();
            let mut i = 0;
            while i + 16 <= n {
                if i % crate::engine::interrupt::CHUNK == 0
                    && crate::engine::interrupt::should_stop()
                {
                    break;
                }
                for b in buf.iter_mut() {
                    *b = sampling::unit_f32(rng);
                }
                box_muller_16_f32(&mut buf, mean as f32, std as f32, cap);
                for (d, b) in s[i..i + 16].iter_mut().zip(buf.iter()) {
                    *d = f32_to_f16_bits(*b);
                }
                i += 16;
            }
            if !n.is_multiple_of(16) {
                for b in buf.iter_mut() {
                    *b = sampling::unit_f32(rng);
                }
                box_muller_16_f32(&mut buf, mean as f32, std as f32, cap);
                for (d, b) in s[n - 16..].iter_mut().zip(buf.iter()) {
                    *d = f32_to_f16_bits(*b);
                }
            }
        }
        _ => unreachable!("checked floating above"),
    }
    Ok(())
}

/// ATen's `normal_fill` for float: all uniforms first, then Box-Muller on each block of
/// 16 (pairs j and j+8); a ragged tail redraws the last 16 and transforms them again.
fn normal_fill_f32(
    rng: &mut CpuGenerator,
    data: &mut [f32],
    mean: f32,
    std: f32,
    cap: CpuCapability,
) {
    normal_fill(rng, data, sampling::unit_f32, |block| {
        box_muller_16_f32(block, mean, std, cap)
    });
}

/// ATen's `normal_fill` for either float type: `unit` draws every uniform first, then
/// `fill16` transforms each block of 16 in place; a ragged tail redraws the last 16
/// uniforms and transforms them again.
fn normal_fill<T>(
    rng: &mut CpuGenerator,
    data: &mut [T],
    unit: impl Fn(&mut CpuGenerator) -> T,
    fill16: impl Fn(&mut [T]),
) {
    for v in polled_mut(data) {
        *v = unit(rng);
    }
    let n = data.len();
    for chunk in polled_blocks16(data) {
        fill16(chunk);
    }
    if !n.is_multiple_of(16) {
        let tail = &mut data[n - 16..];
        for v in tail.iter_mut() {
            *v = unit(rng);
        }
        fill16(tail);
    }
}

/// `NormalFill16<float>`: the AVX2 build's 8-lane version (avx_mathfun log/sincos), or the
/// DEFAULT build's scalar one (libm logf/cosf/sinf).
fn box_muller_16_f32(d: &mut [f32], mean: f32, std: f32, cap: CpuCapability) {
    match cap {
        CpuCapability::Avx2 => box_muller_16_avx_mathfun(d, mean, std),
        CpuCapability::Default => {
            for j in 0..8 {
                let u1 = 1.0 - d[j];
                let u2 = d[j + 8];
                let radius = (-2.0f32 * u1.ln()).sqrt();
                // `2.0f * c10::pi<double> * u2` is a double product, stored as float.
                let theta = (2.0 * std::f64::consts::PI * u2 as f64) as f32;
                d[j] = (radius * theta.cos()).mul_add(std, mean);
                d[j + 8] = (radius * theta.sin()).mul_add(std, mean);
            }
        }
    }
}

avx2_fma! {
    /// The AVX2 build's `NormalFill16<float>` on one block of 16 (pairs j and j + 8), compiled
    /// for AVX2+FMA where the CPU has them: avx_mathfun's many multiply-adds are then single
    /// instructions (a call into libm's software `fmaf` each otherwise) and the eight lanes
    /// share vector registers, as in ATen.
    fn box_muller_16_avx_mathfun(d: &mut [f32], mean: f32, std: f32) {
        let (cos_half, sin_half) = d.split_at_mut(8);
        for (c, s) in cos_half.iter_mut().zip(sin_half.iter_mut()) {
            let radius = (-2.0f32 * avx_mathfun::log(1.0 - *c)).sqrt();
            // _mm256_set1_ps(2.0f * c10::pi<double>): 2*pi rounded to float.
            let theta = (2.0 * std::f64::consts::PI) as f32 * *s;
            let (sin, cos) = avx_mathfun::sincos(theta);
            *c = (radius * cos).mul_add(std, mean);
            *s = (radius * sin).mul_add(std, mean);
        }
    }
}

/// `normal_fill` for double (`NormalFill16<double>`, scalar libm in every build).
fn normal_fill_f64(
    rng: &mut CpuGenerator,
    data: &mut [f64],
    mean: f64,
    std: f64,
    _cap: CpuCapability,
) {
    let fill16 = |d: &mut [f64]| {
        for j in 0..8 {
            let u1 = 1.0 - d[j];
            let u2 = d[j + 8];
            let radius = (-2.0 * u1.ln()).sqrt();
            // `2.0f * c10::pi<double> * u2` in double.
            let theta = 2.0 * std::f64::consts::PI * u2;
            d[j] = (radius * theta.cos()).mul_add(std, mean);
            d[j + 8] = (radius * theta.sin()).mul_add(std, mean);
        }
    };
    normal_fill(rng, data, sampling::unit_f64, fill16);
}

// ------------------------------------------------------------------- random_

/// The range and base `random_(from, to)` samples from after ATen's checks
/// (`random_from_to_impl`): `Some((to - from, from))`, or `None` for the full int64 range
/// (`from = i64::MIN`, `to = None`).
pub(crate) fn random_range(
    t: ElementType,
    from: i64,
    to: Option<i64>,
) -> Result<Option<(u64, i64)>> {
    let mut from = from;
    match to {
        Some(mut to) => {
            if from >= to {
                return Err(RandomError::runtime(format!(
                    "random_ expects 'from' to be less than 'to', but got from={from} >= to={to}"
                )));
            }
            if t.is_floating() {
                from = update_from(t, from);
                to = update_to(t, to);
                if from >= to {
                    return Err(RandomError::runtime(format!(
                        "random_ expects 'from' casted to dtype to be less than 'to' casted to dtype, but got from={from} >= to={to}"
                    )));
                }
            }
            check_from_to_in_range(t, from, to - 1)?;
            Ok(Some(((to as u64).wrapping_sub(from as u64), from)))
        }
        None if from != i64::MIN => {
            let to_inc = match t.float_digits() {
                Some(digits) => {
                    let top = 1i64 << digits;
                    from = update_from(t, from);
                    if from >= top {
                        return Err(RandomError::runtime(format!(
                            "random_ expects 'from' casted to dtype to be less than or equal to 'to_inc' casted to dtype, but got from={from} > to_inc={top}"
                        )));
                    }
                    top
                }
                None => t.limits_i64().map(|(_, max)| max).unwrap_or(i64::MAX),
            };
            check_from_to_in_range(t, from, to_inc)?;
            Ok(Some((
                (to_inc as u64).wrapping_sub(from as u64).wrapping_add(1),
                from,
            )))
        }
        None => Ok(None),
    }
}

/// `tensor.random_(from, to)` / `random_(to)` (`to = None` means "to the dtype's top",
/// and `from = i64::MIN, to = None` the full 64-bit range); also `torch.randint`.
pub fn random_from_to_(
    rng: &mut CpuGenerator,
    mut out: ElementsMut,
    from: i64,
    to: Option<i64>,
) -> Result<()> {
    let t = out.element_type();
    let Some((range, base)) = random_range(t, from, to)? else {
        // [i64::MIN, i64::MAX]: a raw 64-bit draw for int64/float/double.
        return match t {
            ElementType::I64 | ElementType::F32 | ElementType::F64 => {
                out.fill_from_i64(|| rng.random64() as i64);
                Ok(())
            }
            _ => Err(RandomError::runtime(
                "random_full_64_bits_range_kernel_cpu handles only int64, double, float and bfloat16",
            )),
        };
    };
    out.fill_from_i64(|| sampling::int_from_to(rng, range, base));
    Ok(())
}

/// The closest `from` whose cast to the float type stays >= from (ATen's `update_from`).
fn update_from(t: ElementType, from: i64) -> i64 {
    let digits = t.float_digits().unwrap_or(53) as i32;
    let plus_one = from.wrapping_add(1);
    let cast = cast_through(t, plus_one);
    if cast < from {
        return cast.wrapping_add(float_spacing_at(plus_one, digits));
    }
    from
}

/// The closest `to` whose cast to the float type stays < to (ATen's `update_to`).
fn update_to(t: ElementType, to: i64) -> i64 {
    let digits = t.float_digits().unwrap_or(53) as i32;
    let minus_one = to.wrapping_sub(1);
    let cast = cast_through(t, minus_one);
    if cast >= to {
        return cast.wrapping_sub(float_spacing_at(minus_one, digits));
    }
    to
}

/// The step `update_from` and `update_to` move by: the spacing of a float type with
/// `digits` mantissa digits at `v`, `2^(floor(log2 |v|) - digits + 1)` (shift kept in 0..=62).
fn float_spacing_at(v: i64, digits: i32) -> i64 {
    let mut v = v.unsigned_abs();
    let mut n = 0;
    loop {
        v >>= 1;
        if v == 0 {
            break;
        }
        n += 1;
    }
    1i64 << (n - digits + 1).clamp(0, 62)
}

/// `static_cast<int64_t>(static_cast<scalar_t>(v))` for a float type (saturating where C++
/// would be undefined).
fn cast_through(t: ElementType, v: i64) -> i64 {
    match t {
        ElementType::F16 => f16_bits_to_f32(f32_to_f16_bits(v as f32)) as i64,
        ElementType::F32 => v as f32 as i64,
        _ => v as f64 as i64,
    }
}

fn check_from_to_in_range(t: ElementType, from: i64, to_inc: i64) -> Result<()> {
    let dtype = t.type_meta_name();
    if t.is_floating() {
        let (min, max) = t.limits_f64();
        if !((from as f64) >= min && (from as f64) <= max) {
            return Err(RandomError::runtime(format!(
                "from is out of bounds for {dtype}"
            )));
        }
        if !((to_inc as f64) >= min && (to_inc as f64) <= max) {
            return Err(RandomError::runtime(format!(
                "to - 1 is out of bounds for {dtype}"
            )));
        }
        // ATen also warns (not errors) past 2^digits; the warning is the caller's to print.
        return Ok(());
    }
    let (min, max) = t.limits_i64().unwrap_or((i64::MIN, i64::MAX));
    if from < min || from > max {
        return Err(RandomError::runtime(format!(
            "from is out of bounds for {dtype}"
        )));
    }
    if to_inc < min || to_inc > max {
        return Err(RandomError::runtime(format!(
            "to - 1 is out of bounds for {dtype}"
        )));
    }
    Ok(())
}

/// The warning ATen prints when a float `random_` range passes 2^digits (None when quiet).
pub fn random_precision_warning(t: ElementType, from: i64, to_inc: i64) -> Option<String> {
    let digits = t.float_digits()?;
    let limit = 1i64 << digits;
    let dtype = t.type_meta_name();
    let warn = |v: i64, name: &str| {
        (v < -limit || v > limit).then(|| {
            format!(
                "{name} is out of bounds [-(2^{digits}), 2^{digits}]. Due to precision limitations {dtype} can support discrete uniform distribution only within this range. This warning will become an error in version 1.7 release, please fix the code in advance"
            )
        })
    };
    warn(from, "from").or_else(|| warn(to_inc, "to - 1"))
}

/// `tensor.random_()` with no bounds: [0, 2^mantissa] for floats, [0, max] for integers,
/// 0/1 for bool.
pub fn random_(rng: &mut CpuGenerator, mut out: ElementsMut) {
    match out {
        ElementsMut::Bool(ref mut s) => polled(s, |v| *v = rng.random() & 1 == 1),
        ElementsMut::I64(ref mut s) => polled(s, |v| *v = (rng.random64() % (1u64 << 63)) as i64),
        ElementsMut::F64(ref mut s) => {
            polled(s, |v| *v = (rng.random64() % ((1u64 << 53) + 1)) as f64)
        }
        ElementsMut::F32(ref mut s) => polled(s, |v| {
            *v = (rng.random() as u64 % ((1u64 << 24) + 1)) as f32
        }),
        ElementsMut::F16(ref mut s) => polled(s, |v| {
            *v = f32_to_f16_bits((rng.random() as u64 % ((1u64 << 11) + 1)) as f32)
        }),
        ElementsMut::U8(ref mut s) => polled(s, |v| *v = (rng.random() % 256) as u8),
        ElementsMut::I8(ref mut s) => polled(s, |v| *v = (rng.random() % 128) as i8),
        ElementsMut::I16(ref mut s) => polled(s, |v| *v = (rng.random() % 32768) as i16),
        ElementsMut::I32(ref mut s) => polled(s, |v| *v = (rng.random() % (1u32 << 31)) as i32),
    }
}

// ---------------------------------------------------------------- bernoulli_

pub(crate) fn check_bernoulli_p(p: f64) -> Result<()> {
    if !(0.0..=1.0).contains(&p) {
        return Err(RandomError::runtime(format!(
            "bernoulli_ expects p to be in [0, 1], but got p={}",
            cpp_double(p)
        )));
    }
    Ok(())
}

/// `tensor.bernoulli_(p)` with a float probability (also what `F.dropout` draws).
pub fn bernoulli_scalar_(rng: &mut CpuGenerator, mut out: ElementsMut, p: f64) -> Result<()> {
    check_bernoulli_p(p)?;
    out.fill_from_bool(|_| sampling::bernoulli_f64(rng, p));
    Ok(())
}

/// A probability tensor, expanded to the output's shape and in the same visit order.
#[derive(Debug, Clone, Copy)]
pub enum Probabilities<'a> {
    F16(&'a [u16]),
    F32(&'a [f32]),
    F64(&'a [f64]),
}

impl Probabilities<'_> {
    pub fn len(&self) -> usize {
        match self {
            Probabilities::F16(p) => p.len(),
            Probabilities::F32(p) => p.len(),
            Probabilities::F64(p) => p.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

const BERNOULLI_P_MESSAGE: &str = "Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error message be improved?  If so, please report an enhancement request to PyTorch.)";

/// `out.bernoulli_(p)` with a probability tensor (also `torch.bernoulli(p)`): a double
/// draw per element for float64 probabilities, a 24-bit one otherwise. A probability
/// outside [0, 1] stops the fill where it is met, as ATen's check inside the loop does.
pub fn bernoulli_tensor_(
    rng: &mut CpuGenerator,
    mut out: ElementsMut,
    p: Probabilities,
) -> Result<()> {
    if out.len() != p.len() {
        return Err(RandomError::runtime(format!(
            "bernoulli_: {} probabilities for {} elements",
            p.len(),
            out.len()
        )));
    }
    let mut bad = false;
    match p {
        Probabilities::F64(p) => out.fill_from_bool(|i| {
            checked_draw(&mut bad, p[i], |pi| sampling::bernoulli_f64(rng, pi))
        }),
        Probabilities::F32(p) => out.fill_from_bool(|i| {
            checked_draw(&mut bad, p[i], |pi| sampling::bernoulli_f32(rng, pi))
        }),
        Probabilities::F16(p) => out.fill_from_bool(|i| {
            let pi = f16_bits_to_f32(p[i]);
            checked_draw(&mut bad, pi, |pi| sampling::bernoulli_f32(rng, pi))
        }),
    }
    if bad {
        return Err(RandomError::runtime(BERNOULLI_P_MESSAGE));
    }
    Ok(())
}

/// One draw of a tensor-p `bernoulli_`, or none once a probability is outside [0, 1]: then
/// `bad` is set and every element from there on is false (the caller raises).
fn checked_draw<T: Real>(bad: &mut bool, pi: T, draw: impl FnOnce(T) -> bool) -> bool {
    if *bad || !(T::ZERO..=T::ONE).contains(&pi) {
        *bad = true;
        return false;
    }
    draw(pi)
}

// ------------------------------------------------------- exponential_ & co.

/// ATen's `TORCH_CHECK(x > 0.0, "<op> expects <name> > 0.0, but found <name>=", x)` of a
/// distribution's scale parameter (NaN fails too).
fn check_positive(op: &str, name: &str, value: f64) -> Result<()> {
    if value.is_nan() || value <= 0.0 {
        return Err(RandomError::runtime(format!(
            "{op} expects {name} > 0.0, but found {name}={}",
            cpp_double(value)
        )));
    }
    Ok(())
}

pub(crate) fn check_exponential_lambda(t: ElementType, lambda: f64) -> Result<()> {
    check_positive("exponential_", "lambda", lambda)?;
    if !t.is_floating() {
        return Err(RandomError::runtime(format!(
            "Exponential distribution is a continuous probability distribution. dtype must be a floating point but you specified {}",
            t.type_meta_name()
        )));
    }
    Ok(())
}

/// `F.dropout`'s check on p (made in Python, hence a ValueError with Python's float repr).
pub(crate) fn check_dropout_prob(p: f64) -> Result<()> {
    if !(0.0..=1.0).contains(&p) {
        return Err(RandomError {
            kind: ErrorKind::ValueError,
            message: format!(
                "dropout probability has to be between 0 and 1, but got {}",
                py_float_repr(p)
            ),
        });
    }
    Ok(())
}

/// `tensor.exponential_(lambd)`.
pub fn exponential_(rng: &mut CpuGenerator, mut out: ElementsMut, lambda: f64) -> Result<()> {
    check_exponential_lambda(out.element_type(), lambda)?;
    out.fill_from_f64(|| sampling::exponential_f64(rng, lambda));
    Ok(())
}

/// `tensor.geometric_(p)`.
pub fn geometric_(rng: &mut CpuGenerator, mut out: ElementsMut, p: f64) -> Result<()> {
    if !(0.0 < p && p < 1.0) {
        return Err(RandomError::runtime(format!(
            "geometric_ expects p to be in (0, 1), but got p={}",
            cpp_double(p)
        )));
    }
    out.fill_from_f64(|| sampling::geometric_f64(rng, p));
    Ok(())
}

/// `tensor.log_normal_(mean, std)`.
pub fn log_normal_(
    rng: &mut CpuGenerator,
    mut out: ElementsMut,
    mean: f64,
    std: f64,
    cap: CpuCapability,
) -> Result<()> {
    check_positive("log_normal_", "std", std)?;
    float_only(&out, "log_normal_cpu")?;
    out.fill_from_f64(|| sampling::log_normal_f64(rng, mean, std, cap));
    Ok(())
}

/// `tensor.cauchy_(median, sigma)`.
pub fn cauchy_(
    rng: &mut CpuGenerator,
    mut out: ElementsMut,
    median: f64,
    sigma: f64,
) -> Result<()> {
    check_positive("cauchy_", "sigma", sigma)?;
    if !out.element_type().is_floating() {
        return Err(RandomError::runtime(format!(
            "Cauchy distribution is a continuous probability distribution. dtype must be a floating point but you specified {}",
            out.element_type().type_meta_name()
        )));
    }
    out.fill_from_f64(|| sampling::cauchy_f64(rng, median, sigma));
    Ok(())
}
