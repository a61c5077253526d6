// random.cu: torch.rand / randn / randint / uniform_ / normal_ on CUDA tensors, drawn as
// PyTorch's CUDA generator draws them (ATen's distribution_nullary_kernel over curand's
// Philox4x32-10), so a seeded script gets PyTorch's numbers on the GPU and on the emulated
// device alike. Mirrors the host implementation of branch `random`
// (src/engine/random/cuda/kernels.rs): same counters, same grid-stride layout, same
// transforms; unverified against a GPU until scripts/gpu-check.sh records seeded numbers.
//
// Thread idx = blockIdx.x * blockDim.x + threadIdx.x does curand_init(seed, idx, offset):
// its k-th curand4 call is Philox4x32-10 of counter (offset / 4 + k, idx) under key seed.
// Each call yields UNROLL values (4 floats, 2 doubles, 4 32-bit or 2 64-bit integers); value
// ii of call k goes to element k * threads * UNROLL + idx + ii * threads (threads = all of
// the grid's threads), as ATen's grid-stride loop writes them.
//
// Launch (the host's `launch_policy`, ops.rs): 256 threads per block, grid min(ceil(n / 256),
// SMs * maxThreadsPerSM / 256); the generator's offset then advances by
// ((n - 1) / (256 * grid * UNROLL) + 1) * 4.

struct CtPhilox4 {
  uint32_t x, y, z, w;
};

#define CT_PHILOX_M0 0xD2511F53u
#define CT_PHILOX_M1 0xCD9E8D57u
#define CT_PHILOX_W0 0x9E3779B9u
#define CT_PHILOX_W1 0xBB67AE85u

__device__ __forceinline__ CtPhilox4 ct_philox_round(CtPhilox4 c, uint32_t k0, uint32_t k1) {
  const uint32_t lo0 = CT_PHILOX_M0 * c.x;
  const uint32_t hi0 = __umulhi(CT_PHILOX_M0, c.x);
  const uint32_t lo1 = CT_PHILOX_M1 * c.z;
  const uint32_t hi1 = __umulhi(CT_PHILOX_M1, c.z);
  CtPhilox4 r;
  r.x = hi1 ^ c.y ^ k0;
  r.y = lo1;
  r.z = hi0 ^ c.w ^ k1;
  r.w = lo0;
  return r;
}

// The k-th curand4 of thread `idx` after curand_init(seed, idx, offset), offset % 4 == 0.
__device__ __forceinline__ CtPhilox4 ct_curand4(uint64_t seed, uint64_t offset, uint64_t idx,
                                                uint64_t k) {
  const uint64_t c = offset / 4 + k;
  CtPhilox4 ctr;
  ctr.x = (uint32_t)c;
  ctr.y = (uint32_t)(c >> 32);
  ctr.z = (uint32_t)idx;
  ctr.w = (uint32_t)(idx >> 32);
  uint32_t k0 = (uint32_t)seed;
  uint32_t k1 = (uint32_t)(seed >> 32);
#pragma unroll
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      k0 += CT_PHILOX_W0;
      k1 += CT_PHILOX_W1;
    }
    ctr = ct_philox_round(ctr, k0, k1);
  }
  return ctr;
}

#define CT_2POW32_INV 2.3283064e-10f           // 2^-32
#define CT_2POW53_INV_DOUBLE 1.1102230246251565e-16  // 2^-53
#define CT_2PI 6.2831855f

// curand_uniform: (0, 1], the word as float then one fused multiply-add.
__device__ __forceinline__ float ct_curand_uniform(uint32_t x) {
  return fmaf((float)x, CT_2POW32_INV, CT_2POW32_INV / 2.0f);
}
// curand_uniform_double (hq): 53 bits of two words, (0, 1].
__device__ __forceinline__ double ct_curand_uniform_double(uint32_t x, uint32_t y) {
  const uint64_t z = (uint64_t)x ^ ((uint64_t)y << 21);
  return fma((double)z, CT_2POW53_INV_DOUBLE, CT_2POW53_INV_DOUBLE / 2.0);
}

