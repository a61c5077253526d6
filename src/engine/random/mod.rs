//! PyTorch's random number streams, bit for bit: the generators and the sampling kernels of
//! ATen 2.15, as pure functions over typed slices (no tensors, no runtime).
//!
//! # API (for wiring into the engine)
//!
//! Generators — one [`CpuGenerator`] for the default CPU stream (`torch.manual_seed`,
//! `torch.initial_seed`, `torch.get_rng_state`) and one per `torch.Generator()` object:
//! - [`CpuGenerator::new`]`(seed)`, `Default` ([`DEFAULT_SEED`] = 67280421310721, what a fresh
//!   fresh `torch.Generator()` reports; a fresh process's default generator starts from
//!   [`nondeterministic_seed`], 64 OS random bits, as in PyTorch);
//! - [`seed_from_int`]`(i128)` turns a Python int into the seed `manual_seed` uses
//!   (negative values two's complement; outside [-2^63, 2^64) a `ValueError`);
//! - `manual_seed(u64)`, `initial_seed()`, `random()` (u32), `random64()`;
//! - `get_state()` (the 5056 bytes of `torch.get_rng_state()`), `set_state(&[u8])`.
//!
//! `torch.manual_seed(s)` also seeds every CUDA generator: [`CudaGenerator::manual_seed`].
//!
//! CPU kernels — each fills an [`ElementsMut`] (the tensor's elements in visit order:
//! memory order when contiguous, else [`iteration_order`]) and takes the
//! [`CpuCapability`] (`Avx2` unless emulating `ATEN_CPU_CAPABILITY=default`):
//! - `torch.rand/rand_like`, `uniform_(a, b)`: [`uniform_`];
//! - `torch.randn/randn_like`, `normal_(m, s)`, `torch.normal(m, s, size)`: [`normal_`]
//!   (pass `contiguous`; 16+ contiguous elements take the batched path, see
//!   [`normal_uses_batches`]); `torch.normal` with a tensor mean or std:
//!   [`normal_tensors_`] (draw, then `* std` and `+ mean` as separate roundings);
//! - `torch.randint(low, high, size)`, `random_(from, to)`, `random_(to)`:
//!   [`random_from_to_`] (int64 unless `dtype=`); `random_()`: [`random_`];
//! - `bernoulli_(p)`, `torch.bernoulli(x, p)`: [`bernoulli_scalar_`]; `torch.bernoulli(p)`,
//!   `bernoulli_(p_tensor)`: [`bernoulli_tensor_`];
//! - `exponential_`, `geometric_`, `log_normal_`, `cauchy_`: [`exponential_`], ...;
//! - `torch.randperm(n)`: [`randperm`] (check [`randperm_max_n`] for the dtype first);
//! - `torch.multinomial`: [`multinomial`];
//! - `F.dropout` / `nn.Dropout` in training mode, 0 < p < 1: `noise = empty_like(x)`,
//!   [`dropout_noise_`], then `x * noise` (`dropout2d`: noise shaped (N, C, 1, ...));
//!   p = 0 or eval returns x and p = 1 multiplies by 0, neither drawing.
//!
//! nn initialisation ([`init`]): `nn.Linear`/`nn.ConvNd` defaults
//! ([`init::linear_or_conv_default_`]: weight, then bias), `nn.Embedding`
//! ([`init::embedding_default_`]), RNNs ([`init::rnn_default_`]), and `nn.init.*`
//! (`kaiming_uniform_`, `kaiming_normal_`, `xavier_uniform_`, `xavier_normal_`,
//! `trunc_normal_f32_`, `calculate_gain`, `fan_in_and_fan_out`); `nn.init.uniform_/normal_`
//! are [`uniform_`]/[`normal_`]; zeros_/ones_/constant_ draw nothing.
//!
//! Two draws the engine must make itself, in this order, to follow PyTorch's streams:
//! `iter(DataLoader)` draws `torch.empty((), dtype=torch.int64).random_()` (one
//! `random64`) for its base seed; a `shuffle=True` sampler then draws another such int64
//! from the default generator, seeds a fresh [`CpuGenerator`] with it, and takes
//! [`randperm`]`(n)` from that one.
//!
//! CUDA ([`cuda`]): [`CudaGenerator`] (seed + Philox offset, `get_state` 16 bytes) and the
//! kernels' element values given the device's SM count and threads per SM
//! ([`cuda::DeviceShape::H200`]). **Unverified**: written from PyTorch's and curand's
//! source, not yet compared with a GPU (tests/cuda/random_*.py print what to compare).
//!
//! All errors are [`RandomError`]s carrying PyTorch's exception type and message.

mod avx_mathfun;
mod cpu_generator;
pub(crate) mod cpu_kernels;
pub mod cuda;
mod elements;
mod factories;
pub mod half;
pub mod init;
mod messages;
mod mt19937;
mod sampling;

pub use cpu_generator::{
    CPU_STATE_BYTES, CpuGenerator, DEFAULT_SEED, SeedError, nondeterministic_seed, seed_from_int,
};
pub use cpu_kernels::{
    Probabilities, RandomError, Result, bernoulli_scalar_, bernoulli_tensor_, cauchy_,
    exponential_, geometric_, log_normal_, normal_, normal_uses_batches, random_, random_from_to_,
    random_precision_warning, uniform_,
};
pub use cuda::CudaGenerator;

/// A `torch.Generator()` object (CPU): shared by the Python handles that name it.
pub type SharedGenerator = std::rc::Rc<std::cell::RefCell<CpuGenerator>>;
pub use elements::{ElementType, ElementsMut, iteration_order};
pub use factories::{
    MultinomialInput, NormalParam, check_dropout_p, dropout_noise_, multinomial, normal_tensors_,
    randperm, randperm_max_n,
};
pub use messages::cpp_double;
pub use sampling::{
    CpuCapability, bernoulli_f32, bernoulli_f64, exponential_f64, normal_f64, uniform_f32,
    uniform_f64, unit_f32, unit_f64,
};
