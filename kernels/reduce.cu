// reduce.cu: sum / mean / max / min / argmax / argmin / any / all over one dimension.
//
// The input is viewed as [outer, len, inner] with strides (s_outer, s_len, s_inner) in
// elements, and the output as the contiguous [outer, inner]. A full reduction (dim=None) is
// outer = inner = 1, len = numel on a contiguous input; a reduction over a dimension of a
// contiguous tensor is outer = prod(sizes before), inner = prod(sizes after). The host makes
// other layouts contiguous first (copy.cu).
//
// Launch: one block per output element (grid.x = outer * inner, grid-stride beyond that) and
// exactly CT_REDUCE_THREADS threads per block; the block reduces in shared memory.
// Accumulation follows PyTorch: float in float, double in double, integers and bool in int64
// (sum of an int/uint8/bool tensor is int64). max/min/argmax propagate NaN (first NaN wins),
// ties go to the lowest index, as in PyTorch.

#define CT_REDUCE_THREADS 256

struct CtReduceGeom {
  int64_t outer, len, inner;
  int64_t s_outer, s_len, s_inner;
};

__device__ __forceinline__ int64_t ct_reduce_base(const CtReduceGeom& g, int64_t out_index) {
  const int64_t o = out_index / g.inner;
  const int64_t i = out_index % g.inner;
  return o * g.s_outer + i * g.s_inner;
}

// Tree reduction of one value per thread; returns the block's result in thread 0.
template <typename Acc, typename Combine>
__device__ Acc ct_block_reduce(Acc v, Acc* smem, Combine combine) {
  const int tid = threadIdx.x;
  smem[tid] = v;
  __syncthreads();
  for (int stride = CT_REDUCE_THREADS / 2; stride > 0; stride >>= 1) {
    if (tid < stride) smem[tid] = combine(smem[tid], smem[tid + stride]);
    __syncthreads();
  }
  const Acc r = smem[0];
  __syncthreads();  // smem is reused by the next output of the grid-stride loop
  return r;
}

struct CombineSum { template <typename A> __device__ A operator()(A a, A b) const { return a + b; } };
struct CombineOr { __device__ bool operator()(bool a, bool b) const { return a || b; } };
struct CombineAnd { __device__ bool operator()(bool a, bool b) const { return a && b; } };

// sum (mean when divide is true) -> Out.
template <typename T, typename Acc, typename Out>
__device__ void ct_sum(CtReduceGeom g, const T* in, Out* out, bool divide) {
  __shared__ Acc smem[CT_REDUCE_THREADS];
  const int64_t n_out = g.outer * g.inner;
  for (int64_t r = blockIdx.x; r < n_out; r += gridDim.x) {
    const int64_t base = ct_reduce_base(g, r);
    Acc acc = (Acc)0;
    for (int64_t k = threadIdx.x; k < g.len; k += CT_REDUCE_THREADS) acc += (Acc)in[base + k * g.s_len];
    acc = ct_block_reduce<Acc>(acc, smem, CombineSum());
    if (threadIdx.x == 0) out[r] = divide ? (Out)(acc / (Acc)g.len) : (Out)acc;
  }
}

// any / all -> bool.
template <typename T, bool IsAll>
__device__ void ct_any_all(CtReduceGeom g, const T* in, bool* out) {
  __shared__ bool smem[CT_REDUCE_THREADS];
  const int64_t n_out = g.outer * g.inner;
  for (int64_t r = blockIdx.x; r < n_out; r += gridDim.x) {
    const int64_t base = ct_reduce_base(g, r);
    bool acc = IsAll;
    for (int64_t k = threadIdx.x; k < g.len; k += CT_REDUCE_THREADS) {
      const bool v = in[base + k * g.s_len] != (T)0;
      acc = IsAll ? (acc && v) : (acc || v);
    }
    acc = IsAll ? ct_block_reduce<bool>(acc, smem, CombineAnd())
                : ct_block_reduce<bool>(acc, smem, CombineOr());
    if (threadIdx.x == 0) out[r] = acc;
  }
}