// The grid-stride loop of ATen's distribution_nullary_kernel: `draw` gives UNROLL values
// from one curand4, `write(i, v)` stores element i.
template <int UNROLL, typename Draw, typename Write>
__device__ void ct_distribution(int64_t n, uint64_t seed, uint64_t offset, Draw draw,
                                Write write) {
  const int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  const int64_t threads = (int64_t)blockDim.x * gridDim.x;
  for (int64_t k = 0;; ++k) {
    const int64_t base = k * threads * UNROLL + idx;
    if (base >= n) break;
    typename Draw::value_type v[UNROLL];
    draw(ct_curand4(seed, offset, (uint64_t)idx, (uint64_t)k), v);
    for (int ii = 0; ii < UNROLL; ++ii) {
      const int64_t li = base + ii * threads;
      if (li < n) write(li, v[ii]);
    }
  }
}

struct DrawUniform4 {
  typedef float value_type;
  __device__ void operator()(CtPhilox4 r, float* v) const {
    v[0] = ct_curand_uniform(r.x);
    v[1] = ct_curand_uniform(r.y);
    v[2] = ct_curand_uniform(r.z);
    v[3] = ct_curand_uniform(r.w);
  }
};
struct DrawUniform2Double {
  typedef double value_type;
  __device__ void operator()(CtPhilox4 r, double* v) const {
    v[0] = ct_curand_uniform_double(r.x, r.y);
    v[1] = ct_curand_uniform_double(r.z, r.w);
  }
};
// curand's Box-Muller: (sin, cos) times the radius, from two words.
struct DrawNormal4 {
  typedef float value_type;
  __device__ void pair(uint32_t x, uint32_t y, float* out) const {
    const float u = ct_curand_uniform(x);
    const float two_pi_scaled = CT_2POW32_INV * CT_2PI;
    const float v = fmaf((float)y, two_pi_scaled, two_pi_scaled / 2.0f);
    const float s = sqrtf(-2.0f * logf(u));
    float sn, cs;
    __sincosf(v, &sn, &cs);
    out[0] = sn * s;
    out[1] = cs * s;
  }
  __device__ void operator()(CtPhilox4 r, float* v) const {
    pair(r.x, r.y, v);
    pair(r.z, r.w, v + 2);
  }
};
struct DrawNormal2Double {
  typedef double value_type;
  __device__ void operator()(CtPhilox4 r, double* v) const {
    const double u = ct_curand_uniform_double(r.x, r.y);
    const uint64_t zy = (uint64_t)r.z ^ ((uint64_t)r.w << 21);
    const double t = fma((double)zy, CT_2POW53_INV_DOUBLE * 2.0, CT_2POW53_INV_DOUBLE);
    const double s = sqrt(-2.0 * log(u));
    double sn, cs;
    sincospi(t, &sn, &cs);
    v[0] = sn * s;
    v[1] = cs * s;
  }
};
struct DrawU32x4 {
  typedef uint32_t value_type;
  __device__ void operator()(CtPhilox4 r, uint32_t* v) const {
    v[0] = r.x;
    v[1] = r.y;
    v[2] = r.z;
    v[3] = r.w;
  }
};
struct DrawU64x2 {
  typedef uint64_t value_type;
  __device__ void operator()(CtPhilox4 r, uint64_t* v) const {
    v[0] = ((uint64_t)r.x << 32) | r.y;
    v[1] = ((uint64_t)r.z << 32) | r.w;
  }
};

// uniform_(low, high): value = rand * range + low (one fused multiply-add); a value that
// rounds to `high` becomes `low`, as ATen's uniform kernel does.
template <typename T> struct WriteUniform {
  T* out;
  T low, high, range;
  __device__ void operator()(int64_t i, T r) const {
    const T v = ct_fma(r, range, low);
    out[i] = v == high ? low : v;
  }
};
template <typename T> struct WriteNormal {
  T* out;
  T mean, stddev;
  __device__ void operator()(int64_t i, T r) const { out[i] = ct_fma(r, stddev, mean); }
};

