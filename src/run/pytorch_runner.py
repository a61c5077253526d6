# cudatutor's runner for `--backend pytorch` (shipped inside the cudatutor binary and written
# to its cache folder; see src/run/pytorch.rs). It runs learners' scripts on the machine's own
# Python and PyTorch, UNSANDBOXED, and reports each run as the fields of cudatutor's RunReport.
#
#   python runner.py serve   resident mode: imports torch once, then reads one JSON request a
#                            line on stdin and answers one JSON report a line on stdout. Each
#                            run happens in a forked child (forked before CUDA is initialised in
#                            this parent, which never touches CUDA), killed at the wall limit.
#                            The parent exits when stdin closes (its owner went away).
#   python runner.py probe   one JSON line: python and torch versions, CUDA and its devices.
#
# The child points file descriptors 1 and 2 at files of its own, so the script's output (and
# what the CUDA driver prints: device-side assert lines) never reaches the protocol.

import json
import os
import select
import signal
import sys
import time

PROTOCOL = 1
# CUDA availability by NVML in this parent: torch.cuda.is_available() must not initialise the
# CUDA driver before a fork.
os.environ.setdefault("PYTORCH_NVML_BASED_CUDA_CHECK", "1")


def _import_torch():
    try:
        import torch  # noqa: F401

        return torch, None
    except BaseException as e:  # an ImportError, or a broken install raising anything
        return None, "%s: %s" % (type(e).__name__, e)


# ---------------------------------------------------------------------------------------------
# In the child: one run.


def _device_line(line):
    """A line the CUDA driver printed for a failed device-side assert."""
    return "Assertion" in line and "failed." in line and ("block: [" in line or "thread: [" in line)


# (PyTorch source file, function) a device assert line names -> the aten ops whose kernels
# print it (PyTorch 2.15's asserts; see src/engine/cuda/origin.rs for the engine's own table).
_ASSERT_SOURCES = [
    ("Loss.cu", "nll_loss_forward_reduce_cuda_kernel_2d", ("nll_loss_forward", "nll_loss2d_forward")),
    ("Loss.cu", "nll_loss_forward_reduce_cuda_kernel_1d", ("nll_loss_forward",)),
    ("Loss.cu", "nll_loss_forward_no_reduce_cuda_kernel", ("nll_loss_forward",)),
    ("Indexing.cu", "indexSelectSmallIndex", ("index_select", "embedding")),
    ("Indexing.cu", "indexSelectLargeIndex", ("index_select", "embedding")),
    ("ScatterGatherKernel.cu", "operator()", ("gather", "scatter", "scatter_add", "scatter_reduce")),
    ("IndexKernel.cu", "operator()", ("index", "index_put", "_index_put_impl", "index_put_")),
]


def _assert_source(line):
    """(file, function) of a device assert line: `<path>/<File>.cu:<n>: <function>: block: ...`."""
    location, sep, rest = line.partition(": ")
    if not sep:
        return None, None
    file = location.rsplit("/", 1)[-1].split(":")[0]
    function = rest.split(": block:")[0].strip()
    return file, function


def match_origin(device_log, timeline):
    """The script line that launched the kernel a device assert names: the last launch (on a
    CUDA device) of an aten op whose kernel prints that line. Ops are matched by the table
    above, else by the aten op's name appearing in the kernel's function name. None when
    nothing matches (then only a rerun with CUDA_LAUNCH_BLOCKING=1 tells)."""
    for line in reversed(device_log):
        file, function = _assert_source(line)
        if not function:
            continue
        wanted = set()
        for f, func, ops in _ASSERT_SOURCES:
            if f == file and func == function:
                wanted.update(ops)
        low = function.lower()
        for entry in reversed(timeline):
            if entry.get("device") is None:
                continue
            for name in entry.get("aten", []):
                base = name.lower()
                if name in wanted or (not wanted and len(base) >= 4 and base.strip("_") in low):
                    return entry["line"]
    return None


def _exc_type_name(e):
    return type(e).__qualname__


