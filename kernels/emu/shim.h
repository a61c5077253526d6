// shim.h: what a CUDA C kernel file needs to compile as plain C++ for the emulated device.
//
// kernels/*.cu are written for NVRTC. For the emulated device (--backend emulated) the very
// same text is compiled by the host C++ compiler after this header: the CUDA keywords become
// ordinary C++ (`__global__`, `__device__` vanish, `__shared__` is storage shared by one block),
// the built-in thread coordinates are thread-local variables the launcher sets, and
// `__syncthreads` / `__assertfail` call into the launcher (emu.cpp). See docs/cuda-backend.md.
//
// Two execution schemes, chosen when compiling:
// - default (fibers): a block's threads are fibers on the launching OS thread; `__syncthreads`
//   switches to the next fiber until every live thread of the block has arrived. `__shared__`
//   is `static thread_local`: one copy per OS thread, and one block runs at a time per thread.
// - CT_EMU_THREADS (the sanitizer build): a block's threads are real OS threads and
//   `__syncthreads` is a barrier, so ThreadSanitizer sees every access the way a GPU runs it.
//   `__shared__` is `static`: blocks run one after another.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>

#define CT_HOST_EMULATION 1

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __restrict__

#ifdef CT_EMU_THREADS
#define __shared__ static
#else
#define __shared__ static thread_local
#endif

struct ct_uint3 {
  unsigned int x, y, z;
};

extern thread_local ct_uint3 threadIdx;
extern thread_local ct_uint3 blockIdx;
extern thread_local ct_uint3 blockDim;
extern thread_local ct_uint3 gridDim;

extern "C" void ct_emu_syncthreads();
// What NVRTC lowers `assert()` to; prints the driver's assert line and ends this thread.
extern "C" [[noreturn]] void __assertfail(const char* message, const char* file, unsigned int line,
                                          const char* function, std::size_t char_size);

#define __syncthreads() ct_emu_syncthreads()

// CUDA device intrinsics the kernels use, with the GPU's definitions.
inline unsigned int __umulhi(unsigned int a, unsigned int b) {
  return (unsigned int)(((unsigned long long)a * (unsigned long long)b) >> 32);
}
// sin(pi x), cos(pi x) for float: computed in double and rounded (within CUDA's bound).
inline void sincospif(float x, float* s, float* c) {
  const double px = 3.14159265358979323846 * (double)x;
  *s = (float)std::sin(px);
  *c = (float)std::cos(px);
}
// sin(pi x), cos(pi x) for double: reduced exactly to |r| <= 1/4 first, then one sin and one
// cos of pi r (the host random implementation does the same; CUDA's sincospi is this
// accurate).
inline void sincospi(double x, double* s, double* c) {
  const double n = std::round(x * 2.0);
  const double r = x - n / 2.0;
  const double sr = std::sin(3.14159265358979323846 * r);
  const double cr = std::cos(3.14159265358979323846 * r);
  switch (((long long)n % 4 + 4) % 4) {
    case 0: *s = sr; *c = cr; break;
    case 1: *s = cr; *c = -sr; break;
    case 2: *s = -sr; *c = -cr; break;
    default: *s = -cr; *c = sr; break;
  }
}
inline void sincosf(float x, float* s, float* c) {
  *s = std::sin(x);
  *c = std::cos(x);
}
// The GPU's fast intrinsic; here correctly rounded (sin and cos in double, rounded to float),
// the stand-in the host random implementation uses too.
inline void __sincosf(float x, float* s, float* c) {
  *s = (float)std::sin((double)x);
  *c = (float)std::cos((double)x);
}
inline float __int_as_float(int v) {
  float f;
  __builtin_memcpy(&f, &v, sizeof f);
  return f;
}
inline unsigned int __float_as_uint(float f) {
  unsigned int v;
  __builtin_memcpy(&v, &f, sizeof v);
  return v;
}

// Atomics: the GPU's read-modify-write semantics, sequentially consistent on the host.
template <typename T> inline T atomicAdd(T* address, T val) {
  return __atomic_fetch_add(address, val, __ATOMIC_SEQ_CST);
}
// Floating-point values have no fetch-add builtin: a compare-and-swap loop adds to them.
template <typename F> inline F atomic_add_floating(F* address, F val) {
  F old, desired;
  __atomic_load(address, &old, __ATOMIC_SEQ_CST);
  do {
    desired = old + val;
  } while (!__atomic_compare_exchange(address, &old, &desired, false, __ATOMIC_SEQ_CST,
                                      __ATOMIC_SEQ_CST));
  return old;
}
inline float atomicAdd(float* address, float val) { return atomic_add_floating(address, val); }
inline double atomicAdd(double* address, double val) { return atomic_add_floating(address, val); }
template <typename T> inline T atomicMax(T* address, T val) {
  T old = __atomic_load_n(address, __ATOMIC_SEQ_CST);
  while (old < val &&
         !__atomic_compare_exchange_n(address, &old, val, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
  }
  return old;
}
template <typename T> inline T atomicCAS(T* address, T compare, T val) {
  __atomic_compare_exchange_n(address, &compare, val, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  return compare;
}

// ---- the entry table the launcher looks kernels up in (one per kernel file) ----

// One `extern "C" __global__` entry point: its name, address, parameter sizes and a trampoline
// that calls it from the argument array cuLaunchKernel receives (`void** args`: args[i] points
// at the i-th argument's value).
struct ct_emu_entry {
  const char* name;
  void* fn;
  void (*invoke)(void* fn, void** args);
  std::size_t n_params;
  const std::size_t* param_sizes;
};

struct ct_emu_module {
  const char* file;
  const ct_emu_entry* entries;
  std::size_t n_entries;
  // Whether the file's text contains `__syncthreads`: the launcher needs concurrent threads
  // (fibers) only for those; the others run their threads one after another (a legal CUDA
  // schedule: without a barrier a block's threads are unordered).
  int uses_barrier;
};

template <typename... A> struct ct_emu_invoker {
  template <std::size_t... I>
  static void call(void* fn, void** args, std::index_sequence<I...>) {
    reinterpret_cast<void (*)(A...)>(fn)(*static_cast<A*>(args[I])...);
  }
  static void invoke(void* fn, void** args) { call(fn, args, std::index_sequence_for<A...>{}); }
  static constexpr std::size_t sizes[sizeof...(A) + 1] = {sizeof(A)..., 0};
};

template <typename... A> ct_emu_entry ct_emu_make_entry(const char* name, void (*fn)(A...)) {
  return ct_emu_entry{name, reinterpret_cast<void*>(fn), &ct_emu_invoker<A...>::invoke,
                      sizeof...(A), ct_emu_invoker<A...>::sizes};
}

#define CT_EMU_ENTRY(name) ct_emu_make_entry(#name, &name)
