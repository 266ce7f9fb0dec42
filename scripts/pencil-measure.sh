#!/usr/bin/env bash
# pencil-measure.sh [FILTER] -- what each PENCIL annotation changes on the
# corpus (examples/pencil/), in the manner of Tables 1, 4, 6 and 8 of the
# PENCIL paper: for each (program, annotation) pair the program is compiled
# to OpenCL with the annotation and without it (the annotation's lines
# removed, or its -DNO_* switch), at input sizes larger than the tests use,
# and run on PoCL (PENCILC_OPENCL_DEVICE=cpu). Printed per variant: the
# kernels pencilc generated (launch sites; reductions' combining kernels not
# counted) and their parallel dimensions, the bytes copied host->device and
# device->host, the wall time of the region (median of RUNS runs after
# one untimed run that fills PoCL's kernel cache). The region time is
# measured by the generated host code itself (-DPENCILC_TIME_REGION): from
# after the one-time OpenCL setup (device, context, program build) to the
# end of the copies back; and whether the output equals the sequential
# build's ("within 1e-3": floating-point numbers within that relative
# tolerance, integers exact). "no code" means pencilc rejected the variant
# (the annotation is required); the reason is printed below the table.
#
# Environment: RUNS (default 3), PENCILC (default target/release/pencilc),
# OUT (scratch directory, default target/pencil-measure).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
PENCILC=${PENCILC:-$root/target/release/pencilc}
OUT=${OUT:-$root/target/pencil-measure}
RUNS=${RUNS:-3}
FILTER=${1:-}
H=$root/pencil-headers
EX=$root/examples/pencil
mkdir -p "$OUT"
export PENCILC_OPENCL_DEVICE=cpu

# program | annotation | how the variant without it is made | sizes (sed on main's constants, or -D flags) | extra pencilc flags
EXPERIMENTS=(
  "convolution|assume|del:__pencil_assume|sed:s/ROWS = 256, COLS = 320/ROWS = 1607, COLS = 2880/|"
  "gemm_assume|assume|del:__pencil_assume|sed:s/N = 256 }/N = 1024 }/|"
  "gaussian|assume|del:__pencil_assume|sed:s/R = 200, C = 256/R = 1607, C = 2880/|"
  "kill|kill|def:-DNO_KILL|sed:s/N = 1 << 20/N = 1 << 24/|"
  "color|kill|del:__pencil_kill|sed:s/R = 240, C = 320/R = 1607, C = 2880/|"
  "resize|kill|del:__pencil_kill|sed:s/R = 200, C = 300, OR = 333, OC = 222/R = 1607, C = 2880, OR = 2400, OC = 1800/|"
  "bfs|independent|del:#pragma pencil independent|sed:s/N = 2000, DEG = 4/N = 400000, DEG = 4/|"
  "histogram|independent+reduction (int, atomics)|del:#pragma pencil independent|sed:s/ROWS = 480, COLS = 640/ROWS = 1607, COLS = 2880/|"
  "dot|reduction (float, tree)|del:#pragma pencil independent|def:-DN=8000000|"
  "image_max|reduction (max/min/+, tree)|del:#pragma pencil independent||"
  "weighted_hist|reduction (float array, private copies)|del:#pragma pencil independent|def:-DN=8000000|"
  "abf|summary|def:-DNO_SUMMARY|sed:s/N = 64 }/N = 128 }/|--opencl-include-file $EX/abf_fft32.cl"
  "dilate|non-affine (if on data)|none|sed:s/ROWS = 300, COLS = 400/ROWS = 1607, COLS = 2880/|"
  "spmv|non-affine (CSR bounds)|none|sed:s/N = 5000, PER = 7/N = 2000000, PER = 7/|"
)

median() { sort -n | awk '{a[NR]=$1} END {if (NR==0) print "-"; else print a[int((NR+1)/2)]}'; }

