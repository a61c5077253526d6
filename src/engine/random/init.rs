//! `torch.nn.init` and the default initialisation of nn modules, drawing in PyTorch's order
//! (torch/nn/init.py, modules/linear.py, conv.py, sparse.py, rnn.py of 2.15). The bounds are
//! computed in f64 exactly as the Python code computes them.

use super::cpu_generator::CpuGenerator;
use super::cpu_kernels::{self, RandomError, Result};
use super::elements::ElementsMut;
use super::sampling::CpuCapability;
use crate::engine::ErrorKind;

fn value_error(message: impl Into<String>) -> RandomError {
    RandomError {
        kind: ErrorKind::ValueError,
        message: message.into(),
    }
}

/// `nn.init.calculate_gain(nonlinearity, param)`.
pub(crate) fn calculate_gain(nonlinearity: &str, param: Option<f64>) -> Result<f64> {
    match nonlinearity {
        "linear" | "conv1d" | "conv2d" | "conv3d" | "conv_transpose1d" | "conv_transpose2d"
        | "conv_transpose3d" | "sigmoid" => Ok(1.0),
        "tanh" => Ok(5.0 / 3.0),
        "relu" => Ok(2f64.sqrt()),
        "leaky_relu" => {
            let slope = param.unwrap_or(0.01);
            Ok((2.0 / (1.0 + slope * slope)).sqrt())
        }
        "selu" => Ok(3.0 / 4.0),
        other => Err(value_error(format!("Unsupported nonlinearity {other}"))),
    }
}

/// `nn.init._calculate_fan_in_and_fan_out`: (size(1) * receptive field, size(0) * receptive
/// field).
pub(crate) fn fan_in_and_fan_out(shape: &[usize]) -> Result<(usize, usize)> {
    if shape.len() < 2 {
        return Err(value_error(
            "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions",
        ));
    }
    let receptive: usize = shape[2..].iter().product();
    Ok((shape[1] * receptive, shape[0] * receptive))
}

/// `mode=` of the kaiming initialisers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FanMode {
    FanIn,
    FanOut,
}

impl FanMode {
    /// Parses `mode` as `_calculate_correct_fan` does (case-insensitive).
    pub fn parse(mode: &str) -> Result<FanMode> {
        match mode.to_lowercase().as_str() {
            "fan_in" => Ok(FanMode::FanIn),
            "fan_out" => Ok(FanMode::FanOut),
            _ => Err(value_error(format!(
                "Mode {} not supported, please use one of ['fan_in', 'fan_out']",
                mode.to_lowercase()
            ))),
        }
    }
}

/// The standard deviation of `kaiming_normal_` (and, times sqrt(3), the bound of
/// `kaiming_uniform_`): gain / sqrt(fan).
pub fn kaiming_std(shape: &[usize], a: f64, mode: FanMode, nonlinearity: &str) -> Result<f64> {
    let (fan_in, fan_out) = fan_in_and_fan_out(shape)?;
    let fan = match mode {
        FanMode::FanIn => fan_in,
        FanMode::FanOut => fan_out,
    };
    let gain = calculate_gain(nonlinearity, Some(a))?;
    Ok(gain / (fan as f64).sqrt())
}

/// The warning kaiming_* print for a tensor with a zero in its shape (they then draw
/// nothing).
pub(crate) const ZERO_ELEMENT_WARNING: &str = "Initializing zero-element tensors is a no-op";

/// `nn.init.kaiming_uniform_(tensor, a, mode, nonlinearity)`. Returns the warning when the
/// tensor has no elements (and draws nothing then).
pub fn kaiming_uniform_(
    rng: &mut CpuGenerator,
    tensor: ElementsMut,
    shape: &[usize],
    a: f64,
    mode: FanMode,
    nonlinearity: &str,
    cap: CpuCapability,
) -> Result<Option<&'static str>> {
    if shape.contains(&0) {
        return Ok(Some(ZERO_ELEMENT_WARNING));
    }
    let bound = 3f64.sqrt() * kaiming_std(shape, a, mode, nonlinearity)?;
    cpu_kernels::uniform_(rng, tensor, -bound, bound, cap)?;
    Ok(None)
}

/// `nn.init.kaiming_normal_(tensor, a, mode, nonlinearity)`.
pub fn kaiming_normal_(
    rng: &mut CpuGenerator,
    tensor: ElementsMut,
    shape: &[usize],
    a: f64,
    mode: FanMode,
    nonlinearity: &str,
    cap: CpuCapability,
) -> Result<Option<&'static str>> {
    if shape.contains(&0) {
        return Ok(Some(ZERO_ELEMENT_WARNING));
    }
    let std = kaiming_std(shape, a, mode, nonlinearity)?;
    cpu_kernels::normal_(rng, tensor, 0.0, std, true, cap)?;
    Ok(None)
}

