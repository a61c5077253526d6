#!/usr/bin/env python3
"""Checks the float32 matrix-product order of src/engine/host/sgemm.rs against the PyTorch it
runs under (PyTorch 2.15 CPU, MKL sgemm, default threads): for many random shapes it computes
torch.mm / addmm / a.t()-layout mm with the model (compiled from C with real FMA) and counts
the elements whose bits differ. Needs torch, numpy and gcc.

    /tmp/torchvenv/bin/python scripts/blas-order.py
    OMP_NUM_THREADS=1 /tmp/torchvenv/bin/python scripts/blas-order.py   (one thread, as the
        recordings of tests/ are made: no row split between threads)
"""
import ctypes, os, subprocess, tempfile
import numpy as np
import torch

C = r"""
#include <math.h>
// one element: unfused chain from init (small path) or K-blocked fma chains added to init
// MKL's K blocks on the Intel Xeon the recordings come from: 384 while more than 768 remain,
// then the rest, or two halves of it (the first the larger) when longer than 384
static int block_len(int K, int p0) {
    int rest = K - p0;
    if (rest > 768) return 384;
    if (rest > 384) return (rest + 1) / 2;
    return rest;
}
void mat(const float *a, const float *bt, const float *init, float *out, int M, int N, int K,
         int r0, int r1, int small) {
    for (int i = r0; i < r1; i++)
        for (int j = 0; j < N; j++) {
            const float *x = a + (long)i * K, *y = bt + (long)j * K;
            float c = init ? init[i * N + j] : 0.0f;
            if (small) {
                for (int p = 0; p < K; p++) c = c + x[p] * y[p];
            } else {
                for (int p0 = 0, kc = 0; p0 < K; p0 += kc) {
                    float acc = 0.0f;
                    kc = block_len(K, p0);
                    int p1 = p0 + kc;
                    for (int p = p0; p < p1; p++) acc = fmaf(x[p], y[p], acc);
                    c = (p0 == 0 && !init) ? acc : c + acc;
                }
            }
            out[i * N + j] = c;
        }
}
"""


def build():
    d = tempfile.mkdtemp()
    src, lib = os.path.join(d, "m.c"), os.path.join(d, "m.so")
    open(src, "w").write(C)
    subprocess.check_call(["gcc", "-O2", "-mfma", "-ffp-contract=off", "-shared", "-fPIC",
                           "-o", lib, src, "-lm"])
    return ctypes.CDLL(lib)


THREADS = int(os.environ.get("OMP_NUM_THREADS", "0") or 0)


def parts(m, k, n):
    if THREADS == 1:
        # the Intel Xeon runs every one-thread shape on the fused path (the small path and
        # the two-thread split below were measured on an AMD EPYC)
        return [(0, m, False)]
    if n <= 11:
        return [(0, m, True)]
    if (n <= 16 and k <= 16) or (k <= 4 and m * n * k < 2048):
        return [(0, m, m <= 3)]
    m1 = -(-(-(-m // 2)) // 4) * 4
    v = [(0, min(m1, m), min(m1, m) <= 3)]
    if m1 < m:
        v.append((m1, m, m - m1 <= 3))
    return v


def model(lib, a, b, bias):
    m, k = a.shape
    n = b.shape[1]
    fp = ctypes.POINTER(ctypes.c_float)
    a = np.ascontiguousarray(a, np.float32)
    bt = np.ascontiguousarray(b.T, np.float32)
    out = np.empty((m, n), np.float32)
    ip = None
    if bias is not None:
        init = np.ascontiguousarray(np.broadcast_to(bias, (m, n)), np.float32)
        ip = init.ctypes.data_as(fp)
    for r0, r1, small in parts(m, k, n):
        lib.mat(a.ctypes.data_as(fp), bt.ctypes.data_as(fp), ip, out.ctypes.data_as(fp),
                m, n, k, r0, r1, int(small))
    return out


def main():
    lib = build()
    torch.manual_seed(0)
    total = bad = exact = cases = 0
    worst = []
    dims = (1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 16, 20, 33, 64, 100, 256)
    for m in dims:
        for n in dims:
            if n == 1:
                continue  # a matrix-vector product in MKL: not modelled
            for k in (1, 3, 4, 8, 17, 64, 150, 193, 300, 385, 784, 2000):
                if m * n * k > 4_000_000:
                    continue
                a, b, bias = torch.randn(m, k), torch.randn(k, n), torch.randn(n)
                for name, got, init, aa in (
                    ("mm", torch.mm(a, b), None, a),
                    ("addmm", torch.addmm(bias, a, b), bias, a),
                    ("aT_mm", torch.mm(a.t().contiguous().t(), b), None, a),
                ):
                    want = model(lib, aa.numpy(), b.numpy(), None if init is None else init.numpy())
                    d = int((want.view(np.uint32) != got.numpy().view(np.uint32)).sum())
                    total += want.size
                    bad += d
                    cases += 1
                    exact += d == 0
                    if d:
                        worst.append((d, name, (m, k, n)))
    print(f"{cases} products, {exact} bit-exact; {bad} of {total} elements differ")
    for d, name, s in sorted(worst, reverse=True)[:15]:
        print("  ", name, s, d, "elements differ")


if __name__ == "__main__":
    main()
