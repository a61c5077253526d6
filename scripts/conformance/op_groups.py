"""Ops whose samples make the same calls share one script. OpInfo gives many ops the same
inputs, through one sample function (amax and amin, the unary ops of
sample_inputs_elementwise_unary) or through different ones that draw the same tensors (add, mul
and div with no rounding mode differ by one sample: add's `alpha=2`), so their scripts differed
only in the op's name. Such ops are written as ONE script: a table of the ops, and one row per
distinct call, run for every op that makes it under that op's own tag:

    OPS = (
        ('op_add', torch.add, lambda x, *args, **kwargs: x.add(*args, **kwargs)),
        ('op_mul', torch.mul, lambda x, *args, **kwargs: x.mul(*args, **kwargs)),
    )
    for_ops(OPS, "s0", lambda fn, method: fn(f32_scalar(), f32_scalar_b()), printed=True)
    for_ops(OPS, ("s7", None), lambda fn, method: fn(f32_5x5(), f32_5x5_b(), alpha=2))
    for_ops(OPS, ("s8", "s7"), lambda fn, method: fn(f64_scalar(), f64_scalar_b()), printed=True)

Each sample still prints under its own op's script name and tag (`[op_mul.s7] ...`) and keeps
its MANIFEST.tsv row, so tests/conformance.rs and KNOWN_DIFFERENCES see the same (script, tag)
pairs as with one script per op.

The grouping is decided from the generated calls, not from the database's sample functions:
each op's samples written with the op as `fn` / `method` (ops.grouped_text) are its rows, and an
op joins the first group (same fn / method columns) whose first op shares at least half of the
rows of the smaller of the two (a property, x.T, is the group's `fn` as `lambda x: x.T`). An
op spelled as an operator, or with a sample a group cannot write, stays in a script of its own.
Ops left alone whose every call passes one constant argument (div's rounding_mode='floor' and
'trunc', pad's 'reflect' and 'replicate', round's decimals=0 and 3) are then grouped with that
argument lifted into a column of OPS (`('op_div_floor_rounding', torch.div, ..., 'floor')`,
rows `lambda fn, method, rounding_mode: fn(..., rounding_mode=rounding_mode)`).
"""
import ast
import inspect
import keyword
import math

from ops import lambda_spelling, qualified

# An op joins a group when it shares at least this fraction of the smaller row list.
MIN_SHARED = 0.5


def rows(samples):
    """[(row, tag)] of one op: a row is (segments, printed), where segments is the grouped call
    text in one piece (lifted() cuts it at its arguments); None when one of its samples cannot
    be written in a group or two samples make the same row."""
    if any(grouped is None for *_, grouped in samples):
        return None
    return unique([(((grouped,), printed), tag) for tag, _, _, _, printed, grouped in samples])


def unique(out):
    return out if len({row for row, _ in out}) == len(out) else None


def constant_arguments(text):
    """{(keyword or position): (byte span, value text)} of the top-level call's arguments that
    are constants: keywords with a str, number or bool value, positional strings."""
    call = ast.parse(text, mode="eval").body
    if not isinstance(call, ast.Call):
        return {}
    raw = text.encode()
    found = {}
    for k in call.keywords:
        v = k.value
        if k.arg is not None and isinstance(v, ast.Constant) and v.value is not None:
            found[k.arg] = ((v.col_offset, v.end_col_offset), raw[v.col_offset:v.end_col_offset])
    for i, v in enumerate(call.args):
        if isinstance(v, ast.Constant) and isinstance(v.value, str):
            found[i] = ((v.col_offset, v.end_col_offset), raw[v.col_offset:v.end_col_offset])
    return found


def lifted(c, parameter_names):
    """(parameters, rows) of an op whose every call passes the same constant for one argument
    (div's rounding_mode='floor', pad's 'reflect', round's decimals=3): that argument becomes a
    column of OPS, so ops that differ only in it make the same rows. parameters: ((name, value
    text), ...); rows as rows() gives them, with the segments cut at the lifted arguments (a
    parameter's name stands between the pieces). None when no argument is the same in all."""
    if c["rows"] is None:
        return None
    texts = [segments[0] for (segments, _), _ in c["rows"]]
    arguments = [constant_arguments(t) for t in texts]
    common = {}
    for key, (_, value) in arguments[0].items():
        if all(key in a and a[key][1] == value for a in arguments):
            common[key] = value.decode()
    if not common:
        return None
    names = {key: key if isinstance(key, str) else parameter_names(c, key) for key in common}
    if any(n is None or keyword.iskeyword(n) or n in ("fn", "method") for n in names.values()) \
            or len(set(names.values())) != len(names):
        return None
    parameters = tuple(sorted((names[key], value) for key, value in common.items()))
    out = []
    for ((text,), printed), tag in c["rows"]:
        raw, segments, at = text.encode(), [], 0
        index = constant_arguments(text)
        for span, key in sorted((index[key][0], key) for key in common):
            segments += [raw[at:span[0]].decode(), names[key]]
            at = span[1]
        segments.append(raw[at:].decode())
        out.append(((tuple(segments), printed), tag))
    out = unique(out)
    return None if out is None else (parameters, out)


