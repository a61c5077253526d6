
# ---- extra_runtime.py: threads, torch.compile (concatenated into torch._extra) ----

# PyTorch's intra-op thread count: OMP_NUM_THREADS / MKL_NUM_THREADS when set, else the
# machine's cores. The engine splits its large elementwise ops, row-wise ops and products over
# this many threads (engine::parallel); results never depend on the count.
_threads = [None]


def _default_threads():
    # os at the first call: importing it at torch._extra's import built the in-memory file
    # system's module for every script that touches torch._extra
    import os as _os
    for var in ('OMP_NUM_THREADS', 'MKL_NUM_THREADS'):
        v = _os.environ.get(var)
        if v is not None and v.isdigit() and int(v) > 0:
            return int(v)
    return max(1, _os.cpu_count() or 1)


def get_num_threads():
    if _threads[0] is None:
        _threads[0] = _default_threads()
    return _threads[0]


def set_num_threads(n):
    if not isinstance(n, int):
        raise TypeError(f'set_num_threads(): argument \'int\' (position 1) must be int, not {type(n).__name__}')
    if n <= 0:
        raise RuntimeError('set_num_threads expects a positive integer')
    _threads[0] = n
    torch._C._set_num_threads(n)


def get_num_interop_threads():
    return get_num_threads()


def compile(model=None, *, fullgraph=False, dynamic=None, backend='inductor', mode=None, options=None, disable=False):
    # torch.compile changes how a model runs, never what it computes: the engine runs the
    # model as it is, wrapped as PyTorch wraps it (state_dict keys under `_orig_mod.`)
    if model is None:
        return lambda m: compile(m, fullgraph=fullgraph, dynamic=dynamic, backend=backend, mode=mode,
                                 options=options, disable=disable)
    import torch.nn as nn
    if isinstance(model, nn.Module):
        return OptimizedModule(model)
    return model


def _optimized_module_class():
    import torch.nn as nn

    class OptimizedModule(nn.Module):
        def __init__(self, mod):
            super().__init__()
            self._orig_mod = mod

        def forward(self, *args, **kwargs):
            return self._orig_mod(*args, **kwargs)

        def __getattr__(self, name):
            try:
                return super().__getattr__(name)
            except AttributeError:
                return getattr(self._orig_mod, name)

    OptimizedModule.__module__ = 'torch._dynamo.eval_frame'
    return OptimizedModule


_optimized_module = []


def OptimizedModule(mod):
    if not _optimized_module:
        _optimized_module.append(_optimized_module_class())
    return _optimized_module[0](mod)


torch.get_num_threads = get_num_threads
# each run starts at the count its environment gives (an earlier run in this process may have
# set another)
torch._C._set_num_threads(get_num_threads())
torch.set_num_threads = set_num_threads
torch.get_num_interop_threads = get_num_interop_threads
torch.compile = compile
