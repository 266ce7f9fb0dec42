#!/usr/bin/env bash
# scripts/ppcg-baseline.sh [OUT_DIR] -- regenerates benches/ppcg: PPCG's
# CUDA for the PolyBench kernels of polybench/kernels.txt, the baseline
# scripts/gpu-measure.sh times beside pencilc's programs (issue 30). This
# runs PPCG, a separate tool; nothing here is part of pencilc.
#
# PPCG=path of the ppcg executable (default: ppcg on PATH). The stored
# baseline was made with PPCG 0.09 (ppcg 6ed0d36, isl 433e17b9, pet
# 824ab35, clang 14): see benches/ppcg/README.md, and
# benches/ppcg/build-ppcg.sh for how that PPCG was built.
#
# Each kernel: `ppcg --target=cuda` with PPCG's default options, the
# include paths of polybench/utilities and of the kernel's folder, and
# -D<DATASET>_DATASET, run in OUT_DIR/<kernel>/ (PPCG writes its CUDA
# output, <name>_host.cu, <name>_kernel.cu and <name>_kernel.hu, into the
# current folder; -o is for its C and OpenCL targets only). The dataset
# must be given to PPCG: the sizes of the arrays are macros, expanded in
# the code PPCG generates for the scop (strides such as `A[i * 2100 + j]`),
# while the code outside the scop is copied as it was written, macros and
# includes unexpanded, so nvcc must be given the same dataset. The
# generated code holds no path of this machine.
#
# PPCG_DATASET: MINI, SMALL, MEDIUM, LARGE (default) or EXTRALARGE.
# PPCG_TIMEOUT: seconds each kernel may take (default 3600: heat-3d takes
#   PPCG 12-13 minutes of CPU, 24 of wall clock on a busy 2-core machine,
#   while the 29 others take 45-50 s together); a kernel PPCG fails on or
#   does not finish keeps no files, only its log if any.
# PPCG_KERNELS=a,b: only those kernels. PPCG_JOBS: kernels at once
#   (default 1, so that the seconds recorded are one PPCG's).
# OUT_DIR (default benches/ppcg) gets <kernel>/ per kernel (the three
# files, and ppcg.log where PPCG printed anything) and status.tsv: kernel, result
# (ok, failed (exit status N), timeout), seconds, the command line as run
# from <kernel>/.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out=${1:-benches/ppcg}
ppcg=${PPCG:-ppcg}
dataset=${PPCG_DATASET:-LARGE}
limit=${PPCG_TIMEOUT:-3600}
jobs=${PPCG_JOBS:-1}
command -v "$ppcg" >/dev/null || { echo "ppcg-baseline: $ppcg not found (set PPCG)" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
if [ -n "${PPCG_KERNELS:-}" ]; then
  want=",$PPCG_KERNELS,"
else
  want=""
fi

# One kernel: NAME PATH (relative to polybench/). Prints its status row.
one() {
  local name=$1 path=$2
  local dir=$out/$name src=polybench/$2
  local base
  base=$(basename "$path" .c)
  rm -rf "$dir"
  mkdir -p "$dir"
  # The paths are relative to $dir, so that the command line recorded
  # says the same on every machine.
  local rel
  rel=$(realpath --relative-to="$dir" "$root")
  local args=(--target=cuda -I "$rel/polybench/utilities" -I "$rel/$(dirname "$src")"
              "-D${dataset}_DATASET" "$rel/$src")
  local t0 t1 rc result
  local t0=$SECONDS
  (cd "$dir" && TIMEFORMAT=%R; time timeout "$limit" "$ppcg" "${args[@]}" >ppcg.log 2>&1) 2>"$dir/.seconds"
  rc=$?
  local secs
  secs=$(tail -1 "$dir/.seconds")
  rm -f "$dir/.seconds"
  if [ $rc = 0 ] && [ -s "$dir/${base}_host.cu" ] && [ -s "$dir/${base}_kernel.cu" ]; then
    result=ok
  elif [ $rc = 124 ]; then
    result="timeout (${limit} s)"
  else
    result="failed (exit status $rc)"
  fi
  if [ "$result" != ok ]; then
    rm -f "$dir"/*.cu "$dir"/*.hu
  fi
  [ -s "$dir/ppcg.log" ] || rm -f "$dir/ppcg.log"
  rmdir "$dir" 2>/dev/null
  printf '%s\t%s\t%s\tppcg %s\n' "$name" "$result" "$secs" "${args[*]}"
}
export -f one
export out root ppcg dataset limit

awk '!/^#/ && NF {print $1, $2}' polybench/kernels.txt |
  while read -r name path; do
    [ -z "$want" ] || [[ $want == *",$name,"* ]] || continue
    echo "$name $path"
  done |
  xargs -P "$jobs" -L 1 bash -c 'one "$0" "$1"' >"$out/status.tsv.new"

# status.tsv in kernels.txt's order (rows of kernels not run this time
# are kept).
{
  printf 'kernel\tppcg\tseconds\tcommand (run in benches/ppcg/<kernel>/)\n'
  awk '!/^#/ && NF {print $1}' polybench/kernels.txt | while read -r name; do
    row=$(awk -F'\t' -v k="$name" '$1 == k' "$out/status.tsv.new")
    [ -n "$row" ] || row=$(awk -F'\t' -v k="$name" '$1 == k' "$out/status.tsv" 2>/dev/null)
    [ -z "$row" ] || echo "$row"
  done
} >"$out/status.tsv.tmp"
rm -f "$out/status.tsv.new"
mv "$out/status.tsv.tmp" "$out/status.tsv"
column -t -s $'\t' "$out/status.tsv" | cut -c1-100
! grep -qv -e $'\tok\t' -e '^kernel' "$out/status.tsv"
