/*
 * fakecuda: the runtime functions of cuda_runtime_api.h, compiled once
 * (with the C++ compiler) and linked with the host file (C) and the kernel
 * file (C++). Device memory is poisoned (all bytes 0xff: NaN for floating
 * point, -1 for integers) so that a missing copy-in shows in the results,
 * and every cudaMemcpy checks that its device side was allocated by
 * cudaMalloc, with room for the copy. The device has 4 GiB of memory
 * (FAKECUDA_MEMORY bytes): more at once is cudaErrorMemoryAllocation, as
 * on a device, and never a host allocation of that size (the memory would
 * be poisoned, so really used). Host threads may call it at once,
 * as CUDA's runtime allows: the allocations are kept under a lock, and
 * the last error is each thread's own, as CUDA's is. With FAKECUDA_COUNT
 * set, the program prints at exit how often it allocated device memory
 * and waited for the device, what a region must not do per launch, and
 * how many kernels it launched, how many of them on a single thread, and
 * how often it pinned host memory (`fakecuda: N cudaMalloc, M
 * cudaDeviceSynchronize, L launches, K launches of one thread, P
 * cudaHostAlloc`).
 */
#include "cuda_runtime_api.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <atomic>
#include <vector>

static thread_local cudaError_t fakecuda_last_error = cudaSuccess;

/* Calls counted for FAKECUDA_COUNT; printed by a static's destructor at
 * exit. */
static std::atomic<unsigned long> fakecuda_mallocs{0}, fakecuda_syncs{0};
static std::atomic<unsigned long> fakecuda_launches{0}, fakecuda_single_thread_launches{0};
static std::atomic<unsigned long> fakecuda_host_allocs{0};
static struct fakecuda_counts {
    ~fakecuda_counts()
    {
        if (std::getenv("FAKECUDA_COUNT"))
            std::fprintf(stderr,
                         "fakecuda: %lu cudaMalloc, %lu cudaDeviceSynchronize, %lu launches, %lu "
                         "launches of one thread, %lu cudaHostAlloc\n",
                         fakecuda_mallocs.load(), fakecuda_syncs.load(), fakecuda_launches.load(),
                         fakecuda_single_thread_launches.load(), fakecuda_host_allocs.load());
    }
} fakecuda_counts_at_exit;

void fakecuda_count_launch(unsigned long blocks, unsigned long threads)
{
    fakecuda_launches++;
    if (blocks * threads == 1)
        fakecuda_single_thread_launches++;
}

static std::mutex &fakecuda_allocations_lock()
{
    static std::mutex m;
    return m;
}

/* Device allocations: start address -> size. */
static std::map<const char *, size_t> &fakecuda_allocations()
{
    static std::map<const char *, size_t> m;
    return m;
}

/* Whether [p, p + n) lies inside one device allocation. */
static bool fakecuda_is_device(const void *p, size_t n)
{
    auto &m = fakecuda_allocations();
    const char *c = static_cast<const char *>(p);
    auto it = m.upper_bound(c);
    if (it == m.begin())
        return false;
    --it;
    return c >= it->first && c + n <= it->first + it->second;
}

extern "C" {

void fakecuda_set_error(cudaError_t e) { fakecuda_last_error = e; }

const char *cudaGetErrorString(cudaError_t e)
{
    switch (e) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument (fakecuda)";
    case cudaErrorMemoryAllocation: return "out of memory (fakecuda)";
    case cudaErrorLaunchFailure: return "launch failure (fakecuda)";
    default: return "unknown error (fakecuda)";
    }
}

cudaError_t cudaGetLastError(void)
{
    cudaError_t e = fakecuda_last_error;
    fakecuda_last_error = cudaSuccess;
    return e;
}

/* Copies enqueued on streams and not yet done, in order; `fakecuda_done`
 * counts those done since the start. */
struct fakecuda_copy { void *dst; const void *src; size_t n; };
static std::vector<fakecuda_copy> fakecuda_pending;
static size_t fakecuda_done, fakecuda_enqueued;
struct fakecuda_stream { unsigned flags; };
struct fakecuda_event { size_t after; };

static std::mutex &fakecuda_queue_lock()
{
    static std::mutex m;
    return m;
}

/* Does the deferred copies up to the `upto`th enqueued. */
static void fakecuda_drain(size_t upto)
{
    std::lock_guard<std::mutex> held(fakecuda_queue_lock());
    size_t k = 0;
    for (; k < fakecuda_pending.size() && fakecuda_done < upto; k++, fakecuda_done++)
        std::memmove(fakecuda_pending[k].dst, fakecuda_pending[k].src, fakecuda_pending[k].n);
    fakecuda_pending.erase(fakecuda_pending.begin(), fakecuda_pending.begin() + static_cast<long>(k));
}

static void fakecuda_drain_all() { fakecuda_drain(static_cast<size_t>(-1)); }

