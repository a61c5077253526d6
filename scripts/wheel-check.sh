#!/usr/bin/env bash
# Builds the Python wheel (pyproject.toml: maturin, the binary inside) and proves a learner
# with Python and no Rust can use it: installs it offline into a fresh venv, then, with no
# cargo or rustc on PATH, runs `cudatutor list`, a lesson solution on the sim and emulated
# backends, `cudatutor doctor` and `python -m cudatutor` from that venv. When .venv-torch
# (scripts/test.sh's PyTorch) is there, a second venv that sees its torch checks that the
# installed cudatutor compares against that venv's own PyTorch with no --python flag
# (required when CUDATUTOR_REQUIRE_PYTORCH=1, as in CI).
#
# Runs after scripts/test.sh in CI (.ci/run): maturin builds with the release profile into the
# same target/, so only the final binary is linked again (stripped); the rest is reused.
# maturin comes from PyPI into the repo-local, gitignored .venv-build/ (one time).
#
# usage: scripts/wheel-check.sh   (prints the wheel's path and size; exit 0 when all passed)
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"

fail() { echo "wheel-check: FAILED: $*" >&2; exit 1; }
step() { echo "wheel-check: $*" >&2; }

# --- maturin, in .venv-build/ -------------------------------------------------------------
build_venv="$root/.venv-build"
if ! "$build_venv/bin/maturin" --version >/dev/null 2>&1; then
  step "installing maturin from PyPI into $build_venv (one time)"
  [ -x "$build_venv/bin/python" ] || python3 -m venv "$build_venv"
  "$build_venv/bin/python" -m pip install --quiet --disable-pip-version-check "maturin>=1.9,<2"
fi

# --- the wheel ----------------------------------------------------------------------------
wheels="$root/target/wheels"
rm -f "$wheels"/cudatutor-*.whl
step "building the wheel ($("$build_venv/bin/maturin" --version))"
start=$SECONDS
"$build_venv/bin/maturin" build --release --locked --out "$wheels" >&2
wheel="$(ls "$wheels"/cudatutor-*.whl)"
[ "$(echo "$wheel" | wc -l)" -eq 1 ] || fail "expected one wheel in $wheels, found: $wheel"
size=$(stat -c %s "$wheel")
step "built $(basename "$wheel"): $size bytes in $((SECONDS - start)) s"
[ "$size" -lt $((10 * 1024 * 1024)) ] || fail "the wheel is $size bytes, over 10 MiB"
python3 - "$wheel" <<'EOF' || fail "the wheel's contents"
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
want = ["cudatutor/__main__.py", "cudatutor/__init__.py"]
missing = [n for n in want if n not in names]
if not any(n.endswith(".data/scripts/cudatutor") for n in names):
    missing.append("*.data/scripts/cudatutor (the binary)")
if missing:
    sys.exit("missing from the wheel: " + ", ".join(missing))
EOF

# --- a learner's venv, no Rust on PATH ----------------------------------------------------
work="$(mktemp -d "${TMPDIR:-/tmp}/cudatutor-wheel-check.XXXXXX")"
trap 'rm -rf "$work"' EXIT
venv="$work/venv"
python3 -m venv "$venv"
# Offline: the wheel has no dependencies, so pip needs no index.
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-index --no-deps "$wheel"

# Only the venv and the system's own folders: no ~/.cargo/bin, no rustup.
learner_path="$venv/bin:/usr/local/bin:/usr/bin:/bin"
for tool in cargo rustc rustup; do
  if PATH="$learner_path" command -v "$tool" >/dev/null 2>&1; then
    fail "$tool is on the learner's PATH ($learner_path): the check would not prove the wheel needs no Rust"
  fi
done
# As a learner runs it: the venv's bin on PATH, no variable naming a Python.
learner() {
  env -u CUDATUTOR_PYTHON -u CUDATUTOR_LAUNCHER_PYTHON PATH="$learner_path" \
    CUDATUTOR_DATA_DIR="$work/data" CUDATUTOR_CACHE_DIR="$work/cache" "$@"
}
[ "$(PATH="$learner_path" command -v cudatutor)" = "$venv/bin/cudatutor" ] \
  || fail "cudatutor is not the venv's"

step "cudatutor list"
out="$(learner cudatutor list)" || fail "cudatutor list exited $?"
echo "$out"
[ "$(echo "$out" | grep -c 'exercises')" -eq 6 ] || fail "cudatutor list shows no six lessons"

