// emu.cpp: the emulated device's launcher. It runs one kernel launch (entry, grid, block,
// argument array) the way a GPU would, on the CPU, and reports device-side asserts.
//
// Schemes (see shim.h):
// - a kernel file without `__syncthreads` runs each block's threads one after another as plain
//   calls: with no barrier, CUDA gives a block's threads no order, so this is one of the
//   schedules a GPU may pick;
// - a file with `__syncthreads` runs each block's threads as fibers on the calling thread:
//   every thread runs until it reaches the barrier or ends, in threadIdx order, and the barrier
//   opens when every thread still alive has arrived (threads that ended, normally or by an
//   assert, no longer count, as on the GPU);
// - CT_EMU_THREADS: every thread of a block is an OS thread and the barrier a real one, for the
//   sanitizer builds (ThreadSanitizer then proves the fiber order cannot change a result: a
//   kernel without data races between barriers gives the same values under every schedule).
//
// `__assertfail` writes the line the CUDA driver prints,
//   file:line: function: block: [x,y,z], thread: [x,y,z] Assertion `cond` failed.
// through the launch's log callback and ends that thread (the GPU traps it); the launch then
// returns CT_EMU_ASSERT and the Rust side poisons its context.

#include "shim.h"

#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#ifdef CT_EMU_THREADS
#include <condition_variable>
#include <mutex>
#include <thread>
#else
#include <sys/mman.h>
#include <ucontext.h>
#endif

thread_local ct_uint3 threadIdx;
thread_local ct_uint3 blockIdx;
thread_local ct_uint3 blockDim;
thread_local ct_uint3 gridDim;

extern "C" {
// Launch outcome codes (mirrored in src/engine/cuda/emulated/ffi.rs).
enum {
  CT_EMU_OK = 0,
  CT_EMU_ASSERT = 1,
  CT_EMU_INVALID_CONFIG = 2,
  CT_EMU_INVALID_ARGS = 3,
  CT_EMU_INTERNAL = 4,
};
typedef void (*ct_emu_log_fn)(void* ctx, const char* line, std::size_t len);
}

namespace {

// Thrown by __assertfail: unwinds the failing thread back to its start, nothing else.
struct Trap {};
// Thrown when a kernel does something the launcher cannot run (a barrier where none was
// expected): the launch fails with CT_EMU_INTERNAL and this text.
struct Misuse {
  const char* what;
};

struct Launch {
  const ct_emu_entry* entry;
  void** args;
  ct_emu_log_fn log;
  void* log_ctx;
  bool asserted = false;
  std::string internal_error;
#ifdef CT_EMU_THREADS
  std::mutex log_mutex;
#endif
};

thread_local Launch* tl_launch = nullptr;

void write_assert_line(const char* message, const char* file, unsigned int line,
                       const char* function) {
  char buf[2048];
  const int n = std::snprintf(buf, sizeof buf,
                              "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.",
                              file, line, function, blockIdx.x, blockIdx.y, blockIdx.z,
                              threadIdx.x, threadIdx.y, threadIdx.z, message);
  const std::size_t len = n < 0 ? 0 : (std::size_t)n < sizeof buf ? (std::size_t)n : sizeof buf - 1;
  Launch* l = tl_launch;
  if (l == nullptr) return;
#ifdef CT_EMU_THREADS
  std::lock_guard<std::mutex> guard(l->log_mutex);
#endif
  l->asserted = true;
  if (l->log != nullptr) l->log(l->log_ctx, buf, len);
}

// Runs one thread's body; false when it ended by an assert.
void run_thread_body(Launch& l) {
  try {
    l.entry->invoke(l.entry->fn, l.args);
  } catch (const Trap&) {
  } catch (const Misuse& m) {
#ifdef CT_EMU_THREADS
    std::lock_guard<std::mutex> guard(l.log_mutex);
#endif
    if (l.internal_error.empty()) l.internal_error = m.what;
  } catch (...) {
#ifdef CT_EMU_THREADS
    std::lock_guard<std::mutex> guard(l.log_mutex);
#endif
    if (l.internal_error.empty()) l.internal_error = "a kernel thread threw a C++ exception";
  }
}

ct_uint3 thread_coords(std::size_t linear, ct_uint3 block) {
  ct_uint3 t;
  t.x = (unsigned)(linear % block.x);
  t.y = (unsigned)((linear / block.x) % block.y);
  t.z = (unsigned)(linear / ((std::size_t)block.x * block.y));
  return t;
}

#ifdef CT_EMU_THREADS
// ---------------------------------------------------------------- real threads
// A barrier whose party shrinks when a thread ends (normally or by an assert).
struct Barrier {
  std::mutex m;
  std::condition_variable cv;
  std::size_t expected;
  std::size_t arrived = 0;
  unsigned long long generation = 0;
  explicit Barrier(std::size_t n) : expected(n) {}
  void open_locked() {
    arrived = 0;
    ++generation;
    cv.notify_all();
  }
  void arrive_and_wait() {
    std::unique_lock<std::mutex> lock(m);
    const unsigned long long g = generation;
    if (++arrived == expected) {
      open_locked();
      return;
    }
    cv.wait(lock, [&] { return generation != g; });
  }
  void leave() {
    std::unique_lock<std::mutex> lock(m);
    --expected;
    if (arrived > 0 && arrived == expected) open_locked();
  }
};

thread_local Barrier* tl_barrier = nullptr;

bool run_block(Launch& l, ct_uint3 grid, ct_uint3 block, ct_uint3 block_idx, bool) {
  const std::size_t n = (std::size_t)block.x * block.y * block.z;
  Barrier barrier(n);
  std::vector<std::thread> threads;
  threads.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    threads.emplace_back([&, i] {
      tl_launch = &l;
      tl_barrier = &barrier;
      gridDim = grid;
      blockDim = block;
      blockIdx = block_idx;
      threadIdx = thread_coords(i, block);
      run_thread_body(l);
      barrier.leave();
      tl_barrier = nullptr;
      tl_launch = nullptr;
    });
  }
  for (auto& t : threads) t.join();
  return true;
}

}  // namespace

