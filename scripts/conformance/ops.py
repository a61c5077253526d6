"""One conformance script per OpInfo: its sample inputs (per dtype), a few through the Tensor
method as well, and its error inputs, each as one tagged `sample(...)` line with literal inputs.

Tags: `sN` the function (or operator / property) on sample N, `mN` the Tensor method on the
same inputs, `eN` error input N.
"""
import ast
import inspect

import torch

from literal import Unrepresentable, literal
from select_set import OPERATORS, PROPERTIES

DTYPES = (torch.float32, torch.float64, torch.int64, torch.bool)
# Samples kept per dtype (the OpInfo's first ones, which are its plainest), and how many of
# them also go through the Tensor method.
SAMPLES_PER_DTYPE = {torch.float32: 8, torch.float64: 3, torch.int64: 4, torch.bool: 3}
METHOD_SAMPLES_PER_DTYPE = {torch.float32: 2, torch.int64: 1}
ERROR_SAMPLES = 8
# A sample whose result has more elements than this is left out (it would bloat the recordings).
MAX_RESULT_ELEMENTS = 300


def qualified(name):
    obj = torch
    for part in name.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    return obj


def call_form(op):
    """How a script calls the OpInfo: ("operator", template), ("property", attr),
    ("function", "torch.x"), ("method", "x"), ("lambda", ast.Lambda) for a database lambda
    inlined into each sample, or None when no public spelling of `op.op` exists."""
    if op.name in OPERATORS:
        return ("operator", OPERATORS[op.name])
    if op.name in PROPERTIES:
        return ("property", op.name)
    fn = qualified(op.name)
    if fn is not None and fn is op.op:
        return ("function", "torch." + op.name)
    method = getattr(torch.Tensor, op.name, None)
    if method is not None and op.method_variant is not None and method is op.method_variant \
            and op.op is op.method_variant:
        return ("method", op.name)
    node = lambda_node(op.op)
    if node is not None:
        return ("lambda", node)
    return None


_LAMBDAS = {}


def lambda_node(fn):
    """The ast.Lambda a database lambda was written as (found by its file and first line)."""
    if getattr(fn, "__name__", None) != "<lambda>":
        return None
    try:
        path = inspect.getsourcefile(fn)
    except TypeError:
        return None
    if path not in _LAMBDAS:
        by_line = {}
        for node in ast.walk(ast.parse(open(path).read())):
            if isinstance(node, ast.Lambda):
                by_line.setdefault(node.lineno, []).append(node)
        _LAMBDAS[path] = by_line
    code = fn.__code__
    names = list(code.co_varnames[:code.co_argcount])
    nodes = [n for n in _LAMBDAS[path].get(code.co_firstlineno, [])
             if [a.arg for a in n.args.args] == names
             and (n.args.vararg is not None) == bool(code.co_flags & inspect.CO_VARARGS)
             and (n.args.kwarg is not None) == bool(code.co_flags & inspect.CO_VARKEYWORDS)]
    return nodes[0] if len(nodes) == 1 else None


# Names a database lambda's body may use once inlined into a script.
LAMBDA_GLOBALS = {"torch"}


class Inline(ast.NodeTransformer):
    """Replaces a lambda's parameters by the sample's literal arguments, splices *args and
    **kwargs, and writes `wrapper_set_seed(f, a, ...)` as `f(a, ...)` (every sample is already
    seeded) and `torch.Tensor.m(x, ...)` as `x.m(...)`."""

    def __init__(self, lam, args, kwargs):
        self.bound = {}
        params = [a.arg for a in lam.args.args]
        if len(args) < len(params):
            raise Unrepresentable("lambda sample with too few arguments")
        for name, value in zip(params, args):
            self.bound[name] = value
        self.rest = args[len(params):]
        if self.rest and lam.args.vararg is None:
            raise Unrepresentable("lambda sample with too many arguments")
        self.vararg = lam.args.vararg.arg if lam.args.vararg else None
        self.kwarg = lam.args.kwarg.arg if lam.args.kwarg else None
        if kwargs and self.kwarg is None:
            raise Unrepresentable("lambda sample with keywords")
        self.kwargs = kwargs

    def visit_Name(self, node):
        if node.id in self.bound:
            return ast.parse(self.bound[node.id], mode="eval").body
        if node.id in (self.vararg, self.kwarg):
            raise Unrepresentable("lambda uses *args or **kwargs directly")
        if node.id not in LAMBDA_GLOBALS and node.id != "wrapper_set_seed":
            raise Unrepresentable("lambda global %s" % node.id)
        return node

    def visit_Call(self, node):
        args = []
        for a in node.args:
            if isinstance(a, ast.Starred) and isinstance(a.value, ast.Name) \
                    and a.value.id == self.vararg:
                args += [ast.parse(t, mode="eval").body for t in self.rest]
            else:
                args.append(self.visit(a))
        keywords = []
        for k in node.keywords:
            if k.arg is None and isinstance(k.value, ast.Name) and k.value.id == self.kwarg:
                keywords += [ast.keyword(arg=name, value=ast.parse(t, mode="eval").body)
                             for name, t in self.kwargs]
            else:
                keywords.append(ast.keyword(arg=k.arg, value=self.visit(k.value)))
        return respelled_call(node.func, args, keywords, self.visit)


