// copy.cu: strided copy with dtype cast: x.contiguous(), x.to(dtype), copy_ between views.
//
// copy_<src>_to_<dst>(n, shape, src_strides, dst_strides, src, dst) copies the n elements of
// `shape` from a strided source to a strided destination, converting the element type with
// PyTorch's rules (float -> int truncates toward zero; anything -> bool is `x != 0`).
// Same-dtype copies are copy_f32_to_f32 and so on. Overlapping src/dst is not supported.

template <typename D, typename S> __device__ __forceinline__ D ct_cast(S v) { return (D)v; }

template <typename S, typename D>
__device__ void ct_copy(int64_t n, const CtShape& shape, const CtStrides& ss,
                        const CtStrides& ds, const S* src, D* dst) {
  CT_KERNEL_LOOP(i, n) { dst[ct_offset(i, shape, ds)] = ct_cast<D, S>(src[ct_offset(i, shape, ss)]); }
}

#define CT_COPY(S_T, S_S, D_T, D_S)                                                        \
  extern "C" __global__ void copy_##S_S##_to_##D_S(int64_t n, CtShape shape, CtStrides ss, \
                                                    CtStrides ds, const S_T* src, D_T* dst) { \
    ct_copy<S_T, D_T>(n, shape, ss, ds, src, dst);                                         \
  }

#define CT_COPY_FROM(S_T, S_S)                                                            \
  CT_COPY(S_T, S_S, float, f32) CT_COPY(S_T, S_S, double, f64)                            \
  CT_COPY(S_T, S_S, int64_t, i64) CT_COPY(S_T, S_S, int32_t, i32)                         \
  CT_COPY(S_T, S_S, uint8_t, u8) CT_COPY(S_T, S_S, bool, bool)
CT_FOR_ALL_DTYPES(CT_COPY_FROM)