extern "C" void ct_emu_syncthreads() {
  if (tl_barrier == nullptr) throw Misuse{"__syncthreads outside a kernel launch"};
  tl_barrier->arrive_and_wait();
}

#else
// ---------------------------------------------------------------- fibers
enum FiberState { READY, AT_BARRIER, DONE };

struct Fiber {
  ucontext_t ctx;
  FiberState state;
  ct_uint3 tid;
};

// Fiber stacks, kept per OS thread and reused across launches. Each has a guard page below
// it, so a kernel that overflows its stack faults instead of corrupting a neighbour.
constexpr std::size_t kStackSize = 128 * 1024;
constexpr std::size_t kGuard = 4096;

struct StackPool {
  std::vector<char*> stacks;
  ~StackPool() {
    for (char* s : stacks) munmap(s - kGuard, kStackSize + kGuard);
  }
  bool ensure(std::size_t n) {
    while (stacks.size() < n) {
      void* p = mmap(nullptr, kStackSize + kGuard, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (p == MAP_FAILED) return false;
      mprotect(p, kGuard, PROT_NONE);
      stacks.push_back(static_cast<char*>(p) + kGuard);
    }
    return true;
  }
};

struct BlockRun {
  ucontext_t scheduler;
  std::vector<Fiber> fibers;
  std::size_t current = 0;
  Launch* launch = nullptr;
};

thread_local StackPool tl_stacks;
thread_local BlockRun* tl_block = nullptr;
// False while running a file without barriers (threads as plain calls).
thread_local bool tl_fibers = false;

void fiber_main() {
  BlockRun* b = tl_block;
  run_thread_body(*b->launch);
  b->fibers[b->current].state = DONE;
  // Returning resumes uc_link, the scheduler.
}

bool run_block(Launch& l, ct_uint3 grid, ct_uint3 block, ct_uint3 block_idx, bool fibers) {
  const std::size_t n = (std::size_t)block.x * block.y * block.z;
  gridDim = grid;
  blockDim = block;
  blockIdx = block_idx;
  if (!fibers || n == 1) {
    tl_fibers = false;
    for (std::size_t i = 0; i < n; ++i) {
      threadIdx = thread_coords(i, block);
      run_thread_body(l);
    }
    return true;
  }
  if (!tl_stacks.ensure(n)) {
    l.internal_error = "out of memory for the fiber stacks of a block";
    return false;
  }
  BlockRun run;
  run.launch = &l;
  run.fibers.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    Fiber& f = run.fibers[i];
    f.state = READY;
    f.tid = thread_coords(i, block);
    if (getcontext(&f.ctx) != 0) {
      l.internal_error = "getcontext failed";
      return false;
    }
    f.ctx.uc_stack.ss_sp = tl_stacks.stacks[i];
    f.ctx.uc_stack.ss_size = kStackSize;
    f.ctx.uc_link = &run.scheduler;
    makecontext(&f.ctx, fiber_main, 0);
  }
  BlockRun* saved = tl_block;
  tl_block = &run;
  tl_fibers = true;
  for (;;) {
    std::size_t waiting = 0;
    for (std::size_t i = 0; i < n; ++i) {
      Fiber& f = run.fibers[i];
      if (f.state != READY) continue;
      run.current = i;
      threadIdx = f.tid;
      swapcontext(&run.scheduler, &f.ctx);
      if (f.state == AT_BARRIER) ++waiting;
    }
    if (waiting == 0) break;  // every thread ended
    for (Fiber& f : run.fibers) {
      if (f.state == AT_BARRIER) f.state = READY;
    }
  }
  tl_fibers = false;
  tl_block = saved;
  return true;
}

}  // namespace