def respelled_call(func, args, keywords, visit):
    """A call with `wrapper_set_seed(f, a, ...)` written `f(a, ...)` and `torch.Tensor.m(x, ...)`
    written `x.m(...)`; `visit` rewrites any other callee (args and keywords come rewritten)."""
    if isinstance(func, ast.Name) and func.id == "wrapper_set_seed" and args:
        func, args = args[0], args[1:]
    else:
        func = visit(func)
    if isinstance(func, ast.Attribute) and ast.unparse(func.value) == "torch.Tensor" and args:
        func, args = ast.Attribute(value=args[0], attr=func.attr, ctx=ast.Load()), args[1:]
    return ast.Call(func=func, args=args, keywords=keywords)


class Spelled(ast.NodeTransformer):
    """A database lambda as a script can define it: `wrapper_set_seed(f, a, ...)` written
    `f(a, ...)` and `torch.Tensor.m(x, ...)` written `x.m(...)`, as Inline writes them, its
    parameters kept; Unrepresentable when it uses a name the script lacks."""

    def __init__(self, lam):
        self.own = {a.arg for a in lam.args.args}
        self.own |= {a.arg for a in (lam.args.vararg, lam.args.kwarg) if a is not None}
        if lam.args.kwonlyargs or lam.args.defaults or lam.args.posonlyargs:
            raise Unrepresentable("lambda with defaults or keyword-only parameters")

    def visit_Name(self, node):
        if node.id not in self.own and node.id not in LAMBDA_GLOBALS:
            raise Unrepresentable("lambda global %s" % node.id)
        return node

    def visit_Call(self, node):
        args = [self.visit(a) for a in node.args]
        keywords = [ast.keyword(arg=k.arg, value=self.visit(k.value)) for k in node.keywords]
        return respelled_call(node.func, args, keywords, self.visit)


def lambda_spelling(lam):
    """The source of a database lambda that a group's script binds as its op's `fn`."""
    body = Spelled(lam).visit(ast.parse(ast.unparse(lam.body), mode="eval").body)
    lam = ast.Lambda(args=lam.args, body=body)
    return ast.unparse(ast.fix_missing_locations(lam))


def inline_lambda(lam, s):
    args = [literal(s.input)] + [literal(a) for a in s.args]
    kwargs = [(k, literal(v)) for k, v in s.kwargs.items()]
    body = Inline(lam, args, kwargs).visit(ast.parse(ast.unparse(lam.body), mode="eval").body)
    return ast.unparse(ast.fix_missing_locations(body))


def index_text(index):
    """A subscript as a learner writes it: `x[0:3, [1, 2], ...]`."""
    def one(i):
        if isinstance(i, slice):
            parts = ["" if v is None else literal(v) for v in (i.start, i.stop)]
            text = parts[0] + ":" + parts[1]
            if i.step is not None:
                text += ":" + literal(i.step)
            return text
        return literal(i)
    if isinstance(index, tuple) and index:
        return ", ".join(one(i) for i in index)
    return one(index)


def call_text(form, s, method_name=None, grouped=False):
    """The expression that runs SampleInput `s`. `grouped`: as the script of a group of ops
    writes it, which runs each op of the group as `fn` (the function) and `method` (a lambda
    that calls the Tensor method) instead of spelling its name."""
    kind, spelling = form
    args = [literal(a) for a in s.args]
    kwargs = ["%s=%s" % (k, literal(v)) for k, v in s.kwargs.items()]
    if kind == "lambda":
        if method_name is not None:
            raise Unrepresentable("method of a lambda op")
        if grouped:
            lambda_spelling(spelling)
            args = [literal(s.input)] + args
            return "fn(%s)" % ", ".join(args + kwargs)
        return inline_lambda(spelling, s)
    x = literal(s.input)
    if kind == "operator":
        if len(s.args) != 1 or s.kwargs:
            raise Unrepresentable("operator sample with %d args" % len(s.args))
        if spelling == "{x}[{a}]":
            return "%s[%s]" % (x, index_text(s.args[0]))
        return spelling.format(x=x, a=args[0])
    if kind == "property":
        if s.args or s.kwargs:
            raise Unrepresentable("property sample with arguments")
        return ("fn(%s)" if grouped else "%%s.%s" % spelling) % x
    if kind == "function" and method_name is None:
        return "%s(%s)" % ("fn" if grouped else spelling, ", ".join([x] + args + kwargs))
    if not isinstance(s.input, torch.Tensor):
        raise Unrepresentable("method call on a %s" % type(s.input).__name__)
    if grouped:
        return "method(%s)" % ", ".join([x] + args + kwargs)
    name = method_name or spelling
    return "%s.%s(%s)" % (x, name, ", ".join(args + kwargs))


