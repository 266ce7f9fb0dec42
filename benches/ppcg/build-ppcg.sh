#!/usr/bin/env bash
# Builds PPCG 0.09 (ppcg 6ed0d36, isl 433e17b9, pet 824ab35) with its bundled
# isl and pet, against Debian 12's clang 14, into $PREFIX.
# Sources: the ppcg-gpu/{ppcg,isl,pet} GitHub mirrors of the upstream
# repositories (repo.or.cz), as bare git dirs ($MIRROR/ppcg-gpu+NAME/repo,
# how this workspace stores fetched repositories). The three commits are
# upstream's (the H100 run's notes name them), so bare clones of
# git://repo.or.cz/{ppcg,isl,pet}.git put there should do too (not tried).
# Every command used is here; PPCG itself is not part of pencilc.
# `ppcg --version` prints UNKNOWN: a `git archive` tree has no .git.
set -euo pipefail
MIRROR=${MIRROR:-/work/.mirror}
BUILD=${BUILD:-/work/ppcg-build}
PREFIX=${PREFIX:-/work/ppcg-install}
JOBS=${JOBS:-2}
PPCG_COMMIT=6ed0d3690a98e83de654b18389d502fcc376cb1d
ISL_COMMIT=433e17b9bccf4417725744316dff8a44caedcbcc
PET_COMMIT=824ab35b60bab089fb699e521e2e3bc6c07ce95a

# Build dependencies (as root).
if [ "${SKIP_APT:-0}" = 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
    libclang-dev libclang-cpp-dev llvm-dev libgmp-dev libyaml-dev \
    autoconf automake libtool pkg-config
fi

mkdir -p "$BUILD"
cd "$BUILD"
rm -rf ppcg
git --git-dir="$MIRROR/ppcg-gpu+ppcg/repo" archive --prefix=ppcg/ "$PPCG_COMMIT" | tar x
# ppcg's submodules (the commits it records for isl and pet are these).
git --git-dir="$MIRROR/ppcg-gpu+isl/repo" archive --prefix=ppcg/isl/ "$ISL_COMMIT" | tar x
git --git-dir="$MIRROR/ppcg-gpu+pet/repo" archive --prefix=ppcg/pet/ "$PET_COMMIT" | tar x
cd ppcg
./autogen.sh
./configure --prefix="$PREFIX" --with-isl=bundled --with-pet=bundled
make -j"$JOBS"
make install
"$PREFIX/bin/ppcg" --version
