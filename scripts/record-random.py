#!/usr/bin/env python3
"""Record PyTorch's CPU random streams, bit for bit, for tests/random_streams.rs.

Runs the cases below with real torch (CPU only) once per ATen CPU capability (AVX512, AVX2,
DEFAULT, chosen with ATEN_CPU_CAPABILITY) and writes tests/fixtures/random/<family>.json:

  {"torch": "2.15.0", "capability": {"avx512": ..., ...},
   "cases": [{"name": ..., "ops": [OP, ...], "results": {"avx512": [RESULT, ...], "avx2": ..., ...}}]}
  (a capability whose results equal AVX512's has null there)

An OP is a small dict the Rust test replays against cudatutor's generators (see OPS below);
floats in OPs are stored as their repr strings (read them with an exact parser);
a RESULT is the op's output: tensor values as bit patterns (float32 -> u32, float64 -> u64,
float16 -> u16, integers as they are, bool as 0/1), a 64-bit seed, the hex of an RNG state,
or {"error": "ExceptionType: message"}. Long outputs (more than 1000 values) are stored as
their length, first and last 8 values and a 64-bit weighted sum of all of them
(sum of v_i * (2i + 1) * 0x9E3779B97F4A7C15 mod 2^64, v_i as a 64-bit two's-complement word:
any single changed value changes it), which the test recomputes.

Usage: scripts/record-random.py [--python PYTHON] [FAMILY ...]
       scripts/record-random.py --device cuda [--python python3]   (on a GPU machine: writes
       tests/fixtures/random/cuda.json, replayed by the ignored test
       cuda_streams_match_recorded_pytorch)
"""
import argparse
import json
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "fixtures" / "random"
CAPABILITIES = ["avx512", "avx2", "default"]

SEEDS = [0, 1, 42, 1234, 2**32 + 5, 2**63 + 11, -1, -12345, 67280421310721]
SIZES = list(range(1, 21)) + [100, 1000, 100003]


def seeded_draws(op):
    """One case per floating dtype, seed and size: `op` ("rand" or "randn") of n values just
    after manual_seed (float16 only up to 1000 values)."""
    cases = []
    for dt in ["float32", "float64", "float16"]:
        for s in SEEDS[:5]:
            for n in SIZES:
                if dt == "float16" and n > 1000:
                    continue
                cases.append(("%s %s seed %r n %d" % (op, dt, s, n), [
                    {"op": "manual_seed", "seed": s}, {"op": op, "n": n, "dtype": dt}]))
    return cases


