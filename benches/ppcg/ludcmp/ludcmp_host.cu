#include <assert.h>
#include <stdio.h>
#include "ludcmp_kernel.hu"
/*
 * ludcmp.c -- LU decomposition without pivoting followed by forward and
 *             backward substitution, solving A*x = b.
 *
 * Part of the pencilc PolyBench test suite: our own implementation of the
 * PolyBench/C 4.2.1 "ludcmp" benchmark (same algorithm, loop structure,
 * initialisation and dataset sizes).
 */
#include <stdio.h>
#include <math.h>

#include <polybench.h>
#include "ludcmp.h"

/* Deterministic input data: A is the same symmetric positive definite
   matrix as for cholesky and lu. */
static void init_array(int n,
                       DATA_TYPE POLYBENCH_2D(A, N, N, n, n),
                       DATA_TYPE POLYBENCH_1D(b, N, n),
                       DATA_TYPE POLYBENCH_1D(x, N, n),
                       DATA_TYPE POLYBENCH_1D(y, N, n))
{
  int i, j, r, s, t;
  DATA_TYPE fn = (DATA_TYPE) n;
  POLYBENCH_2D_ARRAY_DECL(B, DATA_TYPE, N, N, n, n);

  for (i = 0; i < n; i++) {
    x[i] = 0;
    y[i] = 0;
    b[i] = (i + 1) / fn / 2.0 + 4;
  }
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

/* Dump the live-out data: the solution x, then y and the factored A. */
static void print_array(int n,
                        DATA_TYPE POLYBENCH_1D(x, N, n),
                        DATA_TYPE POLYBENCH_1D(y, N, n),
                        DATA_TYPE POLYBENCH_2D(A, N, N, n, n))
{
  int i, j;

  POLYBENCH_DUMP_START;
  POLYBENCH_DUMP_BEGIN("x");
  for (i = 0; i < n; i++) {
    if (i % 20 == 0)
      fprintf(POLYBENCH_DUMP_TARGET, "\n");
    fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, x[i]);
  }
  POLYBENCH_DUMP_END("x");
  POLYBENCH_DUMP_BEGIN("y");
  for (i = 0; i < n; i++) {
    if (i % 20 == 0)
      fprintf(POLYBENCH_DUMP_TARGET, "\n");
    fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, y[i]);
  }
  POLYBENCH_DUMP_END("y");
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
static void kernel_ludcmp(int n,
                          DATA_TYPE POLYBENCH_2D(A, N, N, n, n),
                          DATA_TYPE POLYBENCH_1D(b, N, n),
                          DATA_TYPE POLYBENCH_1D(x, N, n),
                          DATA_TYPE POLYBENCH_1D(y, N, n))
{
  int i, j, k;
  DATA_TYPE w;

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
    
    cudaCheckReturn(cudaMalloc((void **) &dev_A, (n) * (2000) * sizeof(double)));
    
    cudaCheckReturn(cudaMemcpy(dev_A, A, (n) * (2000) * sizeof(double), cudaMemcpyHostToDevice));
    for (int c0 = 0; c0 < n; c0 += 1) {
      if (c0 >= 1)
        {
          dim3 k0_dimBlock;
          dim3 k0_dimGrid;
          kernel0 <<<k0_dimGrid, k0_dimBlock>>> (dev_A, n, c0);
          cudaCheckKernel();
        }
        
      if (c0 <= 1999)
        {
          dim3 k1_dimBlock(32);
          dim3 k1_dimGrid(ppcg_min(63, (n + 31) / 32));
          kernel1 <<<k1_dimGrid, k1_dimBlock>>> (dev_A, n, c0);
          cudaCheckKernel();
        }
        
    }
    cudaCheckReturn(cudaMemcpy(A, dev_A, (n) * (2000) * sizeof(double), cudaMemcpyDeviceToHost));
    for (int c0 = 0; c0 < n; c0 += 1) {
      w = b[c0];
      for (int c1 = 0; c1 < c0; c1 += 1)
        w -= (A[c0][c1] * y[c1]);
      y[c0] = w;
    }
    for (int c0 = -n + 1; c0 <= 0; c0 += 1) {
      w = y[-c0];
      for (int c1 = -c0 + 1; c1 < n; c1 += 1)
        w -= (A[-c0][c1] * x[c1]);
      x[-c0] = (w / A[-c0][-c0]);
    }
    cudaCheckReturn(cudaFree(dev_A));
  }
}

int main(int argc, char **argv)
{
  int n = N;
  POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, N, N, n, n);
  POLYBENCH_1D_ARRAY_DECL(b, DATA_TYPE, N, n);
  POLYBENCH_1D_ARRAY_DECL(x, DATA_TYPE, N, n);
  POLYBENCH_1D_ARRAY_DECL(y, DATA_TYPE, N, n);

  init_array(n, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(b), POLYBENCH_ARRAY(x),
             POLYBENCH_ARRAY(y));

  polybench_start_instruments;
  kernel_ludcmp(n, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(b),
                POLYBENCH_ARRAY(x), POLYBENCH_ARRAY(y));
  polybench_stop_instruments;
  polybench_print_instruments;

  polybench_prevent_dce(print_array(n, POLYBENCH_ARRAY(x), POLYBENCH_ARRAY(y),
                                    POLYBENCH_ARRAY(A)));

  POLYBENCH_FREE_ARRAY(A);
  POLYBENCH_FREE_ARRAY(b);
  POLYBENCH_FREE_ARRAY(x);
  POLYBENCH_FREE_ARRAY(y);
  return 0;
}
