#!/usr/bin/env bash
# Records CPython's stderr for every tests/tracebacks/*.py as <name>.stderr, with the folder
# written as <DIR> (CPython prints the script's absolute path). tests/tracebacks.rs compares
# `cudatutor run` with these. Run with the CPython the suite targets (3.11).
set -euo pipefail
cd "$(dirname "$0")/../tests/tracebacks"
dir=$(pwd)
for f in *.py; do
    python3 "$f" 2> "${f%.py}.stderr.raw" > /dev/null || true
    sed "s#$dir#<DIR>#g" "${f%.py}.stderr.raw" > "${f%.py}.stderr"
    rm "${f%.py}.stderr.raw"
done
python3 --version > PYTHON_VERSION
echo "recorded $(ls *.stderr | wc -l) tracebacks with $(cat PYTHON_VERSION)"
