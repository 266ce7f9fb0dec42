#!/usr/bin/env bash
# setup-nvcc.sh [DIR] -- get a CUDA compiler from PyPI for compile checks.
#
# Installs NVIDIA's pip wheels of nvcc (CUDA 13.5) into DIR (default:
# $NVCC_DIR, else target/nvcc under the repository root, which git ignores
# and `cargo clean` resets), then prints the path of nvcc on stdout.
# Nothing is installed when DIR already holds this exact set of wheels.
#
# The wheels give a complete toolkit for compiling AND linking CUDA
# programs (nvcc, cicc, ptxas, nvlink, fatbinary, the CUDA headers, and
# libcudart_static.a); see scripts/README.md for the command lines.  They
# do not give a driver (libcuda.so): programs only run on a machine with
# an NVIDIA GPU and driver.  nvcc also needs the system g++.
#
# Exit status: 0 ok; 2 pip, the network or the compiler failed; callers
# treat 2 as "skip the CUDA checks".
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
DIR=${1:-${NVCC_DIR:-$root/target/nvcc}}
NVCC=$DIR/nvidia/cu13/bin/nvcc

# nvcc and cccl are the two wheels asked for; the others are nvcc's own
# dependencies (unpinned in its metadata), pinned here to the same release
# so that the toolkit is reproducible:
#   nvidia-cuda-runtime  cuda_runtime.h & co, libcudart_static.a (linking)
#   nvidia-cuda-crt      the crt/ headers nvcc's front end includes
#   nvidia-nvvm          cicc, the device-code compiler, and libdevice
WHEELS=(
  nvidia-cuda-nvcc==13.5.37
  nvidia-cuda-cccl==13.3.5.0.6
  nvidia-cuda-runtime==13.5.37
  nvidia-cuda-crt==13.5.37
  nvidia-nvvm==13.5.37
)
STAMP=$DIR/.pencilc-wheels

skip() { echo "setup-nvcc: $*; skipping CUDA checks" >&2; exit 2; }

# An older install without a stamp is accepted as it is.
if [ -x "$NVCC" ] && { [ ! -f "$STAMP" ] || [ "$(cat "$STAMP")" = "${WHEELS[*]}" ]; }; then
  echo "$NVCC"
  exit 0
fi

command -v python3 >/dev/null 2>&1 || skip "python3 not found"

# Install next to DIR and move into place only when complete, so that an
# interrupted download never leaves a half toolkit that looks installed.
mkdir -p "$(dirname "$DIR")"
tmp=$(mktemp -d "$DIR.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
echo "setup-nvcc: installing ${WHEELS[*]} into $DIR" >&2
if ! PIP_ROOT_USER_ACTION=ignore PIP_DISABLE_PIP_VERSION_CHECK=1 \
     python3 -m pip install --quiet --no-warn-script-location \
       --target "$tmp" "${WHEELS[@]}" >&2; then
  skip "pip install failed (no network or no pip?)"
fi
[ -x "$tmp/nvidia/cu13/bin/nvcc" ] || skip "the wheels contain no nvidia/cu13/bin/nvcc"

# Smoke test before accepting: a kernel plus a host launch must compile.
cat >"$tmp/smoke.cu" <<'EOF'
#include <cuda_runtime.h>
__global__ void smoke(float *a) { a[threadIdx.x] = 1.0f; }
int main(void)
{
  float *d;
  if (cudaMalloc((void **)&d, 32 * sizeof(float)) != cudaSuccess)
    return 1;
  smoke<<<1, 32>>>(d);
  return cudaFree(d) != cudaSuccess;
}
EOF
if ! "$tmp/nvidia/cu13/bin/nvcc" -c "$tmp/smoke.cu" -o "$tmp/smoke.o" >&2; then
  skip "nvcc cannot compile a test kernel (is g++ installed?)"
fi
rm -f "$tmp/smoke.cu" "$tmp/smoke.o"
printf '%s\n' "${WHEELS[*]}" >"$tmp/.pencilc-wheels"

rm -rf "$DIR"
mv "$tmp" "$DIR"
trap - EXIT
echo "$NVCC"
