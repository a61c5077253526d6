#!/usr/bin/env bash
# The whole test suite, runnable alone on a fresh machine: installs what the tests need
# (rustfmt/clippy components, tmux, the NVRTC wheel in a local venv), then runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v tmux >/dev/null 2>&1 || need_apt+=(tmux)
command -v pkill >/dev/null 2>&1 || need_apt+=(procps)
# The emulated GPU device and its sanitizer job compile kernels/*.cu as C++.
command -v g++ >/dev/null 2>&1 || need_apt+=(g++)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "test.sh: installing ${need_apt[*]} with apt-get" >&2
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi
rustup component add rustfmt clippy >/dev/null 2>&1 || true

# NVRTC from PyPI in a repo-local venv: the kernel compile test needs it (no GPU needed).
source scripts/nvrtc-env.sh

cargo fmt --check
cargo build --release --locked
cargo test --release --locked
