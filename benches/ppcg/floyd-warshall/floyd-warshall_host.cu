#include <assert.h>
#include <stdio.h>
#include "floyd-warshall_kernel.hu"
/*
 * floyd-warshall.c -- all-pairs shortest path lengths on a dense weighted
 *                     graph (element type defaults to int).
 *
 * Part of the pencilc PolyBench test suite: our own implementation of the
 * PolyBench/C 4.2.1 "floyd-warshall" benchmark (same algorithm, loop
 * structure, initialisation and dataset sizes).
 */
#include <stdio.h>
#include <math.h>

#include <polybench.h>
#include "floyd-warshall.h"

/* Deterministic input data: edge weights 1..7, with some pairs given the
   large weight 999 ("no direct edge"). */
static void init_array(int n,
                       DATA_TYPE POLYBENCH_2D(path, N, N, n, n))
{
  int i, j;

  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      path[i][j] = i * j % 7 + 1;
      if ((i + j) % 13 == 0 || (i + j) % 7 == 0 || (i + j) % 11 == 0)
        path[i][j] = 999;
    }
}

/* Dump the live-out data. */
static void print_array(int n,
                        DATA_TYPE POLYBENCH_2D(path, N, N, n, n))
{
  int i, j;

  POLYBENCH_DUMP_START;
  POLYBENCH_DUMP_BEGIN("path");
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      if ((i * n + j) % 20 == 0)
        fprintf(POLYBENCH_DUMP_TARGET, "\n");
      fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, path[i][j]);
    }
  POLYBENCH_DUMP_END("path");
  POLYBENCH_DUMP_FINISH;
}

/* The timed kernel. */
static void kernel_floyd_warshall(int n,
                                  DATA_TYPE POLYBENCH_2D(path, N, N, n, n))
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

    int *dev_path;
    
    cudaCheckReturn(cudaMalloc((void **) &dev_path, (n) * (2800) * sizeof(int)));
    
    cudaCheckReturn(cudaMemcpy(dev_path, path, (n) * (2800) * sizeof(int), cudaMemcpyHostToDevice));
    for (int c0 = 0; c0 < n; c0 += 1)
      for (int c1 = 0; c1 <= ppcg_min(2 * n - 2, n + 2798); c1 += 1)
        {
          dim3 k0_dimBlock(32);
          dim3 k0_dimGrid(ppcg_min(32768, (n + 31) / 32));
          kernel0 <<<k0_dimGrid, k0_dimBlock>>> (dev_path, n, c0, c1);
          cudaCheckKernel();
        }
        
    cudaCheckReturn(cudaMemcpy(path, dev_path, (n) * (2800) * sizeof(int), cudaMemcpyDeviceToHost));
    cudaCheckReturn(cudaFree(dev_path));
  }
}

int main(int argc, char **argv)
{
  int n = N;
  POLYBENCH_2D_ARRAY_DECL(path, DATA_TYPE, N, N, n, n);

  init_array(n, POLYBENCH_ARRAY(path));

  polybench_start_instruments;
  kernel_floyd_warshall(n, POLYBENCH_ARRAY(path));
  polybench_stop_instruments;
  polybench_print_instruments;

  polybench_prevent_dce(print_array(n, POLYBENCH_ARRAY(path)));

  POLYBENCH_FREE_ARRAY(path);
  return 0;
}
