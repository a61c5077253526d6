#!/usr/bin/env python3
"""The import graph between src/'s top-level modules, its cycles and its arrows that run back.

An edge A -> B means code of module A (src/A.rs or src/A/**) names `crate::B`. Comments, string
literals and `#[cfg(test)]` code are left out: the graph is the product's, and a unit test may
drive its module from above. A back-arrow is an edge from a lower layer to a higher one in
LAYERS below (the order data flows in, docs/design.md); modules of one layer may not import
each other either, except the pairs in ALLOWED. The UI and the subcommands reach the engine,
the interpreter and the bindings only through run; inside the modules of NO_INNER_CYCLES, no
files import each other around a circle.

    scripts/module-graph.py            prints the graph, the cycles and the back-arrows
    scripts/module-graph.py --check    the same, and exits 1 on any cycle or back-arrow that is
                                       not allow-listed, or when docs/design.md shows another
                                       graph (scripts/test.sh runs this)
    scripts/module-graph.py --update-docs   writes the graph into docs/design.md
    scripts/module-graph.py --src DIR  the graph of another src/ folder
"""

import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
if "--src" in sys.argv[1:]:
    # Another tree's src/ (e.g. an older commit's, unpacked with `git archive`).
    ROOT = sys.argv[sys.argv.index("--src") + 1]

# Lowest first. A module may import modules of lower layers only.
LAYERS = [
    ["regular_file", "budget", "units"],
    # The tensor engine and the Python interpreter know nothing of each other.
    ["engine", "script"],
    # The Python-visible modules bind the two: numpy, then torch (which converts from and to
    # numpy arrays) on what both share (the tensor handle, dtypes, errors, warnings).
    ["binding"],
    ["numpy"],
    ["torch"],
    ["lesson", "run_report"],
    ["progress", "explain"],
    ["fault_injection"],
    ["run"],
    ["classroom"],
    ["ui"],
    ["commands"],
]

# The UI and the subcommands reach the engine, the interpreter and the bindings only through
# run (docs/design.md: "The UI never calls the engine directly").
THROUGH_RUN = {"ui", "commands"}
BENEATH_RUN = {"engine", "script", "binding", "torch", "numpy"}

# Inside these modules no two submodules import each other, directly or around a circle
# (src/run/doctor.rs, pytorch.rs and diff.rs once did). Modules not listed still have such
# circles between their files; they are printed, not failed.
# engine: the op definitions (engine/op) sit beneath both halves of every op, so the kernels
# (host/, cuda/) and the device interface (backend/) never import the tensor front half.
NO_INNER_CYCLES = {"run", "commands", "classroom", "lesson", "progress", "run_report", "engine"}

# Edges that are known and being removed on other branches (issue 34): each one names why.
ALLOWED = {}


