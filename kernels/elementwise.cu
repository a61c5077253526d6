// elementwise.cu: strided unary and binary ops with broadcasting (a + b, torch.relu, ...).
//
// Every tensor is described by the output's shape (CtShape) and its own strides in elements
// (CtStrides); a broadcast input has stride 0 in the broadcast dimensions. The host has
// already checked shapes and dtypes (PyTorch's host errors) and promoted both inputs to the
// output dtype, so each kernel works on one element type. Entry names: <op>_<dtype>, dtype one
// of f32 f64 i64 i32 u8 bool. Launch: any 1-D grid (grid-stride loop).

// Elements per vector access on the contiguous path: 4 (16 bytes for float32), 2 for 8-byte
// types.
template <typename T>
struct CtVecWidth {
  static constexpr int value = sizeof(T) >= 8 ? 2 : 4;
};

// out[i] = f(i) over a contiguous output, whole vectors where every pointer is aligned:
// `load(j)` gives element j of each input. Elementwise results do not depend on the order, so
// this path gives the same bits as the strided one.
template <typename T, typename F>
__device__ void ct_contiguous(int64_t n, T* out, bool aligned, F f) {
  constexpr int V = CtVecWidth<T>::value;
  int64_t done = 0;
  if (aligned) {
    const int64_t nv = n / V;
    CtVec<T, V>* ov = reinterpret_cast<CtVec<T, V>*>(out);
    CT_KERNEL_LOOP(i, nv) {
      CtVec<T, V> r;
      for (int k = 0; k < V; ++k) r.v[k] = f(i * V + k);
      ov[i] = r;
    }
    done = nv * V;
  }
  CT_KERNEL_LOOP(i, n - done) { out[done + i] = f(done + i); }
}

template <typename T, typename Op>
__device__ void ct_unary(int64_t n, const CtShape& shape, const CtStrides& sa,
                         const CtStrides& so, const T* a, T* out, Op op) {
  constexpr int V = CtVecWidth<T>::value;
  if (ct_is_contiguous(shape, sa) && ct_is_contiguous(shape, so)) {
    const bool aligned = ct_vec_aligned<T, V>(a) && ct_vec_aligned<T, V>(out);
    ct_contiguous(n, out, aligned, [&](int64_t j) { return op(a[j]); });
    return;
  }
  CT_KERNEL_LOOP(i, n) { out[ct_offset(i, shape, so)] = op(a[ct_offset(i, shape, sa)]); }
}

template <typename T, typename Op>
__device__ void ct_binary(int64_t n, const CtShape& shape, const CtStrides& sa,
                          const CtStrides& sb, const CtStrides& so, const T* a, const T* b,
                          T* out, Op op) {
  constexpr int V = CtVecWidth<T>::value;
  if (ct_is_contiguous(shape, sa) && ct_is_contiguous(shape, sb) && ct_is_contiguous(shape, so)) {
    const bool aligned =
        ct_vec_aligned<T, V>(a) && ct_vec_aligned<T, V>(b) && ct_vec_aligned<T, V>(out);
    ct_contiguous(n, out, aligned, [&](int64_t j) { return op(a[j], b[j]); });
    return;
  }
  CT_KERNEL_LOOP(i, n) {
    out[ct_offset(i, shape, so)] = op(a[ct_offset(i, shape, sa)], b[ct_offset(i, shape, sb)]);
  }
}

// x OP s and s OP x with a scalar s: PyTorch's gpu_kernel_with_scalars passes a CPU scalar
// operand as a kernel argument (no device tensor, no extra allocation: `x + 1` allocates only
// its output), converted to the op's math type. The host converts the scalar to T first;
// division by a scalar is PyTorch's `a * (1 / b)` (the host passes the reciprocal to mul).
template <typename T, typename Op>
__device__ void ct_binary_scalar(int64_t n, const CtShape& shape, const CtStrides& sa,
                                 const CtStrides& so, const T* a, T b, T* out, Op op,
                                 bool scalar_first) {
  constexpr int V = CtVecWidth<T>::value;
  if (ct_is_contiguous(shape, sa) && ct_is_contiguous(shape, so)) {
    const bool aligned = ct_vec_aligned<T, V>(a) && ct_vec_aligned<T, V>(out);
    ct_contiguous(n, out, aligned,
                  [&](int64_t j) { return scalar_first ? op(b, a[j]) : op(a[j], b); });
    return;
  }
  CT_KERNEL_LOOP(i, n) {
    const T x = a[ct_offset(i, shape, sa)];
    out[ct_offset(i, shape, so)] = scalar_first ? op(b, x) : op(x, b);
  }
}

