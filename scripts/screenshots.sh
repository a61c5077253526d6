#!/usr/bin/env bash
# Regenerates the README's screenshots from the real binary: runs cudatutor in a detached tmux
# session (100x30, 256 colours), drives it with keys, captures the pane with its colours and
# renders each capture to SVG (scripts/ansi2svg.py). Writes docs/screenshots/*.svg.
#   scripts/screenshots.sh            (builds the release binary first)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v tmux >/dev/null || { echo "screenshots need tmux (apt-get install tmux)" >&2; exit 1; }
cargo build --release --quiet
BIN="$PWD/target/release/cudatutor"
OUT=docs/screenshots
mkdir -p "$OUT"
DATA=$(mktemp -d)
SESSION="cudatutor-shots-$$"
trap 'tmux kill-session -t "$SESSION" 2>/dev/null || true; rm -rf "$DATA"' EXIT

# Waits until the pane shows $1 (at most 10 s).
wait_for() {
    for _ in $(seq 100); do
        tmux capture-pane -p -t "$SESSION" | grep -qF -- "$1" && return 0
        sleep 0.1
    done
    echo "screenshots: '$1' never appeared; the screen was:" >&2
    tmux capture-pane -p -t "$SESSION" >&2
    exit 1
}

shot() {  # name, title
    sleep 0.3
    tmux capture-pane -e -p -t "$SESSION" > "$DATA/$1.ansi"
    python3 scripts/ansi2svg.py "$DATA/$1.ansi" "$OUT/$1.svg" --cols 100 --rows 30 --title "$2"
    echo "wrote $OUT/$1.svg"
}

tmux -f /dev/null new-session -d -s "$SESSION" -x 100 -y 30 \
    env -u NO_COLOR TERM=xterm-256color CUDATUTOR_DATA_DIR="$DATA" "$BIN" --lang en --backend sim lesson 3
wait_for "3/5"
for _ in $(seq 12); do tmux send-keys -t "$SESSION" j; done
shot pager "cudatutor lesson 3 — the pager"

tmux send-keys -t "$SESSION" Tab
wait_for "Exercise l3-one-based"
tmux send-keys -t "$SESSION" r
wait_for "device-side assert triggered"
shot exercise "cudatutor lesson 3 — an exercise after a run"

tmux send-keys -t "$SESSION" t
sleep 0.3
shot timeline "cudatutor lesson 3 — where the error happened vs where it was reported"

tmux send-keys -t "$SESSION" m
sleep 0.3
shot memory "cudatutor lesson 3 — the allocator's counters over the script's lines"

# The same exercise with CUDA_LAUNCH_BLOCKING=1: the launch itself reports, no gap.
tmux send-keys -t "$SESSION" b
wait_for "CUDA_LAUNCH_BLOCKING=1"
tmux send-keys -t "$SESSION" r
wait_for "line 6, in <module>"
tmux send-keys -t "$SESSION" t
sleep 0.3
shot timeline-blocking "cudatutor lesson 3 — the timeline under CUDA_LAUNCH_BLOCKING=1"
