// index.cu: torch.gather, index_select, nn.Embedding / F.embedding, and advanced indexing
// x[idx], with device-side bounds asserts worded and located as PyTorch 2.15's (so the device
// log reads like the real thing; file and line through #line, see common.cu):
//   gather:       ScatterGatherKernel.cu:257: operator(): ... Assertion `idx_dim >= 0 &&
//                 idx_dim < index_size && "index out of bounds"` failed.
//                 (PyTorch asserts inside a lambda, hence `operator()`)
//   index_select / embedding (PyTorch's embedding forward is weight.index_select(0, idx)):
//                 at most 16 indices: Indexing.cu:1582: indexSelectSmallIndex: ... Assertion
//                 `srcIndex < srcSelectDimSize` failed.; more: indexSelectLargeIndex (the 2.15
//                 wheel routes large selections through another kernel, not reproduced; its
//                 line here is PyTorch 2.x's Indexing.cu:1369, unverified for 2.15)
//   x[idx]:       IndexKernel.cu:111: operator(): ... Assertion `-sizes[i] <= index && index <
//                 sizes[i] && "index out of bounds"` failed.
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
#line 257 CT_SCATTER_GATHER_CU
    CUDA_KERNEL_ASSERT_IN(idx_dim >= 0 && idx_dim < index_size && "index out of bounds", "operator()");
#line 37 "index.cu"
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
// inner]; out is the contiguous [outer, n_indices, inner]. PyTorch's two kernels:
//
// indexSelectSmallIndex (at most 16 indices): every thread walks the indices in order and,
// for each, copies its share of the slice (outer * inner elements); the bounds assert comes
// before the copy loop, so every launched thread reports the first bad index. Launch (as
// PyTorch): block min(slice, 128), grid min(ceil(slice / 128), 8 * SM count).
template <typename T, typename IndexT>
__device__ void indexSelectSmallIndex(int64_t outer, int64_t srcSelectDimSize, int64_t inner,
                                      int64_t n_indices, const T* src, const IndexT* indices,
                                      T* out) {
  const int64_t slice = outer * inner;
  for (int64_t dstIndex = 0; dstIndex < n_indices; ++dstIndex) {
    // Unsigned like PyTorch's IndexType, so a negative index fails this assert too.
    const uint64_t srcIndex = (uint64_t)(int64_t)indices[dstIndex];
#line 1582 CT_INDEXING_CU
    CUDA_KERNEL_ASSERT(srcIndex < srcSelectDimSize);
#line 68 "index.cu"
    CT_KERNEL_LOOP(linear, slice) {
      const int64_t o = linear / inner, k = linear % inner;
      out[(o * n_indices + dstIndex) * inner + k] =
          src[(o * srcSelectDimSize + (int64_t)srcIndex) * inner + k];
    }
  }
}

// indexSelectLargeIndex (more than 16 indices): one thread per output element.
// Launch: block 128, grid min(ceil(total / 128), 8 * SM count).
template <typename T, typename IndexT>
__device__ void indexSelectLargeIndex(int64_t outer, int64_t srcSelectDimSize, int64_t inner,
                                      int64_t n_indices, const T* src, const IndexT* indices,
                                      T* out) {
  const int64_t total = outer * n_indices * inner;
  CT_KERNEL_LOOP(linear, total) {
    const int64_t k = linear % inner;
    const int64_t j = (linear / inner) % n_indices;
    const int64_t o = linear / (inner * n_indices);
    const uint64_t srcIndex = (uint64_t)(int64_t)indices[j];
#line 1369 CT_INDEXING_CU
    CUDA_KERNEL_ASSERT(srcIndex < srcSelectDimSize);  // large
#line 91 "index.cu"
    out[linear] = src[(o * srcSelectDimSize + (int64_t)srcIndex) * inner + k];
  }
}

#define CT_INDEX_SELECT_KIND(KIND, NAME, T, S)                                              \
  extern "C" __global__ void NAME##_##S(int64_t outer, int64_t dim_size, int64_t inner,     \
                                        int64_t n_indices, const T* src,                    \
                                        const int64_t* indices, T* out) {                   \
    KIND<T, int64_t>(outer, dim_size, inner, n_indices, src, indices, out);                 \
  }                                                                                         \
  extern "C" __global__ void NAME##_##S##_i32(int64_t outer, int64_t dim_size,              \
                                              int64_t inner, int64_t n_indices,             \
                                              const T* src, const int32_t* indices,         \
                                              T* out) {                                     \
    KIND<T, int32_t>(outer, dim_size, inner, n_indices, src, indices, out);                 \
  }
#define CT_INDEX_SELECT(T, S)                                                               \
  CT_INDEX_SELECT_KIND(indexSelectSmallIndex, index_select_small, T, S)                     \
  CT_INDEX_SELECT_KIND(indexSelectLargeIndex, index_select_large, T, S)
CT_FOR_ALL_DTYPES(CT_INDEX_SELECT)

// F.embedding(indices, weight): weight [num_embeddings, embedding_dim] contiguous, out
// [n_indices, embedding_dim]; exactly index_select(weight, 0, indices), so the same kernels
// (and asserts): embedding_small_* for at most 16 indices, embedding_large_* beyond.
#define CT_EMBEDDING_KIND(KIND, NAME, T, S)                                                 \
  extern "C" __global__ void NAME##_##S(int64_t num_embeddings, int64_t embedding_dim,      \
                                        int64_t n_indices, const T* weight,                 \
                                        const int64_t* indices, T* out) {                   \
    KIND<T, int64_t>(1, num_embeddings, embedding_dim, n_indices, weight, indices, out);    \
  }                                                                                         \
  extern "C" __global__ void NAME##_##S##_i32(int64_t num_embeddings, int64_t embedding_dim, \
                                              int64_t n_indices, const T* weight,           \
                                              const int32_t* indices, T* out) {             \
    KIND<T, int32_t>(1, num_embeddings, embedding_dim, n_indices, weight, indices, out);    \
  }
