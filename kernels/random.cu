// random.cu: counter-based random numbers (torch.rand / randn / randint / uniform_ / normal_).
//
// Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC'11), the
// generator behind curand's Philox and PyTorch's CUDA generator. A draw is a pure function of
// (seed, offset, element index): thread t computes block t of the stream and writes 4 values
// (uniform, normal) or 2 values (randint, 64 bits each). The host advances `offset` by the
// number of 128-bit blocks it consumed after every call, like PyTorch's philox offset, so a
// sequence of calls after manual_seed(s) is reproducible. (The numbers are not bit-identical
// to PyTorch's: PyTorch's layout depends on the GPU's SM count.)

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

// Philox4x32-10 of counter (block index, offset) under key `seed`.
__device__ __forceinline__ CtPhilox4 ct_philox(uint64_t seed, uint64_t offset, uint64_t block) {
  CtPhilox4 c;
  c.x = (uint32_t)block;
  c.y = (uint32_t)(block >> 32);
  c.z = (uint32_t)offset;
  c.w = (uint32_t)(offset >> 32);
  uint32_t k0 = (uint32_t)seed;
  uint32_t k1 = (uint32_t)(seed >> 32);
#pragma unroll
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      k0 += CT_PHILOX_W0;
      k1 += CT_PHILOX_W1;
    }
    c = ct_philox_round(c, k0, k1);
  }
  return c;
}

// 32 random bits -> float in [0, 1) (24 bits) and in (0, 1] (for log in Box-Muller).
__device__ __forceinline__ float ct_u01_f32(uint32_t x) { return (x >> 8) * (1.0f / 16777216.0f); }
__device__ __forceinline__ float ct_u01_open_f32(uint32_t x) {
  return ((x >> 8) + 1) * (1.0f / 16777216.0f);
}
// 64 random bits -> double in [0, 1) (53 bits) and in (0, 1].
__device__ __forceinline__ double ct_u01_f64(uint32_t a, uint32_t b) {
  const uint64_t v = (((uint64_t)a << 32) | b) >> 11;
  return v * (1.0 / 9007199254740992.0);
}
__device__ __forceinline__ double ct_u01_open_f64(uint32_t a, uint32_t b) {
  const uint64_t v = (((uint64_t)a << 32) | b) >> 11;
  return (v + 1) * (1.0 / 9007199254740992.0);
}

// torch.rand / uniform_(low, high): out[i] in [low, high).
extern "C" __global__ void uniform_f32(int64_t n, uint64_t seed, uint64_t offset, float low,
                                       float high, float* out) {
  const int64_t blocks = (n + 3) / 4;
  CT_KERNEL_LOOP(t, blocks) {
    const CtPhilox4 r = ct_philox(seed, offset, (uint64_t)t);
    const uint32_t words[4] = {r.x, r.y, r.z, r.w};
    for (int k = 0; k < 4; ++k) {
      const int64_t i = t * 4 + k;
      if (i < n) {
        float v = low + (high - low) * ct_u01_f32(words[k]);
        out[i] = v < high ? v : low;  // rounding may reach `high`; PyTorch maps it to `low`
      }
    }
  }
}

extern "C" __global__ void uniform_f64(int64_t n, uint64_t seed, uint64_t offset, double low,
                                       double high, double* out) {
  const int64_t blocks = (n + 1) / 2;
  CT_KERNEL_LOOP(t, blocks) {
    const CtPhilox4 r = ct_philox(seed, offset, (uint64_t)t);
    const double u[2] = {ct_u01_f64(r.x, r.y), ct_u01_f64(r.z, r.w)};
    for (int k = 0; k < 2; ++k) {
      const int64_t i = t * 2 + k;
      if (i < n) {
        double v = low + (high - low) * u[k];
        out[i] = v < high ? v : low;
      }
    }
  }
}

// torch.randn / normal_(mean, std): Box-Muller on pairs of uniforms.
extern "C" __global__ void normal_f32(int64_t n, uint64_t seed, uint64_t offset, float mean,
                                      float stddev, float* out) {
  const int64_t blocks = (n + 3) / 4;
  CT_KERNEL_LOOP(t, blocks) {
    const CtPhilox4 r = ct_philox(seed, offset, (uint64_t)t);
    float z[4];
    for (int p = 0; p < 2; ++p) {
      const uint32_t a = p == 0 ? r.x : r.z;
      const uint32_t b = p == 0 ? r.y : r.w;
      const float radius = sqrtf(-2.0f * logf(ct_u01_open_f32(a)));
      float s, c;
      sincospif(2.0f * ct_u01_f32(b), &s, &c);
      z[2 * p] = radius * c;
      z[2 * p + 1] = radius * s;
    }
    for (int k = 0; k < 4; ++k) {
      const int64_t i = t * 4 + k;
      if (i < n) out[i] = mean + stddev * z[k];
    }
  }
}

extern "C" __global__ void normal_f64(int64_t n, uint64_t seed, uint64_t offset, double mean,
                                      double stddev, double* out) {
  const int64_t blocks = (n + 1) / 2;
  CT_KERNEL_LOOP(t, blocks) {
    const CtPhilox4 r = ct_philox(seed, offset, (uint64_t)t);
    const double radius = sqrt(-2.0 * log(ct_u01_open_f64(r.x, r.y)));
    double s, c;
    sincospi(2.0 * ct_u01_f64(r.z, r.w), &s, &c);
    const double z[2] = {radius * c, radius * s};
    for (int k = 0; k < 2; ++k) {
      const int64_t i = t * 2 + k;
      if (i < n) out[i] = mean + stddev * z[k];
    }
  }
}

// torch.randint(low, high): out[i] = low + (64 random bits mod range), range = high - low > 0.
template <typename T>
__device__ void ct_randint(int64_t n, uint64_t seed, uint64_t offset, int64_t low,
                           uint64_t range, T* out) {
  const int64_t blocks = (n + 1) / 2;
  CT_KERNEL_LOOP(t, blocks) {
    const CtPhilox4 r = ct_philox(seed, offset, (uint64_t)t);
    const uint64_t v[2] = {((uint64_t)r.x << 32) | r.y, ((uint64_t)r.z << 32) | r.w};
    for (int k = 0; k < 2; ++k) {
      const int64_t i = t * 2 + k;
      if (i < n) out[i] = (T)(low + (int64_t)(v[k] % range));
    }
  }
}

#define CT_RANDINT(T, S)                                                                   \
  extern "C" __global__ void randint_##S(int64_t n, uint64_t seed, uint64_t offset,        \
                                         int64_t low, uint64_t range, T* out) {            \
    ct_randint<T>(n, seed, offset, low, range, out);                                       \
  }
CT_FOR_NUMERIC_DTYPES(CT_RANDINT)
