#!/usr/bin/env bash
# Time the interpreter benchmark script under cudatutor's interpreter (release build, via the
# criterion bench) and under python3, and print the ratio.
# Usage: scripts/bench-interp.sh   (needs python3; builds the bench in release mode)
set -euo pipefail
cd "$(dirname "$0")/.."
script=$(mktemp --suffix=.py)
trap 'rm -f "$script"' EXIT
# Extract the LOOPS script from benches/interp.rs so both sides run the same code.
python3 - "$script" <<'PY'
import re, sys
src = open("benches/interp.rs").read()
body = re.search(r'pub const LOOPS: &str = r#"(.*?)"#;', src, re.S).group(1)
open(sys.argv[1], "w").write(body)
PY
py=$(python3 - "$script" <<'PY'
import sys, time, subprocess, io, contextlib
code = compile(open(sys.argv[1]).read(), "bench.py", "exec")
best = 1e9
for _ in range(10):
    t = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):
        exec(code, {"__name__": "__main__"})
    best = min(best, time.perf_counter() - t)
print(f"{best * 1e3:.3f}")
PY
)
ours=$(cargo bench --bench interp -- interp_loops --noplot 2>/dev/null \
  | grep -A1 'interp_loops' | grep -oE 'time: +\[[0-9.]+ [a-zµ]+ [0-9.]+ [a-zµ]+' \
  | awk '{v=$4; u=$5; if (u=="µs") v/=1000; if (u=="s") v*=1000; print v}')
echo "python3:   ${py} ms"
echo "cudatutor: ${ours} ms"
python3 -c "print(f'ratio (cudatutor / python3): {float(\"$ours\") / float(\"$py\"):.2f}x')"
