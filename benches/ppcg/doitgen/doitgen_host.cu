#include <assert.h>
#include <stdio.h>
#include "doitgen_kernel.hu"
/*
 * doitgen.c -- multiresolution analysis kernel (from MADNESS):
 *              A[r][q][.] := A[r][q][.] * C4 for every (r, q).
 *
 * Part of the pencilc PolyBench test suite: our own implementation of the
 * PolyBench/C 4.2.1 "doitgen" benchmark (same algorithm, loop structure,
 * initialisation and dataset sizes).
 */
#include <stdio.h>
#include <math.h>

#include <polybench.h>
#include "doitgen.h"

/* Deterministic input data. */
static void init_array(int nr, int nq, int np,
                       DATA_TYPE POLYBENCH_3D(A, NR, NQ, NP, nr, nq, np),
                       DATA_TYPE POLYBENCH_2D(C4, NP, NP, np, np))
{
  int i, j, k;

  for (i = 0; i < nr; i++)
    for (j = 0; j < nq; j++)
      for (k = 0; k < np; k++)
        A[i][j][k] = (DATA_TYPE) ((i * j + k) % np) / np;
  for (i = 0; i < np; i++)
    for (j = 0; j < np; j++)
      C4[i][j] = (DATA_TYPE) (i * j % np) / np;
}

/* Dump the live-out data: the result A, then the scratch vector sum. */
static void print_array(int nr, int nq, int np,
                        DATA_TYPE POLYBENCH_3D(A, NR, NQ, NP, nr, nq, np),
                        DATA_TYPE POLYBENCH_1D(sum, NP, np))
{
  int i, j, k;

  POLYBENCH_DUMP_START;
  POLYBENCH_DUMP_BEGIN("A");
  for (i = 0; i < nr; i++)
    for (j = 0; j < nq; j++)
      for (k = 0; k < np; k++) {
        if (((i * nq + j) * np + k) % 20 == 0)
          fprintf(POLYBENCH_DUMP_TARGET, "\n");
        fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, A[i][j][k]);
      }
  POLYBENCH_DUMP_END("A");
  POLYBENCH_DUMP_BEGIN("sum");
  for (i = 0; i < np; i++) {
    if (i % 20 == 0)
      fprintf(POLYBENCH_DUMP_TARGET, "\n");
    fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, sum[i]);
  }
  POLYBENCH_DUMP_END("sum");
  POLYBENCH_DUMP_FINISH;
}

/* The timed kernel. */
static void kernel_doitgen(int nr, int nq, int np,
                           DATA_TYPE POLYBENCH_3D(A, NR, NQ, NP, nr, nq, np),
                           DATA_TYPE POLYBENCH_2D(C4, NP, NP, np, np),
                           DATA_TYPE POLYBENCH_1D(sum, NP, np))
{
  int r, q, p, s;

  #define ppcg_min(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x < _y ? _x : _y; })
  if (nr >= 1 && nq >= 1 && np >= 1) {
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
    double *dev_C4;
    double *dev_sum;
    
    cudaCheckReturn(cudaMalloc((void **) &dev_A, (nr) * (140) * (160) * sizeof(double)));
    cudaCheckReturn(cudaMalloc((void **) &dev_C4, (np) * (160) * sizeof(double)));
    cudaCheckReturn(cudaMalloc((void **) &dev_sum, (np) * sizeof(double)));
    
    cudaCheckReturn(cudaMemcpy(dev_A, A, (nr) * (140) * (160) * sizeof(double), cudaMemcpyHostToDevice));
    cudaCheckReturn(cudaMemcpy(dev_C4, C4, (np) * (160) * sizeof(double), cudaMemcpyHostToDevice));
    for (int c0 = 0; c0 < nr; c0 += 1)
      for (int c1 = 0; c1 < nq; c1 += 1) {
        {
          dim3 k0_dimBlock(32);
          dim3 k0_dimGrid(ppcg_min(32768, (np + 31) / 32));
          kernel0 <<<k0_dimGrid, k0_dimBlock>>> (dev_A, dev_C4, dev_sum, nr, nq, np, c0, c1);
          cudaCheckKernel();
        }
        
        if (c1 <= 139)
          {
            dim3 k1_dimBlock(32);
            dim3 k1_dimGrid(ppcg_min(5, (np + 31) / 32));
            kernel1 <<<k1_dimGrid, k1_dimBlock>>> (dev_A, dev_sum, nr, nq, np, c0, c1);
            cudaCheckKernel();
          }
          
      }
    cudaCheckReturn(cudaMemcpy(A, dev_A, (nr) * (140) * (160) * sizeof(double), cudaMemcpyDeviceToHost));
    cudaCheckReturn(cudaMemcpy(sum, dev_sum, (np) * sizeof(double), cudaMemcpyDeviceToHost));
    cudaCheckReturn(cudaFree(dev_A));
    cudaCheckReturn(cudaFree(dev_C4));
    cudaCheckReturn(cudaFree(dev_sum));
  }
}

int main(int argc, char **argv)
{
  int nr = NR;
  int nq = NQ;
  int np = NP;
  POLYBENCH_3D_ARRAY_DECL(A, DATA_TYPE, NR, NQ, NP, nr, nq, np);
  POLYBENCH_1D_ARRAY_DECL(sum, DATA_TYPE, NP, np);
  POLYBENCH_2D_ARRAY_DECL(C4, DATA_TYPE, NP, NP, np, np);

  init_array(nr, nq, np, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(C4));

  polybench_start_instruments;
  kernel_doitgen(nr, nq, np, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(C4),
                 POLYBENCH_ARRAY(sum));
  polybench_stop_instruments;
  polybench_print_instruments;

  polybench_prevent_dce(print_array(nr, nq, np, POLYBENCH_ARRAY(A),
                                    POLYBENCH_ARRAY(sum)));

  POLYBENCH_FREE_ARRAY(A);
  POLYBENCH_FREE_ARRAY(sum);
  POLYBENCH_FREE_ARRAY(C4);
  return 0;
}