# variant NAME SRC DEFINES FLAGS -> one table row
measure() {
  local tag=$1 src=$2 defs=$3 flags=$4
  local dir=$OUT/$tag
  mkdir -p "$dir"
  local log=$dir/pencilc.log
  # shellcheck disable=SC2086
  if ! "$PENCILC" -v $defs $flags -o "$dir/host.c" "$src" >"$log" 2>&1; then
    echo "no code|-|-|-|-|$(grep -m1 -o 'error: .*' "$log" | cut -c1-100)"
    return
  fi
  local kernels dims
  kernels=$(grep -o '[0-9]* kernel(s)' "$log" | head -1 | cut -d' ' -f1)
  dims=$(grep -o 'parallel dims \[[^]]*\]' "$log" | head -1 | sed 's/parallel dims //')
  # shellcheck disable=SC2086
  cc -O2 -DPENCILC_TIME_REGION -I "$H" $defs "$dir/host.c" -lOpenCL -lm -o "$dir/par" 2>"$dir/cc.log"
  # shellcheck disable=SC2086
  cc -O2 -I "$H" $defs "$src" -lm -o "$dir/seq" 2>>"$dir/cc.log"
  # Some corpus programs keep large VLAs on the stack (gaussian's temp).
  (ulimit -s unlimited 2>/dev/null || true; "$dir/seq" >"$dir/seq.out")
  "$dir/par" >"$dir/par.out" 2>"$dir/warm.err"
  local same
  same=$(python3 - "$dir/seq.out" "$dir/par.out" <<'PY'
import re, sys
a, b = (open(f).read() for f in sys.argv[1:3])
if a == b:
    print("yes"); sys.exit()
ta, tb = (re.split(r"[\s=]+", t.strip()) for t in (a, b))
def close(x, y):
    try:
        int(x); int(y); return x == y
    except ValueError:
        pass
    try:
        fx, fy = float(x), float(y)
    except ValueError:
        return x == y
    return abs(fx - fy) <= 1e-3 * max(abs(fx), abs(fy))
print("within 1e-3" if len(ta) == len(tb) and all(map(close, ta, tb)) else "NO")
PY
)
  local times=() line
  for _ in $(seq "$RUNS"); do
    "$dir/par" >/dev/null 2>"$dir/run.err"
    line=$(grep pencilc-region "$dir/run.err")
    times+=("$(echo "$line" | awk '{print $5}')")
  done
  local to from
  to=$(echo "$line" | awk '{print $7}')
  from=$(echo "$line" | awk '{print $9}')
  echo "$kernels $dims|$to|$from|$(printf '%s\n' "${times[@]}" | median)|$same|"
}

printf '| program | annotation | variant | kernels [parallel dims] | bytes H->D | bytes D->H | region ms (PoCL) | output = seq |\n'
printf '|---|---|---|---|---|---|---|---|\n'
notes=()
for e in "${EXPERIMENTS[@]}"; do
  IFS='|' read -r prog ann without sizes flags <<<"$e"
  if [[ -n $FILTER && $prog != *$FILTER* ]]; then continue; fi
  flags=$(eval echo "$flags")
  base=$OUT/$prog.src.c
  defs=""
  case $sizes in
    sed:*) sed "${sizes#sed:}" "$EX/$prog.c" >"$base" ;;
    def:*) cp "$EX/$prog.c" "$base"; defs=${sizes#def:} ;;
    *) cp "$EX/$prog.c" "$base" ;;
  esac
  # The copy lives in $OUT; keep #include "..." of the corpus working.
  flags="$flags -I $EX"
  for variant in with without; do
    src=$base
    vdefs=$defs
    if [[ $variant == without ]]; then
      case $without in
        del:*) src=$OUT/$prog.without.c
               grep -v -E "^[[:space:]]*${without#del:}" "$base" >"$src" ;;
        def:*) vdefs="$defs ${without#def:}" ;;
        none) echo "| $prog | $ann | without | required: a compiler without it rejects the region (no OpenCL) | - | - | - | - |"
              continue ;;
      esac
    fi
    row=$(measure "$prog-$variant" "$src" "$vdefs" "$flags")
    IFS='|' read -r k to from ms same why <<<"$row"
    echo "| $prog | $ann | $variant | $k | $to | $from | $ms | $same |"
    if [[ -n $why ]]; then notes+=("$prog without $ann: $why"); fi
  done
done
for n in "${notes[@]+"${notes[@]}"}"; do echo "- $n"; done
