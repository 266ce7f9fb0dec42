#include <assert.h>
#include <stdio.h>
#include "lu_kernel.hu"
/*
 * lu.c -- in-place LU decomposition without pivoting, A = L*U (L unit lower
 *         triangular below the diagonal, U on and above it).
 *
 * Part of the pencilc PolyBench test suite: our own implementation of the
 * PolyBench/C 4.2.1 "lu" benchmark (same algorithm, loop structure,
 * initialisation and dataset sizes).
 */
#include <stdio.h>
#include <math.h>

#include <polybench.h>
#include "lu.h"

/* Deterministic input data: the same symmetric positive definite matrix
   as for cholesky (L*L^T for a unit lower triangular L). */
static void init_array(int n,
                       DATA_TYPE POLYBENCH_2D(A, N, N, n, n))
{
  int i, j, r, s, t;
  POLYBENCH_2D_ARRAY_DECL(B, DATA_TYPE, N, N, n, n);

  for (i = 0; i < n; i++) {
    for (j = 0; j <= i; j++)
      A[i][j] = (DATA_TYPE) (-j % n) / n + 1;
    for (j = i + 1; j < n; j++)
      A[i][j] = 0;
    A[i][i] = 1;
  }
  for (r = 0; r < n; r++)
    for (s = 0; s < n; s++)
      (POLYBENCH_ARRAY(B))[r][s] = 0;
  for (t = 0; t < n; t++)
    for (r = 0; r < n; r++)
      for (s = 0; s < n; s++)
        (POLYBENCH_ARRAY(B))[r][s] += A[r][t] * A[s][t];
  for (r = 0; r < n; r++)
    for (s = 0; s < n; s++)
      A[r][s] = (POLYBENCH_ARRAY(B))[r][s];
  POLYBENCH_FREE_ARRAY(B);
}

/* Dump the live-out data. */
static void print_array(int n,
                        DATA_TYPE POLYBENCH_2D(A, N, N, n, n))
{
  int i, j;

  POLYBENCH_DUMP_START;
  POLYBENCH_DUMP_BEGIN("A");
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      if ((i * n + j) % 20 == 0)
        fprintf(POLYBENCH_DUMP_TARGET, "\n");
      fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, A[i][j]);
    }
  POLYBENCH_DUMP_END("A");
  POLYBENCH_DUMP_FINISH;
}

/* The timed kernel. */
static void kernel_lu(int n,
                      DATA_TYPE POLYBENCH_2D(A, N, N, n, n))
{
  int i, j, k;

  #define ppcg_min(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x < _y ? _x : _y; })
  if (n >= 2) {
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
    
    cudaCheckReturn(cudaMalloc((void **) &dev_A, (n) * (2000) * sizeof(double)));
    
    cudaCheckReturn(cudaMemcpy(dev_A, A, (n) * (2000) * sizeof(double), cudaMemcpyHostToDevice));
    for (int c0 = 0; c0 <= ppcg_min(1999, n - 2); c0 += 1) {
      {
        dim3 k0_dimBlock(32);
        dim3 k0_dimGrid(ppcg_min(32768, (n + 30) / 32));
        kernel0 <<<k0_dimGrid, k0_dimBlock>>> (dev_A, n, c0);
        cudaCheckKernel();
      }
      
      if (c0 <= 1998) {
        {
          dim3 k1_dimBlock(16, 32);
          dim3 k1_dimGrid(ppcg_min(63, (n + 30) / 32), ppcg_min(63, (n + 30) / 32));
          kernel1 <<<k1_dimGrid, k1_dimBlock>>> (dev_A, n, c0);
          cudaCheckKernel();
        }
        
        if (n >= c0 + 3)
          {
            dim3 k2_dimBlock(16, 32);
            dim3 k2_dimGrid(ppcg_min(63, (n + 29) / 32), ppcg_min(256, (n + 29) / 32));
            kernel2 <<<k2_dimGrid, k2_dimBlock>>> (dev_A, n, c0);
            cudaCheckKernel();
          }
          
      }
    }
    cudaCheckReturn(cudaMemcpy(A, dev_A, (n) * (2000) * sizeof(double), cudaMemcpyDeviceToHost));
    cudaCheckReturn(cudaFree(dev_A));
  }
}

int main(int argc, char **argv)
{
  int n = N;
  POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, N, N, n, n);

  init_array(n, POLYBENCH_ARRAY(A));

  polybench_start_instruments;
  kernel_lu(n, POLYBENCH_ARRAY(A));
  polybench_stop_instruments;
  polybench_print_instruments;

  polybench_prevent_dce(print_array(n, POLYBENCH_ARRAY(A)));

  POLYBENCH_FREE_ARRAY(A);
  return 0;
}
