#!/usr/bin/env python3
"""Every speed figure cudatutor promises, measured in one run, printed beside its goal.

  scripts/bench.sh --product  (runs this; plain scripts/bench.sh runs the speed table,
                              scripts/bench_table.py)

Figures:
  * criterion benches (cargo bench): first frame, full render 80x24 / 120x40, keystroke -> frame
    in the editor, a simulated exercise run, interpreter loop;
  * `cudatutor run` of each lesson's solutions on the sim backend vs python3 + PyTorch (CPU) on
    the same scripts (device 'cuda' replaced by 'cpu' for PyTorch; skipped, with a note, when
    torch is not installed);
  * the interpreter vs CPython on one loop-heavy script;
  * peak RSS of the TUI (pager open on lesson 1, then quit), from /proc via tmux.
"""
import json
import os
import pathlib
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
BIN = ROOT / "target" / "release" / "cudatutor"
rows = []  # (figure, measured, goal, verdict)


def row(name, value, goal="", ok=None):
    verdict = "" if ok is None else ("ok" if ok else "MISSED")
    rows.append((name, value, goal, verdict))


def criterion(bench, filters):
    """Runs one criterion bench and returns {name: median seconds}."""
    out = subprocess.run(["cargo", "bench", "--bench", bench, "--", "--noplot", *filters],
                         cwd=ROOT, capture_output=True, text=True)
    found = {}
    name = None
    for line in (out.stdout + out.stderr).splitlines():
        m = re.match(r"^(\S+)\s+time:\s+\[(\S+) (\S+) (\S+) (\S+) (\S+) (\S+)\]", line)
        if m:
            found[m.group(1)] = to_seconds(m.group(4), m.group(5))
            continue
        m = re.match(r"^(\S+)\s*$", line)
        if m:
            name = m.group(1)
        m2 = re.match(r"^\s+time:\s+\[(\S+) (\S+) (\S+) (\S+) (\S+) (\S+)\]", line)
        if m2 and name:
            found[name] = to_seconds(m2.group(3), m2.group(4))
    return found


