#!/usr/bin/env python3
"""Generates PolyBench kernels as DSL compilers write them (issue 16).

From the 2-d sources in polybench/, for each kernel of KERNELS:

  polybench/flat/<name>/<name>-lin.c   every array parameter a `restrict`
      pointer, every access linearised with the run-time sizes:
      `A[i][k]` becomes `A[(i) * nk + (k)]`;
  polybench/flat/<name>/<name>-cast.c  every multi-dimensional array
      parameter a plain pointer `A_vec`, cast at the start of the region
      to a pointer to rows (`DATA_TYPE (*restrict A)[nk] =
      (DATA_TYPE (*)[nk]) A_vec;`); the loops are untouched;

and polybench/flat/kernels.txt listing them for pencilc-harness
(`--polybench polybench/flat`). Only the kernel function and its call in
main change; the data, sizes and dumps are the original's, so each
generated program prints what the 2-d one prints.

    scripts/flatten-polybench.py            write the files
    scripts/flatten-polybench.py --check    exit 1 if a file differs
"""

import os
import re
import sys

KERNELS = [
    "gemm", "2mm", "3mm", "syrk", "syr2k", "covariance", "correlation",
    "doitgen", "jacobi-2d", "fdtd-2d", "heat-3d", "lu", "atax", "bicg",
]

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
POLYBENCH = os.path.join(ROOT, "polybench")
OUT = os.path.join(POLYBENCH, "flat")


def kernel_sources():
    out = {}
    with open(os.path.join(POLYBENCH, "kernels.txt")) as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 2 and not parts[0].startswith("#"):
                out[parts[0]] = parts[1]
    return out


def matching(text, i, open_c, close_c):
    """Index of the bracket closing the one at `i`."""
    depth = 0
    for k in range(i, len(text)):
        if text[k] == open_c:
            depth += 1
        elif text[k] == close_c:
            depth -= 1
            if depth == 0:
                return k
    raise ValueError("unbalanced %s at %d" % (open_c, i))


def split_top(text):
    """`text` split at the commas outside parentheses."""
    parts, depth, cur = [], 0, ""
    for c in text:
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        if c == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += c
    parts.append(cur)
    return [p.strip() for p in parts]


PARAM = re.compile(r"^DATA_TYPE\s+POLYBENCH_([1-5])D\((.*)\)$", re.S)


def parse_params(plist):
    """(new-style parameter list entries, arrays: name -> run-time sizes)."""
    arrays = {}
    entries = []
    for p in split_top(plist):
        m = PARAM.match(" ".join(p.split()))
        if not m:
            entries.append((p, None))
            continue
        rank = int(m.group(1))
        args = [a.strip() for a in m.group(2).split(",")]
        name, sizes = args[0], args[1 + rank:]
        arrays[name] = sizes
        entries.append((p, name))
    return entries, arrays


def linearise_accesses(body, arrays):
    """`A[e1][e2]` of the multi-dimensional `arrays` as `A[(e1) * d2 + (e2)]`."""
    out, i = "", 0
    ident = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
    while i < len(body):
        m = ident.match(body, i)
        if not m or (i > 0 and (body[i - 1].isalnum() or body[i - 1] == "_")):
            out += body[i]
            i += 1
            continue
        name = m.group(0)
        j = m.end()
        if name not in arrays or len(arrays[name]) < 2 or j >= len(body) or body[j] != "[":
            out += name
            i = j
            continue
        subs = []
        while j < len(body) and body[j] == "[":
            close = matching(body, j, "[", "]")
            subs.append(linearise_accesses(body[j + 1:close], arrays).strip())
            j = close + 1
        sizes = arrays[name]
        if len(subs) != len(sizes):
            raise ValueError("%s accessed with %d subscripts" % (name, len(subs)))
        lin = "(%s)" % subs[0]
        for k, (s, d) in enumerate(zip(subs[1:], sizes[1:])):
            lin = "%s * %s + (%s)" % (lin if k == 0 else "(%s)" % lin, d, s)
        out += "%s[%s]" % (name, lin)
        i = j
    return out