// Is (a, ia) a better max (IsMax) / min candidate than (b, ib)? NaN beats numbers; ties go to
// the lower index.
template <typename T, bool IsMax>
__device__ __forceinline__ bool ct_better(T a, int64_t ia, T b, int64_t ib) {
  const bool an = ct_isnan(a), bn = ct_isnan(b);
  if (an || bn) return an && (!bn || ia < ib);
  if (a == b) return ia < ib;
  return IsMax ? a > b : a < b;
}

// max / min with indices (torch.max(x, dim) -> (values, indices)); either output may be null.
template <typename T, bool IsMax>
__device__ void ct_arg_reduce(CtReduceGeom g, const T* in, T* out_values, int64_t* out_indices) {
  __shared__ T sval[CT_REDUCE_THREADS];
  __shared__ int64_t sidx[CT_REDUCE_THREADS];
  const int64_t n_out = g.outer * g.inner;
  const int tid = threadIdx.x;
  for (int64_t r = blockIdx.x; r < n_out; r += gridDim.x) {
    const int64_t base = ct_reduce_base(g, r);
    T best = (T)0;
    int64_t best_i = -1;  // -1: this thread saw nothing
    for (int64_t k = tid; k < g.len; k += CT_REDUCE_THREADS) {
      const T v = in[base + k * g.s_len];
      if (best_i < 0 || ct_better<T, IsMax>(v, k, best, best_i)) {
        best = v;
        best_i = k;
      }
    }
    sval[tid] = best;
    sidx[tid] = best_i;
    __syncthreads();
    for (int stride = CT_REDUCE_THREADS / 2; stride > 0; stride >>= 1) {
      if (tid < stride) {
        const int64_t oi = sidx[tid + stride];
        if (oi >= 0 && (sidx[tid] < 0 || ct_better<T, IsMax>(sval[tid + stride], oi, sval[tid], sidx[tid]))) {
          sval[tid] = sval[tid + stride];
          sidx[tid] = oi;
        }
      }
      __syncthreads();
    }
    if (tid == 0) {
      if (out_values != nullptr) out_values[r] = sval[0];
      if (out_indices != nullptr) out_indices[r] = sidx[0];
    }
    __syncthreads();
  }
}

// Accumulates in the output's type.
#define CT_SUM(T, S, Out)                                                                  \
  extern "C" __global__ void sum_##S(CtReduceGeom g, const T* in, Out* out) {             \
    ct_sum<T, Out, Out>(g, in, out, false);                                                \
  }
CT_FOR_ALL_DTYPES_WITH_SUM_TYPE(CT_SUM)

#define CT_MEAN(T, S)                                                                      \
  extern "C" __global__ void mean_##S(CtReduceGeom g, const T* in, T* out) {              \
    ct_sum<T, T, T>(g, in, out, true);                                                     \
  }
CT_FOR_FLOAT_DTYPES(CT_MEAN)

#define CT_MINMAX(T, S)                                                                    \
  extern "C" __global__ void max_##S(CtReduceGeom g, const T* in, T* values, int64_t* indices) { \
    ct_arg_reduce<T, true>(g, in, values, indices);                                        \
  }                                                                                        \
  extern "C" __global__ void min_##S(CtReduceGeom g, const T* in, T* values, int64_t* indices) { \
    ct_arg_reduce<T, false>(g, in, values, indices);                                       \
  }                                                                                        \
  extern "C" __global__ void argmax_##S(CtReduceGeom g, const T* in, int64_t* indices) {  \
    ct_arg_reduce<T, true>(g, in, nullptr, indices);                                       \
  }                                                                                        \
  extern "C" __global__ void argmin_##S(CtReduceGeom g, const T* in, int64_t* indices) {  \
    ct_arg_reduce<T, false>(g, in, nullptr, indices);                                      \
  }
CT_FOR_ALL_DTYPES(CT_MINMAX)

#define CT_ANY_ALL(T, S)                                                                   \
  extern "C" __global__ void any_##S(CtReduceGeom g, const T* in, bool* out) {            \
    ct_any_all<T, false>(g, in, out);                                                      \
  }                                                                                        \
  extern "C" __global__ void all_##S(CtReduceGeom g, const T* in, bool* out) {            \
    ct_any_all<T, true>(g, in, out);                                                       \
  }