def to_seconds(value, unit):
    scale = {"ps": 1e-12, "ns": 1e-9, "µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0}[unit]
    return float(value) * scale


def fmt_time(s):
    if s < 1e-3:
        return f"{s * 1e6:.1f} µs"
    if s < 1:
        return f"{s * 1e3:.2f} ms"
    return f"{s:.2f} s"


def solutions():
    fence = re.compile(r"^```python solution\n(.*?)^```", re.S | re.M)
    for md in sorted((ROOT / "lessons" / "en").glob("*.md")):
        for i, code in enumerate(fence.findall(md.read_text())):
            yield f"{md.stem}#{i + 1}", code


def wall(cmd, runs=5, **kw):
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, capture_output=True, **kw)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main():
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    c = criterion("pager", [])
    for key, goal_s, label in [("startup_to_first_frame_80x24", 0.030, "start-up to first frame"),
                               ("full_render_80x24_cached_layout", None, "full render 80x24"),
                               ("full_render_120x40_cached_layout", None, "full render 120x40"),
                               ("keystroke_to_frame_editor_120x40", 0.002, "keystroke -> frame (editor)")]:
        if key in c:
            row(label, fmt_time(c[key]), f"<= {fmt_time(goal_s)}" if goal_s else "",
                None if goal_s is None else c[key] <= goal_s)
    # The whole process: exec, lesson loading, progress file, printing, exit.
    empty = pathlib.Path(tempfile.mkdtemp())
    listing = wall([str(BIN), "list"], runs=10, env={**os.environ, "CUDATUTOR_DATA_DIR": str(empty)})
    row("process start-up to exit (`cudatutor list`)", fmt_time(listing), "<= 30 ms", listing <= 0.030)
    runs = criterion("exercise", [])
    if runs:
        times = sorted(runs.values())
        slowest = max(runs, key=runs.get)
        med = statistics.median(times)
        row(f"sim exercise run, median of {len(times)} solutions+checks", fmt_time(med),
            "<= 20 ms", med <= 0.020)
        row(f"sim exercise run, slowest ({slowest.split('/')[-1]})", fmt_time(runs[slowest]),
            "<= 20 ms", runs[slowest] <= 0.020)
    for bench in ("engine", "interp"):
        for key, val in criterion(bench, []).items():
            row(f"{bench}: {key}", fmt_time(val))

    have_torch = subprocess.run([sys.executable, "-c", "import torch"], capture_output=True).returncode == 0
    tmp = pathlib.Path(tempfile.mkdtemp())
    ours_all, theirs_all = [], []
    for name, code in solutions():
        f = tmp / (name.replace("#", "_") + ".py")
        f.write_text(code)
        ours = wall([str(BIN), "run", "--backend", "sim", "--gpus", "2", str(f)])
        ours_all.append(ours)
        if have_torch:
            g = tmp / (name.replace("#", "_") + "_cpu.py")
            g.write_text(re.sub(r"'cuda(:\d)?'", "'cpu'", code).replace(".cuda()", ""))
            theirs = wall([sys.executable, str(g)], runs=3)
            theirs_all.append(theirs)
            row(f"run {name}", fmt_time(ours), "<= 20 ms", ours <= 0.020)
        else:
            row(f"run {name}", fmt_time(ours), "<= 20 ms", ours <= 0.020)
    if ours_all:
        if have_torch and theirs_all:
            ratio = statistics.median(theirs_all) / statistics.median(ours_all)
            row("solutions: python3+torch / cudatutor (median)", f"{ratio:.0f}x", ">= 50x", ratio >= 50)
        else:
            row("solutions vs python3+torch", "skipped: torch is not installed for python3")

    mlp = ROOT / "benches" / "scripts" / "mlp.py"
    ours = wall([str(BIN), "run", "--backend", "sim", str(mlp)], runs=7)
    if have_torch:
        g = tmp / "mlp_cpu.py"
        g.write_text(mlp.read_text().replace("'cuda'", "'cpu'"))
        theirs = wall([sys.executable, str(g)], runs=3)
        row("MLP 64x784 + cross_entropy: python3+torch / cudatutor run", f"{theirs / ours:.0f}x "
            f"({fmt_time(theirs)} vs {fmt_time(ours)})", ">= 50x", theirs / ours >= 50)
    else:
        row("MLP 64x784 + cross_entropy: cudatutor run", fmt_time(ours),
            "", None)
        row("MLP vs python3+torch", "skipped: torch is not installed for python3")

    # Issue 15: one MLP 784-256-10 training step at batch 64 (forward, cross_entropy, backward,
    # SGD step) on the CPU, timed inside the script (median of 10 steps) by cudatutor and, in
    # the same run, by PyTorch with one thread (the engine uses one) and with its default.
    train = ROOT / "benches" / "scripts" / "mlp_train.py"

    def step_figures(cmd, env=None):
        r = subprocess.run(cmd, capture_output=True, text=True, env=env)
        vals = {}
        for line in r.stdout.splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[0].endswith("_ms"):
                vals[parts[0]] = float(parts[1])
        return vals

    ours_t = step_figures([str(BIN), "run", str(train)])
    if "step_ms" in ours_t:
        row("MLP 784-256-10 train step (batch 64): cudatutor", f"{ours_t['step_ms']:.2f} ms")
        ratio_bf = ours_t["backward_ms"] / max(ours_t["forward_ms"], 1e-9)
        row("MLP train step: backward / forward (cudatutor)", f"{ratio_bf:.1f}x", "<= 3x",
            ratio_bf <= 3)
    else:
        row("MLP 784-256-10 train step (batch 64): cudatutor", "failed")
    if have_torch and "step_ms" in ours_t:
        for label, extra in (("1 thread", {"OMP_NUM_THREADS": "1"}), ("default threads", {})):
            th = step_figures([sys.executable, str(train)], env={**os.environ, **extra})
            if "step_ms" in th:
                ratio = ours_t["step_ms"] / th["step_ms"]
                row(f"MLP train step: cudatutor / PyTorch CPU ({label})",
                    f"{ratio:.2f}x ({ours_t['step_ms']:.2f} vs {th['step_ms']:.2f} ms)",
                    "<= 1.5x", ratio <= 1.5)

    # Issue 15: an elementwise chain and a reduction on 4M float32 (timed inside the script)
    # and the peak RSS of a script holding three 16M-element float32 tensors (192 MB of data).
    ew = ROOT / "benches" / "scripts" / "elementwise_4m.py"
    ours_e = step_figures([str(BIN), "run", str(ew)]).get("elementwise_ms")
    if ours_e is not None and have_torch:
        for label, extra in (("1 thread", {"OMP_NUM_THREADS": "1"}), ("default threads", {})):
            th = step_figures([sys.executable, str(ew)], env={**os.environ, **extra})
            if "elementwise_ms" in th:
                ratio = ours_e / th["elementwise_ms"]
                row(f"(x*2+1).relu().sum() on 4M float32: cudatutor / PyTorch CPU ({label})",
                    f"{ratio:.2f}x ({ours_e:.2f} vs {th['elementwise_ms']:.2f} ms)",
                    "<= 1.5x", ratio <= 1.5)
    elif ours_e is not None:
        row("(x*2+1).relu().sum() on 4M float32: cudatutor", f"{ours_e:.2f} ms")
    held = ROOT / "benches" / "scripts" / "hold_three_16m.py"
    if shutil.which("/usr/bin/time") or os.path.exists("/usr/bin/time"):
        r = subprocess.run(["/usr/bin/time", "-f", "maxrss %M", str(BIN), "run", str(held)],
                           capture_output=True, text=True)
        m = re.search(r"maxrss (\d+)", r.stderr)
        if m:
            mb = int(m.group(1)) / 1024
            row("peak RSS, script holding three 16M float32 tensors", f"{mb:.0f} MB",
                "<= 220 MB", mb <= 220)

    loop = "total = 0\nfor i in range(300000):\n    if i % 3 == 0:\n        total += i * 2\n    else:\n        total -= 1\nprint(total)\n"
    f = tmp / "loop.py"
    f.write_text(loop)
    ours = wall([str(BIN), "run", str(f)], runs=3)
    cpy = wall([sys.executable, str(f)], runs=3)
    row("interpreter vs CPython, loop-heavy script", f"{ours / cpy:.2f}x CPython's time "
        f"({fmt_time(ours)} vs {fmt_time(cpy)})", "<= 3x", ours / cpy <= 3)

    if shutil.which("tmux"):
        data = tmp / "data"
        data.mkdir()
        sess = f"cudatutor-bench-{os.getpid()}"
        subprocess.run(["tmux", "new-session", "-d", "-s", sess, "-x", "120", "-y", "40",
                        f"exec env CUDATUTOR_DATA_DIR={data} {BIN} lesson 3"], check=True)
        time.sleep(1.0)
        pid = subprocess.run(["tmux", "display", "-p", "-t", sess, "#{pane_pid}"],
                             capture_output=True, text=True).stdout.strip()
        # Scroll the lesson, focus its first exercise and run it, so the figure includes the
        # interpreter and the engine, not only the pager.
        for key in ["G", "g", "Tab", "F5"]:
            subprocess.run(["tmux", "send-keys", "-t", sess, key])
            time.sleep(0.3)
        time.sleep(1.0)
        hwm = None
        try:
            for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    hwm = int(line.split()[1]) / 1024
        except OSError:
            pass
        subprocess.run(["tmux", "kill-session", "-t", sess])
        if hwm is not None:
            row("peak RSS of the TUI", f"{hwm:.1f} MB", "<= 30 MB", hwm <= 30)

    w = max(len(r[0]) for r in rows)
    print(f"{'figure':<{w}}  {'measured':<40}  {'goal':<10}  verdict")
    for name, value, goal, verdict in rows:
        print(f"{name:<{w}}  {value:<40}  {goal:<10}  {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