def flatten(src_text, src_rel, name, style):
    func = "kernel_" + name.replace("-", "_")
    start = src_text.index("static void %s(" % func)
    popen = src_text.index("(", start)
    pclose = matching(src_text, popen, "(", ")")
    entries, arrays = parse_params(src_text[popen + 1:pclose])
    new_params = []
    for text, arr in entries:
        if arr is None:
            new_params.append(text)
        elif style == "lin" or len(arrays[arr]) == 1:
            new_params.append("DATA_TYPE *restrict %s" % arr)
        else:
            new_params.append("DATA_TYPE *%s_vec" % arr)
    params = (",\n" + " " * (len("static void %s(" % func))).join(new_params)
    bopen = src_text.index("{", pclose)
    bclose = matching(src_text, bopen, "{", "}")
    body = src_text[bopen:bclose + 1]
    if style == "lin":
        b0 = body.index("#pragma scop")
        b1 = body.index("#pragma endscop")
        body = body[:b0] + linearise_accesses(body[b0:b1], arrays) + body[b1:]
    else:
        casts = ""
        for arr, sizes in arrays.items():
            if len(sizes) < 2:
                continue
            rows = "".join("[%s]" % d for d in sizes[1:])
            casts += "  DATA_TYPE (*restrict %s)%s = (DATA_TYPE (*)%s) %s_vec;\n" % (arr, rows, rows, arr)
        at = body.index("#pragma scop") + len("#pragma scop\n")
        body = body[:at] + casts + body[at:]
    text = src_text[:start] + "static void %s(%s)\n" % (func, params) + body + src_text[bclose + 1:]
    # The call in main passes each array as a flat pointer.
    call = text.index("  %s(" % func)
    copen = text.index("(", call)
    cclose = matching(text, copen, "(", ")")
    args = re.sub(r"POLYBENCH_ARRAY\((\w+)\)", r"(DATA_TYPE *) POLYBENCH_ARRAY(\1)", text[copen:cclose])
    text = text[:copen] + args + text[cclose:]
    # The kernel's own header, from its folder.
    header = os.path.basename(src_rel)[:-2] + ".h"
    rel = os.path.relpath(os.path.join(POLYBENCH, os.path.dirname(src_rel), header), os.path.join(OUT, name))
    text = text.replace('#include "%s"' % header, '#include "%s"' % rel)
    what = {
        "lin": "its arrays as restrict pointers with linearised subscripts",
        "cast": "its arrays as flat pointers cast to pointers to rows in the region",
    }[style]
    banner = "/* Generated by scripts/flatten-polybench.py from polybench/%s:\n * %s kernel with %s.\n * Do not edit: run the script. */\n" % (src_rel, name, what)
    return banner + text


def main():
    check = "--check" in sys.argv[1:]
    sources = kernel_sources()
    files = {}
    listing = "# Generated by scripts/flatten-polybench.py: PolyBench kernels as DSL\n# compilers write them (pencilc-harness --polybench polybench/flat).\n"
    for name in KERNELS:
        rel = sources[name]
        with open(os.path.join(POLYBENCH, rel)) as f:
            src = f.read()
        for style in ["lin", "cast"]:
            path = os.path.join(OUT, name, "%s-%s.c" % (name, style))
            files[path] = flatten(src, rel, name, style)
            listing += "%s-%s %s/%s-%s.c\n" % (name, style, name, name, style)
    files[os.path.join(OUT, "kernels.txt")] = listing
    stale = []
    for path, text in sorted(files.items()):
        old = None
        if os.path.exists(path):
            with open(path) as f:
                old = f.read()
        if old == text:
            continue
        stale.append(os.path.relpath(path, ROOT))
        if not check:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
    if check and stale:
        print("out of date (run scripts/flatten-polybench.py):\n  " + "\n  ".join(stale))
        return 1
    if not check:
        print("wrote %d file(s)" % len(stale))
    return 0


if __name__ == "__main__":
    sys.exit(main())
