#!/usr/bin/env bash
# The whole test suite, runnable alone on a fresh machine: installs what the tests need
# (rustfmt/clippy components, tmux, the NVRTC wheel and CPU torch in local venvs), then runs every test.
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

# Real PyTorch for tests/pytorch_backend.rs (--backend pytorch, cudatutor diff): CPU use of the
# PyPI wheel of torch 2.15.0 in a repo-local, gitignored venv (~5 GB installed; one time).
# Present and at that version: no network, no pip, well under a second.
torch_venv="$PWD/.venv-torch"
torch_version_file() { ls "$torch_venv"/lib/python3*/site-packages/torch/version.py 2>/dev/null | head -1; }
tv="$(torch_version_file || true)"
if [ -z "$tv" ] || ! grep -q "^__version__ = '2\.15\.0" "$tv" \
   || ! ls "$torch_venv"/lib/python3*/site-packages/numpy/__init__.py >/dev/null 2>&1; then
  echo "test.sh: installing torch 2.15.0 and numpy from PyPI into $torch_venv (one time, ~5 GB)" >&2
  [ -x "$torch_venv/bin/python" ] || python3 -m venv "$torch_venv"
  # No pip cache: the wheels (~3 GB) would be stored twice, and a CI disk that holds the
  # installed packages may not hold their cached copies too.
  avail_kb="$(df -Pk "$PWD" | awk 'NR==2 {print $4}')"
  if [ -n "$avail_kb" ] && [ "$avail_kb" -lt 7000000 ]; then
    echo "test.sh: only $((avail_kb / 1024)) MiB free on $(df -P "$PWD" | awk 'NR==2 {print $6}'); installing torch needs ~6 GiB" >&2
  fi
  "$torch_venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-cache-dir "torch==2.15.0" numpy
fi
export CUDATUTOR_TEST_PYTHON="$torch_venv/bin/python"
export CUDATUTOR_REQUIRE_PYTORCH=1

cargo fmt --check
# Lints as errors, over every target and with the test hooks compiled in (Cargo.toml's [lints]
# add the unsafe rules: unsafe_op_in_unsafe_fn, undocumented_unsafe_blocks).
cargo clippy --locked --all-targets --features fault-injection -- -D warnings
# No import cycle, no arrow running back up, and docs/design.md's module graph up to date.
python3 scripts/module-graph.py --check >/dev/null
# The tests run the binary with its test hooks (the `fault-injection` feature: a panic key, a
# panic inside runs, a save loop to kill); a user's `cargo build --release` has none. Checking
# that the build without them compiles costs far less than a second release build.
cargo check --locked --lib --bins
cargo test --release --locked --features fault-injection --no-fail-fast