// ---- unary functors ----
struct OpNeg { template <typename T> __device__ T operator()(T x) const { return (T)(-x); } };
struct OpAbs { template <typename T> __device__ T operator()(T x) const { return x < (T)0 ? (T)(-x) : x; } };
struct OpRelu {
  template <typename T> __device__ T operator()(T x) const {
    return ct_isnan(x) ? x : (x > (T)0 ? x : (T)0);  // relu(nan) = nan, as in PyTorch
  }
};
// A unary op that is one libm call, in the argument's precision: F32 on float, F64 on double.
#define CT_LIBM_UNARY(NAME, F32, F64)                                                    \
  struct NAME {                                                                          \
    __device__ float operator()(float x) const { return F32(x); }                        \
    __device__ double operator()(double x) const { return F64(x); }                      \
  };
CT_LIBM_UNARY(OpExp, expf, exp)
CT_LIBM_UNARY(OpLog, logf, log)
CT_LIBM_UNARY(OpSqrt, sqrtf, sqrt)
CT_LIBM_UNARY(OpTanh, tanhf, tanh)
CT_LIBM_UNARY(OpSin, sinf, sin)
CT_LIBM_UNARY(OpCos, cosf, cos)
CT_LIBM_UNARY(OpFloor, floorf, floor)
CT_LIBM_UNARY(OpCeil, ceilf, ceil)
struct OpSigmoid { __device__ float operator()(float x) const { return 1.0f / (1.0f + expf(-x)); }
                   __device__ double operator()(double x) const { return 1.0 / (1.0 + exp(-x)); } };
struct OpFrac { __device__ float operator()(float x) const { return x - truncf(x); }
                __device__ double operator()(double x) const { return x - trunc(x); } };
struct OpDeg2Rad { __device__ float operator()(float x) const { return x * (float)0.017453292519943295; }
                   __device__ double operator()(double x) const { return x * 0.017453292519943295; } };
struct OpRad2Deg { __device__ float operator()(float x) const { return x * (float)57.29577951308232; }
                   __device__ double operator()(double x) const { return x * 57.29577951308232; } };
struct OpLogicalNot { template <typename T> __device__ T operator()(T x) const { return (T)!x; } };

// ---- binary functors ----
struct OpAdd { template <typename T> __device__ T operator()(T a, T b) const { return (T)(a + b); } };
struct OpSub { template <typename T> __device__ T operator()(T a, T b) const { return (T)(a - b); } };
struct OpMul { template <typename T> __device__ T operator()(T a, T b) const { return (T)(a * b); } };
struct OpDiv { template <typename T> __device__ T operator()(T a, T b) const { return a / b; } };
struct OpPow { __device__ float operator()(float a, float b) const { return powf(a, b); }
               __device__ double operator()(double a, double b) const { return pow(a, b); } };
struct OpMaximum {
  template <typename T> __device__ T operator()(T a, T b) const {
    if (ct_isnan(a)) return a;  // torch.maximum propagates NaN
    if (ct_isnan(b)) return b;
    return a > b ? a : b;
  }
};
struct OpMinimum {
  template <typename T> __device__ T operator()(T a, T b) const {
    if (ct_isnan(a)) return a;
    if (ct_isnan(b)) return b;
    return a < b ? a : b;
  }
};
struct OpLogicalAnd { template <typename T> __device__ T operator()(T a, T b) const { return (T)(a && b); } };
struct OpLogicalOr { template <typename T> __device__ T operator()(T a, T b) const { return (T)(a || b); } };
struct OpLogicalXor { template <typename T> __device__ T operator()(T a, T b) const { return (T)((bool)a != (bool)b); } };
struct OpBitAnd { template <typename T> __device__ T operator()(T a, T b) const { return (T)(a & b); } };
struct OpBitOr { template <typename T> __device__ T operator()(T a, T b) const { return (T)(a | b); } };
struct OpBitXor { template <typename T> __device__ T operator()(T a, T b) const { return (T)(a ^ b); } };

#define CT_UNARY(NAME, OP, T, S)                                                           \
  extern "C" __global__ void NAME##_##S(int64_t n, CtShape shape, CtStrides sa,            \
                                        CtStrides so, const T* a, T* out) {                \
    ct_unary<T>(n, shape, sa, so, a, out, OP());                                           \
  }
#define CT_BINARY(NAME, OP, T, S)                                                          \
  extern "C" __global__ void NAME##_##S(int64_t n, CtShape shape, CtStrides sa,            \
                                        CtStrides sb, CtStrides so, const T* a,            \
                                        const T* b, T* out) {                              \
    ct_binary<T>(n, shape, sa, sb, so, a, b, out, OP());                                   \
  }

