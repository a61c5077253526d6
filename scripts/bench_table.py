#!/usr/bin/env python3
"""The engine and the interpreter against PyTorch and CPython, row by row (issue "the engine at
PyTorch's speed"): run by scripts/bench.sh.

Each row is a script under benches/scripts/speed/ that defines step(); harness.py (put in front
of it, so both sides run the same text) times step() inside the process with time.perf_counter,
after a warm-up, for MIN_STEPS steps or MIN_SECONDS, whichever comes first, and prints the
median and the 10th/90th percentiles of the per-step times. Process start-up and `import torch`
are not counted.

For every row the two sides ALTERNATE in the same run (cudatutor, then the reference, ROUNDS
times), under OMP_NUM_THREADS=1 and then under PyTorch's default thread count (the variable
unset), so a burst of load from other jobs hits both sides alike. The interpreter rows compare
with CPython (the reference python without torch) and do not depend on threads. The lesson
solutions run end to end (`cudatutor run`, whole process) against the 20 ms goal.

The load average is printed at the start, beside every row and at the end: on a shared machine a
figure means nothing without it.
"""
import argparse
import os
import pathlib
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
SPEED = ROOT / "benches" / "scripts" / "speed"

# (label, script, substitutions, unit, goal) — unit "ms" prints milliseconds per step;
# ("gflops", flop) prints GFLOP/s. goal is the "done when" for the ratio (ours/theirs):
# engine rows <= 1.0 at default threads and <= 1.2 at one thread; matmul >= 90 % of MKL.
# the optimizers of the MLP rows (mlp.py's OPTIMIZER)
SGD = "torch.optim.SGD(model.parameters(), lr=0.01)"
ADAM = "torch.optim.Adam(model.parameters(), lr=1e-3)"
ENGINE_ROWS = [
    ("MLP 784-256-10 step, batch 64, SGD", "mlp.py", {"BATCH": "64", "OPTIMIZER": SGD}, "ms"),
    ("MLP 784-256-10 step, batch 256, SGD", "mlp.py", {"BATCH": "256", "OPTIMIZER": SGD}, "ms"),
    ("MLP 784-256-10 step, batch 64, Adam", "mlp.py", {"BATCH": "64", "OPTIMIZER": ADAM}, "ms"),
    ("MLP 784-256-10 step, batch 256, Adam", "mlp.py", {"BATCH": "256", "OPTIMIZER": ADAM}, "ms"),
    ("small CNN step, 32x1x28x28, SGD", "cnn_sgd.py", {}, "ms"),
    ("softmax 4096x1024, dim 1", "softmax.py", {}, "ms"),
    ("log_softmax 4096x1024, dim 1", "log_softmax.py", {}, "ms"),
    ("max over dim 1, 2048x2048", "max_dim.py", {"DIM": "1"}, "ms"),
    ("max over dim 0, 2048x2048", "max_dim.py", {"DIM": "0"}, "ms"),
    ("matmul f32 n=256", "matmul.py", {"SIZE": "256"}, ("gflops", 2 * 256**3)),
    ("matmul f32 n=512", "matmul.py", {"SIZE": "512"}, ("gflops", 2 * 512**3)),
    ("matmul f32 n=1024", "matmul.py", {"SIZE": "1024"}, ("gflops", 2 * 1024**3)),
]
INTERP_ROWS = [
    ("s += str(i) x1e5", "str_append.py", {}, "ms", 2.0),
    ("dict inserts 1e5 int keys", "dict_int.py", {}, "ms", 1.5),
    ("dict inserts 1e5 str keys", "dict_str.py", {}, "ms", 1.5),
    ("loop in a function, 3e5 iterations", "loop_fn.py", {}, "ms", None),
]


def loadavg():
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


