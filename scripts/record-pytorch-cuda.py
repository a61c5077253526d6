#!/usr/bin/env python3
"""Record real PyTorch+CUDA on tests/cuda/*.py, for the engine's CUDA fixtures.

Run on a GPU machine (scripts/gpu-check.sh does). Each script runs twice in its own process:
as is, and with CUDA_LAUNCH_BLOCKING=1. For each run we keep stdout, stderr (the traceback:
its last `File "...", line N` is where the host reported the error), the exit status, and the
device log lines (kernel assertion messages). Output: <out>/<name>[.blocking].json
"""
import concurrent.futures
import json
import os
import pathlib
import subprocess
import sys


def main() -> int:
    root = pathlib.Path(__file__).resolve().parent.parent
    out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else root / "tests" / "fixtures" / "cuda")
    out.mkdir(parents=True, exist_ok=True)
    import torch  # noqa: F401  (fail early, with a clear error, when torch is missing)

    version = {"torch": torch.__version__, "cuda": torch.version.cuda,
               "device": torch.cuda.get_device_name(0) if torch.cuda.is_available() else None}
    (out / "VERSION.json").write_text(json.dumps(version, indent=2) + "\n")
    # Seeded CUDA random numbers (PyTorch's Philox stream), for the engine's CUDA generator.
    if torch.cuda.is_available():
        rows = {}
        for seed in (0, 1, 42):
            torch.manual_seed(seed)
            rows[str(seed)] = {
                "rand8": torch.rand(8, device="cuda").tolist(),
                "randn8": torch.randn(8, device="cuda").tolist(),
                "randint8_0_10": torch.randint(0, 10, (8,), device="cuda").tolist(),
                "rand8_f64": torch.rand(8, device="cuda", dtype=torch.float64).tolist(),
                "rand_then_randn": [torch.rand(3, device="cuda").tolist(), torch.randn(5, device="cuda").tolist()],
            }
        (out / "random.json").write_text(json.dumps({**version, "seeds": rows}, indent=2) + "\n")
    scripts = sorted((root / "tests" / "cuda").glob("*.py"))
    jobs = [(script, blocking) for script in scripts for blocking in (False, True)]
    # Each run is its own process (a device-side assert poisons its context); they run side by
    # side (RECORD_JOBS, default 8): the GPU has room, and gpu-check.sh has minutes, not hours.
    workers = int(os.environ.get("RECORD_JOBS", "8"))
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        for line in pool.map(lambda job: record(job[0], job[1], version, out), jobs):
            print(line, flush=True)
    return 0


def record(script, blocking, version, out):
    env = dict(os.environ)
    env.pop("CUDA_LAUNCH_BLOCKING", None)
    if blocking:
        env["CUDA_LAUNCH_BLOCKING"] = "1"
    try:
        p = subprocess.run([sys.executable, script.name], cwd=script.parent, env=env,
                           capture_output=True, text=True, timeout=90)
        code, stdout, stderr = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        code, stdout, stderr = "timeout", str(e.stdout or ""), str(e.stderr or "")
    lines = stderr.splitlines()
    reported = None
    for line in lines:
        s = line.strip()
        if s.startswith('File "') and script.name in s and ", line " in s:
            reported = int(s.split(", line ")[1].split(",")[0])
    record = {
        "torch": version["torch"],
        "torch_cuda": version["cuda"],
        "device": version["device"],
        "script": script.name,
        "launch_blocking": blocking,
        "exit_code": code,
        "stdout": stdout,
        "stderr": stderr,
        "reported_line": reported,
        "device_log": [l for l in lines if "Assertion" in l and "failed" in l],
        "last_line": lines[-1] if lines else "",
    }
    suffix = ".blocking.json" if blocking else ".json"
    (out / (script.stem + suffix)).write_text(json.dumps(record, indent=2) + "\n")
    return f"{script.name:28} blocking={int(blocking)} exit={code} line={reported} {record['last_line'][:70]}"


if __name__ == "__main__":
    sys.exit(main())