def result_elements(out):
    if isinstance(out, torch.Tensor):
        return out.numel()
    if isinstance(out, (tuple, list)):
        return sum(result_elements(o) for o in out)
    return 1


class Checker:
    """Runs a candidate sample's text under real PyTorch, as the script will, to leave out the
    ones whose result is too large to record."""

    def __init__(self, prelude):
        self.ns = {}
        exec(prelude, self.ns)

    def keep(self, text):
        fns = self.compiled(text)
        return fns is not None and self.keeps(fns[0])

    def compiled(self, *texts):
        """Each text as a function of no arguments over the prelude's names; None where one is
        not an expression."""
        try:
            return [eval("lambda: " + text, self.ns) for text in texts]
        except SyntaxError:
            return None

    def keeps(self, run):
        """Whether run()'s result is small enough to record, run from seed 0 as the script
        will; one that raises is kept (its error is what is recorded)."""
        torch.manual_seed(0)
        try:
            out = run()
        except Exception:
            return True
        try:
            return result_elements(out) <= MAX_RESULT_ELEMENTS
        except Exception:
            return False


def grouped_text(form, s, method_name=None):
    """call_text(..., grouped=True), or None where a group's script could not run the sample:
    an op spelled as an operator stays in a script of its own (a property's `fn` is a lambda
    that reads it)."""
    if form[0] not in ("function", "method", "lambda", "property"):
        return None
    try:
        return call_text(form, s, method_name, grouped=True)
    except Unrepresentable:
        return None


def op_samples(op, form, method_name, checker, stats):
    """[(tag, dtype name, kind, text, printed, grouped text)] for one OpInfo."""
    out = []
    seen = set()
    supported = op.supported_dtypes("cpu")
    n = 0
    for dtype in DTYPES:
        if dtype not in supported:
            continue
        kept = []
        torch.manual_seed(0)
        try:
            samples = list(op.sample_inputs("cpu", dtype, requires_grad=False))
        except Exception as e:  # a sample function that needs something this CPU lacks
            stats["sample functions that raised"].append("%s %s: %s" % (op.name, dtype, e))
            continue
        for s in samples:
            if len(kept) >= SAMPLES_PER_DTYPE[dtype]:
                break
            try:
                text = call_text(form, s)
            except Unrepresentable as e:
                stats["unrepresentable"][str(e).split(" ")[0]] += 1
                continue
            if text in seen or not checker.keep(text):
                stats["left out (large or duplicate)"] += 1
                continue
            seen.add(text)
            kept.append((s, text))
        for i, (s, text) in enumerate(kept):
            out.append(("s%d" % n, str(dtype).split(".")[1], "function", text, i == 0,
                        grouped_text(form, s)))
            if method_name and i < METHOD_SAMPLES_PER_DTYPE.get(dtype, 0):
                try:
                    mtext = call_text(form, s, method_name)
                except Unrepresentable:
                    mtext = None
                if mtext and mtext != text:
                    out.append(("m%d" % n, str(dtype).split(".")[1], "method", mtext, False,
                                grouped_text(form, s, method_name)))
            n += 1
    errors = []
    try:
        if op.error_inputs_func is None:
            raise LookupError("no error inputs")
        torch.manual_seed(0)
        errors = list(op.error_inputs("cpu"))
    except LookupError:
        pass
    except Exception as e:
        stats["sample functions that raised"].append("%s errors: %s" % (op.name, e))
    e_n = 0
    for ei in errors:
        if e_n >= ERROR_SAMPLES:
            break
        try:
            text = call_text(form, ei.sample_input)
        except Unrepresentable as e:
            stats["unrepresentable"][str(e).split(" ")[0]] += 1
            continue
        if text in seen:
            continue
        seen.add(text)
        dtype = ""
        if isinstance(ei.sample_input.input, torch.Tensor):
            dtype = str(ei.sample_input.input.dtype).split(".")[1]
        out.append(("e%d" % e_n, dtype, "error", text, False, grouped_text(form, ei.sample_input)))
        e_n += 1
    return out
