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

/* Streams and events: copies on a stream are deferred until something
 * waits for them (an event recorded after them, the stream, the device, or
 * a synchronous copy), so that a host that reuses a buffer before its copy
 * has left it sees the wrong data, as it could on a device. Kernels run
 * at once. */
typedef struct fakecuda_stream *cudaStream_t;
typedef struct fakecuda_event *cudaEvent_t;
#define cudaStreamDefault 0x0
#define cudaStreamNonBlocking 0x1
#define cudaEventDefault 0x0
#define cudaEventDisableTiming 0x2
#define cudaHostAllocDefault 0x0

const char *cudaGetErrorString(cudaError_t e);
cudaError_t cudaGetLastError(void);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaMalloc(void **p, size_t n);
cudaError_t cudaFree(void *p);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind);
cudaError_t cudaMemset(void *dst, int value, size_t n);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind, cudaStream_t stream);
cudaError_t cudaHostAlloc(void **p, size_t n, unsigned int flags);
cudaError_t cudaFreeHost(void *p);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned int flags);
cudaError_t cudaStreamSynchronize(cudaStream_t s);
cudaError_t cudaStreamDestroy(cudaStream_t s);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned int flags);
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s);
cudaError_t cudaEventSynchronize(cudaEvent_t e);
cudaError_t cudaEventDestroy(cudaEvent_t e);

/* Not CUDA's: how a failed launch in the kernel file reaches
 * cudaGetLastError. */
void fakecuda_set_error(cudaError_t e);
/* For FAKECUDA_COUNT: a valid launch of `blocks` blocks of `threads`. */
void fakecuda_count_launch(unsigned long blocks, unsigned long threads);

#ifdef __cplusplus
}
#endif

#endif
