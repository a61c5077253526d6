# Every op whose size the script decides, at sizes no run may hold: each must raise the error
# PyTorch (or numpy, or CPython) raises when the allocation fails, before doing any work.
# Prints "ok NAME" or "MISMATCH NAME: got ..., expected ..." per case, then "done N".
import torch
import numpy as np


def torch_alloc(nbytes):
    return ("RuntimeError", "[enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: "
            f"can't allocate memory: you tried to allocate {nbytes} bytes. Error code 12 "
            "(Cannot allocate memory)")


def numpy_size(nbytes):
    units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB']
    i = max(nbytes.bit_length() - 1, 1) // 10
    n = nbytes / (1 << (i * 10))
    if round(n) == 1024:
        i += 1
        n /= 1024
    if round(n) < 1000:
        return '{:#.3g} {}'.format(n, units[i])
    return '{:#.0f} {}'.format(n, units[i])


def numpy_alloc(n, dtype):
    size = numpy_size(n * 8)
    return ("MemoryError",
            f"Unable to allocate {size} for an array with shape ({n},) and data type {dtype}")


cases = []
for n in [10**9, 10**10, 10**11, 10**12]:
    view = f"torch.ones(1).expand({n})"  # the label's text
    cases += [
        (f"torch.randperm({n})", lambda n=n: torch.randperm(n), torch_alloc(8 * n)),
        (f"torch.multinomial(torch.ones(3), {n}, replacement=True)", lambda n=n: torch.multinomial(torch.ones(3), n, replacement=True), torch_alloc(8 * n)),
        (f"{view}.sort()", lambda n=n: torch.ones(1).expand(n).sort(), torch_alloc(4 * n)),
        (f"{view}.argsort()", lambda n=n: torch.ones(1).expand(n).argsort(), torch_alloc(4 * n)),
        (f"{view}.msort()", lambda n=n: torch.ones(1).expand(n).msort(), torch_alloc(4 * n)),
        (f"{view}.median()", lambda n=n: torch.ones(1).expand(n).median(), torch_alloc(4 * n)),
        (f"{view}.kthvalue(3)", lambda n=n: torch.ones(1).expand(n).kthvalue(3), torch_alloc(4 * n)),
        (f"{view}.unique()", lambda n=n: torch.ones(1).expand(n).unique(), torch_alloc(4 * n)),
        (f"{view}.topk(3)", lambda n=n: torch.ones(1).expand(n).topk(3), ("RuntimeError", "std::bad_alloc")),
        (f"{view}.cumsum(0)", lambda n=n: torch.ones(1).expand(n).cumsum(0), torch_alloc(4 * n)),
        (f"{view}.clone()", lambda n=n: torch.ones(1).expand(n).clone(), torch_alloc(4 * n)),
        (f"{view}.contiguous()", lambda n=n: torch.ones(1).expand(n).contiguous(), torch_alloc(4 * n)),
        (f"{view} + 1", lambda n=n: torch.ones(1).expand(n) + 1, torch_alloc(4 * n)),
        (f"torch.full(({n},), 3.0)", lambda n=n: torch.full((n,), 3.0), torch_alloc(4 * n)),
        (f"torch.ones({n})", lambda n=n: torch.ones(n), torch_alloc(4 * n)),
        (f"torch.zeros({n})", lambda n=n: torch.zeros(n), torch_alloc(4 * n)),
        (f"torch.empty({n})", lambda n=n: torch.empty(n), torch_alloc(4 * n)),
        (f"torch.arange({n})", lambda n=n: torch.arange(n), torch_alloc(8 * n)),
        (f"torch.randn({n})", lambda n=n: torch.randn(n), torch_alloc(4 * n)),
        (f"torch.rand({n})", lambda n=n: torch.rand(n), torch_alloc(4 * n)),
        (f"torch.randint(0, 5, ({n},))", lambda n=n: torch.randint(0, 5, (n,)), torch_alloc(8 * n)),
        (f"np.zeros({n})", lambda n=n: np.zeros(n), numpy_alloc(n, "float64")),
        (f"np.ones({n})", lambda n=n: np.ones(n), numpy_alloc(n, "float64")),
        (f"np.empty({n})", lambda n=n: np.empty(n), numpy_alloc(n, "float64")),
        (f"np.full({n}, 3.0)", lambda n=n: np.full(n, 3.0), numpy_alloc(n, "float64")),
        (f"np.arange({n})", lambda n=n: np.arange(n), numpy_alloc(n, "int64")),
        (f"np.random.rand({n})", lambda n=n: np.random.rand(n), numpy_alloc(n, "float64")),
        (f"np.random.randn({n})", lambda n=n: np.random.randn(n), numpy_alloc(n, "float64")),
        (f"np.random.permutation({n})", lambda n=n: np.random.permutation(n), numpy_alloc(n, "int64")),
        (f"[0] * {n}", lambda n=n: [0] * n, ("MemoryError", "")),
        (f"'a' * {n}", lambda n=n: 'a' * n, ("MemoryError", "")),
    ]
    # the quantile's first buffer in PyTorch is not its output; any allocation failure will do
    cases.append((f"{view}.quantile(0.5)", lambda n=n: torch.ones(1).expand(n).quantile(0.5), ("RuntimeError", None)))

for code, call, (kind, message) in cases:
    try:
        call()
        print(f"MISMATCH {code}: no error")
    except BaseException as e:
        got = (type(e).__name__, str(e))
        if got[0] == kind and (message is None and "can't allocate memory" in got[1]
                               or got[1] == message):
            print(f"ok {code}")
        else:
            print(f"MISMATCH {code}: got {got}, expected {(kind, message)}")
print(f"done {len(cases)}")
