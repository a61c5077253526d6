"""Copies the stderr of every recorded GPU run that raised (tests/fixtures/cuda/*.json, recorded on
a real GPU by tests/cuda/main.rs) into the explain corpus as tests/explain/corpus/gpu-*.txt, with
the family each one belongs to. The stderr is copied as recorded, byte for byte.

    python3 tests/explain/import_gpu_fixtures.py
"""
import glob
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FAMILY = {
    "assert_deferred": "assert-nll-target",
    "assert_sticky": "assert-nll-target",
    "assert_embedding": "assert-embedding",
    "assert_gather": "assert-gather-scatter",
    "assert_index": "assert-index",
    "assert_index_select": "assert-index-select",
    "device_mismatch": "device-mismatch",
    "linear_mismatch": "device-mismatch",
    "invalid_ordinal": "invalid-ordinal",
    "numpy_cuda": "numpy-cuda",
    "oom": "oom",
    "oom_fraction": "oom",
}

for path in sorted(glob.glob(os.path.join(ROOT, "tests/fixtures/cuda/*.json"))):
    with open(path) as f:
        d = json.load(f)
    if not isinstance(d, dict) or not d.get("exit_code"):
        continue
    name = os.path.basename(path)[: -len(".json")]
    script = name.split(".")[0]
    family = FAMILY.get(script)
    if family is None:
        raise SystemExit(f"{name}: no family named for this fixture")
    out = os.path.join(HERE, "corpus", "gpu-" + name.replace(".", "-").replace("_", "-") + ".txt")
    with open(out, "w") as f:
        f.write(f"# family: {family}\n")
        f.write(f"# source: tests/fixtures/cuda/{name}.json (torch {d.get('torch')}, {d.get('device')}, "
                f"launch_blocking={d.get('launch_blocking')})\n")
        f.write("---\n")
        f.write(d["stderr"])
    print(out)
