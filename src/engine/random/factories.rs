//! Random ops that are more than a fill: `torch.randperm`, `torch.multinomial`, and the
//! noise `F.dropout` multiplies by, as ATen's CPU backend computes them.

use super::cpu_generator::CpuGenerator;
use super::cpu_kernels::{self, Probabilities, RandomError, Result};
use super::elements::{ElementType, ElementsMut};
use super::half::{f16_bits_to_f32, f32_to_f16_bits};
use super::sampling;
use crate::engine::numerics::lanes::Real;

/// `torch.randperm(n)` on the CPU: a Fisher-Yates shuffle of 0..n drawing 32 bits per
/// swap (`random() % (n - i)`); for n of 2^32/20 and more, the "inside-out" variant with
/// 64-bit draws.
pub fn randperm(rng: &mut CpuGenerator, n: usize) -> Vec<i64> {
    let n = n as i64;
    if n < (u32::MAX / 20) as i64 {
        let mut r: Vec<i64> = (0..n).collect();
        for i in 0..(n - 1).max(0) {
            if stop_due(i) {
                break;
            }
            let z = rng.random() as i64 % (n - i);
            r.swap(i as usize, (z + i) as usize);
        }
        r
    } else {
        let mut r = vec![0i64; n as usize];
        for i in 0..n {
            if stop_due(i) {
                break;
            }
            let z = (rng.random64() % (i as u64 + 1)) as usize;
            r[i as usize] = r[z];
            r[z] = i;
        }
        r
    }
}

/// Every [`CHUNK`](crate::engine::interrupt::CHUNK) steps: is the run's stop due? (The op
/// then ends with it, interrupt::should_stop.)
#[inline]
fn stop_due(i: i64) -> bool {
    i % crate::engine::interrupt::CHUNK as i64 == 0 && crate::engine::interrupt::should_stop()
}

/// The largest n `randperm` accepts for a dtype (ATen's precision check): `None` when any
/// n is fine.
pub fn randperm_max_n(t: ElementType) -> Option<i64> {
    match t {
        ElementType::F16 => Some(1 << 11),
        ElementType::F32 => Some(1 << 24),
        ElementType::F64 => Some(1 << 53),
        ElementType::U8 => Some(u8::MAX as i64 + 1),
        ElementType::I8 => Some(i8::MAX as i64 + 1),
        ElementType::I16 => Some(i16::MAX as i64 + 1),
        ElementType::I32 => Some(i32::MAX as i64 + 1),
        ElementType::Bool | ElementType::I64 => None,
    }
}

/// The probabilities `torch.multinomial` samples from: one row (1-D input) or several
/// (2-D), row-major.
#[derive(Debug, Clone, Copy)]
pub struct MultinomialInput<'a> {
    pub probs: Probabilities<'a>,
    /// The input's sizes (1 or 2 dimensions are accepted).
    pub sizes: &'a [usize],
}

/// `torch.multinomial(input, num_samples, replacement)`: the sampled category indices,
/// row-major (rows x num_samples).
pub fn multinomial(
    rng: &mut CpuGenerator,
    input: MultinomialInput,
    num_samples: i64,
    replacement: bool,
) -> Result<Vec<i64>> {
    let dims = input.sizes.len();
    if dims == 0 || dims > 2 {
        return Err(RandomError::runtime("prob_dist must be 1 or 2 dim"));
    }
    if num_samples <= 0 {
        return Err(RandomError::runtime("cannot sample n_sample <= 0 samples"));
    }
    let n_categories = input.sizes[dims - 1];
    let n_dist = if dims == 2 { input.sizes[0] } else { 1 };
    if !replacement && num_samples as u64 > n_categories as u64 {
        return Err(RandomError::runtime(
            "cannot sample n_sample > prob_dist.size(-1) samples without replacement",
        ));
    }
    if n_categories > 1 << 24 {
        return Err(RandomError::runtime(
            "number of categories cannot exceed 2^24",
        ));
    }
    if input.probs.len() != n_dist * n_categories {
        return Err(RandomError::runtime(format!(
            "multinomial: {} probabilities for sizes {:?}",
            input.probs.len(),
            input.sizes
        )));
    }
    let n_sample = num_samples as usize;
    if n_dist * n_sample == 0 {
        return Ok(Vec::new());
    }
    let probs: Vec<f64> = match input.probs {
        Probabilities::F16(p) => p.iter().map(|h| f16_bits_to_f32(*h) as f64).collect(),
        Probabilities::F32(p) => p.iter().map(|v| *v as f64).collect(),
        Probabilities::F64(p) => p.to_vec(),
    };
    let rows = MultinomialRows {
        typed: &input.probs,
        probs: &probs,
        n_dist,
        n_categories,
        n_sample,
    };
    if !replacement || n_sample == 1 {
        gumbel_top_k(rng, rows)
    } else {
        with_replacement(rng, rows)
    }
}

