#!/usr/bin/env python3
"""Record real PyTorch's float bits for the numerics suite (tests/numerics_exact.rs).

Every case names an op, its inputs and arguments; this runs the op in real PyTorch (CPU, one
thread) and writes the bit patterns of the result to tests/fixtures/numerics/FAMILY.json.
Inputs are not stored element by element: each is a seeded generator spec (splitmix64, see
`gen` below) that the Rust test reproduces exactly, or a short explicit list of bit patterns
for edge values. Results of up to 1100 elements are stored whole (their bit patterns as one
hex string, 8 or 16 digits an element); longer
ones as a keyed hash of their bit patterns (`keyed_hash`) plus 64 sampled elements.

Usage: scripts/record-numerics.py [--python PYTHON] [FAMILY ...]
  --python  an interpreter with torch and numpy (default /tmp/torchvenv/bin/python); the
            script re-runs itself under it with OMP_NUM_THREADS=1
  FAMILY    record only these families (default: all); see FAMILIES at the bottom
"""
import json
import os
import pathlib
import struct
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "fixtures" / "numerics"
FULL_LIMIT = 1100
SAMPLES = 64

# ---------------------------------------------------------------------------------------------
# Input generators (mirrored in tests/numerics_support/gen.rs; keep the two in step)
# ---------------------------------------------------------------------------------------------

M64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def splitmix(seed, count):
    """The first `count` outputs of splitmix64 started at `seed` (numpy uint64 array)."""
    import numpy as np
    i = np.arange(1, count + 1, dtype=np.uint64)
    with np.errstate(over="ignore"):
        z = np.uint64(seed & M64) + i * np.uint64(GOLDEN)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    return z


def unit(z):
    """24 random bits as a float64 in [0, 1) (exact)."""
    import numpy as np
    return (z >> np.uint64(40)).astype(np.float64) * (2.0 ** -24)


def gen(spec):
    """The values a spec describes, as a numpy array of its dtype ('f32' or 'f64')."""
    import numpy as np
    kind = spec["kind"]
    dt = np.float32 if spec.get("dtype", "f32") == "f32" else np.float64
    if kind == "concat":
        parts = [gen(dict(p, dtype=spec.get("dtype", "f32"))) for p in spec["parts"]]
        return np.concatenate(parts).astype(dt) if parts else np.zeros(0, dt)
    if kind == "values":
        if dt == np.float32:
            return np.array([int(h, 16) for h in spec["bits"]], dtype=np.uint32).view(np.float32)
        return np.array([int(h, 16) for h in spec["bits"]], dtype=np.uint64).view(np.float64)
    n = spec["n"]
    seed = spec["seed"]
    if kind == "uniform":
        u = unit(splitmix(seed, n))
        return (spec["lo"] + (spec["hi"] - spec["lo"]) * u).astype(dt)
    if kind == "normal":
        z = splitmix(seed, 12 * n).reshape(n, 12)
        g = unit(z).sum(axis=1) - 6.0  # exact: twelve 24-bit fractions
        return (spec["mean"] + spec["std"] * g).astype(dt)
    if kind == "ints":
        z = splitmix(seed, n)
        span = np.uint64(spec["hi"] - spec["lo"] + 1)
        return ((z >> np.uint64(11)) % span).astype(np.float64).__add__(spec["lo"]).astype(dt)
    if kind == "bits":
        z = splitmix(seed, n)
        emin, emax = spec["emin"], spec["emax"]
        e = (z >> np.uint64(1)) % np.uint64(emax - emin + 1)
        sign = z & np.uint64(1)
        if dt == np.float32:
            m = (z >> np.uint64(20)) & np.uint64(0x7FFFFF)
            b = (sign << np.uint64(31)) | ((e + np.uint64(emin + 127)) << np.uint64(23)) | m
            return b.astype(np.uint32).view(np.float32)
        m = z >> np.uint64(12)
        b = (sign << np.uint64(63)) | ((e + np.uint64(emin + 1023)) << np.uint64(52)) | m
        return b.view(np.float64)
    raise ValueError(f"unknown generator kind {kind}")


def u(seed, n, lo=-1.0, hi=1.0, dtype="f32"):
    return {"kind": "uniform", "seed": seed, "n": n, "lo": lo, "hi": hi, "dtype": dtype}


def nrm(seed, n, mean=0.0, std=1.0, dtype="f32"):
    return {"kind": "normal", "seed": seed, "n": n, "mean": mean, "std": std, "dtype": dtype}


def bits(seed, n, emin=-20, emax=20, dtype="f32"):
    return {"kind": "bits", "seed": seed, "n": n, "emin": emin, "emax": emax, "dtype": dtype}


def ints(seed, n, lo, hi, dtype="f32"):
    return {"kind": "ints", "seed": seed, "n": n, "lo": lo, "hi": hi, "dtype": dtype}


def vals(values, dtype="f32"):
    import numpy as np
    if dtype == "f32":
        b = np.array(values, dtype=np.float32).view(np.uint32)
        return {"kind": "values", "bits": [f"{int(x):08x}" for x in b], "dtype": dtype}
    b = np.array(values, dtype=np.float64).view(np.uint64)
    return {"kind": "values", "bits": [f"{int(x):016x}" for x in b], "dtype": dtype}


def cat(*parts, dtype="f32"):
    return {"kind": "concat", "parts": list(parts), "dtype": dtype}


def spec_len(spec):
    if spec["kind"] == "concat":
        return sum(spec_len(p) for p in spec["parts"])
    if spec["kind"] == "values":
        return len(spec["bits"])
    return spec["n"]


# ---------------------------------------------------------------------------------------------
# Tensors from specs, results to bits
# ---------------------------------------------------------------------------------------------

def tensor(spec, view=None):
    """A torch tensor from a spec; `view` = {shape, strides, offset} over the flat buffer."""
    import torch
    base = torch.from_numpy(gen(spec).copy())
    if view is None:
        return base
    return base.as_strided(view["shape"], view["strides"], view.get("offset", 0))


def encode(t):
    """A result tensor (or Python float/int) as its bit patterns."""
    import numpy as np
    import torch
    if isinstance(t, float):
        t = torch.tensor(t, dtype=torch.float64)
    t = t.detach().contiguous().reshape(-1)
    if t.dtype == torch.float32:
        b = t.numpy().view(np.uint32)
        width = 8
    elif t.dtype == torch.float64:
        b = t.numpy().view(np.uint64)
        width = 16
    elif t.dtype in (torch.int64, torch.int32, torch.bool):
        return {"ints": [int(x) for x in t.tolist()]}
    else:
        raise TypeError(t.dtype)
    if len(b) <= FULL_LIMIT:
        return {"hex": "".join(f"{int(x):0{width}x}" for x in b)}
    h = keyed_hash(b)
    idx = sorted(set([0, 1, len(b) - 1, len(b) - 2] + [int(i) for i in splitmix(len(b), SAMPLES - 4) % np.uint64(len(b))]))
    return {"n": len(b), "hash": f"{h:016x}", "samples": [[i, f"{int(b[i]):0{width}x}"] for i in idx]}