def parameter_name(c, position):
    """The name of positional parameter `position` of a candidate's torch function (its
    signature), or None where it has none (a builtin)."""
    if c["form"][0] != "function":
        return None
    try:
        names = list(inspect.signature(qualified(c["form"][1][len("torch."):])).parameters)
    except (TypeError, ValueError):
        return None
    return names[position] if position < len(names) else None


def render(segments, values):
    """A row's call text: the parameters named in `values` written back as their value, the
    others as the name a group's row binds."""
    return "".join(values.get(part, part) if i % 2 else part for i, part in enumerate(segments))


def signature(form, method_name):
    if form[0] not in ("function", "method", "lambda", "property"):
        return None
    return tuple(columns(form, method_name))


def group_ops(candidates, parameter_names=parameter_name):
    """Lists of candidates (dicts with `rows` and `signature`), in database order of each list's
    first op; a candidate without rows, or matching no group, is a list of its own. Ops are
    grouped by their calls as written first; then the ops left alone whose calls all pass one
    constant argument (lifted()) are grouped by their calls with it lifted out: such a group's
    candidates get `parameters` (((name, value), ...)) and lifted `rows`."""
    lists = cluster(candidates)
    alone = []
    for members in lists:
        c = members[0]
        found = lifted(c, parameter_names) if len(members) == 1 else None
        if found is not None:
            alone.append(dict(c, parameters=found[0], rows=found[1],
                              signature=(c["signature"], tuple(n for n, _ in found[0]))))
    regrouped = {id(m[0]["op"]): m for m in cluster(alone) if len(m) > 1}
    out = []
    for members in lists:
        again = regrouped.get(id(members[0]["op"]))
        if again is not None:
            out.append(again)
        elif not any(id(members[0]["op"]) in {id(c["op"]) for c in m} for m in regrouped.values()):
            out.append(members)
    return out


def cluster(candidates):
    """Each candidate in the first list whose first op has its signature and shares enough of
    its rows (MIN_SHARED), else in a new list."""
    lists = []
    for c in candidates:
        mine = {row for row, _ in c["rows"]} if c["rows"] is not None else None
        home = None
        if mine is not None and c["signature"] is not None:
            for members in lists:
                first = members[0]
                if first["rows"] is None or first["signature"] != c["signature"]:
                    continue
                theirs = {row for row, _ in first["rows"]}
                if len(mine & theirs) >= math.ceil(MIN_SHARED * min(len(mine), len(theirs))):
                    home = members
                    break
        if home is None:
            lists.append([c])
        else:
            home.append(c)
    return lists


def merged_rows(members):
    """[(row, [tag or None per member])]: every member's rows, each once, in the first member's
    order, a row that a later member adds after that member's previous row."""
    order = []
    tags = {}
    for i, c in enumerate(members):
        at = 0
        for row, tag in c["rows"]:
            if row not in tags:
                tags[row] = [None] * len(members)
                order.insert(at, row)
            tags[row][i] = tag
            at = order.index(row) + 1
    return [(row, tags[row]) for row in order]


def tags_text(tags):
    """A row's tags as its for_ops call writes them: one tag when every op has it."""
    def one(tag):
        return "None" if tag is None else '"%s"' % tag
    if all(t == tags[0] for t in tags):
        return one(tags[0])
    return "(%s)" % ", ".join(one(t) for t in tags)


def method_lambda(name):
    """A function that calls Tensor method `name` on its first argument, as `x.name(...)`."""
    return "lambda x, *args, **kwargs: x.%s(*args, **kwargs)" % name


def columns(form, method_name):
    """The names a group's script binds per op: `fn` (the torch function, or the database's
    lambda) and/or `method` (then the lifted arguments, varying())."""
    if form[0] == "method":
        return ["method"]
    return ["fn", "method"] if method_name is not None else ["fn"]


def varying(members):
    """(names of the lifted arguments whose value differs between the members, {name: value} of
    the others, written back into the rows)."""
    if "parameters" not in members[0]:
        return [], {}
    values = [dict(c["parameters"]) for c in members]
    names = [name for name, _ in members[0]["parameters"]]
    differ = [n for n in names if any(v[n] != values[0][n] for v in values)]
    return differ, {n: values[0][n] for n in names if n not in differ}


def op_row(script, form, method_name, lifted=()):
    """One OPS entry: the op's script name, then its fn and/or method, then the values of its
    lifted arguments."""
    values = []
    for column in columns(form, method_name):
        if column == "fn" and form[0] == "lambda":
            values.append(lambda_spelling(form[1]))
        elif column == "fn" and form[0] == "property":
            values.append("lambda x: x.%s" % form[1])
        elif column == "fn":
            values.append(form[1])
        else:
            values.append(method_lambda(method_name or form[1]))
    return "(%s)," % ", ".join([repr(script)] + values + list(lifted))


def group_file_name(members):
    """`ops_` and the members' names, shortened past three."""
    names = [c["full"].replace(".", "_") for c in members]
    if len(names) > 3:
        names = names[:2] + ["and_%d_more" % (len(names) - 2)]
    return "ops_" + "_".join(names)