#define CT_EMBEDDING(T, S)                                                                  \
  CT_EMBEDDING_KIND(indexSelectSmallIndex, embedding_small, T, S)                           \
  CT_EMBEDDING_KIND(indexSelectLargeIndex, embedding_large, T, S)
CT_FOR_FLOAT_DTYPES(CT_EMBEDDING)

// x[idx] with one int64 index tensor on dimension `dim` (advanced indexing): the output has
// src's shape with `dim` replaced by the index's (1-D) length; negative indices count from the
// end. PyTorch's index_elementwise_kernel<128, 4>: block 128, grid ceil(n / 512), and thread
// t of block b handles elements b * 512 + j * 128 + t for j = 0..3 (a thread stops at its
// first bad index, as a trapped GPU thread does).
template <typename T>
__device__ void ct_index(int64_t n, const CtShape& shape, int32_t dim, int64_t dim_size,
                         const CtStrides& s_src, const CtStrides& s_out, int64_t s_idx,
                         const T* src, const int64_t* idx, T* out) {
  // Named as in PyTorch's lambda, so the assert's text is PyTorch's.
  const int64_t sizes[1] = {dim_size};
  const int i = 0;
  for (int j = 0; j < 4; ++j) {
    const int64_t e = (int64_t)blockIdx.x * 512 + j * 128 + threadIdx.x;
    if (e >= n) return;
    int64_t rem = e, off_src = 0, off_out = 0, pos = 0;
    for (int d = shape.ndim - 1; d >= 0; --d) {
      const int64_t c = rem % shape.sizes[d];
      rem /= shape.sizes[d];
      off_out += c * s_out.s[d];
      if (d == dim) {
        pos = c;
      } else {
        off_src += c * s_src.s[d];
      }
    }
    int64_t index = idx[pos * s_idx];
#line 111 CT_INDEX_KERNEL_CU
    CUDA_KERNEL_ASSERT_IN(-sizes[i] <= index && index < sizes[i] && "index out of bounds", "operator()");
#line 161 "index.cu"
    if (index < 0) index += sizes[i];
    out[off_out] = src[off_src + index * s_src.s[dim]];
  }
}
#define CT_INDEX(T, S)                                                                      \
  extern "C" __global__ void index_##S(int64_t n, CtShape shape, int32_t dim,               \
                                       int64_t dim_size, CtStrides s_src, CtStrides s_out,  \
                                       int64_t s_idx, const T* src, const int64_t* idx,     \
                                       T* out) {                                            \
    ct_index<T>(n, shape, dim, dim_size, s_src, s_out, s_idx, src, idx, out);               \
  }
CT_FOR_ALL_DTYPES(CT_INDEX)

// index_add: the backward of index_select and embedding (autograd's index_add into zeros).
// src is the contiguous [outer, n_indices, inner] gradient, out the zeroed [outer, dim_size,
// inner]; each element is added with atomicAdd at its index's slice: PyTorch's index_add_
// kernel (indexFuncLargeIndex with atomic adds) for index_select. PyTorch's embedding
// backward (embedding_dense_backward) sorts the indices first and sums each row's
// contributions in position order; with atomics the order in which a repeated index's
// contributions arrive is the GPU's schedule, so float sums of repeated indices may differ
// from PyTorch's in the last bits on a GPU (the emulated device runs the grid in order:
// position order for up to 8 * SMs * 128 elements). Out-of-range indices are skipped (the
// forward's assert already fired for them). Launch: grid-stride, block 128.
template <typename T, typename IndexT>
__device__ void ct_index_add(int64_t outer, int64_t dim_size, int64_t inner,
                             int64_t n_indices, const T* src, const IndexT* indices, T* out) {
  const int64_t total = outer * n_indices * inner;
  CT_KERNEL_LOOP(linear, total) {
    const int64_t k = linear % inner;
    const int64_t j = (linear / inner) % n_indices;
    const int64_t o = linear / (inner * n_indices);
    const int64_t t = (int64_t)indices[j];
    if (t < 0 || t >= dim_size) continue;
    atomicAdd(&out[(o * dim_size + t) * inner + k], src[linear]);
  }
}
#define CT_INDEX_ADD(T, S)                                                                  \
  extern "C" __global__ void index_add_##S(int64_t outer, int64_t dim_size, int64_t inner,  \
                                           int64_t n_indices, const T* src,                 \
                                           const int64_t* indices, T* out) {                \
    ct_index_add<T, int64_t>(outer, dim_size, inner, n_indices, src, indices, out);         \
  }                                                                                         \
  extern "C" __global__ void index_add_##S##_i32(int64_t outer, int64_t dim_size,           \
                                                 int64_t inner, int64_t n_indices,          \
                                                 const T* src, const int32_t* indices,      \
                                                 T* out) {                                  \
    ct_index_add<T, int32_t>(outer, dim_size, inner, n_indices, src, indices, out);         \
  }
CT_FOR_FLOAT_DTYPES(CT_INDEX_ADD)