def keyed_hash(words):
    """sum over i of (word_i + 1) * key_i mod 2^64, key_i = splitmix(0x5EED, n)[i], with every
    NaN counted as the canonical NaN (payload bits are not compared; see docs/engine.md)."""
    import numpy as np
    if words.dtype == np.uint32:
        nan = (words & np.uint32(0x7F800000)) == np.uint32(0x7F800000)
        nan &= (words & np.uint32(0x007FFFFF)) != 0
        words = np.where(nan, np.uint32(0x7FC00000), words)
    else:
        nan = (words & np.uint64(0x7FF0000000000000)) == np.uint64(0x7FF0000000000000)
        nan &= (words & np.uint64(0x000FFFFFFFFFFFFF)) != 0
        words = np.where(nan, np.uint64(0x7FF8000000000000), words)
    keys = splitmix(0x5EED, len(words))
    with np.errstate(over="ignore"):
        return int(((words.astype(np.uint64) + np.uint64(1)) * keys).sum(dtype=np.uint64))


def contiguous_view(shape):
    strides, acc = [], 1
    for s in reversed(shape):
        strides.insert(0, acc)
        acc *= max(s, 1)
    return {"shape": list(shape), "strides": strides, "offset": 0}


def permuted_view(shape, perm):
    """A view of a contiguous buffer of `shape` permuted by `perm` (like x.permute(perm))."""
    c = contiguous_view(shape)
    return {"shape": [shape[p] for p in perm], "strides": [c["strides"][p] for p in perm], "offset": 0}


def numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n


# ---------------------------------------------------------------------------------------------
# Families
# ---------------------------------------------------------------------------------------------

SUM_LENGTHS = list(range(0, 101)) + [127, 128, 129, 255, 256, 257, 511, 512, 513, 1000, 1023, 1024,
                                     1025, 4095, 4096, 4097, 10000, 32767, 32768, 32769, 65536,
                                     100003, 1 << 20, (1 << 20) + 3]


def family_sum():
    import torch
    cases = []
    seed = 1000
    for dtype in ("f32", "f64"):
        for n in SUM_LENGTHS:
            for kind in ("u", "n", "b"):
                seed += 1
                if kind == "u":
                    spec = u(seed, n, 0.0, 1.0, dtype)
                elif kind == "n":
                    spec = nrm(seed, n, 0.5, 3.0, dtype)
                else:
                    spec = bits(seed, n, -10, 10, dtype)
                if n > 4097 and kind == "b":
                    continue
                for op in ("sum", "mean"):
                    cases.append({"op": op, "input": spec, "view": contiguous_view([n]), "dims": []})
    # edge values
    for dtype in ("f32", "f64"):
        for values in ([float("nan"), 1.0], [float("inf"), -float("inf")], [-0.0], [-0.0, -0.0],
                       [1e30, 1.0, -1e30], [3.4e38, 3.4e38], [1.0] * 17 + [float("nan")]):
            for op in ("sum", "mean", "nansum"):
                spec = vals(values, dtype)
                cases.append({"op": op, "input": spec, "view": contiguous_view([len(values)]), "dims": []})
    # dims, strides and views
    shapes = [(3, 5), (7, 33), (33, 7), (16, 16), (64, 100), (100, 64), (2, 3, 40), (5, 17, 19),
              (4, 1000), (1000, 4), (3, 1, 70), (2, 64, 65), (130, 3, 2), (6, 5, 4, 3), (1, 1),
              (17,), ()]
    for dtype in ("f32", "f64"):
        for shape in shapes:
            nd = len(shape)
            n = numel(shape)
            seed += 1
            spec = nrm(seed, n, 0.0, 2.0, dtype)
            dim_sets = [[]] + [[d] for d in range(nd)]
            if nd >= 2:
                dim_sets += [[0, nd - 1], list(range(1, nd))]
            if nd >= 3:
                dim_sets += [[0, 1]]
            views = [contiguous_view(shape)]
            if nd >= 2:
                views.append(permuted_view(shape, list(reversed(range(nd)))))
            if nd == 3:
                views.append(permuted_view(shape, [1, 2, 0]))
            for view in views:
                for dims in dim_sets:
                    for op in ("sum", "mean", "nansum"):
                        cases.append({"op": op, "input": spec, "view": view, "dims": dims})
        # a sliced view: every other column of a (40, 70) buffer, and an expanded view
        seed += 1
        spec = nrm(seed, 40 * 70, 0.0, 1.0, dtype)
        for dims in ([], [0], [1]):
            cases.append({"op": "sum", "input": spec, "view": {"shape": [40, 35], "strides": [70, 2], "offset": 1}, "dims": dims})
            cases.append({"op": "sum", "input": spec, "view": {"shape": [20, 70], "strides": [140, 1], "offset": 70}, "dims": dims})
            cases.append({"op": "sum", "input": spec, "view": {"shape": [30, 70], "strides": [0, 1], "offset": 0}, "dims": dims})

    def run(case):
        x = tensor(case["input"], case["view"])
        dims = case["dims"]
        f = {"sum": torch.sum, "mean": torch.mean, "nansum": torch.nansum}[case["op"]]
        return f(x, dim=dims) if dims else f(x)
    return cases, run


UNARY_LENGTHS = list(range(1, 41)) + [63, 64, 65, 100, 1000, 4097]

# name -> (torch call, generator ranges); every op also gets the edge values below
UNARY_OPS = {
    "sigmoid": (lambda t: t.sigmoid(), [("n", 0.0, 6.0), ("u", -100.0, 100.0)]),
    "log1p": (lambda t: t.log1p(), [("u", -0.999, 5.0), ("b", -30, 30)]),
    "expm1": (lambda t: t.expm1(), [("u", -20.0, 20.0), ("b", -30, 6)]),
    "rsqrt": (lambda t: t.rsqrt(), [("u", 0.0, 100.0), ("b", -60, 60)]),
    "reciprocal": (lambda t: t.reciprocal(), [("n", 0.0, 3.0), ("b", -60, 60)]),
    "gelu": (lambda t: __import__("torch").nn.functional.gelu(t), [("n", 0.0, 3.0), ("u", -10.0, 10.0)]),
    "gelu_tanh": (lambda t: __import__("torch").nn.functional.gelu(t, approximate="tanh"), [("n", 0.0, 3.0), ("u", -10.0, 10.0)]),
    "silu": (lambda t: __import__("torch").nn.functional.silu(t), [("n", 0.0, 4.0), ("u", -90.0, 90.0)]),
    "softplus": (lambda t: __import__("torch").nn.functional.softplus(t), [("n", 0.0, 8.0), ("u", -30.0, 30.0)]),
    "softplus_b2": (lambda t: __import__("torch").nn.functional.softplus(t, beta=2.0, threshold=5.0), [("n", 0.0, 4.0)]),
    "elu": (lambda t: __import__("torch").nn.functional.elu(t), [("n", 0.0, 3.0), ("u", -20.0, 5.0)]),
    "elu_a05": (lambda t: __import__("torch").nn.functional.elu(t, alpha=0.5), [("n", 0.0, 3.0)]),
    "leaky_relu": (lambda t: __import__("torch").nn.functional.leaky_relu(t), [("n", 0.0, 3.0)]),
    "pow2": (lambda t: t ** 2, [("n", 0.0, 3.0), ("b", -60, 60)]),
    "pow3": (lambda t: t ** 3, [("n", 0.0, 3.0)]),
    "pow_m2": (lambda t: t ** -2, [("n", 0.0, 3.0)]),
    "pow_m05": (lambda t: t ** -0.5, [("u", 0.0, 50.0)]),
    "pow_25": (lambda t: t ** 2.5, [("u", 0.0, 10.0), ("n", 0.0, 3.0)]),
    "pow_13": (lambda t: t ** 1.3, [("u", 0.0, 100.0)]),
    "pow_m13": (lambda t: t ** -1.3, [("u", 0.0, 100.0)]),
}

