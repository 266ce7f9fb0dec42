#include <assert.h>
#include <stdio.h>
#include "nussinov_kernel.hu"
/*
 * nussinov.c -- Nussinov dynamic program for RNA secondary structure
 *               (maximum number of matched base pairs), element type int.
 *
 * Part of the pencilc PolyBench test suite: our own implementation of the
 * PolyBench/C 4.2.1 "nussinov" benchmark (same algorithm, loop structure,
 * initialisation and dataset sizes).
 */
#include <stdio.h>
#include <math.h>

#include <polybench.h>
#include "nussinov.h"

/* An RNA base, encoded as 0..3 (A, G, C, U). */
typedef char base;

/* 1 when bases b1 and b2 are complementary (codes summing to 3), else 0. */
#define match(b1, b2) ((((b1) + (b2)) == 3) ? 1 : 0)
/* The larger of two scores. */
#define max_score(s1, s2) (((s1) >= (s2)) ? (s1) : (s2))

/* Deterministic input data. */
static void init_array(int n,
                       base POLYBENCH_1D(seq, N, n),
                       DATA_TYPE POLYBENCH_2D(table, N, N, n, n))
{
  int i, j;

  for (i = 0; i < n; i++)
    seq[i] = (base) ((i + 1) % 4);
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      table[i][j] = 0;
}

/* Dump the live-out data (the whole table; only its upper triangle is
   computed, the rest stays 0). */
static void print_array(int n,
                        DATA_TYPE POLYBENCH_2D(table, N, N, n, n))
{
  int i, j;

  POLYBENCH_DUMP_START;
  POLYBENCH_DUMP_BEGIN("table");
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      if ((i * n + j) % 20 == 0)
        fprintf(POLYBENCH_DUMP_TARGET, "\n");
      fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, table[i][j]);
    }
  POLYBENCH_DUMP_END("table");
  POLYBENCH_DUMP_FINISH;
}

/* The timed kernel. */
static void kernel_nussinov(int n,
                            base POLYBENCH_1D(seq, N, n),
                            DATA_TYPE POLYBENCH_2D(table, N, N, n, n))
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

    base *dev_seq;
    int *dev_table;
    
    cudaCheckReturn(cudaMalloc((void **) &dev_seq, (n) * sizeof(base)));
    cudaCheckReturn(cudaMalloc((void **) &dev_table, (ppcg_min(2501, n)) * (2500) * sizeof(int)));
    
    if (n >= 3)
      cudaCheckReturn(cudaMemcpy(dev_seq, seq, (n) * sizeof(base), cudaMemcpyHostToDevice));
    cudaCheckReturn(cudaMemcpy(dev_table, table, (ppcg_min(2501, n)) * (2500) * sizeof(int), cudaMemcpyHostToDevice));
    for (int c0 = 1; c0 < n; c0 += 1)
      {
        dim3 k0_dimBlock(32);
        dim3 k0_dimGrid(ppcg_min(79, (n + 30) / 32));
        kernel0 <<<k0_dimGrid, k0_dimBlock>>> (dev_seq, dev_table, n, c0);
        cudaCheckKernel();
      }
      
    cudaCheckReturn(cudaMemcpy(table, dev_table, (ppcg_min(2501, n)) * (2500) * sizeof(int), cudaMemcpyDeviceToHost));
    cudaCheckReturn(cudaFree(dev_seq));
    cudaCheckReturn(cudaFree(dev_table));
  }
}

int main(int argc, char **argv)
{
  int n = N;
  POLYBENCH_1D_ARRAY_DECL(seq, base, N, n);
  POLYBENCH_2D_ARRAY_DECL(table, DATA_TYPE, N, N, n, n);

  init_array(n, POLYBENCH_ARRAY(seq), POLYBENCH_ARRAY(table));

  polybench_start_instruments;
  kernel_nussinov(n, POLYBENCH_ARRAY(seq), POLYBENCH_ARRAY(table));
  polybench_stop_instruments;
  polybench_print_instruments;

  polybench_prevent_dce(print_array(n, POLYBENCH_ARRAY(table)));

  POLYBENCH_FREE_ARRAY(seq);
  POLYBENCH_FREE_ARRAY(table);
  return 0;
}
