// compare.cu: ==, !=, <, <=, >, >= with broadcasting; the output is always bool.
// Same conventions as elementwise.cu (output shape + per-tensor strides in elements).
// Entry names: eq_f32, lt_i64, ... and isnan_f32/isnan_f64.

template <typename T, typename Op>
__device__ void ct_compare(int64_t n, const CtShape& shape, const CtStrides& sa,
                           const CtStrides& sb, const CtStrides& so, const T* a, const T* b,
                           bool* out, Op op) {
  CT_KERNEL_LOOP(i, n) {
    out[ct_offset(i, shape, so)] = op(a[ct_offset(i, shape, sa)], b[ct_offset(i, shape, sb)]);
  }
}

struct OpEq { template <typename T> __device__ bool operator()(T a, T b) const { return a == b; } };
struct OpNe { template <typename T> __device__ bool operator()(T a, T b) const { return a != b; } };
struct OpLt { template <typename T> __device__ bool operator()(T a, T b) const { return a < b; } };
struct OpLe { template <typename T> __device__ bool operator()(T a, T b) const { return a <= b; } };
struct OpGt { template <typename T> __device__ bool operator()(T a, T b) const { return a > b; } };
struct OpGe { template <typename T> __device__ bool operator()(T a, T b) const { return a >= b; } };

#define CT_COMPARE(NAME, OP, T, S)                                                         \
  extern "C" __global__ void NAME##_##S(int64_t n, CtShape shape, CtStrides sa,            \
                                        CtStrides sb, CtStrides so, const T* a,            \
                                        const T* b, bool* out) {                           \
    ct_compare<T>(n, shape, sa, sb, so, a, b, out, OP());                                  \
  }
#define CT_ALL_COMPARES(T, S)                                                            \
  CT_COMPARE(eq, OpEq, T, S) CT_COMPARE(ne, OpNe, T, S) CT_COMPARE(lt, OpLt, T, S)       \
  CT_COMPARE(le, OpLe, T, S) CT_COMPARE(gt, OpGt, T, S) CT_COMPARE(ge, OpGe, T, S)
CT_FOR_ALL_DTYPES(CT_ALL_COMPARES)

// x OP s with a scalar s (already converted to T by the host): eq_scalar_f32, ...
#define CT_COMPARE_SCALAR(NAME, OP, T, S)                                                  \
  extern "C" __global__ void NAME##_scalar_##S(int64_t n, CtShape shape, CtStrides sa,     \
                                               CtStrides so, const T* a, T b, bool* out) { \
    CT_KERNEL_LOOP(i, n) { out[ct_offset(i, shape, so)] = OP()(a[ct_offset(i, shape, sa)], b); } \
  }
#define CT_ALL_COMPARES_SCALAR(T, S)                                                     \
  CT_COMPARE_SCALAR(eq, OpEq, T, S) CT_COMPARE_SCALAR(ne, OpNe, T, S)                    \
  CT_COMPARE_SCALAR(lt, OpLt, T, S) CT_COMPARE_SCALAR(le, OpLe, T, S)                    \
  CT_COMPARE_SCALAR(gt, OpGt, T, S) CT_COMPARE_SCALAR(ge, OpGe, T, S)
CT_FOR_ALL_DTYPES(CT_ALL_COMPARES_SCALAR)

// torch.isnan: strided input, bool output.
#define CT_ISNAN(T, S)                                                                     \
  extern "C" __global__ void isnan_##S(int64_t n, CtShape shape, CtStrides sa,             \
                                       CtStrides so, const T* a, bool* out) {              \
    CT_KERNEL_LOOP(i, n) { out[ct_offset(i, shape, so)] = ct_isnan(a[ct_offset(i, shape, sa)]); } \
  }
CT_FOR_FLOAT_DTYPES(CT_ISNAN)

// torch.isinf / torch.isfinite on floats (PyTorch's CUDA isinf is `a == inf || a == -inf`,
// isfinite `::isfinite(a)`; integer and bool tensors need no kernel: the host fills the result).
template <typename T> __device__ __forceinline__ bool ct_isinf(T v) {
  return v == (T)1 / (T)0 || v == -(T)1 / (T)0;
}
template <typename T> __device__ __forceinline__ bool ct_isfinite(T v) {
  return !ct_isnan(v) && !ct_isinf(v);
}
#define CT_ISINF_ISFINITE(T, S)                                                            \
  extern "C" __global__ void isinf_##S(int64_t n, CtShape shape, CtStrides sa,             \
                                       CtStrides so, const T* a, bool* out) {              \
    CT_KERNEL_LOOP(i, n) { out[ct_offset(i, shape, so)] = ct_isinf(a[ct_offset(i, shape, sa)]); } \
  }                                                                                        \
  extern "C" __global__ void isfinite_##S(int64_t n, CtShape shape, CtStrides sa,          \
                                          CtStrides so, const T* a, bool* out) {           \
    CT_KERNEL_LOOP(i, n) { out[ct_offset(i, shape, so)] = ct_isfinite(a[ct_offset(i, shape, sa)]); } \
  }
CT_FOR_FLOAT_DTYPES(CT_ISINF_ISFINITE)
