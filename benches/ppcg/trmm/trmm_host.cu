#include <assert.h>
#include <stdio.h>
#include "trmm_kernel.hu"
/*
 * trmm.c -- triangular matrix product, B := alpha*A^T*B, with A unit lower
 *           triangular (only its strict lower triangle is read).
 *
 * Part of the pencilc PolyBench test suite: our own implementation of the
 * PolyBench/C 4.2.1 "trmm" benchmark (same algorithm, loop structure,
 * initialisation and dataset sizes).
 */
#include <stdio.h>
#include <math.h>

#include <polybench.h>
#include "trmm.h"

/* Deterministic input data (the strict upper triangle of A is not set:
   it is never read). */
static void init_array(int m, int n,
                       DATA_TYPE *alpha,
                       DATA_TYPE POLYBENCH_2D(A, M, M, m, m),
                       DATA_TYPE POLYBENCH_2D(B, M, N, m, n))
{
  int i, j;

  *alpha = 1.5;
  for (i = 0; i < m; i++) {
    for (j = 0; j < i; j++)
      A[i][j] = (DATA_TYPE) ((i + j) % m) / m;
    A[i][i] = 1.0;
    for (j = 0; j < n; j++)
      B[i][j] = (DATA_TYPE) ((n + (i - j)) % n) / n;
  }
}

/* Dump the live-out data. */
static void print_array(int m, int n,
                        DATA_TYPE POLYBENCH_2D(B, M, N, m, n))
{
  int i, j;

  POLYBENCH_DUMP_START;
  POLYBENCH_DUMP_BEGIN("B");
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
      if ((i * n + j) % 20 == 0)
        fprintf(POLYBENCH_DUMP_TARGET, "\n");
      fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, B[i][j]);
    }
  POLYBENCH_DUMP_END("B");
  POLYBENCH_DUMP_FINISH;
}

/* The timed kernel. */
static void kernel_trmm(int m, int n,
                        DATA_TYPE alpha,
                        DATA_TYPE POLYBENCH_2D(A, M, M, m, m),
                        DATA_TYPE POLYBENCH_2D(B, M, N, m, n))
{
  int i, j, k;

  #define ppcg_min(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x < _y ? _x : _y; })
  if (m >= 1 && n >= 1) {
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

    double *dev_A;
    double *dev_B;
    
    cudaCheckReturn(cudaMalloc((void **) &dev_A, (m) * (1000) * sizeof(double)));
    cudaCheckReturn(cudaMalloc((void **) &dev_B, (m) * (1200) * sizeof(double)));
    
    if (m >= 2)
      cudaCheckReturn(cudaMemcpy(dev_A, A, (m) * (1000) * sizeof(double), cudaMemcpyHostToDevice));
    cudaCheckReturn(cudaMemcpy(dev_B, B, (m) * (1200) * sizeof(double), cudaMemcpyHostToDevice));
    if (m >= 2)
      {
        dim3 k0_dimBlock(32);
        dim3 k0_dimGrid(ppcg_min(38, (n + 31) / 32));
        kernel0 <<<k0_dimGrid, k0_dimBlock>>> (dev_A, dev_B, m, n);
        cudaCheckKernel();
      }
      
    {
      dim3 k1_dimBlock(16, 32);
      dim3 k1_dimGrid(ppcg_min(38, (n + 31) / 32), ppcg_min(256, (m + 31) / 32));
      kernel1 <<<k1_dimGrid, k1_dimBlock>>> (dev_B, alpha, m, n);
      cudaCheckKernel();
    }
    
    cudaCheckReturn(cudaMemcpy(B, dev_B, (m) * (1200) * sizeof(double), cudaMemcpyDeviceToHost));
    cudaCheckReturn(cudaFree(dev_A));
    cudaCheckReturn(cudaFree(dev_B));
  }
}

int main(int argc, char **argv)
{
  int m = M;
  int n = N;
  DATA_TYPE alpha;
  POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, M, M, m, m);
  POLYBENCH_2D_ARRAY_DECL(B, DATA_TYPE, M, N, m, n);

  init_array(m, n, &alpha, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));

  polybench_start_instruments;
  kernel_trmm(m, n, alpha, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));
  polybench_stop_instruments;
  polybench_print_instruments;

  polybench_prevent_dce(print_array(m, n, POLYBENCH_ARRAY(B)));

  POLYBENCH_FREE_ARRAY(A);
  POLYBENCH_FREE_ARRAY(B);
  return 0;
}