def _run_child(req, torch, out_path, err_path, result_fd):
    """Runs the script in this (forked) process and writes the report to result_fd."""
    import io
    import linecache
    import traceback
    import types

    filename = req["filename"]
    code_text = req["code"]
    for k, v in req.get("env", []):
        os.environ[k] = v
    if req.get("launch_blocking"):
        os.environ["CUDA_LAUNCH_BLOCKING"] = "1"
    launch_blocking = os.environ.get("CUDA_LAUNCH_BLOCKING", "").strip() == "1"

    # stdout and stderr go to files of this run; Python's own streams are rebuilt on them as
    # `python FILE` would have them when not on a terminal.
    out_fd = os.open(out_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    err_fd = os.open(err_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.dup2(out_fd, 1)
    os.dup2(err_fd, 2)
    os.close(out_fd)
    os.close(err_fd)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    sys.stdin = io.TextIOWrapper(io.FileIO(0, "r", closefd=False), encoding="utf-8")
    sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), encoding="utf-8", write_through=False)
    sys.stderr = io.TextIOWrapper(
        io.FileIO(2, "w", closefd=False), encoding="utf-8", errors="backslashreplace", line_buffering=True
    )
    sys.__stdout__, sys.__stderr__, sys.__stdin__ = sys.stdout, sys.stderr, sys.stdin

    argv0 = req.get("argv0") or filename
    sys.argv = [argv0]
    script_dir = os.path.dirname(os.path.abspath(filename)) if os.path.isabs(filename) else os.getcwd()
    sys.path[0:1] = [script_dir]

    lines = code_text.splitlines(True)
    linecache.cache[filename] = (len(code_text), None, lines, filename)

    cuda = False
    if torch is not None:
        threads = getattr(_warm_up, "threads", None)
        if threads:
            try:
                torch.set_num_threads(threads)
            except BaseException:
                pass
        try:
            cuda = bool(torch.cuda.is_available())
        except BaseException:
            cuda = False

    t0 = time.perf_counter()
    timeline = []
    state = {"line": 0, "depth": 0, "alloc": 0, "reserved": 0}

    def counters(dev=None):
        if not cuda:
            return 0, 0
        try:
            return int(torch.cuda.memory_allocated(dev)), int(torch.cuda.memory_reserved(dev))
        except BaseException:
            return state["alloc"], state["reserved"]

    # Per-line memory: a line that changed the counters without any op (a `del`, a name
    # rebound) shows as an alloc/free entry of its own.
    def local_trace(frame, event, arg):
        if event == "line":
            prev = state["line"]
            state["line"] = frame.f_lineno
            if cuda and state["depth"] == 0:
                a, r = counters()
                if (a, r) != (state["alloc"], state["reserved"]):
                    now = (time.perf_counter() - t0) * 1e6
                    timeline.append(
                        {
                            "line": prev,
                            "op": "memory",
                            "kind": "alloc" if a > state["alloc"] else "free",
                            "device": _current_device(),
                            "host_us": now,
                            "host_end_us": now,
                            "device_start_us": None,
                            "device_end_us": None,
                            "status": "ok",
                            "allocated": a,
                            "reserved": r,
                            "aten": [],
                        }
                    )
                    state["alloc"], state["reserved"] = a, r
        return local_trace

    def global_trace(frame, event, arg):
        if frame.f_code.co_filename == filename:
            if event == "call":
                state["line"] = frame.f_lineno
            return local_trace
        return None

    def _current_device():
        try:
            return int(torch.cuda.current_device()) if cuda else None
        except BaseException:
            return None

    modes = []
    if torch is not None:
        try:
            modes = _make_modes(torch, state, timeline, t0, counters, cuda)
        except BaseException:
            modes = []

    main = types.ModuleType("__main__")
    main.__file__ = filename
    main.__builtins__ = __builtins__
    main.__dict__["__cached__"] = None
    sys.modules["__main__"] = main

    error = None
    exit_status = None
    exc = None
    entered = []
    try:
        code_obj = compile(code_text, filename, "exec", dont_inherit=True)
        for m in modes:
            m.__enter__()
            entered.append(m)
        sys.settrace(global_trace)
        try:
            exec(code_obj, main.__dict__)
        finally:
            sys.settrace(None)
    except SystemExit as e:
        code = e.code
        if code is None or code == 0:
            exit_status = None if code is None else 0
        elif isinstance(code, int):
            exit_status = code
        else:
            try:
                print(code, file=sys.stderr)
            except BaseException:
                pass
            exit_status = 1
    except BaseException as e:  # noqa: B902 - the learner's exception, whatever it is
        exc = e
    for m in reversed(entered):
        try:
            m.__exit__(None, None, None)
        except BaseException:
            pass

    if exc is not None:
        e = exc
        tb = e.__traceback__
        # Drop this runner's frames: the traceback starts at the script, as `python FILE`'s.
        while tb is not None and tb.tb_frame.f_code.co_filename != filename:
            tb = tb.tb_next
        e.__traceback__ = tb
        text = _format_exception(e, tb)
        try:
            sys.stderr.write(text)
        except BaseException:
            pass
        line = None
        column = None
        if isinstance(e, SyntaxError) and tb is None:
            line = e.lineno
            column = e.offset
        else:
            t = tb
            while t is not None:
                if t.tb_frame.f_code.co_filename == filename:
                    line = t.tb_lineno
                t = t.tb_next
        try:
            message = str(e)
        except BaseException:
            message = "<exception str() failed>"
        error = {
            "type": _exc_type_name(e),
            "message": message,
            "line": line,
            "origin_line": None,
            "column": column,
            "device_log": [],
            "traceback": text,
        }

    try:
        sys.stdout.flush()
    except BaseException:
        pass
    try:
        sys.stderr.flush()
    except BaseException:
        pass

    memory = {"allocated": 0, "reserved": 0, "peak_allocated": 0, "devices": []}
    device_name = "CPU"
    if cuda:
        try:
            n = torch.cuda.device_count()
            cur = torch.cuda.current_device()
            for i in range(n):
                props = torch.cuda.get_device_properties(i)
                d = {
                    "index": i,
                    "name": props.name,
                    "allocated": int(torch.cuda.memory_allocated(i)),
                    "reserved": int(torch.cuda.memory_reserved(i)),
                    "peak_allocated": int(torch.cuda.max_memory_allocated(i)),
                    "capacity": int(props.total_memory),
                }
                memory["devices"].append(d)
                if i == cur:
                    memory["allocated"] = d["allocated"]
                    memory["reserved"] = d["reserved"]
                    memory["peak_allocated"] = d["peak_allocated"]
            device_name = torch.cuda.get_device_name(cur)
        except BaseException:
            pass

    checks = None
    if req.get("checks") is not None:
        try:
            checks = _run_checks(req["checks"], main, error, req, timeline, launch_blocking, torch)
        except BaseException as e:
            checks = [{"kind": "setup_raised", "type": _exc_type_name(e), "message": str(e), "line": None}]

    # PyTorch reads CUDA_LAUNCH_BLOCKING when CUDA starts: a script may set it itself.
    launch_blocking = launch_blocking or os.environ.get("CUDA_LAUNCH_BLOCKING", "").strip() == "1"
    result = {
        "error": error,
        "exit_status": exit_status,
        "timeline": timeline,
        "memory": memory,
        "device_name": device_name,
        "launch_blocking": launch_blocking,
        "checks": checks,
        "prediction_pending": _prediction_pending(req, main, error),
    }
    data = json.dumps(result, default=str).encode("utf-8", "backslashreplace")
    view = memoryview(data)
    while view:
        n = os.write(result_fd, view)
        view = view[n:]
    os.close(result_fd)


