#!/usr/bin/env python3
"""Extract PyTorch's PythonArgParser signatures and record its argument errors.

Run under the real PyTorch (scripts/ never needs network):

    OMP_NUM_THREADS=1 .venv-torch/bin/python scripts/gen-signatures.py

What it does, and why each step:

1. libtorch_python.so holds every `PythonArgParser` signature string verbatim
   (`softmax(Tensor input, int64_t dim, ScalarType? dtype=None, *, Tensor out=None)`).
   We take every NUL-terminated string of the library that parses as a signature with
   PyTorch's own grammar (python_arg_parser.cpp's type map).
2. The strings say nothing about where they are bound: `sum(IntArrayRef[1]? dim, ...)` is a
   Tensor method, `sum(Tensor input, ...)` the torch function. So for every callable of the
   namespaces below we *ask the live module*: a call with a bogus keyword makes a
   multi-overload parser list its visible overloads ("expected one of: * (...)"), and a
   single-overload parser name its required arguments / positional count. The overloads whose
   rendering (FunctionSignature::toString, extra_args, missing_args) reproduces those answers
   are that callable's; hidden (`|hidden`, `|deprecated`) overloads are never listed, so they
   are attached to the parser whose visible overloads sit next to them in the library.
3. It writes src/torch/signatures/<namespace>.sig (one overload per line, PyTorch's text
   verbatim, overloads in PyTorch's order: the library's, deprecated ones last as
   PythonArgParser sorts them).
4. It records PyTorch's exact TypeError for a broad sample of bad calls into
   tests/argparse/<namespace>.json, which tests/torch_argparse.rs replays through our binder (src/torch/argparse/).
"""

import glob
import json
import os
import re
import signal
import sys

import numpy
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# python_arg_parser.cpp's type_map, with FunctionParameter::type_name() for each.
TYPE_NAMES = {
    "Tensor": "Tensor",
    "Scalar": "Number",
    "int64_t": "int",
    "SymInt": "int",
    "double": "float",
    "complex": "complex",
    "TensorList": "tuple of Tensors",
    "c10::List<::std::optional<Tensor>>": "tuple of Tensors",
    "c10::List<std::optional<Tensor>>": "tuple of Tensors",
    "c10::List<c10::optional<Tensor>>": "tuple of Tensors",
    "IntArrayRef": "tuple of ints",
    "SymIntArrayRef": "tuple of ints",
    "ArrayRef<double>": "tuple of floats",
    "Generator": "torch.Generator",
    "bool": "bool",
    "Storage": "torch.Storage",
    "PyObject*": "object",
    "ScalarType": "torch.dtype",
    "Layout": "torch.layout",
    "MemoryFormat": "torch.memory_format",
    "QScheme": "torch.qscheme",
    "Device": "torch.device",
    "DeviceIndex": "int",
    "Stream": "torch.Stream",
    "std::string": "str",
    "c10::string_view": "str",
    "std::string_view": "str",
    "Dimname": "name",
    "DimnameList": "tuple of names",
    "ScalarList": "tuple of Scalars",
    "DispatchKeySet": "DispatchKeySet",
}

NAMESPACES = {
    # file stem: (how scripts reach it, the object holding the parsers)
    "torch": ("torch", torch._C._VariableFunctions),
    "tensor": ("Tensor", torch._C.TensorBase),
    "nn": ("torch._C._nn", torch._C._nn),
    "special": ("torch._C._special", torch._C._special),
    "linalg": ("torch._C._linalg", torch._C._linalg),
    "fft": ("torch._C._fft", torch._C._fft),
}

NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*\(")


class Param:
    def __init__(self, text, kw_only):
        space = text.find(" ")
        if space < 0:
            raise ValueError("missing type: " + text)
        ty = text[:space]
        self.allow_none = "?" in ty
        ty = ty.replace("?", "")
        self.size = 0
        if "[" in ty:
            b = ty.index("[")
            self.size = int(ty[b + 1 : -1])
            ty = ty[:b]
        if ty not in TYPE_NAMES:
            raise ValueError("unknown type " + ty)
        self.ty = ty
        rest = text[space + 1 :]
        if not re.match(r"^[A-Za-z_][A-Za-z0-9_]*(=.+)?$", rest):
            raise ValueError("bad name " + rest)
        if "=" in rest:
            self.name, self.default = rest.split("=", 1)
            self.optional = True
            if self.default == "None":
                self.allow_none = True
        else:
            self.name, self.default, self.optional = rest, None, False
        self.kw_only = kw_only

    def type_name(self):
        return TYPE_NAMES[self.ty]


class Signature:
    """FunctionSignature's constructor, in Python."""

    def __init__(self, text):
        self.text = text
        paren = text.index("(")
        self.name = text[:paren]
        close = text.rindex(")")
        tail = text[close + 1 :]
        if tail not in ("", "|deprecated", "|hidden", "|noargs"):
            raise ValueError("bad tail " + tail)
        # |noargs is ours, not PyTorch's: a METH_NOARGS method (no parser; CPython's errors)
        self.noargs = tail == "|noargs"
        self.hidden = tail in ("|deprecated", "|hidden")
        self.deprecated = tail == "|deprecated"
        body = text[paren + 1 : close]
        self.params = []
        kw = False
        if body:
            for p in body.split(", "):
                if p == "*":
                    kw = True
                else:
                    self.params.append(Param(p, kw))
        self.min_args = sum(1 for p in self.params if not p.optional)
        self.max_args = len(self.params)
        self.max_pos = sum(1 for p in self.params if not p.kw_only)

    def to_string(self):
        out, kw_seen = [], False
        for p in self.params:
            s = ""
            if p.kw_only and not kw_seen:
                s = "*, "
                kw_seen = True
            s += p.type_name() + " " + p.name
            if p.optional:
                s += " = " + p.default
            out.append(s)
        return "(" + ", ".join(out) + ")"

    def missing_message(self, idx=0):
        names = ['"%s"' % p.name for p in self.params[idx:] if not p.optional]
        n = len(names)
        # sic: PyTorch pluralises the wrong way round
        return "%s() missing %d required positional argument%s: %s" % (
            self.name,
            n,
            "s" if n == 1 else "",
            ", ".join(names),
        )

    def extra_message(self, nargs):
        if self.min_args != self.max_pos:
            return "%s() takes from %d to %d positional arguments but %d were given" % (
                self.name,
                self.min_args,
                self.max_pos,
                nargs,
            )
        return "%s() takes %d positional argument%s but %d %s given" % (
            self.name,
            self.max_pos,
            "" if self.max_pos == 1 else "s",
            nargs,
            "was" if nargs == 1 else "were",
        )


def library_strings(path):
    """NUL-terminated printable strings of the library, in file order."""
    data = open(path, "rb").read()
    for m in re.finditer(rb"[\x20-\x7e]{4,}\x00", data):
        yield m.start(), m.group()[:-1].decode()


def extract(path):
    sigs = []  # (offset, Signature)
    unknown = {}
    for off, whole in library_strings(path):
        if not (whole.endswith(")") or whole.endswith("|deprecated") or whole.endswith("|hidden")):
            continue
        paren = whole.find("(")
        if paren <= 0:
            continue
        # the linker stores "xlogy(...)" inside "special_xlogy(...)" (tail merging), so every
        # tail that starts a name is a candidate; the live module decides which are real
        for start in range(paren):
            s = whole[start:]
            if not NAME_RE.match(s):
                continue
            try:
                sigs.append((off + start, Signature(s), start == 0))
            except ValueError as e:
                msg = str(e)
                if start == 0 and msg.startswith("unknown type"):
                    unknown[msg] = unknown.get(msg, 0) + 1
    return sigs, unknown


class Bogus:
    """Nothing PyTorch's parser accepts except a PyObject* parameter."""


def error_of(fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except Exception as e:  # noqa: BLE001 - we record whatever PyTorch raises
        return type(e).__name__, str(e)
    return None, None


def probe_messages(fn):
    return error_of(fn, __probe__=None)[1], error_of(fn, *([object()] * 40))[1]


def callables(obj, is_method):
    for name in sorted(dir(obj)):
        if name.startswith("__"):
            continue
        attr = getattr(obj, name, None)
        kind = type(attr).__name__
        if is_method and kind != "method_descriptor":
            continue
        if not is_method and kind != "builtin_function_or_method":
            continue
        yield name


def bound(ns, name):
    if ns == "tensor":
        # the C method even where torch/_tensor.py overrides it in Python
        return getattr(torch._C.TensorBase, name).__get__(torch.ones(2, 2))
    return getattr(NAMESPACES[ns][1], name)


LIST_HEAD = "received an invalid combination of arguments - got "


def listed_overloads(msg):
    """The visible overloads a "received an invalid combination" message lists."""
    if msg is None or LIST_HEAD not in msg:
        return None
    if "expected one of:\n" in msg:
        lines = msg.split("expected one of:\n", 1)[1].split("\n")
        return [l[3:] for l in lines if l.startswith(" * ")]
    if ", but expected (" in msg:  # one visible overload, the others hidden
        return [msg.split(", but expected ", 1)[1]]
    return None


def single_predictions(sig):
    """What a parser with only `sig` says to the two probes."""
    if sig.min_args > 0:
        p1 = sig.missing_message()
    else:
        p1 = "%s() got an unexpected keyword argument '__probe__'" % sig.name
    if 40 > sig.max_pos and not (
        sig.max_pos == 1 and sig.params[0].ty in ("IntArrayRef", "SymIntArrayRef")
    ):
        p2 = sig.extra_message(40)
    else:
        p2 = None  # varargs int list: the parse goes on and fails on a type
    return p1, p2


def parser_name(msg, fallback):
    """The name a parser's message starts with: `torch.spmm` answers as `mm()`."""
    m = re.match(r"^(?:Tensor\.)?([A-Za-z_][A-Za-z0-9_]*)\(", msg or "")
    return m.group(1) if m else fallback


def keyword_probe(fn, sig, kwname):
    """Valid required positionals plus one bogus keyword: names the keyword's type, or refuses it."""
    args = []
    for p in sig.params:
        if p.optional or p.kw_only:
            break
        if p.ty not in VALID:
            return None
        args.append(VALID[p.ty])
    if any(not p.optional for p in sig.params if p.kw_only):
        return None
    env = {"torch": torch, "t": torch.ones(2, 2)}
    return error_of(fn, *[eval(a, env) for a in args], **{kwname: Bogus()})[1]


def positional_probe(fn, sig, i):
    args = []
    for p in sig.params[:i]:
        if p.kw_only or p.ty not in VALID:
            return None
        args.append(VALID[p.ty])
    env = {"torch": torch, "t": torch.ones(2, 2)}
    return error_of(fn, *[eval(a, env) for a in args], Bogus())[1]


def positional_prediction(sig, i):
    if i >= len(sig.params) or sig.params[i].kw_only:
        return None
    p = sig.params[i]
    return "%s(): argument '%s' (position %d) must be %s, not Bogus" % (sig.name, p.name, i + 1, p.type_name())


def keyword_prediction(sig, kwname):
    for p in sig.params:
        if p.name == kwname:
            if p.ty == "PyObject*":
                return None
            return "%s(): argument '%s' must be %s, not Bogus" % (sig.name, kwname, p.type_name())
    return "%s() got an unexpected keyword argument '%s'" % (sig.name, kwname)


def assign(ns, name, by_name):
    """The overloads (in PyTorch's order) of `ns.name`, and how they were verified."""
    fn = bound(ns, name)
    p1, p2 = probe_messages(fn)
    noargs = "%s() takes no keyword arguments" % ("Tensor." + name if ns == "tensor" else name)
    if p1 == noargs:
        return [Signature(name + "()|noargs")], "noargs"
    pname = parser_name(p1, name)
    cands = by_name.get(pname, [])
    if not cands:
        return None, "no signature named " + pname
    listed = listed_overloads(p1) or listed_overloads(p2)
    if listed is not None:
        chosen = []
        for want in listed:
            hit = [c for c in cands if not c[1].hidden and c[1].to_string() == want and c not in chosen]
            if not hit:
                return None, "listed overload not found: " + want
            # identical text in two parsers: prefer whole strings, then the one beside the others
            hit.sort(key=lambda c: (not c[2], abs(c[0] - chosen[-1][0]) if chosen else 0))
            chosen.append(hit[0])
        lo = min(c[0] for c in chosen) - 4096
        hi = max(c[0] for c in chosen) + 4096
        # hidden overloads: the library keeps one parser's strings together
        method_like = all(not c[1].params or c[1].params[0].name not in ("input", "self") for c in chosen)
        for c in cands:
            if c[1].hidden and c[2] and lo <= c[0] <= hi:
                first = c[1].params[0].name if c[1].params else ""
                if method_like == (first not in ("input", "self")):
                    chosen.append(c)
        chosen.sort(key=lambda c: c[0])
        chosen.sort(key=lambda c: c[1].deprecated)  # stable: PyTorch checks deprecated last
        return [c[1] for c in chosen], "listed"
    ok = []
    for c in cands:
        if c[1].hidden:
            continue
        e1, e2 = single_predictions(c[1])
        if e1 == p1 and (e2 is None or e2 == p2):
            ok.append(c)
    if not ok:
        return None, "no candidate reproduces %r / %r" % (p1, p2)
    # keyword-only parameters do not show in those two answers: ask about each one
    kwnames = sorted({p.name for c in ok for p in c[1].params})
    for kw in kwnames:
        if len({c[1].text for c in ok}) <= 1:
            break
        answer = keyword_probe(fn, ok[0][1], kw)
        if answer is None:
            continue
        ok = [c for c in ok if keyword_prediction(c[1], kw) in (answer, None)] or ok
    # and the type of each positional parameter: a bogus value at position i
    for i in range(max(len(c[1].params) for c in ok)):
        if len({c[1].text for c in ok}) <= 1:
            break
        answer = positional_probe(fn, ok[0][1], i)
        if answer is None:
            continue
        ok = [c for c in ok if positional_prediction(c[1], i) == answer] or ok
    texts = {c[1].text for c in ok}
    if len(texts) > 1:
        # what no call can tell apart (IntArrayRef vs SymIntArrayRef, a default's value): prefer
        # a whole string of the library to the tail of a longer one, then the SymInt spelling
        # that PyTorch's code generator emits for every SymInt schema
        ok.sort(key=lambda c: (not c[2], "Sym" not in c[1].text))
        return [ok[0][1]], "single, chosen among: " + " | ".join(sorted(texts))
    return [ok[0][1]], "single"


# ---------------------------------------------------------------- the error corpus

VALID = {
    "Tensor": "t",
    "Scalar": "1",
    "int64_t": "0",
    "SymInt": "0",
    "double": "1.0",
    "complex": "1.0",
    "TensorList": "(t,)",
    "c10::List<::std::optional<Tensor>>": "(t,)",
    "c10::List<std::optional<Tensor>>": "(t,)",
    "c10::List<c10::optional<Tensor>>": "(t,)",
    "IntArrayRef": "(0,)",
    "SymIntArrayRef": "(1,)",
    "ArrayRef<double>": "(1.0,)",
    "bool": "False",
    "ScalarType": "torch.float32",
    "Device": "'cpu'",
    "std::string": "'mean'",
    "c10::string_view": "'mean'",
    "std::string_view": "'mean'",
    "PyObject*": "None",
}

# a wrong value per parameter type: a str is wrong for every type but strings
WRONG = ["'x'", "1.5", "None", "(1, 'x')", "True", "torch.tensor(1.5)", "np.int64(2)"]


def corpus_calls(sig, is_method):
    """Bad calls that exercise each rule of the parser for one overload."""
    calls = [("()", "{}"), ("(%s)" % ", ".join(["o"] * (sig.max_pos + 1)), "{}"), ("()", "{'bogus': 1}")]
    pos = [p for p in sig.params if not p.kw_only]
    good = []
    for i, p in enumerate(sig.params):
        if p.ty not in VALID:
            break
        for w in WRONG:
            if not p.kw_only:
                args = good + [w]
                calls.append(("(" + ", ".join(args) + ("," if len(args) == 1 else "") + ")", "{}"))
            else:
                calls.append(("(" + ", ".join(good) + ("," if len(good) == 1 else "") + ")", "{%r: %s}" % (p.name, w)))
        if not p.kw_only:
            # the same argument by position and by keyword
            if good:
                calls.append(("(" + ", ".join(good) + ("," if len(good) == 1 else "") + ")", "{%r: %s, 'bogus2': 1}" % (pos[0].name, VALID.get(pos[0].ty, "None"))))
            calls.append(("(" + ", ".join(good + [VALID[p.ty]]) + ("," if not good else "") + ")", "{%r: %s}" % (p.name, VALID[p.ty])))
            good = good + [VALID[p.ty]]
        if p.kw_only and not p.optional:
            good_kw = True  # noqa: F841 - keyword-only required params end the positional walk
    # an int where a list is expected; a list with a bad element
    return calls


def cases_for(ns, name, sigs, limit):
    env = {"torch": torch, "o": object(), "object": object, "np": numpy}
    seen = set()
    cases = []
    for sig in sigs:
        if sig.hidden:
            continue
        for args_src, kw_src in corpus_calls(sig, ns == "tensor"):
            if (args_src, kw_src) in seen:
                continue
            seen.add((args_src, kw_src))
            env["t"] = torch.ones(2, 2)
            try:
                args = eval(args_src, env)
                kwargs = eval(kw_src, env)
            except Exception:
                continue
            ty, msg = error_of(bound(ns, name), *args, **kwargs)
            if ty != "TypeError" or msg is None:
                continue
            # only the parser's own messages: the op's errors are not the binder's
            if not msg.startswith(name + "("):
                continue
            if "expected one of" in msg and kw_src.count(":") > 1:
                continue  # the listing's keyword order is libstdc++'s hash order
            cases.append({"name": name, "args": args_src, "kwargs": kw_src, "message": msg})
            if len(cases) >= limit:
                return cases
    return cases


def isolated(fn, *args):
    """fn(*args) in a forked child: a valid call on toy inputs may crash the process or hang."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        signal.alarm(20)
        try:
            data = json.dumps(fn(*args)).encode()
        except BaseException:
            data = b"[]"
        with os.fdopen(w, "wb") as f:
            f.write(data)
        os._exit(0)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        data = f.read()
    os.waitpid(pid, 0)
    try:
        return json.loads(data)
    except ValueError:
        return None


def record_corpus(ns, table, limit_per_name=24):
    out, crashed = [], []
    for name, sigs in sorted(table.items()):
        if name.startswith("_"):
            continue  # internals are not what learners call
        got = isolated(cases_for, ns, name, sigs, limit_per_name)
        if got is None:
            crashed.append(name)
            continue
        out.extend(got)
    if crashed:
        print("   corpus: these crashed or hung PyTorch on toy inputs:", " ".join(crashed))
    return out


def main():
    so = glob.glob(os.path.join(os.path.dirname(torch.__file__), "lib", "libtorch_python.so"))[0]
    sigs, unknown = extract(so)
    if unknown:
        print("skipped strings with unknown types:", unknown, file=sys.stderr)
    by_name = {}
    for off, s, whole in sigs:
        by_name.setdefault(s.name, []).append((off, s, whole))
    # one string can appear twice in the file (several translation units); keep each text once
    for name in by_name:
        uniq, seen = [], set()
        for c in sorted(by_name[name], key=lambda c: not c[2]):
            if c[1].text not in seen:
                seen.add(c[1].text)
                uniq.append(c)
        by_name[name] = sorted(uniq, key=lambda c: c[0])
    outdir = os.path.join(ROOT, "src", "torch", "signatures")
    os.makedirs(outdir, exist_ok=True)
    corpus_dir = os.path.join(ROOT, "tests", "argparse")
    os.makedirs(corpus_dir, exist_ok=True)
    report = {}
    for ns, (label, obj) in NAMESPACES.items():
        table, failures, guesses = {}, [], []
        for name in callables(obj, ns == "tensor"):
            chosen, how = assign(ns, name, by_name)
            if chosen is None:
                if not how.startswith("no signature named"):
                    failures.append((name, how))
                continue
            if how.startswith("single, chosen"):
                guesses.append((name, how))
            table[name] = chosen
        with open(os.path.join(outdir, ns + ".sig"), "w") as f:
            f.write("# %s: PythonArgParser signatures of PyTorch %s, verbatim from libtorch_python.so.\n" % (label, torch.__version__))
            f.write("# Generated by scripts/gen-signatures.py; do not edit. One overload per line, in the\n")
            f.write("# order PyTorch tries them; a blank line separates callables.\n")
            for name in sorted(table):
                sigs = table[name]
                if sigs[0].name != name:
                    # an alias: torch.spmm is mm's parser, and its errors say mm()
                    f.write("%s = %s\n" % (name, sigs[0].name))
                for s in sigs:
                    f.write(s.text + "\n")
                f.write("\n")
        corpus = record_corpus(ns, table)
        with open(os.path.join(corpus_dir, ns + ".json"), "w") as f:
            # one case a line: reviewable diffs when PyTorch changes a message
            f.write('{"torch": %s, "namespace": %s,\n "setup": "import numpy as np; t = torch.ones(2, 2); o = object()",\n "cases": [\n' % (json.dumps(torch.__version__), json.dumps(label)))
            f.write(",\n".join(json.dumps(c) for c in corpus))
            f.write("\n]}\n")
        report[ns] = (len(table), sum(len(v) for v in table.values()), len(corpus), failures)
        print("%s: %d callables, %d overloads, %d recorded errors, %d unassigned" % (ns, len(table), report[ns][1], len(corpus), len(failures)))
        for name, why in failures:
            print("   unassigned %s.%s: %s" % (ns, name, why[:200]))
        for name, why in guesses:
            print("   %s.%s: %s" % (ns, name, why[:300]))


if __name__ == "__main__":
    main()
