#!/usr/bin/env bash
# scripts/ppcg-check.sh [WORK_DIR] -- checks the PPCG baseline (benches/ppcg)
# before GPU time is spent on it, on a machine without a GPU.
#
#  1. nvcc: each stored program (benches/ppcg/<kernel>: host and kernel
#     .cu, polybench.c) built and linked as scripts/gpu-measure.sh builds
#     it (-O3 --fmad=false -cudart shared -Xcompiler -fopenmp, the dataset
#     the baseline was made for, -DPOLYBENCH_DUMP_ARRAYS -DPOLYBENCH_TIME,
#     benches/ppcg/warm.h pre-included), for -arch=$PPCG_CHECK_ARCH
#     (default sm_90) instead of -arch=native. NVCC names nvcc (default:
#     nvcc on PATH, else scripts/setup-nvcc.sh's). pip's CUDA has no
#     unversioned libcudart.so: a link to libcudart.so.N in WORK_DIR/lib
#     stands in for it. Each build may take PPCG_CHECK_NVCC_LIMIT seconds
#     (default 600), PPCG_CHECK_JOBS at once (default: nproc).
#  2. Emulation: PPCG run again at PPCG_CHECK_DATASET (default MINI; the
#     array sizes are in PPCG's output, so the stored LARGE files cannot be
#     run at another size) with scripts/ppcg-baseline.sh (PPCG= as there;
#     with PPCG_CHECK_DATASET=LARGE the stored files are used as they
#     are), each program built with g++ against tests/fakecuda (the CUDA
#     emulation of pencilc's tests: `kernel <<<grid, block>>> (args);` in
#     the host file rewritten into fakecuda_launch, as src/harness/emulate.rs
#     does for pencilc's launchers) and run (PPCG_CHECK_RUN_LIMIT seconds,
#     default 300), and every dumped array compared with the sequential
#     program's (gcc -O2, same dataset) by scripts/compare-dumps.py at
#     pencilc-harness's tolerance (1e-9 relative).
#
# PPCG_CHECK_KERNELS=a,b checks only those. PPCG_CHECK_NVCC=0 or
# PPCG_CHECK_EMULATE=0 leaves a step out. Writes WORK_DIR/check.tsv
# (kernel, nvcc, emulated) and prints it; WORK_DIR defaults to
# target/ppcg-check. Exit status 0 when every kernel PPCG translated
# built and ran correctly.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
work=${1:-target/ppcg-check}
mkdir -p "$work"
work=$(cd "$work" && pwd)
base=benches/ppcg
arch=${PPCG_CHECK_ARCH:-sm_90}
dataset=${PPCG_CHECK_DATASET:-MINI}
jobs=${PPCG_CHECK_JOBS:-$(nproc)}
nvcc_limit=${PPCG_CHECK_NVCC_LIMIT:-600}
run_limit=${PPCG_CHECK_RUN_LIMIT:-300}
[ -f "$base/status.tsv" ] || { echo "ppcg-check: no $base/status.tsv (run scripts/ppcg-baseline.sh)" >&2; exit 2; }
stored_dataset=$(awk -F'\t' 'NR > 1 { if (match($4, /-D[A-Z]+_DATASET/)) { print substr($4, RSTART + 2, RLENGTH - 10); exit } }' "$base/status.tsv")
sel=",${PPCG_CHECK_KERNELS:-},"
kernels=$(awk '!/^#/ && NF {print $1}' polybench/kernels.txt | while read -r k; do
  [ "$sel" = ",," ] || [[ $sel == *",$k,"* ]] && echo "$k"; done)
path_of() { awk -v k="$1" '$1 == k {print $2}' polybench/kernels.txt; }
ppcg_ok() { awk -F'\t' -v k="$1" '$1 == k && $2 == "ok" {f=1} END {exit !f}' "$2"; }
export root work arch nvcc_limit run_limit

# 1. nvcc.
: >"$work/nvcc.tsv"
if [ "${PPCG_CHECK_NVCC:-1}" != 0 ]; then
  nvcc=${NVCC:-$(command -v nvcc || scripts/setup-nvcc.sh)} || { echo "ppcg-check: no nvcc" >&2; exit 2; }
  libdir=$(dirname "$(dirname "$nvcc")")/lib
  link=()
  if [ ! -e "$libdir/libcudart.so" ] && [ ! -e "$libdir/../lib64/libcudart.so" ]; then
    so=$(ls "$libdir"/libcudart.so.* 2>/dev/null | head -1)
    mkdir -p "$work/lib"
    [ -n "$so" ] && ln -sf "$so" "$work/lib/libcudart.so"
    link=(-L"$work/lib")
  fi
  export nvcc stored_dataset
  export link_flags="${link[*]}"
  for k in $kernels; do
    ppcg_ok "$k" "$base/status.tsv" && echo "$k $(path_of "$k")"
  done | xargs -P "$jobs" -L 1 bash -c '
    name=$0 path=$1 stem=$(basename "$1" .c)
    d=$work/nvcc/$name
    rm -rf "$d"; mkdir -p "$d"
    t0=$SECONDS
    timeout "$nvcc_limit" "$nvcc" -O3 -arch="$arch" --fmad=false -cudart shared -Xcompiler -fopenmp \
      -I "$root/polybench/utilities" -I "$root/polybench/$(dirname "$path")" \
      -D"${stored_dataset}_DATASET" -DPOLYBENCH_DUMP_ARRAYS -DPOLYBENCH_TIME \
      -include "$root/benches/ppcg/warm.h" \
      "$root/benches/ppcg/$name/${stem}_host.cu" "$root/benches/ppcg/$name/${stem}_kernel.cu" \
      "$root/polybench/utilities/polybench.c" $link_flags -o "$d/ppcg" >"$d/nvcc.log" 2>&1
    rc=$?
    if [ $rc = 0 ]; then r=yes; elif [ $rc = 124 ]; then r="no (not done in ${nvcc_limit} s)"; else r="no (exit status $rc)"; fi
    printf "%s\t%s\t%s\n" "$name" "$r" "$((SECONDS - t0))"
  ' >>"$work/nvcc.tsv"