EDGE = [0.0, -0.0, 1.0, -1.0, float("inf"), -float("inf"), float("nan"), 1e-45, -1e-45, 1e-38,
        3.4e38, -3.4e38, 88.7, 88.8, -87.3, -103.9, -104.1, 100.1, 20.0, 20.5, -0.999999, 0.5, 2.0]


def unary_params(name):
    return {
        "softplus": {"beta": 1.0, "threshold": 20.0},
        "softplus_b2": {"beta": 2.0, "threshold": 5.0},
        "elu": {"alpha": 1.0},
        "elu_a05": {"alpha": 0.5},
        "leaky_relu": {"slope": 0.01},
        "pow2": {"exponent": 2.0}, "pow3": {"exponent": 3.0}, "pow_m2": {"exponent": -2.0},
        "pow_m05": {"exponent": -0.5}, "pow_25": {"exponent": 2.5}, "pow_13": {"exponent": 1.3},
        "pow_m13": {"exponent": -1.3},
    }.get(name, {})


def spec_for(kind, seed, n, a, b):
    if kind == "n":
        return nrm(seed, n, a, b)
    if kind == "u":
        return u(seed, n, a, b)
    return bits(seed, n, int(a), int(b))


def family_unary():
    cases = []
    seed = 5000
    for name, (fn, ranges) in UNARY_OPS.items():
        params = unary_params(name)
        for kind, a, b in ranges:
            for n in UNARY_LENGTHS:
                seed += 1
                cases.append({"op": name, "params": params, "input": spec_for(kind, seed, n, a, b), "view": contiguous_view([n])})
            # strided views: a transpose, every other element, a broadcast scalar
            seed += 1
            cases.append({"op": name, "params": params, "input": spec_for(kind, seed, 37 * 29, a, b), "view": permuted_view([37, 29], [1, 0])})
            seed += 1
            cases.append({"op": name, "params": params, "input": spec_for(kind, seed, 2 * 45, a, b), "view": {"shape": [45], "strides": [2], "offset": 1}})
            seed += 1
            cases.append({"op": name, "params": params, "input": spec_for(kind, seed, 3 * 70, a, b), "view": {"shape": [3, 40], "strides": [70, 1], "offset": 5}})
            seed += 1
            cases.append({"op": name, "params": params, "input": spec_for(kind, seed, 1, a, b), "view": {"shape": [40], "strides": [0], "offset": 0}})
        edge = vals(EDGE * 2)
        cases.append({"op": name, "params": params, "input": edge, "view": contiguous_view([2 * len(EDGE)])})

    def run(case):
        return UNARY_OPS[case["op"]][0](tensor(case["input"], case["view"]))
    return cases, run


def softmax_layouts():
    """The (shape, numel, dim) each softmax is recorded over: every dim of the shapes below but
    dim 0 of a [1, c] row (a softmax over a single element)."""
    shapes = [[1, c] for c in list(range(1, 41)) + [63, 64, 65, 100, 1000]] + \
             [[3, 7], [5, 17], [4, 33], [64, 10], [2, 3, 40], [8, 16, 3], [3, 5, 70], [2, 200, 20],
              [10, 37], [37, 10], [6, 1, 5]]
    for shape in shapes:
        for dim in range(len(shape)):
            if not (shape[0] == 1 and dim == 0 and len(shape) == 2):
                yield shape, numel(shape), dim


def softmax_inputs(cases, seed, op, shape, dim, dtype):
    """Appends `op` of a normal and of a uniform input of `dtype` over `dim` of `shape`, each
    drawn with the next seed; returns the last seed drawn."""
    n = numel(shape)
    for kind in ("n", "u"):
        seed += 1
        spec = nrm(seed, n, 0.0, 3.0, dtype) if kind == "n" else u(seed, n, -30.0, 30.0, dtype)
        cases.append({"op": op, "input": spec, "shape": shape, "dim": dim})
    return seed


def reduction_layouts():
    """The (shape, numel, view, dim sets) the reductions over dims are recorded over: each shape
    below contiguous and with its dims reversed; each single dim, and the first with the last."""
    for shape in ([3, 5], [7, 33], [33, 7], [4, 1000], [2, 3, 40], [5, 17, 19], [1, 50]):
        nd = len(shape)
        for view in (contiguous_view(shape), permuted_view(shape, list(reversed(range(nd))))):
            yield shape, numel(shape), view, [[d] for d in range(nd)] + ([[0, nd - 1]] if nd >= 2 else [])


def family_softmax():
    import torch
    cases = []
    seed = 9000
    for shape, n, dim in softmax_layouts():
        for op in ("softmax", "log_softmax"):
            seed = softmax_inputs(cases, seed, op, shape, dim, "f32")
            seed += 2
            cases.append({"op": op + "_backward", "input": nrm(seed, n, 0.0, 2.0), "grad": nrm(seed + 1, n, 0.0, 1.0), "shape": shape, "dim": dim})
    edge_rows = [[0.0, 1e30, -1e30, 5.0], [float("-inf"), 1.0, 2.0, float("-inf")], [float("nan"), 1.0, 2.0, 3.0],
                 [3.0] * 20, [-0.0, -0.0], [-0.0], [float("inf"), 1.0], [88.0, -88.0, 0.0, 1.0] * 5]
    for row in edge_rows:
        for op in ("softmax", "log_softmax"):
            cases.append({"op": op, "input": vals(row), "shape": [1, len(row)], "dim": 1})

    def run(case):
        x = tensor(case["input"]).reshape(case["shape"])
        d = case["dim"]
        if case["op"] == "softmax":
            return torch.softmax(x, d)
        if case["op"] == "log_softmax":
            return torch.log_softmax(x, d)
        g = tensor(case["grad"]).reshape(case["shape"])
        if case["op"] == "softmax_backward":
            out = torch.softmax(x, d)
            return torch._softmax_backward_data(g, out, d, torch.float32)
        out = torch.log_softmax(x, d)
        return torch._log_softmax_backward_data(g, out, d, torch.float32)
    return cases, run