// x OP s (<op>_scalar_<dtype>) and s OP x (<op>_rscalar_<dtype>, for the ops where order
// matters).
#define CT_SCALAR(NAME, OP, T, S)                                                          \
  extern "C" __global__ void NAME##_scalar_##S(int64_t n, CtShape shape, CtStrides sa,     \
                                               CtStrides so, const T* a, T b, T* out) {    \
    ct_binary_scalar<T>(n, shape, sa, so, a, b, out, OP(), false);                         \
  }
#define CT_RSCALAR(NAME, OP, T, S)                                                         \
  extern "C" __global__ void NAME##_rscalar_##S(int64_t n, CtShape shape, CtStrides sa,    \
                                                CtStrides so, const T* a, T b, T* out) {   \
    ct_binary_scalar<T>(n, shape, sa, so, a, b, out, OP(), true);                          \
  }

// neg/abs/relu on every numeric dtype (neg on uint8 wraps, as in PyTorch).
#define CT_NUMERIC_UNARY(T, S) \
  CT_UNARY(neg, OpNeg, T, S) CT_UNARY(abs, OpAbs, T, S) CT_UNARY(relu, OpRelu, T, S)
CT_FOR_NUMERIC_DTYPES(CT_NUMERIC_UNARY)

// Transcendental ops on float dtypes (integer inputs are promoted to float on the host).
#define CT_FLOAT_UNARY(T, S)                                                             \
  CT_UNARY(exp, OpExp, T, S) CT_UNARY(log, OpLog, T, S) CT_UNARY(sqrt, OpSqrt, T, S)     \
  CT_UNARY(tanh, OpTanh, T, S) CT_UNARY(sigmoid, OpSigmoid, T, S)                        \
  CT_UNARY(sin, OpSin, T, S) CT_UNARY(cos, OpCos, T, S)                                  \
  CT_UNARY(floor, OpFloor, T, S) CT_UNARY(ceil, OpCeil, T, S)                          \
  CT_UNARY(frac, OpFrac, T, S) CT_UNARY(deg2rad, OpDeg2Rad, T, S)    \
  CT_UNARY(rad2deg, OpRad2Deg, T, S)
CT_FOR_FLOAT_DTYPES(CT_FLOAT_UNARY)

CT_UNARY(logical_not, OpLogicalNot, bool, bool)

// add/sub/mul/maximum/minimum on numeric dtypes; div/pow on floats (true division).
#define CT_NUMERIC_BINARY(T, S)                                                          \
  CT_BINARY(add, OpAdd, T, S) CT_BINARY(sub, OpSub, T, S) CT_BINARY(mul, OpMul, T, S)    \
  CT_BINARY(maximum, OpMaximum, T, S) CT_BINARY(minimum, OpMinimum, T, S)
CT_FOR_NUMERIC_DTYPES(CT_NUMERIC_BINARY)

#define CT_FLOAT_BINARY(T, S) CT_BINARY(div, OpDiv, T, S) CT_BINARY(pow, OpPow, T, S)
CT_FOR_FLOAT_DTYPES(CT_FLOAT_BINARY)

// Scalar operands: add/sub/mul/maximum/minimum on numeric dtypes (x - s, s - x), pow and
// s / x on floats.
#define CT_NUMERIC_SCALAR(T, S)                                                          \
  CT_SCALAR(add, OpAdd, T, S) CT_SCALAR(sub, OpSub, T, S) CT_SCALAR(mul, OpMul, T, S)    \
  CT_SCALAR(maximum, OpMaximum, T, S) CT_SCALAR(minimum, OpMinimum, T, S)                \
  CT_RSCALAR(sub, OpSub, T, S)
CT_FOR_NUMERIC_DTYPES(CT_NUMERIC_SCALAR)
#define CT_FLOAT_SCALAR(T, S) \
  CT_SCALAR(pow, OpPow, T, S) CT_RSCALAR(pow, OpPow, T, S) CT_RSCALAR(div, OpDiv, T, S)
CT_FOR_FLOAT_DTYPES(CT_FLOAT_SCALAR)

// bool: + is logical or and * is logical and in PyTorch.
CT_BINARY(add, OpLogicalOr, bool, bool)
CT_BINARY(mul, OpLogicalAnd, bool, bool)
CT_BINARY(maximum, OpLogicalOr, bool, bool)
CT_BINARY(minimum, OpLogicalAnd, bool, bool)
CT_BINARY(logical_and, OpLogicalAnd, bool, bool)
CT_BINARY(logical_or, OpLogicalOr, bool, bool)
CT_BINARY(logical_xor, OpLogicalXor, bool, bool)

// Bitwise ops (&, |, ^) on integer and bool dtypes.
#define CT_BITWISE(T, S) \
  CT_BINARY(bitwise_and, OpBitAnd, T, S) CT_BINARY(bitwise_or, OpBitOr, T, S) CT_BINARY(bitwise_xor, OpBitXor, T, S)
