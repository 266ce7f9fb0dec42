#!/usr/bin/env python3
"""compare-dumps.py EXPECTED GENERATED [REL] -- compares two PolyBench
array dumps (the stderr of programs built with -DPOLYBENCH_DUMP_ARRAYS)
as pencilc-harness does (src/harness/compare.rs): array by array, a value
matching when it is within REL (default 1e-9) of the expected one,
relative to the larger of its magnitude and the array's largest magnitude
(at least 1), or when both are NaN. Lines outside `begin dump:` / `end`
pairs are ignored. Prints one line (`N arrays, M values` or what differs)
and exits 0 when the dumps match, 1 when they do not, 2 on a missing file.
For programs that are not pencilc's (scripts/gpu-measure.sh's PPCG step,
scripts/ppcg-check.sh), where the Rust harness is not at hand.
"""
import math
import sys


def parse(text):
    out, inside = [], False
    for line in text.splitlines():
        l = line.strip()
        if l.startswith("begin dump:"):
            out.append((l[len("begin dump:"):].strip(), []))
            inside = True
        elif l.startswith("end"):
            inside = False
        elif inside and l and out:
            for w in l.split():
                try:
                    out[-1][1].append(float(w))
                except ValueError:
                    out[-1][1].append(math.nan)
    return out


def compare(expected, generated, rel):
    a, b = parse(expected), parse(generated)
    if not a:
        return False, "the sequential program dumped no arrays"
    if [n for n, _ in a] != [n for n, _ in b]:
        return False, "different arrays dumped: expected %s, got %s" % (
            [n for n, _ in a], [n for n, _ in b])
    values = mismatches = 0
    examples = []
    for (name, x), (_, y) in zip(a, b):
        if len(x) != len(y):
            return False, "array %s: %d values expected, %d dumped" % (name, len(x), len(y))
        scale = max([1.0] + [abs(v) for v in x if not math.isnan(v)])
        for i, (u, v) in enumerate(zip(x, y)):
            values += 1
            same = abs(u - v) <= rel * max(scale, abs(u)) or (math.isnan(u) and math.isnan(v))
            if not same:
                if len(examples) < 3:
                    examples.append("%s[%d]: %r vs %r" % (name, i, u, v))
                mismatches += 1
    if mismatches:
        return False, "%d of %d values differ (%s)" % (mismatches, values, "; ".join(examples))
    return True, "%d arrays, %d values" % (len(a), values)


def main():
    if len(sys.argv) not in (3, 4):
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    try:
        expected = open(sys.argv[1], errors="replace").read()
        generated = open(sys.argv[2], errors="replace").read()
    except OSError as e:
        print("cannot read: %s" % e)
        return 2
    rel = float(sys.argv[3]) if len(sys.argv) == 4 else 1e-9
    ok, what = compare(expected, generated, rel)
    print(what)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
