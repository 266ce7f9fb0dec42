#include <assert.h>
#include <stdio.h>
#include "mvt_kernel.hu"
/*
 * mvt.c -- two matrix-vector products, x1 += A*y_1 and x2 += A^T*y_2.
 *
 * Part of the pencilc PolyBench test suite: our own implementation of the
 * PolyBench/C 4.2.1 "mvt" benchmark (same algorithm, loop structure,
 * initialisation and dataset sizes).
 */
#include <stdio.h>
#include <math.h>

#include <polybench.h>
#include "mvt.h"

/* Deterministic input data. */
static void init_array(int n,
                       DATA_TYPE POLYBENCH_1D(x1, N, n),
                       DATA_TYPE POLYBENCH_1D(x2, N, n),
                       DATA_TYPE POLYBENCH_1D(y_1, N, n),
                       DATA_TYPE POLYBENCH_1D(y_2, N, n),
                       DATA_TYPE POLYBENCH_2D(A, N, N, n, n))
{
  int i, j;

  for (i = 0; i < n; i++) {
    x1[i] = (DATA_TYPE) (i % n) / n;
    x2[i] = (DATA_TYPE) ((i + 1) % n) / n;
    y_1[i] = (DATA_TYPE) ((i + 3) % n) / n;
    y_2[i] = (DATA_TYPE) ((i + 4) % n) / n;
    for (j = 0; j < n; j++)
      A[i][j] = (DATA_TYPE) (i * j % n) / n;
  }
}

/* Dump the live-out data. */
static void print_array(int n,
                        DATA_TYPE POLYBENCH_1D(x1, N, n),
                        DATA_TYPE POLYBENCH_1D(x2, N, n))
{
  int i;

  POLYBENCH_DUMP_START;
  POLYBENCH_DUMP_BEGIN("x1");
  for (i = 0; i < n; i++) {
    if (i % 20 == 0)
      fprintf(POLYBENCH_DUMP_TARGET, "\n");
    fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, x1[i]);
  }
  POLYBENCH_DUMP_END("x1");
  POLYBENCH_DUMP_BEGIN("x2");
  for (i = 0; i < n; i++) {
    if (i % 20 == 0)
      fprintf(POLYBENCH_DUMP_TARGET, "\n");
    fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, x2[i]);
  }
  POLYBENCH_DUMP_END("x2");
  POLYBENCH_DUMP_FINISH;
}

/* The timed kernel. */
static void kernel_mvt(int n,
                       DATA_TYPE POLYBENCH_1D(x1, N, n),
                       DATA_TYPE POLYBENCH_1D(x2, N, n),
                       DATA_TYPE POLYBENCH_1D(y_1, N, n),
                       DATA_TYPE POLYBENCH_1D(y_2, N, n),
                       DATA_TYPE POLYBENCH_2D(A, N, N, n, n))
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

    double *dev_A;
    double *dev_x1;
    double *dev_x2;
    double *dev_y_1;
    double *dev_y_2;
    
    cudaCheckReturn(cudaMalloc((void **) &dev_A, (n) * (2000) * sizeof(double)));
    cudaCheckReturn(cudaMalloc((void **) &dev_x1, (n) * sizeof(double)));
    cudaCheckReturn(cudaMalloc((void **) &dev_x2, (n) * sizeof(double)));
    cudaCheckReturn(cudaMalloc((void **) &dev_y_1, (n) * sizeof(double)));
    cudaCheckReturn(cudaMalloc((void **) &dev_y_2, (n) * sizeof(double)));
    
    cudaCheckReturn(cudaMemcpy(dev_A, A, (n) * (2000) * sizeof(double), cudaMemcpyHostToDevice));
    cudaCheckReturn(cudaMemcpy(dev_x1, x1, (n) * sizeof(double), cudaMemcpyHostToDevice));
    cudaCheckReturn(cudaMemcpy(dev_x2, x2, (n) * sizeof(double), cudaMemcpyHostToDevice));
    cudaCheckReturn(cudaMemcpy(dev_y_1, y_1, (n) * sizeof(double), cudaMemcpyHostToDevice));
    cudaCheckReturn(cudaMemcpy(dev_y_2, y_2, (n) * sizeof(double), cudaMemcpyHostToDevice));
    {
      dim3 k0_dimBlock(32);
      dim3 k0_dimGrid(ppcg_min(32768, (n + 31) / 32));
      kernel0 <<<k0_dimGrid, k0_dimBlock>>> (dev_A, dev_x2, dev_y_2, n);
      cudaCheckKernel();
    }
    
    {
      dim3 k1_dimBlock(32);
      dim3 k1_dimGrid(ppcg_min(32768, (n + 31) / 32));
      kernel1 <<<k1_dimGrid, k1_dimBlock>>> (dev_A, dev_x1, dev_y_1, n);
      cudaCheckKernel();
    }
    
    cudaCheckReturn(cudaMemcpy(x1, dev_x1, (n) * sizeof(double), cudaMemcpyDeviceToHost));
    cudaCheckReturn(cudaMemcpy(x2, dev_x2, (n) * sizeof(double), cudaMemcpyDeviceToHost));
    cudaCheckReturn(cudaFree(dev_A));
    cudaCheckReturn(cudaFree(dev_x1));
    cudaCheckReturn(cudaFree(dev_x2));
    cudaCheckReturn(cudaFree(dev_y_1));
    cudaCheckReturn(cudaFree(dev_y_2));
  }
}

int main(int argc, char **argv)
{
  int n = N;
  POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, N, N, n, n);
  POLYBENCH_1D_ARRAY_DECL(x1, DATA_TYPE, N, n);
  POLYBENCH_1D_ARRAY_DECL(x2, DATA_TYPE, N, n);
  POLYBENCH_1D_ARRAY_DECL(y_1, DATA_TYPE, N, n);
  POLYBENCH_1D_ARRAY_DECL(y_2, DATA_TYPE, N, n);

  init_array(n, POLYBENCH_ARRAY(x1), POLYBENCH_ARRAY(x2),
             POLYBENCH_ARRAY(y_1), POLYBENCH_ARRAY(y_2), POLYBENCH_ARRAY(A));

  polybench_start_instruments;
  kernel_mvt(n, POLYBENCH_ARRAY(x1), POLYBENCH_ARRAY(x2),
             POLYBENCH_ARRAY(y_1), POLYBENCH_ARRAY(y_2), POLYBENCH_ARRAY(A));
  polybench_stop_instruments;
  polybench_print_instruments;

  polybench_prevent_dce(print_array(n, POLYBENCH_ARRAY(x1),
                                    POLYBENCH_ARRAY(x2)));

  POLYBENCH_FREE_ARRAY(A);
  POLYBENCH_FREE_ARRAY(x1);
  POLYBENCH_FREE_ARRAY(x2);
  POLYBENCH_FREE_ARRAY(y_1);
  POLYBENCH_FREE_ARRAY(y_2);
  return 0;
}
