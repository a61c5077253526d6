# The helpers every conformance script of this folder imports (`from prelude import *`), run by
# both PyTorch and cudatutor's interpreter. Plain Python, written by hand, the one copy:
# scripts/conformance/generate.py runs its candidate samples against this same text, and checks
# that W, B and X below are still what torch.randn draws under seed 0 (optims.py).
#
# Every sample prints only lines tagged `[ID] `, so tests/conformance.rs compares a script sample
# by sample: one missing feature makes its own samples differ, never the others. A sample's
# output is
#   - `raised TYPE: MESSAGE` when it raised (every line of a multi-line message tagged);
#   - else a description of what it returned: `tensor DTYPE SHAPE VALUES` with the values from
#     `.tolist()` (float32 widened to a Python float, so every bit shows), tuples and lists item
#     by item, dicts key by key, anything else as `TYPE repr`; and, for the samples marked
#     `printed`, the tensor's own `repr` (PyTorch's printing, checked on a subset).
# Each sample runs after `torch.manual_seed(0)`, so random ops and module initialisation draw
# the same numbers in both.
import torch

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
    for line in str(text).split("\n"):
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


def samples(call, rows, printed=()):
    """One call that several samples make on other inputs (scripts/conformance/sample_rows.py
    writes the rows): each row is (tag, argument...) and runs as sample `tag` of
    call(argument...); an input is passed as the function that builds it, and the call builds
    it, inside the sample. `printed`: the tags whose tensors also print their repr."""
    for row in rows:
        sample(row[0], lambda: call(*row[1:]), row[0] in printed)


def for_ops(ops, tags, call, printed=False):
    """One row of an `ops_*.py` script (ops whose samples make the same calls): `call` gets
    the rest of each OPS entry (fn, method) and runs as a sample of every op that `tags` names,
    printed as [SCRIPT.TAG]: `tags` is the one tag of every op, or a tuple with each op's own tag
    in OPS order (None: that op does not run this call)."""
    for i in range(len(ops)):
        tag = tags if isinstance(tags, str) else tags[i]
        if tag is not None:
            op = ops[i]
            sample(op[0] + "." + tag, lambda: call(*op[1:]), printed)


def for_ops_rows(ops, call, rows, printed=()):
    """for_ops rows that make one call on other inputs (scripts/conformance/sample_rows.py):
    each row is (tags, argument...) and runs as for_ops(ops, tags, ...) of call(columns...,
    argument...). `printed`: the rows' tags whose tensors also print their repr."""
    for row in rows:
        for_ops(ops, row[0], lambda *columns: call(*(columns + row[1:])), row[0] in printed)


# The module runners (scripts/conformance/modules.py writes the calls): cN, fN, gN, vN, dN, xN.


def construct(tag, build):
    torch.manual_seed(0)
    try:
        m = build()
        emit(tag, repr(m))
        for key, value in m.state_dict().items():
            describe(tag, key + ": ", value, False)
    except Exception as e:
        failed(tag, e)


def run_forward(tag, build, inputs, dtype=None, train=True, printed=False):
    torch.manual_seed(0)
    try:
        m = build()
        if dtype is not None:
            m = m.to(dtype)
        if not train:
            m.eval()
        args, kwargs = inputs()
        out = m(*args, **kwargs)
    except Exception as e:
        failed(tag, e)
        return
    describe(tag, "", out, printed)


def tensors_in(value):
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (tuple, list)):
        found = []
        for item in value:
            found = found + tensors_in(item)
        return found
    if isinstance(value, dict):
        return tensors_in(list(value.values()))
    return []


def run_backward(tag, build, inputs):
    torch.manual_seed(0)
    try:
        m = build()
        args, kwargs = inputs()
        leaves = [t for t in tensors_in([args, kwargs]) if t.is_floating_point()][:1]
        for t in leaves:
            t.requires_grad_()
        out = m(*args, **kwargs)
        tensors_in(out)[0].sum().backward()
        for name, p in m.named_parameters():
            describe(tag, name + ".grad: ", p.grad, False)
        for i, t in enumerate(leaves):
            describe(tag, "input " + str(i) + ".grad: ", t.grad, False)
    except Exception as e:
        failed(tag, e)


def run_module_input(n, build, inputs, printed, backward, eval_mode):
    """One float32 input of a module, its constructor and input literal written once: cN, fN,
    then gN and vN where asked, in the order MANIFEST.tsv lists them."""
    construct("c" + str(n), build)
    run_forward("f" + str(n), build, inputs, printed=printed)
    if backward:
        run_backward("g" + str(n), build, inputs)
    if eval_mode:
        run_forward("v" + str(n), build, inputs, train=False)


def run_module_input_rows(build, rows):
    """run_module_input lines whose constructor is the same (scripts/conformance/sample_rows.py
    gathers them): each row is (n, inputs, printed, backward, eval_mode), run in order."""
    for row in rows:
        run_module_input(row[0], build, *row[1:])


def run_error(tag, build, inputs):
    torch.manual_seed(0)
    try:
        m = build()
        if inputs is not None:
            args, kwargs = inputs()
            m(*args, **kwargs)
        emit(tag, "no error")
    except Exception as e:
        failed(tag, e)


def run_error_rows(build, rows):
    """run_error lines whose constructor is the same (sample_rows.py gathers them): each row is
    (tag, inputs), run in order."""
    for tag, inputs in rows:
        run_error(tag, build, inputs)


# The optimizer runners (scripts/conformance/optims.py writes the calls): oN, rN, eN. The model
# is `((w * x).sum(1) + b).pow(2).sum()` on these literals.