solution="$work/devices_solution.py"
awk '/^```python solution/{f=1; next} f && /^```/{exit} f' lessons/en/02-devices.md > "$solution"
[ -s "$solution" ] || fail "no solution block in lessons/en/02-devices.md"
for backend in sim emulated; do
  step "cudatutor run --backend $backend (lesson 2's first solution)"
  out="$(learner cudatutor run --backend "$backend" "$solution")" \
    || fail "cudatutor run --backend $backend exited $?: $out"
  echo "$out"
  [ "$out" = $'allocated: 2048\nreserved: 2097152' ] \
    || fail "cudatutor run --backend $backend printed something else"
done

step "cudatutor doctor"
# doctor exits 1 when no GPU backend is usable (this machine has none): its text is the check.
out="$(learner cudatutor doctor)" || true
echo "$out"
for want in "Emulated device" \
  "python $venv/bin/python3 (installed beside cudatutor, in its environment)"; do
  grep -qF "$want" <<<"$out" || fail "doctor does not say: $want"
done

step "python -m cudatutor"
out="$(learner "$venv/bin/python" -m cudatutor list)" || fail "python -m cudatutor list exited $?"
[ "$(echo "$out" | grep -c 'exercises')" -eq 6 ] || fail "python -m cudatutor list: $out"
out="$(learner "$venv/bin/python" -m cudatutor doctor)" || true
grep -qF "python $venv/bin/python (the Python that ran \`python -m cudatutor\`)" <<<"$out" \
  || fail "python -m cudatutor doctor does not name its interpreter: $out"

# --- the learner's own PyTorch --------------------------------------------------------------
torch_site="$(ls -d "$root"/.venv-torch/lib/python3*/site-packages 2>/dev/null | head -1 || true)"
if [ -n "$torch_site" ] && [ -f "$torch_site/torch/__init__.py" ]; then
  step "a venv with torch (from $torch_site): diff and doctor use it with no --python"
  tvenv="$work/torch-venv"
  "$root/.venv-torch/bin/python" -m venv "$tvenv"
  tsite="$("$tvenv/bin/python" -c 'import sysconfig; print(sysconfig.get_path("purelib"))')"
  # torch is 5 GB: this venv sees .venv-torch's packages through a .pth file instead.
  echo "$torch_site" > "$tsite/cudatutor-check-torch.pth"
  "$tvenv/bin/python" -m pip install --quiet --disable-pip-version-check --no-index --no-deps "$wheel"
  tpath="$tvenv/bin:/usr/local/bin:/usr/bin:/bin"
  out="$(env -u CUDATUTOR_PYTHON -u CUDATUTOR_LAUNCHER_PYTHON PATH="$tpath" \
    CUDATUTOR_DATA_DIR="$work/data" CUDATUTOR_CACHE_DIR="$work/cache" cudatutor doctor)" || true
  echo "$out" | sed -n '/^Real PyTorch/,$p'
  grep -qF "python $tvenv/bin/python3 (installed beside cudatutor, in its environment)" <<<"$out" \
    || fail "doctor in the torch venv does not pick its python"
  grep -qE "^  torch [0-9][^ ]* imports" <<<"$out" || fail "doctor in the torch venv: torch does not import"
  cpu_script="$work/cpu.py"
  cat > "$cpu_script" <<'EOF'
import torch
x = torch.arange(12, dtype=torch.float32).reshape(3, 4)
print(x.sum(dim=1), x.mean())
print(x.t() @ x)
EOF
  out="$(env -u CUDATUTOR_PYTHON -u CUDATUTOR_LAUNCHER_PYTHON PATH="$tpath" \
    CUDATUTOR_DATA_DIR="$work/data" CUDATUTOR_CACHE_DIR="$work/cache" \
    cudatutor diff "$cpu_script")" || fail "cudatutor diff against the venv's torch exited $?: $out"
  echo "$out"
elif [ "${CUDATUTOR_REQUIRE_PYTORCH:-}" = 1 ]; then
  fail "no torch in .venv-torch, and CUDATUTOR_REQUIRE_PYTORCH=1 (run scripts/test.sh first)"
else
  step "no .venv-torch here (scripts/test.sh installs it): the torch-venv check is skipped"
fi

step "passed: $(basename "$wheel"), $size bytes"
