/*
 * What pinned host memory costs and what it buys, on the machine it runs
 * on (issue 34). The generated CUDA host code stages large copies through
 * two pinned buffers; on an H200 pinning two 4 MiB buffers took 3-5 ms in
 * a region that then saved about 2 ms of copies. Whether that cost is one
 * per process (the driver's first pinned allocation) or grows with the
 * bytes pinned decides what to do about it: pin less, or pin earlier.
 * scripts/gpu-measure.sh runs it (a second or two of device time).
 *
 * Prints tab-separated rows:
 *   pin   <what> <bytes> <ms>             cudaHostAlloc / cudaFreeHost /
 *                                         cudaHostRegister, each timed alone
 *   copy  <dir> <mode> <chunk> <ms> <GB/s> 32 MB (or argv[1] MiB) moved:
 *         pageable cudaMemcpy, from/to a pinned array (the link's rate),
 *         staged through two pinned chunks (host copy on 1 thread or on
 *         the OpenMP threads), as the generated code does.
 * Medians of 5 for copies, of 3 for the pinning after the first.
 *
 * nvcc -O3 -arch=native -Xcompiler -fopenmp pin_cost.cu -o pin_cost
 */
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include <omp.h>
#include <vector>

#define CHECK_CUDA(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); std::exit(1); } } while (0)

typedef std::chrono::steady_clock Clock;

