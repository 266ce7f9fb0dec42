#!/usr/bin/env bash
# scripts/gpu-sanitize.sh [OUT_DIR] -- compute-sanitizer (memcheck and
# racecheck) on pencilc's CUDA programs at MINI, the device version forced:
# out-of-bounds accesses and shared-memory races that a result comparison
# can miss. GPU_SANITIZE_KERNELS=a,b (default: all 30); PENCILC_BIN_DIR as
# for gpu-measure.sh. Writes OUT_DIR/sanitize.tsv: kernel, tool, verdict.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-${OUT:-target/gpu-sanitize}}
bin=${PENCILC_BIN_DIR:-target/release}
nvcc=${NVCC:-nvcc}
all=${GPU_SANITIZE_KERNELS:-$(awk '!/^#/ && NF {print $1}' polybench/kernels.txt | paste -sd,)}
mkdir -p "$out"
"$bin/pencilc-harness" --pencilc "$bin/pencilc" --polybench polybench \
  --no-opencl --cuda on --nvcc "$nvcc" --nvcc-flags "-arch=native -cudart shared" \
  --versions device --dataset MINI --runs 1 --kernels "$all" \
  --work-dir "$out/work" --reference-jobs "$(nproc)" >"$out/build.txt" 2>&1
status=0
: >"$out/sanitize.tsv"
for name in ${all//,/ }; do
  exe="$out/work/$name/cuda"
  for tool in memcheck racecheck; do
    if [ ! -x "$exe" ]; then
      verdict="not built"
    else
      verdict=$(cd "$out/work/$name" && PENCILC_RUN=device timeout 120 \
                  compute-sanitizer --tool "$tool" ./cuda 2>&1 >/dev/null \
                | grep -E '^========= (ERROR SUMMARY|RACECHECK SUMMARY)' | tail -1)
      [ -n "$verdict" ] || verdict="no summary (killed or failed)"
    fi
    case "$verdict" in *" 0 error"*|*" 0 hazard"*) ;; *) status=1 ;; esac
    printf '%s\t%s\t%s\n' "$name" "$tool" "$verdict" >>"$out/sanitize.tsv"
  done
done
cat "$out/sanitize.tsv"
exit $status
