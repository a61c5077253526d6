#!/usr/bin/env bash
# What a differential corpus says about the engine today: matches per group (the file-name
# prefix: basics, blitz, so, f32, ...) and the 30 commonest failure causes (an exception the
# engine raised, one PyTorch raises that it did not, the first differing stdout token), so the
# engine's maintainers can pick what to fix first. It runs the suite's cargo test (release)
# with CORPUS_REPORT set (tests/common/corpus_report.rs writes the report); the test's own
# verdict (KNOWN_GAPS stale or not) is printed on the last line.
#
# Usage: scripts/corpus-report.sh [learner|exact|torch] [GAPS_FILE]
#   learner  tests/learner (default)      exact  tests/torch_exact      torch  tests/torch
#   GAPS_FILE  also write every failing script with its specific reason, in the KNOWN_GAPS
#              format, for review before it replaces the suite's KNOWN_GAPS
# FIXTURE_FILTER=substring limits the run as in the tests.
set -uo pipefail
cd "$(dirname "$0")/.."
case "${1:-learner}" in
  learner) test=learner_corpus ;;
  exact | torch_exact) test=torch_exact ;;
  torch) test=torch_fixtures ;;
  *) sed -n '2,14p' "$0" >&2; exit 2 ;;
esac
report="$(mktemp)"
trap 'rm -f "$report"' EXIT
export CORPUS_REPORT="$report"
if [ -n "${2:-}" ]; then
  export CORPUS_GAPS_OUT="$(realpath -m "$2")"
fi
cargo test --release --test "$test" -q >/dev/null 2>&1
status=$?
if [ ! -s "$report" ]; then
  echo "corpus-report: the $test test wrote no report (did it build? try: cargo test --release --test $test)" >&2
  exit 1
fi
cat "$report"
echo
if [ "$status" -eq 0 ]; then
  echo "cargo test --test $test: passes (every failure above is listed in KNOWN_GAPS)"
else
  echo "cargo test --test $test: FAILS (a failure not in KNOWN_GAPS, or a listed script that now matches)"
fi
