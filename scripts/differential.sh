#!/usr/bin/env bash
# Differential testing at scale: runs N random programs (default 10000)
# through tests/schedule_property.rs and prints a summary: programs, runs,
# miscompiles (wrong output), other failures, notes (right output after a
# fallback), and the time taken. Failures are saved, with a reproducer and a
# shrunk program, under target/proptest-failures/.
#
#   scripts/differential.sh [N] [--all]
#
# --all compiles every case with every setting (four C settings, OpenCL on
# PoCL, emulated CUDA) instead of the default split (C with pencilc's
# default scheduler on every case, the other C settings in turn, OpenCL and
# CUDA each on every fourth case). PENCILC_PROPTEST_SEED picks another
# family of programs; the exit status is non-zero when something failed.
set -u
cd "$(dirname "$0")/.."
n=10000
all=
for a in "$@"; do
    case "$a" in
        --all) all=1 ;;
        ''|*[!0-9]*) echo "usage: $0 [N] [--all]" >&2; exit 2 ;;
        *) n=$a ;;
    esac
done
log=target/differential.log
mkdir -p target
start=$(date +%s)
env PENCILC_PROPTEST_CASES=$n ${all:+PENCILC_PROPTEST_ALL=1} \
    cargo test --release --test schedule_property random_affine_nests -- --nocapture >"$log" 2>&1
status=$?
end=$(date +%s)
# The per-setting table, the warnings grouped, and the test's own summary.
sed -n '/^schedule property test:/,/^SUMMARY/p' "$log" | grep -v '^warning ('
summary=$(grep '^SUMMARY' "$log" | tail -1)
if [ -z "$summary" ]; then
    echo "no summary: the test did not finish; see $log" >&2
    tail -30 "$log" >&2
    exit 1
fi
get() { sed -n "s/.* $1=\([0-9]*\).*/\1/p" <<<"$summary"; }
echo
echo "programs:    $(get programs) (runs: $(get runs), passed: $(get passed))"
echo "miscompiles: $(get miscompiles)"
echo "failures:    $(get failures) (miscompiles included; known issues listed above)"
echo "notes:       $(get notes) (right output after a fallback)"
echo "originals cc -O1 miscompiles: $(get cc_miscompiled_originals) (their -fno-ivopts build is the reference)"
echo "time:        $((end - start)) s"
[ "$status" -eq 0 ] || echo "failures are saved in target/proptest-failures/; full log: $log"
exit "$status"
