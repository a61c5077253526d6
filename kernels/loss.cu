// loss.cu: F.nll_loss (and so F.cross_entropy = log_softmax + nll_loss) forward.
//
// The kernels mirror PyTorch's aten/src/ATen/native/cuda/Loss.cu: same kernel names, same
// arguments, same NLL_LOSS_THREADS = 32 single-block reduction, and the same device-side
// assert, so an out-of-range target prints what PyTorch prints:
//   /__w/pytorch/pytorch/aten/src/ATen/native/cuda/Loss.cu:244:
//   nll_loss_forward_reduce_cuda_kernel_2d: block: [0,0,0], thread: [5,0,0]
//   Assertion `t >= 0 && t < n_classes` failed.
// (file and line are PyTorch 2.15's, through the #line directives around each assert)
// (CUDA_KERNEL_ASSERT passes __func__, the unqualified name of the templated kernel body.)
// The extern "C" entry points add the dtype suffix <input>_<target>: f32_i64, f64_i64,
// f32_u8, f64_u8 (PyTorch accepts int64 and uint8 targets).
//
// Launch: *_reduce_cuda_kernel_2d: grid 1, block NLL_LOSS_THREADS (reduction 'mean' when
// size_average, else 'sum'; total_weight receives the sum of the used weights).
// *_reduce_cuda_kernel_1d: grid 1, block 1 (input of shape [C]).
// *_no_reduce_cuda_kernel: any 1-D grid (reduction 'none'; output [N]).
// `weights` may be null (all classes weigh 1).

#define NLL_LOSS_THREADS 32

template <typename scalar_t, typename accscalar_t, typename index_t>
__device__ void nll_loss_forward_reduce_cuda_kernel_2d(
    scalar_t* output, scalar_t* total_weight, const scalar_t* input, const index_t* target,
    const scalar_t* weights, bool size_average, int64_t nframe, int64_t ndim,
    int64_t n_classes, int64_t ignore_index) {
  __shared__ accscalar_t sh_inputs[NLL_LOSS_THREADS], acc_weight[NLL_LOSS_THREADS];

  sh_inputs[threadIdx.x] = (accscalar_t)0;
  acc_weight[threadIdx.x] = (accscalar_t)0;
  for (int64_t i = threadIdx.x; i < nframe; i += NLL_LOSS_THREADS) {
    const int64_t t = (int64_t)target[i];
    if (t != ignore_index) {
#line 244 CT_LOSS_CU
      CUDA_KERNEL_ASSERT(t >= 0 && t < n_classes);  // 2d
#line 37 "loss.cu"
      const scalar_t cur_weight = weights != nullptr ? weights[t] : (scalar_t)1;
      sh_inputs[threadIdx.x] -= (accscalar_t)(input[i * ndim + t] * cur_weight);
      acc_weight[threadIdx.x] += (accscalar_t)cur_weight;
    }
  }

  __syncthreads();

  if (threadIdx.x == 0) {
    accscalar_t output_acc = 0;
    accscalar_t total_weight_acc = 0;
    for (int i = 0; i < NLL_LOSS_THREADS; ++i) {
      output_acc += sh_inputs[i];
      total_weight_acc += acc_weight[i];
    }
    *total_weight = (scalar_t)total_weight_acc;
    // Every target ignored under 'mean': 0 / 0 = nan, as in PyTorch.
    *output = size_average ? (scalar_t)(output_acc / total_weight_acc) : (scalar_t)output_acc;
  }
}

template <typename scalar_t, typename index_t>
__device__ void nll_loss_forward_reduce_cuda_kernel_1d(
    scalar_t* output, scalar_t* total_weight, const scalar_t* input, const index_t* target,
    const scalar_t* weights, bool size_average, int64_t n_classes, int64_t ignore_index) {
#line 196 CT_LOSS_CU
  CUDA_KERNEL_ASSERT(threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0);
#line 65 "loss.cu"
  const int64_t t = (int64_t)*target;
  if (t != ignore_index) {
#line 200 CT_LOSS_CU
    CUDA_KERNEL_ASSERT(t >= 0 && t < n_classes);  // 1d
#line 70 "loss.cu"
    const scalar_t cur_weight = weights != nullptr ? weights[t] : (scalar_t)1;
    *total_weight = cur_weight;
    if (size_average) {
      // Normalising by a zero weight gives nan, as in PyTorch.
      *output = cur_weight == (scalar_t)0 ? (scalar_t)0 / (scalar_t)0 : -input[t];
    } else {
      *output = -cur_weight * input[t];
    }
  } else {
    // The only target is ignored: PyTorch returns 0 (not nan) here.
    *output = (scalar_t)0;
    *total_weight = (scalar_t)0;
  }
}

template <typename scalar_t, typename index_t>
__device__ void nll_loss_forward_no_reduce_cuda_kernel(
    int64_t batch_size, const scalar_t* input, int64_t n_classes, const index_t* target,
    scalar_t* output, const scalar_t* weights, int64_t ignore_index) {
  CT_KERNEL_LOOP(index, batch_size) {
    const int64_t cur_target = (int64_t)target[index];
    if (cur_target == ignore_index) {
      output[index] = (scalar_t)0;
      continue;
    }
#line 179 CT_LOSS_CU
    CUDA_KERNEL_ASSERT(cur_target >= 0 && cur_target < n_classes);
#line 98 "loss.cu"
    const scalar_t cur_weight = weights != nullptr ? weights[cur_target] : (scalar_t)1;
    output[index] = -input[index * n_classes + cur_target] * cur_weight;
  }
}