def targets(spec, ignore):
    """Class-index targets from an `ints` spec; -1 becomes the ignore index -100."""
    import torch
    t = tensor(spec).long()
    if ignore:
        t[t == -1] = -100
    return t


def family_loss():
    import torch
    import torch.nn.functional as F
    cases = []
    seed = 20000
    red = ("mean", "sum", "none")
    # cross_entropy with class indices: (N, C), (C,), (N, C, L)
    for shape in ([1, 3], [3, 5], [16, 10], [64, 10], [100, 17], [5, 100], [7, 2], [4, 3, 6], [2, 5, 3, 4]):
        n, c = (1, shape[0]) if len(shape) == 1 else (shape[0], shape[1])
        tshape = [shape[0]] + shape[2:]
        for reduction in red:
            for variant in ("plain", "weight", "ignore", "smooth", "smooth_weight", "smooth_ignore"):
                seed += 3
                case = {"op": "cross_entropy", "input": nrm(seed, numel(shape), 0.0, 2.0), "shape": shape,
                        "target": ints(seed + 1, numel(tshape), -1 if "ignore" in variant else 0, c - 1),
                        "tshape": tshape, "reduction": reduction, "ignore": "ignore" in variant,
                        "smoothing": 0.1 if "smooth" in variant else 0.0}
                if "weight" in variant:
                    case["weight"] = u(seed + 2, c, 0.1, 2.0)
                cases.append(case)
    for reduction in red:
        seed += 3
        cases.append({"op": "cross_entropy", "input": nrm(seed, 7, 0.0, 2.0), "shape": [7], "target": ints(seed + 1, 1, 0, 6),
                      "tshape": [], "reduction": reduction, "ignore": False, "smoothing": 0.0})
    # cross_entropy with class probabilities
    for shape in ([3, 5], [16, 10], [4, 3, 6]):
        for reduction in red:
            for smoothing in (0.0, 0.2):
                seed += 3
                cases.append({"op": "cross_entropy_probs", "input": nrm(seed, numel(shape), 0.0, 2.0), "shape": shape,
                              "probs": u(seed + 1, numel(shape), 0.0, 1.0), "reduction": reduction, "smoothing": smoothing})
    # nll_loss on log-probabilities, and the cross-entropy gradient
    for shape in ([8, 5], [100, 10], [3, 4, 5]):
        c = shape[1]
        tshape = [shape[0]] + shape[2:]
        for reduction in red:
            for w in (False, True):
                seed += 3
                case = {"op": "nll_loss", "input": u(seed, numel(shape), -5.0, 0.0), "shape": shape,
                        "target": ints(seed + 1, numel(tshape), -1, c - 1), "tshape": tshape, "reduction": reduction,
                        "ignore": True}
                if w:
                    case["weight"] = u(seed + 2, c, 0.1, 2.0)
                cases.append(case)
                grad_case = dict(case, op="cross_entropy_backward", input=nrm(seed, numel(shape), 0.0, 2.0))
                cases.append(grad_case)
    # elementwise losses
    for n in (1, 7, 16, 33, 100, 1000, 4097):
        for reduction in red:
            seed += 4
            a, b = nrm(seed, n, 0.0, 2.0), nrm(seed + 1, n, 0.0, 2.0)
            for op, extra in (("mse_loss", {}), ("l1_loss", {}), ("smooth_l1_loss", {"beta": 1.0}),
                              ("smooth_l1_loss", {"beta": 0.5}), ("smooth_l1_loss", {"beta": 0.0}),
                              ("huber_loss", {"delta": 1.0}), ("huber_loss", {"delta": 2.5}),
                              ("mse_loss_backward", {}), ("bce_with_logits", {}),
                              ("bce_with_logits", {"weighted": True}), ("bce_with_logits", {"pos_weighted": True}),
                              ("bce_with_logits_backward", {}), ("bce_with_logits_backward", {"weighted": True, "pos_weighted": True}),
                              ("smooth_l1_loss_backward", {"beta": 1.0}), ("smooth_l1_loss_backward", {"beta": 0.3}),
                              ("huber_loss_backward", {"delta": 1.0}), ("huber_loss_backward", {"delta": 0.4})):
                case = {"op": op, "input": a, "target": b, "n": n, "reduction": reduction}
                case.update(extra)
                if op.startswith("bce_with_logits"):
                    case["target"] = u(seed + 2, n, 0.0, 1.0)
                    case["weight"] = u(seed + 3, n, 0.5, 1.5)
                cases.append(case)
            p = u(seed + 2, n, 0.0, 1.0)
            for op, extra in (("bce", {}), ("bce", {"weighted": True}), ("bce_backward", {})):
                case = {"op": op, "input": p, "target": u(seed + 3, n, 0.0, 1.0), "weight": u(seed, n, 0.5, 1.5),
                        "n": n, "reduction": reduction}
                case.update(extra)
                cases.append(case)
    cases.append({"op": "bce", "input": vals([0.0, 1.0, 1e-30, 1.0 - 2**-24]), "target": vals([0.0, 1.0, 0.5, 0.25]),
                  "n": 4, "reduction": "none"})

    def run(case):
        op = case["op"]
        reduction = case["reduction"]
        if op in ("cross_entropy", "nll_loss", "cross_entropy_backward"):
            x = tensor(case["input"]).reshape(case["shape"])
            t = targets(case["target"], case["ignore"]).reshape(case["tshape"])
            w = tensor(case["weight"]) if "weight" in case else None
            if op == "cross_entropy":
                return F.cross_entropy(x, t, weight=w, reduction=reduction, label_smoothing=case["smoothing"])
            if op == "nll_loss":
                return F.nll_loss(x, t, weight=w, reduction=reduction)
            x.requires_grad_(True)
            loss = F.cross_entropy(x, t, weight=w, reduction=reduction)
            g = torch.ones_like(loss) if reduction != "none" else tensor(nrm(7, loss.numel(), 0.0, 1.0)).reshape(loss.shape)
            loss.backward(g)
            return x.grad
        if op == "cross_entropy_probs":
            x = tensor(case["input"]).reshape(case["shape"])
            p = tensor(case["probs"]).reshape(case["shape"])
            return F.cross_entropy(x, p, reduction=reduction, label_smoothing=case["smoothing"])
        a, b = tensor(case["input"]), tensor(case["target"])
        if op == "mse_loss":
            return F.mse_loss(a, b, reduction=reduction)
        if op == "mse_loss_backward":
            a.requires_grad_(True)
            loss = F.mse_loss(a, b, reduction=reduction)
            loss.backward(torch.ones_like(loss) if reduction != "none" else tensor(nrm(7, loss.numel(), 0.0, 1.0)))
            return a.grad
        if op == "l1_loss":
            return F.l1_loss(a, b, reduction=reduction)
        if op == "smooth_l1_loss":
            return F.smooth_l1_loss(a, b, reduction=reduction, beta=case["beta"])
        if op == "huber_loss":
            return F.huber_loss(a, b, reduction=reduction, delta=case["delta"])
        w = tensor(case["weight"]) if "weight" in case else None
        if op == "bce":
            return F.binary_cross_entropy(a, b, weight=w if case.get("weighted") else None, reduction=reduction)
        if op == "bce_backward":
            a.requires_grad_(True)
            loss = F.binary_cross_entropy(a, b, reduction=reduction)
            loss.backward(torch.ones_like(loss) if reduction != "none" else tensor(nrm(7, loss.numel(), 0.0, 1.0)))
            return a.grad
        if op in ("smooth_l1_loss_backward", "huber_loss_backward", "bce_with_logits_backward"):
            a.requires_grad_(True)
            if op == "smooth_l1_loss_backward":
                loss = F.smooth_l1_loss(a, b, reduction=reduction, beta=case["beta"])
            elif op == "huber_loss_backward":
                loss = F.huber_loss(a, b, reduction=reduction, delta=case["delta"])
            else:
                loss = F.binary_cross_entropy_with_logits(
                    a, b, weight=w if case.get("weighted") else None,
                    pos_weight=(w if case.get("pos_weighted") else None), reduction=reduction)
            loss.backward(torch.ones_like(loss) if reduction != "none" else tensor(nrm(7, loss.numel(), 0.0, 1.0)))
            return a.grad
        if op == "bce_with_logits":
            return F.binary_cross_entropy_with_logits(
                a, b, weight=w if case.get("weighted") else None,
                pos_weight=(w if case.get("pos_weighted") else None), reduction=reduction)
        raise ValueError(op)
    return cases, run


