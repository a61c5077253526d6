"""Ops that share one sample table share one script. Several OpInfos name the same
sample_inputs_func (and error_inputs_func) with the same arguments, so their scripts differed
only in the op's name: amax and amin, argsort and sort, ones and zeros... Such ops are written
as ONE script that runs the table against each op in turn:

    OPS = (
        ("op_amax", torch.amax, lambda x, *args, **kwargs: x.amax(*args, **kwargs)),
        ("op_amin", torch.amin, lambda x, *args, **kwargs: x.amin(*args, **kwargs)),
    )
    for script, fn, method in OPS:
        sample(script + ".s0", lambda: fn(x0()), printed=True)

Each sample still prints under its own op's script name and tag (`[op_amin.s0] ...`) and keeps
its MANIFEST.tsv row, so tests/conformance.rs and KNOWN_DIFFERENCES see the same (script, tag)
pairs as with one script per op.

The grouping comes from the database: ops are grouped when their sample and error functions are
the same (functools.partial arguments included) AND the samples the generator kept for them
render to the same table once the op is written `fn` / `method` (a sample function may still
read the OpInfo, and the result-size filter runs per op): a table that differs in any row keeps
its op in a script of its own.
"""
import collections
import functools

from ops import lambda_spelling


def function_key(fn):
    """What identifies a database sample function: its module and qualified name, and for a
    functools.partial the arguments it binds."""
    if fn is None:
        return None
    if isinstance(fn, functools.partial):
        return (function_key(fn.func), tuple(repr(a) for a in fn.args),
                tuple(sorted((k, repr(v)) for k, v in fn.keywords.items())))
    return (getattr(fn, "__module__", None), getattr(fn, "__qualname__", repr(fn)))


def table_key(op, form, method_name, samples):
    """The key ops of one group share, or None for an op that cannot join a group (an operator,
    property or lambda spelling, or a sample a group's script cannot write)."""
    rows = tuple((tag, dtype, kind, grouped, printed)
                 for tag, dtype, kind, _, printed, grouped in samples)
    if any(row[3] is None for row in rows):
        return None
    return (function_key(op.sample_inputs_func), function_key(op.error_inputs_func),
            form[0], method_name is not None, rows)


def group_ops(candidates):
    """Lists of candidates (dicts with `key`), in database order of each list's first op; a
    candidate without a key, or alone with its key, is a list of one."""
    by_key = collections.OrderedDict()
    lists = []
    for c in candidates:
        if c["key"] is None:
            lists.append([c])
            continue
        if c["key"] not in by_key:
            by_key[c["key"]] = []
            lists.append(by_key[c["key"]])
        by_key[c["key"]].append(c)
    return lists


def method_lambda(name):
    """A function that calls Tensor method `name` on its first argument, as `x.name(...)`."""
    return "lambda x, *args, **kwargs: x.%s(*args, **kwargs)" % name


def columns(form, method_name):
    """The names a group's script binds per op: `fn` (the torch function, or the database's
    lambda) and/or `method`."""
    if form[0] == "method":
        return ["method"]
    return ["fn", "method"] if method_name is not None else ["fn"]


def op_row(script, form, method_name):
    """One OPS entry: the op's script name, then its fn and/or method."""
    values = []
    for column in columns(form, method_name):
        if column == "fn" and form[0] == "lambda":
            values.append(lambda_spelling(form[1]))
        elif column == "fn":
            values.append(form[1])
        else:
            values.append(method_lambda(method_name or form[1]))
    return "(%s)," % ", ".join([repr(script)] + values)


def group_file_name(members):
    """`ops_` and the members' names, shortened past three."""
    names = [c["full"].replace(".", "_") for c in members]
    if len(names) > 3:
        names = names[:2] + ["and_%d_more" % (len(names) - 2)]
    return "ops_" + "_".join(names)
