#!/usr/bin/env bash
# scripts/fuzz.sh [SECONDS] -- runs the mutation fuzzer (tests/fuzz.rs) for
# SECONDS (default 3600) from a case number of its own (printed, so that
# PENCILC_FUZZ_START=N reproduces the run), shrinking each distinct failure
# for up to 10 minutes in all. Failures (input, minimized input, commands,
# pencilc's output) go to target/fuzz-failures/. Other PENCILC_FUZZ_*
# variables (see tests/fuzz.rs) pass through.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-3600}
# CI runs the cases from 0; a long run explores others.
start=${PENCILC_FUZZ_START:-$(( ($(date +%s) % 100000) * 10000 ))}
echo "fuzz: ${seconds} s from case ${start} (PENCILC_FUZZ_START=${start} reproduces it)"
PENCILC_FUZZ_SECONDS=$seconds PENCILC_FUZZ_START=$start \
  PENCILC_FUZZ_SHRINK=${PENCILC_FUZZ_SHRINK:-600} \
  exec cargo test --release --test fuzz -- --nocapture --exact mutants_never_crash_hang_or_compile_invalid_c
