/*
 * fakecuda: the part of the CUDA runtime that pencilc's output uses, for
 * running generated CUDA programs on a machine without a GPU. pencilc's
 * host file is C and calls the runtime's C API (cuda_runtime_api.h, whose
 * functions fakecuda_runtime.cpp defines); its kernel file is CUDA C++,
 * built as C++ with this directory first on the include path, after each
 * `k<<<grid, block>>>(args);` of its launchers is rewritten into
 * `fakecuda_launch(grid, block, [=] { k(args); });`
 * (src/harness/emulate.rs).
 *
 * What it promises is CUDA's semantics, and one legal schedule of them:
 * thread blocks run one after another (in the order of their index, or
 * the reverse with FAKECUDA_BLOCK_ORDER=reverse); the threads of a block are fibers
 * that run one at a time, each until it reaches `__syncthreads()` (see
 * fakecuda_launch); `__shared__` variables are function statics, which is
 * one copy per block because blocks never overlap: launches from several
 * host threads run one at a time, as kernels do on one stream of a
 * device (the launch lock, fakecuda_launch_lock). Device memory is
 * poisoned and copies are checked (fakecuda_runtime.cpp). It says nothing
 * about speed: timings of an emulated run mean nothing.
 */
#ifndef FAKECUDA_CUDA_RUNTIME_H
#define FAKECUDA_CUDA_RUNTIME_H

#include "cuda_runtime_api.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <ucontext.h>
#include <vector>

#define __global__
#define __device__
/* A hint to the register allocator: nothing to do on the CPU. */
#define __launch_bounds__(...)
#define __host__
#define __shared__ static
#define __forceinline__ inline

struct dim3 {
    unsigned x, y, z;
    constexpr dim3(unsigned x = 1, unsigned y = 1, unsigned z = 1) : x(x), y(y), z(z) {}
};

// In a namespace, so that the symbols are not `blockIdx` & co.: a user's
// C global of such a name in the host file (valid C, where CUDA's ids are
// no linkable symbols) must not meet the emulation's at link time.
namespace fakecuda_ids {
inline dim3 threadIdx(0, 0, 0);
inline dim3 blockIdx(0, 0, 0);
inline dim3 blockDim;
inline dim3 gridDim;
}
using fakecuda_ids::threadIdx;
using fakecuda_ids::blockIdx;
using fakecuda_ids::blockDim;
using fakecuda_ids::gridDim;

/* Launches. Blocks run one after another; the threads of a block are
 * fibers (ucontext) on the calling thread, each run until it reaches
 * __syncthreads() or returns. When every fiber waits at the barrier, all
 * resume; when some wait and others have returned, the launch stops with
 * an error (a barrier not reached by every thread of the block: undefined
 * behaviour in CUDA). The order in which fibers run alternates between
 * ascending and descending thread index from one barrier interval to the
 * next, so that a missing barrier shows whichever thread writes first. */
struct fakecuda_fiber {
    ucontext_t ctx;
    dim3 thread;
    bool done;
};

inline ucontext_t fakecuda_scheduler;
inline std::vector<fakecuda_fiber> fakecuda_fibers;
inline std::vector<char> fakecuda_stacks;
inline unsigned long fakecuda_current;
inline void (*fakecuda_call)(const void *);
inline const void *fakecuda_body;
constexpr size_t fakecuda_stack_size = 256 * 1024;

inline void __syncthreads()
{
    swapcontext(&fakecuda_fibers[fakecuda_current].ctx, &fakecuda_scheduler);
}

inline void fakecuda_fiber_main()
{
    fakecuda_call(fakecuda_body);
    fakecuda_fibers[fakecuda_current].done = true;
}

/* Held for the whole of a launch: the fibers, the ids and the shared
 * variables above are one set for the program. */
inline std::mutex fakecuda_launch_lock;