def script_text(name, subs, min_steps, min_seconds):
    body = (SPEED / name).read_text()
    for key, value in subs.items():
        body = re.sub(rf"\b{key}\b", value, body)
    harness = (SPEED / "harness.py").read_text()
    return (harness + "\n\n" + body +
            f"\n\n_bench(step, {min_steps}, {min_seconds})\n")


def run_one(cmd, env):
    """Runs one benchmark process; returns (median, p10, p90, steps, threads) or an error."""
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    for line in r.stdout.splitlines():
        parts = line.split()
        if parts and parts[0] == "BENCH" and len(parts) == 6:
            return (float(parts[2]), float(parts[3]), float(parts[4]), int(parts[1]),
                    int(parts[5]))
    tail = (r.stderr or r.stdout).strip().splitlines()[-1:] or ["no output"]
    return f"failed (exit {r.returncode}): {tail[0][:100]}"


def env_for(threads):
    env = dict(os.environ)
    env.pop("OMP_NUM_THREADS", None)
    env.pop("MKL_NUM_THREADS", None)
    if threads == 1:
        env["OMP_NUM_THREADS"] = "1"
    return env


def summary(results):
    """Pools the rounds: median of the per-round medians, spread = lowest p10 .. highest p90."""
    ok = [r for r in results if isinstance(r, tuple)]
    if not ok:
        return None
    med = statistics.median(r[0] for r in ok)
    lo = min(r[1] for r in ok)
    hi = max(r[2] for r in ok)
    steps = sum(r[3] for r in ok)
    return med, lo, hi, steps, ok[0][4]


def show(value, unit):
    if unit == "ms":
        return f"{value * 1e3:.3f} ms"
    return f"{unit[1] / value / 1e9:.1f} GFLOP/s"


def cell(s, unit):
    if s is None:
        return "failed"
    med, lo, hi, steps, _ = s
    if unit == "ms":
        return f"{med * 1e3:.3f} ms [{lo * 1e3:.3f}-{hi * 1e3:.3f}] n={steps}"
    flop = unit[1]
    return f"{flop / med / 1e9:.1f} GFLOP/s [{flop / hi / 1e9:.1f}-{flop / lo / 1e9:.1f}] n={steps}"


def compare(tmp, label, name, subs, unit, ours_cmd, ref_cmd, env, args):
    text = script_text(name, subs, args.min_steps, args.min_seconds)
    path = tmp / (re.sub(r"\W+", "_", label) + ".py")
    path.write_text(text)
    ours, theirs = [], []
    for _ in range(args.rounds):
        ours.append(run_one(ours_cmd + [str(path)], env))
        theirs.append(run_one(ref_cmd + [str(path)], env))
    errors = [r for r in ours + theirs if isinstance(r, str)]
    return summary(ours), summary(theirs), errors


def engine_section(tmp, args, bin_cmd, torch_py):
    out = []
    for threads, title in ((1, "OMP_NUM_THREADS=1"), (None, "PyTorch's default threads")):
        env = env_for(threads)
        print(f"\n## Engine vs PyTorch, {title}\n", flush=True)
        print(f"| work | cudatutor | PyTorch | ours/theirs | goal | load |")
        print(f"|---|---|---|---|---|---|", flush=True)
        goal = 1.2 if threads == 1 else 1.0
        for label, name, subs, unit in ENGINE_ROWS:
            if args.only and not re.search(args.only, label):
                continue
            ours, theirs, errors = compare(tmp, label, name, subs, unit, bin_cmd, [torch_py],
                                           env, args)
            if ours and theirs:
                ratio = ours[0] / theirs[0]
                if unit == "ms":
                    verdict = "ok" if ratio <= goal else "MISSED"
                    goal_text = f"<= {goal}x"
                else:
                    verdict = "ok" if theirs[0] / ours[0] >= 0.9 else "MISSED"
                    goal_text = ">= 90% of MKL"
                ratio_text = f"{ratio:.2f}x {verdict}"
            else:
                ratio_text, goal_text = "-", ""
            tcount = theirs[4] if theirs else "?"
            print(f"| {label} | {cell(ours, unit)} | {cell(theirs, unit)} (torch threads "
                  f"{tcount}) | {ratio_text} | {goal_text} | {loadavg()} |", flush=True)
            for e in errors:
                print(f"|   ({e}) | | | | | |", flush=True)
            out.append((title, label, ours, theirs))
    return out


