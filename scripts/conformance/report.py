#!/usr/bin/env python3
"""Regenerate docs/conformance.md, the coverage table of the conformance suite.

Runs tests/conformance.rs (`cargo test --release --test conformance`) with CONFORMANCE_RESULTS
and CONFORMANCE_KNOWN_OUT set, then writes per op, module and optimizer: samples, identical,
differing, unsupported, the totals and the % identical, and a summary of the causes (missing
function, method or keyword, wrong message, wrong value, wrong printing...) for whoever works
on breadth. It also prints that summary.

  scripts/conformance/report.py                  # run the test, write docs/conformance.md
  scripts/conformance/report.py --results FILE   # reuse a CONFORMANCE_RESULTS file
  scripts/conformance/report.py --update-known   # also rewrite tests/conformance/KNOWN_DIFFERENCES
                                                 # from this run (review the diff: a sample
                                                 # leaving the identical column is a regression)
The test's own pass/fail does not stop the report (a table of a failing run is still a table).
"""
import argparse
import collections
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
SUITE = ROOT / "tests" / "conformance"
DOC = ROOT / "docs" / "conformance.md"
NAMES = ROOT / "scripts" / "conformance" / "beginner_names.txt"
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

from ops import ERROR_SAMPLES, METHOD_SAMPLES_PER_DTYPE, MAX_RESULT_ELEMENTS, SAMPLES_PER_DTYPE  # noqa: E402
from literal import MAX_TENSOR_ELEMENTS  # noqa: E402
import modules as mod_gen  # noqa: E402
import optims as optim_gen  # noqa: E402


def read_tsv(path):
    rows = []
    for line in path.read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        rows.append(line.split("\t"))
    return rows


def run_test(results, known_out):
    env = dict(os.environ, CONFORMANCE_RESULTS=str(results), CONFORMANCE_KNOWN_OUT=str(known_out))
    env.setdefault("CARGO_BUILD_JOBS", "2")
    p = subprocess.run(["cargo", "test", "--release", "--test", "conformance", "--",
                        "--nocapture"], cwd=ROOT, env=env, capture_output=True, text=True)
    summary = [l for l in p.stderr.splitlines() if l.startswith("conformance: ")]
    if not results.exists():
        sys.exit("the test wrote no results:\n" + p.stderr[-3000:])
    return p.returncode == 0, summary[-1] if summary else ""


def load():
    with open("/proc/loadavg") as f:
        return f.read().split()[0]


def pct(a, b):
    return "%.1f%%" % (100.0 * a / b) if b else "-"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--results", help="an existing CONFORMANCE_RESULTS file")
    ap.add_argument("--update-known", action="store_true")
    args = ap.parse_args()

    tmp = pathlib.Path(tempfile.mkdtemp(prefix="conformance-report-"))
    timing = ""
    passed = None
    if args.results:
        results_path = pathlib.Path(args.results)
    else:
        results_path = tmp / "results.tsv"
        before = load()
        passed, timing = run_test(results_path, tmp / "known.txt")
        timing += " (load average %s before the run)" % before
        if args.update_known:
            shutil.copy(tmp / "known.txt", SUITE / "KNOWN_DIFFERENCES")

    manifest = read_tsv(SUITE / "MANIFEST.tsv")
    results = {(r[0], r[1]): r for r in read_tsv(results_path)}
    doc = render(manifest, results, timing, passed)
    DOC.write_text(doc)
    print(cause_summary(manifest, results, limit=12))
    print("wrote %s" % DOC.relative_to(ROOT))
    shutil.rmtree(tmp, ignore_errors=True)


def verdict_of(results, script, tag):
    r = results.get((script, tag))
    return r[2] if r else "not run"


def tally(rows, results):
    c = collections.Counter(verdict_of(results, r[0], r[1]) for r in rows)
    return len(rows), c["identical"], c["differs"], c["unsupported"]


def main_cause(rows, results):
    causes = collections.Counter()
    for r in rows:
        res = results.get((r[0], r[1]))
        if res and res[2] != "identical":
            causes[res[4]] += 1
    if not causes:
        return ""
    cause, n = causes.most_common(1)[0]
    return md(cause, 90) + ("" if n == 1 else " (%d)" % n)


def md(text, limit):
    text = text.replace("|", "\\|").replace("`", "'")
    return text if len(text) <= limit else text[:limit] + "..."


