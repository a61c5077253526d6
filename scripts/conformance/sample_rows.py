"""Samples of one script that make the same call on other inputs are written as ONE row.

OpInfo draws the same sample sequence for every dtype (float32, float64, int64, bool), so an
op's script repeated its calls once per dtype block, and within a block a call often varies only
in a constant (`torch.diag(x, 2)`, `torch.diag(x, -2)`). Such samples are one row of the prelude's
`samples`: the call as a lambda whose parameters are what differs, then one (tag, value...) entry
per sample, in the order the samples came:

    samples(lambda x: torch.diag(x()), (("s0", f32_10), ("s8", f64_10)), printed=("s0", "s8"))

An input (a bound builder such as `f32_10`) is passed as the function that builds it and called
in the lambda, so it is still built afresh inside its own sample. Every sample keeps its tag and
prints the same lines; only their place in the output moves (a row runs where its first sample
stood), and tests/conformance.rs and scripts/conformance/same_recordings.py compare sample by
sample. A call that no other sample of the script makes stays a `sample(...)` line.

What may differ between the samples of a row (the holes of its call): a bound input's call
(`f32_10x10()`), a number, string or bool constant, a tuple or list of such constants, and a
dtype (`torch.float64`). Inline tensor literals (`T(...)`, `Z(...)`) are part of the call: two
samples with different inline literals are different calls.

The rows of a group script (op_groups.py), `for_ops(OPS, TAGS, lambda fn, method: CALL)`, are
gathered the same way into `for_ops_rows(OPS, lambda fn, method, x: CALL, ((TAGS, f32_20), ...))`:
each entry runs as the for_ops row it was.

A module script's lines (modules.py) that build the same module, `run_module_input(N, BUILD,
INPUTS, printed=P, backward=B, eval_mode=E)` or `run_error("xN", BUILD, INPUTS)` with the same
BUILD, are gathered likewise (merge_module_rows) into `run_module_input_rows(BUILD, ((N, INPUTS,
P, B, E), ...))` and `run_error_rows(BUILD, (("xN", INPUTS), ...))`, each entry run as the line it
was. An optimizer script's `run_optim("oN", lambda params: CLASS(params, KEYWORDS), KIND,
CLOSURE)` lines of one CLASS, KIND and CLOSURE whose keyword values are constants are gathered
into `run_optim_rows(CLASS, KIND, CLOSURE, (("oN", dict(KEYWORDS)), ...))` (merge_optim_rows).
"""
import ast
import keyword

BUILDERS = ("T", "Z")
DTYPES = ("float16", "bfloat16", "float32", "float64", "int8", "int16", "int32", "int64",
          "uint8", "bool")
# Parameter names of a row's lambda: an input's, then the rest's (a keyword's own name first).
INPUT_NAMES = ("x", "y", "z", "w")
OTHER_NAMES = ("a", "b", "c", "d", "e", "g", "h", "k")
# The runners a row may gather, and the prelude function that runs a row of each.
ROW_RUNNERS = {"sample": "samples", "for_ops": "for_ops_rows"}


def one_line_call(line, runners):
    """The ast.Call of `line` when it is one call of a function named in `runners`, else None."""
    if line is None or not line.startswith(tuple(r + "(" for r in runners)):
        return None
    try:
        call = ast.parse(line, mode="eval").body
    except SyntaxError:
        return None
    if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in runners:
        return call
    return None


def source_text(raw, node):
    """The text of `node` in `raw`, the bytes of the one line it was parsed from."""
    return raw[node.col_offset:node.end_col_offset].decode()


def gather_rows(lines, parse, row_text, stays=lambda line: False):
    """`lines` with the lines that `parse` reads as (key, entry) and that share a key over one
    stretch of such lines written as one row, row_text(key, entries), at the place of the first;
    a line that `stays` keeps its place without ending the stretch, any other line ends it."""
    out, stretch = [], []

    def flush():
        by_key = {}
        for _, parsed in stretch:
            if parsed is not None:
                by_key.setdefault(parsed[0], []).append(parsed[1])
        for line, parsed in stretch:
            if parsed is None:
                out.append(line)
                continue
            entries = by_key.pop(parsed[0], None)
            if entries is not None:
                out.append(line if len(entries) == 1 else row_text(parsed[0], entries))
        stretch.clear()

    for line in lines:
        parsed = parse(line)
        if parsed is not None or stays(line):
            stretch.append((line, parsed))
        else:
            flush()
            out.append(line)
    flush()
    return out