_RUNNER_FILE = os.path.abspath(__file__) if "__file__" in globals() else ""


def _plumbing(frames):
    """The frames of a traceback that exist only because this runner watches the ops (its
    function and dispatch modes): dropped so that the traceback is the one `python FILE`
    prints."""
    keep = [True] * len(frames)
    n = len(frames)
    for i, f in enumerate(frames):
        name = f.filename.replace("\\", "/")
        runner = os.path.abspath(f.filename) == _RUNNER_FILE
        if runner:
            keep[i] = False
            if f.name == "__torch_dispatch__":
                # The mode's call of the aten op (_ops.py's OpOverload.__call__) is not in a
                # plain run: there the dispatcher goes straight to the kernel.
                if i + 1 < n and frames[i + 1].filename.replace("\\", "/").endswith("/torch/_ops.py"):
                    keep[i + 1] = False
            # dynamo's disable wrappers around the dispatch mode
            j = i - 1
            while j >= 0 and ("/torch/_compile.py" in frames[j].filename.replace("\\", "/") or "/torch/_dynamo/" in frames[j].filename.replace("\\", "/")):
                keep[j] = False
                j -= 1
        elif name.endswith("/torch/overrides.py"):
            keep[i] = False
            # The caller's `return handle_torch_function(...)` line: the function is entered
            # again (below) at the line that really raised.
            if i > 0 and not name.endswith("/torch/overrides.py"):
                pass
            j = i - 1
            if j >= 0 and not frames[j].filename.endswith("/torch/overrides.py"):
                keep[j] = False
    return [f for f, k in zip(frames, keep) if k]