def families():
    """Every family's cases: {family: [(name, [op, ...]), ...]}."""
    fam = {}

    # --- seeds and generator state ------------------------------------------------------
    cases = []
    for s in SEEDS + [3.7, True]:
        cases.append(("seed %r" % (s,), [
            {"op": "manual_seed", "seed": s}, {"op": "initial_seed"},
            {"op": "rand", "n": 3, "dtype": "float32"}, {"op": "get_state"}]))
    # Seeds outside int64/uint64 are written as strings (JSON readers lose their digits);
    # manual_seed takes int(seed) of whatever it is given.
    for s in [2**64, -2**63 - 1, 2**70]:
        cases.append(("bad seed %r" % s, [{"op": "manual_seed", "seed": str(s)}]))
    cases.append(("seed from a string", [{"op": "manual_seed", "seed": "12"},
                                         {"op": "rand", "n": 2, "dtype": "float32"}]))
    cases.append(("a new torch.Generator()", [{"op": "gen_new", "id": 0}, {"op": "initial_seed", "gen": 0},
                                             {"op": "rand", "n": 3, "dtype": "float32", "gen": 0}]))
    cases.append(("state round trip", [
        {"op": "manual_seed", "seed": 7}, {"op": "randn", "n": 3, "dtype": "float32"},
        {"op": "get_state"}, {"op": "randn", "n": 5, "dtype": "float32"},
        {"op": "rand", "n": 700, "dtype": "float64"}, {"op": "set_state", "from": 2},
        {"op": "randn", "n": 5, "dtype": "float32"}, {"op": "get_state"}]))
    cases.append(("state wrong size", [
        {"op": "set_state_bytes", "hex": "00" * 100}]))
    cases.append(("generators are separate streams", [
        {"op": "manual_seed", "seed": 3}, {"op": "gen_new", "id": 0},
        {"op": "initial_seed", "gen": 0},
        {"op": "gen_seed", "id": 0, "seed": 3}, {"op": "rand", "n": 4, "dtype": "float32"},
        {"op": "rand", "n": 4, "dtype": "float32", "gen": 0},
        {"op": "randn", "n": 3, "dtype": "float32", "gen": 0},
        {"op": "randn", "n": 3, "dtype": "float32"},
        {"op": "gen_new", "id": 1, "seed": -7}, {"op": "initial_seed", "gen": 1},
        {"op": "randint", "n": 6, "low": 0, "high": 10, "dtype": "int64", "gen": 1},
        {"op": "get_state", "gen": 1}, {"op": "randperm", "n": 9, "gen": 0}]))
    cases.append(("mt19937 regenerates after 624 words", [
        {"op": "manual_seed", "seed": 5}, {"op": "rand", "n": 623, "dtype": "float32"},
        {"op": "rand", "n": 3, "dtype": "float32"}, {"op": "get_state"},
        {"op": "rand", "n": 1250, "dtype": "float32"}, {"op": "get_state"}]))
    fam["seeds"] = cases

    # --- uniform --------------------------------------------------------------------------
    cases = seeded_draws("rand")
    for dt in ["float32", "float64", "float16"]:
        for (a, b) in [(-0.37, 1.13), (-1, 1), (2.5, 2.5), (-0.1, 0.0), (1e3, 1e3 + 7.25),
                       (2**30, 2**30 + 2**24), (-3.0, 7.0)]:
            cases.append(("uniform_ %s (%r, %r)" % (dt, a, b), [
                {"op": "manual_seed", "seed": 11},
                {"op": "uniform", "n": 1000, "dtype": dt, "from": a, "to": b}]))
    cases.append(("uniform_ big range clamps", [
        {"op": "manual_seed", "seed": 0},
        {"op": "uniform", "n": 1 << 20, "dtype": "float32", "from": 2**30, "to": 2**30 + 2**24}]))
    for (a, b, dt) in [(1.0, 0.0, "float32"), (0, 1e39, "float32"), (-1e39, 0, "float32"),
                       (-3e38, 3e38, "float32"), (0, 7e4, "float16"), (0, 1, "int64")]:
        cases.append(("uniform_ bad %s (%r, %r)" % (dt, a, b), [
            {"op": "uniform", "n": 3, "dtype": dt, "from": a, "to": b}]))
    fam["uniform"] = cases

    # --- normal ---------------------------------------------------------------------------
    cases = seeded_draws("randn")
    for dt in ["float32", "float64"]:
        for (m, sd) in [(0.5, 2.3), (-3.0, 0.01), (10.0, 0.0), (1e-3, 1e3)]:
            for n in [5, 16, 31, 1000]:
                for contig in [True, False]:
                    cases.append(("normal_ %s (%r, %r) n %d contiguous %s" % (dt, m, sd, n, contig), [
                        {"op": "manual_seed", "seed": 21},
                        {"op": "normal", "n": n, "dtype": dt, "mean": m, "std": sd,
                         "contiguous": contig}]))
    cases.append(("scalar normal caches the second sample", [
        {"op": "manual_seed", "seed": 0}, {"op": "randn", "n": 5, "dtype": "float32"},
        {"op": "randn", "n": 3, "dtype": "float64"}, {"op": "randn", "n": 20, "dtype": "float32"},
        {"op": "randn", "n": 1, "dtype": "float32"}, {"op": "rand", "n": 2, "dtype": "float32"},
        {"op": "randn", "n": 1, "dtype": "float32"}, {"op": "get_state"},
        {"op": "manual_seed", "seed": 0}, {"op": "randn", "n": 1, "dtype": "float32"},
        {"op": "manual_seed", "seed": 0}, {"op": "randn", "n": 1, "dtype": "float32"}]))
    mean = [(i % 7) * 0.75 - 2.0 for i in range(20)]
    std = [(i % 5) * 0.4 + 0.1 for i in range(20)]
    for dt in ["float32", "float64"]:
        for n in [5, 20]:
            for (m, sd) in [(mean[:n], std[:n]), (mean[:n], 0.3), (1.5, std[:n]), (0.25, 2.0)]:
                cases.append(("torch.normal %s n %d mean %s std %s" % (
                    dt, n, "tensor" if isinstance(m, list) else m, "tensor" if isinstance(sd, list) else sd), [
                    {"op": "manual_seed", "seed": 17},
                    {"op": "normal_tensors", "n": n, "dtype": dt, "mean": m, "std": sd}]))
    cases.append(("torch.normal negative std tensor", [
        {"op": "normal_tensors", "n": 3, "dtype": "float32", "mean": 0.0, "std": [1.0, -1.0, 2.0]}]))
    cases.append(("normal_ bad std", [
        {"op": "normal", "n": 3, "dtype": "float32", "mean": 0.0, "std": -1.0, "contiguous": True}]))
    cases.append(("normal_ int tensor", [
        {"op": "normal", "n": 3, "dtype": "int64", "mean": 0.0, "std": 1.0, "contiguous": True}]))
    fam["normal"] = cases

    # --- integers -------------------------------------------------------------------------
    cases = []
    for s in SEEDS[:4]:
        for (lo, hi) in [(0, 10), (-5, 5), (0, 2), (3, 4), (0, 2**28 - 1), (0, 2**28),
                         (5, 5 + 2**28), (-2**27, 2**27), (0, 2**31), (0, 2**32),
                         (-2**40, 2**40), (0, 2**62), (-2**63, 2**63 - 1)]:
            cases.append(("randint int64 seed %r [%d, %d)" % (s, lo, hi), [
                {"op": "manual_seed", "seed": s},
                {"op": "randint", "n": 50, "low": lo, "high": hi, "dtype": "int64"}]))
    for dt in ["int32", "int16", "int8", "uint8", "bool", "float32", "float64", "float16"]:
        cases.append(("randint %s" % dt, [
            {"op": "manual_seed", "seed": 9},
            {"op": "randint", "n": 40, "low": 0, "high": 2, "dtype": dt},
            {"op": "randint", "n": 40, "low": 0, "high": 100 if dt != "bool" else 2, "dtype": dt}]))
        cases.append(("random_ %s" % dt, [
            {"op": "manual_seed", "seed": 9}, {"op": "random", "n": 40, "dtype": dt}]))
        cases.append(("random_(to) and random_(from, None) %s" % dt, [
            {"op": "manual_seed", "seed": 9},
            {"op": "random_from_to", "n": 30, "dtype": dt, "from": 0, "to": 2},
            {"op": "random_from_to", "n": 30, "dtype": dt, "from": 1, "to": None}]))
    for dt in ["int64", "float32", "float64", "int32"]:
        cases.append(("random_ full int64 range %s" % dt, [
            {"op": "manual_seed", "seed": 9},
            {"op": "random_from_to", "n": 20, "dtype": dt, "from": -2**63, "to": None}]))
    for (lo, hi, dt) in [(5, 5, "int64"), (0, 300, "int8"), (-1, 3, "uint8"), (0, 2**25, "float32"),
                         (0, 70000, "float16"), (2**53, 2**53 + 1, "float64"), (3, 1, "float32")]:
        cases.append(("randint bad %s [%d, %d)" % (dt, lo, hi), [
            {"op": "randint", "n": 3, "low": lo, "high": hi, "dtype": dt}]))
    for n in [0, 1, 2, 3, 10, 17, 100, 1000, 100003]:
        for s in SEEDS[:3]:
            cases.append(("randperm %d seed %r" % (n, s), [
                {"op": "manual_seed", "seed": s}, {"op": "randperm", "n": n}]))
    for (n, shuffle) in [(10, True), (10, False), (1000, True)]:
        cases.append(("iter(DataLoader) n %d shuffle %s" % (n, shuffle), [
            {"op": "manual_seed", "seed": 0}, {"op": "dataloader", "n": n, "shuffle": shuffle},
            {"op": "dataloader", "n": n, "shuffle": shuffle}, {"op": "rand", "n": 2, "dtype": "float32"}]))
    cases.append(("randperm float32", [
        {"op": "manual_seed", "seed": 1}, {"op": "randperm", "n": 12, "dtype": "float32"}]))
    fam["integers"] = cases

    # --- bernoulli, exponential, multinomial, dropout -----------------------------------
    cases = []
    for dt in ["float32", "float64", "float16", "int64", "bool", "uint8"]:
        for p in [0.0, 0.3, 0.5, 1.0]:
            cases.append(("bernoulli_(%r) %s" % (p, dt), [
                {"op": "manual_seed", "seed": 4},
                {"op": "bernoulli_scalar", "n": 37, "dtype": dt, "p": p},
                {"op": "rand", "n": 2, "dtype": "float32"}]))
    cases.append(("bernoulli_ bad p", [{"op": "bernoulli_scalar", "n": 3, "dtype": "float32", "p": 1.5}]))
    probs = [0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0, 0.33, 0.66, 0.01, 0.99, 0.5]
    for pdt in ["float32", "float64", "float16"]:
        for dt in [None, "float32", "float64", "bool"]:
            cases.append(("bernoulli tensor p %s self %s" % (pdt, dt), [
                {"op": "manual_seed", "seed": 8},
                {"op": "bernoulli_tensor", "probs": probs * 3, "p_dtype": pdt, "dtype": dt},
                {"op": "rand", "n": 2, "dtype": "float32"}]))
    cases.append(("bernoulli tensor p out of range", [
        {"op": "manual_seed", "seed": 8},
        {"op": "bernoulli_tensor", "probs": [0.5, 1.5, 0.2], "p_dtype": "float32", "dtype": None}]))
    for dt in ["float32", "float64", "float16"]:
        for lam in [1.0, 0.5, 3.0]:
            cases.append(("exponential_(%r) %s" % (lam, dt), [
                {"op": "manual_seed", "seed": 6},
                {"op": "exponential", "n": 100, "dtype": dt, "lambd": lam}]))
    cases.append(("exponential_ bad lambda", [
        {"op": "exponential", "n": 3, "dtype": "float32", "lambd": 0.0}]))
    for dt in ["float32", "float64"]:
        cases.append(("geometric/log_normal/cauchy %s" % dt, [
            {"op": "manual_seed", "seed": 6},
            {"op": "geometric", "n": 40, "dtype": dt, "p": 0.3},
            {"op": "log_normal", "n": 40, "dtype": dt, "mean": 0.5, "std": 0.7},
            {"op": "cauchy", "n": 40, "dtype": dt, "median": 1.0, "sigma": 2.0}]))
    rows = [[0.1, 0.2, 0.3, 0.4], [1.0, 0.0, 3.0, 2.0], [0.0, 0.0, 5.0, 0.0]]
    for dt in ["float32", "float64", "float16"]:
        for (ns, rep) in [(1, False), (1, True), (3, False), (4, False), (10, True), (2, True)]:
            cases.append(("multinomial %s %d replacement %s" % (dt, ns, rep), [
                {"op": "manual_seed", "seed": 13},
                {"op": "multinomial", "probs": rows[:2], "dtype": dt, "num_samples": ns,
                 "replacement": rep},
                {"op": "multinomial", "probs": [0.2, 0.5, 0.3, 0.0, 1.0], "dtype": dt,
                 "num_samples": min(ns, 4), "replacement": rep},
                {"op": "rand", "n": 2, "dtype": "float32"}]))
    big = [((i * 37) % 101) / 101.0 for i in range(1000)]
    cases.append(("multinomial 1000 categories", [
        {"op": "manual_seed", "seed": 2},
        {"op": "multinomial", "probs": big, "dtype": "float32", "num_samples": 50, "replacement": True},
        {"op": "multinomial", "probs": big, "dtype": "float32", "num_samples": 50, "replacement": False}]))
    # Non-finite probabilities are written as strings ("nan", "inf"): JSON has no such numbers.
    for (pr, ns, rep) in [([0.5, -0.1], 1, True), ([0.5, "nan"], 2, True),
                          ([0.5, "inf"], 2, True), ([0.0, 0.0], 2, True),
                          ([0.5, -0.1], 1, False), ([0.0, 0.0], 1, False), ([0.5, 0.5], 3, False),
                          ([0.5, 0.5], 0, True), ([[[0.5]]], 1, True)]:
        cases.append(("multinomial bad %r %d %s" % (pr, ns, rep), [
            {"op": "multinomial", "probs": pr, "dtype": "float32", "num_samples": ns,
             "replacement": rep}]))
    for dt in ["float32", "float64", "float16"]:
        for p in [0.0, 0.2, 0.5, 0.9, 1.0]:
            cases.append(("dropout %s p %r" % (dt, p), [
                {"op": "manual_seed", "seed": 10},
                {"op": "dropout", "n": 50, "dtype": dt, "p": p, "training": True},
                {"op": "rand", "n": 2, "dtype": "float32"}]))
    cases.append(("dropout eval", [
        {"op": "manual_seed", "seed": 10},
        {"op": "dropout", "n": 50, "dtype": "float32", "p": 0.5, "training": False},
        {"op": "rand", "n": 2, "dtype": "float32"}]))
    cases.append(("dropout bad p", [
        {"op": "dropout", "n": 5, "dtype": "float32", "p": 1.5, "training": True}]))
    fam["distributions"] = cases

    # --- nn initialisation ----------------------------------------------------------------
    cases = []
    for s in [0, 1, 42]:
        for (i, o, b) in [(1, 1, True), (3, 2, True), (4, 5, False), (10, 1, True), (784, 10, True),
                          (2, 16, True), (20, 30, True)]:
            cases.append(("Linear(%d, %d, bias=%s) seed %r" % (i, o, b, s), [
                {"op": "manual_seed", "seed": s},
                {"op": "linear", "in": i, "out": o, "bias": b},
                {"op": "rand", "n": 1, "dtype": "float32"}]))
    cases.append(("two Linear layers in a row", [
        {"op": "manual_seed", "seed": 0},
        {"op": "linear", "in": 2, "out": 3, "bias": True},
        {"op": "linear", "in": 3, "out": 1, "bias": True}]))
    for (kind, cin, cout, k, groups, b) in [("conv2d", 1, 6, [5, 5], 1, True), ("conv2d", 3, 8, [3, 3], 1, False),
                                           ("conv2d", 4, 4, [3, 3], 2, True), ("conv1d", 2, 3, [4], 1, True),
                                           ("conv_transpose2d", 4, 2, [2, 2], 1, True)]:
        cases.append(("%s(%d, %d, %r, groups=%d, bias=%s)" % (kind, cin, cout, k, groups, b), [
            {"op": "manual_seed", "seed": 0},
            {"op": "conv", "kind": kind, "in": cin, "out": cout, "kernel": k, "groups": groups,
             "bias": b}]))
    for (num, dim, pad) in [(10, 3, None), (5, 4, 0), (100, 16, 2), (3, 2, None)]:
        cases.append(("Embedding(%d, %d, padding_idx=%r)" % (num, dim, pad), [
            {"op": "manual_seed", "seed": 0},
            {"op": "embedding", "num": num, "dim": dim, "padding_idx": pad}]))
    for kind in ["RNN", "LSTM", "GRU"]:
        cases.append(("%s(4, 3, num_layers=2)" % kind, [
            {"op": "manual_seed", "seed": 0},
            {"op": "rnn", "kind": kind, "input": 4, "hidden": 3, "layers": 2}]))
    inits = [
        ("kaiming_uniform_", [3, 5], {}), ("kaiming_uniform_", [8, 4, 3, 3], {"mode": "fan_out", "nonlinearity": "relu"}),
        ("kaiming_uniform_", [0, 3], {}),
        ("kaiming_normal_", [16, 8], {}), ("kaiming_normal_", [4, 5], {"a": 0.2}), ("kaiming_normal_", [6, 7], {"mode": "fan_out"}),
        ("xavier_uniform_", [3, 5], {}), ("xavier_uniform_", [30, 50], {"gain": 2.0}),
        ("xavier_normal_", [3, 5], {}), ("xavier_normal_", [20, 20], {"gain": 0.5}),
        ("uniform_", [4, 4], {"a": -0.5, "b": 0.5}), ("normal_", [4, 4], {"mean": 1.0, "std": 0.02}),
        ("normal_", [2, 3], {}), ("trunc_normal_", [5, 5], {}), ("trunc_normal_", [40, 40], {"std": 0.02}),
        ("trunc_normal_", [6, 6], {"mean": 0.0, "std": 1.0, "a": 0.5, "b": 0.8}),
        ("trunc_normal_", [30], {"mean": 0.0, "std": 1.0, "a": 1.0, "b": 2.0}),
        ("trunc_normal_", [10], {"mean": 5.0, "std": 1.0, "a": -1.0, "b": 1.0}),
        ("zeros_", [2, 2], {}), ("ones_", [2, 2], {}), ("constant_", [2, 2], {"val": 0.3}),
        ("kaiming_uniform_", [3], {}), ("xavier_uniform_", [3], {}),
        ("kaiming_normal_", [3, 4], {"mode": "fan_middle"}), ("kaiming_normal_", [3, 4], {"nonlinearity": "swish"}),
    ]
    for (fn, shape, kw) in inits:
        cases.append(("init.%s %r %r" % (fn, shape, kw), [
            {"op": "manual_seed", "seed": 0},
            {"op": "init", "fn": fn, "shape": shape, "kwargs": kw},
            {"op": "rand", "n": 1, "dtype": "float32"}]))
    fam["init"] = cases
    return fam


