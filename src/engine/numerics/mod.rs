//! Float arithmetic of PyTorch 2.15's CPU kernels, bit for bit, as pure functions over slices
//! and strides (no Tensor, no Runtime): the host backend calls these so that float32 results
//! (`.item()`, `.tolist()`, full-precision printing) match real PyTorch exactly.
//!
//! What "exact" is measured against: real PyTorch 2.15 CPU on this machine (AMD EPYC, AVX512,
//! MKL and oneDNN builds), run with one thread (`OMP_NUM_THREADS=1`, as every fixture recorder
//! of this project runs it). scripts/record-numerics.py records the cases, tests/numerics_exact.rs
//! requires each to match bit for bit (NaN payload bits excepted), and docs/engine.md
//! ("Numerics") lists the counts and what is not exact.
//!
//! # Conventions
//! - A strided input is a buffer plus a [`View`] (shape, strides in elements, offset). Results
//!   are returned contiguous (row-major over the kept dimensions for reductions).
//! - Python numbers that ATen turns into float32 scalars are taken as `f64` and rounded once,
//!   where ATen rounds them ([`pointwise::scalar`]).
//! - Functions named `_f32` / `_f64` take that element type; most families are float32 only.
//!
//! # API, and the ATen code each function reproduces
//!
//! **Reductions** ([`sum`], [`stats`], [`reduce`])
//! - [`sum::sum_f32`], [`sum::sum_f64`], [`sum::sum_dims_f32`], [`sum::sum_dims_f64`],
//!   [`sum::nansum_dims_f32`], [`sum::nansum_dims_f64`]: `cascade_sum` (SumKernel.cpp, AVX2
//!   build: 8 float / 4 double lanes) with TensorIterator's dimension order ([`iter`]).
//! - [`sum::mean_dims_f32`] (and `_f64`): `mean_out` = sum / float(count).
//! - [`stats::var_f32`] (var and std), [`stats::var_mean_f32`]: `std_var_all_cpu` (two-pass in
//!   double) for one output, `WelfordOps` in double otherwise.
//! - [`stats::vector_norm_f32`] with [`stats::NormOrd`]: `norm_kernel_tensor_iterator_impl`
//!   (vectorised p=2 over a contiguous last dimension, `Norm*Ops` otherwise).
//! - [`stats::cumulative_f32`]: `cumsum` / `cumprod` (accumulated in double).
//! - [`stats::logsumexp_f32`]: `logsumexp` (its exp/log are MKL's: within an ulp, see below).
//! - [`reduce::prod_f32`], [`reduce::amax_f32`], [`reduce::amin_f32`], [`reduce::argmax_f32`]
//!   (argmin too): `binary_kernel_reduce_vec` (Reduce.h), `max_impl`/`min_impl` NaN rules.
//!
//! **Elementwise** ([`unary`], [`pointwise`], [`backward`])
//! - [`unary::unary_f32`], [`unary::unary_strided_f32`] with [`unary::Unary`]: sigmoid, log1p,
//!   expm1, rsqrt, reciprocal, gelu (both), silu, softplus, elu, leaky_relu, mish, hardswish,
//!   hardsigmoid, hardtanh (the clamp kernel), logit (MKL's log), `x ** e`:
//!   `cpu_kernel_vec`'s vector half (SLEEF, [`sleef`]) on the leading multiple of 32 of each
//!   contiguous row, glibc on the rest ([`loops`]); contiguous gelu is oneDNN's ([`onednn`]).
//!   exp, log, log2, log10, sqrt, tanh, sin, cos, tan, erf, erfc are MKL's in PyTorch:
//!   [`unary::Unary::is_mkl`] marks them, [`mkl`] gives stand-ins within one ulp.
//! - [`pointwise::add_alpha`], [`pointwise::sub_alpha`], [`pointwise::addcmul`],
//!   [`pointwise::addcdiv`], [`pointwise::lerp`] and the in-place slice forms (`addcdiv_`, `lerp_`): the ufunc add,
//!   PointwiseOpsKernel, LerpKernel (GCC fuses `a + s*b`).
//! - [`backward::backward_f32`] with [`backward::Backward`]: threshold (relu), sigmoid, tanh,
//!   gelu (oneDNN for contiguous), silu, softplus, elu, leaky_relu, mish, hardswish,
//!   hardsigmoid, hardtanh, log_sigmoid, logit backward kernels.
//!
//! **float64** ([`sleef_f64`], [`unary_f64`]) and float32 binaries ([`binary`])
//! - [`sleef_f64`]: SLEEF's double exp, log, expm1, log1p, tanh, erf (`Sleef_*d8_u10`).
//! - [`unary_f64::unary_strided_f64`] with [`unary_f64::UnaryF64`]: sigmoid, silu, softplus,
//!   elu (selu, celu), mish, gelu (both), logsigmoid, log1p, expm1 of double.
//! - [`softmax::softmax_f64`], [`softmax::log_softmax_f64`]; [`stats::var_f64`],
//!   [`stats::var_mean_f64`], [`stats::vector_norm2_f64`], [`reduce::prod_f64`],
//!   [`loss::nll_loss_t`].
//! - [`binary::binary_strided_f32`]: float32 atan2 and pow of two tensors (BinaryOpsKernel,
//!   PowKernel: SLEEF/glibc split at 32).
//!
//! **Softmax and losses** ([`softmax`], [`loss`])
//! - [`softmax::softmax_f32`], [`softmax::log_softmax_f32`], [`softmax::softmax_backward_f32`],
//!   [`softmax::log_softmax_backward_f32`] over `outer x dim x inner`: SoftMaxKernel.cpp /
//!   LogSoftmaxKernelImpl.h (AVX512 build, 16 lanes).
//! - [`loss::cross_entropy_f32`] (weight, ignore_index, label_smoothing, reductions),
//!   [`loss::cross_entropy_probs_f32`], [`loss::nll_loss_f32`] / [`loss::nll_loss_backward_f32`]
//!   (LossNLL.cpp, its 8-level cascade), [`loss::mse_loss_f32`] / backward, [`loss::l1_loss_f32`],
//!   [`loss::smooth_l1_loss_f32`] and [`loss::huber_loss_f32`] (one backward,
//!   [`loss::smooth_loss_backward_f32`]),
//!   [`loss::binary_cross_entropy_f32`] / backward, [`loss::bce_with_logits_f32`] / backward,
//!   [`loss::log_sigmoid_f32`].
//!
//! **Factories and optimisers** ([`range`], [`optim`])
//! - [`range::linspace_f32`], [`range::arange_f32`], [`range::arange_len`]:
//!   RangeFactoriesKernel.cpp.
//! - [`optim::sgd_step`], [`optim::adam_step_with_sqrt`] (AdamW via `decoupled_weight_decay`, amsgrad),
//!   [`optim::rmsprop_step_with_sqrt`] (centered, momentum): torch/optim's single-tensor CPU paths; the
//!   `*_with_sqrt` forms take `torch.sqrt` from the caller (it is MKL's).
//!
//! **Building blocks**: [`iter`] (TensorIterator's `reorder_dimensions` / `coalesce_dimensions`
//! / `serial_for_each`, output strides of allocated results), [`loops`] (vectorized_loop),
//! [`vecops`] (`reduce_all` and friends), [`lanes`] (`Vectorized<T>` lanes), [`sleef`] (SLEEF's
//! float functions, checked on every float32 input against libtorch's own SLEEF).

pub mod backward;
pub mod binary;
pub(crate) mod fast;
pub mod iter;
pub(crate) mod lanes;
pub(crate) mod loops;
pub mod loss;
pub(crate) mod mkl;
pub(crate) mod onednn;
pub mod optim;
pub mod pointwise;
pub mod range;
pub mod reduce;
pub(crate) mod sleef;
pub(crate) mod sleef_f64;
pub mod softmax;
pub mod stats;
pub mod sum;
#[cfg(test)]
mod thread_invariance;
pub mod unary;
pub mod unary_f64;
pub(crate) mod vecops;

pub use iter::View;