W = [[1.5409961, -0.2934289], [-2.1787894, 0.56843126], [-1.0845224, -1.3985955]]
B = [0.40334684, 0.83802634, -0.7192576]
X = [-0.40334353, -0.59663534]


def make_params(kind):
    if kind == "sparse":
        emb = torch.nn.Embedding(4, 2, sparse=True)
        return [emb.weight], lambda: emb(T([0, 2, 0], i64)).pow(2).sum()
    w = torch.nn.Parameter(T(W, f32))
    b = torch.nn.Parameter(T(B, f32))
    x = T(X, f32)
    loss_fn = lambda: ((w * x).sum(1) + b).pow(2).sum()
    if kind == "matrix":
        return [w], loss_fn
    return [w, b], loss_fn


def one_step(opt, loss_fn, closure):
    if closure:
        def closure_fn():
            opt.zero_grad()
            loss = loss_fn()
            loss.backward()
            return loss
        return opt.step(closure_fn)
    opt.zero_grad()
    loss = loss_fn()
    loss.backward()
    opt.step()
    return loss


def run_optim(tag, make_opt, kind, closure, steps=3):
    torch.manual_seed(0)
    try:
        params, loss_fn = make_params(kind)
        opt = make_opt(params)
        for step in range(steps):
            loss = one_step(opt, loss_fn, closure)
            emit(tag, "step " + str(step) + " loss " + repr(loss.item()))
            for i, p in enumerate(params):
                describe(tag, "param " + str(i) + ": ", p, False)
        describe(tag, "state_dict: ", opt.state_dict(), False)
    except Exception as e:
        failed(tag, e)


def run_optim_rows(cls, kind, closure, rows):
    """run_optim lines of one optimizer class that differ only in its keyword arguments
    (scripts/conformance/sample_rows.py gathers them): each row is (tag, kwargs), run in order
    as run_optim(tag, lambda params: cls(params, **kwargs), kind, closure)."""
    for tag, kwargs in rows:
        run_optim(tag, lambda params: cls(params, **kwargs), kind, closure)


def run_schedule(tag, make_opt, make_schedulers, kind, closure, steps=12):
    torch.manual_seed(0)
    try:
        params, loss_fn = make_params(kind)
        opt = make_opt(params)
        schedulers = make_schedulers(opt)
        for step in range(steps):
            loss = one_step(opt, loss_fn, closure)
            for s in schedulers:
                if isinstance(s, torch.optim.lr_scheduler.ReduceLROnPlateau):
                    s.step(loss.item())
                else:
                    s.step()
            emit(tag, "step " + str(step) + " lr " + repr([g["lr"] for g in opt.param_groups])
                 + " last " + repr([s.get_last_lr() for s in schedulers]))
        for s in schedulers:
            describe(tag, type(s).__name__ + ".state_dict: ", s.state_dict(), False)
    except Exception as e:
        failed(tag, e)


def run_optim_error(tag, make_opt, kind, on_step):
    torch.manual_seed(0)
    try:
        params, loss_fn = make_params(kind)
        opt = make_opt(params)
        if on_step:
            one_step(opt, loss_fn, False)
        emit(tag, "no error")
    except Exception as e:
        failed(tag, e)


def run_optim_warning(tag, make_opt, kind, on_step):
    torch.manual_seed(0)
    try:
        import warnings
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            params, loss_fn = make_params(kind)
            opt = make_opt(params)
            if on_step:
                one_step(opt, loss_fn, False)
        for w in caught:
            emit(tag, "warned " + w.category.__name__ + ": " + str(w.message))
        emit(tag, "no error")
    except Exception as e:
        failed(tag, e)


# The error inputs every OptimizerInfo starts with (the database's
# get_error_inputs_for_all_optims), written once: a script calls this with its optimizer class
# and parameter kind, then runs its own error inputs from e7 on. scripts/conformance/optims.py
# renders the database's list and stops when this text is no longer what it renders.
def run_errors_for_all_optims(cls, kind):
    def make_e0(params):
        p0 = torch.nn.Parameter(T([[1.5409961]], f32))
        return cls(p0)

    def make_e1(params):
        p0 = torch.nn.Parameter(T([[1.5409961]], f32))
        return cls([p0, p0])

    def make_e2(params):
        p0 = torch.nn.Parameter(T([[-0.2934289]], f32))
        p1 = torch.nn.Parameter(T([[1.5409961]], f32))
        return cls({p0, p1})

    def make_e3(params):
        p0 = torch.nn.Parameter(T([[1.5409961]], f32))
        return cls([{'params': p0}, {'params': p0}])

    def make_e5(params):
        p0 = torch.nn.Parameter(T([[1.5409961]], f32))
        p1 = torch.nn.Parameter(T([[-0.2934289]], f32))
        return cls([('weight', p0,), p1])

    def make_e6(params):
        p0 = torch.nn.Parameter(T([[1.5409961]], f32))
        p1 = torch.nn.Parameter(T([[-0.2934289]], f32))
        return cls([{'params': [p0], 'lr': 0.01}, {'params': [('weight', p1,)]}])

    run_optim_error("e0", make_e0, kind, False)
    run_optim_warning("e1", make_e1, kind, False)
    run_optim_warning("e2", make_e2, kind, False)
    run_optim_error("e3", make_e3, kind, False)
    run_optim_error("e4", lambda params: cls(params, lr=T([0.001, 0.001], f32)), kind, False)
    run_optim_error("e5", make_e5, kind, False)
    run_optim_error("e6", make_e6, kind, False)
