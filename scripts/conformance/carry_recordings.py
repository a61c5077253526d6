#!/usr/bin/env python3
"""Carries the committed recordings over to regenerated scripts whose samples print the same
lines as before, so that the suite keeps being compared with the machine the recordings were
made on.

  scripts/conformance/carry_recordings.py OLD_DIR HERE_DIR NAME...

PyTorch's float results depend on the CPU it runs on (MKL / oneDNN kernels for matmul, linalg,
some float64 transcendental functions): re-recorded on another machine, an unchanged script can
print other last bits (tests/conformance/module_AdaptiveLogSoftmaxWithLoss.py did). When the
generator only rearranges the scripts (inputs bound once, ops sharing a script), the proof that
nothing changed is scripts/conformance/same_recordings.py on recordings made on ONE machine:
the old scripts and the new ones recorded here give byte-identical lines for every sample. This
script then writes each NAME's recording (tests/conformance/expected/NAME.stdout, .status,
.error) from its recording here (HERE_DIR/NAME.*) with every sample line replaced by the line the
committed recording of OLD_DIR holds for the same (script, tag), in order; it stops when a
sample's line count differs, or a line differs in anything but its numbers.
"""
import pathlib
import re
import shutil
import sys

from same_recordings import TAGGED, manifest, printed_tag

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
SUITE = ROOT / "tests" / "conformance"
NUMBER = re.compile(r"-?(?:\d+\.?\d*(?:e[+-]?\d+)?|nan|inf)")


def old_blocks(old_dir, rows):
    """(script, tag) -> the lines the old recording holds for it."""
    blocks = {}
    for script, tag, file in rows:
        path = old_dir / "expected" / (file + ".stdout")
        want = printed_tag(script, tag, file)
        blocks[(script, tag)] = [m.group(2) for m in map(TAGGED.match, path.read_text().split("\n"))
                                 if m and m.group(1) == want]
    return blocks


def main():
    old_dir, here_dir, names = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), sys.argv[3:]
    new_rows = manifest(SUITE)
    old = old_blocks(old_dir, manifest(old_dir))
    by_printed = {}
    for script, tag, file in new_rows:
        by_printed[(file, printed_tag(script, tag, file))] = (script, tag)
    carried = 0
    for name in names:
        taken = {}
        out = []
        text = (here_dir / (name + ".stdout")).read_text()
        lines = text.split("\n")
        if lines[-1] == "":
            lines.pop()
        for line in lines:
            m = TAGGED.match(line)
            if not m:
                out.append(line)
                continue
            key = by_printed[(name, m.group(1))]
            i = taken.get(key, 0)
            taken[key] = i + 1
            was = old[key][i]
            if NUMBER.sub("0", was) != NUMBER.sub("0", m.group(2)):
                raise SystemExit("%s %s: line %d differs beyond its numbers" % (name, key, i + 1))
            carried += was != m.group(2)
            out.append("[%s] %s" % (m.group(1), was))
        for key, n in taken.items():
            if n != len(old[key]):
                raise SystemExit("%s %s: %d lines here, %d recorded" % (name, key, n, len(old[key])))
        (SUITE / "expected" / (name + ".stdout")).write_text(
            "\n".join(out) + ("\n" if text.endswith("\n") else ""))
        for suffix in (".status", ".error"):
            shutil.copy(here_dir / (name + suffix), SUITE / "expected" / (name + suffix))
    print("%d recordings written; %d lines carried over from the committed recordings "
          "(differing here in their numbers only)" % (len(names), carried))


if __name__ == "__main__":
    main()
