#!/bin/bash
# How many of the C files in DIR pencilc accepts: each is compiled with
# `pencilc --target opencl` (and any further ARGS); accepted means exit 0
# and a host file that the C compiler reads without error (-fsyntax-only).
# Prints one line per file (`name ok`, `name build-fail`, `name rejected
# E0xxx message`), then the counts and the rejections by code.
# Usage: scripts/acceptance.sh DIR [ARGS...]
set -u
dir=${1:?usage: scripts/acceptance.sh DIR [ARGS...]}
shift
root=$(cd "$(dirname "$0")/.." && pwd)
pencilc=${PENCILC:-$root/target/release/pencilc}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for f in "$dir"/*.c; do
  n=$(basename "$f" .c)
  if timeout 60 "$pencilc" --target opencl "$@" -o "$out/$n.c" "$f" >"$out/$n.log" 2>&1; then
    if cc -fsyntax-only -w -I "$root/pencil-headers" "$out/$n.c" 2>/dev/null; then
      echo "$n ok"
    else
      echo "$n build-fail"
    fi
  else
    msg=$(grep -m1 'error' "$out/$n.log" | sed 's/.*error: //')
    echo "$n rejected $msg"
  fi
done | tee "$out/all"
echo "--"
awk '{print $2}' "$out/all" | sort | uniq -c
grep ' rejected ' "$out/all" | grep -o '\[E[0-9]*\]$' | sort | uniq -c | sort -rn