def family_stats():
    """var/std (all elements, along dims), vector norms, cumsum/cumprod."""
    import torch
    cases = []
    seed = 30000
    for n in (1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 100, 1000, 4097, 100003):
        for op in ("var", "std"):
            for correction in (1, 0, 2):
                seed += 1
                cases.append({"op": op, "input": nrm(seed, n, 3.0, 2.0), "view": contiguous_view([n]), "dims": [], "correction": correction})
        for p in (2, 1, "inf", 3, 0.5):
            seed += 1
            cases.append({"op": "norm", "input": nrm(seed, n, 0.0, 2.0), "view": contiguous_view([n]), "dims": [], "p": p})
        for op in ("cumsum", "cumprod"):
            seed += 1
            spec = u(seed, n, 0.9, 1.1) if op == "cumprod" else nrm(seed, n, 0.0, 2.0)
            cases.append({"op": op, "input": spec, "view": contiguous_view([n]), "dim": 0})
    for shape, n, view, dim_sets in reduction_layouts():
        for dims in dim_sets:
            for op in ("var", "std", "var_mean"):
                seed += 1
                cases.append({"op": op, "input": nrm(seed, n, 1.0, 2.0), "view": view, "dims": dims, "correction": 1})
            for p in (2, 1, "inf"):
                seed += 1
                cases.append({"op": "norm", "input": nrm(seed, n, 0.0, 2.0), "view": view, "dims": dims, "p": p})
        for d in range(len(shape)):
            for op in ("cumsum", "cumprod"):
                seed += 1
                spec = u(seed, n, 0.9, 1.1) if op == "cumprod" else nrm(seed, n, 0.0, 2.0)
                cases.append({"op": op, "input": spec, "view": view, "dim": d})
    cases.append({"op": "cumsum", "input": {"kind": "linspace"}, "view": contiguous_view([17]), "dim": 0})

    def run(case):
        op = case["op"]
        if case["input"].get("kind") == "linspace":
            x = torch.linspace(0.1, 1.7, 17)
        else:
            x = tensor(case["input"], case["view"])
        if op in ("var", "std", "var_mean"):
            f = {"var": torch.var, "std": torch.std, "var_mean": torch.var_mean}[op]
            r = f(x, dim=case["dims"], correction=case["correction"]) if case["dims"] else f(x, correction=case["correction"])
            return torch.cat([r[0].reshape(-1), r[1].reshape(-1)]) if op == "var_mean" else r
        if op == "norm":
            p = float("inf") if case["p"] == "inf" else case["p"]
            return torch.linalg.vector_norm(x, p, dim=case["dims"] or None)
        if op == "cumsum":
            return torch.cumsum(x, case["dim"])
        return torch.cumprod(x, case["dim"])
    return cases, run


def family_range():
    import torch
    cases = []
    for start, end, steps in ((0.1, 1.7, 17), (0.0, 1.0, 5), (0.0, 1.0, 11), (-1.0, 1.0, 100), (0.0, 10.0, 1000),
                              (1e-3, 3.0, 33), (-5.5, 7.25, 4097), (0.0, 1.0, 1), (2.0, 2.0, 7), (3.0, -3.0, 25),
                              (0.0, 6.283185307179586, 50), (-100.0, 100.0, 64), (1.0, 2.0, 2), (0.5, 1e6, 257)):
        cases.append({"op": "linspace", "start": start, "end": end, "steps": steps})
    for start, end, step in ((0.0, 1.0, 0.1), (0.0, 5.0, 1.0), (-3.0, 3.0, 0.25), (0.0, 10.0, 0.3), (1.0, 100.0, 0.7),
                             (0.0, 1.0, 0.01), (5.0, -5.0, -0.35), (0.1, 2.0, 0.1), (0.0, 1000.0, 1.1),
                             (-1.0, 1.0, 2.0 / 3.0)):
        cases.append({"op": "arange", "start": start, "end": end, "step": step})

    def run(case):
        if case["op"] == "linspace":
            return torch.linspace(case["start"], case["end"], case["steps"])
        return torch.arange(case["start"], case["end"], case["step"])
    return cases, run


BACKWARD_OPS = {
    # name -> (forward, uses output y instead of x, params)
    "relu": (lambda t: __import__("torch").relu(t), False, {}),
    "sigmoid": (lambda t: t.sigmoid(), True, {}),
    "tanh": (lambda t: t.tanh(), True, {}),
    "gelu": (lambda t: __import__("torch").nn.functional.gelu(t), False, {}),
    "gelu_tanh": (lambda t: __import__("torch").nn.functional.gelu(t, approximate="tanh"), False, {}),
    "silu": (lambda t: __import__("torch").nn.functional.silu(t), False, {}),
    "softplus": (lambda t: __import__("torch").nn.functional.softplus(t), False, {"beta": 1.0, "threshold": 20.0}),
    "elu": (lambda t: __import__("torch").nn.functional.elu(t), False, {"alpha": 1.0}),
    "leaky_relu": (lambda t: __import__("torch").nn.functional.leaky_relu(t, 0.01), False, {"slope": 0.01}),
}


