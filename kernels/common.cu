// common.cu: definitions shared by every kernel file. NVRTC has no C/C++ standard headers,
// so this file stands in for <stdint.h>, <math.h> constants and PyTorch's Macros.h. The Rust
// side (src/engine/cuda/kernels.rs) prepends it to each kernel file, followed by a `#line 1`
// directive, so compile errors and device asserts report the kernel file's own line numbers.

#ifndef CT_HOST_EMULATION  // the emulated device's shim (kernels/emu/shim.h) has <cstdint>
typedef signed char int8_t;
typedef unsigned char uint8_t;
typedef int int32_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef long long int64_t;
typedef unsigned long long uint64_t;
#endif

// Tensors of up to CT_MAX_DIMS dimensions; sizes and strides are in elements.
#define CT_MAX_DIMS 8
struct CtShape {
  int32_t ndim;
  int64_t sizes[CT_MAX_DIMS];
};
struct CtStrides {
  int64_t s[CT_MAX_DIMS];
};

// Offset (in elements) of the `linear`-th element in row-major order of `shape`, for a
// tensor with `strides`. A broadcast dimension has stride 0.
__device__ __forceinline__ int64_t ct_offset(int64_t linear, const CtShape& shape,
                                             const CtStrides& strides) {
  int64_t off = 0;
  for (int d = shape.ndim - 1; d >= 0; --d) {
    const int64_t size = shape.sizes[d];
    const int64_t i = linear % size;
    linear /= size;
    off += i * strides.s[d];
  }
  return off;
}

// True when `strides` are the row-major contiguous strides of `shape` (dimensions of size 1
// may have any stride): the tensor's elements are `p[0..n)` in order.
__device__ __forceinline__ bool ct_is_contiguous(const CtShape& shape, const CtStrides& strides) {
  int64_t expected = 1;
  for (int d = shape.ndim - 1; d >= 0; --d) {
    if (shape.sizes[d] != 1 && strides.s[d] != expected) return false;
    expected *= shape.sizes[d];
  }
  return true;
}

// N elements loaded or stored at once (one 16-, 8- or 4-byte access), as PyTorch's
// aligned_vector: contiguous elementwise kernels move whole vectors, which is what lets them
// reach the memory bandwidth a device-to-device copy gets.
template <typename T, int N>
struct alignas(sizeof(T) * N) CtVec {
  T v[N];
};

// Whether `p` may be read as CtVec<T, N>.
template <typename T, int N>
__device__ __forceinline__ bool ct_vec_aligned(const void* p) {
  return ((unsigned long long)p) % (sizeof(T) * N) == 0;
}

// Grid-stride loop over [0, n).
#define CT_KERNEL_LOOP(i, n)                                                     \
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < (n);      \
       i += (int64_t)blockDim.x * gridDim.x)

// PyTorch's CUDA_KERNEL_ASSERT (c10/macros/Macros.h): a real device-side assert. It reports
// `file:line: function: block: [..], thread: [..] Assertion `cond` failed.` and poisons the
// context, exactly like PyTorch's kernels. `__func__` is the unqualified function name.
#define CUDA_KERNEL_ASSERT(cond)                                                 \
  if (!(cond)) {                                                                 \
    __assertfail(#cond, __FILE__, __LINE__, __func__, sizeof(char));             \
  }
// The same, reporting `func` as the function name (NVRTC's __func__ for lambdas and member
// functions is not what nvcc, and so PyTorch's messages, show).
#define CUDA_KERNEL_ASSERT_IN(cond, func)                                        \
  if (!(cond)) {                                                                 \
    __assertfail(#cond, __FILE__, __LINE__, func, sizeof(char));                 \
  }

// PyTorch 2.15's kernel files as its wheel names them (`__FILE__` of the 2.15.0 wheel's
// libtorch_cuda.so). Kernels that assert where PyTorch does put `#line <2.15 line> CT_..._CU`
// before the assert and `#line <next line> "<file>.cu"` after it, so the device log carries
// PyTorch's file and line and every other line keeps the .cu file's own numbering (checked by
// kernels.rs's tests). The 2.15 lines were read from the wheel's sm_90 SASS (the line argument
// of each __assertfail call); see docs/cuda-backend.md.
#define CT_ATEN_CUDA_DIR "/__w/pytorch/pytorch/aten/src/ATen/native/cuda/"
#define CT_LOSS_CU "/__w/pytorch/pytorch/aten/src/ATen/native/cuda/Loss.cu"
#define CT_INDEXING_CU "/__w/pytorch/pytorch/aten/src/ATen/native/cuda/Indexing.cu"
#define CT_INDEX_KERNEL_CU "/__w/pytorch/pytorch/aten/src/ATen/native/cuda/IndexKernel.cu"
#define CT_SCATTER_GATHER_CU "/__w/pytorch/pytorch/aten/src/ATen/native/cuda/ScatterGatherKernel.cu"

// Fused multiply-add in the element's precision (the GPU contracts `a * b + c` this way).
__device__ __forceinline__ float ct_fma(float a, float b, float c) { return fmaf(a, b, c); }
__device__ __forceinline__ double ct_fma(double a, double b, double c) { return fma(a, b, c); }
// exp and log in the element's precision (expf/logf on float, exp/log on double).
__device__ __forceinline__ float ct_exp(float x) { return expf(x); }
__device__ __forceinline__ double ct_exp(double x) { return exp(x); }
__device__ __forceinline__ float ct_log(float x) { return logf(x); }
__device__ __forceinline__ double ct_log(double x) { return log(x); }

template <typename T> __device__ __forceinline__ bool ct_isnan(T) { return false; }
template <> __device__ __forceinline__ bool ct_isnan<float>(float v) { return v != v; }
template <> __device__ __forceinline__ bool ct_isnan<double>(double v) { return v != v; }

// One instantiation per dtype: CT_FOR_ALL_DTYPES(M) expands M(ctype, suffix) six times.
#define CT_FOR_ALL_DTYPES(M) \
  M(float, f32) M(double, f64) M(int64_t, i64) M(int32_t, i32) M(uint8_t, u8) M(bool, bool)
#define CT_FOR_NUMERIC_DTYPES(M) \
  M(float, f32) M(double, f64) M(int64_t, i64) M(int32_t, i32) M(uint8_t, u8)
#define CT_FOR_FLOAT_DTYPES(M) M(float, f32) M(double, f64)
#define CT_FOR_INT_DTYPES(M) M(int64_t, i64) M(int32_t, i32) M(uint8_t, u8)
// Every dtype with the type torch.sum, cumsum and cumprod give it: a float keeps its own, an
// integer or bool becomes int64.
#define CT_FOR_ALL_DTYPES_WITH_SUM_TYPE(M)                                                \
  M(float, f32, float) M(double, f64, double) M(int64_t, i64, int64_t)                    \
  M(int32_t, i32, int64_t) M(uint8_t, u8, int64_t) M(bool, bool, int64_t)