def cause_summary(manifest, results, limit):
    """Causes grouped by kind, biggest first: the breadth to-do list."""
    kinds = collections.defaultdict(collections.Counter)
    entries = collections.defaultdict(lambda: collections.defaultdict(set))
    for r in manifest:
        res = results.get((r[0], r[1]))
        if not res or res[2] == "identical":
            continue
        kinds[res[3]][res[4]] += 1
        entries[res[3]][res[4]].add(r[4])
    out = []
    for kind, causes in sorted(kinds.items(), key=lambda kv: -sum(kv[1].values())):
        out.append("- **%s**: %d samples" % (kind, sum(causes.values())))
        for cause, n in causes.most_common(limit):
            names = sorted(entries[kind][cause])
            shown = ", ".join(names[:6]) + (", ..." if len(names) > 6 else "")
            out.append("  - %d × %s  (%s)" % (n, md(cause, 140), shown))
        if len(causes) > limit:
            rest = sum(n for _, n in causes.most_common()[limit:])
            out.append("  - %d more samples under %d other causes" % (rest, len(causes) - limit))
    return "\n".join(out)


def torch_raises(manifest):
    """script -> how many of its non-error samples PyTorch answered with an exception. A file
    that runs several ops' samples (column 8, `file`) prints them as `[SCRIPT.TAG]`."""
    kinds = {(r[0], r[1]): r[2] for r in manifest}
    counts = collections.Counter()
    for path in sorted((SUITE / "expected").glob("*.stdout")):
        seen = set()
        for line in path.read_text().splitlines():
            m = re.match(r"\[([\w.-]+)\] raised ", line)
            if not m:
                continue
            script, _, tag = m.group(1).rpartition(".")
            script = script or path.stem
            if kinds.get((script, tag), "error") != "error" and (script, tag) not in seen:
                seen.add((script, tag))
                counts[script] += 1
    return counts


def table(title, rows_by_entry, results, link_calls):
    lines = ["| %s | calls | samples | identical | differing | unsupported | commonest cause |" % title,
             "|---|---|---:|---:|---:|---:|---|"]
    for entry in sorted(rows_by_entry):
        rows = rows_by_entry[entry]
        n, i, d, u = tally(rows, results)
        calls = sorted({r[5] for r in rows})
        calls_text = ", ".join(calls) if link_calls else calls[0]
        lines.append("| %s | %s | %d | %d | %d | %d | %s |" % (
            entry, md(calls_text, 80), n, i, d, u, main_cause(rows, results)))
    return "\n".join(lines)


