#!/usr/bin/env python3
"""How far past its limits a hostile script gets: wall time past the time limit and peak RSS
past the memory budget, for tests/hostile/*.py and the single-call bombs, hoarding, sort and
random families of issue 35 (docs/robustness.md has the table this prints).

    scripts/hostile-limits.py [--bin target/release/cudatutor] [--limit 10] [--budget-gib 3]
        [--only SUBSTRING] [--cgroup-v1 DIR]

Each case runs as `cudatutor run --backend sim --time-limit LIMIT FILE` in its own process;
wall time from the fork to wait4, peak RSS from wait4's ru_maxrss. With --cgroup-v1 DIR (a
memory cgroup v1 folder made beforehand, e.g. a child of the process's own cgroup with its
memory.limit_in_bytes set), each run first moves itself into it, to see the budget follow a
nested cgroup's limit (`systemd-run --user --scope -p MemoryMax=...` needs a user bus).
"""
import argparse
import glob
import os
import subprocess
import sys
import tempfile
import time

ONE_CALL = {
    # single-call resource bombs
    "randn_1e9": "import torch\nx = torch.randn(10**9)\n",
    "full_3e9": "import torch\nx = torch.full((3*10**9,), 3.0)\n",
    "randperm_1e11": "import torch\nx = torch.randperm(10**11)\n",
    "multinomial_1e11": "import torch\nx = torch.multinomial(torch.ones(3), 10**11, replacement=True)\n",
    "np_sort_1e9": "import numpy as np\nx = np.sort(np.random.rand(10**9))\n",
    "matmul_f64_expanded": "import torch\none = torch.ones(1, 1, dtype=torch.float64)\ny = one.expand(4000, 10**9) @ one.expand(10**9, 4000)\n",
    "matmul_f32_4096_chain": "import torch\na = torch.randn(4096, 4096)\ny = a @ a @ a @ a @ a\n",
    "conv_big": "import torch\nx = torch.randn(8, 64, 256, 256)\nw = torch.randn(64, 64, 3, 3)\ny = torch.nn.functional.conv2d(x, w)\n",
    "powmod": "print(pow(3, 10**1000, 10**300000 + 7))\n",
    # sort and random families at 10^9 .. 10^12 (expanded views: no memory to hold them)
    **{
        f"{op}_{n}": f"import torch\nx = torch.ones(1).expand({n})\ny = x.{op}\n"
        for op in ["sort()", "argsort()", "topk(5)", "unique()", "cumsum(0)", "median()", "clone()"]
        for n in ["10**9", "10**12"]
    },
    **{
        f"{fn}_{n}": f"import torch\nx = torch.{fn}({n})\n"
        for fn in ["rand", "randn", "randperm", "empty", "zeros", "arange"]
        for n in ["10**9", "10**10", "10**12"]
    },
    # hoarding
    "hoard_lists": "x = []\nwhile True:\n    x.append([0] * 10**6)\n",
    "hoard_strs": "x = []\nwhile True:\n    x.append('a' * 10**7)\n",
    "hoard_tensors": "import torch\nx = []\nwhile True:\n    x.append(torch.ones(10**7))\n",
    # interpreter calls sized by the script: MemoryError before allocating, or stopped inside
    **{
        f"big_{name}": f"y = {expr}\n"
        for name, expr in [
            ("list_of_range", "list(range(10**9))"),
            ("sorted_range", "sorted(range(10**9))"),
            ("list_repeat", "[0] * 10**9"),
            ("str_repeat", "'x' * 10**9"),
            ("join", "''.join(['ab'] * 10**8)"),
            ("list_comp", "[i for i in range(10**9)]"),
        ]
    },
    # one call over a huge range: polled as it goes, its partial list freed after the report
    **{
        f"range_{name}": code
        for name, code in [
            ("list_comp_loop", "while True:\n    y = [i for i in range(10**9)]\n"),
            ("set_comp", "y = {i for i in range(10**9)}\n"),
            ("list_zip", "y = list(zip(range(10**9), range(10**9)))\n"),
            ("list_enumerate", "y = list(enumerate(range(10**9)))\n"),
            ("list_map", "y = list(map(abs, range(10**9)))\n"),
            ("sorted_gen", "y = sorted(i for i in range(10**9))\n"),
            ("sum", "y = sum(range(10**12))\n"),
            ("max", "y = max(range(10**12))\n"),
            ("any_gen", "y = any(x < 0 for x in range(10**12))\n"),
            ("join_gen", "y = ''.join(str(i) for i in range(10**9))\n"),
            ("factorial", "import math\ny = math.factorial(10**7)\n"),
            ("int_of_digits", "y = int('9' * 10**6)\n"),
            ("str_of_power", "y = str(10**(10**6))\n"),
        ]
    },
    # loops of dict and set copies and set algebra on 10^6 entries
    **{
        f"loop_{name}": "d = dict.fromkeys(range(10**6), 0)\ns = set(range(10**6))\n"
        f"t = set(range(5 * 10**5, 15 * 10**5))\nwhile True:\n    y = {expr}\n"
        for name, expr in [
            ("dict_call", "dict(d)"),
            ("dict_copy", "d.copy()"),
            ("dict_unpack", "{**d}"),
            ("dict_union", "d | d"),
            ("set_call", "set(s)"),
            ("set_or", "s | t"),
            ("set_and", "s & t"),
            ("set_xor", "s ^ t"),
        ]
    },
    # loops of long calls
    "sort_loop_2_24": "import torch\nx = torch.rand(2**24)\nwhile True:\n    x.sort()\n",
    "unique_loop_2_24": "import torch\nx = torch.rand(2**24)\nwhile True:\n    x.unique()\n",
    "randn_loop_2_27": "import torch\nwhile True:\n    torch.randn(2**27)\n",
    "conv_loop": "import torch\nimg = torch.randn(1, 64, 256, 256)\nw = torch.randn(64, 64, 3, 3)\nwhile True:\n    torch.nn.functional.conv2d(img, w)\n",
}


