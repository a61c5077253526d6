#!/usr/bin/env bash
# Builds what scripts/gpu-check.sh runs on a GPU machine that has no Rust: the release binary
# and the GPU test binary (tests/cuda/main.rs), stripped (the release profile keeps debug info:
# 85 MB unstripped, 13 MB stripped; the device tool carries 64 MiB), into target/gpu-carry.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked
tests=$(cargo test --release --locked --no-run --test cuda --message-format=json 2>/dev/null \
  | grep -o '"executable":"[^"]*/deps/cuda-[^"]*"' | tail -1 | cut -d'"' -f4)
[ -n "$tests" ] || { echo "gpu-carry: the cuda test binary was not built" >&2; exit 1; }
mkdir -p target/gpu-carry
strip -o target/gpu-carry/cudatutor target/release/cudatutor
strip -o target/gpu-carry/cuda-tests "$tests"
# the commit the binaries were built from, for gpu-check.sh's summary (tests/fixtures/gpu-runs)
{ git rev-parse HEAD; git diff --quiet HEAD || echo "(with uncommitted changes)"; } | paste -sd' ' - >target/gpu-carry/COMMIT
ls -la target/gpu-carry
