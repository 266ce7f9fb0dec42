#!/usr/bin/env bash
# setup-deps.sh -- make sure the Debian packages pencilc needs are present.
#
#   autoconf automake libtool  isl-rs builds isl from source (autogen.sh,
#                              i.e. autoreconf + libtoolize, then configure)
#   gcc make pkg-config        C toolchain for isl, tree-sitter and the
#                              generated host code
#   ocl-icd-opencl-dev         <CL/cl.h> and libOpenCL.so to link against
#   pocl-opencl-icd            an OpenCL implementation that runs on the CPU
#   g++                        runs the generated CUDA on the CPU in the
#                              tests (tests/fakecuda), and is nvcc's host
#                              compiler for the CUDA builds
#   bsdutils                   `script`: the batch progress bar's test
#                              needs a terminal
#   clang                      the strict OpenCL C check of generated
#                              kernels (`clang -x cl -cl-std=CL1.2`)
#   cmake ninja-build          the build-step tests build examples/build-step
#                              with CMake (Ninja and Makefile generators),
#                              cmake/PencilcConfig.cmake's custom commands
#   clinfo (optional)          to inspect the OpenCL platforms
#
# Presence is tested by command or file, never by asking dpkg, so the
# script also works where the tools came from elsewhere.  All present:
# prints "deps: ok" and exits 0 (idempotent, nothing else is done).
# Something missing:
#   - as root: apt-get update && apt-get install -y <missing>, then re-check;
#   - otherwise: prints the one command to run and exits 1.
# PENCILC_NO_APT=1 forbids installing even as root (report and exit 1).
set -euo pipefail

missing=()    # required packages
optional=()   # nice to have

have() { command -v "$1" >/dev/null 2>&1; }

# ldconfig lives in /sbin, which is not on every user's PATH.
ldconfig_has() {
  local ldc
  ldc=$(command -v ldconfig 2>/dev/null || true)
  [ -n "$ldc" ] || { [ -x /sbin/ldconfig ] && ldc=/sbin/ldconfig; } || return 1
  "$ldc" -p 2>/dev/null | grep -q "$1"
}

have autoconf   || missing+=(autoconf)
have automake   || missing+=(automake)
# Debian's libtool package provides libtoolize and the libtool m4 macros
# (autoreconf needs both); the `libtool` command itself is libtool-bin.
have libtoolize || missing+=(libtool)
have gcc        || missing+=(gcc)
have make       || missing+=(make)
have pkg-config || missing+=(pkg-config)
have g++        || missing+=(g++)
have script     || missing+=(bsdutils)
have_clang() {
  local c
  for c in clang clang-19 clang-18 clang-17 clang-16 clang-15 clang-14; do
    have "$c" && return 0
  done
  return 1
}
have_clang      || missing+=(clang)
have cmake      || missing+=(cmake)
have ninja      || missing+=(ninja-build)

# OpenCL development files: header plus the unversioned libOpenCL.so that
# `-lOpenCL` resolves to.
if [ ! -f /usr/include/CL/cl.h ] ||
   ! { ldconfig_has 'libOpenCL\.so ' ||
       { have gcc && [ -f "$(gcc -print-file-name=libOpenCL.so)" ]; }; }; then
  missing+=(ocl-icd-opencl-dev)
fi
# The PoCL CPU driver registers itself with the ICD loader here.
if [ ! -f /etc/OpenCL/vendors/pocl.icd ]; then
  missing+=(pocl-opencl-icd)
fi

have clinfo || optional+=(clinfo)

if [ ${#missing[@]} -eq 0 ]; then
  if [ ${#optional[@]} -eq 0 ]; then
    echo "deps: ok"
  else
    echo "deps: ok (optional, not installed: ${optional[*]})"
  fi
  exit 0
fi

if [ "$(id -u)" -eq 0 ] && [ "${PENCILC_NO_APT:-0}" != 1 ] && have apt-get; then
  echo "deps: installing ${missing[*]} ${optional[*]-}" >&2
  if ! { apt-get update -qq &&
         DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
           "${missing[@]}" ${optional[@]+"${optional[@]}"}; } >&2
  then
    echo "deps: apt-get failed; install by hand: ${missing[*]}" >&2
    exit 1
  fi
  # Re-check from scratch, so a package that did not provide what we look
  # for is reported instead of silently accepted.
  exec env PENCILC_NO_APT=1 PENCILC_DEPS_INSTALLED=1 "$BASH" "$0" "$@"
fi

if [ "${PENCILC_DEPS_INSTALLED:-0}" = 1 ]; then
  echo "deps: still missing after apt-get install: ${missing[*]}" >&2
  exit 1
fi
echo "deps: missing required packages: ${missing[*]}; run:" >&2
echo "sudo apt-get install -y ${missing[*]}${optional[*]+ ${optional[*]}}"
exit 1
