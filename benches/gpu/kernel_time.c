/* kernel_time.so: an LD_PRELOAD library for CUDA programs linked with
 * `-cudart shared`. It brackets every kernel launch with two CUDA events
 * on the launch's stream (no synchronisation between launches, so the
 * program runs as it would) and, at exit, prints the launches and the sum
 * of their event-to-event times on stderr:
 *
 *   pencilc-ktime: launches=N kernel_ms=T unmeasured=U
 *
 * Build: nvcc -shared -Xcompiler -fPIC -cudart shared kernel_time.c -o kernel_time.so -ldl
 * Used by scripts/gpu-measure.sh for the kernel-only column. */
#define _GNU_SOURCE
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

typedef cudaError_t (*launch_fn)(const void *, dim3, dim3, void **, size_t, cudaStream_t);

/* Event pairs, grown as launches come; past `limit` launches are counted
 * but not timed (each pair holds driver resources). */
static cudaEvent_t (*pairs)[2];
static size_t used, capacity, untimed;
static const size_t limit = 1u << 20;
static int inside; /* a launch API that calls another one is one launch */

static void print_total(void)
{
    double total = 0;
    size_t failed = 0;
    cudaDeviceSynchronize();
    for (size_t i = 0; i < used; i++) {
        float ms = 0;
        if (cudaEventElapsedTime(&ms, pairs[i][0], pairs[i][1]) == cudaSuccess)
            total += ms;
        else
            failed++;
    }
    fprintf(stderr, "pencilc-ktime: launches=%zu kernel_ms=%.4f unmeasured=%zu\n",
            used + untimed, total, failed + untimed);
}

static cudaError_t bracket(launch_fn real, const void *f, dim3 grid, dim3 block,
                           void **args, size_t shared, cudaStream_t stream)
{
    static int registered;
    if (!registered) {
        registered = 1;
        atexit(print_total);
    }
    if (inside)
        return real(f, grid, block, args, shared, stream);
    cudaEvent_t *pair = NULL;
    if (used == capacity && capacity < limit) {
        size_t grown = capacity ? capacity * 2 : 4096;
        void *p = realloc(pairs, grown * sizeof *pairs);
        if (p) {
            pairs = p;
            capacity = grown;
        }
    }
    if (used < capacity) {
        pair = pairs[used];
        cudaEventCreate(&pair[0]);
        cudaEventCreate(&pair[1]);
        cudaEventRecord(pair[0], stream);
    }
    inside = 1;
    cudaError_t r = real(f, grid, block, args, shared, stream);
    inside = 0;
    if (pair) {
        cudaEventRecord(pair[1], stream);
        used++;
    } else {
        untimed++;
    }
    return r;
}

#define INTERPOSE(NAME)                                                              \
    cudaError_t NAME(const void *f, dim3 g, dim3 b, void **a, size_t s, cudaStream_t st) \
    {                                                                                \
        static launch_fn real;                                                       \
        if (!real)                                                                   \
            real = (launch_fn) dlsym(RTLD_NEXT, #NAME);                              \
        return bracket(real, f, g, b, a, s, st);                                     \
    }

/* nvcc up to 12 launches through cudaLaunchKernel, 13 through the
 * double-underscore entry. */
INTERPOSE(cudaLaunchKernel)
INTERPOSE(__cudaLaunchKernel)