/// What both multinomial kernels read: the probabilities as given (`typed`) and widened to
/// f64 (`probs`), `n_dist` rows of `n_categories`, `n_sample` draws from each row.
#[derive(Clone, Copy)]
struct MultinomialRows<'a> {
    typed: &'a Probabilities<'a>,
    probs: &'a [f64],
    n_dist: usize,
    n_categories: usize,
    n_sample: usize,
}

/// The fast path (no replacement, or one sample): q ~ Exp(1) in the input's dtype, then the
/// top `n_sample` of p / q per row (argmax for one sample).
fn gumbel_top_k(rng: &mut CpuGenerator, rows: MultinomialRows<'_>) -> Result<Vec<i64>> {
    let invalid = rows
        .probs
        .iter()
        .any(|p| !(*p < f64::INFINITY && *p >= 0.0));
    if invalid {
        return Err(RandomError::runtime(
            "probability tensor contains either `inf`, `nan` or element < 0",
        ));
    }
    // Every entry is finite and non-negative here, so a row sums to 0 only if all are 0.
    let zero_row = (0..rows.n_dist).any(|r| {
        rows.probs[r * rows.n_categories..(r + 1) * rows.n_categories]
            .iter()
            .all(|p| *p == 0.0)
    });
    if zero_row {
        return Err(RandomError::runtime(
            "invalid multinomial distribution (sum of probabilities <= 0)",
        ));
    }
    // q = empty_like(self).exponential_(1); q = self / q, both in the input's dtype.
    let n = rows.probs.len();
    let keys: Vec<f64> = match rows.typed {
        Probabilities::F32(p) => {
            let mut q = vec![0f32; n];
            cpu_kernels::exponential_(rng, ElementsMut::F32(&mut q), 1.0)?;
            p.iter().zip(&q).map(|(a, b)| (a / b) as f64).collect()
        }
        Probabilities::F64(p) => {
            let mut q = vec![0f64; n];
            cpu_kernels::exponential_(rng, ElementsMut::F64(&mut q), 1.0)?;
            p.iter().zip(&q).map(|(a, b)| a / b).collect()
        }
        Probabilities::F16(p) => {
            let mut q = vec![0u16; n];
            cpu_kernels::exponential_(rng, ElementsMut::F16(&mut q), 1.0)?;
            p.iter()
                .zip(&q)
                .map(|(a, b)| {
                    let d = f16_bits_to_f32(*a) / f16_bits_to_f32(*b);
                    f16_bits_to_f32(f32_to_f16_bits(d)) as f64
                })
                .collect()
        }
    };
    let mut out = Vec::with_capacity(rows.n_dist * rows.n_sample);
    for r in 0..rows.n_dist {
        let row = &keys[r * rows.n_categories..(r + 1) * rows.n_categories];
        let mut order: Vec<usize> = (0..rows.n_categories).collect();
        // Largest first, NaN above everything (topk's and argmax's order); ties by index.
        order.sort_by(|&a, &b| {
            let (x, y) = (row[a], row[b]);
            match (x.is_nan(), y.is_nan()) {
                (true, true) => std::cmp::Ordering::Equal,
                (true, false) => std::cmp::Ordering::Less,
                (false, true) => std::cmp::Ordering::Greater,
                _ => y.partial_cmp(&x).unwrap_or(std::cmp::Ordering::Equal),
            }
            .then(a.cmp(&b))
        });
        out.extend(order[..rows.n_sample].iter().map(|&i| i as i64));
    }
    Ok(out)
}

