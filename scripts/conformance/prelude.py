"""The helpers every generated conformance script imports (plain Python, run by both PyTorch
and cudatutor's interpreter). generate.py writes them once, with the module and optimizer
runners, to tests/conformance/prelude.py; each script starts `from prelude import *`.

Every sample prints only lines tagged `[ID] `, so tests/conformance.rs compares a script sample by
sample: one missing feature makes its own samples differ, never the others. A sample's output is
  - `raised TYPE: MESSAGE` when it raised (every line of a multi-line message tagged);
  - else a description of what it returned: `tensor DTYPE SHAPE VALUES` with the values from
    `.tolist()` (float32 widened to a Python float, so every bit shows), tuples and lists item
    by item, dicts key by key, anything else as `TYPE repr`; and, for the samples marked
    `printed`, the tensor's own `repr` (PyTorch's printing, checked on a subset).
Each sample runs after `torch.manual_seed(0)`, so random ops and module initialisation draw
the same numbers in both.
"""

PRELUDE = '''import torch

nan = float("nan")
inf = float("inf")
f32 = torch.float32
f64 = torch.float64
i64 = torch.int64
b8 = torch.bool


def T(values, dtype):
    return torch.tensor(values, dtype=dtype)


def Z(shape, dtype):
    return torch.zeros(shape, dtype=dtype)


def emit(tag, text):
    for line in str(text).split("\\n"):
        print("[" + tag + "] " + line)


def describe(tag, path, out, printed):
    if isinstance(out, torch.Tensor):
        emit(tag, path + "tensor " + str(out.dtype) + " " + str(tuple(out.shape)) + " " + str(out.tolist()))
        if printed:
            emit(tag, repr(out))
    elif isinstance(out, (tuple, list)):
        emit(tag, path + type(out).__name__ + " of " + str(len(out)))
        for i, item in enumerate(out):
            describe(tag, path + str(i) + ": ", item, printed)
    elif isinstance(out, dict):
        emit(tag, path + "dict of " + str(len(out)))
        for key, item in out.items():
            describe(tag, path + repr(key) + ": ", item, printed)
    else:
        emit(tag, path + type(out).__name__ + " " + repr(out))


def failed(tag, e):
    emit(tag, "raised " + type(e).__name__ + ": " + str(e))


def sample(tag, fn, printed=False):
    torch.manual_seed(0)
    try:
        out = fn()
    except Exception as e:
        failed(tag, e)
        return
    describe(tag, "", out, printed)

'''
