#!/usr/bin/env bash
# Prints every speed figure with its goal side by side (see scripts/bench.py).
# The PyTorch ratios need a python with torch: CUDATUTOR_BENCH_PYTHON, else the test suite's
# CUDATUTOR_TEST_PYTHON, else python3 (rows against torch are skipped when it has none).
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${CUDATUTOR_BENCH_PYTHON:-${CUDATUTOR_TEST_PYTHON:-python3}}"
exec "$PY" scripts/bench.py "$@"
