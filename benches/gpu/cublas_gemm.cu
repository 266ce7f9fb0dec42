/*
 * The cuBLAS reference for PolyBench's gemm (C = alpha * A * B + beta * C,
 * row-major, A: NI x NK, B: NK x NJ, C: NI x NJ, doubles), initialised as
 * polybench/linear-algebra/blas/gemm does. scripts/gpu-measure.sh sets it
 * beside pencilc's CUDA gemm. It prints two times:
 *   - "cublas dgemm": the DGEMM call alone (CUDA events, median of 10
 *     after a warm-up);
 *   - "cublas region": what pencilc's region time covers (allocation,
 *     copies in, the product, copy out, frees), wall clock, median of 10;
 * and checks 1000 entries of C against a CPU dot product.
 *
 * nvcc -O3 -arch=native cublas_gemm.cu -lcublas -o cublas_gemm
 * ./cublas_gemm [NI NJ NK]          (default: LARGE, 1000 1100 1200)
 */
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <vector>

#define CHECK_CUDA(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); std::exit(1); } } while (0)
#define CHECK_CUBLAS(x) do { cublasStatus_t s_ = (x); if (s_ != CUBLAS_STATUS_SUCCESS) { \
    std::fprintf(stderr, "%s:%d: cuBLAS status %d\n", __FILE__, __LINE__, (int) s_); std::exit(1); } } while (0)

static double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

int main(int argc, char **argv)
{
    int ni = 1000, nj = 1100, nk = 1200;
    if (argc == 4) {
        ni = std::atoi(argv[1]);
        nj = std::atoi(argv[2]);
        nk = std::atoi(argv[3]);
    }
    const double alpha = 1.5, beta = 1.2;
    std::vector<double> A((size_t) ni * nk), B((size_t) nk * nj), C0((size_t) ni * nj), C((size_t) ni * nj);
    for (int i = 0; i < ni; i++)
        for (int j = 0; j < nj; j++)
            C0[(size_t) i * nj + j] = (double) ((i * j + 1) % ni) / ni;
    for (int i = 0; i < ni; i++)
        for (int k = 0; k < nk; k++)
            A[(size_t) i * nk + k] = (double) (i * (k + 1) % nk) / nk;
    for (int k = 0; k < nk; k++)
        for (int j = 0; j < nj; j++)
            B[(size_t) k * nj + j] = (double) (k * (j + 2) % nj) / nj;

    cublasHandle_t handle;
    CHECK_CUDA(cudaFree(0)); /* context creation, outside every timing */
    CHECK_CUBLAS(cublasCreate(&handle));
    /* Row-major C = A B is column-major C^T = B^T A^T: swap the operands. */
    auto product = [&](const double *dA, const double *dB, double *dC) {
        CHECK_CUBLAS(cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, nj, ni, nk, &alpha, dB, nj, dA, nk, &beta,
                                 dC, nj));
    };
    struct Device {
        double *A, *B, *C;
    };
    /* Allocation and copies in, as pencilc's region does them. */
    auto upload = [&]() {
        Device d;
        CHECK_CUDA(cudaMalloc(&d.A, A.size() * sizeof(double)));
        CHECK_CUDA(cudaMalloc(&d.B, B.size() * sizeof(double)));
        CHECK_CUDA(cudaMalloc(&d.C, C0.size() * sizeof(double)));
        CHECK_CUDA(cudaMemcpy(d.A, A.data(), A.size() * sizeof(double), cudaMemcpyHostToDevice));
        CHECK_CUDA(cudaMemcpy(d.B, B.data(), B.size() * sizeof(double), cudaMemcpyHostToDevice));
        CHECK_CUDA(cudaMemcpy(d.C, C0.data(), C0.size() * sizeof(double), cudaMemcpyHostToDevice));
        return d;
    };
    auto release = [](Device d) {
        CHECK_CUDA(cudaFree(d.A));
        CHECK_CUDA(cudaFree(d.B));
        CHECK_CUDA(cudaFree(d.C));
    };
    auto region = [&](std::vector<double> &out) {
        Device d = upload();
        product(d.A, d.B, d.C);
        CHECK_CUDA(cudaMemcpy(out.data(), d.C, out.size() * sizeof(double), cudaMemcpyDeviceToHost));
        release(d);
    };

    region(C); /* warm-up: cuBLAS loads its kernels */
    std::vector<double> wall;
    for (int r = 0; r < 10; r++) {
        auto t0 = std::chrono::steady_clock::now();
        region(C);
        auto t1 = std::chrono::steady_clock::now();
        wall.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    }

    Device d = upload();
    cudaEvent_t e0, e1;
    CHECK_CUDA(cudaEventCreate(&e0));
    CHECK_CUDA(cudaEventCreate(&e1));
    product(d.A, d.B, d.C);
    std::vector<double> kernel;
    for (int r = 0; r < 10; r++) {
        CHECK_CUDA(cudaEventRecord(e0));
        product(d.A, d.B, d.C);
        CHECK_CUDA(cudaEventRecord(e1));
        CHECK_CUDA(cudaEventSynchronize(e1));
        float ms;
        CHECK_CUDA(cudaEventElapsedTime(&ms, e0, e1));
        kernel.push_back(ms);
    }

    /* C holds one product from C0: check a sample against the CPU. */
    double worst = 0;
    for (int s = 0; s < 1000; s++) {
        int i = (int) ((s * 7919L) % ni), j = (int) ((s * 104729L) % nj);
        double want = beta * C0[(size_t) i * nj + j];
        for (int k = 0; k < nk; k++)
            want += alpha * A[(size_t) i * nk + k] * B[(size_t) k * nj + j];
        double got = C[(size_t) i * nj + j];
        worst = std::max(worst, std::fabs(got - want) / std::max(1.0, std::fabs(want)));
    }
    double flops = 2.0 * ni * nj * nk;
    std::printf("gemm %d x %d x %d (doubles)\n", ni, nj, nk);
    std::printf("cublas dgemm: %.3f ms (%.1f GFLOP/s)\n", median(kernel), flops / median(kernel) / 1e6);
    std::printf("cublas region: %.3f ms (allocation, copies in and out, product)\n", median(wall));
    std::printf("largest relative error on 1000 sampled entries: %.2e\n", worst);
    release(d);
    CHECK_CUDA(cudaEventDestroy(e0));
    CHECK_CUDA(cudaEventDestroy(e1));
    CHECK_CUBLAS(cublasDestroy(handle));
    return worst < 1e-9 ? 0 : 1;
}
