#!/usr/bin/env python3
"""List the PyTorch names that beginner-facing code uses: the source of the conformance set.

Scans .py, .rst, .md and .ipynb files for
  torch.X / torch.nn.X / torch.nn.functional.X / torch.optim.X / torch.optim.lr_scheduler.X /
  torch.utils.data.X / torch.linalg.X / torch.special.X / torch.fft.X   (and the usual aliases
  `nn.X`, `F.X`, `optim.X`, `lr_scheduler.X`, names imported with `from torch... import X`),
  and `.X(` calls, which may be Tensor methods (the generator keeps only names torch.Tensor has),
and counts in how many files each name occurs. A source is a folder on disk or a bare git
repository (as `fetch` brings it) read at its HEAD without checking it out:

  .venv-torch/bin/python scripts/conformance/scan_names.py \
      --git github:pytorch/examples=/work/.mirror/pytorch+examples/repo lessons/en tests/learner \
      > scripts/conformance/beginner_names.txt

The output is one `name<TAB>files` line per name, most used first, after a header of `#` lines
naming the sources and their commits.
"""
import argparse
import collections
import json
import pathlib
import re
import subprocess
import sys

SUFFIXES = (".py", ".rst", ".md", ".ipynb")

# Module aliases a file may use: alias -> canonical prefix.
ALIASES = {
    "torch": "torch",
    "nn": "torch.nn",
    "F": "torch.nn.functional",
    "functional": "torch.nn.functional",
    "optim": "torch.optim",
    "lr_scheduler": "torch.optim.lr_scheduler",
    "init": "torch.nn.init",
    "data": "torch.utils.data",
}
DOTTED = re.compile(r"\b(torch|nn|F|optim|lr_scheduler|init)((?:\.[A-Za-z_][A-Za-z0-9_]*)+)")
FROM_IMPORT = re.compile(r"from\s+(torch(?:\.[A-Za-z_]\w*)*)\s+import\s+\(?([^)\n]*(?:\n[^)\n]*)*?)\)?(?:\n|$)")
METHOD_CALL = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*)\(")
PROPERTY = re.compile(r"\.(T|mT|H|mH|shape|dtype|grad|data|device|ndim)\b")


def code_of(path, text):
    """The code of a notebook is in its cells; everything else is scanned whole."""
    if path.endswith(".ipynb"):
        try:
            nb = json.loads(text)
            return "\n".join("".join(c.get("source", [])) for c in nb.get("cells", []))
        except ValueError:
            return ""
    return text


def names_in(text):
    found = set()
    for m in DOTTED.finditer(text):
        prefix = ALIASES[m.group(1)]
        parts = m.group(2).lstrip(".").split(".")
        full = prefix + "." + ".".join(parts)
        # Every dotted prefix counts (torch.nn.functional.relu also names torch.nn.functional).
        pieces = full.split(".")
        for i in range(2, len(pieces) + 1):
            found.add(".".join(pieces[:i]))
    for m in FROM_IMPORT.finditer(text):
        module = m.group(1)
        for item in m.group(2).split(","):
            item = item.strip().split(" as ")[0].strip()
            if re.fullmatch(r"[A-Za-z_]\w*", item):
                found.add(module + "." + item)
    for m in METHOD_CALL.finditer(text):
        found.add("Tensor." + m.group(1))
    for m in PROPERTY.finditer(text):
        found.add("Tensor." + m.group(1))
    return found


def files_on_disk(folder):
    for p in sorted(pathlib.Path(folder).rglob("*")):
        if p.is_file() and p.suffix in SUFFIXES:
            yield str(p), p.read_text(encoding="utf-8", errors="replace")


def files_in_git(git_dir):
    def git(*args):
        return subprocess.run(["git", "--git-dir", git_dir, *args], capture_output=True)
    for path in git("ls-tree", "-r", "--name-only", "HEAD").stdout.decode().splitlines():
        if path.endswith(SUFFIXES):
            shown = git("show", "HEAD:" + path)
            # A snapshot may lack its largest files (data, not code): those are skipped.
            if shown.returncode == 0:
                yield path, shown.stdout.decode("utf-8", errors="replace")


def git_head(git_dir):
    out = subprocess.run(["git", "--git-dir", git_dir, "log", "-1", "--format=%H %cs"],
                         capture_output=True, text=True)
    return out.stdout.strip()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--git", action="append", default=[],
                    help="a bare git repository, as PATH or LABEL=PATH (the label names it in "
                         "the header, e.g. github:pytorch/examples)")
    ap.add_argument("folders", nargs="*", help="folders on disk")
    args = ap.parse_args()
    counts = collections.Counter()
    header = []
    for spec in args.git:
        label, _, g = spec.rpartition("=")
        n = 0
        for path, text in files_in_git(g):
            counts.update(names_in(code_of(path, text)))
            n += 1
        header.append("# %s at %s: %d files" % (label or g, git_head(g), n))
    for folder in args.folders:
        n = 0
        for path, text in files_on_disk(folder):
            counts.update(names_in(code_of(path, text)))
            n += 1
        header.append("# %s: %d files" % (folder, n))
    out = sys.stdout
    out.write("# Names used by beginner-facing PyTorch code (scripts/conformance/scan_names.py).\n")
    out.write("# name<TAB>number of files that use it; `Tensor.X` is any `.X(` call.\n")
    for h in header:
        out.write(h + "\n")
    for name, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        out.write("%s\t%d\n" % (name, n))


if __name__ == "__main__":
    main()