template <class F> void fakecuda_launch(dim3 grid, dim3 block, F body)
{
    std::lock_guard<std::mutex> launching(fakecuda_launch_lock);
    unsigned long threads = (unsigned long)block.x * block.y * block.z;
    unsigned long blocks = (unsigned long)grid.x * grid.y * grid.z;
    if (threads == 0 || threads > 1024 || block.z > 64 || blocks == 0 || grid.y > 65535 || grid.z > 65535) {
        std::fprintf(stderr, "fakecuda: invalid launch: grid (%u, %u, %u), block (%u, %u, %u)\n",
                     grid.x, grid.y, grid.z, block.x, block.y, block.z);
        fakecuda_set_error(cudaErrorInvalidValue);
        return;
    }
    fakecuda_count_launch(blocks, threads);
    gridDim = grid;
    blockDim = block;
    fakecuda_call = [](const void *f) { (*static_cast<const F *>(f))(); };
    fakecuda_body = &body;
    fakecuda_fibers.resize(threads);
    fakecuda_stacks.resize(threads * fakecuda_stack_size);
    /* FAKECUDA_BLOCK_ORDER=reverse runs the last block first: code that
     * takes the block that finishes last for the block of the highest
     * index shows it. */
    const char *order = std::getenv("FAKECUDA_BLOCK_ORDER");
    bool reverse = order && std::strcmp(order, "reverse") == 0;
    for (unsigned long pos = 0; pos < blocks; pos++) {
                unsigned long b = reverse ? blocks - 1 - pos : pos;
                unsigned bx = (unsigned)(b % grid.x), by = (unsigned)(b / grid.x % grid.y),
                         bz = (unsigned)(b / ((unsigned long)grid.x * grid.y));
                blockIdx = dim3(bx, by, bz);
                unsigned long t = 0;
                for (unsigned tz = 0; tz < block.z; tz++)
                    for (unsigned ty = 0; ty < block.y; ty++)
                        for (unsigned tx = 0; tx < block.x; tx++, t++) {
                            fakecuda_fiber &f = fakecuda_fibers[t];
                            f.thread = dim3(tx, ty, tz);
                            f.done = false;
                            getcontext(&f.ctx);
                            f.ctx.uc_stack.ss_sp = &fakecuda_stacks[t * fakecuda_stack_size];
                            f.ctx.uc_stack.ss_size = fakecuda_stack_size;
                            f.ctx.uc_link = &fakecuda_scheduler;
                            makecontext(&f.ctx, fakecuda_fiber_main, 0);
                        }
                for (unsigned long interval = 0;; interval++) {
                    unsigned long done = 0;
                    for (unsigned long k = 0; k < threads; k++) {
                        t = interval % 2 == 0 ? k : threads - 1 - k;
                        fakecuda_current = t;
                        threadIdx = fakecuda_fibers[t].thread;
                        swapcontext(&fakecuda_scheduler, &fakecuda_fibers[t].ctx);
                        done += fakecuda_fibers[t].done;
                    }
                    if (done == threads)
                        break;
                    if (done != 0) {
                        std::fprintf(stderr,
                                     "fakecuda: block (%u, %u, %u): %lu of %lu threads returned while the "
                                     "others wait at __syncthreads()\n",
                                     bx, by, bz, done, threads);
                        std::exit(3);
                    }
                }
            }
}

/* Device functions of CUDA's math and atomics library that pencilc's
 * output and pencil_cuda.h use. Fibers never run at the same time, so
 * the atomics need no more than the plain read-modify-write. */
/* Templates, so that a host file's own umin (pencil_compat.h has one; in
 * CUDA the two live in different execution spaces) wins over them
 * instead of clashing. */
template <int = 0> unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }
template <int = 0> unsigned umax(unsigned a, unsigned b) { return a > b ? a : b; }

/* Blocks run one after another: every write of a block is seen by the
 * next without a fence. */
inline void __threadfence() {}

template <class T> T atomicAdd(T *p, T v)
{
    T old = *p;
    *p = old + v;
    return old;
}
template <class T> T atomicMin(T *p, T v)
{
    T old = *p;
    *p = v < old ? v : old;
    return old;
}
template <class T> T atomicMax(T *p, T v)
{
    T old = *p;
    *p = v > old ? v : old;
    return old;
}
template <class T> T atomicAnd(T *p, T v)
{
    T old = *p;
    *p = old & v;
    return old;
}
template <class T> T atomicOr(T *p, T v)
{
    T old = *p;
    *p = old | v;
    return old;
}
template <class T> T atomicXor(T *p, T v)
{
    T old = *p;
    *p = old ^ v;
    return old;
}
template <class T> T atomicCAS(T *p, T expected, T desired)
{
    T old = *p;
    if (old == expected)
        *p = desired;
    return old;
}

/* min and max of CUDA's math library (host and device); templates for
 * the same reason as umin. */
#define FAKECUDA_MINMAX(T)                                                \
    template <int = 0> T min(T a, T b) { return a < b ? a : b; }          \
    template <int = 0> T max(T a, T b) { return a > b ? a : b; }
FAKECUDA_MINMAX(int)
FAKECUDA_MINMAX(unsigned)
FAKECUDA_MINMAX(long)
FAKECUDA_MINMAX(unsigned long)
FAKECUDA_MINMAX(long long)
FAKECUDA_MINMAX(unsigned long long)
FAKECUDA_MINMAX(float)
FAKECUDA_MINMAX(double)
#undef FAKECUDA_MINMAX

/* Reinterpretations of CUDA's intrinsics. */
template <class To, class From> To fakecuda_bits(From x)
{
    static_assert(sizeof(To) == sizeof(From), "same size");
    To y;
    std::memcpy(&y, &x, sizeof y);
    return y;
}
inline float __int_as_float(int x) { return fakecuda_bits<float>(x); }
inline int __float_as_int(float x) { return fakecuda_bits<int>(x); }
inline float __uint_as_float(unsigned x) { return fakecuda_bits<float>(x); }
inline unsigned __float_as_uint(float x) { return fakecuda_bits<unsigned>(x); }
inline double __longlong_as_double(long long x) { return fakecuda_bits<double>(x); }
inline long long __double_as_longlong(double x) { return fakecuda_bits<long long>(x); }

#endif
