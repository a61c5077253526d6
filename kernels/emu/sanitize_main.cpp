// sanitize_main.cpp: a kernel set for the sanitizer builds (tests/emulated_sanitizer.rs).
//
// Built with CT_EMU_THREADS (every GPU thread of a block is an OS thread, __syncthreads a real
// barrier) and -fsanitize=thread or -fsanitize=address,undefined, together with the kernel
// files that synchronise (reduce.cu, softmax.cu, loss.cu, matmul.cu). It launches each
// barrier kernel on small inputs, checks the values against plain loops, and exits 0 when all
// agree. ThreadSanitizer reports any access of shared memory that a missing barrier leaves
// unordered; a clean run proves the fiber schedule of the normal build computes what every
// schedule computes.

#include "shim.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

extern "C" const ct_emu_module ct_emu_module_reduce;
extern "C" const ct_emu_module ct_emu_module_softmax;
extern "C" const ct_emu_module ct_emu_module_loss;
extern "C" const ct_emu_module ct_emu_module_matmul;
extern "C" int ct_emu_launch(const ct_emu_entry*, int, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, std::size_t, void**, std::size_t,
                             void (*)(void*, const char*, std::size_t), void*, char*,
                             std::size_t);

struct CtReduceGeomHost {
  int64_t outer, len, inner, s_outer, s_len, s_inner;
};

static int failures = 0;
static int launches = 0;

static const ct_emu_entry* find(const ct_emu_module& m, const char* name) {
  for (std::size_t i = 0; i < m.n_entries; ++i) {
    if (std::strcmp(m.entries[i].name, name) == 0) return &m.entries[i];
  }
  std::printf("no entry %s\n", name);
  ++failures;
  return nullptr;
}

static void launch(const ct_emu_module& m, const char* name, unsigned grid, unsigned bx,
                   unsigned by, std::vector<void*> args) {
  const ct_emu_entry* e = find(m, name);
  if (e == nullptr) return;
  char err[256];
  const int rc = ct_emu_launch(e, m.uses_barrier, grid, 1, 1, bx, by, 1, 0, args.data(),
                               args.size(), nullptr, nullptr, err, sizeof err);
  ++launches;
  if (rc != 0) {
    std::printf("%s: launch returned %d %s\n", name, rc, err);
    ++failures;
  }
}

static void expect_near(const char* what, double got, double want, double tol) {
  if (!(std::fabs(got - want) <= tol * (1.0 + std::fabs(want)))) {
    std::printf("MISMATCH %s: got %.9g want %.9g\n", what, got, want);
    ++failures;
  }
}

