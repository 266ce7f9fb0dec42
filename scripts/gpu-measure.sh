#!/usr/bin/env bash
# scripts/gpu-measure.sh [OUT_DIR] -- pencilc's CUDA on a lent GPU, all 30
# PolyBench kernels, in one short run (issue 30). For a machine with an
# NVIDIA GPU and nvcc but no Rust: build pencilc and pencilc-harness here
# (cargo build --release) and carry target/release, or name the folder with
# PENCILC_BIN_DIR.
#
#  1. The GPU model's estimate of each region at LARGE (`pencilc-harness
#     --gpu-model`: pencilc's `--emit gpu-model` with the dataset's sizes,
#     the nvidia-h100 description), before anything runs.
#  2. Every kernel at LARGE through `pencilc --target cuda`, built with nvcc
#     (-O3, --fmad=false, -cudart shared, -Xcompiler -fopenmp), the device version forced
#     (PENCILC_RUN=device), every array compared with the sequential
#     program's, the region timed (allocation, copies, launches; CUDA's
#     one-time context creation left out). The sequential programs, the
#     references, run first, all at once on the host's cores (their times
#     are then less exact; ../shared/gpu has careful ones). GPU_MEASURE_RUNS
#     runs each (default 1); each may run GPU_MEASURE_LIMIT seconds
#     (default 20) beyond what its sequential program took for the whole
#     run (PolyBench's initialisation and dump, which it does too): a kernel
#     that would run for minutes costs one limit, not the lease.
#  3. Kernel-only time: each program that finished run once more under
#     kernel_time.so (benches/gpu/kernel_time.c: CUDA events around every
#     launch). GPU_MEASURE_KERNEL_ONLY=0 leaves it out.
#  4. cuBLAS DGEMM at gemm's LARGE sizes (benches/gpu/cublas_gemm.cu).
#     GPU_MEASURE_CUBLAS=0 leaves it out.
#  5. Data movement (issue 34): the bandwidth-bound kernels that finished
#     in step 2 (GPU_MEASURE_COPY_KERNELS, default atax, bicg, mvt, gesummv,
#     gemver, 2mm, correlation) run again with PENCILC_PROFILE=1, copies
#     staged through pinned buffers (PENCILC_CUDA_COPY=staged: the host's
#     side of each chunk on up to 8 OpenMP threads), staged on one thread
#     (OMP_NUM_THREADS=1), pageable, staged out only, and the default
#     (auto: pageable until 64 MiB of copies were asked for), alternately,
#     twice each: copies.tsv.
#     Before them, benches/gpu/pin_cost.cu: what pinning host memory
#     costs (the first pinned allocation apart from later ones, by size,
#     registering an array in place) and 32 MB copies pageable, pinned and
#     staged by chunk size: pin_cost.tsv.
#     GPU_MEASURE_COPIES=0 leaves it out.
#  6. The GPU model's choices: the kernels whose schedule it changed
#     (GPU_MEASURE_CHOICE_KERNELS, default trmm: a sequential loop hoisted
#     to the host, `--hoist`) as chosen and with the choice turned off
#     (`--hoist never`), and those whose shared tiles it dropped
#     (GPU_MEASURE_TILE_KERNELS, default atax, mvt, gesummv, gemver, adi)
#     as chosen and with every tile kept (PENCILC_MODEL_TILES=never),
#     and the reductions (GPU_MEASURE_COMBINE_KERNELS, default durbin and
#     gramschmidt; ludcmp initialises for seconds) combined by each
#     launch's last block and by a combining kernel
#     (PENCILC_COMBINE=kernel), and the host loops of small launches
#     run as one block (GPU_MEASURE_ONE_BLOCK_KERNELS, default jacobi-1d)
#     against a launch per kernel and step (`--one-block-loops never`),
#     three runs each: choices.txt.
#     GPU_MEASURE_CHOICES=0 leaves it out.
#
# GPU_MEASURE_KERNELS=a,b,c measures only those kernels.
# Writes OUT_DIR/summary.tsv (kernel, sequential, region and kernel-only ms,
# launches, the estimate, correctness) and the harness's tables and JSON.
# OUT_DIR defaults to $OUT, else target/gpu-measure.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-${OUT:-target/gpu-measure}}
bin=${PENCILC_BIN_DIR:-target/release}
nvcc=${NVCC:-nvcc}
runs=${GPU_MEASURE_RUNS:-1}
limit=${GPU_MEASURE_LIMIT:-20}
dataset=${GPU_MEASURE_DATASET:-LARGE}
mkdir -p "$out"
status=0