CT_FOR_INT_DTYPES(CT_BITWISE)
CT_BITWISE(bool, bool)

// torch.where(cond, a, b): cond is bool, strided like the others.
template <typename T>
__device__ void ct_where(int64_t n, const CtShape& shape, const CtStrides& sc,
                         const CtStrides& sa, const CtStrides& sb, const CtStrides& so,
                         const bool* cond, const T* a, const T* b, T* out) {
  CT_KERNEL_LOOP(i, n) {
    out[ct_offset(i, shape, so)] = cond[ct_offset(i, shape, sc)] ? a[ct_offset(i, shape, sa)]
                                                                  : b[ct_offset(i, shape, sb)];
  }
}
#define CT_WHERE(T, S)                                                                     \
  extern "C" __global__ void where_##S(int64_t n, CtShape shape, CtStrides sc, CtStrides sa, \
                                       CtStrides sb, CtStrides so, const bool* cond,        \
                                       const T* a, const T* b, T* out) {                    \
    ct_where<T>(n, shape, sc, sa, sb, so, cond, a, b, out);                                 \
  }
CT_FOR_ALL_DTYPES(CT_WHERE)

// torch.add(a, b, alpha=s) / torch.sub(a, b, alpha=s) (the host negates alpha for sub):
// PyTorch's CUDA add kernel computes `a + alpha * b` in the op's math type, which nvcc
// contracts into one fused multiply-add for floats (written out here: the emulated build
// contracts nothing it is not told to); integers wrap. Entry: add_alpha_<numeric>.
struct OpAddAlphaF {
  template <typename T> __device__ T operator()(T a, T b, T alpha) const { return ct_fma(alpha, b, a); }
};
struct OpAddAlphaI {
  template <typename T> __device__ T operator()(T a, T b, T alpha) const { return (T)(a + alpha * b); }
};
template <typename T, typename Op>
__device__ void ct_add_alpha(int64_t n, const CtShape& shape, const CtStrides& sa,
                             const CtStrides& sb, const CtStrides& so, const T* a,
                             const T* b, T alpha, T* out, Op op) {
  CT_KERNEL_LOOP(i, n) {
    out[ct_offset(i, shape, so)] = op(a[ct_offset(i, shape, sa)], b[ct_offset(i, shape, sb)], alpha);
  }
}
#define CT_ADD_ALPHA(T, S, OP)                                                             \
  extern "C" __global__ void add_alpha_##S(int64_t n, CtShape shape, CtStrides sa,         \
                                           CtStrides sb, CtStrides so, const T* a,         \
                                           const T* b, T alpha, T* out) {                  \
    ct_add_alpha<T>(n, shape, sa, sb, so, a, b, alpha, out, OP());                         \
  }
CT_ADD_ALPHA(float, f32, OpAddAlphaF)
CT_ADD_ALPHA(double, f64, OpAddAlphaF)
CT_ADD_ALPHA(int64_t, i64, OpAddAlphaI)
CT_ADD_ALPHA(int32_t, i32, OpAddAlphaI)
CT_ADD_ALPHA(uint8_t, u8, OpAddAlphaI)

// The activations' backward (autograd), from the forward's result y and the incoming
// gradient g, as PyTorch's CUDA kernels (BinaryMiscBackwardOpsKernels.cu, Activation*.cu):
//   sigmoid_backward  g * (1 - y) * y
//   tanh_backward     g * (1 - y * y)   (nvcc contracts 1 - y * y into fma(-y, y, 1))
//   threshold_backward (ReLU's, threshold 0, value 0): y <= 0 ? 0 : g   (NaN y passes g)
// Entries <op>_backward_<float>(n, shape, s_grad, s_y, s_out, grad, y, out), strided.
struct OpSigmoidBackward {
  template <typename T> __device__ T operator()(T g, T y) const { return g * ((T)1 - y) * y; }
};
struct OpTanhBackward {
  template <typename T> __device__ T operator()(T g, T y) const { return g * ct_fma(-y, y, (T)1); }
};
struct OpThresholdBackward {
  template <typename T> __device__ T operator()(T g, T y) const { return y <= (T)0 ? (T)0 : g; }
};
#define CT_ACTIVATION_BACKWARD(T, S)                                                       \
  CT_BINARY(sigmoid_backward, OpSigmoidBackward, T, S)                                     \
  CT_BINARY(tanh_backward, OpTanhBackward, T, S)                                           \
  CT_BINARY(threshold_backward, OpThresholdBackward, T, S)
CT_FOR_FLOAT_DTYPES(CT_ACTIVATION_BACKWARD)
