#!/usr/bin/env python3
"""How soon a device-side assert becomes visible to the host, on a real GPU with real PyTorch
(scripts/gpu-check.sh). The sim's stream model (src/engine/timing.rs) decides on which line a
deferred assert surfaces from its host dispatch time and its assert trap time; this measures
both so they can be calibrated:

  1. trap: a failing nll_loss launch, then the host spins S microseconds, then launches the
     next kernel (`y * 2`), then synchronizes. For each S (3 runs each, every run its own
     process: the assert poisons it) we record whether the error surfaced at the next launch
     or at the synchronize;
  2. dispatch: host time per small op (`y * 2`, F.cross_entropy) averaged over many calls,
     and the device time of the small kernels (CUDA events).
Writes JSON to argv[1] and prints a summary.
"""
import concurrent.futures
import json
import subprocess
import sys

CHILD = r'''
import sys, time, torch
import torch.nn.functional as F
spin_us = float(sys.argv[1])
x = torch.randn(8, 5, device="cuda")
t = torch.tensor([0, 1, 2, 3, 4, 5, 0, 1], device="cuda")
y = torch.ones(4, device="cuda")
lp = F.log_softmax(x, 1)
z = y * 2
torch.cuda.synchronize()
where = "launch of the failing kernel"
try:
    loss = F.nll_loss(lp, t)
    t0 = time.perf_counter()
    while (time.perf_counter() - t0) * 1e6 < spin_us:
        pass
    where = "next launch"
    z = y * 2
    where = "synchronize"
    torch.cuda.synchronize()
    where = "nowhere"
except Exception as e:
    pass
print(where)
'''

DISPATCH = r'''
import json, time, torch
import torch.nn.functional as F
y = torch.ones(4, device="cuda")
x = torch.randn(8, 5, device="cuda")
t = torch.tensor([0, 1, 2, 3, 4, 0, 0, 1], device="cuda")
for _ in range(200):
    z = y * 2
    l = F.cross_entropy(x, t)
torch.cuda.synchronize()
def per_call(f, n=2000):
    t0 = time.perf_counter()
    for _ in range(n):
        f()
    dt = (time.perf_counter() - t0) / n * 1e6
    torch.cuda.synchronize()
    return dt
out = {"mul_host_us": per_call(lambda: y * 2),
       "cross_entropy_host_us": per_call(lambda: F.cross_entropy(x, t)),
       "log_softmax_host_us": per_call(lambda: F.log_softmax(x, 1))}
s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
s.record()
for _ in range(1000):
    F.nll_loss(x, t)
e.record()
torch.cuda.synchronize()
out["nll_loss_device_us_per_call_in_a_queue"] = s.elapsed_time(e)  # ms for 1000 = us per call
print(json.dumps(out))
'''


def trial(spin):
    p = subprocess.run([sys.executable, "-c", CHILD, str(spin)], capture_output=True, text=True,
                       timeout=60)
    return spin, (p.stdout.strip().splitlines() or ["(no output: " + p.stderr[-200:] + ")"])[-1]


def main():
    out_path = sys.argv[1] if len(sys.argv) > 1 else "gpu-trap-timing.json"
    p = subprocess.run([sys.executable, "-c", DISPATCH], capture_output=True, text=True, timeout=120)
    dispatch = json.loads(p.stdout) if p.returncode == 0 else {"error": p.stderr[-500:]}
    print("dispatch:", dispatch)
    spins = [0, 1, 2, 5, 10, 20, 40, 80, 160]
    jobs = [s for s in spins for _ in range(3)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=3) as pool:
        results = list(pool.map(trial, jobs))
    table = {str(s): [w for (x, w) in results if x == s] for s in spins}
    for s in spins:
        print(f"spin {s:>4} us: {table[str(s)]}")
    with open(out_path, "w") as f:
        json.dump({"dispatch": dispatch, "surfaced_at_by_spin_us": table}, f, indent=2)


if __name__ == "__main__":
    main()
