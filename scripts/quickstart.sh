#!/usr/bin/env bash
# scripts/quickstart.sh [KERNEL] [DATASET] -- the README's first command.
# Builds pencilc, compiles a PolyBench kernel (default gemm, MEDIUM) to
# OpenCL, builds it with the system C compiler, runs it on the CPU through
# PoCL, runs the sequential program, and says whether the results match.
set -euo pipefail
cd "$(dirname "$0")/.."
kernel=${1:-gemm}
dataset=${2:-MEDIUM}

scripts/setup-deps.sh
cargo build --release --quiet --bin pencilc --bin pencilc-compare
src="polybench/$(awk -v k="$kernel" '$1 == k { print $2 }' polybench/kernels.txt)"
[ -f "$src" ] || { echo "quickstart: unknown kernel '$kernel' (see polybench/kernels.txt)" >&2; exit 2; }
out=target/quickstart/$kernel
mkdir -p "$out"
flags=(-I polybench/utilities -I "$(dirname "$src")" "-D${dataset}_DATASET" -DPOLYBENCH_DUMP_ARRAYS -DPOLYBENCH_TIME)

echo "== pencilc --target opencl $src"
target/release/pencilc -v --target opencl "${flags[@]}" -o "$out/${kernel}_host.c" "$src"
echo "== building the OpenCL program and the sequential one"
# As the sequential program is built, and with the host version's threads.
cc -O3 -fopenmp "${flags[@]}" polybench/utilities/polybench.c "$out/${kernel}_host.c" -lOpenCL -lm -o "$out/${kernel}_opencl"
cc -O3 "${flags[@]}" polybench/utilities/polybench.c "$src" -lm -o "$out/${kernel}_seq"
echo "== running (times in seconds)"
seq_t=$("$out/${kernel}_seq" 2>"$out/seq.dump")
# FP contraction off, so that ill-conditioned kernels (gramschmidt) compare.
ocl_t=$(cd /tmp && PENCILC_OPENCL_DEVICE=${PENCILC_OPENCL_DEVICE:-cpu} \
  PENCILC_OPENCL_OPTIONS=${PENCILC_OPENCL_OPTIONS--DPENCILC_NO_FP_CONTRACT} "$OLDPWD/$out/${kernel}_opencl" 2>"$OLDPWD/$out/opencl.dump")
echo "sequential (cc -O3): $seq_t"
echo "generated program:   $ocl_t (the version its run-time choice picked: PENCILC_VERBOSE=1 says which, PENCILC_RUN=device forces the OpenCL kernels on PoCL)"
if target/release/pencilc-compare "$out/seq.dump" "$out/opencl.dump"; then
  echo "OK: $kernel ($dataset) on OpenCL matches the sequential result"
else
  echo "FAIL: $kernel ($dataset) on OpenCL differs from the sequential result" >&2
  exit 1
fi
