#!/usr/bin/env bash
# A classroom on one card: N learners grade every lesson's solutions at the same time, each
# process capped at card/N of GPU memory, as a lab sharing one GPU would run them:
#
#   cudatutor check --all --solutions --backend cuda --gpu-mem-limit <card/N> --json
#
# and the run reports, per learner, the exercises passed, the wall time and the process's
# peak card memory, then the lab's totals. docs/classroom.md ("Sizing a lab") reads its
# figures from this report.
#
# Usage: scripts/gpu-lab.sh [-n LEARNERS] [--backend cuda|emulated|sim] [--card SIZE]
#                           [--bin PATH] [--out DIR] [--time-limit SECONDS]
#   -n             learners started at once (default 30)
#   --backend      cuda (default) on a GPU machine; emulated or sim anywhere (then there is no
#                  card: "peak card memory" is not measured and says so)
#   --card         the card's memory, e.g. 139.8GiB (default: nvidia-smi's memory.total of GPU
#                  0 on cuda, else 143156MiB, the simulated card's: a real H200's)
#   --bin          the cudatutor binary (default target/release/cudatutor)
#   --out          where each learner's JSON lines and stderr go (default a fresh temp folder)
#   --time-limit   seconds a learner's whole check may take before it is stopped (default 900)
# Exit status: 0 when every learner passed every exercise, 1 otherwise, 2 on a usage error.
set -uo pipefail
cd "$(dirname "$0")/.."

N=30
BACKEND=cuda
CARD=""
BIN=target/release/cudatutor
OUTDIR=""
TIME_LIMIT=900
while [ $# -gt 0 ]; do
  case "$1" in
    -n) N=${2:?}; shift 2 ;;
    --backend) BACKEND=${2:?}; shift 2 ;;
    --card) CARD=${2:?}; shift 2 ;;
    --bin) BIN=${2:?}; shift 2 ;;
    --out) OUTDIR=${2:?}; shift 2 ;;
    --time-limit) TIME_LIMIT=${2:?}; shift 2 ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    *) echo "gpu-lab: unknown argument $1" >&2; exit 2 ;;
  esac
done
case "$N" in ''|*[!0-9]*|0) echo "gpu-lab: -n wants a positive number, not '$N'" >&2; exit 2 ;; esac
case "$BACKEND" in cuda|emulated|sim) ;; *) echo "gpu-lab: --backend is cuda, emulated or sim" >&2; exit 2 ;; esac
[ -x "$BIN" ] || { echo "gpu-lab: no binary at $BIN (cargo build --release first)" >&2; exit 2; }
BIN="$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")"
[ -n "$OUTDIR" ] || OUTDIR=$(mktemp -d /tmp/gpu-lab.XXXXXX)
mkdir -p "$OUTDIR"

# Size strings in bytes: 139.8GiB, 512MiB, or a plain number of bytes.
to_bytes() {
  awk -v s="$1" 'BEGIN {
    n = s + 0; u = s; sub(/^[0-9.]+/, "", u)
    m = (u == "GiB") ? 1073741824 : (u == "MiB") ? 1048576 : (u == "KiB") ? 1024 : (u == "" || u == "B") ? 1 : -1
    if (m < 0 || n <= 0) { print "bad"; exit }
    printf "%.0f\n", n * m
  }'
}
SMI=0
if [ "$BACKEND" = cuda ] && command -v nvidia-smi >/dev/null 2>&1; then SMI=1; fi
if [ -z "$CARD" ]; then
  if [ "$SMI" = 1 ]; then
    CARD="$(nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits -i 0 | head -1 | tr -d ' ')MiB"
  else
    CARD=143156MiB
  fi
fi
CARD_BYTES=$(to_bytes "$CARD")
[ "$CARD_BYTES" = bad ] && { echo "gpu-lab: --card '$CARD' is not a size (e.g. 139.8GiB)" >&2; exit 2; }
# card/N in whole MiB (the flag's own unit), at least 1 MiB
LIMIT_MIB=$(( CARD_BYTES / N / 1048576 ))
[ "$LIMIT_MIB" -lt 1 ] && LIMIT_MIB=1
LIMIT="${LIMIT_MIB}MiB"

echo "gpu-lab: $N learners, --backend $BACKEND, card $CARD, --gpu-mem-limit $LIMIT each, logs in $OUTDIR"

