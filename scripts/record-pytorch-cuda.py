#!/usr/bin/env python3
"""Record real PyTorch+CUDA on tests/cuda/*.py, for the engine's CUDA fixtures.

Run on a GPU machine (scripts/gpu-check.sh does). Each script runs twice in its own process:
as is, and with CUDA_LAUNCH_BLOCKING=1. For each run we keep stdout, stderr (the traceback:
its last `File "...", line N` is where the host reported the error), the exit status, and the
device log lines (kernel assertion messages). Output: <out>/<name>[.blocking].json
"""
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
    for script in scripts:
        for blocking in (False, True):
            env = dict(os.environ)
            env.pop("CUDA_LAUNCH_BLOCKING", None)
            if blocking:
                env["CUDA_LAUNCH_BLOCKING"] = "1"
            p = subprocess.run([sys.executable, script.name], cwd=script.parent, env=env,
                               capture_output=True, text=True, timeout=120)
            lines = p.stderr.splitlines()
            reported = None
            for line in lines:
                s = line.strip()
                if s.startswith('File "') and script.name in s and ", line " in s:
                    reported = int(s.split(", line ")[1].split(",")[0])
            record = {
                "torch": version["torch"],
                "torch_cuda": version["cuda"],
                "script": script.name,
                "launch_blocking": blocking,
                "exit_code": p.returncode,
                "stdout": p.stdout,
                "stderr": p.stderr,
                "reported_line": reported,
                "device_log": [l for l in lines if "Assertion" in l and "failed" in l],
                "last_line": lines[-1] if lines else "",
            }
            suffix = ".blocking.json" if blocking else ".json"
            (out / (script.stem + suffix)).write_text(json.dumps(record, indent=2) + "\n")
            print(f"{script.name:28} blocking={int(blocking)} exit={p.returncode} line={reported} {record['last_line'][:70]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
