"""One conformance script per OptimizerInfo: every CPU optim_input of the database run for a
few steps on a tiny model with literal parameters, its scheduler configurations, and its error
inputs.

  oN  optimizer input N: after each step the loss and every parameter, then opt.state_dict()
  rN  scheduler configuration N (lr_scheduler): the learning rates after each of 12 steps and
      each scheduler's state_dict
  eN  error input N: the exception (or the warnings, for the database's warning cases); the
      first ones, which every OptimizerInfo shares (get_error_inputs_for_all_optims), run
      through the prelude's run_errors_for_all_optims, written once

The model is `((w * x).sum(1) + b).pow(2).sum()` with w (3, 2), b (3,) and x (2,) drawn once by
torch.randn under seed 0 and written as literals; only elementwise ops and sums of two or three
numbers, so the optimizer's own arithmetic is what is compared. Muon takes only w (it accepts
2-D parameters), SparseAdam an Embedding with sparse gradients.
"""
import ast
import collections
import inspect

import torch
from torch.testing._internal.common_optimizers import get_error_inputs_for_all_optims

from literal import Unrepresentable, literal, values_text

MAX_OPTIM_INPUTS = 12
MAX_ERROR_INPUTS = 10


def check_model_literals(prelude):
    """The model's parameters are written once, as literals, in tests/conformance/prelude.py
    (`W = ...`, `B = ...`, `X = ...`): stop if they are no longer what torch.randn draws under
    seed 0, which the recordings were made from."""
    torch.manual_seed(0)
    w = torch.randn(3, 2)
    b = torch.randn(3)
    x = torch.randn(2)
    missing = [line for line in ("W = " + values_text(w), "B = " + values_text(b), "X = " + values_text(x))
               if line not in prelude.split("\n")]
    if missing:
        raise SystemExit("tests/conformance/prelude.py: the model's literals differ from "
                         "torch.randn under seed 0; write them as\n" + "\n".join(missing))


def param_kind(info):
    if info.only_supports_sparse_grads:
        return "sparse"
    if info.optim_cls.__name__ == "Muon":
        return "matrix"
    return "plain"


def params_text(params, names):
    """Source for an explicit params argument, keeping object identity: a tensor that occurs
    twice is one name. `names` collects (name, literal) assignments."""
    if isinstance(params, torch.Tensor):
        for name, (obj, _) in names.items():
            if obj is params:
                return name
        name = "p%d" % len(names)
        names[name] = (params, literal(params))
        return name
    if isinstance(params, (list, tuple)):
        inner = ", ".join(params_text(p, names) for p in params)
        return ("[%s]" if isinstance(params, list) else "(%s,)") % inner
    if isinstance(params, set):
        # A set's order is its hash order; the database uses one only to check the warning.
        ordered = sorted(params, key=lambda t: t.detach().flatten().tolist())
        return "{%s}" % ", ".join(params_text(p, names) for p in ordered)
    if isinstance(params, dict):
        return "{%s}" % ", ".join("%r: %s" % (k, params_text(v, names) if k == "params"
                                              else literal(v)) for k, v in params.items())
    if isinstance(params, str):
        return repr(params)
    return literal(params)


def make_opt_text(cls_path, params, kwargs, helper_lines, helper_name):
    """A lambda (or, with explicit params, a def) that builds the optimizer."""
    kw = ", ".join("%s=%s" % (k, literal(v)) for k, v in kwargs.items())
    if params is None:
        return "lambda params: %s(params%s)" % (cls_path, (", " + kw) if kw else "")
    names = {}
    ptext = params_text(params, names)
    helper_lines.append("def %s(params):" % helper_name)
    for name, (_, lit) in names.items():
        helper_lines.append("    %s = %s" % (name, lit))
    helper_lines.append("    return %s(%s%s)" % (cls_path, ptext, (", " + kw) if kw else ""))
    helper_lines.append("")
    helper_lines.append("")
    return helper_name


_LAMBDA_SOURCES = {}


def scheduler_text(fn):
    """`torch.optim.lr_scheduler.X(opt, ...)` for one of the database's `lambda opt: X(...)`."""
    path = inspect.getsourcefile(fn)
    if path not in _LAMBDA_SOURCES:
        tree = ast.parse(open(path).read())
        by_line = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Lambda) and [a.arg for a in node.args.args] == ["opt"]:
                by_line.setdefault(node.lineno, []).append(node)
        _LAMBDA_SOURCES[path] = by_line
    nodes = _LAMBDA_SOURCES[path].get(fn.__code__.co_firstlineno, [])
    if len(nodes) != 1 or not isinstance(nodes[0].body, ast.Call):
        raise Unrepresentable("scheduler lambda")
    text = ast.unparse(nodes[0].body)
    name = text.split("(")[0]
    if not hasattr(torch.optim.lr_scheduler, name):
        raise Unrepresentable("scheduler %s" % name)
    return "torch.optim.lr_scheduler." + text


