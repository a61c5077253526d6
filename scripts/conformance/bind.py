"""Inputs written once. The database's sample functions draw their tensors with make_tensor
under one seed, so the same tensor literal stands in many samples, of one script and of many
(every binary op's first float32 sample is the same pair of scalars). Each literal that stands
more than once gets one name that says its dtype and shape (`f32_2x3`, then `f32_2x3_b` for the
next 2x3 float32 tensor...), bound as `f32_2x3 = lambda: T(...)`, and each sample calls
`f32_2x3()`: a literal that several scripts use in tests/conformance/shared_inputs.py, which
they import by name (`from shared_inputs import f32_2x3`), one that only one script uses at the
top of that script.

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


def literal_texts(line, spans):
    return [line.encode()[a:b] for a, b, _ in spans]


def substitute(line, spans, names, indent=""):
    """`line` with each builder call that `names` names written as a call of that name."""
    if line is None:
        return None
    raw = line.encode()
    for a, b, _ in sorted(spans, key=lambda span: -span[0]):
        if raw[a:b] in names:
            raw = raw[:a] + (names[raw[a:b]] + "()").encode() + raw[b:]
    return indent + raw.decode()


class Namer:
    """Names in order of first use, one stem per dtype and shape: `f32_2x3`, `f32_2x3_b`..."""

    def __init__(self):
        self.taken = collections.Counter()

    def name(self, node):
        stem = name_stem(node)
        suffix = letters(self.taken[stem])
        self.taken[stem] += 1
        return stem + ("_" + suffix if suffix else "")


def bind_inputs(lines, indent=""):
    """(definitions, lines) for a script on its own: every builder call that stands more than
    once in `lines` (None entries pass through) bound to a name, in order of first use, and the
    lines calling it, written with `indent`."""
    spans = [literal_spans(line) for line in lines]
    counts = collections.Counter()
    nodes = {}
    for line, found in zip(lines, spans):
        for text, (_, _, node) in zip(literal_texts(line, found), found):
            nodes.setdefault(text, node)
            counts[text] += 1
    namer = Namer()
    names = {text: namer.name(node) for text, node in nodes.items() if counts[text] > 1}
    definitions = ["%s = lambda: %s" % (name, text.decode()) for text, name in names.items()]
    return definitions, [substitute(line, found, names, indent) for line, found in zip(lines, spans)]


class SuiteInputs:
    """The inputs of the whole suite, bound once: a literal that two or more scripts use is
    defined in the shared module (tests/conformance/shared_inputs.py), which each of them
    imports by name; one that a single script uses more than once is defined at the top of that
    script. Names are unique across the suite (first use first), so a name means one tensor
    wherever a reader meets it. `scripts`: [(name, lines)] in the order they are written."""

    def __init__(self, scripts):
        self.spans = {}
        users = collections.defaultdict(set)
        uses = collections.Counter()
        nodes = {}
        for name, lines in scripts:
            spans = [literal_spans(line) for line in lines]
            self.spans[name] = spans
            for line, found in zip(lines, spans):
                for text, (_, _, node) in zip(literal_texts(line, found), found):
                    nodes.setdefault(text, node)
                    users[text].add(name)
                    uses[text] += 1
        namer = Namer()
        self.names = {text: namer.name(node) for text, node in nodes.items()
                      if len(users[text]) > 1 or uses[text] > 1}
        self.shared = [text for text in nodes if len(users[text]) > 1]

    def shared_definitions(self):
        return ["%s = lambda: %s" % (self.names[text], text.decode()) for text in self.shared]

    def bind(self, name, lines):
        """(names imported from the shared module, local definitions, lines) of one script."""
        spans = self.spans[name]
        shared = set(self.shared)
        imported, local = [], []
        for line, found in zip(lines, spans):
            for text in literal_texts(line, found):
                if text not in self.names:
                    continue
                into = imported if text in shared else local
                if text not in into:
                    into.append(text)
        definitions = ["%s = lambda: %s" % (self.names[text], text.decode()) for text in local]
        bound = [substitute(line, found, self.names) for line, found in zip(lines, spans)]
        return [self.names[text] for text in imported], definitions, bound
