"""Which entries of PyTorch's test databases the conformance suite covers.

The set is what a beginner meets (docs/conformance.md says how large it is):
  - an OpInfo whose function or Tensor method (or one of its aliases) is named in
    beginner_names.txt, the names scan_names.py found in pytorch/examples, this project's lessons
    and its learner corpus;
  - an OpInfo for a `torch.nn.functional` function that the forward of a `torch.nn` module
    calls (a learner who writes `nn.Hardtanh()` runs `F.hardtanh`);
  - the OpInfos of Python's operators on tensors (`2 - x`, `x[i]`, `a @ b`), which every script
    uses without naming them;
  - every ModuleInfo (all are `torch.nn` modules that print), plus the printing `torch.nn`
    modules the database lacks (modules.EXTRA_MODULES);
  - every OptimizerInfo, and the lr_scheduler configurations they carry.
"""
import inspect
import pathlib
import re

import torch

HERE = pathlib.Path(__file__).resolve().parent
NAMES_FILE = HERE / "beginner_names.txt"

# OpInfos of Python operator syntax: name -> the expression, {x} the sample's input and {a} its
# first argument.
OPERATORS = {
    "__radd__": "{a} + {x}",
    "__rsub__": "{a} - {x}",
    "__rmul__": "{a} * {x}",
    "__rdiv__": "{a} / {x}",
    "__rmod__": "{a} % {x}",
    "__rpow__": "{a} ** {x}",
    "__rmatmul__": "{a} @ {x}",
    "__rand__": "{a} & {x}",
    "__ror__": "{a} | {x}",
    "__rxor__": "{a} ^ {x}",
    "__getitem__": "{x}[{a}]",
}
# OpInfos that are attributes, not calls.
PROPERTIES = {"T", "mT", "H", "mH"}
# Never generated: they test allocation without values (empty*), need a device other than the
# CPU, are PyTorch internals no learner reaches (names starting with `_`), or depend on memory
# layout that a literal cannot rebuild (as_strided).
EXCLUDED_PREFIXES = ("_", "jiterator_", "torch.ops.", "torch._", "sparse.")
EXCLUDED = {"empty", "empty_like", "empty_strided", "empty_permuted", "new_empty",
            "new_empty_strided", "as_strided", "as_strided_copy", "as_strided_scatter",
            "resize_", "resize_as_", "to_sparse", "hash_tensor", "nonzero_static"}


def beginner_names():
    names = {}
    for line in NAMES_FILE.read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        name, count = line.split("\t")
        names[name] = int(count)
    return names


def functional_names_of_modules():
    """`torch.nn.functional.X` for every X a torch.nn module's source calls as `F.X(`."""
    found = {}
    for attr in dir(torch.nn):
        cls = getattr(torch.nn, attr)
        if not (isinstance(cls, type) and issubclass(cls, torch.nn.Module)):
            continue
        try:
            src = inspect.getsource(cls)
        except (OSError, TypeError):
            continue
        for m in re.finditer(r"\bF\.([a-z_0-9]+)\(", src):
            found.setdefault("nn.functional." + m.group(1), attr)
    return found


def why_selected(op, names, module_functionals):
    """The reason an OpInfo is in the set, or None."""
    name = op.name
    if name in OPERATORS:
        return "Python operator"
    if name.startswith(EXCLUDED_PREFIXES) or name in EXCLUDED:
        return None
    candidates = ["torch." + name]
    if not name.startswith(("nn.", "linalg.", "special.", "fft.", "signal.", "masked.")):
        candidates.append("Tensor." + name)
    for alias in op.aliases:
        candidates += ["torch." + alias.name, "Tensor." + alias.name]
    for c in candidates:
        if c in names:
            return "named in beginner code: %s (%d files)" % (c, names[c])
    if name in module_functionals:
        return "called by torch.nn.%s" % module_functionals[name]
    return None
