"""Inputs written once. The database's sample functions draw their tensors with make_tensor
under one seed, so the same tensor literal stands in many samples, of one script and of many.
Each literal that stands more than once in a script gets one name that says its dtype and shape
(`f32_2x3`, then `f32_2x3_b` for the script's next 2x3 float32 tensor...), bound at the top of
the script as `f32_2x3 = lambda: T(...)`, and each sample calls `f32_2x3()`. A script stays
self-contained: its reader sees every input beside the calls.

The tensor is still built afresh wherever the literal stood (an op may write into its input or
into an `out=` argument), so no sample sees what another did to it, exactly as when the literal
was written in the line.
"""
import ast
import collections

# The prelude's tensor builders (`T(values, dtype)`, `Z(shape, dtype)`): the literals to bind.
BUILDERS = ("T", "Z")
DTYPE_WORDS = {"f32": "f32", "f64": "f64", "i64": "i64", "b8": "b8", "torch.float16": "f16",
               "torch.bfloat16": "bf16", "torch.int32": "i32", "torch.int16": "i16",
               "torch.int8": "i8", "torch.uint8": "u8"}
# Past this many dimensions a name says the rank instead of every size.
MAX_NAMED_DIMS = 4


def literal_spans(line):
    """The byte spans and nodes of the builder calls in `line`, a one-line expression statement;
    [] for a line that is not one (a `def`, an indented body line)."""
    if line is None or line != line.lstrip():
        return []
    try:
        tree = ast.parse(line, mode="eval")
    except SyntaxError:
        return []
    return [(node.col_offset, node.end_col_offset, node) for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in BUILDERS]


def literal_shape(node):
    """The shape a builder call makes: Z's first argument, or the nesting of T's lists."""
    first = node.args[0]
    if node.func.id == "Z":
        return tuple(ast.literal_eval(first))
    shape = []
    while isinstance(first, ast.List):
        shape.append(len(first.elts))
        if not first.elts:
            break
        first = first.elts[0]
    return tuple(shape)


def letters(n):
    """0 -> '', 1 -> 'b', 2 -> 'c', ..., 25 -> 'z', 26 -> 'ba'..."""
    if n == 0:
        return ""
    out = ""
    while n:
        n, r = divmod(n, 26)
        out = chr(ord("a") + r) + out
    return out


def name_stem(node):
    dtype = DTYPE_WORDS.get(ast.unparse(node.args[1]), "t")
    shape = literal_shape(node)
    if not shape:
        return dtype + "_scalar"
    if len(shape) > MAX_NAMED_DIMS:
        return "%s_rank%d" % (dtype, len(shape))
    return dtype + "_" + "x".join(str(n) for n in shape)


def bind_inputs(lines, indent=""):
    """(definitions, lines): every builder call that stands more than once in `lines` (None
    entries pass through) bound to a name, in order of first use, and the lines calling it,
    written with `indent` (a group's sample lines run inside its loop)."""
    spans = [literal_spans(line) for line in lines]
    counts = collections.Counter()
    nodes = {}
    for line, found in zip(lines, spans):
        for a, b, node in found:
            text = line.encode()[a:b]
            nodes.setdefault(text, node)
            counts[text] += 1
    names = {}
    taken = collections.Counter()
    for text, node in nodes.items():
        if counts[text] > 1:
            stem = name_stem(node)
            suffix = letters(taken[stem])
            names[text] = stem + ("_" + suffix if suffix else "")
            taken[stem] += 1
    definitions = ["%s = lambda: %s" % (name, text.decode()) for text, name in names.items()]
    bound = []
    for line, found in zip(lines, spans):
        if line is None:
            bound.append(None)
            continue
        raw = line.encode()
        for a, b, _ in sorted(found, key=lambda span: -span[0]):
            if raw[a:b] in names:
                raw = raw[:a] + (names[raw[a:b]] + "()").encode() + raw[b:]
        bound.append(indent + raw.decode())
    return definitions, bound