def _format_exception(e, tb):
    import traceback

    try:
        te = traceback.TracebackException(type(e), e, tb, compact=True)
        seen = set()
        todo = [te]
        while todo:
            t = todo.pop()
            if id(t) in seen:
                continue
            seen.add(id(t))
            t.stack = traceback.StackSummary.from_list(_plumbing(list(t.stack)))
            for nxt in (t.__cause__, t.__context__):
                if nxt is not None:
                    todo.append(nxt)
            for sub in getattr(t, "exceptions", None) or []:
                todo.append(sub)
        return "".join(te.format())
    except BaseException:
        return "".join(traceback.format_exception(type(e), e, tb))


def _warm_up(torch):
    """Runs a few CPU ops under the modes once in the resident parent, so that the lazy
    imports they trigger happen before the fork, not in every child (seconds each)."""
    state = {"line": 0, "depth": 0, "alloc": 0, "reserved": 0}
    timeline = []
    modes = _make_modes(torch, state, timeline, time.perf_counter(), lambda dev=None: (0, 0), False)
    # One thread: an OpenMP parallel region in this parent would leave its thread pool
    # unusable in every forked child (libgomp is not fork-safe); each child sets the count back.
    _warm_up.threads = torch.get_num_threads()
    torch.set_num_threads(1)
    import io
    import traceback

    import torch.nn.functional as F

    for m in modes:
        m.__enter__()
    try:
        x = torch.randn(4, 3)
        t = torch.tensor([0, 1, 2, 1])
        loss = F.cross_entropy(x, t)
        loss.item()
        repr(x)
        x[0] + x[1]
        torch.nn.Linear(3, 2)(x).sum()
        try:
            F.cross_entropy(x, torch.tensor([0, 1, 2, 9]))
        except IndexError as e:
            _format_exception(e, e.__traceback__)
    finally:
        for m in reversed(modes):
            m.__exit__(None, None, None)
    io.StringIO(traceback.format_exc())