extern "C" __global__ void uniform_f32(int64_t n, uint64_t seed, uint64_t offset, float low,
                                       float high, float* out) {
  ct_distribution<4>(n, seed, offset, DrawUniform4(), WriteUniform<float>{out, low, high, high - low});
}
extern "C" __global__ void uniform_f64(int64_t n, uint64_t seed, uint64_t offset, double low,
                                       double high, double* out) {
  ct_distribution<2>(n, seed, offset, DrawUniform2Double(),
                     WriteUniform<double>{out, low, high, high - low});
}
extern "C" __global__ void normal_f32(int64_t n, uint64_t seed, uint64_t offset, float mean,
                                      float stddev, float* out) {
  ct_distribution<4>(n, seed, offset, DrawNormal4(), WriteNormal<float>{out, mean, stddev});
}
extern "C" __global__ void normal_f64(int64_t n, uint64_t seed, uint64_t offset, double mean,
                                      double stddev, double* out) {
  ct_distribution<2>(n, seed, offset, DrawNormal2Double(), WriteNormal<double>{out, mean, stddev});
}

// randint(low, high) / random_(from, to): range = high - low > 0. A range of at least 2^28
// takes 64-bit draws (two per curand4), a smaller one 32-bit draws (four per curand4).
template <typename T, typename W> struct WriteRandint {
  T* out;
  int64_t low;
  uint64_t range;
  __device__ void operator()(int64_t i, W r) const {
    out[i] = (T)(int64_t)((uint64_t)r % range + (uint64_t)low);
  }
};
template <typename T>
__device__ void ct_randint(int64_t n, uint64_t seed, uint64_t offset, int64_t low,
                           uint64_t range, T* out) {
  if (range >= (1ull << 28)) {
    ct_distribution<2>(n, seed, offset, DrawU64x2(), WriteRandint<T, uint64_t>{out, low, range});
  } else {
    ct_distribution<4>(n, seed, offset, DrawU32x4(), WriteRandint<T, uint32_t>{out, low, range});
  }
}

#define CT_RANDINT(T, S)                                                                   \
  extern "C" __global__ void randint_##S(int64_t n, uint64_t seed, uint64_t offset,        \
                                         int64_t low, uint64_t range, T* out) {            \
    ct_randint<T>(n, seed, offset, low, range, out);                                       \
  }
CT_FOR_NUMERIC_DTYPES(CT_RANDINT)

// bernoulli_(p) with a number p: a uniform below p is 1 (ATen's bernoulli_kernel through
// uniform_and_transform: a double uniform, two per curand4, for a float64 tensor; a float
// one, four per curand4, compared with (float)p, for every other dtype).
template <typename T> struct WriteBernoulliF32 {
  T* out;
  float p;
  __device__ void operator()(int64_t i, float r) const { out[i] = (T)(r < p); }
};
template <typename T> struct WriteBernoulliF64 {
  T* out;
  double p;
  __device__ void operator()(int64_t i, double r) const { out[i] = (T)(r < p); }
};
#define CT_BERNOULLI_SCALAR(T, S)                                                          \
  extern "C" __global__ void bernoulli_scalar_##S(int64_t n, uint64_t seed, uint64_t offset, \
                                                  double p, T* out) {                      \
    ct_distribution<4>(n, seed, offset, DrawUniform4(), WriteBernoulliF32<T>{out, (float)p}); \
  }
CT_BERNOULLI_SCALAR(float, f32)
CT_BERNOULLI_SCALAR(int64_t, i64)
CT_BERNOULLI_SCALAR(int32_t, i32)
CT_BERNOULLI_SCALAR(uint8_t, u8)
CT_BERNOULLI_SCALAR(bool, bool)
extern "C" __global__ void bernoulli_scalar_f64(int64_t n, uint64_t seed, uint64_t offset,
                                                double p, double* out) {
  ct_distribution<2>(n, seed, offset, DrawUniform2Double(), WriteBernoulliF64<double>{out, p});
}