def parse_runner_call(line):
    """(runner, ops text, tag text, parameters text, call text, printed) of a one-line
    `sample("TAG", lambda: CALL)` or `for_ops(OPS, TAGS, lambda fn, method: CALL)` (either with
    `printed=True`), else None."""
    call = one_line_call(line, ROW_RUNNERS)
    if call is None:
        return None
    runner, raw = call.func.id, line.encode()
    ops_count = 1 if runner == "for_ops" else 0
    if len(call.args) != ops_count + 2 or not isinstance(call.args[-1], ast.Lambda):
        return None
    lam = call.args[-1]
    if lam.args.vararg or lam.args.kwarg or lam.args.kwonlyargs or lam.args.defaults \
            or (runner == "sample" and lam.args.args):
        return None
    printed = False
    for k in call.keywords:
        if k.arg != "printed" or not isinstance(k.value, ast.Constant):
            return None
        printed = bool(k.value.value)

    def text(node):
        return source_text(raw, node)
    ops = text(call.args[0]) if ops_count else None
    return (runner, ops, text(call.args[ops_count]), ", ".join(a.arg for a in lam.args.args),
            text(lam.body), printed)


def is_constant(node):
    """A number, string or bool (a negative number too), or a tuple or list of them."""
    if isinstance(node, ast.Constant):
        return node.value is not None and not isinstance(node.value, bytes)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return isinstance(node.operand, ast.Constant) \
            and isinstance(node.operand.value, (int, float)) \
            and not isinstance(node.operand.value, bool)
    if isinstance(node, (ast.Tuple, ast.List)):
        return bool(node.elts) and all(is_constant(e) for e in node.elts)
    return False


def is_dtype(node):
    """`torch.float32` and the like."""
    return isinstance(node, ast.Attribute) and node.attr in DTYPES \
        and isinstance(node.value, ast.Name) and node.value.id == "torch"


def holes(node, inputs, raw, keyword_name=None):
    """[(start, end, kind, keyword)] of the parts of `node` (parsed from `raw`) a row may vary,
    in text order."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        if node.func.id in inputs and not node.args and not node.keywords:
            return [(node.col_offset, node.end_col_offset, "input", None)]
        if node.func.id in BUILDERS:
            return []
    # A tuple without its parentheses (`x[[0, 2], [1, 3]]`) would be several values in a row's
    # entry: only its items may vary.
    bare_tuple = isinstance(node, ast.Tuple) and raw[node.col_offset:node.col_offset + 1] != b"("
    if (is_constant(node) and not bare_tuple) or is_dtype(node):
        return [(node.col_offset, node.end_col_offset, "value", keyword_name)]
    found = []
    for field, value in ast.iter_fields(node):
        children = value if isinstance(value, list) else [value]
        for child in children:
            if isinstance(child, ast.keyword):
                found += holes(child.value, inputs, raw, child.arg)
            elif isinstance(child, ast.AST) and field != "ctx":
                found += holes(child, inputs, raw)
    return sorted(found)


class Call:
    """One sample's (or for_ops row's) call, cut at its holes: `key` is the runner and the call
    with every hole blanked (samples with the same key make the same call), `values` the text of
    each hole."""

    def __init__(self, runner, ops, tag, params, text, printed, inputs):
        self.runner, self.ops, self.params = runner, ops, params
        self.tag, self.text, self.printed = tag, text, printed
        raw = text.encode()
        # A hole's offsets are relative to the call parsed on its own.
        self.holes = holes(ast.parse(text, mode="eval").body, inputs, raw)
        pieces, self.values, at = [repr((runner, ops, params)).encode()], [], 0
        for start, end, kind, _ in self.holes:
            pieces += [raw[at:start], b"\0" + kind.encode() + b"\0"]
            self.values.append(raw[start:end].decode())
            at = end
        pieces.append(raw[at:])
        self.key = b"".join(pieces)


def fresh_names(preferred, stem, taken):
    """`preferred`, then stem2, stem3...: each name that is not in `taken` (which grows)."""
    for name in preferred + tuple("%s%d" % (stem, i) for i in range(2, 1000)):
        if name not in taken:
            taken.add(name)
            yield name


def parameter_names(calls):
    """The lambda's parameter name of each hole that differs between `calls`; None for a hole
    every sample fills alike (written back into the call)."""
    first = calls[0]
    taken = {n.id for n in ast.walk(ast.parse(first.text, mode="eval")) if isinstance(n, ast.Name)}
    taken |= set(first.params.split(", ")) - {""}
    inputs = fresh_names(INPUT_NAMES, "x", taken)
    others = fresh_names(OTHER_NAMES, "a", taken)
    names = []
    for i, (_, _, kind, keyword_name) in enumerate(first.holes):
        if all(c.values[i] == first.values[i] for c in calls):
            names.append(None)
        elif kind == "input":
            names.append(next(inputs))
        elif keyword_name and keyword_name.isidentifier() and not keyword.iskeyword(keyword_name) \
                and keyword_name not in taken:
            taken.add(keyword_name)
            names.append(keyword_name)
        else:
            names.append(next(others))
    return names


def tuple_text(items):
    return "(%s)" % (", ".join(items) + ("," if len(items) == 1 else ""))


def row_line(calls):
    """The row (`samples(...)` or `for_ops_rows(...)`) of the calls that share a key."""
    names = parameter_names(calls)
    first = calls[0]
    raw, pieces, at = first.text.encode(), [], 0
    kinds = []
    for (start, end, kind, _), name in zip(first.holes, names):
        pieces.append(raw[at:start].decode())
        if name is None:
            pieces.append(raw[start:end].decode())
        else:
            pieces.append(name + "()" if kind == "input" else name)
            kinds.append(kind)
        at = end
    pieces.append(raw[at:].decode())
    # An input's entry is the builder itself (`f32_10`), which the lambda calls.
    entries = []
    for c in calls:
        values = [v for v, n in zip(c.values, names) if n is not None]
        values = [v[:-len("()")] if kind == "input" else v for v, kind in zip(values, kinds)]
        entries.append(tuple_text([c.tag] + values))
    params = ", ".join(([first.params] if first.params else [])
                       + [n for n in names if n is not None])
    head = [first.ops] if first.ops is not None else []
    line = "%s(%s" % (ROW_RUNNERS[first.runner], ", ".join(
        head + ["lambda%s: %s" % (" " + params if params else "", "".join(pieces)),
                tuple_text(entries)]))
    printed = [c.tag for c in calls if c.printed]
    if printed:
        line += ", printed=" + tuple_text(printed)
    return line + ")"


def merge(lines, inputs):
    """`lines` with the `sample(...)` (or `for_ops(...)`) lines that make the same call (over
    one stretch of such lines: another line, which may define what later samples use, ends it)
    written as one row, at the place of its first sample; other lines as they were. `inputs`:
    the names of the script's bound inputs."""
    def parse(line):
        parsed = parse_runner_call(line)
        if parsed is None:
            return None
        c = Call(*parsed, inputs)
        return c.key, c
    return gather_rows(lines, parse, lambda key, calls: row_line(calls))


