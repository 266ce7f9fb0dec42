#include <assert.h>
#include <stdio.h>
#include "heat-3d_kernel.hu"
/*
 * heat-3d.c -- explicit 7-point heat equation stencil on a 3-D grid,
 *              ping-ponging between A and B.
 *
 * Part of the pencilc PolyBench test suite: our own implementation of the
 * PolyBench/C 4.2.1 "heat-3d" benchmark (same algorithm, loop structure,
 * initialisation and dataset sizes).
 */
#include <stdio.h>
#include <math.h>

#include <polybench.h>
#include "heat-3d.h"

/* Deterministic input data (A and B start equal). */
static void init_array(int n,
                       DATA_TYPE POLYBENCH_3D(A, N, N, N, n, n, n),
                       DATA_TYPE POLYBENCH_3D(B, N, N, N, n, n, n))
{
  int i, j, k;

  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      for (k = 0; k < n; k++) {
        A[i][j][k] = (DATA_TYPE) (i + j + (n - k)) * 10 / (n);
        B[i][j][k] = A[i][j][k];
      }
}

/* Dump the live-out data (both grids are written by the kernel). */
static void print_array(int n,
                        DATA_TYPE POLYBENCH_3D(A, N, N, N, n, n, n),
                        DATA_TYPE POLYBENCH_3D(B, N, N, N, n, n, n))
{
  int i, j, k;

  POLYBENCH_DUMP_START;
  POLYBENCH_DUMP_BEGIN("A");
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      for (k = 0; k < n; k++) {
        if (((i * n + j) * n + k) % 20 == 0)
          fprintf(POLYBENCH_DUMP_TARGET, "\n");
        fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, A[i][j][k]);
      }
  POLYBENCH_DUMP_END("A");
  POLYBENCH_DUMP_BEGIN("B");
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      for (k = 0; k < n; k++) {
        if (((i * n + j) * n + k) % 20 == 0)
          fprintf(POLYBENCH_DUMP_TARGET, "\n");
        fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, B[i][j][k]);
      }
  POLYBENCH_DUMP_END("B");
  POLYBENCH_DUMP_FINISH;
}

/* The timed kernel. */
static void kernel_heat_3d(int tsteps, int n,
                           DATA_TYPE POLYBENCH_3D(A, N, N, N, n, n, n),
                           DATA_TYPE POLYBENCH_3D(B, N, N, N, n, n, n))
{
  int t, i, j, k;

  #define ppcg_min(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x < _y ? _x : _y; })
  if (n >= 3) {
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
    
    cudaCheckReturn(cudaMalloc((void **) &dev_A, (n) * (120) * (120) * sizeof(double)));
    cudaCheckReturn(cudaMalloc((void **) &dev_B, (n) * (120) * (120) * sizeof(double)));
    
    cudaCheckReturn(cudaMemcpy(dev_A, A, (n) * (120) * (120) * sizeof(double), cudaMemcpyHostToDevice));
    cudaCheckReturn(cudaMemcpy(dev_B, B, (n) * (120) * (120) * sizeof(double), cudaMemcpyHostToDevice));
    for (int c0 = 1; c0 <= 500; c0 += 1) {
      {
        dim3 k0_dimBlock(4, 4, 32);
        dim3 k0_dimGrid(ppcg_min(4, (n + 29) / 32), ppcg_min(256, (n + 29) / 32));
        kernel0 <<<k0_dimGrid, k0_dimBlock>>> (dev_A, dev_B, n, c0);
        cudaCheckKernel();
      }
      
      {
        dim3 k1_dimBlock(4, 4, 32);
        dim3 k1_dimGrid(ppcg_min(4, (n + 29) / 32), ppcg_min(256, (n + 29) / 32));
        kernel1 <<<k1_dimGrid, k1_dimBlock>>> (dev_A, dev_B, n, c0);
        cudaCheckKernel();
      }
      
    }
    cudaCheckReturn(cudaMemcpy(A, dev_A, (n) * (120) * (120) * sizeof(double), cudaMemcpyDeviceToHost));
    cudaCheckReturn(cudaMemcpy(B, dev_B, (n) * (120) * (120) * sizeof(double), cudaMemcpyDeviceToHost));
    cudaCheckReturn(cudaFree(dev_A));
    cudaCheckReturn(cudaFree(dev_B));
  }
}

int main(int argc, char **argv)
{
  int n = N;
  int tsteps = TSTEPS;
  POLYBENCH_3D_ARRAY_DECL(A, DATA_TYPE, N, N, N, n, n, n);
  POLYBENCH_3D_ARRAY_DECL(B, DATA_TYPE, N, N, N, n, n, n);

  init_array(n, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));

  polybench_start_instruments;
  kernel_heat_3d(tsteps, n, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));
  polybench_stop_instruments;
  polybench_print_instruments;

  polybench_prevent_dce(print_array(n, POLYBENCH_ARRAY(A),
                                    POLYBENCH_ARRAY(B)));

  POLYBENCH_FREE_ARRAY(A);
  POLYBENCH_FREE_ARRAY(B);
  return 0;
}