nvidia-smi -L || { echo "gpu-measure: no GPU (nvidia-smi -L failed)" >&2; exit 2; }
"$nvcc" --version | tail -1
for b in pencilc pencilc-harness; do
  [ -x "$bin/$b" ] || { echo "gpu-measure: $bin/$b missing (build with cargo build --release, or set PENCILC_BIN_DIR)" >&2; exit 2; }
done
all=${GPU_MEASURE_KERNELS:-$(awk '!/^#/ && NF {print $1}' polybench/kernels.txt | paste -sd,)}

# 1. Estimates (CPU only, seconds): in the background, beside step 2's
# builds, so that they cost no device time of their own. The harness
# gives pencilc the dataset's sizes (tsteps too, which no array bounds),
# as it does for the programs step 2 builds.
(
  "$bin/pencilc-harness" --pencilc "$bin/pencilc" --polybench polybench \
    --gpu-model --gpu-device nvidia-h100 --dataset "$dataset" --kernels "$all" \
    --json "$out/estimates.json" >"$out/estimates.txt" 2>"$out/estimates.log"
  # One row per selected kernel, in their order, `-` where there is no
  # estimate (the summary's rows are these).
  python3 - "$out" "$all" <<'PY'
import json, sys
out, names = sys.argv[1], sys.argv[2].split(",")
try:
    ms = {k["name"]: k.get("region_ms") for k in json.load(open(f"{out}/estimates.json"))["kernels"]}
except Exception:
    ms = {}
with open(f"{out}/estimates.tsv", "w") as t:
    for n in names:
        v = ms.get(n)
        t.write(f"{n}\t{'-' if v is None else f'{v:.4f}'}\n")
PY
) &
estimates=$!

# 2. Region times and correctness.
"$bin/pencilc-harness" --pencilc "$bin/pencilc" --polybench polybench \
  --no-opencl --cuda on --nvcc "$nvcc" --nvcc-flags "-arch=native -cudart shared -Xcompiler -fopenmp" \
  --versions device --timeout "$limit" --dataset "$dataset" --runs "$runs" \
  --kernels "$all" --work-dir "$out/work" --json "$out/region.json" \
  --reference-jobs "$(nproc)" \
  2>"$out/region.log" | tee "$out/region.txt" || status=1

# 3. Kernel-only times, for the programs that finished in step 2.
# Each one's limit: GPU_MEASURE_LIMIT beyond what the sequential program
# took for the whole run (PolyBench's initialisation and dump, which the
# generated program does too on the host).
python3 - "$out" "$limit" >"$out/limits" <<'PY'
import json, sys
try:
    for r in json.load(open(f"{sys.argv[1]}/region.json"))["kernels"]:
        if r.get("cuda_ms") is not None:
            print(r["name"], int(float(sys.argv[2]) + (r.get("sequential_wall_ms") or 0) / 1e3 + 1))
except Exception:
    pass
PY
ktime=""
if [ "${GPU_MEASURE_KERNEL_ONLY:-1}" = 0 ]; then
  :
elif "$nvcc" -shared -Xcompiler -fPIC -cudart shared benches/gpu/kernel_time.c \
     -o "$out/kernel_time.so" -ldl 2>"$out/kernel_time.log"; then
  ktime=$(cd "$out" && pwd)/kernel_time.so
else
  echo "gpu-measure: kernel_time.so did not build (see $out/kernel_time.log)" >&2
  status=1