fi

# 2. Emulation.
: >"$work/emulated.tsv"
if [ "${PPCG_CHECK_EMULATE:-1}" != 0 ]; then
  if [ "$dataset" = "$stored_dataset" ]; then
    gen=$root/$base
  else
    gen=$work/gen-$dataset
    PPCG_DATASET=$dataset PPCG_KERNELS=$(echo $kernels | tr ' ' ,) PPCG_JOBS=$jobs \
      scripts/ppcg-baseline.sh "$gen" >"$work/gen-$dataset.log" 2>&1
  fi
  export gen dataset
  fake=$root/tests/fakecuda
  export fake
  for k in $kernels; do echo "$k $(path_of "$k")"; done | xargs -P "$jobs" -L 1 bash -c '
    name=$0 path=$1 stem=$(basename "$1" .c)
    d=$work/emulated/$name
    rm -rf "$d"; mkdir -p "$d"
    say() { printf "%s\t%s\n" "$name" "$1"; exit 0; }
    awk -F"\t" -v k="$name" "\$1 == k && \$2 == \"ok\" {f=1} END {exit !f}" "$gen/status.tsv" ||
      say "not built (PPCG did not translate it at $dataset)"
    fl=(-I "$root/polybench/utilities" -I "$root/polybench/$(dirname "$path")"
        -D"${dataset}_DATASET" -DPOLYBENCH_DUMP_ARRAYS -DPOLYBENCH_TIME)
    gcc -O2 "${fl[@]}" "$root/polybench/utilities/polybench.c" "$root/polybench/$path" -lm \
      -o "$d/sequential" 2>"$d/build.log" || say "not built (the sequential program)"
    gcc -O2 "${fl[@]}" -c "$root/polybench/utilities/polybench.c" -o "$d/polybench.o" 2>>"$d/build.log" ||
      say "not built (polybench.c)"
    # CUDA'"'"'s launch syntax, which C++ lacks, as a call of the emulation.
    sed -E "s/^([[:space:]]*)([A-Za-z_][A-Za-z0-9_]*) <<<(.*)>>> \((.*)\);[[:space:]]*\$/\1fakecuda_launch(\3, [=] { \2(\4); });/" \
      "$gen/$name/${stem}_host.cu" >"$d/${stem}_host.emulated.cu"
    if grep -q "<<<" "$d/${stem}_host.emulated.cu"; then say "not built (a launch the rewrite missed)"; fi
    cp "$gen/$name/${stem}_kernel.cu" "$gen/$name/${stem}_kernel.hu" "$d/"
    g++ -std=c++17 -O1 -I "$fake" "${fl[@]}" -include cuda_runtime.h -x c++ \
      "$d/${stem}_host.emulated.cu" "$d/${stem}_kernel.cu" "$fake/fakecuda_runtime.cpp" \
      -x none "$d/polybench.o" -lm -o "$d/emulated" 2>>"$d/build.log" || say "not built (g++, see build.log)"
    (cd "$d" && timeout "$run_limit" ./sequential >sequential.stdout 2>sequential.stderr) ||
      say "not run (the sequential program failed)"
    (cd "$d" && timeout "$run_limit" ./emulated >emulated.stdout 2>emulated.stderr)
    rc=$?
    [ $rc = 124 ] && say "not finished in ${run_limit} s"
    [ $rc = 0 ] || say "failed (exit status $rc: $(grep -v "^[-0-9. e+]*$" "$d/emulated.stderr" | grep -v dump | head -1))"
    c=$(python3 "$root/scripts/compare-dumps.py" "$d/sequential.stderr" "$d/emulated.stderr" 1e-9)
    if [ $? = 0 ]; then say "right ($c)"; else say "wrong ($c)"; fi
  ' >>"$work/emulated.tsv"
fi

# The table, in kernels.txt's order.
status=0
{
  printf 'kernel\tppcg (%s)\tnvcc %s\temulated at %s\n' "$stored_dataset" "$arch" "$dataset"
  for k in $kernels; do
    p=$(awk -F'\t' -v k="$k" '$1 == k {print $2}' "$base/status.tsv")
    n=$(awk -F'\t' -v k="$k" '$1 == k {print $2}' "$work/nvcc.tsv")
    e=$(awk -F'\t' -v k="$k" '$1 == k {print $2}' "$work/emulated.tsv")
    [ "${PPCG_CHECK_NVCC:-1}" = 0 ] && n="(left out)"
    [ "${PPCG_CHECK_EMULATE:-1}" = 0 ] && e="(left out)"
    printf '%s\t%s\t%s\t%s\n' "$k" "${p:--}" "${n:--}" "${e:--}"
    if [ "$p" = ok ]; then
      case $n in yes|"(left out)") ;; *) status=1 ;; esac
      case $e in right*|"(left out)") ;; *) status=1 ;; esac
    fi
  done
} >"$work/check.tsv"
cat "$work/check.tsv"
exit $status
