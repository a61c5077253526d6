// scan.cu: torch.cumsum / torch.cumprod along one dimension.
//
// The contiguous input is viewed as [outer, len, inner]; the output is contiguous of the same
// shape. PyTorch's tensor_kernel_scan_outer_dim (ScanUtils.cuh): one thread per (outer,
// inner) column walks the column in order, `acc = acc OP x; out = acc`, accumulating in the
// output's type (float in float, double in double; integer and bool inputs are scanned in
// int64, as PyTorch promotes them before scanning). Launch as PyTorch's outer-dim scan:
// block min(512, inner), grid (min(65535, outer), min(65535, ceil(inner / block))).
// PyTorch scans the innermost dimension (inner == 1) and 1-D tensors with parallel scans
// (tensor_kernel_scan_innermost_dim, cub's inclusive scan) whose float sums associate
// differently; here every column is the sequential scan, so float32 results of those cases
// may differ from real CUDA in the last bits (integer results are exact either way).
template <typename In, typename Out, bool IsProd>
__device__ void ct_scan(int64_t outer, int64_t len, int64_t inner, const In* in, Out* out) {
  for (int64_t o = blockIdx.x; o < outer; o += gridDim.x) {
    for (int64_t i = (int64_t)blockIdx.y * blockDim.x + threadIdx.x; i < inner;
         i += (int64_t)gridDim.y * blockDim.x) {
      const int64_t base = o * len * inner + i;
      Out acc = IsProd ? (Out)1 : (Out)0;
      for (int64_t k = 0; k < len; ++k) {
        const Out x = (Out)in[base + k * inner];
        acc = IsProd ? (Out)(acc * x) : (Out)(acc + x);
        out[base + k * inner] = acc;
      }
    }
  }
}

#define CT_SCAN(In, S, Out)                                                                \
  extern "C" __global__ void cumsum_##S(int64_t outer, int64_t len, int64_t inner,         \
                                        const In* in, Out* out) {                          \
    ct_scan<In, Out, false>(outer, len, inner, in, out);                                   \
  }                                                                                        \
  extern "C" __global__ void cumprod_##S(int64_t outer, int64_t len, int64_t inner,        \
                                         const In* in, Out* out) {                         \
    ct_scan<In, Out, true>(outer, len, inner, in, out);                                    \
  }
CT_FOR_ALL_DTYPES_WITH_SUM_TYPE(CT_SCAN)
