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
# lesson exercises and tests/cuda on --backend cuda against the sim; the 30-learner lab
# (scripts/gpu-lab.sh).
#
# The figures issue 28's closing note asks for are collected in a summary for
# tests/fixtures/gpu-runs/ (date, GPU, driver, binary commit; $DEST/gpu-runs/*.txt): self-test,
# solutions on cuda and their agreement with the sim, the bandwidth ratio, the warm worker's
# first and warm run, the card footprint against PyTorch's for the same script, the lab's
# wall time and pass count. Commit that file with the docs that quote it.
#
# Dry run without a GPU: GPU_CHECK_BACKEND=emulated runs every step of ours on the emulated
# device (the steps that need nvidia-smi or torch with CUDA log their failure and go on).
set -uo pipefail
cd "$(dirname "$0")/.."
# The logs are many small files; the device tool brings back a limited number of files, so
# they are written to a folder of their own and packed into $OUT/gpu-check.tar.gz at the end
# (also when the run is cut short).
DEST="${OUT:-./gpu-logs}"
OUT=$(mktemp -d /tmp/gpu-check.XXXXXX)
mkdir -p "$DEST"
trap 'run_summary; tar czf "$DEST/gpu-check.tar.gz" -C "$OUT" . ; cp "$OUT/summary.txt" "$DEST/" 2>/dev/null' EXIT
BUDGET="${GPU_CHECK_BUDGET:-540}"
BACKEND="${GPU_CHECK_BACKEND:-cuda}"
case "$BACKEND" in cuda|emulated) ;; *) echo "gpu-check: GPU_CHECK_BACKEND is cuda or emulated" >&2; exit 2 ;; esac
LAB_N="${GPU_LAB_N:-30}"
CARRY=target/gpu-carry
BIN="${CUDATUTOR_BIN:-$CARRY/cudatutor}"
[ -x "$BIN" ] || BIN=target/release/cudatutor
BIN="$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")"
GPU_TESTS="${CUDATUTOR_GPU_TESTS:-$CARRY/cuda-tests}"
# The summary to commit under tests/fixtures/gpu-runs/ (docs quote it): what ran where, then
# every figure line of summary.txt; written at the end, also when the run is cut short.
run_summary() {
  local gpu_name driver commit slug run_file
  gpu_name=$(nvidia-smi --query-gpu=name --format=csv,noheader -i 0 2>/dev/null | head -1)
  driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader -i 0 2>/dev/null | head -1)
  commit=$(cat "$CARRY/COMMIT" 2>/dev/null || git rev-parse HEAD 2>/dev/null || echo unknown)
  slug=$(echo "${gpu_name:-no-gpu-$BACKEND}" | tr -c 'A-Za-z0-9\n' '-' | tr -s '-' | sed 's/-$//')
  mkdir -p "$DEST/gpu-runs"
  run_file="$DEST/gpu-runs/$(date -u +%Y-%m-%d)-$slug.txt"
  {
    echo "# scripts/gpu-check.sh, $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "gpu: ${gpu_name:-none (backend $BACKEND)}"
    echo "driver: ${driver:-none}"
    echo "torch: $(python3 -c 'import torch; print(torch.__version__, torch.version.cuda)' 2>/dev/null || echo none)"
    echo "binary commit: $commit"
    echo "backend: $BACKEND; budget ${BUDGET} s"
    echo
    cat "$OUT/summary.txt"
  } >"$run_file"
  echo "summary for tests/fixtures/gpu-runs: $run_file"
}
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
python3 - "$OUT/selftest.txt" <<'PY' | tee -a "$OUT/summary.txt"
import json, sys
try:
    r = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])
    checks = r.get("checks", [])
    ok = sum(1 for c in checks if c.get("passed"))
    print(f"self-test: {ok} of {len(checks)} checks passed")
except Exception as e:
    print(f"self-test: no report ({type(e).__name__})")
PY
step doctor 60 "$BIN" doctor

log "the warm worker: first and warm exercise runs, one worker (goals: first < 400 ms, warm < 50 ms)"
if [ -x "$GPU_TESTS" ]; then
  CUDATUTOR_WARM_BACKEND="$BACKEND" step warm-worker 60 "$GPU_TESTS" --ignored --exact gpu_warm_worker_first_and_warm_runs --nocapture
  grep -E "^warm worker" "$OUT/warm-worker.txt" >>"$OUT/summary.txt"
fi