def cuda_cases():
    """The CUDA family (recorded with --device cuda on a GPU machine): the same ops with
    "device": "cuda", sized to cover one and several grid-stride passes (an H200 runs
    1056 blocks of 256 threads: 1 081 344 float elements per pass)."""
    cases = []
    sizes = [1, 3, 4, 5, 16, 17, 1000, 270337, 1081345, 2500001]
    for s in [0, 42]:
        for n in sizes:
            for dt in ["float32", "float64", "float16"]:
                cases.append(("cuda rand %s seed %d n %d" % (dt, s, n), [
                    {"op": "manual_seed", "seed": s}, {"op": "rand", "n": n, "dtype": dt, "device": "cuda"},
                    {"op": "get_state", "device": "cuda"}]))
                cases.append(("cuda randn %s seed %d n %d" % (dt, s, n), [
                    {"op": "manual_seed", "seed": s}, {"op": "randn", "n": n, "dtype": dt, "device": "cuda"},
                    {"op": "get_state", "device": "cuda"}]))
    cases.append(("cuda interleaved launches advance the offset", [
        {"op": "manual_seed", "seed": 1},
        {"op": "rand", "n": 10, "dtype": "float32", "device": "cuda"},
        {"op": "randn", "n": 10, "dtype": "float32", "device": "cuda"},
        {"op": "rand", "n": 10, "dtype": "float32"},
        {"op": "randint", "n": 10, "low": 0, "high": 10, "dtype": "int64", "device": "cuda"},
        {"op": "get_state", "device": "cuda"}]))
    for (lo, hi) in [(0, 10), (-5, 5), (0, 2**28 - 1), (0, 2**28), (0, 2**40)]:
        for dt in ["int64", "int32", "float32"]:
            if dt != "int64" and hi > 2**31:
                continue
            cases.append(("cuda randint %s [%d, %d)" % (dt, lo, hi), [
                {"op": "manual_seed", "seed": 3},
                {"op": "randint", "n": 1000, "low": lo, "high": hi, "dtype": dt, "device": "cuda"}]))
    for dt in ["int64", "float64", "int32", "float32", "bool", "uint8"]:
        cases.append(("cuda random_ %s" % dt, [
            {"op": "manual_seed", "seed": 3}, {"op": "random", "n": 1000, "dtype": dt, "device": "cuda"}]))
    for dt in ["float32", "float64", "float16"]:
        cases.append(("cuda uniform_ %s" % dt, [
            {"op": "manual_seed", "seed": 5},
            {"op": "uniform", "n": 1000, "dtype": dt, "from": -3.0, "to": 7.0, "device": "cuda"}]))
        cases.append(("cuda normal_ %s" % dt, [
            {"op": "manual_seed", "seed": 5},
            {"op": "normal", "n": 1000, "dtype": dt, "mean": 0.5, "std": 2.3, "contiguous": True,
             "device": "cuda"}]))
        cases.append(("cuda bernoulli_ %s" % dt, [
            {"op": "manual_seed", "seed": 5},
            {"op": "bernoulli_scalar", "n": 1000, "dtype": dt, "p": 0.3, "device": "cuda"}]))
        cases.append(("cuda exponential_ %s" % dt, [
            {"op": "manual_seed", "seed": 5},
            {"op": "exponential", "n": 1000, "dtype": dt, "lambd": 2.0, "device": "cuda"}]))
    for n in [4, 5, 6, 1000, 1002, 1003]:
        cases.append(("cuda bernoulli tensor n %d" % n, [
            {"op": "manual_seed", "seed": 5},
            {"op": "bernoulli_tensor", "probs": [((i * 7) % 10) / 9.0 for i in range(n)],
             "p_dtype": "float32", "dtype": None, "device": "cuda"},
            {"op": "get_state", "device": "cuda"}]))
    for n in [5, 16, 18, 1000, 1001, 1081345]:
        for p in [0.2, 0.5]:
            cases.append(("cuda dropout n %d p %r" % (n, p), [
                {"op": "manual_seed", "seed": 10},
                {"op": "dropout", "n": n, "dtype": "float32", "p": p, "training": True, "device": "cuda"},
                {"op": "get_state", "device": "cuda"}]))
    cases.append(("cuda Linear(20, 30) built on the device", [
        {"op": "manual_seed", "seed": 0},
        {"op": "linear", "in": 20, "out": 30, "bias": True, "device": "cuda"}]))
    cases.append(("cuda generator object", [
        {"op": "gen_new", "id": 0, "device": "cuda"}, {"op": "initial_seed", "gen": 0},
        {"op": "rand", "n": 5, "dtype": "float32", "device": "cuda", "gen": 0},
        {"op": "get_state", "gen": 0}]))
    return cases