int main() {
  // sum over rows of a [6, 1000] matrix, one block per row: 256 threads, tree reduction.
  {
    const int rows = 6, cols = 1000;
    std::vector<float> in(rows * cols), out(rows);
    for (int i = 0; i < rows * cols; ++i) in[i] = (float)((i * 37) % 101) / 16.0f;
    CtReduceGeomHost g{rows, cols, 1, cols, 1, 1};
    const float* pin = in.data();
    float* pout = out.data();
    launch(ct_emu_module_reduce, "sum_f32", rows, 256, 1, {&g, &pin, &pout});
    for (int r = 0; r < rows; ++r) {
      double want = 0;
      for (int c = 0; c < cols; ++c) want += in[r * cols + c];
      expect_near("sum_f32", out[r], want, 1e-5);
    }
  }
  // argmax with ties and a NaN.
  {
    std::vector<float> in = {1, 5, 5, 2, 0, 7, NAN, 7};
    std::vector<float> vals(2);
    std::vector<int64_t> idx(2);
    CtReduceGeomHost g{2, 4, 1, 4, 1, 1};
    const float* pin = in.data();
    float* pv = vals.data();
    int64_t* pi = idx.data();
    launch(ct_emu_module_reduce, "max_f32", 2, 256, 1, {&g, &pin, &pv, &pi});
    expect_near("max idx row 0", (double)idx[0], 1, 0);
    expect_near("max idx row 1", (double)idx[1], 2, 0);
  }
  // log_softmax over rows of [5, 300].
  {
    const int rows = 5, cols = 300;
    std::vector<float> in(rows * cols), out(rows * cols);
    for (int i = 0; i < rows * cols; ++i) in[i] = std::sin(0.1f * (float)i) * 3.0f;
    int64_t outer = rows, dim = cols, inner = 1;
    const float* pin = in.data();
    float* pout = out.data();
    launch(ct_emu_module_softmax, "log_softmax_f32", rows, 256, 1,
           {&outer, &dim, &inner, &pin, &pout});
    for (int r = 0; r < rows; ++r) {
      double m = -INFINITY, s = 0;
      for (int c = 0; c < cols; ++c) m = std::fmax(m, in[r * cols + c]);
      for (int c = 0; c < cols; ++c) s += std::exp(in[r * cols + c] - m);
      for (int c = 0; c < cols; c += 37) {
        expect_near("log_softmax_f32", out[r * cols + c], in[r * cols + c] - m - std::log(s), 1e-5);
      }
    }
  }
  // nll_loss 2d, mean, with a weight: one block of 32 threads over 70 samples.
  {
    const int n = 70, c = 4;
    std::vector<float> in(n * c), w = {1.0f, 2.0f, 0.5f, 1.5f};
    std::vector<int64_t> t(n);
    for (int i = 0; i < n * c; ++i) in[i] = -(float)(i % 13) / 7.0f;
    for (int i = 0; i < n; ++i) t[i] = i % 5 == 4 ? -100 : i % c;
    float out = 0, tw = 0;
    float* po = &out;
    float* pt = &tw;
    const float* pin = in.data();
    const int64_t* ptg = t.data();
    const float* pw = w.data();
    bool mean = true;
    int64_t nf = n, nd = c, nc = c, ignore = -100;
    launch(ct_emu_module_loss, "nll_loss_forward_reduce_cuda_kernel_2d_f32_i64", 1, 32, 1,
           {&po, &pt, &pin, &ptg, &pw, &mean, &nf, &nd, &nc, &ignore});
    double num = 0, den = 0;
    for (int i = 0; i < n; ++i) {
      if (t[i] == -100) continue;
      num -= in[i * c + t[i]] * w[t[i]];
      den += w[t[i]];
    }
    expect_near("nll_loss 2d", out, num / den, 1e-5);
    expect_near("nll_loss 2d total_weight", tw, den, 1e-6);
  }
  // sgemm 20x17 @ 17x33, 16x16 tiles.
  {
    const int m = 20, k = 17, n = 33;
    std::vector<float> a(m * k), b(k * n), cm(m * n, 0.0f);
    for (int i = 0; i < m * k; ++i) a[i] = (float)((i * 7) % 11) - 5.0f;
    for (int i = 0; i < k * n; ++i) b[i] = (float)((i * 5) % 9) - 4.0f;
    int64_t mm = m, nn = n, kk = k, a_row = k, a_col = 1, sa = 0, b_row = n, b_col = 1, sb = 0,
            ldc = n, sc = 0;
    float alpha = 1.0f, beta = 0.0f;
    const float* pa = a.data();
    const float* pb = b.data();
    float* pc = cm.data();
    const ct_emu_entry* e = find(ct_emu_module_matmul, "sgemm");
    if (e != nullptr) {
      std::vector<void*> args = {&mm, &nn, &kk, &alpha, &pa, &a_row, &a_col, &sa, &pb,
                                 &b_row, &b_col, &sb, &beta, &pc, &ldc, &sc};
      char err[256];
      const int rc = ct_emu_launch(e, 1, (n + 15) / 16, (m + 15) / 16, 1, 16, 16, 1, 0,
                                   args.data(), args.size(), nullptr, nullptr, err, sizeof err);
      ++launches;
      if (rc != 0) {
        std::printf("sgemm: %d %s\n", rc, err);
        ++failures;
      }
    }
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        double want = 0;
        for (int q = 0; q < k; ++q) want += (double)a[i * k + q] * b[q * n + j];
        expect_near("sgemm", cm[i * n + j], want, 0);
      }
  }
  // var / std by Welford over rows of [6, 1000]: 256 partial states combined in shared memory.
  {
    const int rows = 6, cols = 1000;
    std::vector<float> in(rows * cols), out(rows);
    for (int i = 0; i < rows * cols; ++i) in[i] = (float)((i * 37) % 101) / 16.0f - 3.0f;
    CtReduceGeomHost g{rows, cols, 1, cols, 1, 1};
    const float* pin = in.data();
    float* pout = out.data();
    float correction = 1.0f;
    bool take_sqrt = true;
    launch(ct_emu_module_reduce, "var_f32", rows, 256, 1,
           {&g, &correction, &take_sqrt, &pin, &pout});
    for (int r = 0; r < rows; ++r) {
      double m = 0, v = 0;
      for (int c = 0; c < cols; ++c) m += in[r * cols + c];
      m /= cols;
      for (int c = 0; c < cols; ++c) v += (in[r * cols + c] - m) * (in[r * cols + c] - m);
      expect_near("std_f32", out[r], std::sqrt(v / (cols - 1)), 1e-5);
    }
  }
  // softmax / log_softmax backward over rows of [5, 300]: a warp of 32 lanes per row, the
  // XOR butterfly through shared memory.
  for (int log = 0; log < 2; ++log) {
    const int rows = 5, cols = 300;
    std::vector<float> y(rows * cols), g(rows * cols), out(rows * cols);
    for (int r = 0; r < rows; ++r) {
      double s = 0;
      for (int c = 0; c < cols; ++c) s += std::exp(std::sin(0.1 * (r * cols + c)));
      for (int c = 0; c < cols; ++c) {
        const double p = std::exp(std::sin(0.1 * (r * cols + c))) / s;
        y[r * cols + c] = log ? (float)std::log(p) : (float)p;
        g[r * cols + c] = (float)((r * cols + c) % 7) - 3.0f;
      }
    }
    int64_t outer = rows, dim = cols, inner = 1;
    const float* pg = g.data();
    const float* py = y.data();
    float* po = out.data();
    launch(ct_emu_module_softmax, log ? "log_softmax_backward_f32" : "softmax_backward_f32", rows,
           32, 1, {&outer, &dim, &inner, &pg, &py, &po});
    for (int r = 0; r < rows; ++r) {
      double s = 0;
      for (int c = 0; c < cols; ++c) s += log ? g[r * cols + c] : (double)g[r * cols + c] * y[r * cols + c];
      for (int c = 0; c < cols; c += 37) {
        const double yy = y[r * cols + c], gg = g[r * cols + c];
        const double want = log ? gg - std::exp(yy) * s : yy * (gg - s);
        expect_near(log ? "log_softmax_backward_f32" : "softmax_backward_f32", out[r * cols + c], want, 1e-5);
      }
    }
  }
  // nll_loss backward 2d, mean, with a weight: one block of 32 threads over 70 samples.
  {
    const int n = 70, c = 4;
    std::vector<float> gin(n * c, 0.0f), w = {1.0f, 2.0f, 0.5f, 1.5f};
    std::vector<int64_t> t(n);
    for (int i = 0; i < n; ++i) t[i] = i % 5 == 4 ? -100 : i % c;
    float grad_out = 0.5f, tw = 0;
    for (int i = 0; i < n; ++i) tw += t[i] == -100 ? 0.0f : w[t[i]];
    float* pgi = gin.data();
    const float* pg = &grad_out;
    const int64_t* ptg = t.data();
    const float* pw = w.data();
    const float* ptw = &tw;
    bool mean = true;
    int64_t nf = n, nd = c, nc = c, ignore = -100;
    launch(ct_emu_module_loss, "nll_loss_backward_reduce_cuda_kernel_2d_f32_i64", 1, 32, 1,
           {&pgi, &pg, &ptg, &pw, &ptw, &mean, &nf, &nd, &nc, &ignore});
    for (int i = 0; i < n; ++i)
      for (int k = 0; k < c; ++k) {
        const double want = (t[i] == k) ? -(double)w[k] * (0.5f / tw) : 0.0;
        expect_near("nll_loss backward 2d", gin[i * c + k], want, 1e-6);
      }
  }
  std::printf("sanitize: %d launches, %d failures\n", launches, failures);
  return failures == 0 ? 0 : 1;
}
