/* Pre-included (nvcc -include) into each PPCG program that
 * scripts/gpu-measure.sh and scripts/ppcg-check.sh build: creates the CUDA
 * context when the program loads, before PolyBench's timer starts, so that
 * the region time leaves CUDA's one-time context creation out, as it does
 * for pencilc's programs (built with -DPENCILC_TIME_SETUP, which time the
 * context's creation and print it for the harness to subtract). The same
 * as ../shared/gpu/warm.h of the H100 run. Not PPCG's. */
#include <cuda_runtime_api.h>
__attribute__((constructor)) static void ppcg_baseline_warm_cuda(void) { cudaFree(0); }
