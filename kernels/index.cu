// index.cu: torch.gather, index_select, nn.Embedding / F.embedding, with device-side bounds
// asserts worded as PyTorch's (so the device log reads like the real thing):
//   gather:       ... operator(): block: [..], thread: [..] Assertion `idx_dim >= 0 &&
//                 idx_dim < index_size && "index out of bounds"` failed.
//                 (ScatterGatherKernel.cu asserts inside a lambda, hence `operator()`)
//   index_select / embedding (PyTorch's embedding forward is weight.index_select(0, idx)):
//                 ... indexSelectLargeIndex: ... Assertion `srcIndex < srcSelectDimSize` failed.
// Indices are int64 (PyTorch also accepts int32 for index_select/embedding: *_i32 entries).

// gather(input, dim, index): out[p] = input[p with coordinate `dim` replaced by index[p]].
// out and index share `shape` (the index's shape); strides in elements for all three tensors.
// PyTorch asserts inside a lambda, which nvcc reports as `operator()`; NVRTC would print
// "lambda [](long long)->auto::operator()", so the name is passed explicitly.
template <typename T>
__device__ void ct_gather(int64_t n, const CtShape& shape, int32_t dim, int64_t index_size,
                          const CtStrides& s_in, const CtStrides& s_idx,
                          const CtStrides& s_out, const T* in, const int64_t* index, T* out) {
  CT_KERNEL_LOOP(i, n) {
    int64_t rem = i, off_in = 0, off_idx = 0, off_out = 0;
    for (int d = shape.ndim - 1; d >= 0; --d) {
      const int64_t c = rem % shape.sizes[d];
      rem /= shape.sizes[d];
      off_idx += c * s_idx.s[d];
      off_out += c * s_out.s[d];
      if (d != dim) off_in += c * s_in.s[d];
    }
    const int64_t idx_dim = index[off_idx];
    CUDA_KERNEL_ASSERT_IN(idx_dim >= 0 && idx_dim < index_size && "index out of bounds",
                          "operator()");
    out[off_out] = in[off_in + idx_dim * s_in.s[dim]];
  }
}

#define CT_GATHER(T, S)                                                                     \
  extern "C" __global__ void gather_##S(int64_t n, CtShape shape, int32_t dim,              \
                                        int64_t index_size, CtStrides s_in,                 \
                                        CtStrides s_idx, CtStrides s_out, const T* in,      \
                                        const int64_t* index, T* out) {                     \
    ct_gather<T>(n, shape, dim, index_size, s_in, s_idx, s_out, in, index, out);            \
  }
CT_FOR_ALL_DTYPES(CT_GATHER)

// index_select(src, dim, indices) on a contiguous src viewed as [outer, srcSelectDimSize,
// inner]; out is the contiguous [outer, n_indices, inner].
template <typename T, typename IndexT>
__device__ void indexSelectLargeIndex(int64_t outer, int64_t srcSelectDimSize, int64_t inner,
                                      int64_t n_indices, const T* src, const IndexT* indices,
                                      T* out) {
  const int64_t total = outer * n_indices * inner;
  CT_KERNEL_LOOP(linear, total) {
    const int64_t k = linear % inner;
    const int64_t j = (linear / inner) % n_indices;
    const int64_t o = linear / (inner * n_indices);
    // Unsigned like PyTorch's IndexType, so a negative index fails this assert too.
    const uint64_t srcIndex = (uint64_t)(int64_t)indices[j];
    CUDA_KERNEL_ASSERT(srcIndex < srcSelectDimSize);
    out[linear] = src[(o * srcSelectDimSize + (int64_t)srcIndex) * inner + k];
  }
}

#define CT_INDEX_SELECT(T, S)                                                               \
  extern "C" __global__ void index_select_##S(int64_t outer, int64_t dim_size,              \
                                              int64_t inner, int64_t n_indices,             \
                                              const T* src, const int64_t* indices, T* out) { \
    indexSelectLargeIndex<T, int64_t>(outer, dim_size, inner, n_indices, src, indices, out); \
  }                                                                                         \
  extern "C" __global__ void index_select_##S##_i32(int64_t outer, int64_t dim_size,        \
                                                    int64_t inner, int64_t n_indices,       \
                                                    const T* src, const int32_t* indices,   \
                                                    T* out) {                               \
    indexSelectLargeIndex<T, int32_t>(outer, dim_size, inner, n_indices, src, indices, out); \
  }
CT_FOR_ALL_DTYPES(CT_INDEX_SELECT)

// F.embedding(indices, weight): weight [num_embeddings, embedding_dim] contiguous, out
// [n_indices, embedding_dim]; the same kernel body (and assert) as index_select(weight, 0, ..).
#define CT_EMBEDDING(T, S)                                                                  \
  extern "C" __global__ void embedding_##S(int64_t num_embeddings, int64_t embedding_dim,   \
                                           int64_t n_indices, const T* weight,              \
                                           const int64_t* indices, T* out) {                \
    indexSelectLargeIndex<T, int64_t>(1, num_embeddings, embedding_dim, n_indices, weight,  \
                                      indices, out);                                        \
  }                                                                                         \
  extern "C" __global__ void embedding_##S##_i32(int64_t num_embeddings,                    \
                                                 int64_t embedding_dim, int64_t n_indices,  \
                                                 const T* weight, const int32_t* indices,   \
                                                 T* out) {                                  \
    indexSelectLargeIndex<T, int32_t>(1, num_embeddings, embedding_dim, n_indices, weight,  \
                                      indices, out);                                        \
  }
CT_FOR_FLOAT_DTYPES(CT_EMBEDDING)
