//! Bit-exact float arithmetic of PyTorch 2.15's CPU kernels, as pure functions over slices and
//! strides (no Tensor, no Runtime). The engine's host backend calls these so that float32
//! results (`.item()`, `.tolist()`, printing at full precision) match real PyTorch bit for bit.
//! tests/numerics_exact.rs checks every function against recordings of real PyTorch
//! (scripts/record-numerics.py); docs/engine.md ("Numerics") lists what is exact and what is not.
//!
//! The API is listed, with the ATen kernel each function reproduces, in docs/engine.md and
//! below as the families land.
//!
//! | module | reproduces |
//! |---|---|
//! | [`sum`] | `sum`, `nansum`, `mean` (SumKernel.cpp cascade_sum, AVX2 build; ReduceOps.cpp mean_out) |
//! | [`unary`] | sigmoid, log1p, expm1, rsqrt, reciprocal, gelu, silu, softplus, elu, leaky_relu, pow(scalar) |
//! | [`sleef`] | SLEEF's expf/logf/log1pf/expm1f/tanhf/powf (u10), ATen's exp_u20 and vectorised erf |
//! | [`onednn`] | oneDNN's gelu_erf (contiguous float32 `F.gelu`) |
//! | [`iter`] | TensorIterator's dimension sorting/merging and 2-d slicing |
//! | [`loops`] | Loops.h's vectorized_loop / basic_loop split |
//! | [`lanes`] | `Vectorized<T>` lanes and the element types |

pub mod backward;
pub mod iter;
pub mod lanes;
pub mod loops;
pub mod loss;
pub mod mkl;
pub mod onednn;
pub mod optim;
pub mod pointwise;
pub mod range;
pub mod sleef;
pub mod softmax;
pub mod stats;
pub mod sum;
pub mod unary;
pub mod vecops;
