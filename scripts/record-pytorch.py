#!/usr/bin/env python3
"""Record the real-PyTorch (CPU) truth for a differential suite of Python scripts.

By default it records tests/torch (tests/torch_fixtures.rs); `--dir` records any folder, e.g.
tests/learner (tests/learner_corpus.rs) or tests/torch_exact (tests/torch_exact.rs).
For every DIR/NAME.py this runs `PYTHON NAME.py` in a subprocess and writes
  DIR/expected/NAME.stdout  -- everything it printed to stdout, byte for byte
  DIR/expected/NAME.error   -- the LAST non-empty stderr line ("ExceptionType: message" when
                               it raised, a warning's last line when it only warned), or an
                               empty file when stderr was empty
  DIR/expected/NAME.status  -- its exit status (0 clean, 1 raised, N for sys.exit(N))
and DIR/expected/VERSION with the Python, torch and numpy versions and the CPU capability
torch's vectorised kernels used (float32 reductions and exp differ in the last bits between
AVX2 and AVX512 builds of a kernel, so full-precision recordings name it).

Each script runs alone in a fresh temporary directory holding only a copy of itself (and of
the modules beside it that it imports, such as tests/conformance/prelude.py: those are not
recorded as scripts), so a `torch.save("model.pth")` writes nothing into the repository and no
script sees another's files. The scripts run on the CPU only (CUDA_VISIBLE_DEVICES is emptied; one OpenMP thread,
so a reduction's order does not depend on the core count). numpy must be importable too:
without it torch answers every .numpy() with "Numpy is not available" instead of its real
checks (a venv with --system-site-packages plus `pip install numpy` gives one).

Usage: scripts/record-pytorch.py [--python PYTHON] [--dir DIR] [--out OUT] [--jobs N] [NAME ...]
  --python  the interpreter that has torch and numpy (default: this one)
  --dir     the folder of scripts (default: tests/torch; relative to the repository root
            unless absolute)
  --out     where the recordings go (default: DIR/expected), e.g. a scratch folder to
            cross-check a recording on another machine
  --jobs    scripts recorded at the same time (default 1)
  NAME ...  re-record only these scripts (default: all, and stale recordings are removed)
Exits non-zero when torch cannot be imported or a script timed out or died by a signal.
"""
import argparse
import concurrent.futures
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
DEFAULT_DIR = "tests/torch"
TIMEOUT_S = 300
SUFFIXES = (".stdout", ".error", ".status")


def clean_env():
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": os.environ.get("HOME", "/root"),
        "LANG": "C.UTF-8",
        "PYTHONHASHSEED": "0",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONIOENCODING": "utf-8",
        "CUDA_VISIBLE_DEVICES": "",
        "OMP_NUM_THREADS": "1",
    }
    return env


def last_nonempty_line(stderr):
    lines = [l for l in stderr.decode("utf-8", errors="replace").splitlines() if l.strip()]
    return lines[-1].rstrip() + "\n" if lines else ""


LOCAL_IMPORT = re.compile(r"^(?:import|from) (\w+)", re.M)


def local_modules(script):
    """The modules next to `script` that it imports (NAME.py beside it): copied with it, as
    tests/common/differential.rs copies them (tests/conformance/prelude.py)."""
    return sorted({script.parent / (m + ".py") for m in LOCAL_IMPORT.findall(script.read_text())
                   if (script.parent / (m + ".py")).is_file()})


def imported_by_siblings(scripts):
    """The stems of the scripts another script imports: modules, not scripts to record."""
    return {m.stem for s in scripts for m in local_modules(s)}


def record_one(python, script, out, env):
    """Run one script in its own scratch folder (with the modules beside it that it imports);
    write its three files. Returns (name, status line) or (name, None, why) when it could not be
    recorded."""
    with tempfile.TemporaryDirectory(prefix="record-pytorch-") as scratch:
        shutil.copy(script, scratch)
        for module in local_modules(script):
            shutil.copy(module, scratch)
        try:
            p = subprocess.run([python, script.name], cwd=scratch, capture_output=True,
                               env=env, timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            return script.stem, None, "timed out after %ds" % TIMEOUT_S
    if p.returncode < 0:
        return script.stem, None, "killed by signal %d: %s" % (
            -p.returncode, p.stderr.decode(errors="replace")[-500:])
    last = last_nonempty_line(p.stderr)
    (out / (script.stem + ".stdout")).write_bytes(p.stdout)
    (out / (script.stem + ".error")).write_text(last)
    (out / (script.stem + ".status")).write_text("%d\n" % p.returncode)
    shown = last.strip() or "ok"
    if p.returncode not in (0, 1) or (p.returncode == 0 and last):
        shown = "exit %d: %s" % (p.returncode, shown)
    return script.stem, p.returncode, shown


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--dir", default=DEFAULT_DIR)
    ap.add_argument("--out", default=None)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()

    src = pathlib.Path(args.dir)
    if not src.is_absolute():
        src = ROOT / src
    if not src.is_dir():
        sys.stderr.write("record-pytorch: %s is not a folder\n" % src)
        return 2
    out = pathlib.Path(args.out) if args.out else src / "expected"

    env = clean_env()
    probe = subprocess.run(
        [args.python, "-c",
         "import sys, torch, numpy; print('Python', sys.version.split()[0]); "
         "print('torch', torch.__version__); print('numpy', numpy.__version__); "
         "print('cuda_available', torch.cuda.is_available()); "
         "print('cpu_capability', torch.backends.cpu.get_cpu_capability())"],
        capture_output=True, text=True, env=env)
    if probe.returncode != 0:
        sys.stderr.write("record-pytorch: cannot import torch and numpy with %s:\n%s" % (args.python, probe.stderr))
        return 2
    out.mkdir(parents=True, exist_ok=True)
    version = probe.stdout.strip().splitlines()
    (out / "VERSION").write_text(
        "\n".join(version) + "\nrecorded on the CPU (CUDA_VISIBLE_DEVICES empty, OMP_NUM_THREADS=1) "
        "by scripts/record-pytorch.py\n")

    scripts = sorted(src.glob("*.py"))
    modules = imported_by_siblings(scripts)
    scripts = [s for s in scripts if s.stem not in modules]
    if args.names:
        wanted = {n[:-3] if n.endswith(".py") else n for n in args.names}
        scripts = [s for s in scripts if s.stem in wanted]
        missing = wanted - {s.stem for s in scripts}
        if missing:
            sys.stderr.write("record-pytorch: no such script in %s: %s\n" % (src, ", ".join(sorted(missing))))
            return 2
    else:
        live = {s.stem for s in scripts}
        for old in [p for suffix in SUFFIXES for p in out.glob("*" + suffix)]:
            if old.stem not in live:
                old.unlink()

    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for r in pool.map(lambda s: record_one(args.python, s, out, env), scripts):
            results.append(r)
            if r[1] is not None:
                print("%-40s %s" % (r[0], r[2]), flush=True)

    bad = [(name, why) for name, status, why in results if status is None]
    raised = [name for name, status, _ in results if status not in (None, 0)]
    print("\nrecord-pytorch: %d scripts of %s recorded with %s; %d exit non-zero"
          % (len(results) - len(bad), src.relative_to(ROOT) if src.is_relative_to(ROOT) else src,
             ", ".join(version[:2]), len(raised)))
    for name, why in bad:
        print("record-pytorch: NOT recorded: %s (%s)" % (name, why), file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
