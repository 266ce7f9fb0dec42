/*
 * fakecuda: the part of the CUDA runtime's C API that pencilc's host code
 * calls, valid C and C++ (the host file is C; the kernel file, C++,
 * includes this through cuda_runtime.h). The functions are defined once,
 * in fakecuda_runtime.cpp; see cuda_runtime.h for what the emulation
 * promises.
 */
#ifndef FAKECUDA_CUDA_RUNTIME_API_H
#define FAKECUDA_CUDA_RUNTIME_API_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorLaunchFailure = 4
} cudaError_t;

enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3
};

const char *cudaGetErrorString(cudaError_t e);
cudaError_t cudaGetLastError(void);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaMalloc(void **p, size_t n);
cudaError_t cudaFree(void *p);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind);

/* Not CUDA's: how a failed launch in the kernel file reaches
 * cudaGetLastError. */
void fakecuda_set_error(cudaError_t e);

#ifdef __cplusplus
}
#endif

#endif
