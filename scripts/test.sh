#!/usr/bin/env bash
# scripts/test.sh [ARGS...] -- the project's test command (CI runs it via
# .ci/run).  Checks the system packages, checks pencil-headers/ in both of
# its modes, then runs `cargo test --release ARGS...` and lists the tests
# that could not run (PENCILC_NO_SKIP=1 makes those fail).
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
status=0
cargo test --release --no-fail-fast "$@" || status=$?
if [ -s target/test-skips.txt ]; then
  echo "test: SKIPPED (could not run):" >&2
  sed 's/^/  /' target/test-skips.txt >&2
fi
exit $status