def interp_section(tmp, args, bin_cmd, cpython):
    print("\n## Interpreter vs CPython (no torch; threads do not apply)\n")
    print("| work | cudatutor | CPython | ours/theirs | goal | load |")
    print("|---|---|---|---|---|---|", flush=True)
    env = env_for(None)
    for label, name, subs, unit, goal in INTERP_ROWS:
        if args.only and not re.search(args.only, label):
            continue
        ours, theirs, errors = compare(tmp, label, name, subs, unit, bin_cmd, [cpython], env,
                                       args)
        if ours and theirs:
            ratio = ours[0] / theirs[0]
            verdict = "" if goal is None else (" ok" if ratio <= goal else " MISSED")
            ratio_text = f"{ratio:.2f}x{verdict}"
        else:
            ratio_text = "-"
        goal_text = f"<= {goal}x" if goal else ""
        print(f"| {label} | {cell(ours, unit)} | {cell(theirs, unit)} | {ratio_text} | "
              f"{goal_text} | {loadavg()} |", flush=True)
        for e in errors:
            print(f"|   ({e}) | | | | | |", flush=True)


def solutions():
    fence = re.compile(r"^```python solution\n(.*?)^```", re.S | re.M)
    for md in sorted((ROOT / "lessons" / "en").glob("*.md")):
        for i, code in enumerate(fence.findall(md.read_text())):
            yield f"{md.stem}#{i + 1}", code