# Peak card memory per learner: nvidia-smi's per-process used memory, sampled every 0.5 s, for
# the learner's process and its descendants (the exercises may run in a worker process).
descendants() {
  local pid=$1 c
  echo "$pid"
  for c in $(pgrep -P "$pid" 2>/dev/null); do descendants "$c"; done
}
SAMPLER=""
if [ "$SMI" = 1 ]; then
  : > "$OUTDIR/smi.csv"; : > "$OUTDIR/tree.csv"
  (
    while true; do
      nvidia-smi --query-compute-apps=pid,used_memory --format=csv,noheader,nounits 2>/dev/null \
        | tr -d ' ' >> "$OUTDIR/smi.csv"
      for f in "$OUTDIR"/learner-*.pid; do
        [ -e "$f" ] || continue
        i=${f##*/learner-}; i=${i%.pid}
        p=$(cat "$f")
        kill -0 "$p" 2>/dev/null || continue
        descendants "$p" | sed "s/^/$i,/" >> "$OUTDIR/tree.csv"
      done
      sleep 0.5
    done
  ) &
  SAMPLER=$!
fi

now() { date +%s.%N; }
START=$(now)
PIDS=()
for i in $(seq 1 "$N"); do
  (
    export CUDATUTOR_DATA_DIR="$OUTDIR/data-$i"
    mkdir -p "$CUDATUTOR_DATA_DIR"
    t0=$(now)
    timeout "$TIME_LIMIT" "$BIN" check --all --solutions --backend "$BACKEND" \
      --gpu-mem-limit "$LIMIT" --json >"$OUTDIR/learner-$i.jsonl" 2>"$OUTDIR/learner-$i.err" &
    echo $! > "$OUTDIR/learner-$i.pid"
    wait $!
    echo $? > "$OUTDIR/learner-$i.rc"
    t1=$(now)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f\n", b - a }' > "$OUTDIR/learner-$i.wall"
  ) &
  PIDS+=($!)
done
for p in "${PIDS[@]}"; do wait "$p"; done
END=$(now)
[ -n "$SAMPLER" ] && { kill "$SAMPLER" 2>/dev/null; wait "$SAMPLER" 2>/dev/null; }

# peak MiB of learner i: the largest sum over its process tree within one sample is not
# recoverable from separate rows, so this takes the largest single process of its tree (a
# learner's exercises hold the card from one process at a time)
peak_mib() {
  local i=$1
  [ "$SMI" = 1 ] || { echo "-"; return; }
  awk -F, -v i="$i" '
    FILENAME ~ /tree.csv$/ { if ($1 == i) mine[$2] = 1; next }
    ($1 in mine) && $2 + 0 > peak { peak = $2 + 0 }
    END { print (peak > 0 ? peak : 0) }
  ' "$OUTDIR/tree.csv" "$OUTDIR/smi.csv"
}

TOTAL_PASS=0
TOTAL_EX=0
ALL_OK=1
printf '%-8s %7s %7s %9s %12s %4s\n' learner passed of wall_s peak_card_MiB rc | tee "$OUTDIR/summary.txt"
for i in $(seq 1 "$N"); do
  passed=$(grep -o '"status":"passed"' "$OUTDIR/learner-$i.jsonl" 2>/dev/null | wc -l)
  total=$(grep -c '"exercise":' "$OUTDIR/learner-$i.jsonl" 2>/dev/null)
  rc=$(cat "$OUTDIR/learner-$i.rc" 2>/dev/null || echo "?")
  wall=$(cat "$OUTDIR/learner-$i.wall" 2>/dev/null || echo "?")
  peak=$(peak_mib "$i")
  TOTAL_PASS=$(( TOTAL_PASS + passed ))
  TOTAL_EX=$(( TOTAL_EX + total ))
  if [ "$rc" != 0 ] || [ "$total" -eq 0 ] || [ "$passed" -ne "$total" ]; then ALL_OK=0; fi
  printf '%-8s %7s %7s %9s %12s %4s\n' "$i" "$passed" "$total" "$wall" "$peak" "$rc" | tee -a "$OUTDIR/summary.txt"
done
WALL=$(awk -v a="$START" -v b="$END" 'BEGIN { printf "%.1f", b - a }')
{
  echo "lab: $N learners on --backend $BACKEND, --gpu-mem-limit $LIMIT (card $CARD / $N)"
  echo "passed: $TOTAL_PASS of $TOTAL_EX exercise runs"
  echo "wall time: ${WALL} s for the whole lab"
  if [ "$SMI" = 1 ]; then
    echo "peak card memory: per learner above (nvidia-smi, sampled every 0.5 s)"
  else
    echo "peak card memory: not measured (no card on --backend $BACKEND)"
  fi
} | tee -a "$OUTDIR/summary.txt"
[ "$ALL_OK" = 1 ]
