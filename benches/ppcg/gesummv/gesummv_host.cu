#include <assert.h>
#include <stdio.h>
#include "gesummv_kernel.hu"
/*
 * gesummv.c -- sum of two matrix-vector products, y := alpha*A*x + beta*B*x.
 *
 * Part of the pencilc PolyBench test suite: our own implementation of the
 * PolyBench/C 4.2.1 "gesummv" benchmark (same algorithm, loop structure,
 * initialisation and dataset sizes).
 */
#include <stdio.h>
#include <math.h>

#include <polybench.h>
#include "gesummv.h"

/* Deterministic input data. */
static void init_array(int n,
                       DATA_TYPE *alpha, DATA_TYPE *beta,
                       DATA_TYPE POLYBENCH_2D(A, N, N, n, n),
                       DATA_TYPE POLYBENCH_2D(B, N, N, n, n),
                       DATA_TYPE POLYBENCH_1D(x, N, n))
{
  int i, j;

  *alpha = 1.5;
  *beta = 1.2;
  for (i = 0; i < n; i++) {
    x[i] = (DATA_TYPE) (i % n) / n;
    for (j = 0; j < n; j++) {
      A[i][j] = (DATA_TYPE) ((i * j + 1) % n) / n;
      B[i][j] = (DATA_TYPE) ((i * j + 2) % n) / n;
    }
  }
}

/* Dump the live-out data: the result y, then the intermediate tmp. */
static void print_array(int n,
                        DATA_TYPE POLYBENCH_1D(y, N, n),
                        DATA_TYPE POLYBENCH_1D(tmp, N, n))
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
  POLYBENCH_DUMP_BEGIN("tmp");
  for (i = 0; i < n; i++) {
    if (i % 20 == 0)
      fprintf(POLYBENCH_DUMP_TARGET, "\n");
    fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, tmp[i]);
  }
  POLYBENCH_DUMP_END("tmp");
  POLYBENCH_DUMP_FINISH;
}

/* The timed kernel. */
static void kernel_gesummv(int n,
                           DATA_TYPE alpha, DATA_TYPE beta,
                           DATA_TYPE POLYBENCH_2D(A, N, N, n, n),
                           DATA_TYPE POLYBENCH_2D(B, N, N, n, n),
                           DATA_TYPE POLYBENCH_1D(tmp, N, n),
                           DATA_TYPE POLYBENCH_1D(x, N, n),
                           DATA_TYPE POLYBENCH_1D(y, N, n))
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
    double *dev_B;
    double *dev_tmp;
    double *dev_x;
    double *dev_y;
    
    cudaCheckReturn(cudaMalloc((void **) &dev_A, (n) * (1300) * sizeof(double)));
    cudaCheckReturn(cudaMalloc((void **) &dev_B, (n) * (1300) * sizeof(double)));
    cudaCheckReturn(cudaMalloc((void **) &dev_tmp, (n) * sizeof(double)));
    cudaCheckReturn(cudaMalloc((void **) &dev_x, (n) * sizeof(double)));
    cudaCheckReturn(cudaMalloc((void **) &dev_y, (n) * sizeof(double)));
    
    cudaCheckReturn(cudaMemcpy(dev_A, A, (n) * (1300) * sizeof(double), cudaMemcpyHostToDevice));
    cudaCheckReturn(cudaMemcpy(dev_B, B, (n) * (1300) * sizeof(double), cudaMemcpyHostToDevice));
    cudaCheckReturn(cudaMemcpy(dev_x, x, (n) * sizeof(double), cudaMemcpyHostToDevice));
    {
      dim3 k0_dimBlock(32);
      dim3 k0_dimGrid(ppcg_min(32768, (n + 31) / 32));
      kernel0 <<<k0_dimGrid, k0_dimBlock>>> (dev_A, dev_B, alpha, beta, dev_tmp, dev_x, dev_y, n);
      cudaCheckKernel();
    }
    
    cudaCheckReturn(cudaMemcpy(tmp, dev_tmp, (n) * sizeof(double), cudaMemcpyDeviceToHost));
    cudaCheckReturn(cudaMemcpy(y, dev_y, (n) * sizeof(double), cudaMemcpyDeviceToHost));
    cudaCheckReturn(cudaFree(dev_A));
    cudaCheckReturn(cudaFree(dev_B));
    cudaCheckReturn(cudaFree(dev_tmp));
    cudaCheckReturn(cudaFree(dev_x));
    cudaCheckReturn(cudaFree(dev_y));
  }
}

int main(int argc, char **argv)
{
  int n = N;
  DATA_TYPE alpha;
  DATA_TYPE beta;
  POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, N, N, n, n);
  POLYBENCH_2D_ARRAY_DECL(B, DATA_TYPE, N, N, n, n);
  POLYBENCH_1D_ARRAY_DECL(tmp, DATA_TYPE, N, n);
  POLYBENCH_1D_ARRAY_DECL(x, DATA_TYPE, N, n);
  POLYBENCH_1D_ARRAY_DECL(y, DATA_TYPE, N, n);

  init_array(n, &alpha, &beta, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B),
             POLYBENCH_ARRAY(x));

  polybench_start_instruments;
  kernel_gesummv(n, alpha, beta, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B),
                 POLYBENCH_ARRAY(tmp), POLYBENCH_ARRAY(x), POLYBENCH_ARRAY(y));
  polybench_stop_instruments;
  polybench_print_instruments;

  polybench_prevent_dce(print_array(n, POLYBENCH_ARRAY(y),
                                    POLYBENCH_ARRAY(tmp)));

  POLYBENCH_FREE_ARRAY(A);
  POLYBENCH_FREE_ARRAY(B);
  POLYBENCH_FREE_ARRAY(tmp);
  POLYBENCH_FREE_ARRAY(x);
  POLYBENCH_FREE_ARRAY(y);
  return 0;
}