cudaError_t cudaDeviceSynchronize(void)
{
    fakecuda_syncs++;
    fakecuda_drain_all();
    return cudaSuccess;
}

/* The device's memory in bytes. */
static size_t fakecuda_memory()
{
    const char *v = std::getenv("FAKECUDA_MEMORY");
    return v && *v ? static_cast<size_t>(std::strtoull(v, nullptr, 10)) : size_t(4) << 30;
}

cudaError_t cudaMalloc(void **p, size_t n)
{
    fakecuda_mallocs++;
    {
        std::lock_guard<std::mutex> held(fakecuda_allocations_lock());
        size_t used = 0;
        for (auto &a : fakecuda_allocations())
            used += a.second;
        if (n > fakecuda_memory() || used > fakecuda_memory() - n) {
            fakecuda_last_error = cudaErrorMemoryAllocation;
            return cudaErrorMemoryAllocation;
        }
    }
    char *m = static_cast<char *>(std::malloc(n ? n : 1));
    if (!m) {
        fakecuda_last_error = cudaErrorMemoryAllocation;
        return cudaErrorMemoryAllocation;
    }
    std::memset(m, 0xff, n);
    std::lock_guard<std::mutex> held(fakecuda_allocations_lock());
    fakecuda_allocations()[m] = n;
    *p = m;
    return cudaSuccess;
}

cudaError_t cudaFree(void *p)
{
    fakecuda_drain_all();
    if (!p)
        return cudaSuccess;
    std::lock_guard<std::mutex> held(fakecuda_allocations_lock());
    auto &m = fakecuda_allocations();
    auto it = m.find(static_cast<const char *>(p));
    if (it == m.end())
        return cudaErrorInvalidValue;
    m.erase(it);
    std::free(p);
    return cudaSuccess;
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind)
{
    bool dst_dev = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    bool src_dev = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    bool matches;
    {
        std::lock_guard<std::mutex> held(fakecuda_allocations_lock());
        matches = fakecuda_is_device(dst, n) == dst_dev && fakecuda_is_device(src, n) == src_dev;
    }
    if (!matches) {
        std::fprintf(stderr, "fakecuda: cudaMemcpy of %zu bytes: pointers do not match kind %d\n", n, (int)kind);
        return cudaErrorInvalidValue;
    }
    /* The legacy stream waits for the others. */
    fakecuda_drain_all();
    std::memmove(dst, src, n);
    return cudaSuccess;
}

cudaError_t cudaMemset(void *dst, int value, size_t n)
{
    bool dev;
    {
        std::lock_guard<std::mutex> held(fakecuda_allocations_lock());
        dev = fakecuda_is_device(dst, n);
    }
    if (!dev) {
        std::fprintf(stderr, "fakecuda: cudaMemset of %zu bytes: not device memory\n", n);
        return cudaErrorInvalidValue;
    }
    /* On the legacy stream, after what the others queued. */
    fakecuda_drain_all();
    std::memset(dst, value, n);
    return cudaSuccess;
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    bool dst_dev = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    bool src_dev = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    bool matches;
    (void) stream;
    {
        std::lock_guard<std::mutex> held(fakecuda_allocations_lock());
        matches = fakecuda_is_device(dst, n) == dst_dev && fakecuda_is_device(src, n) == src_dev;
    }
    if (!matches) {
        std::fprintf(stderr, "fakecuda: cudaMemcpyAsync of %zu bytes: pointers do not match kind %d\n", n, (int)kind);
        return cudaErrorInvalidValue;
    }
    std::lock_guard<std::mutex> held(fakecuda_queue_lock());
    fakecuda_pending.push_back({dst, src, n});
    fakecuda_enqueued++;
    return cudaSuccess;
}

cudaError_t cudaHostAlloc(void **p, size_t n, unsigned int flags)
{
    (void) flags;
    fakecuda_host_allocs++;
    *p = std::malloc(n ? n : 1);
    return *p ? cudaSuccess : cudaErrorMemoryAllocation;
}

cudaError_t cudaFreeHost(void *p)
{
    std::free(p);
    return cudaSuccess;
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned int flags)
{
    *s = new fakecuda_stream{flags};
    return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t s)
{
    (void) s;
    fakecuda_drain_all();
    return cudaSuccess;
}

cudaError_t cudaStreamDestroy(cudaStream_t s)
{
    fakecuda_drain_all();
    delete s;
    return cudaSuccess;
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned int flags)
{
    (void) flags;
    *e = new fakecuda_event{0};
    return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s)
{
    (void) s;
    std::lock_guard<std::mutex> held(fakecuda_queue_lock());
    e->after = fakecuda_enqueued;
    return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t e)
{
    fakecuda_drain(e->after);
    return cudaSuccess;
}

cudaError_t cudaEventDestroy(cudaEvent_t e)
{
    delete e;
    return cudaSuccess;
}

}
