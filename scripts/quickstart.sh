#!/usr/bin/env bash
# scripts/quickstart.sh [KERNEL] [DATASET] -- the README's first command.
# Builds pencilc, compiles a PolyBench kernel (default correlation, LARGE: a size
# at which parallel code pays on a CPU) to OpenCL, builds it with the
# system C compiler, runs it on the CPU through PoCL beside the sequential
# program, and says the speedup, which version the program's run-time
# choice ran and why, and whether the results match.
set -euo pipefail
cd "$(dirname "$0")/.."
kernel=${1:-correlation}
dataset=${2:-LARGE}

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
# PENCILC_VERBOSE=1: each region says which version it ran and why.
ocl_t=$(cd /tmp && PENCILC_VERBOSE=1 PENCILC_OPENCL_DEVICE=${PENCILC_OPENCL_DEVICE:-cpu} \
  PENCILC_OPENCL_OPTIONS=${PENCILC_OPENCL_OPTIONS--DPENCILC_NO_FP_CONTRACT} "$OLDPWD/$out/${kernel}_opencl" 2>"$OLDPWD/$out/opencl.stderr")
grep -v '^pencilc: ' "$out/opencl.stderr" >"$out/opencl.dump" || true
echo "sequential (cc -O3):  $seq_t"
echo "generated program:    $ocl_t"
awk -v s="$seq_t" -v g="$ocl_t" 'BEGIN { if (g > 0) printf "speedup:              %.2fx\n", s / g }'
echo "what ran (PENCILC_VERBOSE=1; PENCILC_RUN=device|host|seq forces a version):"
grep '^pencilc: ' "$out/opencl.stderr" | sed 's/^/  /' | cut -c1-400
if target/release/pencilc-compare "$out/seq.dump" "$out/opencl.dump"; then
  echo "OK: $kernel ($dataset) on OpenCL matches the sequential result"
else
  echo "FAIL: $kernel ($dataset) on OpenCL differs from the sequential result" >&2
  exit 1
fi
echo "next: scripts/quickstart.sh KERNEL DATASET for another kernel; target/release/pencilc-harness for all 30 with each version timed (docs/harness.md); pencilc as a build step (README, docs/build-step.md)"