def render_errors(errors, cls_path, kind_text, stats):
    """[(helper lines, tag, call)] for the first MAX_ERROR_INPUTS representable error inputs:
    `run_optim_error("eN", make, kind, on_step)` (run_optim_warning for the warning cases)."""
    rendered = []
    for err in errors:
        if len(rendered) >= MAX_ERROR_INPUTS:
            break
        e = len(rendered)
        oi = err.optimizer_error_input
        helper_lines = []
        try:
            make = make_opt_text(cls_path, oi.params, oi.kwargs, helper_lines, "make_e%d" % e)
        except Unrepresentable as ex:
            stats["unrepresentable"][str(ex).split(" ")[0]] += 1
            continue
        on_step = err.error_on.name == "STEP_ERROR"
        runner = "run_optim_warning" if issubclass(err.error_type, Warning) else "run_optim_error"
        rendered.append((helper_lines, "e%d" % e,
                         '%s("e%d", %s, %s, %s)' % (runner, e, make, kind_text, on_step)))
    return rendered


# The prelude's function that runs the database's get_error_inputs_for_all_optims (the error
# inputs every OptimizerInfo starts with) for an optimizer class `cls` and a parameter kind.
SHARED_ERRORS = "run_errors_for_all_optims"


def errors_for_all_optims():
    """The shared error inputs rendered for `cls` and `kind`: (helper lines of each, calls)."""
    torch.manual_seed(0)
    errors = get_error_inputs_for_all_optims("cpu", torch.float32)
    rendered = render_errors(errors, "cls", "kind", {"unrepresentable": collections.Counter()})
    return [h for h, _, _ in rendered], [c for _, _, c in rendered]


def errors_for_all_optims_text():
    """The source of the prelude's run_errors_for_all_optims: the helpers nested, then the calls."""
    helpers, calls = errors_for_all_optims()
    body = []
    for helper_lines in helpers:
        if helper_lines:
            body += [line for line in helper_lines if line] + [""]
    body += calls
    return "\n".join(["def %s(cls, kind):" % SHARED_ERRORS]
                     + [("    " + line) if line else "" for line in body])


def check_errors_for_all_optims(prelude):
    """Stop if tests/conformance/prelude.py's run_errors_for_all_optims is no longer what the
    database's shared error inputs render to (the recordings were made from that text)."""
    text = errors_for_all_optims_text()
    if text not in prelude:
        raise SystemExit("tests/conformance/prelude.py: run_errors_for_all_optims differs from "
                         "the database's get_error_inputs_for_all_optims; write it as\n" + text)


def optim_samples(info, stats):
    cls_path = "torch.optim." + info.optim_cls.__name__
    kind = param_kind(info)
    closure = bool(info.step_requires_closure)
    helpers = []
    lines = []
    try:
        inputs = info.optim_inputs_func(device="cpu", dtype=torch.float32)
    except TypeError:
        inputs = info.optim_inputs_func(device="cpu")
    n = 0
    for oi in inputs:
        if n >= MAX_OPTIM_INPUTS:
            break
        try:
            make = make_opt_text(cls_path, oi.params, oi.kwargs, helpers, "make_o%d" % n)
        except Unrepresentable as e:
            stats["unrepresentable"][str(e).split(" ")[0]] += 1
            continue
        lines.append(("o%d" % n, "float32", "optimizer",
                      'run_optim("o%d", %s, "%s", %s)' % (n, make, kind, closure)))
        n += 1
    default = "lambda params: %s(params)" % cls_path
    r = 0
    for schedulers in info.scheduler_inputs:
        try:
            texts = [scheduler_text(fn) for fn in schedulers]
        except Unrepresentable as e:
            stats["unrepresentable"][str(e).split(" ")[0]] += 1
            continue
        make_s = "lambda opt: [%s]" % ", ".join(texts)
        names = ",".join(t.split("(")[0].rsplit(".", 1)[1] for t in texts)
        lines.append(("r%d" % r, "float32", "scheduler:" + names,
                      'run_schedule("r%d", %s, %s, "%s", %s)' % (r, default, make_s, kind, closure)))
        r += 1
    if info.optim_error_inputs_func is not None:
        torch.manual_seed(0)
        errors = info.optim_error_inputs_func(device="cpu", dtype=torch.float32)
        rendered = render_errors(errors, cls_path, '"%s"' % kind, stats)
        # Every OptimizerInfo's error inputs start with the database's shared ones: when they are
        # still what the prelude's run_errors_for_all_optims runs, one call stands for them.
        shared_helpers, shared_calls = errors_for_all_optims()
        generic = render_errors(errors, "cls", "kind", {"unrepresentable": collections.Counter()})
        generic = generic[:len(shared_calls)]
        if [h for h, _, _ in generic] == shared_helpers and [c for _, _, c in generic] == shared_calls:
            call = '%s(%s, "%s")' % (SHARED_ERRORS, cls_path, kind)
            for i, (_, tag, _) in enumerate(rendered[:len(shared_calls)]):
                lines.append((tag, "float32", "error", call if i == 0 else None))
            rendered = rendered[len(shared_calls):]
        for helper_lines, tag, call in rendered:
            helpers += helper_lines
            lines.append((tag, "float32", "error", call))
    return helpers, lines