// exponential_(lambd): -1/lambd * log(u), where a u that rounds to 1 takes -eps/2 as its log
// (ATen's exponential transformation), in float for float32 and double for float64.
template <typename T> __device__ __forceinline__ T ct_epsilon();
template <> __device__ __forceinline__ float ct_epsilon<float>() { return 1.1920929e-07f; }  // FLT_EPSILON
template <> __device__ __forceinline__ double ct_epsilon<double>() { return 2.220446049250313e-16; }  // DBL_EPSILON
template <typename T> struct WriteExponential {
  T* out;
  T lambda;
  __device__ void operator()(int64_t i, T r) const {
    const T eps = ct_epsilon<T>();
    const T lg = r >= (T)1 - eps / (T)2 ? -eps / (T)2 : ct_log(r);
    out[i] = ((T)-1 / lambda) * lg;
  }
};
extern "C" __global__ void exponential_f32(int64_t n, uint64_t seed, uint64_t offset,
                                           double lambda, float* out) {
  ct_distribution<4>(n, seed, offset, DrawUniform4(), WriteExponential<float>{out, (float)lambda});
}
extern "C" __global__ void exponential_f64(int64_t n, uint64_t seed, uint64_t offset,
                                           double lambda, double* out) {
  ct_distribution<2>(n, seed, offset, DrawUniform2Double(), WriteExponential<double>{out, lambda});
}

// F.dropout's noise on a float32 tensor of ones (ATen's fused_dropout_kernel_vec /
// fused_dropout_kernel, Dropout.cu): element kept when its uniform is below keep = 1 - p,
// then scaled by 1 / keep. With `vec` > 1 (a contiguous tensor whose size `vec` divides)
// thread idx takes `vec` consecutive elements per iteration, one curand4 each time;
// otherwise the grid-stride layout of the other distributions.
struct WriteDropoutNoise {
  float* out;
  float keep, scale;
  __device__ void operator()(int64_t i, float r) const {
    out[i] = 1.0f * (float)(r < keep) * scale;
  }
};
extern "C" __global__ void dropout_noise_f32(int64_t n, uint64_t seed, uint64_t offset,
                                             float keep, float scale, int32_t vec, float* out) {
  const int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  const int64_t threads = (int64_t)blockDim.x * gridDim.x;
  if (vec > 1) {
    uint64_t k = 0;
    for (int64_t li = idx * vec; li < n; li += threads * vec, ++k) {
      float r[4];
      DrawUniform4()(ct_curand4(seed, offset, (uint64_t)idx, k), r);
      for (int j = 0; j < vec && j < 4; ++j) {
        out[li + j] = 1.0f * (float)(r[j] < keep) * scale;
      }
    }
    return;
  }
  ct_distribution<4>(n, seed, offset, DrawUniform4(), WriteDropoutNoise{out, keep, scale});
}

// float32 -> float16 bits, rounded to nearest even (__float2half_rn), in integer arithmetic
// so every compiler gives the same bits.
__device__ __forceinline__ uint16_t ct_float_to_half_bits(float x) {
  const uint32_t bits = __float_as_uint(x);
  const uint16_t sign = (uint16_t)((bits >> 16) & 0x8000u);
  const int32_t exp = (int32_t)((bits >> 23) & 0xffu);
  const uint32_t man = bits & 0x007fffffu;
  if (exp == 0xff) return (uint16_t)(sign | 0x7c00u | (man != 0 ? (0x0200u | (man >> 13)) : 0u));
  const int32_t e = exp - 127 + 15;
  if (e >= 0x1f) return (uint16_t)(sign | 0x7c00u);
  if (e <= 0) {
    if (e < -10) return sign;
    const uint32_t full = man | 0x00800000u;
    const uint32_t shift = (uint32_t)(14 - e);
    const uint32_t half_man = full >> shift;
    const uint32_t rem = full & ((1u << shift) - 1u);
    const uint32_t halfway = 1u << (shift - 1u);
    const bool up = rem > halfway || (rem == halfway && (half_man & 1u));
    return (uint16_t)(sign | (half_man + (up ? 1u : 0u)));
  }
  const uint32_t half = ((uint32_t)e << 10) | (man >> 13);
  const uint32_t rem = man & 0x1fffu;
  const bool up = rem > 0x1000u || (rem == 0x1000u && (half & 1u));
  return (uint16_t)(sign | (half + (up ? 1u : 0u)));
}

