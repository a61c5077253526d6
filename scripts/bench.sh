#!/usr/bin/env bash
# The engine and the interpreter against PyTorch and CPython, every row of the speed table
# (docs/performance.md), the two sides alternating in the same run at OMP_NUM_THREADS=1 and at
# PyTorch's default threads, plus every lesson solution end to end. See scripts/bench_table.py.
#   scripts/bench.sh            full run (a few minutes on 2 cores)
#   scripts/bench.sh --quick    one round, shorter timings (about a minute)
#   scripts/bench.sh --only softmax --no-solutions
#   scripts/bench.sh --product  the product figures instead (start-up, keystroke, RSS:
#                               scripts/bench.py, criterion benches)
# The reference python is .venv-torch/bin/python (CPython + torch), or CUDATUTOR_BENCH_PYTHON.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${CUDATUTOR_BENCH_PYTHON:-$PWD/.venv-torch/bin/python}"
if [ "${1:-}" = "--product" ]; then
  shift
  exec "$PY" scripts/bench.py "$@"
fi
cargo build --release --quiet
exec python3 scripts/bench_table.py --python "$PY" "$@"
