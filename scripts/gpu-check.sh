#!/usr/bin/env bash
# One prepared run for a lent GPU machine (no Rust toolchain there, no network; python3 with
# torch+CUDA): everything a GPU can tell us, logged under $OUT (or ./gpu-logs). At most 8 min.
#
# Build here first (see docs/cuda-backend.md, "The GPU check"):
#   cargo build --release
#   cargo test --release --no-run --test cuda --test emulated_selftest --test emulated_launch
# then carry the working tree with target/release/cudatutor and those test binaries
# (target/release/deps/{cuda,emulated_selftest,emulated_launch}-<hash>).
#
# Part A needs no launcher of ours: the driver, PTX vs CUBIN through torch's NVRTC, our kernels
# launched from Python (assert, benchmark), and real PyTorch recordings of tests/cuda.
# Part B runs the carried binaries: doctor, the test binaries, lesson solutions and tests/cuda
# on --backend cuda (refused until the engine runs on devices; the refusal is logged) and sim.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-./gpu-logs}"
mkdir -p "$OUT"
BIN="${CUDATUTOR_BIN:-target/release/cudatutor}"
START=$(date +%s)
log() { echo "== [$(( $(date +%s) - START ))s] $*" | tee -a "$OUT/summary.txt"; }
step() { # step NAME SECONDS CMD...: run with a time limit, log its exit status
  local name=$1 limit=$2; shift 2
  timeout "$limit" "$@" >"$OUT/$name.txt" 2>&1
  echo "$name exit $?" | tee -a "$OUT/summary.txt"
}

log "A1 machine, driver, torch"
{ nvidia-smi || true; python3 -c 'import torch; print(torch.__version__, torch.version.cuda, torch.cuda.get_device_name(0), torch.cuda.get_device_capability(0))' || true; } >"$OUT/machine.txt" 2>&1
cat "$OUT/machine.txt" | tail -3 >>"$OUT/summary.txt"

log "A2 our kernels on the GPU from Python: PTX vs CUBIN load, the assert (710 and the driver's line), add_f32 256 MiB vs d2d copy"
step gpu-kernels 150 python3 scripts/gpu-kernels.py "$OUT/gpu-kernels.json"
grep -E "ratio|assert child|load (CUDA_ERROR|CUDA_SUCCESS)" "$OUT/gpu-kernels.txt" | head -30 >>"$OUT/summary.txt"

log "A3 real PyTorch on tests/cuda/*.py, with and without CUDA_LAUNCH_BLOCKING, and seeded CUDA random numbers"
step record-cuda 150 python3 scripts/record-pytorch-cuda.py "$OUT/fixtures-cuda"

log "PyTorch's CUDA random streams (tests/fixtures/random/cuda.json for the ignored test cuda_streams_match_recorded_pytorch)"
timeout 150 python3 scripts/record-random.py --device cuda --python python3 >"$OUT/record-random-cuda.txt" 2>&1
echo "record-random cuda exit $?" | tee -a "$OUT/summary.txt"
cp tests/fixtures/random/cuda.json "$OUT/random-cuda.json" 2>/dev/null

log "real PyTorch on tests/torch/*.py (CPU fixtures, cross-check of the recorded ones)"
if [ -f scripts/record-pytorch.py ]; then
  timeout 90 python3 scripts/record-pytorch.py "$OUT/fixtures-torch" >"$OUT/record-torch.txt" 2>&1
  echo "record-torch exit $?" | tee -a "$OUT/summary.txt"
fi

log "B1 the GPU self-test (its own process) and doctor (driver probe, NVRTC vs driver, self-tests)"
step selftest 120 "$BIN" __selftest
step doctor 60 "$BIN" doctor

log "B2 carried test binaries"
for t in target/release/deps/emulated_launch-* target/release/deps/emulated_selftest-*; do
  [ -x "$t" ] && [ "${t%.d}" = "$t" ] || continue
  step "test-$(basename "$t")" 60 "$t" --test-threads=2
done
# The GPU tests (tests/cuda/main.rs): ignored in CI, run here.
for t in target/release/deps/cuda-*; do
  [ -x "$t" ] && [ "${t%.d}" = "$t" ] || continue
  CUDATUTOR_BIN="$BIN" step "gpu-tests-$(basename "$t")" 180 "$t" --ignored --test-threads=1
done

log "B3 tests/cuda/*.py on cudatutor: sim, emulated and cuda backends (compare with A3's records)"
: >"$OUT/runs.txt"
for f in tests/cuda/*.py; do
  n=$(basename "$f" .py)
  for backend in sim emulated cuda; do
    timeout 30 "$BIN" run --backend "$backend" --format json "$f" >"$OUT/run-$backend-$n.json" 2>"$OUT/run-$backend-$n.err"
    echo "$n $backend exit $?" >>"$OUT/runs.txt"
  done
done
cut -d' ' -f2- "$OUT/runs.txt" | sort | uniq -c >>"$OUT/summary.txt"

log "B4 every lesson solution on --backend cuda, emulated and sim"
for backend in cuda emulated sim; do
  step "check-$backend" 90 "$BIN" check --all --solutions --backend "$backend"
done

log "B6 real PyTorch beside the engine: lesson solutions on --backend pytorch, tests/cuda diffs"
# The machine's python3 has torch with CUDA: the runner's device-log matching (origin_line),
# the memory counters and CUDA kernels' kinds are checked here only.
step check-pytorch 150 "$BIN" check --all --solutions --backend pytorch --json
for f in tests/cuda/*.py; do
  n=$(basename "$f" .py)
  timeout 60 "$BIN" run --backend pytorch --format json "$f" >"$OUT/run-pytorch-$n.json" 2>"$OUT/run-pytorch-$n.err"
  echo "$n pytorch exit $?" >>"$OUT/runs.txt"
  timeout 90 "$BIN" diff "$f" >"$OUT/diff-$n.txt" 2>&1
  echo "$n diff exit $?" >>"$OUT/runs.txt"
done

log "B5 warm exercise run (goal: under 300 ms)"
for backend in sim cuda; do
  "$BIN" run --backend "$backend" tests/cuda/alloc_small.py >/dev/null 2>&1
  t0=$(date +%s%N); "$BIN" run --backend "$backend" tests/cuda/alloc_small.py >/dev/null 2>&1; rc=$?; t1=$(date +%s%N)
  echo "warm run $backend: $(( (t1 - t0) / 1000000 )) ms (exit $rc)" | tee -a "$OUT/summary.txt"
done
log "done in $(( $(date +%s) - START )) s"
