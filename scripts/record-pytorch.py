#!/usr/bin/env python3
"""Record the real-PyTorch (CPU) truth for the torch fixture suite (tests/torch_fixtures.rs).

For every tests/torch/NAME.py this runs `PYTHON NAME.py` in a subprocess and writes
  tests/torch/expected/NAME.stdout  -- everything it printed to stdout, byte for byte
  tests/torch/expected/NAME.error   -- the LAST non-empty stderr line when it exited 1
                                       ("ExceptionType: message"), or an empty file when it
                                       exited 0
and tests/torch/expected/VERSION with the Python and torch versions used.

The scripts run on the CPU only (CUDA_VISIBLE_DEVICES is emptied) and never print random
values, so a recording does not depend on the RNG stream or on the machine having a GPU.
numpy must be importable too: without it torch answers every .numpy() with "Numpy is not
available" instead of its real checks (a venv with --system-site-packages plus `pip install
numpy` gives one).

Usage: scripts/record-pytorch.py [--python PYTHON] [NAME ...]
  --python  the interpreter that has torch and numpy (default: this one)
  NAME ...  re-record only these fixtures (default: all, and stale recordings are removed)
Exits non-zero when torch cannot be imported or a script exits with a status other than 0/1.
"""
import argparse
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SRC = ROOT / "tests" / "torch"
OUT = SRC / "expected"


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


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()

    env = clean_env()
    probe = subprocess.run(
        [args.python, "-c",
         "import sys, torch, numpy; print('Python', sys.version.split()[0]); "
         "print('torch', torch.__version__); print('numpy', numpy.__version__); "
         "print('cuda_available', torch.cuda.is_available())"],
        capture_output=True, text=True, env=env)
    if probe.returncode != 0:
        sys.stderr.write("record-pytorch: cannot import torch and numpy with %s:\n%s" % (args.python, probe.stderr))
        return 2
    OUT.mkdir(parents=True, exist_ok=True)
    version = probe.stdout.strip().splitlines()
    (OUT / "VERSION").write_text(
        "\n".join(version) + "\nrecorded on the CPU (CUDA_VISIBLE_DEVICES empty) by scripts/record-pytorch.py\n")

    scripts = sorted(SRC.glob("*.py"))
    if args.names:
        wanted = set(args.names)
        scripts = [s for s in scripts if s.stem in wanted]
        missing = wanted - {s.stem for s in scripts}
        if missing:
            sys.stderr.write("record-pytorch: no such fixture: %s\n" % ", ".join(sorted(missing)))
            return 2
    else:
        live = {s.stem for s in scripts}
        for old in list(OUT.glob("*.stdout")) + list(OUT.glob("*.error")):
            if old.stem not in live:
                old.unlink()

    raised, bad = [], []
    for s in scripts:
        try:
            p = subprocess.run([args.python, s.name], cwd=SRC, capture_output=True, env=env, timeout=300)
        except subprocess.TimeoutExpired:
            bad.append((s.stem, "timed out"))
            continue
        if p.returncode not in (0, 1):
            bad.append((s.stem, "exit %d: %s" % (p.returncode, p.stderr.decode(errors="replace")[-500:])))
            continue
        (OUT / (s.stem + ".stdout")).write_bytes(p.stdout)
        last = ""
        if p.returncode == 1:
            lines = [l for l in p.stderr.decode("utf-8", errors="replace").splitlines() if l.strip()]
            last = lines[-1].rstrip() + "\n" if lines else "\n"
            raised.append(s.stem)
        (OUT / (s.stem + ".error")).write_text(last)
        print("%-40s %s" % (s.stem, last.strip() or "ok"))

    print("\nrecord-pytorch: %d scripts recorded with %s; %d end in an exception"
          % (len(scripts) - len(bad), ", ".join(version[:2]), len(raised)))
    for name, why in bad:
        print("record-pytorch: NOT recorded: %s (%s)" % (name, why), file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
