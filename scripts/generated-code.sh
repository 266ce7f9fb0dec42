#!/usr/bin/env bash
# scripts/generated-code.sh [OUT] -- writes what pencilc generates for the 30
# PolyBench kernels (LARGE, every target: OpenCL, CUDA, C, C with OpenMP)
# under OUT (default target/generated), with paths relative to the
# repository root so that two checkouts give comparable files. A
# restructuring commit must leave it unchanged:
#
#   git stash; scripts/generated-code.sh target/gen-before; git stash pop
#   scripts/generated-code.sh target/gen-after
#   diff -r target/gen-before target/gen-after && echo identical
#
# PENCILC (default target/release/pencilc) picks the binary. The schedule
# budget is large (--schedule-timeout 120), so that no region's result
# depends on the machine's load.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-target/generated}
bin=${PENCILC:-target/release/pencilc}
rm -rf "$out"
while read -r name path extra; do
  src=polybench/$path
  dir=$(dirname "$src")
  for target in opencl cuda c openmp; do
    mkdir -p "$out/$target"
    case $target in
      openmp) args=(--target c --openmp) ;;
      *) args=(--target "$target") ;;
    esac
    ext=c
    # shellcheck disable=SC2086 # the extra flags are words
    "$bin" "${args[@]}" $extra --schedule-timeout 120 -I polybench/utilities -I "$dir" \
      -DLARGE_DATASET -o "$out/$target/$name.$ext" "$src" \
      >"$out/$target/$name.log" 2>&1 || echo "pencilc failed: $name $target" >&2
  done
done < polybench/kernels.txt
echo "generated-code: $(find "$out" -type f | wc -l) files under $out"
