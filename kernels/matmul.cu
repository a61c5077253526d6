// matmul.cu: tiled shared-memory GEMM, the fallback when cuBLAS cannot be loaded.
//
// C[m, n] = alpha * sum_k A[m, k] * B[k, n] + beta * C[m, n] for row-major matrices with
// strides in elements (ldc for C), batched over blockIdx.z with element strides
// stride_a, stride_b, stride_c between batch entries (0 broadcasts one matrix over the batch).
// Any 2-D layout works, so a transposed operand (x.t()) needs no copy:
// A element (i, k) is at A[i * a_row + k * a_col], likewise for B.
// Launch: block (CT_TILE, CT_TILE), grid (ceil(n / CT_TILE), ceil(m / CT_TILE), batch).
// Accumulates in the element type (float for sgemm, double for dgemm).

#define CT_TILE 16

template <typename T>
__device__ void ct_gemm(int64_t m, int64_t n, int64_t k, T alpha, const T* A, int64_t a_row,
                        int64_t a_col, int64_t stride_a, const T* B, int64_t b_row,
                        int64_t b_col, int64_t stride_b, T beta, T* C, int64_t ldc,
                        int64_t stride_c) {
  __shared__ T As[CT_TILE][CT_TILE];
  __shared__ T Bs[CT_TILE][CT_TILE + 1];  // +1: no bank conflicts on the transposed read
  const int64_t batch = blockIdx.z;
  A += batch * stride_a;
  B += batch * stride_b;
  C += batch * stride_c;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int64_t row = (int64_t)blockIdx.y * CT_TILE + ty;
  const int64_t col = (int64_t)blockIdx.x * CT_TILE + tx;
  T acc = (T)0;
  for (int64_t t = 0; t < k; t += CT_TILE) {
    const int64_t ka = t + tx, kb = t + ty;
    As[ty][tx] = (row < m && ka < k) ? A[row * a_row + ka * a_col] : (T)0;
    Bs[ty][tx] = (kb < k && col < n) ? B[kb * b_row + col * b_col] : (T)0;
    __syncthreads();
#pragma unroll
    for (int q = 0; q < CT_TILE; ++q) acc += As[ty][q] * Bs[q][tx];
    __syncthreads();
  }
  if (row < m && col < n) {
    T* c = &C[row * ldc + col];
    // beta == 0 must not read C (it may be uninitialised memory holding nan), as in BLAS.
    *c = beta == (T)0 ? alpha * acc : alpha * acc + beta * *c;
  }
}

#define CT_GEMM(T, NAME)                                                                    \
  extern "C" __global__ void NAME(int64_t m, int64_t n, int64_t k, T alpha, const T* A,    \
                                  int64_t a_row, int64_t a_col, int64_t stride_a,           \
                                  const T* B, int64_t b_row, int64_t b_col,                 \
                                  int64_t stride_b, T beta, T* C, int64_t ldc,              \
                                  int64_t stride_c) {                                       \
    ct_gemm<T>(m, n, k, alpha, A, a_row, a_col, stride_a, B, b_row, b_col, stride_b, beta,  \
               C, ldc, stride_c);                                                           \
  }
CT_GEMM(float, sgemm)
CT_GEMM(double, dgemm)