# ------------------------------------------------------------------ the recorder (child)

CHILD = r'''
import json, sys, math, warnings
import torch
import torch.nn.functional as F
warnings.simplefilter("ignore")
DT = {"float32": torch.float32, "float64": torch.float64, "float16": torch.float16,
      "int64": torch.int64, "int32": torch.int32, "int16": torch.int16, "int8": torch.int8,
      "uint8": torch.uint8, "bool": torch.bool}

def wsum(vals):
    import numpy as np
    v = np.array([x & 0xffffffffffffffff for x in vals], dtype=np.uint64)
    k = (np.arange(len(vals), dtype=np.uint64) * np.uint64(2) + np.uint64(1)) * np.uint64(0x9E3779B97F4A7C15)
    with np.errstate(over="ignore"):
        return int((v * k).sum(dtype=np.uint64))

def enc(t):
    t = t.detach().cpu().contiguous().view(-1)
    if t.dtype == torch.float32:
        vals = [v & 0xffffffff for v in t.view(torch.int32).tolist()]
    elif t.dtype == torch.float64:
        vals = [v & 0xffffffffffffffff for v in t.view(torch.int64).tolist()]
    elif t.dtype == torch.float16:
        vals = [v & 0xffff for v in t.view(torch.int16).tolist()]
    else:
        vals = [int(v) for v in t.tolist()]
    if len(vals) > 1000:
        return {"len": len(vals), "head": vals[:8], "tail": vals[-8:], "wsum64": wsum(vals)}
    return vals

def params(m):
    return [enc(p) for p in m.parameters()]

def run(ops):
    # Every case starts from the same default-generator state (a fresh process's seed is
    # random, so the case would not replay otherwise).
    torch.manual_seed(67280421310721)
    gens, out = {}, []
    for op in ops:
        try:
            out.append(one(op, gens, out))
        except Exception as e:
            msg = str(e).strip().splitlines()
            out.append({"error": "%s: %s" % (type(e).__name__, msg[0] if msg else "")})
    return out

def one(op, gens, done):
    k = op["op"]
    g = gens[op["gen"]] if "gen" in op else None
    dt = DT.get(op.get("dtype"))
    n = op.get("n")
    dev = op.get("device", "cpu")
    if k == "manual_seed":
        return torch.manual_seed(op["seed"]).initial_seed()
    if k == "initial_seed":
        return (g.initial_seed() if g is not None else torch.initial_seed())
    if k == "gen_new":
        gens[op["id"]] = torch.Generator(device=dev)
        if "seed" in op:
            gens[op["id"]].manual_seed(op["seed"])
        return gens[op["id"]].initial_seed()
    if k == "gen_seed":
        return gens[op["id"]].manual_seed(op["seed"]).initial_seed()
    if k == "get_state":
        if g is not None:
            state = g.get_state()
        elif dev == "cuda":
            state = torch.cuda.get_rng_state()
        else:
            state = torch.get_rng_state()
        return state.numpy().tobytes().hex()
    if k == "set_state":
        torch.set_rng_state(torch.tensor(list(bytes.fromhex(done[op["from"]])), dtype=torch.uint8))
        return None
    if k == "set_state_bytes":
        torch.set_rng_state(torch.tensor(list(bytes.fromhex(op["hex"])), dtype=torch.uint8))
        return None
    if k == "rand":
        return enc(torch.rand(n, dtype=dt, generator=g, device=dev))
    if k == "uniform":
        return enc(torch.empty(n, dtype=dt, device=dev).uniform_(op["from"], op["to"], generator=g))
    if k == "randn":
        return enc(torch.randn(n, dtype=dt, generator=g, device=dev))
    if k == "normal":
        if op["contiguous"]:
            t = torch.empty(n, dtype=dt, device=dev)
        else:
            t = torch.empty(n, 2, dtype=dt, device=dev)[:, 0]
        return enc(t.normal_(op["mean"], op["std"], generator=g))
    if k == "normal_tensors":
        m, sd = op["mean"], op["std"]
        if isinstance(m, list):
            m = torch.tensor(m, dtype=dt)
        if isinstance(sd, list):
            sd = torch.tensor(sd, dtype=dt)
        if not isinstance(m, torch.Tensor) and not isinstance(sd, torch.Tensor):
            return enc(torch.normal(m, sd, (n,), dtype=dt, generator=g))
        return enc(torch.normal(m, sd, generator=g))
    if k == "dataloader":
        from torch.utils.data import DataLoader
        dl = DataLoader(list(range(n)), batch_size=3, shuffle=op["shuffle"])
        return enc(torch.cat([b for b in dl]))
    if k == "randint":
        return enc(torch.randint(op["low"], op["high"], (n,), dtype=dt, generator=g, device=dev))
    if k == "random":
        return enc(torch.empty(n, dtype=dt, device=dev).random_(generator=g))
    if k == "random_from_to":
        return enc(torch.empty(n, dtype=dt, device=dev).random_(op["from"], op["to"], generator=g))
    if k == "randperm":
        return enc(torch.randperm(n, generator=g, dtype=DT[op.get("dtype", "int64")]))
    if k == "bernoulli_scalar":
        return enc(torch.empty(n, dtype=dt, device=dev).bernoulli_(op["p"], generator=g))
    if k == "bernoulli_tensor":
        p = torch.tensor(op["probs"], dtype=DT[op["p_dtype"]], device=dev)
        if dt is None:
            return enc(torch.bernoulli(p, generator=g))
        return enc(torch.empty(len(op["probs"]), dtype=dt, device=dev).bernoulli_(p, generator=g))
    if k == "exponential":
        return enc(torch.empty(n, dtype=dt, device=dev).exponential_(op["lambd"], generator=g))
    if k == "geometric":
        return enc(torch.empty(n, dtype=dt).geometric_(op["p"], generator=g))
    if k == "log_normal":
        return enc(torch.empty(n, dtype=dt).log_normal_(op["mean"], op["std"], generator=g))
    if k == "cauchy":
        return enc(torch.empty(n, dtype=dt).cauchy_(op["median"], op["sigma"], generator=g))
    if k == "multinomial":
        floats = lambda v: [floats(x) for x in v] if isinstance(v, list) else float(v)
        p = torch.tensor(floats(op["probs"]), dtype=dt)
        return enc(torch.multinomial(p, op["num_samples"], op["replacement"], generator=g))
    if k == "dropout":
        x = (torch.arange(n) % 11 - 5).to(dt).to(dev)
        return enc(F.dropout(x, op["p"], training=op["training"]))
    if k == "linear":
        return params(torch.nn.Linear(op["in"], op["out"], bias=op["bias"], device=dev))
    if k == "conv":
        cls = {"conv1d": torch.nn.Conv1d, "conv2d": torch.nn.Conv2d,
               "conv_transpose2d": torch.nn.ConvTranspose2d}[op["kind"]]
        return params(cls(op["in"], op["out"], tuple(op["kernel"]), groups=op["groups"], bias=op["bias"]))
    if k == "embedding":
        return params(torch.nn.Embedding(op["num"], op["dim"], padding_idx=op["padding_idx"]))
    if k == "rnn":
        cls = getattr(torch.nn, op["kind"])
        return params(cls(op["input"], op["hidden"], num_layers=op["layers"]))
    if k == "init":
        t = torch.empty(op["shape"])
        getattr(torch.nn.init, op["fn"])(t, **op["kwargs"])
        return enc(t)
    raise ValueError("unknown op " + k)

cases = json.load(sys.stdin)
device = None
if torch.cuda.is_available():
    prop = torch.cuda.get_device_properties(0)
    device = {"name": prop.name, "sm_count": prop.multi_processor_count,
              "max_threads_per_sm": prop.max_threads_per_multi_processor, "cuda": torch.version.cuda}
json.dump({"torch": torch.__version__, "capability": torch.backends.cpu.get_cpu_capability(),
           "device": device, "results": [run(ops) for ops in cases]}, sys.stdout)
'''