fi
: >"$out/kernel_only.tsv"
for name in ${all//,/ }; do
  exe="$out/work/$name/cuda"
  line="-"
  klimit=$(awk -v k="$name" '$1 == k { print $2 }' "$out/limits")
  if [ "${GPU_MEASURE_KERNEL_ONLY:-1}" = 0 ]; then
    line="- (left out: GPU_MEASURE_KERNEL_ONLY=0)"
  elif [ -z "$klimit" ]; then
    line="- (no region time in step 2: not run again)"
  elif [ -n "$ktime" ] && [ -x "$exe" ]; then
    # The program dumps its arrays on stderr: keep only the report.
    line=$(cd "$out/work/$name" && PENCILC_RUN=device LD_PRELOAD="$ktime" \
             timeout "$klimit" ./cuda 2>&1 >/dev/null | grep '^pencilc-ktime:' | tail -1)
    [ -n "$line" ] || line="- (no report: killed after ${klimit} s or failed)"
  fi
  printf '%s\t%s\n' "$name" "$line" >>"$out/kernel_only.tsv"
done

# 4. cuBLAS: nvcc finds it in the toolkit, else in a pip-installed wheel.
if [ "${GPU_MEASURE_CUBLAS:-1}" = 0 ]; then
  echo "cuBLAS left out (GPU_MEASURE_CUBLAS=0)" >"$out/cublas.txt"
else
cublas_flags=(-lcublas)
if ! echo 'int main(){}' | "$nvcc" -x cu - -lcublas -o /dev/null 2>/dev/null; then
  lib=$(find / -name 'libcublas.so.*' -not -path '*/proc/*' 2>/dev/null | head -1)
  inc=$(find / -name cublas_v2.h -not -path '*/proc/*' 2>/dev/null | head -1)
  # nvcc takes no versioned .so on its command line: hand it to the linker.
  [ -n "$lib" ] && [ -n "$inc" ] && cublas_flags=(-I"$(dirname "$inc")" -Xlinker "$lib" -Xlinker -rpath="$(dirname "$lib")")
fi
if "$nvcc" -O3 -arch=native -std=c++17 benches/gpu/cublas_gemm.cu "${cublas_flags[@]}" -o "$out/cublas_gemm"; then
  timeout "$limit" "$out/cublas_gemm" | tee "$out/cublas.txt" || status=1
else
  echo "gpu-measure: cuBLAS reference did not build" | tee "$out/cublas.txt"
  status=1
fi
fi

# 5. Data movement: staged against pageable copies, from the profile
# (staged-out: copies in pageable, copies out staged). The one-time
# pinning of the staging buffers counts as allocation (alloc_ms).
: >"$out/copies.tsv"
if [ "${GPU_MEASURE_COPIES:-1}" != 0 ]; then
  if "$nvcc" -O3 -arch=native -Xcompiler -fopenmp benches/gpu/pin_cost.cu -o "$out/pin_cost" \
       2>"$out/pin_cost.log"; then
    timeout 60 "$out/pin_cost" >"$out/pin_cost.tsv" 2>>"$out/pin_cost.log" || status=1
    cat "$out/pin_cost.tsv"
  else
    echo "gpu-measure: pin_cost did not build (see $out/pin_cost.log)" >&2
    status=1
  fi
  printf 'kernel\tcopy\trun\talloc_ms\tcopy_in_ms\tkernels_ms\tcopy_out_ms\tbytes_in\tbytes_out\n' >"$out/copies.tsv"
  for name in $(echo "${GPU_MEASURE_COPY_KERNELS:-atax,bicg,mvt,gesummv,gemver,2mm,correlation}" | tr ',' ' '); do
    klimit=$(awk -v k="$name" '$1 == k { print $2 }' "$out/limits")
    [ -n "$klimit" ] && [ -x "$out/work/$name/cuda" ] || continue
    for run in 1 2; do
      for copy in staged staged-1 pageable staged-out auto; do
        one_thread=()
        [ "$copy" = staged-1 ] && one_thread=(OMP_NUM_THREADS=1)
        (cd "$out/work/$name" && env "${one_thread[@]}" PENCILC_RUN=device PENCILC_PROFILE=1 \
           PENCILC_CUDA_COPY=${copy%-1} timeout "$klimit" ./cuda 2>&1 >/dev/null | grep '^pencilc profile:' | tail -1) |
          sed -E 's/.*alloc ([0-9.]+) ms, copy-in ([0-9.]+) ms, kernels ([0-9.]+) ms, copy-out ([0-9.]+) ms, bytes in ([0-9]+), bytes out ([0-9]+)/\1\t\2\t\3\t\4\t\5\t\6/' |
          sed "s/^/$name\t$copy\t$run\t/" >>"$out/copies.tsv"
      done
    done
  done
  cat "$out/copies.tsv"
fi

# 6. The GPU model's choices against what it turned down.
: >"$out/choices.txt"
if [ "${GPU_MEASURE_CHOICES:-1}" != 0 ]; then
  for hoist in auto never; do
    echo "--hoist $hoist" >>"$out/choices.txt"
    "$bin/pencilc-harness" --pencilc "$bin/pencilc" --polybench polybench \
      --no-opencl --cuda on --nvcc "$nvcc" --nvcc-flags "-arch=native -cudart shared -Xcompiler -fopenmp" \
      --versions device --timeout "$limit" --dataset "$dataset" --runs 3 \
      --kernels "${GPU_MEASURE_CHOICE_KERNELS:-trmm}" --pencilc-args "--hoist $hoist" \
      --work-dir "$out/choices-$hoist" --json "$out/choices-$hoist.json" \
      2>"$out/choices-$hoist.log" | tee -a "$out/choices.txt" || status=1
  done
  # Host loops of small launches as one block (--one-block-loops): the
  # time loop of jacobi-1d (1,000 launches of 63 blocks otherwise).
  for one in auto never; do
    echo "--one-block-loops $one" >>"$out/choices.txt"
    "$bin/pencilc-harness" --pencilc "$bin/pencilc" --polybench polybench \
      --no-opencl --cuda on --nvcc "$nvcc" --nvcc-flags "-arch=native -cudart shared -Xcompiler -fopenmp" \
      --versions device --timeout "$limit" --dataset "$dataset" --runs 3 \
      --kernels "${GPU_MEASURE_ONE_BLOCK_KERNELS:-jacobi-1d}" --pencilc-args "--one-block-loops $one" \
      --work-dir "$out/one-block-$one" --json "$out/one-block-$one.json" \
      2>"$out/one-block-$one.log" | tee -a "$out/choices.txt" || status=1
  done
  for tiles in model never; do
    echo "shared tiles: $tiles" >>"$out/choices.txt"
    keep=()
    [ "$tiles" = never ] && keep=(PENCILC_MODEL_TILES=never)
    env "${keep[@]}" "$bin/pencilc-harness" --pencilc "$bin/pencilc" --polybench polybench \
      --no-opencl --cuda on --nvcc "$nvcc" --nvcc-flags "-arch=native -cudart shared -Xcompiler -fopenmp" \
      --versions device --timeout "$limit" --dataset "$dataset" --runs 3 \
      --kernels "${GPU_MEASURE_TILE_KERNELS:-atax,mvt,gesummv,gemver,adi}" \
      --work-dir "$out/tiles-$tiles" --json "$out/tiles-$tiles.json" \
      2>"$out/tiles-$tiles.log" | tee -a "$out/choices.txt" || status=1
  done
  for combine in last-block kernel; do
    echo "reductions combined by: $combine" >>"$out/choices.txt"
    how=()
    [ "$combine" = kernel ] && how=(PENCILC_COMBINE=kernel)
    env "${how[@]}" "$bin/pencilc-harness" --pencilc "$bin/pencilc" --polybench polybench \
      --no-opencl --cuda on --nvcc "$nvcc" --nvcc-flags "-arch=native -cudart shared -Xcompiler -fopenmp" \
      --versions device --timeout "$limit" --dataset "$dataset" --runs 3 \
      --kernels "${GPU_MEASURE_COMBINE_KERNELS:-durbin,gramschmidt}" \
      --work-dir "$out/combine-$combine" --json "$out/combine-$combine.json" \
      2>"$out/combine-$combine.log" | tee -a "$out/choices.txt" || status=1
  done
fi

wait "$estimates"

# Summary: one row per kernel.
python3 - "$out" <<'PY' || status=1
import json, sys
out = sys.argv[1]
est = dict(l.rstrip("\n").split("\t", 1) for l in open(f"{out}/estimates.tsv") if "\t" in l)
kt = {}
for l in open(f"{out}/kernel_only.tsv"):
    name, _, rest = l.rstrip("\n").partition("\t")
    fields = dict(w.split("=", 1) for w in rest.split() if "=" in w)
    kt[name] = fields
try:
    region = {r["name"]: r for r in json.load(open(f"{out}/region.json"))["kernels"]}
except Exception:
    region = {}
def f(v):
    return "-" if v is None else f"{v:.3f}"
with open(f"{out}/summary.tsv", "w") as s:
    s.write("kernel\tsequential_ms\tregion_ms\tkernel_ms\tlaunches\testimate_ms\tcorrect\treassociated"
            "\talloc_ms\tcopy_in_ms\tkernels_ms\tcopy_out_ms\n")
    for name in est:
        r = region.get(name, {})
        k = kt.get(name, {})
        p = r.get("cuda_profile") or {}
        s.write("\t".join([name, f(r.get("sequential_ms")), f(r.get("cuda_ms")),
                           k.get("kernel_ms", "-"), k.get("launches", "-"), est[name],
                           str(r.get("cuda_correct", "-")),
                           "yes" if r.get("reassociated") else "no",
                           f(p.get("alloc_ms")), f(p.get("copy_in_ms")),
                           f(p.get("kernels_ms")), f(p.get("copy_out_ms"))]) + "\n")
print(open(f"{out}/summary.tsv").read())
PY
exit $status