CT_FOR_ALL_DTYPES(CT_ANY_ALL)

// var / std (torch.var, torch.std, with `correction`): PyTorch's CUDA reduction with
// WelfordOps (SharedReduceOps.h), accumulating in the element type (float for float32, as
// at::acc_type<float, true>), the count in int32 for each thread's own elements:
//   reduce:  n += 1; delta = x - mean; mean += delta / n; m2 += delta * (x - mean)
//   combine: delta = b.mean - a.mean; N = a.n + b.n; r = b.n / N;
//            mean = a.mean + delta * r; m2 = a.m2 + b.m2 + delta * delta * a.n * r
//   project: var = m2 / max(N - correction, 0); std = sqrt(var)
// with the multiply-adds nvcc contracts written out as ct_fma. Each thread folds its
// elements (k = tid, tid + 256, ...) with `reduce`, then the block combines the 256 partial
// states pairwise in shared memory (stride 128, 64, ..., 1). PyTorch's own reduce splits the
// elements among threads and warps in another pattern (vectorised loads, warp shuffles), so
// for long rows the last bits may differ from real CUDA; the formulas are PyTorch's.
__device__ __forceinline__ float ct_sqrt(float x) { return sqrtf(x); }
__device__ __forceinline__ double ct_sqrt(double x) { return sqrt(x); }

template <typename T>
struct CtWelford {
  T mean, m2, nf;
};

template <typename T>
__device__ __forceinline__ CtWelford<T> ct_welford_combine(CtWelford<T> a, CtWelford<T> b) {
  if (a.nf == (T)0) return b;
  if (b.nf == (T)0) return a;
  const T delta = b.mean - a.mean;
  const T new_count = a.nf + b.nf;
  const T nb_over_n = b.nf / new_count;
  CtWelford<T> r;
  r.mean = ct_fma(delta, nb_over_n, a.mean);
  r.m2 = ct_fma(delta * delta * a.nf, nb_over_n, a.m2 + b.m2);
  r.nf = new_count;
  return r;
}

template <typename T>
__device__ void ct_var(CtReduceGeom g, T correction, bool take_sqrt, const T* in, T* out) {
  __shared__ T s_mean[CT_REDUCE_THREADS];
  __shared__ T s_m2[CT_REDUCE_THREADS];
  __shared__ T s_nf[CT_REDUCE_THREADS];
  const int64_t n_out = g.outer * g.inner;
  const int tid = threadIdx.x;
  for (int64_t r = blockIdx.x; r < n_out; r += gridDim.x) {
    const int64_t base = ct_reduce_base(g, r);
    T mean = (T)0, m2 = (T)0;
    int32_t n = 0;
    for (int64_t k = tid; k < g.len; k += CT_REDUCE_THREADS) {
      const T x = in[base + k * g.s_len];
      const int32_t new_n = n + 1;
      const T new_nf = (T)new_n;
      const T delta = x - mean;
      const T new_mean = mean + delta / new_nf;
      const T new_delta = x - new_mean;
      m2 = ct_fma(delta, new_delta, m2);
      mean = new_mean;
      n = new_n;
    }
    s_mean[tid] = mean;
    s_m2[tid] = m2;
    s_nf[tid] = (T)n;
    __syncthreads();
    for (int stride = CT_REDUCE_THREADS / 2; stride > 0; stride >>= 1) {
      if (tid < stride) {
        CtWelford<T> a = {s_mean[tid], s_m2[tid], s_nf[tid]};
        CtWelford<T> b = {s_mean[tid + stride], s_m2[tid + stride], s_nf[tid + stride]};
        const CtWelford<T> c = ct_welford_combine(a, b);
        s_mean[tid] = c.mean;
        s_m2[tid] = c.m2;
        s_nf[tid] = c.nf;
      }
      __syncthreads();
    }
    if (tid == 0) {
      const T nf = s_nf[0];
      const T divisor = nf > correction ? nf - correction : (T)0;
      const T var = s_m2[0] / divisor;
      out[r] = take_sqrt ? ct_sqrt(var) : var;
    }
    __syncthreads();  // the shared arrays are reused by the next output
  }
}