def run_timed(cmd, env):
    """Runs one whole process; returns (wall seconds, CPU seconds (user + sys), exit code).

    CPU time is read from the children's rusage before and after, so it counts only this child:
    it barely moves with other jobs' load, where the wall clock on a shared 2-core VM swings."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, r.returncode


def solutions_section(tmp, args, bin_path):
    """Every lesson solution, whole process, ROUND-ROBIN: round k runs every solution once
    before round k+1 starts, so a burst of load from other jobs lands on many scripts a little
    instead of on one script's every run. With --compare-bin OLD each solution runs with both
    builds back to back in every round (which goes first alternates by round), the only fair
    old-against-new comparison on a shared machine."""
    builds = [("this", bin_path)] + ([("old", args.compare_bin)] if args.compare_bin else [])
    print("\n## Every lesson solution end to end (`cudatutor run --backend sim --gpus 2`, "
          f"whole process; goal <= 20 ms; {args.solution_runs} rounds, round-robin"
          f"{', alternating with ' + args.compare_bin if args.compare_bin else ''})\n")
    env = env_for(None)
    env["CUDATUTOR_DATA_DIR"] = str(tmp / "data")
    scripts = []
    for name, code in solutions():
        f = tmp / (re.sub(r"\W+", "_", name) + ".py")
        f.write_text(code)
        scripts.append((name, f))
    # times[build][name] = [(wall, cpu)], failed[build][name] = last non-zero exit code
    times = {b: {n: [] for n, _ in scripts} for b, _ in builds}
    failed = {b: {} for b, _ in builds}
    for k in range(args.solution_runs):
        order = builds if k % 2 == 0 else builds[::-1]
        for name, f in scripts:
            for build, exe in order:
                wall, cpu, rc = run_timed([exe, "run", "--backend", "sim", "--gpus", "2", str(f)],
                                          env)
                times[build][name].append((wall, cpu))
                if rc != 0:
                    failed[build][name] = rc

    def med(samples, i):
        return statistics.median(s[i] for s in samples)

    meds = sorted(med(times["this"][n], 0) for n, _ in scripts)
    slow = [n for n, _ in scripts if med(times["this"][n], 0) > 0.020]
    print(f"{len(scripts)} solutions x {args.solution_runs} runs: median of medians "
          f"{statistics.median(meds) * 1e3:.1f} ms, range {meds[0] * 1e3:.1f}-"
          f"{meds[-1] * 1e3:.1f} ms, over 20 ms: {len(slow)} (load {loadavg()})")
    head = "| solution | wall median | wall min-max | CPU median |"
    if args.compare_bin:
        head += " old wall median | old CPU median | wall new/old |"
    print("\n" + head + " |\n" + "|---" * head.count("|") + "|")
    for name, _ in scripts:
        this = times["this"][name]
        walls = [w for w, _ in this]
        row = (f"| {name} | {med(this, 0) * 1e3:.1f} ms | {min(walls) * 1e3:.1f}-"
               f"{max(walls) * 1e3:.1f} | {med(this, 1) * 1e3:.1f} ms |")
        if args.compare_bin:
            old = times["old"][name]
            row += (f" {med(old, 0) * 1e3:.1f} ms | {med(old, 1) * 1e3:.1f} ms | "
                    f"{med(this, 0) / med(old, 0):.2f} |")
        note = "over 20 ms" if med(this, 0) > 0.020 else "ok"
        for build, _ in builds:
            if name in failed[build]:
                note += f", {build} build exit {failed[build][name]}"
        print(f"{row} {note} |")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true",
                   help="one round, 50 steps or 0.3 s per side, 3 runs per solution (a smoke "
                        "run: figures are noisier)")
    p.add_argument("--only", help="regex: run only the rows whose label matches")
    p.add_argument("--no-solutions", action="store_true")
    p.add_argument("--solutions-only", action="store_true",
                   help="skip the engine and interpreter rows")
    p.add_argument("--compare-bin", metavar="OLD",
                   help="also run every solution with this older cudatutor binary, alternating "
                        "with --bin in every round")
    p.add_argument("--python", default=os.environ.get("CUDATUTOR_BENCH_PYTHON",
                                                      str(ROOT / ".venv-torch" / "bin" / "python")))
    p.add_argument("--bin", default=str(ROOT / "target" / "release" / "cudatutor"))
    args = p.parse_args()
    args.rounds, args.min_steps, args.min_seconds, args.solution_runs = (
        (1, 50, 0.3, 3) if args.quick else (2, 200, 1.0, 5))
    started = time.time()
    cpu = "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    ver = subprocess.run([args.python, "-c", "import sys, torch; print(sys.version.split()[0], "
                          "torch.__version__, torch.get_num_threads())"],
                         capture_output=True, text=True, env=env_for(None)).stdout.split()
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                          text=True).stdout.strip()
    print(f"# scripts/bench.sh{' --quick' if args.quick else ''}: "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, commit {head}")
    print(f"machine: {cpu}, {os.cpu_count()} CPUs; load average at start {loadavg()}")
    if len(ver) == 3:
        print(f"reference: CPython {ver[0]}, torch {ver[1]} (default threads {ver[2]})")
    print(f"each side: {args.rounds} round(s) alternating, each timing {args.min_steps} steps or "
          f"{args.min_seconds} s after a warm-up; cells are the median of the rounds' medians "
          f"[lowest p10 - highest p90] n=steps")
    # The runner's 10 s default limit would end the slow interpreter rows.
    bin_cmd = [args.bin, "run", "--time-limit", "600"]
    with tempfile.TemporaryDirectory() as d:
        tmp = pathlib.Path(d)
        if not args.solutions_only:
            engine_section(tmp, args, bin_cmd, args.python)
            interp_section(tmp, args, bin_cmd, args.python)
        if not args.no_solutions and not args.only:
            solutions_section(tmp, args, args.bin)
    print(f"\nload average at end {loadavg()}; {time.time() - started:.0f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
