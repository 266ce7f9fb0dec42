#!/usr/bin/env bash
# scripts/test.sh [ARGS...] -- the project's test command (CI runs it via
# .ci/run).  Checks the system packages, checks pencil-headers/ in both of
# its modes, builds the tests, runs every test binary and lists the tests
# that could not run (PENCILC_NO_SKIP=1 makes those fail).
#
# Without ARGS the test binaries run PENCILC_TEST_LANES at a time (default
# 2), longest first, each with its usual test threads; each binary's
# output is printed whole when it ends, then a table of their times.
# `cargo test` runs one binary after another, and the binaries with one
# long test (corpus_builds, fakecl) or a few (dsl) left a core idle: on 2
# cores the suite used 1.6 on average (docs/testing.md).
# PENCILC_TEST_ONLY=REGEX runs only the binaries whose names match
# (`programs`, `cli`; the library's unit tests are `pencilc`).
# With ARGS (or a bash older than 5.1) it is `cargo test --release
# --no-fail-fast ARGS...`, as before.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup-deps.sh
scripts/check-headers.sh

if ! command -v cargo >/dev/null 2>&1; then
  echo "test: cargo not found; install Rust (https://rustup.rs)" >&2
  exit 1
fi
# Tests that could not run (a tool missing) list themselves here; with
# PENCILC_NO_SKIP set (CI) they fail instead.
rm -f target/test-skips.txt

report_skips() {
  if [ -s target/test-skips.txt ]; then
    echo "test: SKIPPED (could not run):" >&2
    sed 's/^/  /' target/test-skips.txt >&2
  fi
}

# `wait -n -p` (which binary ended) is bash 5.1's; an older bash runs the
# binaries one after another, through cargo.
old_bash=0
if [ "${BASH_VERSINFO[0]}" -lt 5 ] || { [ "${BASH_VERSINFO[0]}" -eq 5 ] && [ "${BASH_VERSINFO[1]}" -lt 1 ]; }; then
  old_bash=1
fi
if [ $# -gt 0 ] || [ $old_bash -eq 1 ]; then
  status=0
  cargo test --release --no-fail-fast "$@" || status=$?
  report_skips
  exit $status
fi

# Build every test binary; cargo's JSON names each one's executable. The
# test binaries are those under deps/ (the programs themselves, built for
# the tests to run, are not).
mkdir -p target
cargo test --release --no-run --message-format=json-render-diagnostics \
  > target/test-build.json
mapfile -t binaries < <(grep -o '"executable":"[^"]*"' target/test-build.json \
  | sed 's/^"executable":"//; s/"$//' | grep '/deps/[^/]*$' | sort -u)
if [ ${#binaries[@]} -eq 0 ]; then
  echo "test: cargo built no test binary" >&2
  exit 1
fi

# Longest first (seconds each took one at a time on 2 cores, at b17fdf7,
# docs/testing.md); a binary not listed goes after them, in name order.
expected() {
  case "$1" in
    programs) echo 1086 ;; polybench_opencl) echo 512 ;;
    corpus_builds) echo 466 ;; fakecl) echo 210 ;; dsl) echo 207 ;;
    schedule_property) echo 198 ;; gpu_mapping) echo 119 ;;
    fakecuda) echo 97 ;; pencil) echo 88 ;; build_step) echo 83 ;;
    cuda_compile) echo 82 ;; fuzz) echo 61 ;; forward_property) echo 54 ;;
    ladder) echo 53 ;; *) echo 0 ;;
  esac
}
name_of() { basename "$1" | sed 's/-[0-9a-f]*$//'; }
ordered=()
while read -r _ path; do ordered+=("$path"); done < <(
  for b in "${binaries[@]}"; do
    if [ -n "${PENCILC_TEST_ONLY:-}" ] && ! [[ $(name_of "$b") =~ $PENCILC_TEST_ONLY ]]; then
      continue
    fi
    printf '%s %s\n' "$(expected "$(name_of "$b")")" "$b"
  done | sort -k1,1nr -k2,2)
if [ ${#ordered[@]} -eq 0 ]; then
  echo "test: no test binary matches PENCILC_TEST_ONLY=${PENCILC_TEST_ONLY:-}" >&2
  exit 1
fi

lanes=${PENCILC_TEST_LANES:-2}
if ! [[ $lanes =~ ^[1-9][0-9]*$ ]]; then
  echo "test: PENCILC_TEST_LANES must be a positive number (got '$lanes')" >&2
  exit 2
fi
logs=target/test-logs
rm -rf "$logs"
mkdir -p "$logs"
declare -A started=() pid_of=()
failed=()
summary=()

finish() {  # finish PID RC: prints the binary's log and records its result
  local pid=$1 rc=$2 b name secs verdict
  b=${pid_of[$pid]}
  name=$(name_of "$b")
  secs=$(( $(date +%s) - ${started[$pid]} ))
  verdict=ok
  [ "$rc" -eq 0 ] || verdict="FAILED (exit $rc)"
  echo
  echo "==== $name: $verdict in ${secs} s"
  cat "$logs/$(basename "$b").log"
  summary+=("$(printf '%-22s %6s s  %s' "$name" "$secs" "$verdict")")
  [ "$rc" -eq 0 ] || failed+=("$name")
  unset "pid_of[$pid]"
}
wait_one() {  # waits for whichever running binary ends first
  local done_pid="" rc=0
  wait -n -p done_pid || rc=$?
  finish "$done_pid" "$rc"
}

t0=$(date +%s)
for b in "${ordered[@]}"; do
  while [ ${#pid_of[@]} -ge "$lanes" ]; do wait_one; done
  "$b" > "$logs/$(basename "$b").log" 2>&1 &
  pid_of[$!]=$b
  started[$!]=$(date +%s)
done
while [ ${#pid_of[@]} -gt 0 ]; do wait_one; done

# Documentation tests (none today; cargo test would run them).
status=0
doc_log=$logs/doc.log
if ! cargo test --release --doc > "$doc_log" 2>&1; then
  failed+=("doc-tests")
fi
grep -h "test result" "$doc_log" || true

echo
echo "==== test binaries, $lanes at a time: $(( $(date +%s) - t0 )) s in all"
printf '%s\n' "${summary[@]}"
report_skips
if [ ${#failed[@]} -gt 0 ]; then
  echo "test: FAILED: ${failed[*]}" >&2
  status=1
fi
exit $status