#define CT_VAR(T, S)                                                                       \
  extern "C" __global__ void var_##S(CtReduceGeom g, T correction, bool take_sqrt,        \
                                     const T* in, T* out) {                                \
    ct_var<T>(g, correction, take_sqrt, in, out);                                          \
  }
CT_FOR_FLOAT_DTYPES(CT_VAR)

// torch.linalg.vector_norm / Tensor.norm(p) of a float32/float64 tensor over one dimension,
// as ATen's norm ops (SharedReduceOps.h: NormTwoOps, NormOneOps, AbsMaxOps, AbsMinOps,
// NormZeroOps, NormOps), accumulating in the element type as PyTorch's CUDA reduce does for
// float and double: p = 2 folds `acc + x * x` (one fused multiply-add, as nvcc contracts it)
// and takes the square root; p = 1 sums |x|; inf / -inf take the largest / smallest |x|
// (NaN propagates); 0 counts the nonzeros; any other p sums |x|^p and takes the 1/p-th power.
// Threads and blocks as ct_sum: each thread folds its elements in order, the block combines.
struct CombineMaxNan {
  template <typename A> __device__ A operator()(A a, A b) const {
    return ct_isnan(a) ? a : (ct_isnan(b) ? b : (a > b ? a : b));
  }
};
struct CombineMinNan {
  template <typename A> __device__ A operator()(A a, A b) const {
    return ct_isnan(a) ? a : (ct_isnan(b) ? b : (a < b ? a : b));
  }
};
__device__ __forceinline__ float ct_abs(float x) { return fabsf(x); }
__device__ __forceinline__ double ct_abs(double x) { return fabs(x); }
__device__ __forceinline__ float ct_pow(float x, float y) { return powf(x, y); }
__device__ __forceinline__ double ct_pow(double x, double y) { return pow(x, y); }

template <typename T>
__device__ void ct_norm(CtReduceGeom g, T p, const T* in, T* out) {
  __shared__ T smem[CT_REDUCE_THREADS];
  const int64_t n_out = g.outer * g.inner;
  const T inf = (T)1.0 / (T)0.0;
  const int kind = p == (T)2 ? 2 : p == (T)1 ? 1 : p == inf ? 3 : p == -inf ? 4 : p == (T)0 ? 0 : 5;
  for (int64_t r = blockIdx.x; r < n_out; r += gridDim.x) {
    const int64_t base = ct_reduce_base(g, r);
    T acc = kind == 4 ? inf : (T)0;
    for (int64_t k = threadIdx.x; k < g.len; k += CT_REDUCE_THREADS) {
      const T x = in[base + k * g.s_len];
      const T a = ct_abs(x);
      switch (kind) {
        case 2: acc = ct_fma(x, x, acc); break;
        case 1: acc = acc + a; break;
        case 3: acc = CombineMaxNan()(acc, a); break;
        case 4: acc = CombineMinNan()(acc, a); break;
        case 0: acc = acc + (T)(x != (T)0); break;
        default: acc = acc + ct_pow(a, p); break;
      }
    }
    if (kind == 3) {
      acc = ct_block_reduce<T>(acc, smem, CombineMaxNan());
    } else if (kind == 4) {
      acc = ct_block_reduce<T>(acc, smem, CombineMinNan());
    } else {
      acc = ct_block_reduce<T>(acc, smem, CombineSum());
    }
    if (threadIdx.x == 0) {
      out[r] = kind == 2 ? ct_sqrt(acc) : kind == 5 ? ct_pow(acc, (T)1 / p) : acc;
    }
  }
}

#define CT_NORM(T, S)                                                                      \
  extern "C" __global__ void norm_##S(CtReduceGeom g, T p, const T* in, T* out) {         \
    ct_norm<T>(g, p, in, out);                                                             \
  }
CT_FOR_FLOAT_DTYPES(CT_NORM)
