#!/usr/bin/env python3
"""Checks that a regenerated suite recorded exactly what an earlier one did: every sample
(script, tag) of the OLD suite is in the NEW one, and PyTorch printed byte-identical lines for
it; each file that ran them exited with the same status.

  scripts/conformance/same_recordings.py OLD_DIR [NEW_DIR]

OLD_DIR and NEW_DIR are copies of tests/conformance/ (MANIFEST.tsv and expected/); NEW_DIR
defaults to tests/conformance. A MANIFEST.tsv without the `file` column (the generator before
ops shared scripts) runs each sample in its script's own file. Exits 1 on any difference.
"""
import collections
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
TAGGED = re.compile(r"^\[([A-Za-z0-9_.-]+)\] (.*)$")


def manifest(folder):
    """[(script, tag, file)] in file order."""
    rows = []
    for line in (folder / "MANIFEST.tsv").read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        f = line.split("\t")
        rows.append((f[0], f[1], f[7] if len(f) > 7 else f[0]))
    return rows


def printed_tag(script, tag, file):
    return tag if file == script else script + "." + tag


def blocks(folder, file, cache={}):
    """(lines by printed tag, untagged lines, exit status) of one recorded file."""
    key = (folder, file)
    if key not in cache:
        by_tag, untagged = collections.defaultdict(list), []
        lines = (folder / "expected" / (file + ".stdout")).read_text().split("\n")
        if lines[-1] == "":
            lines.pop()
        for line in lines:
            m = TAGGED.match(line)
            if m:
                by_tag[m.group(1)].append(m.group(2))
            else:
                untagged.append(line)
        status = (folder / "expected" / (file + ".status")).read_text().strip()
        cache[key] = (by_tag, untagged, status)
    return cache[key]


def main():
    old_dir = pathlib.Path(sys.argv[1])
    new_dir = pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else ROOT / "tests" / "conformance"
    old = manifest(old_dir)
    new = {(s, t): f for s, t, f in manifest(new_dir)}
    problems = []
    lines = 0
    for script, tag, old_file in old:
        new_file = new.get((script, tag))
        if new_file is None:
            problems.append("%s %s: not in the new suite" % (script, tag))
            continue
        want, want_untagged, want_status = blocks(old_dir, old_file)
        got, got_untagged, got_status = blocks(new_dir, new_file)
        a = want.get(printed_tag(script, tag, old_file))
        b = got.get(printed_tag(script, tag, new_file))
        if a is None or b is None:
            problems.append("%s %s: no recorded lines (old %s, new %s)" % (
                script, tag, a is not None, b is not None))
        elif a != b:
            first = next(i for i in range(max(len(a), len(b)))
                         if i >= len(a) or i >= len(b) or a[i] != b[i])
            problems.append("%s %s: line %d differs: %r / %r" % (
                script, tag, first + 1, a[first] if first < len(a) else None,
                b[first] if first < len(b) else None))
        else:
            lines += len(a)
        if want_status != got_status:
            problems.append("%s %s: %s exited %s, %s exits %s" % (
                script, tag, old_file, want_status, new_file, got_status))
        if want_untagged or got_untagged:
            problems.append("%s: untagged lines (old %d, new %d)" % (
                script, len(want_untagged), len(got_untagged)))
    extra = sorted(set(new) - {(s, t) for s, t, _ in old})
    for script, tag in extra:
        problems.append("%s %s: new sample" % (script, tag))
    old_files = len({f for _, _, f in old})
    new_files = len(set(new.values()))
    print("%d samples of %d files against %d samples of %d files: %d recorded lines identical; "
          "%d problems" % (len(old), old_files, len(new), new_files, lines, len(problems)))
    for p in sorted(set(problems))[:50]:
        print("  " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
