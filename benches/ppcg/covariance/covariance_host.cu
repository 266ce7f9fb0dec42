#include <assert.h>
#include <stdio.h>
#include "covariance_kernel.hu"
/*
 * covariance.c -- covariance matrix of N observations of M variables.
 *
 * Part of the pencilc PolyBench test suite: our own implementation of the
 * PolyBench/C 4.2.1 "covariance" benchmark (same algorithm, loop structure,
 * initialisation and dataset sizes).
 */
#include <stdio.h>
#include <math.h>

#include <polybench.h>
#include "covariance.h"

/* Deterministic input data. */
static void init_array(int m, int n,
                       DATA_TYPE *float_n,
                       DATA_TYPE POLYBENCH_2D(data, N, M, n, m))
{
  int i, j;

  *float_n = (DATA_TYPE) n;
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      data[i][j] = ((DATA_TYPE) i * j) / m;
}

/* Dump the live-out data: the result cov, then the arrays the kernel
   also modifies (mean, and data which is centred in place). */
static void print_array(int m, int n,
                        DATA_TYPE POLYBENCH_2D(cov, M, M, m, m),
                        DATA_TYPE POLYBENCH_1D(mean, M, m),
                        DATA_TYPE POLYBENCH_2D(data, N, M, n, m))
{
  int i, j;

  POLYBENCH_DUMP_START;
  POLYBENCH_DUMP_BEGIN("cov");
  for (i = 0; i < m; i++)
    for (j = 0; j < m; j++) {
      if ((i * m + j) % 20 == 0)
        fprintf(POLYBENCH_DUMP_TARGET, "\n");
      fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, cov[i][j]);
    }
  POLYBENCH_DUMP_END("cov");
  POLYBENCH_DUMP_BEGIN("mean");
  for (i = 0; i < m; i++) {
    if (i % 20 == 0)
      fprintf(POLYBENCH_DUMP_TARGET, "\n");
    fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, mean[i]);
  }
  POLYBENCH_DUMP_END("mean");
  POLYBENCH_DUMP_BEGIN("data");
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++) {
      if ((i * m + j) % 20 == 0)
        fprintf(POLYBENCH_DUMP_TARGET, "\n");
      fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, data[i][j]);
    }
  POLYBENCH_DUMP_END("data");
  POLYBENCH_DUMP_FINISH;
}

/* The timed kernel. */
static void kernel_covariance(int m, int n,
                              DATA_TYPE float_n,
                              DATA_TYPE POLYBENCH_2D(data, N, M, n, m),
                              DATA_TYPE POLYBENCH_2D(cov, M, M, m, m),
                              DATA_TYPE POLYBENCH_1D(mean, M, m))
{
  int i, j, k;

  #define ppcg_min(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x < _y ? _x : _y; })
  if (m >= 1) {
#define cudaCheckReturn(ret) \
  do { \
    cudaError_t cudaCheckReturn_e = (ret); \
    if (cudaCheckReturn_e != cudaSuccess) { \
      fprintf(stderr, "CUDA error: %s\n", cudaGetErrorString(cudaCheckReturn_e)); \
      fflush(stderr); \
    } \
    assert(cudaCheckReturn_e == cudaSuccess); \
  } while(0)
#define cudaCheckKernel() \
  do { \
    cudaCheckReturn(cudaGetLastError()); \
  } while(0)

    double *dev_cov;
    double *dev_data;
    double *dev_mean;
    
    cudaCheckReturn(cudaMalloc((void **) &dev_cov, (m) * (1200) * sizeof(double)));
    cudaCheckReturn(cudaMalloc((void **) &dev_data, (n) * (1200) * sizeof(double)));
    cudaCheckReturn(cudaMalloc((void **) &dev_mean, (m) * sizeof(double)));
    
    cudaCheckReturn(cudaMemcpy(dev_cov, cov, (m) * (1200) * sizeof(double), cudaMemcpyHostToDevice));
    if (n >= 1)
      cudaCheckReturn(cudaMemcpy(dev_data, data, (n) * (1200) * sizeof(double), cudaMemcpyHostToDevice));
    {
      dim3 k0_dimBlock(32);
      dim3 k0_dimGrid(ppcg_min(32768, (m + 31) / 32));
      kernel0 <<<k0_dimGrid, k0_dimBlock>>> (dev_data, dev_mean, m, n);
      cudaCheckKernel();
    }
    
    {
      dim3 k1_dimBlock(32);
      dim3 k1_dimGrid(ppcg_min(32768, (m + 31) / 32));
      kernel1 <<<k1_dimGrid, k1_dimBlock>>> (float_n, dev_mean, m, n);
      cudaCheckKernel();
    }
    
    if (n >= 1)
      {
        dim3 k2_dimBlock(16, 32);
        dim3 k2_dimGrid(ppcg_min(38, (m + 31) / 32), ppcg_min(256, (n + 31) / 32));
        kernel2 <<<k2_dimGrid, k2_dimBlock>>> (dev_data, dev_mean, m, n);
        cudaCheckKernel();
      }
      
    {
      dim3 k3_dimBlock(16, 32);
      dim3 k3_dimGrid(ppcg_min(38, (m + 31) / 32), ppcg_min(38, (m + 31) / 32));
      kernel3 <<<k3_dimGrid, k3_dimBlock>>> (dev_cov, m, n);
      cudaCheckKernel();
    }
    
    {
      dim3 k4_dimBlock(16, 32);
      dim3 k4_dimGrid(ppcg_min(256, (m + 31) / 32), ppcg_min(38, (m + 31) / 32));
      kernel4 <<<k4_dimGrid, k4_dimBlock>>> (dev_cov, dev_data, float_n, m, n);
      cudaCheckKernel();
    }
    
    cudaCheckReturn(cudaMemcpy(cov, dev_cov, (m) * (1200) * sizeof(double), cudaMemcpyDeviceToHost));
    if (n >= 1)
      cudaCheckReturn(cudaMemcpy(data, dev_data, (n) * (1200) * sizeof(double), cudaMemcpyDeviceToHost));
    cudaCheckReturn(cudaMemcpy(mean, dev_mean, (m) * sizeof(double), cudaMemcpyDeviceToHost));
    cudaCheckReturn(cudaFree(dev_cov));
    cudaCheckReturn(cudaFree(dev_data));
    cudaCheckReturn(cudaFree(dev_mean));
  }
}

int main(int argc, char **argv)
{
  int m = M;
  int n = N;
  DATA_TYPE float_n;
  POLYBENCH_2D_ARRAY_DECL(data, DATA_TYPE, N, M, n, m);
  POLYBENCH_2D_ARRAY_DECL(cov, DATA_TYPE, M, M, m, m);
  POLYBENCH_1D_ARRAY_DECL(mean, DATA_TYPE, M, m);

  init_array(m, n, &float_n, POLYBENCH_ARRAY(data));

  polybench_start_instruments;
  kernel_covariance(m, n, float_n, POLYBENCH_ARRAY(data),
                    POLYBENCH_ARRAY(cov), POLYBENCH_ARRAY(mean));
  polybench_stop_instruments;
  polybench_print_instruments;

  polybench_prevent_dce(print_array(m, n, POLYBENCH_ARRAY(cov),
                                    POLYBENCH_ARRAY(mean),
                                    POLYBENCH_ARRAY(data)));

  POLYBENCH_FREE_ARRAY(data);
  POLYBENCH_FREE_ARRAY(cov);
  POLYBENCH_FREE_ARRAY(mean);
  return 0;
}