/// gain * sqrt(2 / (fan_in + fan_out)), the std of `xavier_normal_`.
pub(crate) fn xavier_std(shape: &[usize], gain: f64) -> Result<f64> {
    let (fan_in, fan_out) = fan_in_and_fan_out(shape)?;
    if fan_in + fan_out == 0 {
        return Err(RandomError {
            kind: ErrorKind::ZeroDivisionError,
            message: "float division by zero".to_string(),
        });
    }
    Ok(gain * (2.0 / (fan_in + fan_out) as f64).sqrt())
}

/// `nn.init.xavier_uniform_(tensor, gain)`: U(-a, a) with a = sqrt(3) * xavier std.
pub fn xavier_uniform_(
    rng: &mut CpuGenerator,
    tensor: ElementsMut,
    shape: &[usize],
    gain: f64,
    cap: CpuCapability,
) -> Result<()> {
    let a = 3f64.sqrt() * xavier_std(shape, gain)?;
    cpu_kernels::uniform_(rng, tensor, -a, a, cap)
}

/// `nn.init.xavier_normal_(tensor, gain)`.
pub fn xavier_normal_(
    rng: &mut CpuGenerator,
    tensor: ElementsMut,
    shape: &[usize],
    gain: f64,
    cap: CpuCapability,
) -> Result<()> {
    let std = xavier_std(shape, gain)?;
    cpu_kernels::normal_(rng, tensor, 0.0, std, true, cap)
}

/// The bias bound of Linear and Conv: 1 / sqrt(fan_in), 0 for fan_in 0.
pub fn bias_bound(fan_in: usize) -> f64 {
    if fan_in > 0 {
        1.0 / (fan_in as f64).sqrt()
    } else {
        0.0
    }
}

/// A module's default weight init: `kaiming_uniform_(weight, a=math.sqrt(5))`, then the
/// bias from U(-1/sqrt(fan_in), 1/sqrt(fan_in)) — in that order. This is `nn.Linear`
/// (weight shape (out, in)), `nn.Conv1d/2d/3d` (out, in/groups, *kernel) and the transposed
/// convolutions (in, out/groups, *kernel). Returns the zero-element warning if any.
pub fn linear_or_conv_default_(
    rng: &mut CpuGenerator,
    weight: ElementsMut,
    weight_shape: &[usize],
    bias: Option<ElementsMut>,
    cap: CpuCapability,
) -> Result<Option<&'static str>> {
    let warning = kaiming_uniform_(
        rng,
        weight,
        weight_shape,
        5f64.sqrt(),
        FanMode::FanIn,
        "leaky_relu",
        cap,
    )?;
    if let Some(bias) = bias {
        let (fan_in, _) = fan_in_and_fan_out(weight_shape)?;
        let bound = bias_bound(fan_in);
        cpu_kernels::uniform_(rng, bias, -bound, bound, cap)?;
    }
    Ok(warning)
}

/// `nn.Embedding`'s default: `normal_(weight)` (N(0, 1), the batched path for 16 or more
/// elements); the padding row is zeroed afterwards by the caller.
pub fn embedding_default_(
    rng: &mut CpuGenerator,
    weight: ElementsMut,
    cap: CpuCapability,
) -> Result<()> {
    cpu_kernels::normal_(rng, weight, 0.0, 1.0, true, cap)
}

/// The RNN/LSTM/GRU default: every parameter, in `parameters()` order, from
/// U(-1/sqrt(hidden_size), 1/sqrt(hidden_size)).
pub fn rnn_default_(
    rng: &mut CpuGenerator,
    params: Vec<ElementsMut>,
    hidden_size: usize,
    cap: CpuCapability,
) -> Result<()> {
    let stdv = bias_bound(hidden_size);
    for p in params {
        cpu_kernels::uniform_(rng, p, -stdv, stdv, cap)?;
    }
    Ok(())
}

/// The warning `trunc_normal_` gives when the mean lies far outside [a, b].
pub(crate) const TRUNC_NORMAL_WARNING: &str = "mean is more than 2 std from [a, b] in nn.init.trunc_normal_. The distribution of values may be incorrect.";

