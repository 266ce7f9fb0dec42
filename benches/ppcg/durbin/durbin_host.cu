#include <assert.h>
#include <stdio.h>
#include "durbin_kernel.hu"
/*
 * durbin.c -- Levinson-Durbin recursion solving the Yule-Walker equations
 *             (a symmetric Toeplitz system) for y.
 *
 * Part of the pencilc PolyBench test suite: our own implementation of the
 * PolyBench/C 4.2.1 "durbin" benchmark (same algorithm, loop structure,
 * initialisation and dataset sizes).
 */
#include <stdio.h>
#include <math.h>

#include <polybench.h>
#include "durbin.h"

/* Deterministic input data. */
static void init_array(int n,
                       DATA_TYPE POLYBENCH_1D(r, N, n))
{
  int i;

  for (i = 0; i < n; i++)
    r[i] = (n + 1 - i);
}

/* Dump the live-out data. */
static void print_array(int n,
                        DATA_TYPE POLYBENCH_1D(y, N, n))
{
  int i;

  POLYBENCH_DUMP_START;
  POLYBENCH_DUMP_BEGIN("y");
  for (i = 0; i < n; i++) {
    if (i % 20 == 0)
      fprintf(POLYBENCH_DUMP_TARGET, "\n");
    fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, y[i]);
  }
  POLYBENCH_DUMP_END("y");
  POLYBENCH_DUMP_FINISH;
}

/* The timed kernel. */
static void kernel_durbin(int n,
                          DATA_TYPE POLYBENCH_1D(r, N, n),
                          DATA_TYPE POLYBENCH_1D(y, N, n))
{
  int i, k;
  DATA_TYPE z[N];
  DATA_TYPE alpha;
  DATA_TYPE beta;
  DATA_TYPE sum;

  #define ppcg_min(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x < _y ? _x : _y; })
  {
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

    double *dev_alpha;
    double *dev_beta;
    double *dev_r;
    double *dev_sum;
    double *dev_y;
    double *dev_z;
    
    cudaCheckReturn(cudaMalloc((void **) &dev_alpha, sizeof(double)));
    cudaCheckReturn(cudaMalloc((void **) &dev_beta, sizeof(double)));
    #define ppcg_max(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x > _y ? _x : _y; })
    cudaCheckReturn(cudaMalloc((void **) &dev_r, (ppcg_max(1, n)) * sizeof(double)));
    cudaCheckReturn(cudaMalloc((void **) &dev_sum, sizeof(double)));
    cudaCheckReturn(cudaMalloc((void **) &dev_y, (ppcg_max(1, n)) * sizeof(double)));
    cudaCheckReturn(cudaMalloc((void **) &dev_z, (ppcg_min(2000, n - 1)) * sizeof(double)));
    
    alpha = (-r[0]);
    y[0] = (-r[0]);
    beta = 1.;
    cudaCheckReturn(cudaMemcpy(dev_alpha, &alpha, sizeof(double), cudaMemcpyHostToDevice));
    cudaCheckReturn(cudaMemcpy(dev_beta, &beta, sizeof(double), cudaMemcpyHostToDevice));
    cudaCheckReturn(cudaMemcpy(dev_r, r, (ppcg_max(1, n)) * sizeof(double), cudaMemcpyHostToDevice));
    cudaCheckReturn(cudaMemcpy(dev_y, y, (ppcg_max(1, n)) * sizeof(double), cudaMemcpyHostToDevice));
    for (int c0 = 1; c0 < n; c0 += 1) {
      {
        dim3 k0_dimBlock;
        dim3 k0_dimGrid;
        kernel0 <<<k0_dimGrid, k0_dimBlock>>> (dev_alpha, dev_beta, dev_r, dev_sum, dev_y, n, c0);
        cudaCheckKernel();
      }
      
      {
        dim3 k1_dimBlock;
        dim3 k1_dimGrid;
        kernel1 <<<k1_dimGrid, k1_dimBlock>>> (dev_alpha, dev_beta, dev_r, dev_sum, n, c0);
        cudaCheckKernel();
      }
      
      {
        dim3 k2_dimBlock;
        dim3 k2_dimGrid;
        kernel2 <<<k2_dimGrid, k2_dimBlock>>> (dev_alpha, dev_y, n, c0);
        cudaCheckKernel();
      }
      
      {
        dim3 k3_dimBlock(32);
        dim3 k3_dimGrid(ppcg_min(63, (n + 30) / 32));
        kernel3 <<<k3_dimGrid, k3_dimBlock>>> (dev_alpha, dev_y, dev_z, n, c0);
        cudaCheckKernel();
      }
      
      {
        dim3 k4_dimBlock(32);
        dim3 k4_dimGrid(ppcg_min(32768, (n + 30) / 32));
        kernel4 <<<k4_dimGrid, k4_dimBlock>>> (dev_y, dev_z, n, c0);
        cudaCheckKernel();
      }
      
    }
    cudaCheckReturn(cudaMemcpy(y, dev_y, (ppcg_max(1, n)) * sizeof(double), cudaMemcpyDeviceToHost));
    cudaCheckReturn(cudaFree(dev_alpha));
    cudaCheckReturn(cudaFree(dev_beta));
    cudaCheckReturn(cudaFree(dev_r));
    cudaCheckReturn(cudaFree(dev_sum));
    cudaCheckReturn(cudaFree(dev_y));
    cudaCheckReturn(cudaFree(dev_z));
  }
}

int main(int argc, char **argv)
{
  int n = N;
  POLYBENCH_1D_ARRAY_DECL(r, DATA_TYPE, N, n);
  POLYBENCH_1D_ARRAY_DECL(y, DATA_TYPE, N, n);

  init_array(n, POLYBENCH_ARRAY(r));

  polybench_start_instruments;
  kernel_durbin(n, POLYBENCH_ARRAY(r), POLYBENCH_ARRAY(y));
  polybench_stop_instruments;
  polybench_print_instruments;

  polybench_prevent_dce(print_array(n, POLYBENCH_ARRAY(y)));

  POLYBENCH_FREE_ARRAY(r);
  POLYBENCH_FREE_ARRAY(y);
  return 0;
}