#define CT_NLL(T, TS, I, IS)                                                                  \
  extern "C" __global__ void nll_loss_forward_reduce_cuda_kernel_2d_##TS##_##IS(              \
      T* output, T* total_weight, const T* input, const I* target, const T* weights,          \
      bool size_average, int64_t nframe, int64_t ndim, int64_t n_classes,                     \
      int64_t ignore_index) {                                                                 \
    nll_loss_forward_reduce_cuda_kernel_2d<T, T, I>(output, total_weight, input, target,     \
                                                    weights, size_average, nframe, ndim,      \
                                                    n_classes, ignore_index);                 \
  }                                                                                           \
  extern "C" __global__ void nll_loss_forward_reduce_cuda_kernel_1d_##TS##_##IS(              \
      T* output, T* total_weight, const T* input, const I* target, const T* weights,          \
      bool size_average, int64_t n_classes, int64_t ignore_index) {                           \
    nll_loss_forward_reduce_cuda_kernel_1d<T, I>(output, total_weight, input, target,        \
                                                 weights, size_average, n_classes,            \
                                                 ignore_index);                               \
  }                                                                                           \
  extern "C" __global__ void nll_loss_forward_no_reduce_cuda_kernel_##TS##_##IS(              \
      int64_t batch_size, const T* input, int64_t n_classes, const I* target, T* output,      \
      const T* weights, int64_t ignore_index) {                                               \
    nll_loss_forward_no_reduce_cuda_kernel<T, I>(batch_size, input, n_classes, target,       \
                                                 output, weights, ignore_index);              \
  }

CT_NLL(float, f32, int64_t, i64)
CT_NLL(double, f64, int64_t, i64)
CT_NLL(float, f32, uint8_t, u8)
CT_NLL(double, f64, uint8_t, u8)

// nll_loss backward (Loss.cu's nll_loss_backward_reduce_cuda_kernel_2d and
// nll_loss_backward_no_reduce_cuda_kernel): grad_input is zeroed first (the host launches
// fill), then each used sample's target column receives
//   reduced ('mean' when size_average, else 'sum'): w[t] * -(size_average ? g / total_weight : g)
//   'none':                                        -w[t] * g[i]
// total_weight is the forward's (the host gets it from the forward kernel). PyTorch asserts
// the target range here too; these kernels skip an out-of-range target instead, because a
// bad target already fired the forward's assert and a poisoned context runs no backward.
// Launch as PyTorch: reduced <<<1, NLL_LOSS_THREADS>>>, 'none' GET_BLOCKS(n) x 128.
template <typename scalar_t, typename index_t>
__device__ void nll_loss_backward_reduce_cuda_kernel_2d(
    scalar_t* grad_input, const scalar_t* grad_output, const index_t* target,
    const scalar_t* weights, const scalar_t* total_weight, bool size_average, int64_t nframe,
    int64_t ndim, int64_t n_classes, int64_t ignore_index) {
  const scalar_t grad = -(size_average ? *grad_output / *total_weight : *grad_output);
  for (int64_t i = threadIdx.x; i < nframe; i += NLL_LOSS_THREADS) {
    const int64_t t = (int64_t)target[i];
    if (t != ignore_index && t >= 0 && t < n_classes) {
      grad_input[i * ndim + t] = weights != nullptr ? weights[t] * grad : grad;
    }
  }
}

template <typename scalar_t, typename index_t>
__device__ void nll_loss_backward_no_reduce_cuda_kernel(
    int64_t batch_size, const index_t* target, const scalar_t* grad_output,
    scalar_t* grad_input, const scalar_t* weights, int64_t n_classes, int64_t ignore_index) {
  CT_KERNEL_LOOP(index, batch_size) {
    const int64_t cur_target = (int64_t)target[index];
    if (cur_target == ignore_index || cur_target < 0 || cur_target >= n_classes) continue;
    const scalar_t weight = weights != nullptr ? weights[cur_target] : (scalar_t)1;
    grad_input[index * n_classes + cur_target] = -weight * grad_output[index];
  }
}

#define CT_NLL_BACKWARD(T, TS, I, IS)                                                         \
  extern "C" __global__ void nll_loss_backward_reduce_cuda_kernel_2d_##TS##_##IS(             \
      T* grad_input, const T* grad_output, const I* target, const T* weights,                 \
      const T* total_weight, bool size_average, int64_t nframe, int64_t ndim,                 \
      int64_t n_classes, int64_t ignore_index) {                                              \
    nll_loss_backward_reduce_cuda_kernel_2d<T, I>(grad_input, grad_output, target, weights,   \
                                                  total_weight, size_average, nframe, ndim,   \
                                                  n_classes, ignore_index);                   \
  }                                                                                           \
  extern "C" __global__ void nll_loss_backward_no_reduce_cuda_kernel_##TS##_##IS(             \
      int64_t batch_size, const I* target, const T* grad_output, T* grad_input,               \
      const T* weights, int64_t n_classes, int64_t ignore_index) {                            \
    nll_loss_backward_no_reduce_cuda_kernel<T, I>(batch_size, target, grad_output,           \
                                                  grad_input, weights, n_classes,             \
                                                  ignore_index);                              \
  }

CT_NLL_BACKWARD(float, f32, int64_t, i64)
CT_NLL_BACKWARD(double, f64, int64_t, i64)
CT_NLL_BACKWARD(float, f32, uint8_t, u8)
CT_NLL_BACKWARD(double, f64, uint8_t, u8)
