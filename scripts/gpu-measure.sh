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
# 2b. PPCG's CUDA for the same kernels (issue 30: pencilc's never slower
#     than PPCG's on the same GPU), as stored in benches/ppcg
#     (scripts/ppcg-baseline.sh ran PPCG 0.09 with its default options;
#     benches/ppcg/README.md), when that folder is there and
#     GPU_MEASURE_PPCG is not 0. Built before step 2, all at once on the
#     host's cores (each build GPU_MEASURE_PPCG_BUILD_LIMIT seconds,
#     default 120), with pencilc's nvcc flags, the CUDA context created
#     when the program loads (benches/ppcg/warm.h) so that the region time
#     leaves it out as it does for pencilc's; run after step 2 as pencilc's
#     programs ran (GPU_MEASURE_RUNS, GPU_MEASURE_LIMIT beyond the
#     sequential program's run, every array compared with step 2's
#     sequential dump: scripts/compare-dumps.py, 1e-9 relative). pencilc's
#     runs are the harness's own, so PPCG's follow them; with
#     GPU_MEASURE_PPCG_PAIRED=1 pencilc's program runs again before each of
#     PPCG's runs (pencilc, PPCG, pencilc, ...: one more run of each).
#     ppcg.tsv and ppcg-build.tsv say what happened to each; the summary
#     gets ppcg_ms, ppcg_correct and pencilc_paired_ms, and the geometric
#     mean of PPCG / pencilc over the kernels both finished correctly.
#     PPCG's failures leave the exit status as it is. PPCG translates all
#     30 kernels but its nussinov does not compile: 29 programs
#     (benches/ppcg/README.md). Cost, not yet measured
#     on a GPU machine: the builds (6-9 s a program with nvcc 13.5 on 2
#     cores here, in parallel on all of the host's) and one run of each
#     program per GPU_MEASURE_RUNS, mostly the arrays' initialisation and
#     dump, as for pencilc's in step 2.
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
#     (`--hoist never`), the privatised arrays it expanded
#     (GPU_MEASURE_EXPAND_KERNELS, default doitgen) against a copy per
#     thread (`--expand-private never`), the accumulations split in
#     partial results (GPU_MEASURE_SPLIT_KERNELS, default gramschmidt,
#     with `--reductions auto`) against `--split-reductions never`,
#     and those whose shared tiles it dropped
#     (GPU_MEASURE_TILE_KERNELS, default atax, mvt, gesummv, gemver, adi)
#     as chosen and with every tile kept (PENCILC_MODEL_TILES=never),
#     and the reductions (GPU_MEASURE_COMBINE_KERNELS, default durbin and
#     gramschmidt; ludcmp initialises for seconds) combined by each
#     launch's last block and by a combining kernel
#     (PENCILC_COMBINE=kernel), and the host loops of small launches
#     run as one block (GPU_MEASURE_ONE_BLOCK_KERNELS, default jacobi-1d)
#     against a launch per kernel and step (`--one-block-loops never`),
#     and the mappings of `--device nvidia-h100` and `nvidia-h200`
#     (GPU_MEASURE_DEVICE_KERNELS, default durbin and gramschmidt, where
#     the two GPU models choose differently), three runs each: choices.txt.
#     GPU_MEASURE_CHOICES=0 leaves it out.
#
# GPU_MEASURE_KERNELS=a,b,c measures only those kernels.
# GPU_MEASURE_MODEL_DEVICE=NAME|FILE: the description whose GPU model
# gives the estimates (default: nvidia-h200 on an H200, else nvidia-h100).
# GPU_MEASURE_POLYBENCH=DIR measures the PolyBench sources in DIR instead of
# the repository's polybench/ (for instance PolyBench/C 4.2.1 as
# distributed, whose mains print only each kernel's outputs, so that arrays
# dead after the kernel stay on the device). DIR gets polybench/kernels.txt
# where it has none (4.2.1 lays its kernels out the same way). PPCG's stored
# output is of polybench/, so step 2b is left out there.
# Writes OUT_DIR/summary.tsv (kernel, sequential, region and kernel-only ms,
# launches, the estimate, correctness, PPCG's region ms and correctness)
# and the harness's tables and JSON.
# OUT_DIR defaults to $OUT, else target/gpu-measure.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-${OUT:-target/gpu-measure}}
bin=${PENCILC_BIN_DIR:-target/release}
nvcc=${NVCC:-nvcc}
# Besides the harness's -O3 and --fmad=false, for pencilc's programs and
# PPCG's alike.
nvcc_flags="-arch=native -cudart shared -Xcompiler -fopenmp"
runs=${GPU_MEASURE_RUNS:-1}
limit=${GPU_MEASURE_LIMIT:-20}
dataset=${GPU_MEASURE_DATASET:-LARGE}
mkdir -p "$out"
status=0
pb=${GPU_MEASURE_POLYBENCH:-polybench}
if [ "$pb" != polybench ]; then
  [ -f "$pb/kernels.txt" ] || cp polybench/kernels.txt "$pb/kernels.txt"
  GPU_MEASURE_PPCG=0
