#!/usr/bin/env bash
# Record the CPython truth for the conformance suite (tests/python_conformance.rs).
#
# For every tests/python/NAME.py this runs `python3 NAME.py` and writes
#   tests/python/expected/NAME.stdout  -- everything it printed to stdout, byte for byte
#   tests/python/expected/NAME.error   -- the LAST line of stderr when it exited non-zero
#                                         (e.g. "ZeroDivisionError: division by zero"),
#                                         or an empty file when it exited 0
#   tests/python/expected/NAME.status  -- only when the exit status was neither 0 nor 1
#                                         (`sys.exit(3)`): that status
# and tests/python/expected/VERSION with the interpreter's version.
#
# Usage: scripts/record-python.sh [PYTHON]      (default: python3; CPython 3.11 recorded)
# A snippet killed by a signal (status over 128) is reported and makes this fail.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${1:-python3}"
out=tests/python/expected
mkdir -p "$out"
rm -f "$out"/*.stdout "$out"/*.error "$out"/*.status
"$PY" -c 'import sys; print("CPython", sys.version.split()[0])' > "$out/VERSION"
n=0; raised=0; bad=0
for f in tests/python/*.py; do
  name="$(basename "$f" .py)"
  err="$(mktemp)"
  set +e
  # -I ... isolated mode would drop PYTHONHASHSEED; keep the environment minimal instead.
  env -i PATH="$PATH" HOME="${HOME:-/root}" LANG=C.UTF-8 PYTHONHASHSEED=0 PYTHONDONTWRITEBYTECODE=1 \
    PYTHONIOENCODING=utf-8 "$PY" "$f" > "$out/$name.stdout" 2> "$err"
  rc=$?
  set -e
  if [ "$rc" -eq 0 ]; then
    : > "$out/$name.error"
  elif [ "$rc" -le 128 ]; then
    # the last non-empty stderr line is the "ExceptionType: message" line (or what
    # sys.exit("message") printed; empty for sys.exit(3))
    grep -v '^[[:space:]]*$' "$err" | tail -n 1 > "$out/$name.error" || true
    [ "$rc" -eq 1 ] || echo "$rc" > "$out/$name.status"
    raised=$((raised + 1))
  else
    echo "record-python: $name exited $rc (expected 0 or 1)" >&2
    bad=$((bad + 1))
  fi
  rm -f "$err"
  n=$((n + 1))
done
echo "record-python: $n snippets recorded with $(cat "$out/VERSION"), $raised end in an exception"
[ "$bad" -eq 0 ]