// randn / normal_ of a float16 tensor: the float normal, `r * std + mean` in float (one fused
// multiply-add), rounded to half.
struct WriteNormalF16 {
  uint16_t* out;
  float mean, stddev;
  __device__ void operator()(int64_t i, float r) const {
    out[i] = ct_float_to_half_bits(fmaf(r, stddev, mean));
  }
};
extern "C" __global__ void normal_f16(int64_t n, uint64_t seed, uint64_t offset, float mean,
                                      float stddev, uint16_t* out) {
  ct_distribution<4>(n, seed, offset, DrawNormal4(), WriteNormalF16{out, mean, stddev});
}

// torch.bernoulli(p) / bernoulli_(p_tensor) (ATen's bernoulli_tensor_cuda_kernel through
// CUDA_tensor_apply2 with step 4 and 512-thread blocks): thread idx takes elements
// 4 * idx .. 4 * idx + 3 from one curand_uniform4 after curand_init(seed, idx, offset), and
// an element is 1 when its uniform is <= p (p as float, as double for a float64 output, and
// 0 <= p <= 1 asserted on the device, from the last element down as PyTorch's switch does).
// The grid covers every element (ceil(n / 2048) blocks), so no thread loops; the generator's
// offset advances by philox_cuda_state(10), i.e. 12. The assert reports this file's line:
// PyTorch 2.15's line in DistributionTemplates.h is not read yet (no CUDA wheel here).
template <typename T, typename P>
__device__ void ct_bernoulli_tensor(int64_t n, uint64_t seed, uint64_t offset, const P* p,
                                    T* out) {
  const int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  const int64_t base = idx * 4;
  if (base >= n) return;
  const int64_t left = n - base;
  const int count = left < 4 ? (int)left : 4;
  float u[4];
  DrawUniform4()(ct_curand4(seed, offset, (uint64_t)idx, 0), u);
  switch (count) {
    case 4: {
      const P p4 = p[base + 3];
      CUDA_KERNEL_ASSERT_IN(0 <= p4 && p4 <= 1, "operator()");
      out[base + 3] = (T)(u[3] <= p4);
    }
    case 3: {
      const P p3 = p[base + 2];
      CUDA_KERNEL_ASSERT_IN(0 <= p3 && p3 <= 1, "operator()");
      out[base + 2] = (T)(u[2] <= p3);
    }
    case 2: {
      const P p2 = p[base + 1];
      CUDA_KERNEL_ASSERT_IN(0 <= p2 && p2 <= 1, "operator()");
      out[base + 1] = (T)(u[1] <= p2);
    }
    default: {
      const P p1 = p[base];
      CUDA_KERNEL_ASSERT_IN(0 <= p1 && p1 <= 1, "operator()");
      out[base] = (T)(u[0] <= p1);
    }
  }
}
extern "C" __global__ void bernoulli_tensor_f32(int64_t n, uint64_t seed, uint64_t offset,
                                                const float* p, float* out) {
  ct_bernoulli_tensor<float, float>(n, seed, offset, p, out);
}
extern "C" __global__ void bernoulli_tensor_f64(int64_t n, uint64_t seed, uint64_t offset,
                                                const double* p, double* out) {
  ct_bernoulli_tensor<double, double>(n, seed, offset, p, out);
}