/// The with-replacement kernel: a normalised running sum in the input's precision (float
/// for half), one double uniform per sample, a binary search for its slot.
fn with_replacement(rng: &mut CpuGenerator, rows: MultinomialRows<'_>) -> Result<Vec<i64>> {
    let single = !matches!(rows.typed, Probabilities::F64(_));
    let mut out = Vec::with_capacity(rows.n_dist * rows.n_sample);
    let mut cum = vec![0f64; rows.n_categories];
    for r in 0..rows.n_dist {
        let row = &rows.probs[r * rows.n_categories..(r + 1) * rows.n_categories];
        let mut sum32 = 0f32;
        let mut sum64 = 0f64;
        for (j, &val) in row.iter().enumerate() {
            if val.is_nan() || val < 0.0 {
                return Err(RandomError::runtime(
                    "invalid multinomial distribution (encountering probability entry < 0)",
                ));
            }
            if !val.is_finite() {
                return Err(RandomError::runtime(
                    "invalid multinomial distribution (encountering probability entry = infinity or NaN)",
                ));
            }
            if single {
                sum32 += val as f32;
                cum[j] = sum32 as f64;
            } else {
                sum64 += val;
                cum[j] = sum64;
            }
        }
        let sum = if single { sum32 as f64 } else { sum64 };
        if sum.is_nan() || sum <= 0.0 {
            return Err(RandomError::runtime(
                "invalid multinomial distribution (sum of probabilities <= 0)",
            ));
        }
        for c in cum.iter_mut() {
            *c = if single {
                (*c as f32 / sum32) as f64
            } else {
                *c / sum64
            };
        }
        cum[rows.n_categories - 1] = 1.0;
        for _ in 0..rows.n_sample {
            let u = sampling::unit_f64(rng);
            let (mut left, mut right) = (0usize, rows.n_categories);
            while right > left {
                let mid = left + (right - left) / 2;
                if cum[mid] < u {
                    left = mid + 1;
                } else {
                    right = mid;
                }
            }
            out.push(left as i64);
        }
    }
    Ok(out)
}

/// What `F.dropout(x, p, training=True)` multiplies `x` by on the CPU: `bernoulli_(1 - p)`
/// on a tensor shaped like `x` (or `(N, C, 1, ...)` for `dropout2d`'s feature noise),
/// divided by `1 - p` in the element type. Call only for 0 < p < 1 (p = 0 or eval mode
/// returns `x`, p = 1 multiplies by a zero scalar, and neither draws).
pub fn dropout_noise_(rng: &mut CpuGenerator, mut noise: ElementsMut, p: f64) -> Result<()> {
    check_dropout_p(p)?;
    let keep = 1.0 - p;
    cpu_kernels::bernoulli_scalar_(rng, noise.reborrow(), keep)?;
    match noise {
        ElementsMut::F32(s) => {
            let k = keep as f32;
            s.iter_mut().for_each(|v| *v /= k);
        }
        ElementsMut::F64(s) => s.iter_mut().for_each(|v| *v /= keep),
        ElementsMut::F16(s) => {
            let k = keep as f32;
            s.iter_mut()
                .for_each(|v| *v = f32_to_f16_bits(f16_bits_to_f32(*v) / k));
        }
        other => {
            return Err(RandomError::runtime(format!(
                "result type Float can't be cast to the desired output type {}",
                other.element_type().scalar_type_name()
            )));
        }
    }
    Ok(())
}