fi

nvidia-smi -L || { echo "gpu-measure: no GPU (nvidia-smi -L failed)" >&2; exit 2; }
# The GPU model's constants for the estimates: the description fitted on
# this kind of GPU (GPU_MEASURE_MODEL_DEVICE overrides). The programs are
# built for the default description either way, so that their code is
# the code that the estimates price.
case "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" in
  *H200*) model_device=nvidia-h200 ;;
  *) model_device=nvidia-h100 ;;
esac
model_device=${GPU_MEASURE_MODEL_DEVICE:-$model_device}
echo "gpu-measure: GPU model estimates with --gpu-device $model_device"
"$nvcc" --version | tail -1
for b in pencilc pencilc-harness; do
  [ -x "$bin/$b" ] || { echo "gpu-measure: $bin/$b missing (build with cargo build --release, or set PENCILC_BIN_DIR)" >&2; exit 2; }
done
all=${GPU_MEASURE_KERNELS:-$(awk '!/^#/ && NF {print $1}' "$pb/kernels.txt" | paste -sd,)}

# 1. Estimates (CPU only, seconds): in the background, beside step 2's
# builds, so that they cost no device time of their own. The harness
# gives pencilc the dataset's sizes (tsteps too, which no array bounds),
# as it does for the programs step 2 builds.
(
  "$bin/pencilc-harness" --pencilc "$bin/pencilc" --polybench "$pb" \
    --gpu-model --gpu-device "$model_device" --dataset "$dataset" --kernels "$all" \
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

# 2b (builds). PPCG's programs (issue 30): its CUDA for the same kernels,
# stored in benches/ppcg (scripts/ppcg-baseline.sh; GPU_MEASURE_PPCG_DIR
# names another such folder), each built now as the harness builds
# pencilc's (nvcc -O3 $nvcc_flags --fmad=false, the same -I and -D),
# all at once on the host's cores before anything is timed. The CUDA
# context: pencilc's programs (-DPENCILC_TIME_SETUP) time its creation and
# print it, and the harness takes it off the region; PPCG's programs
# create it when they load (benches/ppcg/warm.h, pre-included), before
# PolyBench's timer starts. The sequential program is built too, in case
# step 2 leaves a kernel without a reference (pencilc failed on it).
ppcg=0
ppcg_dir=${GPU_MEASURE_PPCG_DIR:-benches/ppcg}
ppcg_work=$out/ppcg
: >"$out/ppcg-build.tsv"
if [ "${GPU_MEASURE_PPCG:-1}" != 0 ] && [ -f "$ppcg_dir/status.tsv" ]; then
  ppcg_dataset=$(sed -n 's/.*-D\([A-Z]*\)_DATASET.*/\1/p' "$ppcg_dir/status.tsv" | head -1)
  if [ "$ppcg_dataset" != "$dataset" ]; then
    echo "gpu-measure: $ppcg_dir holds PPCG's code for ${ppcg_dataset:-no} dataset, not $dataset (the sizes are in it): PPCG left out" >&2
  else
    ppcg=1
    rm -rf "$ppcg_work"
    mkdir -p "$ppcg_work"
    ppcg_build() {
      local name=$1 path=$2 stem d rc t0=$SECONDS why
      stem=$(basename "$path" .c)
      d=$ppcg_work/$name
      mkdir -p "$d"
      local fl=(-I polybench/utilities -I "polybench/$(dirname "$path")"
                -D"${dataset}_DATASET" -DPOLYBENCH_DUMP_ARRAYS -DPOLYBENCH_TIME)
      cc -O3 "${fl[@]}" polybench/utilities/polybench.c "polybench/$path" -lm \
        -o "$d/sequential" >"$d/cc.log" 2>&1
      why=$(awk -F'\t' -v k="$name" '$1 == k && $2 != "ok" {print $2}' "$ppcg_dir/status.tsv")
      if ! [ -f "$ppcg_dir/$name/${stem}_host.cu" ]; then
        printf '%s\tnot translated (PPCG: %s)\t-\n' "$name" "${why:-no files}"
        return
      fi
      timeout "$ppcg_build_limit" "$nvcc" -O3 $nvcc_flags --fmad=false "${fl[@]}" \
        -include benches/ppcg/warm.h "$ppcg_dir/$name/${stem}_host.cu" \
        "$ppcg_dir/$name/${stem}_kernel.cu" polybench/utilities/polybench.c \
        -o "$d/ppcg" >"$d/nvcc.log" 2>&1
      rc=$?
      if [ $rc = 0 ]; then
        why=built
      elif [ $rc = 124 ]; then
        why="not built (nvcc not done in ${ppcg_build_limit} s)"
      else
        why="not built (nvcc: exit status $rc; $(grep -m1 -i 'error' "$d/nvcc.log" | cut -c1-160))"
      fi
      printf '%s\t%s\t%s\n' "$name" "$why" "$((SECONDS - t0))"
    }
    export -f ppcg_build
    export ppcg_dir ppcg_work dataset nvcc nvcc_flags
    export ppcg_build_limit=${GPU_MEASURE_PPCG_BUILD_LIMIT:-120}
    ppcg_t0=$SECONDS
    for name in ${all//,/ }; do
      awk -v k="$name" '$1 == k {print $1, $2}' "$pb/kernels.txt"
    done | xargs -P "$(nproc)" -L 1 bash -c 'ppcg_build "$0" "$1"' >"$out/ppcg-build.tsv"
    echo "PPCG: $(grep -c $'\tbuilt\t' "$out/ppcg-build.tsv") of $(wc -l <"$out/ppcg-build.tsv") programs built in $((SECONDS - ppcg_t0)) s ($out/ppcg-build.tsv)"
  fi
fi

# 2. Region times and correctness.
"$bin/pencilc-harness" --pencilc "$bin/pencilc" --polybench "$pb" \
  --no-opencl --cuda on --nvcc "$nvcc" --nvcc-flags "$nvcc_flags" \
  --versions device --timeout "$limit" --dataset "$dataset" --runs "$runs" \
  --kernels "$all" --work-dir "$out/work" --json "$out/region.json" \
  --reference-jobs "$(nproc)" \
  2>"$out/region.log" | tee "$out/region.txt" || status=1

# 2b (runs). PPCG's programs, run as step 2 ran pencilc's: GPU_MEASURE_RUNS
# runs each, the median of PolyBench's time, each run limited to
# GPU_MEASURE_LIMIT seconds beyond the sequential program's whole run,
# the first run's arrays compared with the sequential program's dump
# (step 2's reference) by scripts/compare-dumps.py at the harness's
# tolerance (1e-9 relative; PPCG reassociates no sums). The harness runs
# pencilc's programs by itself, so PPCG's runs come after them, kernel by
# kernel; with GPU_MEASURE_PPCG_PAIRED=1 pencilc's program (built in step
# 2) runs again before each of PPCG's runs, alternately, and the ratio is
# also taken from those (pencilc_paired_ms; each run initialises and dumps
# the arrays, so this costs about as much device time as PPCG's runs).
: >"$out/ppcg.tsv"
if [ $ppcg = 1 ]; then
  python3 - "$out" "$limit" >"$out/ppcg-limits" <<'PY'
import json, sys
try:
    for r in json.load(open(f"{sys.argv[1]}/region.json"))["kernels"]:
        w = r.get("sequential_wall_ms")
        if w is not None:
            print(r["name"], int(float(sys.argv[2]) + w / 1e3 + 1))
except Exception:
    pass
PY
  # PolyBench's time: the last line of stdout that is a number.
  pb_seconds() { awk 'NF == 1 && $1 ~ /^[0-9.]+([eE][-+]?[0-9]+)?$/ { t = $1 } END { print t }' "$1"; }
  # The median as the harness takes it: the upper one of an even count.
  median() { [ $# = 0 ] && { echo -; return; }; printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int(NR / 2) + 1] }'; }
  for name in ${all//,/ }; do
    d=$ppcg_work/$name
    built=$(awk -F'\t' -v k="$name" '$1 == k {print $2}' "$out/ppcg-build.tsv")
    if [ "$built" != built ]; then
      printf '%s\t-\t-\t-\t%s\n' "$name" "${built:-not built}" >>"$out/ppcg.tsv"
      continue
    fi
    ref=$out/work/$name/sequential.stderr
    klimit=$(awk -v k="$name" '$1 == k { print $2 }' "$out/ppcg-limits")
    if [ ! -s "$ref" ] || [ -z "$klimit" ]; then
      # No reference from step 2: the sequential program built in 2b.
      ref=$d/sequential.stderr
      s0=$SECONDS
      (cd "$d" && timeout 600 ./sequential >sequential.stdout 2>sequential.stderr)
      klimit=$((limit + SECONDS - s0 + 1))
    fi
    note="" times=() paired=()
    for ((run = 1; run <= runs; run++)); do
      if [ "${GPU_MEASURE_PPCG_PAIRED:-0}" = 1 ] && [ -x "$out/work/$name/cuda" ]; then
        if (cd "$out/work/$name" && PENCILC_RUN=device PENCILC_PROFILE=1 timeout "$klimit" ./cuda \
              >paired.stdout 2>paired.stderr); then
          t=$(pb_seconds "$out/work/$name/paired.stdout")
          setup=$(awk '/^pencilc: (CUDA|OpenCL|OpenMP) setup / { s += $4 } END { print s + 0 }' "$out/work/$name/paired.stderr")
          [ -n "$t" ] && paired+=("$(awk -v t="$t" -v s="$setup" 'BEGIN { v = (t - s) * 1e3; if (v < 0) v = 0; printf "%.4f", v }')")
        fi
      fi
      (cd "$d" && timeout "$klimit" ./ppcg >run$run.stdout 2>run$run.stderr)
      rc=$?
      if [ $rc = 124 ]; then
        note="still running after ${klimit} s; stopped"
        break
      elif [ $rc != 0 ]; then
        note="failed (exit status $rc: $(grep -m1 -v '^[-0-9.eE+ ]*$' "$d/run$run.stderr" | cut -c1-160))"
        break
      fi
      t=$(pb_seconds "$d/run$run.stdout")
      [ -n "$t" ] || { note="no PolyBench time on stdout"; break; }
      times+=("$(awk -v t="$t" 'BEGIN { printf "%.4f", t * 1e3 }')")
    done
    if [ -n "$note" ]; then
      printf '%s\t-\t-\t%s\t%s\n' "$name" "$(median "${paired[@]}")" "$note" >>"$out/ppcg.tsv"
      continue
    fi
    if c=$(python3 scripts/compare-dumps.py "$ref" "$d/run1.stderr" "${GPU_MEASURE_PPCG_TOLERANCE:-1e-9}"); then
      correct=True
    else
      correct=False
    fi
    printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$(median "${times[@]}")" "$correct" "$(median "${paired[@]}")" "$c" >>"$out/ppcg.tsv"
  done
  column -t -s $'\t' "$out/ppcg.tsv" | cut -c1-160
fi

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
    "$bin/pencilc-harness" --pencilc "$bin/pencilc" --polybench "$pb" \
      --no-opencl --cuda on --nvcc "$nvcc" --nvcc-flags "$nvcc_flags" \
      --versions device --timeout "$limit" --dataset "$dataset" --runs 3 \
      --kernels "${GPU_MEASURE_CHOICE_KERNELS:-trmm}" --pencilc-args "--hoist $hoist" \
      --work-dir "$out/choices-$hoist" --json "$out/choices-$hoist.json" \
      2>"$out/choices-$hoist.log" | tee -a "$out/choices.txt" || status=1
  done
  # Privatised arrays with a copy per iteration in device memory
  # (--expand-private): doitgen's sum, against a copy per thread.
  for expand in auto never; do
    echo "--expand-private $expand" >>"$out/choices.txt"
    "$bin/pencilc-harness" --pencilc "$bin/pencilc" --polybench "$pb" \
      --no-opencl --cuda on --nvcc "$nvcc" --nvcc-flags "$nvcc_flags" \
      --versions device --timeout "$limit" --dataset "$dataset" --runs 3 \
      --kernels "${GPU_MEASURE_EXPAND_KERNELS:-doitgen}" --pencilc-args "--expand-private $expand" \
      --work-dir "$out/expand-$expand" --json "$out/expand-$expand.json" \
      2>"$out/expand-$expand.log" | tee -a "$out/choices.txt" || status=1
  done
  # Accumulations inside parallel loops split in partial results
  # (--split-reductions): gramschmidt's products, with its sums
  # reassociated (kernels.txt keeps their order, `--reductions=exact`;
  # its rank-deficient data may then differ beyond the tolerance: the
  # times count here), against a thread per column.
  for split in auto never; do
    echo "--reductions auto --split-reductions $split" >>"$out/choices.txt"
    "$bin/pencilc-harness" --pencilc "$bin/pencilc" --polybench "$pb" \
      --no-opencl --cuda on --nvcc "$nvcc" --nvcc-flags "$nvcc_flags" \
      --versions device --timeout "$limit" --dataset "$dataset" --runs 3 \
      --kernels "${GPU_MEASURE_SPLIT_KERNELS:-gramschmidt}" \
      --pencilc-args "--reductions auto --split-reductions $split" \
      --work-dir "$out/split-$split" --json "$out/split-$split.json" \
      2>"$out/split-$split.log" | tee -a "$out/choices.txt" || status=1
  done
  # Host loops of small launches as one block (--one-block-loops): the
  # time loop of jacobi-1d (1,000 launches of 63 blocks otherwise).
  for one in auto never; do
    echo "--one-block-loops $one" >>"$out/choices.txt"
    "$bin/pencilc-harness" --pencilc "$bin/pencilc" --polybench "$pb" \
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
    env "${keep[@]}" "$bin/pencilc-harness" --pencilc "$bin/pencilc" --polybench "$pb" \
      --no-opencl --cuda on --nvcc "$nvcc" --nvcc-flags "$nvcc_flags" \
      --versions device --timeout "$limit" --dataset "$dataset" --runs 3 \
      --kernels "${GPU_MEASURE_TILE_KERNELS:-atax,mvt,gesummv,gemver,adi}" \
      --work-dir "$out/tiles-$tiles" --json "$out/tiles-$tiles.json" \
      2>"$out/tiles-$tiles.log" | tee -a "$out/choices.txt" || status=1
  done
  # The two NVIDIA descriptions' mappings, where their GPU models choose
  # differently (durbin's set-up statements, gramschmidt's column tiles).
  for dev in nvidia-h100 nvidia-h200; do
    echo "--device $dev" >>"$out/choices.txt"
    "$bin/pencilc-harness" --pencilc "$bin/pencilc" --polybench "$pb" \
      --no-opencl --cuda on --nvcc "$nvcc" --nvcc-flags "$nvcc_flags" \
      --versions device --timeout "$limit" --dataset "$dataset" --runs 3 \
      --kernels "${GPU_MEASURE_DEVICE_KERNELS:-durbin,gramschmidt}" --pencilc-args "--device $dev" \
      --work-dir "$out/device-$dev" --json "$out/device-$dev.json" \
      2>"$out/device-$dev.log" | tee -a "$out/choices.txt" || status=1
  done
  for combine in last-block kernel; do
    echo "reductions combined by: $combine" >>"$out/choices.txt"
    how=()
    [ "$combine" = kernel ] && how=(PENCILC_COMBINE=kernel)
    env "${how[@]}" "$bin/pencilc-harness" --pencilc "$bin/pencilc" --polybench "$pb" \
      --no-opencl --cuda on --nvcc "$nvcc" --nvcc-flags "$nvcc_flags" \
      --versions device --timeout "$limit" --dataset "$dataset" --runs 3 \
      --kernels "${GPU_MEASURE_COMBINE_KERNELS:-durbin,gramschmidt}" \
      --work-dir "$out/combine-$combine" --json "$out/combine-$combine.json" \
      2>"$out/combine-$combine.log" | tee -a "$out/choices.txt" || status=1
  done
fi

wait "$estimates"

# Summary: one row per kernel.
python3 - "$out" <<'PY' || status=1
import json, math, sys
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
# PPCG (step 2b): kernel, ms, correct, pencilc's paired ms, what happened.
ppcg = {}
for l in open(f"{out}/ppcg.tsv"):
    c = l.rstrip("\n").split("\t")
    if len(c) >= 4:
        ppcg[c[0]] = c
def f(v):
    return "-" if v is None else f"{v:.3f}"
def num(v):
    try:
        return float(v)
    except ValueError:
        return 0.0
ratios, paired_ratios = [], []
with open(f"{out}/summary.tsv", "w") as s:
    s.write("kernel\tsequential_ms\tregion_ms\tkernel_ms\tlaunches\testimate_ms\tcorrect\treassociated"
            "\talloc_ms\tcopy_in_ms\tkernels_ms\tcopy_out_ms\tppcg_ms\tppcg_correct\tpencilc_paired_ms\n")
    for name in est:
        r = region.get(name, {})
        k = kt.get(name, {})
        p = r.get("cuda_profile") or {}
        q = ppcg.get(name, [name, "-", "-", "-"])
        s.write("\t".join([name, f(r.get("sequential_ms")), f(r.get("cuda_ms")),
                           k.get("kernel_ms", "-"), k.get("launches", "-"), est[name],
                           str(r.get("cuda_correct", "-")),
                           "yes" if r.get("reassociated") else "no",
                           f(p.get("alloc_ms")), f(p.get("copy_in_ms")),
                           f(p.get("kernels_ms")), f(p.get("copy_out_ms")),
                           q[1], q[2], q[3]]) + "\n")
        if q[2] == "True" and r.get("cuda_correct") is True and (r.get("cuda_ms") or 0) > 0:
            ratios.append(num(q[1]) / r["cuda_ms"])
            if num(q[3]) > 0:
                paired_ratios.append(num(q[1]) / num(q[3]))
print(open(f"{out}/summary.tsv").read())
def gmean(v):
    return math.exp(sum(math.log(max(x, 1e-12)) for x in v) / len(v))
if ppcg:
    if ratios:
        print(f"PPCG / pencilc region time, geometric mean over the {len(ratios)} kernels both "
              f"finished correctly: {gmean(ratios):.3f} (above 1: pencilc faster)")
    else:
        print("PPCG / pencilc: no kernel both finished correctly")
    if paired_ratios:
        print(f"  with pencilc's paired runs (GPU_MEASURE_PPCG_PAIRED=1), over {len(paired_ratios)} "
              f"kernels: {gmean(paired_ratios):.3f}")
PY
exit $status
