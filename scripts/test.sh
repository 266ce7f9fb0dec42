#!/usr/bin/env bash
# scripts/test.sh [ARGS...] -- the project's test command (CI runs it via
# .ci/run).  Checks the system packages, checks pencil-headers/ in both of
# its modes, then runs `cargo test --release ARGS...`.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup-deps.sh
scripts/check-headers.sh

if ! command -v cargo >/dev/null 2>&1; then
  echo "test: cargo not found; install Rust (https://rustup.rs)" >&2
  exit 1
fi
exec cargo test --release --no-fail-fast "$@"
