// fill.cu: torch.zeros/ones/full (fill) and torch.arange.

// out[i] = value for a contiguous tensor of n elements.
template <typename T>
__device__ void ct_fill(int64_t n, T value, T* out) {
  CT_KERNEL_LOOP(i, n) { out[i] = value; }
}

// Strided fill (x.fill_(v) / x.zero_() on a view).
template <typename T>
__device__ void ct_fill_strided(int64_t n, CtShape shape, CtStrides strides, T value, T* out) {
  CT_KERNEL_LOOP(i, n) { out[ct_offset(i, shape, strides)] = value; }
}

// out[i] = start + step * i, computed in the accumulate type like PyTorch's arange kernel.
template <typename T, typename Acc>
__device__ void ct_arange(int64_t n, Acc start, Acc step, T* out) {
  CT_KERNEL_LOOP(i, n) { out[i] = (T)(start + step * (Acc)i); }
}

#define CT_FILL(T, S)                                                                   \
  extern "C" __global__ void fill_##S(int64_t n, T value, T* out) { ct_fill<T>(n, value, out); } \
  extern "C" __global__ void fill_strided_##S(int64_t n, CtShape shape, CtStrides strides,      \
                                              T value, T* out) {                               \
    ct_fill_strided<T>(n, shape, strides, value, out);                                         \
  }
CT_FOR_ALL_DTYPES(CT_FILL)

#define CT_ARANGE(T, S, Acc)                                                             \
  extern "C" __global__ void arange_##S(int64_t n, Acc start, Acc step, T* out) {      \
    ct_arange<T, Acc>(n, start, step, out);                                            \
  }
CT_ARANGE(float, f32, float)
CT_ARANGE(double, f64, double)
CT_ARANGE(int64_t, i64, int64_t)
CT_ARANGE(int32_t, i32, int64_t)

// float16 / bfloat16 fills: the host rounds the value to the 16-bit type (as the scalar's
// conversion does for every backend) and the kernel stores its bit pattern.
extern "C" __global__ void fill_b16(int64_t n, uint16_t bits, uint16_t* out) {
  ct_fill<uint16_t>(n, bits, out);
}