static double ms_since(Clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

static double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

/* The host's side of a staged chunk, as the generated code does it: on
 * one thread, or split among the OpenMP threads (at most 8). */
static void host_copy(char *dst, const char *src, size_t n, bool threads)
{
    if (!threads) {
        std::memcpy(dst, src, n);
        return;
    }
#pragma omp parallel num_threads(8)
    {
        int t = omp_get_thread_num(), nt = omp_get_num_threads();
        size_t lo = n * t / nt, hi = n * (t + 1) / nt;
        std::memcpy(dst + lo, src + lo, hi - lo);
    }
}

static void staged_in(char *dev, const char *host, size_t size, char *stage[2], size_t chunk,
                      cudaStream_t s, cudaEvent_t freed[2], bool threads)
{
    size_t off, n;
    int i;
    for (off = 0, i = 0; off < size; off += n, i ^= 1) {
        n = std::min(chunk, size - off);
        CHECK_CUDA(cudaEventSynchronize(freed[i]));
        host_copy(stage[i], host + off, n, threads);
        CHECK_CUDA(cudaMemcpyAsync(dev + off, stage[i], n, cudaMemcpyHostToDevice, s));
        CHECK_CUDA(cudaEventRecord(freed[i], s));
    }
    CHECK_CUDA(cudaStreamSynchronize(s));
}

static void staged_out(char *host, const char *dev, size_t size, char *stage[2], size_t chunk,
                       cudaStream_t s, cudaEvent_t filled[2], bool threads)
{
    size_t off, n, next;
    int i;
    n = std::min(chunk, size);
    CHECK_CUDA(cudaMemcpyAsync(stage[0], dev, n, cudaMemcpyDeviceToHost, s));
    CHECK_CUDA(cudaEventRecord(filled[0], s));
    for (off = 0, i = 0; off < size; off += n, i ^= 1) {
        n = std::min(chunk, size - off);
        next = off + n;
        if (next < size) {
            CHECK_CUDA(cudaMemcpyAsync(stage[i ^ 1], dev + next, std::min(chunk, size - next),
                                       cudaMemcpyDeviceToHost, s));
            CHECK_CUDA(cudaEventRecord(filled[i ^ 1], s));
        }
        CHECK_CUDA(cudaEventSynchronize(filled[i]));
        host_copy(host + off, stage[i], n, threads);
    }
}

static void row_copy(const char *dir, const char *mode, size_t chunk, size_t bytes, std::vector<double> t)
{
    double m = median(t);
    std::printf("copy\t%s\t%s\t%zu\t%.4f\t%.2f\n", dir, mode, chunk, m, bytes / m / 1e6);
}

int main(int argc, char **argv)
{
    size_t bytes = (size_t) (argc > 1 ? std::atoi(argv[1]) : 32) << 20;
    const size_t sizes[] = {(size_t) 256 << 10, (size_t) 1 << 20, (size_t) 4 << 20, (size_t) 16 << 20,
                            (size_t) 32 << 20};
    const size_t chunks[] = {(size_t) 256 << 10, (size_t) 512 << 10, (size_t) 1 << 20, (size_t) 2 << 20,
                             (size_t) 4 << 20};
    Clock::time_point t0;
    char *p;

    t0 = Clock::now();
    CHECK_CUDA(cudaFree(0));
    std::printf("pin\tcontext\t0\t%.4f\n", ms_since(t0));

    /* The process's first pinned allocation, apart: a one-time cost of the
     * driver would show here and not below. */
    t0 = Clock::now();
    CHECK_CUDA(cudaHostAlloc((void **) &p, (size_t) 4 << 20, cudaHostAllocDefault));
    std::printf("pin\tfirst-hostalloc\t%zu\t%.4f\n", (size_t) 4 << 20, ms_since(t0));
    t0 = Clock::now();
    CHECK_CUDA(cudaFreeHost(p));
    std::printf("pin\tfirst-freehost\t%zu\t%.4f\n", (size_t) 4 << 20, ms_since(t0));

    for (size_t s : sizes) {
        std::vector<double> a, f, w;
        for (int r = 0; r < 3; r++) {
            t0 = Clock::now();
            CHECK_CUDA(cudaHostAlloc((void **) &p, s, cudaHostAllocDefault));
            a.push_back(ms_since(t0));
            t0 = Clock::now();
            CHECK_CUDA(cudaFreeHost(p));
            f.push_back(ms_since(t0));
            t0 = Clock::now();
            CHECK_CUDA(cudaHostAlloc((void **) &p, s, cudaHostAllocWriteCombined));
            w.push_back(ms_since(t0));
            CHECK_CUDA(cudaFreeHost(p));
        }
        std::printf("pin\thostalloc\t%zu\t%.4f\n", s, median(a));
        std::printf("pin\tfreehost\t%zu\t%.4f\n", s, median(f));
        std::printf("pin\thostalloc-wc\t%zu\t%.4f\n", s, median(w));
    }

    /* Registering the user's (pageable, touched) array in place. */
    std::vector<char> user(bytes, 1), back(bytes, 0);
    {
        std::vector<double> r, u;
        for (int k = 0; k < 3; k++) {
            t0 = Clock::now();
            CHECK_CUDA(cudaHostRegister(user.data(), bytes, cudaHostRegisterDefault));
            r.push_back(ms_since(t0));
            t0 = Clock::now();
            CHECK_CUDA(cudaHostUnregister(user.data()));
            u.push_back(ms_since(t0));
        }
        std::printf("pin\thostregister\t%zu\t%.4f\n", bytes, median(r));
        std::printf("pin\thostunregister\t%zu\t%.4f\n", bytes, median(u));
    }

    char *dev, *pinned;
    CHECK_CUDA(cudaMalloc((void **) &dev, bytes));
    CHECK_CUDA(cudaHostAlloc((void **) &pinned, bytes, cudaHostAllocDefault));
    std::memset(pinned, 1, bytes);
    std::vector<double> t;

    for (int k = 0; k < 5; k++) {
        t0 = Clock::now();
        CHECK_CUDA(cudaMemcpy(dev, user.data(), bytes, cudaMemcpyHostToDevice));
        t.push_back(ms_since(t0));
    }
    row_copy("in", "pageable", 0, bytes, t);
    t.clear();
    for (int k = 0; k < 5; k++) {
        t0 = Clock::now();
        CHECK_CUDA(cudaMemcpy(dev, pinned, bytes, cudaMemcpyHostToDevice));
        t.push_back(ms_since(t0));
    }
    row_copy("in", "pinned", 0, bytes, t);
    t.clear();
    for (int k = 0; k < 5; k++) {
        t0 = Clock::now();
        CHECK_CUDA(cudaMemcpy(back.data(), dev, bytes, cudaMemcpyDeviceToHost));
        t.push_back(ms_since(t0));
    }
    row_copy("out", "pageable", 0, bytes, t);
    t.clear();
    for (int k = 0; k < 5; k++) {
        t0 = Clock::now();
        CHECK_CUDA(cudaMemcpy(pinned, dev, bytes, cudaMemcpyDeviceToHost));
        t.push_back(ms_since(t0));
    }
    row_copy("out", "pinned", 0, bytes, t);

    cudaStream_t s;
    cudaEvent_t ev[2];
    CHECK_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CHECK_CUDA(cudaEventCreateWithFlags(&ev[0], cudaEventDisableTiming));
    CHECK_CUDA(cudaEventCreateWithFlags(&ev[1], cudaEventDisableTiming));
    for (size_t c : chunks) {
        char *stage[2];
        CHECK_CUDA(cudaHostAlloc((void **) &stage[0], c, cudaHostAllocDefault));
        CHECK_CUDA(cudaHostAlloc((void **) &stage[1], c, cudaHostAllocDefault));
        for (int threads = 0; threads < 2; threads++) {
            const char *mode = threads ? "staged-omp" : "staged-1";
            t.clear();
            for (int k = 0; k < 5; k++) {
                t0 = Clock::now();
                staged_in(dev, user.data(), bytes, stage, c, s, ev, threads);
                t.push_back(ms_since(t0));
            }
            row_copy("in", mode, c, bytes, t);
            t.clear();
            for (int k = 0; k < 5; k++) {
                t0 = Clock::now();
                staged_out(back.data(), dev, bytes, stage, c, s, ev, threads);
                t.push_back(ms_since(t0));
            }
            row_copy("out", mode, c, bytes, t);
        }
        CHECK_CUDA(cudaFreeHost(stage[0]));
        CHECK_CUDA(cudaFreeHost(stage[1]));
    }
    if (std::memcmp(user.data(), back.data(), bytes) != 0) {
        std::fprintf(stderr, "pin_cost: the staged round trip changed the bytes\n");
        return 1;
    }
    return 0;
}