# The module runners whose lines merge_module_rows gathers: the row runner of each, and the
# keywords of its line that become the entry's last values (in this order).
MODULE_ROW_RUNNERS = {"run_module_input": ("run_module_input_rows", ("printed", "backward", "eval_mode")),
                      "run_error": ("run_error_rows", ())}


def parse_module_call(line):
    """((runner, build text), entry text) of a one-line `run_module_input(...)` or
    `run_error(...)` whose second argument is the constructor lambda, else None."""
    call = one_line_call(line, MODULE_ROW_RUNNERS)
    if call is None or len(call.args) != 3 or not isinstance(call.args[1], ast.Lambda):
        return None
    keywords = MODULE_ROW_RUNNERS[call.func.id][1]
    if [k.arg for k in call.keywords] != list(keywords):
        return None
    raw = line.encode()
    entry = [source_text(raw, call.args[0]), source_text(raw, call.args[2])] \
        + [source_text(raw, k.value) for k in call.keywords]
    return (call.func.id, source_text(raw, call.args[1])), tuple_text(entry)


def merge_module_rows(lines):
    """`lines` with the module runner lines that build the same module (over one stretch of
    such lines) written as one row, at the place of the first; other lines as they were. A None
    (a sample with no line of its own) stays and does not end a stretch."""
    def row_text(key, entries):
        runner, build = key
        return "%s(%s, %s)" % (MODULE_ROW_RUNNERS[runner][0], build, tuple_text(entries))
    return gather_rows(lines, parse_module_call, row_text, stays=lambda line: line is None)

def parse_optim_call(line):
    """((class, kind, closure) texts, entry text) of a one-line `run_optim("oN", lambda params:
    CLASS(params, k=CONSTANT, ...), KIND, CLOSURE)`, else None."""
    call = one_line_call(line, ("run_optim",))
    if call is None or len(call.args) != 4 or call.keywords \
            or not isinstance(call.args[1], ast.Lambda):
        return None
    lam = call.args[1]
    if [a.arg for a in lam.args.args] != ["params"] or not isinstance(lam.body, ast.Call):
        return None
    make = lam.body
    if [ast.dump(a) for a in make.args] != [ast.dump(ast.Name("params", ast.Load()))] \
            or not all(k.arg and is_constant(k.value) for k in make.keywords):
        return None
    raw = line.encode()
    keywords = ", ".join("%s=%s" % (k.arg, source_text(raw, k.value)) for k in make.keywords)
    key = tuple(source_text(raw, node) for node in (make.func, call.args[2], call.args[3]))
    return key, tuple_text([source_text(raw, call.args[0]), "dict(%s)" % keywords])


def merge_optim_rows(lines):
    """`lines` with the run_optim lines (over one stretch of them) that parse_optim_call reads
    with the same class, kind and closure written as one `run_optim_rows` row, at the place of
    the first; other lines as they were (a run_optim line it cannot read keeps its place)."""
    return gather_rows(
        lines, parse_optim_call,
        lambda key, entries: "run_optim_rows(%s, %s)" % (", ".join(key), tuple_text(entries)),
        stays=lambda line: line is not None and line.startswith("run_optim("))
