#!/usr/bin/env bash
# Prints every speed figure with its goal side by side (see scripts/bench.py).
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 scripts/bench.py "$@"