def render(manifest, results, timing, passed):
    ops = collections.defaultdict(list)
    mods = collections.defaultdict(list)
    optims = collections.defaultdict(list)
    for r in manifest:
        (ops if r[0].startswith("op_") else mods if r[0].startswith("module_") else optims)[r[4]].append(r)
    op_names = {e.split(" (")[0] for e in ops}
    n, i, d, u = tally(manifest, results)
    names_header = [l[2:] for l in NAMES.read_text().splitlines() if l.startswith("# /") or l.startswith("# lessons") or l.startswith("# tests")]
    n_names = sum(1 for l in NAMES.read_text().splitlines() if l and not l.startswith("#"))
    why = collections.Counter()
    for entry, rows in ops.items():
        w = rows[0][6]
        why["named in beginner code" if w.startswith("named") else "called by a torch.nn module" if w.startswith("called") else w] += 1
    by_kind = collections.defaultdict(list)
    for r in manifest:
        by_kind[r[2]].append(r)
    schedulers = sorted({s for r in manifest if r[2] == "scheduler" for s in r[5].split(",")})
    unsupported_ops = sum(1 for rows in ops.values() if tally(rows, results)[1] == 0)

    out = []
    w = out.append
    w("# Conformance with PyTorch's own test database")
    w("")
    w("<!-- Generated by scripts/conformance/report.py: do not edit by hand. -->")
    w("")
    w("tests/conformance/ holds scripts generated by `scripts/conformance/generate.py` from the "
      "test database that ships inside the PyTorch 2.15 wheel (`torch/testing/_internal/`: "
      "OpInfo in common_methods_invocations.py, ModuleInfo in common_modules.py, OptimizerInfo "
      "in common_optimizers.py). Each sample of the database becomes one line of a script with "
      "its inputs written as literals (float32 values in the shortest text that reads back to "
      "the same bits, checked; float64 as `repr`), so the script needs neither the database nor "
      "its random generator, and runs the same under `python3` with torch and under "
      "`cudatutor run`; a module input's construct, forward, backward and eval samples share "
      "one `run_module_input` line, and the error inputs every optimizer shares "
      "(get_error_inputs_for_all_optims) are written once, as the prelude's "
      "`run_errors_for_all_optims`. A tensor literal that two or more scripts use is defined "
      "once in tests/conformance/shared_inputs.py (`f32_2x3 = lambda: T(...)`, called afresh by "
      "each sample), which the scripts import by name; one that several samples of a single "
      "script use is bound at that script's top. Ops whose samples make the same calls (add, "
      "mul, eq and the other binary ops; amax and amin; div with rounding_mode 'floor' and "
      "'trunc', where the argument that differs becomes a column) share one `ops_*.py` script: "
      "an OPS table of the ops and one `for_ops` row per distinct call, naming the tag it "
      "prints under for each op (`[SCRIPT.TAG]`); MANIFEST.tsv still lists every op's samples "
      "under its own script name, "
      "with the file that runs them. Samples of one script that make the same call on other "
      "inputs (OpInfo's calls repeated for each dtype, a constant that differs) are one "
      "`samples` row, `for_ops_rows` in an `ops_*.py` (scripts/conformance/sample_rows.py): "
      "the call as a lambda of what differs, then each sample's tag and values; a module "
      "script's inputs, and its error inputs, that build the same module are one "
      "`run_module_input_rows` (`run_error_rows`) row. PyTorch's output is recorded by scripts/record-pytorch.py (CPU, one "
      "thread) into tests/conformance/expected/; tests/conformance.rs runs every script "
      "through cudatutor and compares the output **sample by sample**.")
    w("")
    w("## How the set was chosen")
    w("")
    w("- **Names beginners use.** `scripts/conformance/scan_names.py` lists every `torch.X`, "
      "`torch.nn.X`, `torch.nn.functional.X` (`F.X`), `torch.optim.X`, `lr_scheduler.X`, "
      "`torch.utils.data.X` name and every `.X(` call (a possible Tensor method) in these "
      "sources, with the number of files using it (%d names, `scripts/conformance/"
      "beginner_names.txt`):" % n_names)
    for h in names_header:
        w("  - `%s`" % h)
    w("  pytorch/tutorials could not be scanned: its snapshot is 5.3 GB, over the 500 MB the "
      "fetch tool brings to this machine; this project's lessons and its learner corpus "
      "(tests/learner, 438 learner-style scripts) stand in for the beginner tutorials.")
    w("- **Ops** (OpInfo entries): an OpInfo is in the set when its function or Tensor method "
      "(or an alias) is one of those names (%d entries), when a `torch.nn` module's forward "
      "calls it as `F.x` (%d entries: a learner who writes `nn.Hardtanh()` runs "
      "`F.hardtanh`), or when it is a Python operator on tensors (`2 - x`, `x[i]`, `a @ b`: "
      "%d entries). Left out: PyTorch internals (`_foo`, `torch.ops.*`), sparse and "
      "`empty*`/`as_strided` ops (no values to compare, or strides a literal cannot rebuild)."
      % (why["named in beginner code"], why["called by a torch.nn module"], why["Python operator"]))
    w("- **Modules**: every ModuleInfo (all are printing `torch.nn` modules), plus the printing "
      "`torch.nn` modules the database lacks (Dropout, Flatten, Sequential, ModuleList, "
      "Upsample, ...: constructors spelled in scripts/conformance/modules.py, inputs drawn by "
      "`make_tensor` with a fixed seed).")
    w("- **Optimizers**: every OptimizerInfo, with the lr_scheduler configurations the database "
      "attaches to them (%s)." % ", ".join(s.rsplit(".", 1)[1] for s in schedulers))
    w("")
    w("Caps that keep the suite fast and small: per op and dtype the first %s samples of "
      "float32/float64/int64/bool (the database's plainest), %d of them also through the "
      "Tensor method, up to %d error inputs; per module %d float32 inputs (construction, "
      "forward, and for the first %d the backward), %d float64 forwards, %d error inputs; per "
      "optimizer %d inputs and %d error inputs. A sample is left out when a tensor has more than "
      "%d elements or its result more than %d, or when it holds a value a script cannot spell "
      "(complex, a function, a module object); the generator prints how many. Inputs are "
      "contiguous (the database's non-contiguous variants become contiguous literals)."
      % ("/".join(str(SAMPLES_PER_DTYPE[k]) for k in SAMPLES_PER_DTYPE),
         METHOD_SAMPLES_PER_DTYPE[list(METHOD_SAMPLES_PER_DTYPE)[0]], ERROR_SAMPLES,
         mod_gen.SAMPLES_FLOAT32, mod_gen.BACKWARD_SAMPLES, mod_gen.SAMPLES_FLOAT64,
         mod_gen.ERROR_SAMPLES, optim_gen.MAX_OPTIM_INPUTS, optim_gen.MAX_ERROR_INPUTS,
         MAX_TENSOR_ELEMENTS, MAX_RESULT_ELEMENTS))
    w("")
    w("What a sample prints: a value as `tensor DTYPE SHAPE .tolist()` (float32 widened to a "
      "Python float, so every bit shows), tuples, lists and dicts item by item, other values as "
      "`TYPE repr`; an exception as `raised TYPE: message`; the first sample of each dtype also "
      "prints the tensor's own repr (PyTorch's printing). Modules print their repr and "
      "state_dict (initialised right after `torch.manual_seed(0)`), the forward output, the "
      "gradients after `out.sum().backward()`; optimizers print the loss and parameters after "
      "each of 3 steps and their state_dict. Warnings (stderr) are not compared.")
    w("")
    w("## Size")
    w("")
    w("| | count |")
    w("|---|---:|")
    w("| op entries (OpInfo name and variant) | %d |" % len(ops))
    w("| distinct ops | %d |" % len(op_names))
    w("| modules | %d |" % len(mods))
    w("| optimizers | %d |" % len(optims))
    w("| lr_schedulers (through the optimizers) | %d |" % len(schedulers))
    w("| scripts | %d |" % len({r[0] for r in manifest}))
    w("| files that run them (ops making the same calls share one) | %d |"
      % len({r[7] if len(r) > 7 else r[0] for r in manifest}))
    w("| samples | %d |" % n)
    for kind in sorted(by_kind):
        w("| &nbsp;&nbsp;%s samples | %d |" % (kind, len(by_kind[kind])))
    size = sum(p.stat().st_size for p in SUITE.rglob("*") if p.is_file())
    w("| tests/conformance/ on disk | %.1f MB |" % (size / 1e6))
    w("")
    w("## Result today")
    w("")
    w("**%d of %d samples identical (%s)**; %d differ, %d unsupported (the engine says it lacks "
      "a function, method, keyword or mode). %d op entries have no identical sample yet."
      % (i, n, pct(i, n), d, u, unsupported_ops))
    w("")
    if timing:
        w("Measured run of the test: `%s`%s." % (timing, "" if passed is None else
                                                  ("; the test passed" if passed else "; the test failed")))
        w("")
    w("| sample kind | samples | identical | differing | unsupported | % identical |")
    w("|---|---:|---:|---:|---:|---:|")
    for kind in sorted(by_kind):
        kn, ki, kd, ku = tally(by_kind[kind], results)
        w("| %s | %d | %d | %d | %d | %s |" % (kind, kn, ki, kd, ku, pct(ki, kn)))
    w("")
    w("Every sample that is not identical is listed, with its reason, in "
      "tests/conformance/KNOWN_DIFFERENCES; the test fails when any other sample differs "
      "(a regression) and when a listed one starts to match (the list only shrinks). "
      "\"MKL VML float32 last bits\" marks float32 results of the ops PyTorch hands to MKL's "
      "closed VML functions (sqrt, exp, log, sin, ...: src/engine/numerics/mkl.rs) that differ "
      "by at most a few ulps.")
    w("")
    raising = torch_raises(manifest)
    w("Samples that are not error inputs but whose PyTorch recording is an exception (the "
      "database's own input makes PyTorch raise, e.g. a lazy module's uninitialised state_dict, "
      "or the engine must raise the same error): %d%s." % (
          sum(raising.values()),
          "" if not raising else " (" + ", ".join("%s %d" % kv for kv in sorted(raising.items())) + ")"))
    w("")
    w("## Causes (the breadth to-do list)")
    w("")
    w("Each differing sample has one cause: the first line where it departs from PyTorch. "
      "Grouped by kind, commonest first, with the database entries that show it.")
    w("")
    w(cause_summary(manifest, results, limit=15))
    w("")
    w("## Ops")
    w("")
    w(table("op entry", ops, results, True))
    w("")
    w("## Modules")
    w("")
    w(table("module", mods, results, False))
    w("")
    w("## Optimizers and schedulers")
    w("")
    w(table("optimizer", optims, results, True))
    w("")
    w("## Regenerating")
    w("")
    w("```")
    w("OMP_NUM_THREADS=1 .venv-torch/bin/python scripts/conformance/scan_names.py \\")
    w("    --git /path/to/pytorch-examples.git lessons/en tests/learner > scripts/conformance/beginner_names.txt")
    w("OMP_NUM_THREADS=1 .venv-torch/bin/python scripts/conformance/generate.py")
    w("scripts/record-pytorch.py --python .venv-torch/bin/python --dir tests/conformance --jobs 2")
    w("scripts/conformance/report.py [--update-known]")
    w("```")
    w("")
    return "\n".join(out)


if __name__ == "__main__":
    main()