def family_pointwise():
    """Scalar-operand arithmetic (add/sub alpha, mul/div, addcmul, addcdiv, lerp) and the
    activation backward kernels (through autograd)."""
    import torch
    cases = []
    seed = 40000
    for n in (1, 5, 15, 16, 17, 31, 32, 33, 64, 100, 1000):
        seed += 10
        a, b, c = nrm(seed, n, 0.0, 2.0), nrm(seed + 1, n, 0.0, 2.0), u(seed + 2, n, 0.5, 3.0)
        for op, s in (("add", 0.3), ("add", -0.001), ("add", 1.0), ("sub", 0.7), ("mul", 0.1), ("div", 0.3), ("div", 7.0),
                      ("addcmul", 0.001), ("addcmul", -0.5), ("addcdiv", -0.01), ("addcdiv", 3.0),
                      ("lerp", 0.1), ("lerp", 0.9), ("lerp", 0.5), ("lerp", 0.001)):
            cases.append({"op": op, "a": a, "b": b, "c": c, "s": s, "n": n})
        for name in BACKWARD_OPS:
            seed += 2
            x = nrm(seed, n, 0.0, 3.0)
            cases.append({"op": "backward", "fn": name, "params": BACKWARD_OPS[name][2], "x": x, "g": nrm(seed + 1, n, 0.0, 1.0), "n": n})

    def run(case):
        op = case["op"]
        if op == "backward":
            fwd, uses_output, _ = BACKWARD_OPS[case["fn"]]
            x = tensor(case["x"]).requires_grad_(True)
            y = fwd(x)
            if uses_output:
                # the saved output, so the backward is checked on PyTorch's own forward
                case["y"] = encode(y)
            y.backward(tensor(case["g"]))
            return x.grad
        a, b, c, s = tensor(case["a"]), tensor(case["b"]), tensor(case["c"]), case["s"]
        if op == "add":
            return a.add(b, alpha=s)
        if op == "sub":
            return a.sub(b, alpha=s)
        if op == "mul":
            return a * s
        if op == "div":
            return a / s
        if op == "addcmul":
            return a.addcmul(b, c, value=s)
        if op == "addcdiv":
            return a.addcdiv(b, c, value=s)
        return a.lerp(b, s)
    return cases, run


def family_optim():
    """Optimizer steps on one parameter with seeded gradients; the parameter after each step."""
    import torch
    cases = []
    seed = 50000
    configs = [
        ("sgd", {"lr": 0.1}), ("sgd", {"lr": 0.01, "momentum": 0.9}),
        ("sgd", {"lr": 0.01, "momentum": 0.9, "nesterov": True, "weight_decay": 1e-4}),
        ("sgd", {"lr": 0.05, "momentum": 0.5, "dampening": 0.1, "weight_decay": 0.01, "maximize": True}),
        ("adam", {"lr": 1e-3}), ("adam", {"lr": 0.01, "betas": (0.8, 0.99), "weight_decay": 0.01}),
        ("adam", {"lr": 0.01, "amsgrad": True}), ("adamw", {"lr": 1e-3}), ("adamw", {"lr": 0.01, "weight_decay": 0.1}),
        ("rmsprop", {"lr": 0.01}), ("rmsprop", {"lr": 0.01, "momentum": 0.9, "centered": True, "weight_decay": 0.001}),
    ]
    for n in (1, 7, 16, 33, 1000):
        for name, kw in configs:
            seed += 1
            cases.append({"op": name, "kw": kw, "n": n, "param": nrm(seed, n, 0.0, 1.0), "grad_seed": seed * 100, "steps": 5})

    def run(case):
        p = torch.nn.Parameter(tensor(case["param"]))
        cls = {"sgd": torch.optim.SGD, "adam": torch.optim.Adam, "adamw": torch.optim.AdamW, "rmsprop": torch.optim.RMSprop}[case["op"]]
        opt = cls([p], **case["kw"])
        out = []
        sqrt_pairs = {}
        for k in range(case["steps"]):
            p.grad = tensor(nrm(case["grad_seed"] + k, case["n"], 0.0, 1.0))
            opt.step()
            out.append(p.detach().clone())
            # The square roots PyTorch (MKL) took this step, as input -> output bit patterns.
            st = opt.state[p]
            if case["op"] in ("adam", "adamw"):
                src = st["max_exp_avg_sq"] if case["kw"].get("amsgrad") else st["exp_avg_sq"]
            elif case["op"] == "rmsprop":
                src = st["square_avg"]
                if case["kw"].get("centered"):
                    src = src.addcmul(st["grad_avg"], st["grad_avg"], value=-1)
            else:
                continue
            import numpy as np
            for a, b in zip(src.reshape(-1).numpy().view(np.uint32), src.sqrt().reshape(-1).numpy().view(np.uint32)):
                sqrt_pairs[f"{int(a):08x}"] = f"{int(b):08x}"
        if sqrt_pairs:
            case["sqrt"] = sqrt_pairs
        return torch.cat(out)
    return cases, run


MKL_OPS = {
    "exp": (lambda t: t.exp(), [("n", 0.0, 5.0), ("u", -87.0, 88.0)]),
    "log": (lambda t: t.log(), [("u", 0.0, 10.0), ("b", -60, 60)]),
    "log2": (lambda t: t.log2(), [("u", 0.0, 10.0)]),
    "log10": (lambda t: t.log10(), [("u", 0.0, 10.0)]),
    "sqrt": (lambda t: t.sqrt(), [("u", 0.0, 10.0), ("b", -60, 60)]),
    "pow05": (lambda t: t ** 0.5, [("u", 0.0, 10.0)]),
    "tanh": (lambda t: t.tanh(), [("n", 0.0, 3.0)]),
    "sin": (lambda t: t.sin(), [("n", 0.0, 5.0)]),
    "cos": (lambda t: t.cos(), [("n", 0.0, 5.0)]),
    "tan": (lambda t: t.tan(), [("u", -1.5, 1.5)]),
    "erf": (lambda t: t.erf(), [("n", 0.0, 2.0)]),
    "erfc": (lambda t: t.erfc(), [("n", 0.0, 2.0)]),
}


def family_mkl():
    """Ops PyTorch computes in MKL: large samples whose agreement rate with the stand-ins is
    measured (tests/numerics_exact.rs mkl_stand_ins), plus logsumexp rows."""
    import torch
    cases = []
    seed = 60000
    for name, (fn, ranges) in MKL_OPS.items():
        for kind, a, b in ranges:
            seed += 1
            cases.append({"op": name, "input": spec_for(kind, seed, 1000, a, b)})
    for shape, dims in (([1000], []), ([16, 10], [1]), ([10, 37], [0]), ([3, 4, 50], [2]), ([64, 100], [1])):
        seed += 1
        cases.append({"op": "logsumexp", "input": nrm(seed, numel(shape), 0.0, 3.0), "view": contiguous_view(shape), "dims": dims})

    def run(case):
        if case["op"] == "logsumexp":
            return torch.logsumexp(tensor(case["input"], case["view"]), dim=case["dims"] or list(range(len(case["view"]["shape"]))))
        return MKL_OPS[case["op"]][0](tensor(case["input"]))
    return cases, run


