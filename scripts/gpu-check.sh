#!/usr/bin/env bash
# One prepared run for a lent GPU machine (no Rust toolchain there, no network; python3 with
# torch+CUDA): everything a GPU can tell us, logged under $OUT (or ./gpu-logs), inside one time
# budget (GPU_CHECK_BUDGET seconds, default 400): every step's limit is cut to what is left, and
# a step that no longer fits is logged as skipped, so the run always ends on time with its logs.
#
# Build here first (see docs/cuda-backend.md, "The GPU check"):
#   scripts/gpu-carry.sh      # release binary + the GPU test binary, stripped, in target/gpu-carry
# then carry target/gpu-carry with the working tree and run this script there.
#
# Phase 1 (the GPU to itself, for the timings): machine and driver; our kernels launched from
# Python (PTX vs CUBIN, the assert, add_f32 at 256 MiB vs a device-to-device copy); the
# self-test, doctor, and the warm exercise run.
# Phase 2 (side by side): real PyTorch on tests/cuda/*.py with and without
# CUDA_LAUNCH_BLOCKING and its CUDA random streams (the fixtures to commit); the GPU tests; the
# lesson exercises and tests/cuda on --backend cuda against the sim.
set -uo pipefail
cd "$(dirname "$0")/.."
# The logs are many small files; the device tool brings back a limited number of files, so
# they are written to a folder of their own and packed into $OUT/gpu-check.tar.gz at the end
# (also when the run is cut short).
DEST="${OUT:-./gpu-logs}"
OUT=$(mktemp -d /tmp/gpu-check.XXXXXX)
mkdir -p "$DEST"
trap 'tar czf "$DEST/gpu-check.tar.gz" -C "$OUT" . ; cp "$OUT/summary.txt" "$DEST/" 2>/dev/null' EXIT
BUDGET="${GPU_CHECK_BUDGET:-400}"
CARRY=target/gpu-carry
BIN="${CUDATUTOR_BIN:-$CARRY/cudatutor}"
[ -x "$BIN" ] || BIN=target/release/cudatutor
BIN="$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")"
GPU_TESTS="${CUDATUTOR_GPU_TESTS:-$CARRY/cuda-tests}"
START=$(date +%s)
left() { echo $(( BUDGET - ($(date +%s) - START) )); }
log() { echo "== [$(( $(date +%s) - START ))s] $*" | tee -a "$OUT/summary.txt"; }
# step NAME SECONDS CMD...: run with min(SECONDS, budget left) as its limit; log the exit status
step() {
  local name=$1 limit=$2 l; shift 2
  l=$(( $(left) - 5 ))
  [ "$l" -lt "$limit" ] && limit=$l
  if [ "$limit" -lt 5 ]; then echo "$name skipped (budget spent)" | tee -a "$OUT/summary.txt"; return; fi
  local t0=$(date +%s)
  timeout -k 3 "$limit" "$@" >"$OUT/$name.txt" 2>&1
  echo "$name exit $? ($(( $(date +%s) - t0 )) s)" | tee -a "$OUT/summary.txt"
}

