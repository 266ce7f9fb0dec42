#!/usr/bin/env bash
# scripts/gpu-measure.sh [OUT_DIR] -- the CUDA figures of issue 5, on a
# machine with an NVIDIA GPU and nvcc (and no Rust: the pencilc and
# pencilc-harness binaries are built elsewhere and carried in target/release,
# or named by PENCILC_BIN_DIR).
#
#  1. gemm, 2mm, atax, jacobi-2d, fdtd-2d and heat-3d at LARGE through pencilc --target cuda
#     (--device nvidia-h100), with the memory hierarchy and without it:
#     built with nvcc, run on the GPU, every array compared with the
#     sequential program's, timed against it (median of 5 runs; CUDA's
#     one-time context creation left out);
#  2. the same kernels at MINI, SMALL and MEDIUM for correctness;
#  3. cuBLAS DGEMM at the LARGE gemm sizes (benches/gpu/cublas_gemm.cu).
#
# Writes tables and JSON to OUT_DIR (default: $OUT, else target/gpu-measure).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-${OUT:-target/gpu-measure}}
bin=${PENCILC_BIN_DIR:-target/release}
nvcc=${NVCC:-nvcc}
mkdir -p "$out"
status=0

nvidia-smi -L || { echo "gpu-measure: no GPU (nvidia-smi -L failed)" >&2; exit 2; }
"$nvcc" --version | tail -1
for b in pencilc pencilc-harness; do
  [ -x "$bin/$b" ] || { echo "gpu-measure: $bin/$b missing (build with cargo build --release, or set PENCILC_BIN_DIR)" >&2; exit 2; }
done

kernels=gemm,2mm,atax,jacobi-2d,fdtd-2d,heat-3d
# The device version is forced (PENCILC_RUN=device): the run-time choice
# would run small sizes on the host, and these are the GPU's figures.
harness() { # NAME DATASET RUNS KERNELS PENCILC_ARGS
  "$bin/pencilc-harness" --pencilc "$bin/pencilc" --polybench polybench \
    --no-opencl --cuda on --nvcc "$nvcc" --versions device \
    --dataset "$2" --runs "$3" --kernels "$4" --pencilc-args "$5" \
    --work-dir "$out/work-$1" --json "$out/$1.json" 2>"$out/$1.log" \
    | tee "$out/$1.txt" || status=1
}

# cuBLAS: nvcc finds it in the toolkit, else in a pip-installed wheel.
cublas_flags=(-lcublas)
if ! echo 'int main(){}' | "$nvcc" -x cu - -lcublas -o /dev/null 2>/dev/null; then
  lib=$(find / -name 'libcublas.so.*' -not -path '*/proc/*' 2>/dev/null | head -1)
  inc=$(find / -name cublas_v2.h -not -path '*/proc/*' 2>/dev/null | head -1)
  # nvcc takes no versioned .so on its command line: hand it to the linker.
  [ -n "$lib" ] && [ -n "$inc" ] && cublas_flags=(-I"$(dirname "$inc")" -Xlinker "$lib" -Xlinker -rpath="$(dirname "$lib")")
fi
if "$nvcc" -O3 -arch=native -std=c++17 benches/gpu/cublas_gemm.cu "${cublas_flags[@]}" -o "$out/cublas_gemm"; then
  "$out/cublas_gemm" | tee "$out/cublas.txt" || status=1
else
  echo "gpu-measure: cuBLAS reference did not build" | tee "$out/cublas.txt"
  status=1
fi

# The key figures first, then correctness on every kernel.
harness large-hierarchy LARGE 5 "$kernels" "--device nvidia-h100"
all=$(awk '!/^#/ && NF {print $1}' polybench/kernels.txt | paste -sd,)
harness correct-all-SMALL SMALL 1 "$all" "--device nvidia-h100"
harness large-global LARGE 5 "$kernels" "--device nvidia-h100 --no-shared-memory --no-private-memory"
for d in MINI MEDIUM; do
  harness "correct-$d" "$d" 1 "$kernels" "--device nvidia-h100"
done
exit $status