extern "C" void ct_emu_syncthreads() {
  if (!tl_fibers || tl_block == nullptr) {
    throw Misuse{"__syncthreads in a kernel file the launcher runs without barriers"};
  }
  BlockRun* b = tl_block;
  Fiber& f = b->fibers[b->current];
  f.state = AT_BARRIER;
  swapcontext(&f.ctx, &b->scheduler);
  // Resumed by the scheduler, which has set threadIdx back to this fiber's.
}
#endif

extern "C" [[noreturn]] void __assertfail(const char* message, const char* file,
                                          unsigned int line, const char* function,
                                          std::size_t) {
  write_assert_line(message, file, line, function);
  throw Trap{};
}

namespace {
bool valid_config(ct_uint3 grid, ct_uint3 block, std::size_t shared_bytes, char* err,
                  std::size_t err_len) {
  const unsigned long long threads = (unsigned long long)block.x * block.y * block.z;
  const char* why = nullptr;
  if (grid.x == 0 || grid.y == 0 || grid.z == 0 || block.x == 0 || block.y == 0 || block.z == 0)
    why = "a grid or block dimension is 0";
  else if (threads > 1024)
    why = "more than 1024 threads per block";
  else if (block.z > 64)
    why = "blockDim.z over 64";
  else if (grid.x > 2147483647u || grid.y > 65535 || grid.z > 65535)
    why = "grid dimension over the device limit";
  else if (shared_bytes > 48 * 1024)
    why = "more than 48 KiB of dynamic shared memory";
  if (why != nullptr && err != nullptr && err_len > 0) {
    std::snprintf(err, err_len, "invalid launch configuration: %s", why);
  }
  return why == nullptr;
}
}  // namespace

namespace {
int launch(const ct_emu_entry* entry, int uses_barrier, unsigned gx, unsigned gy, unsigned gz,
           unsigned bx, unsigned by, unsigned bz, std::size_t shared_bytes, void** args,
           std::size_t n_args, ct_emu_log_fn log, void* log_ctx, char* err, std::size_t err_len) {
  const ct_uint3 grid{gx, gy, gz}, block{bx, by, bz};
  if (entry == nullptr) return CT_EMU_INVALID_ARGS;
  if (!valid_config(grid, block, shared_bytes, err, err_len)) return CT_EMU_INVALID_CONFIG;
  if (n_args != entry->n_params || (n_args > 0 && args == nullptr)) {
    if (err != nullptr) {
      std::snprintf(err, err_len, "%s takes %zu arguments, the launch passed %zu", entry->name,
                    entry->n_params, n_args);
    }
    return CT_EMU_INVALID_ARGS;
  }
  for (std::size_t i = 0; i < n_args; ++i) {
    if (args[i] == nullptr) {
      if (err != nullptr) std::snprintf(err, err_len, "argument %zu is a null pointer", i);
      return CT_EMU_INVALID_ARGS;
    }
  }
  Launch l;
  l.entry = entry;
  l.args = args;
  l.log = log;
  l.log_ctx = log_ctx;
  Launch* saved = tl_launch;
  tl_launch = &l;
  bool ok = true;
  for (unsigned z = 0; z < gz && ok; ++z)
    for (unsigned y = 0; y < gy && ok; ++y)
      for (unsigned x = 0; x < gx && ok; ++x) {
        ok = run_block(l, grid, block, ct_uint3{x, y, z}, uses_barrier != 0);
        if (!l.internal_error.empty()) ok = false;
      }
  tl_launch = saved;
  if (!l.internal_error.empty()) {
    if (err != nullptr) std::snprintf(err, err_len, "%s: %s", entry->name, l.internal_error.c_str());
    return CT_EMU_INTERNAL;
  }
  return l.asserted ? CT_EMU_ASSERT : CT_EMU_OK;
}
}  // namespace

// The one entry point the Rust side calls. No C++ exception crosses it.
extern "C" int ct_emu_launch(const ct_emu_entry* entry, int uses_barrier, unsigned gx,
                             unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                             std::size_t shared_bytes, void** args, std::size_t n_args,
                             ct_emu_log_fn log, void* log_ctx, char* err, std::size_t err_len) {
  if (err != nullptr && err_len > 0) err[0] = '\0';
  try {
    return launch(entry, uses_barrier, gx, gy, gz, bx, by, bz, shared_bytes, args, n_args, log,
                  log_ctx, err, err_len);
  } catch (...) {
    if (err != nullptr && err_len > 0) std::snprintf(err, err_len, "the launcher ran out of memory");
    return CT_EMU_INTERNAL;
  }
}