/// `nn.init.trunc_normal_(tensor, mean, std, a, b)` of 2.15 on a float32 tensor
/// (contiguous, visit order = memory order): rejection from N(mean, std) redrawing the
/// whole tensor each round when [a, b] holds more than 30% of the mass, otherwise
/// rejection from U(a, b) against the normal density. Returns the warning if any.
///
/// The second branch compares `log(u)` in float32; PyTorch takes that log from SLEEF
/// (within 1 ulp), this from the platform's `logf`, so a draw within an ulp of the
/// acceptance boundary could be decided differently.
pub fn trunc_normal_f32_(
    rng: &mut CpuGenerator,
    tensor: &mut [f32],
    mean: f64,
    std: f64,
    a: f64,
    b: f64,
    cap: CpuCapability,
) -> Result<Option<&'static str>> {
    let warning =
        ((mean < a - 2.0 * std) || (mean > b + 2.0 * std)).then_some(TRUNC_NORMAL_WARNING);
    let norm_cdf = |x: f64| (1.0 + erf(x / 2f64.sqrt())) / 2.0;
    if std == 0.0 {
        return Err(RandomError {
            kind: ErrorKind::ZeroDivisionError,
            message: "float division by zero".to_string(),
        });
    }
    let p = norm_cdf((b - mean) / std) - norm_cdf((a - mean) / std);
    let n = tensor.len();
    if p > 0.3 {
        let (lo, hi) = (a as f32, b as f32);
        cpu_kernels::normal_(rng, ElementsMut::F32(tensor), mean, std, true, cap)?;
        let mut fresh = vec![0f32; n];
        while tensor.iter().any(|v| *v < lo || *v > hi) {
            cpu_kernels::normal_(rng, ElementsMut::F32(&mut fresh), mean, std, true, cap)?;
            for (t, f) in tensor.iter_mut().zip(&fresh) {
                if *t < lo || *t > hi {
                    *t = *f;
                }
            }
        }
        return Ok(warning);
    }
    let mode = a.max(mean.min(b));
    let log_peak = -0.5 * ((mode - mean) / std).powi(2);
    // log_pdf(x) - log_peak in float32, as the in-place tensor ops compute it.
    let (mean32, std32, peak32) = (mean as f32, std as f32, log_peak as f32);
    let log_pdf = |x: f32| {
        let z = (x - mean32) / std32;
        (z * z) * -0.5 - peak32
    };
    let mut accept = vec![0f32; n];
    cpu_kernels::uniform_(rng, ElementsMut::F32(tensor), a, b, cap)?;
    let mut candidates: Vec<f32> = tensor.iter().map(|x| log_pdf(*x)).collect();
    cpu_kernels::uniform_(rng, ElementsMut::F32(&mut accept), 0.0, 1.0, cap)?;
    let mut pending: Vec<bool> = accept
        .iter()
        .zip(&candidates)
        .map(|(u, c)| u.ln() > *c)
        .collect();
    while pending.iter().any(|p| *p) {
        cpu_kernels::uniform_(rng, ElementsMut::F32(&mut candidates), a, b, cap)?;
        for i in 0..n {
            if pending[i] {
                tensor[i] = candidates[i];
            }
            candidates[i] = log_pdf(candidates[i]);
        }
        cpu_kernels::uniform_(rng, ElementsMut::F32(&mut accept), 0.0, 1.0, cap)?;
        for i in 0..n {
            if pending[i] {
                pending[i] = accept[i].ln() > candidates[i];
            }
        }
    }
    Ok(warning)
}

/// The error function, to about 1e-15 absolute: the Maclaurin series below 3, a
/// continued fraction for erfc above (only `trunc_normal_`'s choice of method depends on
/// it, through the 0.3 threshold).
pub fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    let ax = x.abs();
    if ax >= 6.0 {
        return x.signum();
    }
    let two_over_sqrt_pi = 2.0 / std::f64::consts::PI.sqrt();
    if ax < 3.0 {
        let x2 = x * x;
        let mut term = x;
        let mut sum = x;
        let mut n = 0.0;
        loop {
            n += 1.0;
            term *= -x2 / n;
            let add = term / (2.0 * n + 1.0);
            sum += add;
            if add.abs() <= 1e-17 * sum.abs() || n > 200.0 {
                break;
            }
        }
        return two_over_sqrt_pi * sum;
    }
    // erfc(x) = exp(-x^2) / sqrt(pi) * 1 / (x + 1/2 / (x + 1 / (x + 3/2 / (x + ...)))).
    let mut f = ax;
    for k in (1..60).rev() {
        f = ax + (k as f64 / 2.0) / f;
    }
    let erfc = (-ax * ax).exp() / (std::f64::consts::PI.sqrt() * f);
    (1.0 - erfc) * x.signum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erf_matches_known_values() {
        // Values from the literature (Abramowitz & Stegun table 7.1, extended precision).
        let cases = [
            (0.0, 0.0),
            (0.5, 0.520_499_877_813_046_5),
            (1.0, 0.842_700_792_949_714_9),
            (2.0, 0.995_322_265_018_952_7),
            (3.5, 0.999_999_256_901_627_7),
            (-1.0, -0.842_700_792_949_714_9),
        ];
        for (x, want) in cases {
            assert!((erf(x) - want).abs() < 1e-14, "erf({x}) = {}", erf(x));
        }
    }

    #[test]
    fn gains() {
        assert_eq!(calculate_gain("relu", None).unwrap(), 2f64.sqrt());
        assert_eq!(calculate_gain("tanh", None).unwrap(), 5.0 / 3.0);
        let g = calculate_gain("leaky_relu", Some(5f64.sqrt())).unwrap();
        assert_eq!(g, (2.0f64 / 6.000_000_000_000_001).sqrt());
        assert!(calculate_gain("swish", None).is_err());
    }

    #[test]
    fn fans() {
        assert_eq!(fan_in_and_fan_out(&[3, 5]).unwrap(), (5, 3));
        assert_eq!(fan_in_and_fan_out(&[8, 4, 3, 3]).unwrap(), (36, 72));
        assert!(fan_in_and_fan_out(&[3]).is_err());
    }
}