# Our NVRTC is the one torch ships (nvidia/cu13/lib): name it, and keep every cache on this run.
NVRTC_LIB=$(python3 -c '
import glob, os, torch
base = os.path.join(os.path.dirname(os.path.dirname(torch.__file__)), "nvidia")
libs = [l for l in sorted(glob.glob(base + "/*/lib/libnvrtc.so*"), reverse=True) if "builtins" not in l]
print(libs[0] if libs else "")' 2>/dev/null)
[ -n "$NVRTC_LIB" ] && export CUDATUTOR_NVRTC_LIB="$NVRTC_LIB"
export CUDATUTOR_CACHE_DIR=/tmp/cudatutor-gpu-check-cache XDG_CACHE_HOME=/tmp/cudatutor-gpu-check-xdg
export CUDATUTOR_BIN="$BIN" CUDATUTOR_GPU_OUT="$OUT"

log "phase 1: machine, driver, torch; NVRTC ${NVRTC_LIB:-not found in the torch wheel}"
{ nvidia-smi; python3 -c 'import torch; print(torch.__version__, torch.version.cuda, torch.cuda.get_device_name(0), torch.cuda.get_device_capability(0))'; ldd --version | head -1; "$BIN" --version; } >"$OUT/machine.txt" 2>&1
tail -4 "$OUT/machine.txt" >>"$OUT/summary.txt"

log "our kernels from Python: PTX vs CUBIN load, the assert (710 and the driver's line), add_f32 256 MiB vs d2d copy"
step gpu-kernels 90 python3 scripts/gpu-kernels.py "$OUT/gpu-kernels.json"
grep -E "ratio|assert child|load (CUDA_ERROR|CUDA_SUCCESS)" "$OUT/gpu-kernels.txt" | head -30 >>"$OUT/summary.txt"

log "the GPU self-test (its own process) and doctor"
step selftest 90 "$BIN" __selftest
step doctor 60 "$BIN" doctor

log "warm exercise run (goal: under 300 ms)"
for backend in sim cuda; do
  timeout 30 "$BIN" run --backend "$backend" tests/cuda/alloc_small.py >/dev/null 2>&1
  for i in 1 2 3; do
    t0=$(date +%s%N); timeout 30 "$BIN" run --backend "$backend" tests/cuda/alloc_small.py >/dev/null 2>&1; rc=$?; t1=$(date +%s%N)
    echo "warm run $backend: $(( (t1 - t0) / 1000000 )) ms (exit $rc)" | tee -a "$OUT/summary.txt"
  done
done

log "start-up: a run that touches no GPU, one that does, doctor, and python3 with torch"
echo 'print(1)' >/tmp/gpu-check-print.py
for what in "run --backend cuda /tmp/gpu-check-print.py" "run --backend cuda tests/cuda/alloc_small.py" "run --backend sim tests/cuda/alloc_small.py" "doctor"; do
  t0=$(date +%s%N); timeout 30 "$BIN" $what >/dev/null 2>&1; rc=$?; t1=$(date +%s%N)
  echo "start-up: cudatutor $what: $(( (t1 - t0) / 1000000 )) ms (exit $rc)" | tee -a "$OUT/summary.txt"
done
t0=$(date +%s%N); timeout 60 python3 -c "import torch; torch.zeros(1, device='cuda'); print(torch.cuda.memory_allocated())" >/dev/null 2>&1; t1=$(date +%s%N)
echo "start-up: python3 import torch + first CUDA tensor: $(( (t1 - t0) / 1000000 )) ms" | tee -a "$OUT/summary.txt"

log "how soon a device-side assert reaches the host (the stream model's trap and dispatch times)"
step trap-timing 100 python3 scripts/gpu-trap-timing.py "$OUT/trap-timing.json"
grep -E "^spin|^dispatch" "$OUT/trap-timing.txt" >>"$OUT/summary.txt"

log "phase 2: real PyTorch on tests/cuda (fixtures), its CUDA random streams, in the background"
( step record-cuda 200 python3 scripts/record-pytorch-cuda.py "$OUT/fixtures-cuda" ) &
REC=$!
( step record-random-cuda 150 python3 scripts/record-random.py --device cuda --python python3
  cp tests/fixtures/random/cuda.json "$OUT/random-cuda.json" 2>/dev/null ) &
RND=$!

log "the GPU tests (tests/cuda/main.rs, ignored in CI): kernels vs emulated, lessons on cuda vs sim"
if [ -x "$GPU_TESTS" ]; then
  step gpu-tests 240 "$GPU_TESTS" --ignored --test-threads=1 --nocapture
  grep -E "^test |test result|cuda vs sim|kernel launches" "$OUT/gpu-tests.txt" >>"$OUT/summary.txt"
fi

log "tests/cuda/*.py on cudatutor, sim and cuda backends (compare with the PyTorch records)"
run_one() { # run_one BACKEND FILE
  local n; n=$(basename "$2" .py)
  timeout 40 "$BIN" run --backend "$1" --format json "$2" >"$OUT/run-$1-$n.json" 2>"$OUT/run-$1-$n.err"
  echo "$n $1 exit $?"
}
export -f run_one
export OUT BIN
if [ "$(left)" -gt 30 ]; then
  for f in tests/cuda/*.py; do echo "sim $f"; echo "cuda $f"; done \
    | timeout $(( $(left) - 20 )) xargs -P 4 -n 2 bash -c 'run_one "$0" "$1"' >"$OUT/runs.txt" 2>&1
  cut -d' ' -f2- "$OUT/runs.txt" | sort | uniq -c >>"$OUT/summary.txt"
fi

log "every lesson solution through check, cuda and sim"
step check-cuda 90 "$BIN" check --all --solutions --backend cuda --json
step check-sim 60 "$BIN" check --all --solutions --backend sim --json

wait "$REC" "$RND"
log "lesson solutions on --backend pytorch (the runner beside real PyTorch) if time is left"
step check-pytorch 90 "$BIN" check --all --solutions --backend pytorch --json
log "done in $(( $(date +%s) - START )) s"
