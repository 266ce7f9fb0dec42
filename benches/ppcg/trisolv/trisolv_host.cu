#include <assert.h>
#include <stdio.h>
#include "trisolv_kernel.hu"
/*
 * trisolv.c -- forward substitution solving L*x = b for a lower
 *              triangular matrix L.
 *
 * Part of the pencilc PolyBench test suite: our own implementation of the
 * PolyBench/C 4.2.1 "trisolv" benchmark (same algorithm, loop structure,
 * initialisation and dataset sizes).
 */
#include <stdio.h>
#include <math.h>

#include <polybench.h>
#include "trisolv.h"

/* Deterministic input data (the strict upper triangle of L is not set: it
   is never read). */
static void init_array(int n,
                       DATA_TYPE POLYBENCH_2D(L, N, N, n, n),
                       DATA_TYPE POLYBENCH_1D(x, N, n),
                       DATA_TYPE POLYBENCH_1D(b, N, n))
{
  int i, j;

  for (i = 0; i < n; i++) {
    x[i] = -999;
    b[i] = i;
    for (j = 0; j <= i; j++)
      L[i][j] = (DATA_TYPE) (i + n - j + 1) * 2 / n;
  }
}

/* Dump the live-out data. */
static void print_array(int n,
                        DATA_TYPE POLYBENCH_1D(x, N, n))
{
  int i;

  POLYBENCH_DUMP_START;
  POLYBENCH_DUMP_BEGIN("x");
  for (i = 0; i < n; i++) {
    if (i % 20 == 0)
      fprintf(POLYBENCH_DUMP_TARGET, "\n");
    fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, x[i]);
  }
  POLYBENCH_DUMP_END("x");
  POLYBENCH_DUMP_FINISH;
}

/* The timed kernel. */
static void kernel_trisolv(int n,
                           DATA_TYPE POLYBENCH_2D(L, N, N, n, n),
                           DATA_TYPE POLYBENCH_1D(x, N, n),
                           DATA_TYPE POLYBENCH_1D(b, N, n))
{
  int i, j;

  #define ppcg_min(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x < _y ? _x : _y; })
  if (n >= 1) {
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

    double *dev_L;
    double *dev_b;
    double *dev_x;
    
    cudaCheckReturn(cudaMalloc((void **) &dev_L, (n) * (2000) * sizeof(double)));
    cudaCheckReturn(cudaMalloc((void **) &dev_b, (n) * sizeof(double)));
    cudaCheckReturn(cudaMalloc((void **) &dev_x, (n) * sizeof(double)));
    
    cudaCheckReturn(cudaMemcpy(dev_L, L, (n) * (2000) * sizeof(double), cudaMemcpyHostToDevice));
    cudaCheckReturn(cudaMemcpy(dev_b, b, (n) * sizeof(double), cudaMemcpyHostToDevice));
    {
      dim3 k0_dimBlock(32);
      dim3 k0_dimGrid(ppcg_min(32768, (n + 31) / 32));
      kernel0 <<<k0_dimGrid, k0_dimBlock>>> (dev_b, dev_x, n);
      cudaCheckKernel();
    }
    
    for (int c0 = 0; c0 < n; c0 += 1) {
      {
        dim3 k1_dimBlock;
        dim3 k1_dimGrid;
        kernel1 <<<k1_dimGrid, k1_dimBlock>>> (dev_L, dev_x, n, c0);
        cudaCheckKernel();
      }
      
      if (n >= c0 + 2)
        {
          dim3 k2_dimBlock(32);
          dim3 k2_dimGrid(ppcg_min(32768, (n + 30) / 32));
          kernel2 <<<k2_dimGrid, k2_dimBlock>>> (dev_L, dev_x, n, c0);
          cudaCheckKernel();
        }
        
    }
    cudaCheckReturn(cudaMemcpy(x, dev_x, (n) * sizeof(double), cudaMemcpyDeviceToHost));
    cudaCheckReturn(cudaFree(dev_L));
    cudaCheckReturn(cudaFree(dev_b));
    cudaCheckReturn(cudaFree(dev_x));
  }
}

int main(int argc, char **argv)
{
  int n = N;
  POLYBENCH_2D_ARRAY_DECL(L, DATA_TYPE, N, N, n, n);
  POLYBENCH_1D_ARRAY_DECL(x, DATA_TYPE, N, n);
  POLYBENCH_1D_ARRAY_DECL(b, DATA_TYPE, N, n);

  init_array(n, POLYBENCH_ARRAY(L), POLYBENCH_ARRAY(x), POLYBENCH_ARRAY(b));

  polybench_start_instruments;
  kernel_trisolv(n, POLYBENCH_ARRAY(L), POLYBENCH_ARRAY(x),
                 POLYBENCH_ARRAY(b));
  polybench_stop_instruments;
  polybench_print_instruments;

  polybench_prevent_dce(print_array(n, POLYBENCH_ARRAY(x)));

  POLYBENCH_FREE_ARRAY(L);
  POLYBENCH_FREE_ARRAY(x);
  POLYBENCH_FREE_ARRAY(b);
  return 0;
}