def run(binary, path, limit, prefix):
    t0 = time.monotonic()
    p = subprocess.Popen(
        prefix + [binary, "run", "--backend", "sim", "--time-limit", str(limit), path],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    err = p.stderr.read()
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    last = err.decode(errors="replace").strip().splitlines()[-1:] or [""]
    code = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_maxrss / 1024, code, last[0][:90]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="target/release/cudatutor")
    ap.add_argument("--limit", type=float, default=10)
    ap.add_argument("--budget-gib", type=float, default=3)
    ap.add_argument("--only", default="")
    ap.add_argument("--cgroup-v1", default="")
    ap.add_argument("--no-corpus", action="store_true", help="leave out tests/hostile/*.py")
    args = ap.parse_args()
    prefix = []
    if args.cgroup_v1:
        enter = f'echo $$ > "{args.cgroup_v1}/cgroup.procs" && exec "$@"'
        prefix = ["sh", "-c", enter, "sh"]
    cases = []
    tmp = tempfile.mkdtemp(prefix="hostile-limits-")
    for name, code in ONE_CALL.items():
        path = os.path.join(tmp, name + ".py")
        with open(path, "w") as f:
            f.write(code)
        cases.append((name, path))
    for path in [] if args.no_corpus else sorted(glob.glob("tests/hostile/*.py")):
        cases.append(("hostile/" + os.path.basename(path)[:-3], path))
    budget_mib = args.budget_gib * 1024
    worst_wall = worst_rss = (0.0, "")
    print(f"load average {os.getloadavg()[0]:.1f}, limit {args.limit} s, budget {budget_mib:.0f} MiB")
    print("| case | wall s | past the limit s | peak RSS MiB | past the budget MiB | status | last line |")
    print("|---|---|---|---|---|---|---|")
    for name, path in cases:
        if args.only and args.only not in name:
            continue
        wall, rss, code, last = run(args.bin, path, args.limit, prefix)
        past = max(0.0, wall - args.limit)
        over = max(0.0, rss - budget_mib)
        worst_wall = max(worst_wall, (past, name))
        worst_rss = max(worst_rss, (over, name))
        print(f"| {name} | {wall:.2f} | {past:.2f} | {rss:.0f} | {over:.0f} | {code} | {last} |")
        sys.stdout.flush()
    print(f"worst wall past the limit: {worst_wall[0]:.2f} s ({worst_wall[1]})")
    print(f"worst peak RSS past the budget: {worst_rss[0]:.0f} MiB ({worst_rss[1]})")


if __name__ == "__main__":
    main()