def strip_comments_and_strings(text):
    """The code of a Rust file with comments, string and char literals blanked out."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    if text[i] == "\n":
                        out.append("\n")
                    i += 1
        elif re.match(r'b?r#*"', text[i:i + 8]) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'b?r(#*)"', text[i:])
            end = text.find('"' + m.group(1), i + m.end())
            end = n if end < 0 else end + 1 + len(m.group(1))
            out.append('""' + "\n" * text.count("\n", i, end))
            i = end
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j + 1
        elif c == "'":
            # A char literal ('x', '\n', '\u{1F600}') or a lifetime ('a).
            if i + 1 < n and text[i + 1] == "\\":
                j = text.find("'", i + 2)
                i = j + 1
                out.append("' '")
            elif i + 2 < n and text[i + 2] == "'":
                i += 3
                out.append("' '")
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def without_test_code(code):
    """Drops `#[cfg(test)]` items (a `mod tests { ... }` block or any braced item)."""
    out, i = [], 0
    for m in re.finditer(r"#\[cfg\(test\)\]", code):
        if m.start() < i:
            continue
        out.append(code[i:m.start()])
        j = m.end()
        # The item ends at `;` (e.g. `mod tests;` or a `use`) or at its block's closing brace.
        semi, brace = code.find(";", j), code.find("{", j)
        if semi >= 0 and (brace < 0 or semi < brace):
            i = semi + 1
            continue
        depth, k = 0, brace
        while k < len(code):
            if code[k] == "{":
                depth += 1
            elif code[k] == "}":
                depth -= 1
                if depth == 0:
                    break
            k += 1
        i = k + 1
    out.append(code[i:])
    return "".join(out)


def test_only_files(path, code):
    """Files that `#[cfg(test)] mod name;` in `path` brings in (test-only)."""
    base = os.path.dirname(path)
    stem = os.path.splitext(os.path.basename(path))[0]
    if stem not in ("mod", "lib", "main"):
        base = os.path.join(base, stem)
    found = []
    for m in re.finditer(r"#\[cfg\(test\)\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;", code):
        found.append(os.path.normpath(os.path.join(base, m.group(1) + ".rs")))
        found.append(os.path.normpath(os.path.join(base, m.group(1), "mod.rs")))
    return found


def module_path(path):
    """`src/run/doctor.rs` -> ["run", "doctor"]; `src/engine/cuda/mod.rs` -> ["engine", "cuda"]."""
    parts = os.path.relpath(path, ROOT).split(os.sep)
    parts[-1] = parts[-1][:-3]
    if parts[-1] == "mod":
        parts.pop()
    return parts


def graph():
    """(modules, edges, inner): the top-level modules; A -> B edges with the files that make
    them; per top-level module, the edges between its direct submodules."""
    files = []
    for dirpath, _, names in os.walk(ROOT):
        for name in names:
            if name.endswith(".rs"):
                files.append(os.path.normpath(os.path.join(dirpath, name)))
    codes = {}
    test_files = set()
    for path in files:
        with open(path, encoding="utf-8") as f:
            codes[path] = strip_comments_and_strings(f.read())
        test_files.update(test_only_files(path, codes[path]))
    mods = {p: module_path(p) for p in files}
    modules = sorted({m[0] for m in mods.values() if m[0] not in ("lib", "main")})
    subs = {}
    for m in mods.values():
        if len(m) > 1:
            subs.setdefault(m[0], set()).add(m[1])
    edges, inner = {}, {}
    for path in sorted(files):
        mod = mods[path]
        if mod[0] in ("lib", "main") or path in test_files:
            continue
        code = without_test_code(codes[path])
        where = os.path.relpath(path, os.path.join(ROOT, ".."))
        # `crate::name!` is a macro exported at the crate root, not a module.
        for m in re.finditer(r"\bcrate::(\w+)(?!\s*!)", code):
            target = m.group(1)
            if target != mod[0] and target in modules:
                edges.setdefault((mod[0], target), set()).add(where)
        # Inside one top-level module: which of its submodules this file's names lead to.
        for m in re.finditer(r"\b(crate|self|(?:super::)*super)::(\w+)(?:::(\w+))?", code):
            head, first, second = m.group(1), m.group(2), m.group(3)
            if head == "crate":
                if first != mod[0] or second is None:
                    continue
                full = [mod[0], second]
            elif head == "self":
                full = mod + [first]
            else:
                k = head.count("super")
                if k >= len(mod):
                    continue
                full = mod[: len(mod) - k] + [first]
            if len(full) < 2 or len(mod) < 2:
                continue
            source, target = mod[1], full[1]
            if target != source and target in subs.get(mod[0], ()):
                inner.setdefault(mod[0], {}).setdefault((source, target), set()).add(where)
    return modules, edges, inner, subs


def cycles(modules, edges):
    """Strongly connected components with more than one module (Tarjan)."""
    succ = {m: sorted(b for (a, b) in edges if a == m) for m in modules}
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in succ.get(v, []):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for m in modules:
        if m not in index:
            visit(m)
    return out


DOC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "design.md")
DOC_BEGIN = "<!-- module-graph.py: begin -->"
DOC_END = "<!-- module-graph.py: end -->"


def report():
    """(text, problems): the graph between top-level modules as docs/design.md shows it, then
    the circles inside modules; the problems `--check` fails on."""
    modules, edges, inner, subs = graph()
    layer = {m: i for i, group in enumerate(LAYERS) for m in group}
    problems = []
    out = []
    for group in LAYERS:
        for m in group:
            if m not in modules:
                continue
            targets = sorted(b for (a, b) in edges if a == m)
            out.append(f"{m:<16}-> {', '.join(targets) if targets else '(nothing)'}")
    for m in modules:
        if m not in layer:
            problems.append(f"{m}: a top-level module with no layer in scripts/module-graph.py")
    out.append("")
    comps = cycles(modules, edges)
    out.append("Cycles between top-level modules:" + ("" if comps else " none"))
    for comp in comps:
        out.append("  " + " <-> ".join(comp))
        inside = [(a, b) for (a, b) in edges if a in comp and b in comp]
        if not all(e in ALLOWED for e in inside):
            problems.append("cycle: " + " <-> ".join(comp))
    back = [
        (a, b, where)
        for (a, b), where in sorted(edges.items())
        if a in layer and b in layer and layer[a] <= layer[b]
    ]
    out.append("Arrows that run back (to the same or a higher layer):" + ("" if back else " none"))
    for a, b, where in back:
        note = ALLOWED.get((a, b))
        out.append(f"  {a} -> {b}" + (f"  (allowed for now: {note})" if note else ""))
        if not note:
            problems.append(f"{a} -> {b} runs back ({', '.join(sorted(where))})")
    past = [(a, b, w) for (a, b), w in sorted(edges.items()) if a in THROUGH_RUN and b in BENEATH_RUN]
    out.append("The UI and the subcommands past run:" + ("" if past else " none"))
    for a, b, where in past:
        out.append(f"  {a} -> {b}")
        problems.append(f"{a} -> {b} goes past run ({', '.join(sorted(where))})")
    top = "\n".join(out) + "\n"
    rest = ["", "Circles between the files of one top-level module:"]
    for m in modules:
        for comp in cycles(sorted(subs.get(m, ())), inner.get(m, {})):
            strict = m in NO_INNER_CYCLES
            rest.append(f"  {m}: {' <-> '.join(comp)}" + ("" if strict else "  (not checked yet)"))
            if strict:
                problems.append(f"{m}: a circle between {', '.join(comp)}")
    return top, "\n".join(rest) + "\n", problems


def doc_block(top):
    return f"{DOC_BEGIN}\n```text\n{top}```\n{DOC_END}"


def main():
    args = sys.argv[1:]
    top, rest, problems = report()
    print("Top-level modules of src/, lowest layer first; `A -> B`: A imports B.")
    print()
    print(top + rest, end="")
    with open(DOC, encoding="utf-8") as f:
        doc = f.read()
    begin, end = doc.find(DOC_BEGIN), doc.find(DOC_END)
    if "--update-docs" in args:
        if begin < 0 or end < 0:
            print(f"module-graph: {DOC} has no {DOC_BEGIN} … {DOC_END} block", file=sys.stderr)
            return 1
        with open(DOC, "w", encoding="utf-8") as f:
            f.write(doc[:begin] + doc_block(top) + doc[end + len(DOC_END):])
    elif "--check" in args and "--src" not in args and doc_block(top) not in doc:
        problems.append("docs/design.md shows another graph: run scripts/module-graph.py --update-docs")
    if "--check" in args and problems:
        for p in problems:
            print("module-graph: " + p, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