log "card footprint: the process's own memory on the card (nvidia-smi per process, sampled every 0.2 s), ours vs PyTorch's, same script"
# footprint NAME CMD...: the peak, over the samples, of the memory nvidia-smi lists for
# processes that were not on the card when CMD started (CMD's worker included)
footprint() {
  local name=$1 before peak=0 now pid rc; shift
  before=$(nvidia-smi --query-compute-apps=pid --format=csv,noheader 2>/dev/null | tr -d ' ' | paste -sd, -)
  "$@" >"$OUT/footprint-$name.txt" 2>&1 &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    now=$(nvidia-smi --query-compute-apps=pid,used_memory --format=csv,noheader,nounits 2>/dev/null | tr -d ' ' \
      | awk -F, -v before="$before" 'BEGIN { n = split(before, b, ","); for (i = 1; i <= n; i++) old[b[i]] = 1 }
          !($1 in old) { s += $2 } END { print s + 0 }')
    [ "${now:-0}" -gt "$peak" ] && peak=$now
    sleep 0.2
  done
  wait "$pid"; rc=$?
  echo "footprint $name: peak $peak MiB on the card (exit $rc): $(head -1 "$OUT/footprint-$name.txt")" | tee -a "$OUT/summary.txt"
}
footprint cudatutor timeout 60 "$BIN" run --backend "$BACKEND" --time-limit 40 scripts/gpu-footprint.py
footprint pytorch timeout 90 python3 scripts/gpu-footprint.py
timeout 60 "$BIN" run --backend "$BACKEND" --time-limit 40 --format json scripts/gpu-footprint.py >"$OUT/footprint-report.json" 2>&1
python3 - "$OUT/footprint-report.json" <<'PY' | tee -a "$OUT/summary.txt"
import json, sys
try:
    u = json.loads(open(sys.argv[1]).read()).get("device_usage") or {}
    print(f"footprint cudatutor scratch (outside the allocator): peak {u.get('scratch_peak_bytes', 0) / 2**20:.1f} MiB, pooled at the end {u.get('scratch_pooled_bytes', 0) / 2**20:.1f} MiB")
except Exception as e:
    print(f"footprint cudatutor scratch: no report ({type(e).__name__})")
PY

log "one-run processes: cudatutor run, sim and $BACKEND"
for backend in sim "$BACKEND"; do
  timeout 30 "$BIN" run --backend "$backend" tests/cuda/alloc_small.py >/dev/null 2>&1
  for i in 1 2 3; do
    t0=$(date +%s%N); timeout 30 "$BIN" run --backend "$backend" tests/cuda/alloc_small.py >/dev/null 2>&1; rc=$?; t1=$(date +%s%N)
    echo "one-run process $backend: $(( (t1 - t0) / 1000000 )) ms (exit $rc)" | tee -a "$OUT/summary.txt"
  done
done

log "start-up: a run that touches no GPU, one that does, doctor, and python3 with torch"
echo 'print(1)' >/tmp/gpu-check-print.py
for what in "run --backend $BACKEND /tmp/gpu-check-print.py" "run --backend $BACKEND tests/cuda/alloc_small.py" "run --backend sim tests/cuda/alloc_small.py" "doctor"; do
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
  for f in tests/cuda/*.py; do echo "sim $f"; echo "$BACKEND $f"; done \
    | timeout $(( $(left) - 20 )) xargs -P 4 -n 2 bash -c 'run_one "$0" "$1"' >"$OUT/runs.txt" 2>&1
  cut -d' ' -f2- "$OUT/runs.txt" | sort | uniq -c >>"$OUT/summary.txt"
fi

log "every lesson solution through check, $BACKEND and sim"
step check-cuda 90 "$BIN" check --all --solutions --backend "$BACKEND" --json
step check-sim 60 "$BIN" check --all --solutions --backend sim --json
python3 - "$OUT/check-cuda.txt" "$OUT/check-sim.txt" "$BACKEND" <<'PY' | tee -a "$OUT/summary.txt"
import json, sys
def read(path):
    out = {}
    for line in open(path, errors="replace"):
        try:
            r = json.loads(line)
        except ValueError:
            continue
        if isinstance(r, dict) and "exercise" in r:
            out[r["exercise"]] = (r.get("status"), r.get("checks_passed"), r.get("backend"))
    return out
gpu, sim = read(sys.argv[1]), read(sys.argv[2])
passed = sum(1 for v in gpu.values() if v[0] == "passed")
same = sum(1 for k in gpu if k in sim and gpu[k][:2] == sim[k][:2])
# (exercises that model more GPUs than the card ran on the sim inside the same check; their
# reports say so in backend_note)
print(f"solutions: {passed} of {len(gpu)} passed on {sys.argv[3]}, {same} of {len(gpu)} graded as on the sim "
      f"(status and checks passed); sim: {sum(1 for v in sim.values() if v[0] == 'passed')} of {len(sim)} passed")
bad = [k for k in gpu if gpu[k][0] != "passed" or k not in sim or gpu[k][:2] != sim[k][:2]]
if bad:
    print("solutions not passed or graded otherwise than on the sim: " + ", ".join(bad))
PY

log "the classroom: $LAB_N learners at once on one card (scripts/gpu-lab.sh)"
step gpu-lab 200 scripts/gpu-lab.sh -n "$LAB_N" --backend "$BACKEND" --bin "$BIN" --out "$OUT/lab" --time-limit 180
grep -E "^(lab|passed|wall time|peak card memory):" "$OUT/gpu-lab.txt" | sed 's/^/lab summary: /' >>"$OUT/summary.txt"

wait "$REC" "$RND"
log "lesson solutions on --backend pytorch (the runner beside real PyTorch) if time is left"
step check-pytorch 90 "$BIN" check --all --solutions --backend pytorch --json
log "done in $(( $(date +%s) - START )) s"

