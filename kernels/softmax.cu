// softmax.cu: F.softmax / F.log_softmax over one dimension, numerically stable
// (subtract the row max before exp; log_softmax = x - max - log(sum(exp(x - max)))).
//
// The contiguous input is viewed as [outer, dim_size, inner]; each (outer, inner) pair is one
// row of dim_size elements with stride `inner`. softmax over the last dim is inner = 1.
// Launch: one block per row (grid.x = outer * inner, grid-stride beyond that), exactly
// CT_SOFTMAX_THREADS threads per block. Accumulates in float for f32 and double for f64.

#define CT_SOFTMAX_THREADS 256

template <typename T>
__device__ T ct_row_reduce(T v, T* smem, bool is_max) {
  const int tid = threadIdx.x;
  smem[tid] = v;
  __syncthreads();
  for (int stride = CT_SOFTMAX_THREADS / 2; stride > 0; stride >>= 1) {
    if (tid < stride) {
      const T a = smem[tid], b = smem[tid + stride];
      smem[tid] = is_max ? (ct_isnan(a) || a > b ? a : b) : a + b;
    }
    __syncthreads();
  }
  const T r = smem[0];
  __syncthreads();
  return r;
}

template <typename T, bool IsLog>
__device__ void ct_softmax(int64_t outer, int64_t dim_size, int64_t inner, const T* in, T* out) {
  __shared__ T smem[CT_SOFTMAX_THREADS];
  const int64_t rows = outer * inner;
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    const int64_t base = (row / inner) * dim_size * inner + (row % inner);
    T m = -(T)1.0 / (T)0.0;  // -inf
    for (int64_t k = threadIdx.x; k < dim_size; k += CT_SOFTMAX_THREADS) {
      const T v = in[base + k * inner];
      m = (ct_isnan(v) || v > m) ? v : m;
    }
    m = ct_row_reduce<T>(m, smem, true);
    // A row of all -inf would give (-inf) - (-inf) = nan, which is also what PyTorch returns.
    T s = (T)0;
    for (int64_t k = threadIdx.x; k < dim_size; k += CT_SOFTMAX_THREADS) s += ct_exp(in[base + k * inner] - m);
    s = ct_row_reduce<T>(s, smem, false);
    if (IsLog) {
      const T log_s = ct_log(s);
      for (int64_t k = threadIdx.x; k < dim_size; k += CT_SOFTMAX_THREADS)
        out[base + k * inner] = in[base + k * inner] - m - log_s;
    } else {
      const T inv = (T)1 / s;
      for (int64_t k = threadIdx.x; k < dim_size; k += CT_SOFTMAX_THREADS)
        out[base + k * inner] = ct_exp(in[base + k * inner] - m) * inv;
    }
  }
}

#define CT_SOFTMAX(T, S)                                                                   \
  extern "C" __global__ void softmax_##S(int64_t outer, int64_t dim_size, int64_t inner,   \
                                         const T* in, T* out) {                            \
    ct_softmax<T, false>(outer, dim_size, inner, in, out);                                 \
  }                                                                                        \
  extern "C" __global__ void log_softmax_##S(int64_t outer, int64_t dim_size,              \
                                             int64_t inner, const T* in, T* out) {         \
    ct_softmax<T, true>(outer, dim_size, inner, in, out);                                  \
  }
CT_FOR_FLOAT_DTYPES(CT_SOFTMAX)

// softmax / log_softmax backward (autograd's _softmax_backward_data), as PyTorch's CUDA
// persistent warp kernel (persistent_softmax.cuh, softmax_warp_backward) computes it for
// rows of at most 1024 elements:
//   log_softmax: gI = g - exp(y) * sum(g)
//   softmax:     PyTorch first forms tmp = g * y (a separate multiply), then
//                gI = tmp - y * sum(tmp)
// with `a - b * c` contracted into fma(-b, c, a) as nvcc does. The row sum is the warp's:
// lane l (of W = min(next_pow2(dim), 32) lanes) adds elements l, l + W, l + 2W, ... in
// order, then the lanes combine by XOR butterfly (offset W/2, ..., 1: s += s[l ^ offset]),
// here through shared memory. Launch: block W threads, one block per row (grid-stride).
// Rows longer than 1024 (PyTorch's block kernel) and inner > 1 (its spatial kernel) use the
// same warp sum here, so their last bits may differ from real CUDA.
template <typename T, bool IsLog>
__device__ void ct_softmax_backward(int64_t outer, int64_t dim_size, int64_t inner,
                                    const T* grad, const T* out, T* gin) {
  __shared__ T lanes[32];
  const int64_t rows = outer * inner;
  const int w = blockDim.x;
  const int lane = threadIdx.x;
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    const int64_t base = (row / inner) * dim_size * inner + (row % inner);
    T s = (T)0;
    for (int64_t k = lane; k < dim_size; k += w) {
      const T g = grad[base + k * inner];
      s += IsLog ? g : g * out[base + k * inner];
    }
    for (int offset = w / 2; offset > 0; offset >>= 1) {
      lanes[lane] = s;
      __syncthreads();
      const T other = lanes[lane ^ offset];
      __syncthreads();
      s = s + other;
    }
    for (int64_t k = lane; k < dim_size; k += w) {
      const int64_t i = base + k * inner;
      const T y = out[i];
      if (IsLog) {
        gin[i] = ct_fma(-ct_exp(y), s, grad[i]);
      } else {
        gin[i] = ct_fma(-y, s, grad[i] * y);
      }
    }
  }
}

#define CT_SOFTMAX_BACKWARD(T, S)                                                          \
  extern "C" __global__ void softmax_backward_##S(int64_t outer, int64_t dim_size,         \
                                                  int64_t inner, const T* grad,            \
                                                  const T* out, T* gin) {                  \
    ct_softmax_backward<T, false>(outer, dim_size, inner, grad, out, gin);                 \
  }                                                                                        \
  extern "C" __global__ void log_softmax_backward_##S(int64_t outer, int64_t dim_size,     \
                                                      int64_t inner, const T* grad,        \
                                                      const T* out, T* gin) {              \
    ct_softmax_backward<T, true>(outer, dim_size, inner, grad, out, gin);                  \
  }
CT_FOR_FLOAT_DTYPES(CT_SOFTMAX_BACKWARD)