def floats_as_text(v):
    """The ops as stored: every float as its repr string, so a reader parses it exactly
    (serde_json's default float parser can be an ulp off)."""
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, list):
        return [floats_as_text(x) for x in v]
    if isinstance(v, dict):
        return {k: floats_as_text(x) for k, x in v.items()}
    return v


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--python", default="/tmp/torchvenv/bin/python")
    ap.add_argument("--device", choices=["cpu", "cuda"], default="cpu",
                    help="cuda: record the CUDA family (tests/fixtures/random/cuda.json) on a GPU machine")
    ap.add_argument("families", nargs="*")
    args = ap.parse_args()
    if args.device == "cuda":
        return record_cuda(args.python)
    fams = families()
    wanted = args.families or sorted(fams)
    OUT.mkdir(parents=True, exist_ok=True)
    for name in wanted:
        cases = fams[name]
        payload = json.dumps([ops for (_, ops) in cases])
        per_cap, meta = {}, {}
        for cap in CAPABILITIES:
            env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/root"),
                   "CUDA_VISIBLE_DEVICES": "", "OMP_NUM_THREADS": "1", "ATEN_CPU_CAPABILITY": cap,
                   "PYTHONHASHSEED": "0"}
            p = subprocess.run([args.python, "-c", CHILD], input=payload, capture_output=True,
                               text=True, env=env)
            if p.returncode != 0:
                sys.stderr.write(p.stderr)
                return 1
            got = json.loads(p.stdout)
            if got["capability"].lower() != cap:
                sys.stderr.write("asked for %s, torch ran %s\n" % (cap, got["capability"]))
                return 1
            per_cap[cap] = got["results"]
            meta["torch"] = got["torch"]
        def results(i):
            # A capability whose results equal AVX512's is stored as null.
            first = per_cap[CAPABILITIES[0]][i]
            return {cap: (per_cap[cap][i] if cap == CAPABILITIES[0] or per_cap[cap][i] != first
                          else None) for cap in CAPABILITIES}
        doc = {"torch": meta["torch"], "capabilities": CAPABILITIES, "cases": [
            {"name": cname, "ops": floats_as_text(ops), "results": results(i)}
            for i, (cname, ops) in enumerate(cases)]}
        path = OUT / (name + ".json")
        path.write_text(json.dumps(doc, separators=(",", ":")) + "\n")
        print("%-14s %4d cases  %7.1f KB" % (name, len(cases), path.stat().st_size / 1024))
    return 0


def record_cuda(python):
    cases = cuda_cases()
    env = dict(os.environ)
    env.pop("CUDA_VISIBLE_DEVICES", None)
    p = subprocess.run([python, "-c", CHILD], input=json.dumps([ops for (_, ops) in cases]),
                       capture_output=True, text=True, env=env)
    if p.returncode != 0:
        sys.stderr.write(p.stderr)
        return 1
    got = json.loads(p.stdout)
    if not got["device"]:
        sys.stderr.write("record-random: no CUDA device visible to torch\n")
        return 1
    doc = {"torch": got["torch"], "device": got["device"], "cases": [
        {"name": name, "ops": floats_as_text(ops), "results": {"cuda": got["results"][i]}}
        for i, (name, ops) in enumerate(cases)]}
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / "cuda.json"
    path.write_text(json.dumps(doc, separators=(",", ":")) + "\n")
    print("cuda %4d cases  %7.1f KB on %s" % (len(cases), path.stat().st_size / 1024, got["device"]["name"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