def family_extrema():
    """prod, amax/amin, argmax/argmin."""
    import torch
    cases = []
    seed = 70000
    for n in (1, 7, 8, 31, 32, 33, 63, 64, 65, 100, 1000, 4097):
        seed += 1
        cases.append({"op": "prod", "input": u(seed, n, 0.5, 1.5), "view": contiguous_view([n]), "dims": []})
    for shape in ([7, 33], [33, 7], [4, 100], [100, 4], [3, 70, 5], [64, 64]):
        nd = len(shape)
        for view in (contiguous_view(shape), permuted_view(shape, list(reversed(range(nd))))):
            for dims in [[d] for d in range(nd)] + [[]]:
                seed += 1
                cases.append({"op": "prod", "input": u(seed, numel(shape), 0.8, 1.25), "view": view, "dims": dims})
                seed += 1
                for op in ("amax", "amin"):
                    cases.append({"op": op, "input": nrm(seed, numel(shape), 0.0, 1.0), "view": view, "dims": dims})
            for d in range(nd):
                seed += 1
                for op in ("argmax", "argmin"):
                    cases.append({"op": op, "input": ints(seed, numel(shape), -3, 3), "view": view, "dim": d})
    edge = vals([1.0, float("nan"), 3.0, 3.0, -float("inf"), 2.0, float("nan"), -5.0])
    for op in ("amax", "amin"):
        cases.append({"op": op, "input": edge, "view": contiguous_view([8]), "dims": []})
    for op in ("argmax", "argmin"):
        cases.append({"op": op, "input": edge, "view": contiguous_view([8]), "dim": 0})
        cases.append({"op": op, "input": vals([2.0, 5.0, 5.0, -1.0, -1.0]), "view": contiguous_view([5]), "dim": 0})

    def run(case):
        x = tensor(case["input"], case["view"])
        op = case["op"]
        if op == "prod":
            if case["dims"]:
                return torch.prod(x, case["dims"][0])
            return torch.prod(x)
        if op in ("amax", "amin"):
            f = torch.amax if op == "amax" else torch.amin
            return f(x, dim=case["dims"]) if case["dims"] else f(x)
        f = torch.argmax if op == "argmax" else torch.argmin
        return f(x, dim=case["dim"])
    return cases, run

F64_EDGE = [0.0, -0.0, 1.0, -1.0, float("inf"), -float("inf"), float("nan"), 5e-324, -5e-324,
            2.2250738585072014e-308, 1e-310, -1e-310, 1.7e308, -1.7e308, 1e307, 1e300, -1e300,
            709.7, 709.8, -745.1, -745.2, -1000.5, 36.0, -36.8, -37.0, 18.7, 19.0, 2.5, 2.6,
            5.99, 6.0, 1e-9, -1e-9, -0.999999, 0.5, 2.0, 20.0, 20.5, -20.0]


def f64_unary_ops():
    import torch
    import torch.nn.functional as F
    return {
        "log1p": (torch.log1p, [("u", -0.99, 10.0), ("b", -30, 30)]),
        "expm1": (torch.expm1, [("n", 0.0, 5.0), ("b", -30, 10)]),
        "sigmoid": (torch.sigmoid, [("n", 0.0, 5.0)]),
        "silu": (F.silu, [("n", 0.0, 5.0)]),
        "softplus": (F.softplus, [("n", 0.0, 10.0)]),
        "softplus_b3": (lambda t: F.softplus(t, beta=3, threshold=0.2), [("n", 0.0, 1.0)]),
        "elu": (F.elu, [("n", 0.0, 3.0)]),
        "celu_a05": (lambda t: F.celu(t, alpha=0.5), [("n", 0.0, 3.0)]),
        "selu": (F.selu, [("n", 0.0, 3.0)]),
        "mish": (F.mish, [("n", 0.0, 5.0)]),
        "gelu": (F.gelu, [("n", 0.0, 3.0), ("u", -8.0, 8.0)]),
        "gelu_tanh": (lambda t: F.gelu(t, approximate="tanh"), [("n", 0.0, 3.0)]),
        "logsigmoid": (F.logsigmoid, [("n", 0.0, 10.0)]),
        "sinh": (torch.sinh, [("n", 0.0, 4.0), ("u", -720.0, 720.0)]),
        "cosh": (torch.cosh, [("n", 0.0, 4.0), ("u", -720.0, 720.0)]),
    }


