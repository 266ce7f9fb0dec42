#include <assert.h>
#include <stdio.h>
#include "syr2k_kernel.hu"
/*
 * syr2k.c -- symmetric rank-2k update of the lower triangle of C,
 *            C := alpha*A*B^T + alpha*B*A^T + beta*C.
 *
 * Part of the pencilc PolyBench test suite: our own implementation of the
 * PolyBench/C 4.2.1 "syr2k" benchmark (same algorithm, loop structure,
 * initialisation and dataset sizes).
 */
#include <stdio.h>
#include <math.h>

#include <polybench.h>
#include "syr2k.h"

/* Deterministic input data. */
static void init_array(int n, int m,
                       DATA_TYPE *alpha, DATA_TYPE *beta,
                       DATA_TYPE POLYBENCH_2D(C, N, N, n, n),
                       DATA_TYPE POLYBENCH_2D(A, N, M, n, m),
                       DATA_TYPE POLYBENCH_2D(B, N, M, n, m))
{
  int i, j;

  *alpha = 1.5;
  *beta = 1.2;
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++) {
      A[i][j] = (DATA_TYPE) ((i * j + 1) % n) / n;
      B[i][j] = (DATA_TYPE) ((i * j + 2) % m) / m;
    }
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      C[i][j] = (DATA_TYPE) ((i * j + 3) % n) / m;
}

/* Dump the live-out data (all of C; the upper triangle is unchanged). */
static void print_array(int n,
                        DATA_TYPE POLYBENCH_2D(C, N, N, n, n))
{
  int i, j;

  POLYBENCH_DUMP_START;
  POLYBENCH_DUMP_BEGIN("C");
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      if ((i * n + j) % 20 == 0)
        fprintf(POLYBENCH_DUMP_TARGET, "\n");
      fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, C[i][j]);
    }
  POLYBENCH_DUMP_END("C");
  POLYBENCH_DUMP_FINISH;
}

/* The timed kernel. */
static void kernel_syr2k(int n, int m,
                         DATA_TYPE alpha, DATA_TYPE beta,
                         DATA_TYPE POLYBENCH_2D(C, N, N, n, n),
                         DATA_TYPE POLYBENCH_2D(A, N, M, n, m),
                         DATA_TYPE POLYBENCH_2D(B, N, M, n, m))
{
  int i, j, k;

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

    double *dev_A;
    double *dev_B;
    double *dev_C;
    
    cudaCheckReturn(cudaMalloc((void **) &dev_A, (n) * (1000) * sizeof(double)));
    cudaCheckReturn(cudaMalloc((void **) &dev_B, (n) * (1000) * sizeof(double)));
    cudaCheckReturn(cudaMalloc((void **) &dev_C, (n) * (1200) * sizeof(double)));
    
    if (m >= 1) {
      cudaCheckReturn(cudaMemcpy(dev_A, A, (n) * (1000) * sizeof(double), cudaMemcpyHostToDevice));
      cudaCheckReturn(cudaMemcpy(dev_B, B, (n) * (1000) * sizeof(double), cudaMemcpyHostToDevice));
    }
    cudaCheckReturn(cudaMemcpy(dev_C, C, (n) * (1200) * sizeof(double), cudaMemcpyHostToDevice));
    {
      dim3 k0_dimBlock(16, 32);
      dim3 k0_dimGrid(ppcg_min(38, (n + 31) / 32), ppcg_min(256, (n + 31) / 32));
      kernel0 <<<k0_dimGrid, k0_dimBlock>>> (dev_A, dev_B, dev_C, alpha, beta, n, m);
      cudaCheckKernel();
    }
    
    cudaCheckReturn(cudaMemcpy(C, dev_C, (n) * (1200) * sizeof(double), cudaMemcpyDeviceToHost));
    cudaCheckReturn(cudaFree(dev_A));
    cudaCheckReturn(cudaFree(dev_B));
    cudaCheckReturn(cudaFree(dev_C));
  }
}

int main(int argc, char **argv)
{
  int n = N;
  int m = M;
  DATA_TYPE alpha;
  DATA_TYPE beta;
  POLYBENCH_2D_ARRAY_DECL(C, DATA_TYPE, N, N, n, n);
  POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, N, M, n, m);
  POLYBENCH_2D_ARRAY_DECL(B, DATA_TYPE, N, M, n, m);

  init_array(n, m, &alpha, &beta, POLYBENCH_ARRAY(C), POLYBENCH_ARRAY(A),
             POLYBENCH_ARRAY(B));

  polybench_start_instruments;
  kernel_syr2k(n, m, alpha, beta, POLYBENCH_ARRAY(C), POLYBENCH_ARRAY(A),
               POLYBENCH_ARRAY(B));
  polybench_stop_instruments;
  polybench_print_instruments;

  polybench_prevent_dce(print_array(n, POLYBENCH_ARRAY(C)));

  POLYBENCH_FREE_ARRAY(C);
  POLYBENCH_FREE_ARRAY(A);
  POLYBENCH_FREE_ARRAY(B);
  return 0;
}
