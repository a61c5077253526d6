#!/usr/bin/env python3
"""Records conformance scripts as scripts/record-pytorch.py does (each in a scratch folder with
the modules beside it that it imports, stdout / last stderr line / exit status written to
OUT/NAME.stdout, .error, .status), but imports torch ONCE and forks a child per script: on a
loaded two-core machine the import is most of a script's time (12 official recordings took 3
minutes at load 17). The child starts from the state a fresh `import torch` leaves, with the
recorder's environment; its output is checked against record-pytorch.py's by running both on
the same scripts and comparing the files byte for byte.

  env -i PATH=$PATH HOME=$HOME LANG=C.UTF-8 PYTHONHASHSEED=0 PYTHONIOENCODING=utf-8 \\
      CUDA_VISIBLE_DEVICES= OMP_NUM_THREADS=1 .venv-torch/bin/python \\
      scripts/conformance/record_forked.py DIR OUT [--jobs N] NAME...
"""
import argparse
import os
import pathlib
import runpy
import shutil
import sys
import tempfile
import traceback

import numpy  # noqa: F401  (torch answers .numpy() through it, as in a recorded script)
import torch  # noqa: F401  (imported once, before the forks)

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from importlib.machinery import SourceFileLoader  # noqa: E402

RECORDER = SourceFileLoader(
    "record_pytorch", str(pathlib.Path(__file__).resolve().parent.parent / "record-pytorch.py")
).load_module()


def run_child(script, scratch, out_path, err_path):
    """In the child: run `script` as __main__ from `scratch`, stdout and stderr to files."""
    os.chdir(scratch)
    for fd, path in ((1, out_path), (2, err_path)):
        f = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(f, fd)
        os.close(f)
    sys.path[0] = scratch
    sys.argv = [script.name]
    code = 0
    try:
        runpy.run_path(script.name, run_name="__main__")
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        if not isinstance(e.code, (int, type(None))):
            print(e.code, file=sys.stderr)
    except BaseException:
        traceback.print_exc()
        code = 1
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def record(script, out):
    with tempfile.TemporaryDirectory(prefix="record-forked-") as scratch:
        shutil.copy(script, scratch)
        for module in RECORDER.local_modules(script):
            shutil.copy(module, scratch)
        out_path = os.path.join(scratch, ".stdout")
        err_path = os.path.join(scratch, ".stderr")
        pid = os.fork()
        if pid == 0:
            run_child(script, scratch, out_path, err_path)
        _, status = os.waitpid(pid, 0)
        code = os.waitstatus_to_exitcode(status)
        stdout = open(out_path, "rb").read()
        stderr = open(err_path, "rb").read()
    if code < 0:
        return script.stem, "killed by signal %d" % -code
    (out / (script.stem + ".stdout")).write_bytes(stdout)
    (out / (script.stem + ".error")).write_text(RECORDER.last_nonempty_line(stderr))
    (out / (script.stem + ".status")).write_text("%d\n" % code)
    return script.stem, "ok" if code == 0 else "exit %d" % code


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("out")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("names", nargs="+")
    args = ap.parse_args()
    src, out = pathlib.Path(args.dir), pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    scripts = [src / (n + ".py") for n in args.names]
    running = {}
    bad = 0
    for script in scripts + [None] * args.jobs:
        while running and (script is None or len(running) >= args.jobs):
            pid, status = os.wait()
            running.pop(pid)
            bad += os.waitstatus_to_exitcode(status) != 0
        if script is None:
            continue
        pid = os.fork()
        if pid == 0:
            name, how = record(script, out)
            print("%-40s %s" % (name, how), flush=True)
            os._exit(0 if how == "ok" or how.startswith("exit") else 3)
        running[pid] = script.stem
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