def family_double():
    """float64 kernels on SLEEF's double functions (softmax, log_softmax, log1p, expm1 and the
    activations), and the double reductions (var/std/var_mean, prod, p=2 norm); var_mean of
    float32 over every element."""
    import torch
    cases = []
    seed = 70000
    ops = f64_unary_ops()
    for name, (_, ranges) in ops.items():
        for kind, a, b in ranges:
            for n in (1, 2, 7, 15, 16, 17, 31, 32, 33, 40, 100, 1000):
                seed += 1
                spec = nrm(seed, n, a, b, "f64") if kind == "n" else u(seed, n, a, b, "f64") if kind == "u" else bits(seed, n, a, b, "f64")
                cases.append({"op": name, "input": spec, "view": contiguous_view([n])})
            seed += 1
            spec = nrm(seed, 37 * 29, 0.0, 3.0, "f64")
            cases.append({"op": name, "input": spec, "view": permuted_view([37, 29], [1, 0])})
            seed += 1
            cases.append({"op": name, "input": nrm(seed, 3 * 70, 0.0, 3.0, "f64"), "view": {"shape": [3, 40], "strides": [70, 1], "offset": 5}})
            seed += 1
            cases.append({"op": name, "input": nrm(seed, 1, 0.0, 3.0, "f64"), "view": {"shape": [40], "strides": [0], "offset": 0}})
        cases.append({"op": name, "input": vals(F64_EDGE * 2, "f64"), "view": contiguous_view([2 * len(F64_EDGE)])})
    for shape, _, dim in softmax_layouts():
        for op in ("softmax", "log_softmax"):
            seed = softmax_inputs(cases, seed, op, shape, dim, "f64")
    edge_rows = [[0.0, 1e300, -1e300, 5.0], [float("-inf"), 1.0, 2.0, float("-inf")], [float("nan"), 1.0, 2.0, 3.0],
                 [3.0] * 20, [-0.0, -0.0], [-0.0], [float("inf"), 1.0], [700.0, -700.0, 0.0, 1.0] * 5, [5e-324, 0.0, -5e-324]]
    for row in edge_rows:
        for op in ("softmax", "log_softmax"):
            cases.append({"op": op, "input": vals(row, "f64"), "shape": [1, len(row)], "dim": 1})
    for n in (1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 100, 1000, 4097):
        for op in ("var", "std", "var_mean", "std_mean"):
            for correction in (1, 0):
                seed += 1
                cases.append({"op": op, "input": nrm(seed, n, 3.0, 2.0, "f64"), "view": contiguous_view([n]), "dims": [], "correction": correction})
        seed += 1
        cases.append({"op": "var_mean", "input": nrm(seed, n, 3.0, 2.0), "view": contiguous_view([n]), "dims": [], "correction": 1})
        seed += 1
        cases.append({"op": "prod", "input": u(seed, n, 0.5, 1.5, "f64"), "view": contiguous_view([n]), "dims": []})
        if n > 1:  # a norm over one element is |x|, not the vector path
            seed += 1
            cases.append({"op": "norm2", "input": nrm(seed, n, 0.0, 2.0, "f64"), "view": contiguous_view([n]), "dims": []})
    for shape, n, view, dim_sets in reduction_layouts():
        for dims in dim_sets:
            for op in ("var", "std", "var_mean", "prod"):
                if op == "prod" and (len(dims) > 1 or view["shape"][dims[0]] == 1):
                    continue  # torch.prod takes one dim; over a size-1 dim it is a copy
                seed += 1
                spec = u(seed, n, 0.5, 1.5, "f64") if op == "prod" else nrm(seed, n, 1.0, 2.0, "f64")
                cases.append({"op": op, "input": spec, "view": view, "dims": dims, "correction": 1})
        if view == contiguous_view(shape):
            seed += 1
            cases.append({"op": "norm2", "input": nrm(seed, n, 0.0, 2.0, "f64"), "view": view, "dims": [len(shape) - 1]})

    def run(case):
        op = case["op"]
        if op in ("softmax", "log_softmax"):
            x = tensor(case["input"]).reshape(case["shape"])
            return (torch.softmax if op == "softmax" else torch.log_softmax)(x, case["dim"])
        x = tensor(case["input"], case["view"])
        if op in ops:
            return ops[op][0](x)
        dims = case["dims"] or None
        if op in ("var", "std", "var_mean", "std_mean"):
            f = {"var": torch.var, "std": torch.std, "var_mean": torch.var_mean, "std_mean": torch.std_mean}[op]
            r = f(x, dim=dims, correction=case["correction"])
            return torch.cat([r[0].reshape(-1), r[1].reshape(-1)]) if op.endswith("_mean") else r
        if op == "prod":
            return torch.prod(x) if dims is None else torch.prod(x, dims[0])
        return torch.linalg.vector_norm(x, 2, dim=dims)
    return cases, run


def family_binary():
    """float32 atan2 and pow of two tensors: rows of several lengths, a broadcast scalar
    operand, a transposed pair, edge values."""
    import torch
    cases = []
    seed = 90000
    edge = [0.0, -0.0, 1.0, -1.0, float("inf"), -float("inf"), float("nan"), 1e-45, -1e-45, 3e-39,
            2.0, 0.5, 100.0, -3.0]
    for op in ("atan2", "pow"):
        for n in (1, 7, 16, 17, 31, 32, 33, 50, 64, 100, 1000):
            seed += 2
            a = u(seed, n, 0.01, 8.0) if op == "pow" else nrm(seed, n, 0.0, 3.0)
            b = u(seed + 1, n, -4.0, 4.0) if op == "pow" else nrm(seed + 1, n, 0.0, 3.0)
            cases.append({"op": op, "a": a, "b": b, "av": contiguous_view([n]), "bv": contiguous_view([n])})
            # a broadcast scalar on either side (a 0-dim tensor operand)
            cases.append({"op": op, "a": a, "b": b, "av": contiguous_view([n]), "bv": {"shape": [n], "strides": [0], "offset": 0}})
            cases.append({"op": op, "a": a, "b": b, "av": {"shape": [n], "strides": [0], "offset": 0}, "bv": contiguous_view([n])})
        seed += 2
        a = u(seed, 37 * 29, 0.01, 8.0) if op == "pow" else nrm(seed, 37 * 29, 0.0, 3.0)
        b = u(seed + 1, 37 * 29, -4.0, 4.0) if op == "pow" else nrm(seed + 1, 37 * 29, 0.0, 3.0)
        cases.append({"op": op, "a": a, "b": b, "av": permuted_view([37, 29], [1, 0]), "bv": permuted_view([37, 29], [1, 0])})
        cases.append({"op": op, "a": a, "b": b, "av": contiguous_view([29, 37]), "bv": permuted_view([37, 29], [1, 0])})
        ea = [x for x in edge for _ in edge]
        eb = [y for _ in edge for y in edge]
        cases.append({"op": op, "a": vals(ea), "b": vals(eb), "av": contiguous_view([len(ea)]), "bv": contiguous_view([len(eb)])})

    def run(case):
        a = tensor(case["a"], case["av"])
        b = tensor(case["b"], case["bv"])
        return torch.atan2(a, b) if case["op"] == "atan2" else torch.pow(a, b)
    return cases, run


FAMILIES = {
    "sum": family_sum,
    "unary": family_unary,
    "softmax": family_softmax,
    "loss": family_loss,
    "stats": family_stats,
    "range": family_range,
    "pointwise": family_pointwise,
    "optim": family_optim,
    "mkl": family_mkl,
    "extrema": family_extrema,
    "double": family_double,
    "binary": family_binary,
}


def record(names):
    import warnings
    import numpy as np
    import torch
    warnings.filterwarnings("ignore")  # var() with too few elements warns; the result is recorded
    torch.set_num_threads(1)
    OUT.mkdir(parents=True, exist_ok=True)
    meta = {
        "torch": torch.__version__,
        "numpy": np.__version__,
        "cpu_capability": torch.backends.cpu.get_cpu_capability(),
        "threads": torch.get_num_threads(),
    }
    for name in names:
        cases, run = FAMILIES[name]()
        for case in cases:
            case["expect"] = encode(run(case))
        path = OUT / f"{name}.json"
        with open(path, "w") as f:
            json.dump({"meta": meta, "family": name, "cases": cases}, f, separators=(",", ":"))
            f.write("\n")
        print(f"{name}: {len(cases)} cases -> {path.relative_to(ROOT)}")


def main():
    args = sys.argv[1:]
    python = "/tmp/torchvenv/bin/python"
    if args[:1] == ["--python"]:
        python, args = args[1], args[2:]
    names = args or list(FAMILIES)
    for n in names:
        if n not in FAMILIES:
            sys.exit(f"unknown family {n}; known: {', '.join(FAMILIES)}")
    if os.environ.get("RECORD_NUMERICS_CHILD") != "1":
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": os.environ.get("HOME", "/root"),
            "LANG": "C.UTF-8",
            "CUDA_VISIBLE_DEVICES": "",
            "OMP_NUM_THREADS": "1",
            "MKL_NUM_THREADS": "1",
            "RECORD_NUMERICS_CHILD": "1",
        }
        sys.exit(subprocess.run([python, __file__, *names], env=env).returncode)
    record(names)


if __name__ == "__main__":
    main()
