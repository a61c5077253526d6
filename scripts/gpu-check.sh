#!/usr/bin/env bash
# One prepared run for a GPU machine (no Rust toolchain there): everything a GPU can tell us,
# logged under $OUT (or ./gpu-logs). Budget: under 8 minutes.
#
# Build here first:   cargo build --release && cargo test --release --no-run
# Then carry target/release/cudatutor (and the release test binaries listed below) to the GPU
# machine and run:    scripts/gpu-check.sh
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-./gpu-logs}"
mkdir -p "$OUT"
BIN="${CUDATUTOR_BIN:-target/release/cudatutor}"
log() { echo "== $*" | tee -a "$OUT/summary.txt"; }

log "machine"
{ nvidia-smi || true; python3 -c 'import torch; print(torch.__version__, torch.version.cuda)' || true; } >"$OUT/machine.txt" 2>&1

log "doctor"
timeout 60 "$BIN" doctor >"$OUT/doctor.txt" 2>&1; echo "doctor exit $?" | tee -a "$OUT/summary.txt"

log "real PyTorch on tests/cuda/*.py (fixtures for tests/fixtures/cuda/)"
timeout 240 python3 scripts/record-pytorch-cuda.py "$OUT/fixtures-cuda" >"$OUT/record-cuda.txt" 2>&1
echo "record exit $?" | tee -a "$OUT/summary.txt"

log "PyTorch's CUDA random streams (tests/fixtures/random/cuda.json for the ignored test cuda_streams_match_recorded_pytorch)"
timeout 240 python3 scripts/record-random.py --device cuda --python python3 >"$OUT/record-random-cuda.txt" 2>&1
echo "record-random cuda exit $?" | tee -a "$OUT/summary.txt"
cp tests/fixtures/random/cuda.json "$OUT/random-cuda.json" 2>/dev/null

log "real PyTorch on tests/torch/*.py (CPU fixtures, cross-check of the recorded ones)"
if [ -f scripts/record-pytorch.py ]; then
  timeout 120 python3 scripts/record-pytorch.py "$OUT/fixtures-torch" >"$OUT/record-torch.txt" 2>&1
  echo "record-torch exit $?" | tee -a "$OUT/summary.txt"
fi

log "tests/cuda/*.py on cudatutor, sim and cuda backends (compare with the PyTorch records)"
for f in tests/cuda/*.py; do
  n=$(basename "$f" .py)
  for backend in sim cuda; do
    timeout 30 "$BIN" run --backend "$backend" --format json "$f" >"$OUT/run-$backend-$n.json" 2>"$OUT/run-$backend-$n.err"
    echo "$n $backend exit $?" >>"$OUT/runs.txt"
  done
done
cat "$OUT/runs.txt" >>"$OUT/summary.txt"

log "every lesson solution on --backend cuda and sim"
timeout 120 "$BIN" check --all --solutions --backend cuda >"$OUT/check-cuda.txt" 2>&1; echo "check cuda exit $?" | tee -a "$OUT/summary.txt"
timeout 120 "$BIN" check --all --solutions --backend sim >"$OUT/check-sim.txt" 2>&1; echo "check sim exit $?" | tee -a "$OUT/summary.txt"

log "GPU test binaries (ignored tests run with --ignored)"
for t in target/release/deps/gpu_*-*; do
  [ -x "$t" ] || continue
  timeout 180 "$t" --ignored --test-threads=1 >"$OUT/$(basename "$t").txt" 2>&1
  echo "$(basename "$t") exit $?" | tee -a "$OUT/summary.txt"
done
log "done"