def _make_modes(torch, state, timeline, t0, counters, cuda):
    """A TorchFunctionMode that names each op the script called (the outermost torch call, as
    the learner wrote it: cross_entropy, item, to) and a TorchDispatchMode underneath that
    records the aten ops it became and the devices they ran on."""
    from torch.overrides import TorchFunctionMode
    from torch.utils._python_dispatch import TorchDispatchMode

    current = {"entry": None}

    def devices_of(objs):
        out = []

        def visit(x):
            if isinstance(x, torch.Tensor):
                out.append(x.device)
            elif isinstance(x, (list, tuple)):
                for y in x:
                    visit(y)
            elif isinstance(x, dict):
                for y in x.values():
                    visit(y)

        for o in objs:
            visit(o)
        return out

    class Dispatch(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            entry = current["entry"]
            name = func.overloadpacket.__name__
            try:
                result = func(*args, **kwargs)
            except BaseException:
                if entry is not None:
                    entry["aten"].append(name)
                raise
            if entry is not None:
                entry["aten"].append(name)
                devs = devices_of(list(args) + list(kwargs.values())) + devices_of([result])
                kinds = {d.type for d in devs}
                cuda_devs = [d for d in devs if d.type == "cuda"]
                if cuda_devs and entry["device"] is None:
                    entry["device"] = cuda_devs[0].index or 0
                if name == "_local_scalar_dense" and "cuda" in kinds:
                    entry["kind"] = "sync"
                elif name in ("_to_copy", "copy_") and "cuda" in kinds and "cpu" in kinds:
                    ins = devices_of(list(args)[:1])
                    src = ins[0].type if ins else "cpu"
                    entry["kind"] = "d2h" if src == "cuda" else "h2d"
                elif "cuda" in kinds and entry["kind"] == "host":
                    entry["kind"] = "kernel"
            return result

    class Function(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            if state["depth"] > 0:
                return func(*args, **kwargs)
            name = getattr(func, "__name__", None) or str(func)
            if name in ("__get__", "__repr__", "__format__", "__str__") or name.startswith("__") and name.endswith("__") and name not in ("__getitem__", "__setitem__"):
                # Printing and attribute access are not ops the learner launched.
                state["depth"] += 1
                try:
                    return func(*args, **kwargs)
                finally:
                    state["depth"] -= 1
            entry = {
                "line": state["line"],
                "op": name.strip("_") if name in ("__getitem__", "__setitem__") else name,
                "kind": "host",
                "device": None,
                "host_us": (time.perf_counter() - t0) * 1e6,
                "host_end_us": 0.0,
                "device_start_us": None,
                "device_end_us": None,
                "status": "ok",
                "allocated": 0,
                "reserved": 0,
                "aten": [],
            }
            state["depth"] += 1
            current["entry"] = entry
            try:
                return func(*args, **kwargs)
            except BaseException as e:
                msg = str(e) if not isinstance(e, KeyboardInterrupt) else ""
                entry["status"] = "reported" if msg.startswith("CUDA error") else "error"
                raise
            finally:
                state["depth"] -= 1
                current["entry"] = None
                entry["host_end_us"] = (time.perf_counter() - t0) * 1e6
                if entry["kind"] == "host" and entry["device"] is not None:
                    entry["kind"] = "kernel"
                if cuda:
                    a, r = counters(entry["device"])
                    entry["allocated"], entry["reserved"] = a, r
                    if entry["device"] in (None, _safe_current(torch)):
                        state["alloc"], state["reserved"] = a, r
                timeline.append(entry)

    return [Function(), Dispatch()]


def _safe_current(torch):
    try:
        return int(torch.cuda.current_device())
    except BaseException:
        return None


def _plain(v, depth=0):
    """Plain Python values only (None, bool, int, float, str, and containers of them)."""
    if depth > 64:
        return False
    t = type(v)
    if v is None or t in (bool, int, float, str):
        return True
    if t in (list, tuple, set, frozenset):
        return all(_plain(x, depth + 1) for x in v)
    if t is dict:
        return all(_plain(k, depth + 1) and _plain(x, depth + 1) for k, x in v.items())
    return False


def _same(a, b, depth=0):
    if depth > 64 or not (_plain(a) and _plain(b)):
        return False
    if type(a) is bool or type(b) is bool:
        return type(a) is bool and type(b) is bool and a == b
    num = (int, float)
    if type(a) in num and type(b) in num:
        return a == b
    if type(a) is not type(b):
        return False
    if type(a) in (list, tuple):
        return len(a) == len(b) and all(_same(x, y, depth + 1) for x, y in zip(a, b))
    if type(a) is dict:
        return len(a) == len(b) and all(
            any(_same(k, k2, depth + 1) and _same(v, v2, depth + 1) for k2, v2 in b.items()) for k, v in a.items()
        )
    if type(a) in (set, frozenset):
        return len(a) == len(b) and all(any(_same(x, y, depth + 1) for y in b) for x in a)
    return a == b


def _close(a, b, tol=1e-5, depth=0):
    num = (int, float)
    if depth > 64:
        return False
    if type(a) in num and type(b) in num:
        return abs(a - b) <= tol
    if type(a) in (list, tuple) and type(b) in (list, tuple):
        return len(a) == len(b) and all(_close(x, y, tol, depth + 1) for x, y in zip(a, b))
    return False


def _helpers(ns, main, error, output, timeline, launch_blocking, torch):
    def const(v):
        return lambda: v

    e = error or {}
    ns["error_type"] = const(e.get("type"))
    ns["error_message"] = const(e.get("message"))
    ns["error_line"] = const(e.get("line"))
    ns["origin_line"] = const(e.get("origin_line"))
    ns["output"] = const(output)
    ns["launch_blocking"] = const(launch_blocking)

    def runs():
        out = []
        for t in timeline:
            if t["kind"] in ("alloc", "free"):
                continue
            d = t["device"]
            dev = "cuda:%d" % d if d is not None and (t["kind"] != "host" or t["status"] == "error") else "cpu"
            out.append((t["op"], dev, t["status"] in ("ok", "assert"), t["status"] == "error", t["line"]))
        return out

    def norm_device(device):
        if device is None:
            return None
        if isinstance(device, int):
            return "cuda:%d" % device
        if device == "cuda":
            return "cuda:0"
        return str(device)

    ns["launched_ops"] = lambda: [(o, d) for o, d, ran, _, _ in runs() if ran]
    ns["raised_ops"] = lambda: [(o, d) for o, d, _, raised, _ in runs() if raised]

    def ran_on_gpu(op, device=None):
        device = norm_device(device)
        return sum(1 for o, d, ran, _, _ in runs() if ran and o == op and d.startswith("cuda") and (device is None or d == device))

    def op_lines(op, device=None):
        lines = []
        for o, _, ran, _, line in runs():
            if ran and o == op and (not lines or lines[-1] != line):
                lines.append(line)
        return lines

    ns["ran_on_gpu"] = ran_on_gpu
    ns["op_lines"] = op_lines
    ns["ran_on_cpu"] = lambda op, device=None: sum(1 for o, d, ran, _, _ in runs() if ran and o == op and d == "cpu")
    ns["same"] = lambda a, b: _same(a, b)
    ns["close"] = lambda a, b, tol=1e-5: _close(a, b, tol)
    ns["is_number"] = lambda v: type(v) in (int, float)

    def set_global(name, value):
        if not isinstance(name, str):
            raise TypeError("set_global(): the name must be a string")
        main.__dict__[name] = value
        ns[name] = value

    ns["set_global"] = set_global
    ns["on_gpu"] = lambda t, device=None: torch.is_tensor(t) and t.device.type == "cuda" and (device is None or str(t.device) == device)
    ns["on_cpu"] = lambda t: torch.is_tensor(t) and t.device.type == "cpu"


def _run_checks(statements, main, error, req, timeline, launch_blocking, torch):
    """Runs the check statements (split by cudatutor) in a namespace of their own: a copy of
    the learner's variables, the real modules, the helpers. One outcome per statement."""
    import builtins
    import importlib

    filename = req["filename"]
    try:
        with open(req["_out_path"], encoding="utf-8", errors="replace") as f:
            output = f.read()
    except OSError:
        output = ""
    ns = {"__name__": "__check__", "__builtins__": builtins}
    for k, v in list(main.__dict__.items()):
        if k.startswith("__") or hasattr(builtins, k):
            continue
        ns[k] = v
    for name, module in (("torch", "torch"), ("nn", "torch.nn"), ("F", "torch.nn.functional"), ("os", "os"), ("math", "math")):
        try:
            ns[name] = importlib.import_module(module)
        except BaseException:
            pass
    _helpers(ns, main, error, output, timeline, launch_blocking, torch)
    unchanged = bool(req.get("code_unchanged", False))
    ns["code_unchanged"] = lambda: unchanged
    # real PyTorch records no device times: no copy is known to have overlapped
    ns["async_copies"] = lambda direction: 0

    def learner_line(e):
        t = e.__traceback__
        line = None
        while t is not None:
            if t.tb_frame.f_code.co_filename == filename:
                line = t.tb_lineno
            t = t.tb_next
        return line

    def message_of(stmt):
        expr = stmt.get("message_expr")
        if expr is None:
            return None
        try:
            return str(eval(compile("(" + expr + "\n)", "check.py", "eval"), ns))
        except BaseException:
            return None

    out = []
    setup_failed = False
    for stmt in statements:
        if setup_failed:
            out.append({"kind": "skipped", "message": message_of(stmt) if stmt["is_assert"] else None})
            continue
        try:
            exec(compile(stmt["padded_source"], "check.py", "exec", dont_inherit=True), ns)
            out.append({"kind": "ok", "message": message_of(stmt) if stmt["is_assert"] else None})
        except BaseException as e:
            line = learner_line(e)
            if stmt["is_assert"] and isinstance(e, AssertionError) and line is None:
                text = str(e)
                out.append({"kind": "assert_failed", "message": text if text else message_of(stmt)})
            else:
                if not stmt["is_assert"]:
                    setup_failed = True
                out.append(
                    {
                        "kind": "raised",
                        "type": _exc_type_name(e),
                        "error_message": str(e),
                        "line": line,
                        "message": message_of(stmt) if stmt["is_assert"] else None,
                    }
                )
    return out


def _prediction_pending(req, main, error):
    predict = req.get("predict") or []
    if not predict or (error and error["type"] in ("SyntaxError", "IndentationError", "TabError")):
        return False
    for name, start in predict:
        if name not in main.__dict__:
            return True
        try:
            start_value = eval(compile("(" + start + "\n)", "<start>", "eval"), {})
        except BaseException:
            continue
        if _same(main.__dict__[name], start_value):
            return True
    return False


# ---------------------------------------------------------------------------------------------
# In the parent: fork one child per run.


def _finish(req, result, out_path, err_path, timed_out, status, wall_ms):
    def read(p):
        try:
            with open(p, "rb") as f:
                return f.read().decode("utf-8", "replace")
        except OSError:
            return ""

    stdout = read(out_path)
    stderr = read(err_path)
    # What the CUDA driver printed for a failed device-side assert goes to the device log.
    device_log = []
    kept = []
    for line in stdout.splitlines(True):
        if _device_line(line):
            device_log.append(line.rstrip("\n"))
        else:
            kept.append(line)
    stdout = "".join(kept)
    for line in stderr.splitlines():
        if _device_line(line):
            device_log.append(line)
    if result is None:
        result = {"error": None, "exit_status": None, "timeline": [], "memory": None, "device_name": "CPU", "checks": None}
        if timed_out:
            msg = "the script ran longer than %g seconds and was stopped" % (wall_ms / 1000.0)
            result["error"] = {"type": "TimeoutError", "message": msg, "line": None, "origin_line": None, "column": None, "device_log": [], "traceback": "TimeoutError: " + msg + "\n"}
            stderr += "TimeoutError: " + msg + "\n"
        else:
            if status is not None and os.WIFSIGNALED(status):
                how = "was killed by signal %d" % os.WTERMSIG(status)
            else:
                how = "ended without a report"
            msg = "the Python process running the script %s" % how
            result["error"] = {"type": "RuntimeError", "message": msg, "line": None, "origin_line": None, "column": None, "device_log": [], "traceback": "RuntimeError: " + msg + "\n"}
            result["internal_error"] = msg
            stderr += "cudatutor: " + msg + "\n"
    error = result.get("error")
    if error is not None:
        error["device_log"] = device_log
        if device_log and error["message"].startswith("CUDA error"):
            error["origin_line"] = match_origin(device_log, result.get("timeline") or [])
    report = {
        "backend": "pytorch",
        "device_name": result.get("device_name") or "CPU",
        "modelled": False,
        "launch_blocking": bool(result.get("launch_blocking")),
        "ok": error is None,
        "exit_status": result.get("exit_status"),
        "stdout": stdout,
        "stderr": stderr,
        "error": error,
        "memory": result.get("memory") or {"allocated": 0, "reserved": 0, "peak_allocated": 0, "devices": []},
        "timeline": [{k: v for k, v in t.items() if k != "aten"} for t in (result.get("timeline") or [])],
        "aten": [t.get("aten", []) for t in (result.get("timeline") or [])],
        "checks": [],
        "check_outcomes": result.get("checks"),
        "prediction_pending": bool(result.get("prediction_pending")),
        "internal_error": result.get("internal_error"),
    }
    if report["exit_status"] is not None and report["exit_status"] != 0:
        report["ok"] = False
    return report


def _set_pdeathsig():
    """The child dies with the resident parent (Linux)."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except BaseException:
        pass


def run_one(req, torch, workdir, control_fd):
    """Forks a child for one run, waits for it at most the wall limit; returns the report."""
    seq = run_one.seq = getattr(run_one, "seq", 0) + 1
    out_path = os.path.join(workdir, "run-%d.out" % seq)
    err_path = os.path.join(workdir, "run-%d.err" % seq)
    req["_out_path"] = out_path
    wall_ms = max(1, int(req.get("max_wall_ms") or 10000))
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            os.close(r)
            os.setpgid(0, 0)
            _set_pdeathsig()
            signal.signal(signal.SIGINT, signal.default_int_handler)
            _run_child(req, torch, out_path, err_path, w)
        except BaseException:
            code = 3
        finally:
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            except BaseException:
                pass
            os._exit(code)
    os.close(w)
    deadline = time.monotonic() + wall_ms / 1000.0
    chunks = []
    timed_out = False
    owner_gone = False
    eof = False
    while not eof:
        left = deadline - time.monotonic()
        if left <= 0:
            timed_out = True
            break
        ready, _, _ = select.select([r, control_fd], [], [], min(left, 1.0))
        if control_fd in ready:
            # Nothing may arrive during a run but the end of input: the owner went away.
            owner_gone = True
            break
        if r in ready:
            data = os.read(r, 1 << 16)
            if not data:
                eof = True
            else:
                chunks.append(data)
    os.close(r)
    if not eof:
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
    _, status = os.waitpid(pid, 0)
    if owner_gone:
        return None
    result = None
    if eof and chunks:
        try:
            result = json.loads(b"".join(chunks).decode("utf-8"))
        except ValueError:
            result = None
    report = _finish(req, result, out_path, err_path, timed_out, status, wall_ms)
    for p in (out_path, err_path):
        try:
            os.unlink(p)
        except OSError:
            pass
    return report


def serve():
    torch, why = _import_torch()
    if torch is not None:
        try:
            _warm_up(torch)
        except BaseException:
            pass
    # The protocol is a private copy of stdout; what torch or Python print later goes to stderr.
    proto = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    import tempfile

    workdir = tempfile.mkdtemp(prefix="cudatutor-pytorch-")
    hello = {"protocol": PROTOCOL, "pid": os.getpid(), "python": sys.version.split()[0], "torch": getattr(torch, "__version__", None), "torch_error": why}
    proto.write(json.dumps(hello) + "\n")
    proto.flush()
    stdin = sys.stdin.buffer
    try:
        while True:
            line = stdin.readline()
            if not line:
                return 0
            if not line.strip():
                continue
            try:
                req = json.loads(line.decode("utf-8"))
                if not isinstance(req, dict) or not isinstance(req.get("code"), str) or not isinstance(req.get("filename"), str):
                    raise ValueError("a request needs code and filename strings")
            except ValueError as e:
                proto.write(json.dumps({"protocol_error": str(e)}) + "\n")
                proto.flush()
                continue
            report = run_one(req, torch, workdir, stdin.fileno())
            if report is None:
                return 0
            report["pid"] = os.getpid()
            proto.write(json.dumps(report) + "\n")
            proto.flush()
    finally:
        try:
            os.rmdir(workdir)
        except OSError:
            pass


def probe():
    torch, why = _import_torch()
    info = {"python": sys.version.split()[0], "executable": sys.executable, "torch": None, "error": why, "cuda": False, "cuda_version": None, "devices": []}
    if torch is not None:
        info["torch"] = torch.__version__
        info["cuda_version"] = getattr(torch.version, "cuda", None)
        try:
            info["cuda"] = bool(torch.cuda.is_available())
            if info["cuda"]:
                for i in range(torch.cuda.device_count()):
                    p = torch.cuda.get_device_properties(i)
                    info["devices"].append({"index": i, "name": p.name, "memory": int(p.total_memory)})
        except BaseException as e:
            info["cuda_error"] = "%s: %s" % (type(e).__name__, e)
    sys.stdout.write(json.dumps(info) + "\n")
    return 0


if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode == "serve":
        sys.exit(serve())
    if mode == "probe":
        sys.exit(probe())
    sys.stderr.write("usage: runner.py serve|probe\n")
    sys.exit(2)