/// `F.dropout`'s argument check.
pub fn check_dropout_p(p: f64) -> Result<()> {
    cpu_kernels::check_dropout_prob(p)
}

/// A `torch.normal` argument: a Python float or a tensor (already broadcast to the output's
/// shape, in its visit order, in the output's dtype).
#[derive(Debug, Clone, Copy)]
pub enum NormalParam<'a> {
    Scalar(f64),
    F32(&'a [f32]),
    F64(&'a [f64]),
}

/// Whether a std tensor holds a value `normal` refuses.
fn any_negative_or_nan<T: Real>(s: &[T]) -> bool {
    s.iter().any(|v| v.is_nan() || *v < T::ZERO)
}

/// `out * std + mean` in `T` as ATen's separate tensor ops do it (the mul, then the add,
/// each rounding once); tensor parameters and a Python-float mean are converted to `T`
/// first (the type promotion to the output's dtype). A Python-float std was already drawn
/// with.
fn scale_and_shift<T: Real>(o: &mut [T], mean: NormalParam, std: NormalParam) {
    let to_t = |v: f64| T::from_f64(v);
    match std {
        NormalParam::F32(s) => o
            .iter_mut()
            .zip(s)
            .for_each(|(v, s)| *v = *v * to_t(*s as f64)),
        NormalParam::F64(s) => o.iter_mut().zip(s).for_each(|(v, s)| *v = *v * to_t(*s)),
        NormalParam::Scalar(_) => {}
    }
    match mean {
        NormalParam::F32(m) => o
            .iter_mut()
            .zip(m)
            .for_each(|(v, m)| *v = *v + to_t(*m as f64)),
        NormalParam::F64(m) => o.iter_mut().zip(m).for_each(|(v, m)| *v = *v + to_t(*m)),
        NormalParam::Scalar(m) => o.iter_mut().for_each(|v| *v = *v + to_t(m)),
    }
}

/// `torch.normal(mean, std)` with a tensor mean and/or std, into a fresh contiguous `out`
/// (float32 or float64): ATen draws `normal_(out, 0, std)` for a float std (`normal_(out, 0,
/// 1)` for a tensor std), then multiplies by the std tensor and adds the mean as separate
/// tensor ops, each rounding once.
pub fn normal_tensors_(
    rng: &mut CpuGenerator,
    out: ElementsMut,
    mean: NormalParam,
    std: NormalParam,
    cap: sampling::CpuCapability,
) -> Result<()> {
    let n = out.len();
    let check_len = |len: usize| {
        if len == n {
            Ok(())
        } else {
            Err(RandomError::runtime(format!(
                "normal: a parameter of {len} elements for an output of {n}"
            )))
        }
    };
    // A std tensor must fit the output and hold no negative or NaN entry.
    let check_std_tensor = |len: usize, any_negative_or_nan: bool| {
        check_len(len)?;
        if any_negative_or_nan {
            return Err(RandomError::runtime(
                "normal expects all elements of std >= 0.0",
            ));
        }
        Ok(None)
    };
    let std_scalar = match std {
        NormalParam::Scalar(s) => Some(s),
        NormalParam::F32(s) => check_std_tensor(s.len(), any_negative_or_nan(s))?,
        NormalParam::F64(s) => check_std_tensor(s.len(), any_negative_or_nan(s))?,
    };
    match mean {
        NormalParam::F32(m) => check_len(m.len())?,
        NormalParam::F64(m) => check_len(m.len())?,
        NormalParam::Scalar(_) => {}
    }
    let mut out = out;
    cpu_kernels::normal_(
        rng,
        out.reborrow(),
        0.0,
        std_scalar.unwrap_or(1.0),
        true,
        cap,
    )?;
    match out {
        ElementsMut::F32(o) => scale_and_shift(o, mean, std),
        ElementsMut::F64(o) => scale_and_shift(o, mean, std),
        other => {
            return Err(cpu_kernels::not_implemented(
                "normal_kernel_cpu",
                other.element_type(),
            ));
        }
    }
    Ok(())
}
