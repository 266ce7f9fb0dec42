#include <assert.h>
#include <stdio.h>
#include "3mm_kernel.hu"
/*
 * 3mm.c -- three matrix products, E := A*B, F := C*D, G := E*F.
 *
 * Part of the pencilc PolyBench test suite: our own implementation of the
 * PolyBench/C 4.2.1 "3mm" benchmark (same algorithm, loop structure,
 * initialisation and dataset sizes).
 */
#include <stdio.h>
#include <math.h>

#include <polybench.h>
#include "3mm.h"

/* Deterministic input data. */
static void init_array(int ni, int nj, int nk, int nl, int nm,
                       DATA_TYPE POLYBENCH_2D(A, NI, NK, ni, nk),
                       DATA_TYPE POLYBENCH_2D(B, NK, NJ, nk, nj),
                       DATA_TYPE POLYBENCH_2D(C, NJ, NM, nj, nm),
                       DATA_TYPE POLYBENCH_2D(D, NM, NL, nm, nl))
{
  int i, j;

  for (i = 0; i < ni; i++)
    for (j = 0; j < nk; j++)
      A[i][j] = (DATA_TYPE) ((i * j + 1) % ni) / (5 * ni);
  for (i = 0; i < nk; i++)
    for (j = 0; j < nj; j++)
      B[i][j] = (DATA_TYPE) ((i * (j + 1) + 2) % nj) / (5 * nj);
  for (i = 0; i < nj; i++)
    for (j = 0; j < nm; j++)
      C[i][j] = (DATA_TYPE) (i * (j + 3) % nl) / (5 * nl);
  for (i = 0; i < nm; i++)
    for (j = 0; j < nl; j++)
      D[i][j] = (DATA_TYPE) ((i * (j + 2) + 2) % nk) / (5 * nk);
}

/* Dump the live-out data: the result G, then the intermediates E and F. */
static void print_array(int ni, int nj, int nl,
                        DATA_TYPE POLYBENCH_2D(G, NI, NL, ni, nl),
                        DATA_TYPE POLYBENCH_2D(E, NI, NJ, ni, nj),
                        DATA_TYPE POLYBENCH_2D(F, NJ, NL, nj, nl))
{
  int i, j;

  POLYBENCH_DUMP_START;
  POLYBENCH_DUMP_BEGIN("G");
  for (i = 0; i < ni; i++)
    for (j = 0; j < nl; j++) {
      if ((i * nl + j) % 20 == 0)
        fprintf(POLYBENCH_DUMP_TARGET, "\n");
      fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, G[i][j]);
    }
  POLYBENCH_DUMP_END("G");
  POLYBENCH_DUMP_BEGIN("E");
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++) {
      if ((i * nj + j) % 20 == 0)
        fprintf(POLYBENCH_DUMP_TARGET, "\n");
      fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, E[i][j]);
    }
  POLYBENCH_DUMP_END("E");
  POLYBENCH_DUMP_BEGIN("F");
  for (i = 0; i < nj; i++)
    for (j = 0; j < nl; j++) {
      if ((i * nl + j) % 20 == 0)
        fprintf(POLYBENCH_DUMP_TARGET, "\n");
      fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, F[i][j]);
    }
  POLYBENCH_DUMP_END("F");
  POLYBENCH_DUMP_FINISH;
}

/* The timed kernel. */
static void kernel_3mm(int ni, int nj, int nk, int nl, int nm,
                       DATA_TYPE POLYBENCH_2D(E, NI, NJ, ni, nj),
                       DATA_TYPE POLYBENCH_2D(A, NI, NK, ni, nk),
                       DATA_TYPE POLYBENCH_2D(B, NK, NJ, nk, nj),
                       DATA_TYPE POLYBENCH_2D(F, NJ, NL, nj, nl),
                       DATA_TYPE POLYBENCH_2D(C, NJ, NM, nj, nm),
                       DATA_TYPE POLYBENCH_2D(D, NM, NL, nm, nl),
                       DATA_TYPE POLYBENCH_2D(G, NI, NL, ni, nl))
{
  int i, j, k;

  #define ppcg_min(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x < _y ? _x : _y; })
  if ((nl >= 1 && nj >= 1) || (ni >= 1 && nj >= 1) || (ni >= 1 && nl >= 1)) {
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
    double *dev_D;
    double *dev_E;
    double *dev_F;
    double *dev_G;
    
    cudaCheckReturn(cudaMalloc((void **) &dev_A, (ni) * (1000) * sizeof(double)));
    cudaCheckReturn(cudaMalloc((void **) &dev_B, (nk) * (900) * sizeof(double)));
    cudaCheckReturn(cudaMalloc((void **) &dev_C, (nj) * (1200) * sizeof(double)));
    cudaCheckReturn(cudaMalloc((void **) &dev_D, (nm) * (1100) * sizeof(double)));
    cudaCheckReturn(cudaMalloc((void **) &dev_E, (ni) * (900) * sizeof(double)));
    cudaCheckReturn(cudaMalloc((void **) &dev_F, (nj) * (1100) * sizeof(double)));
    cudaCheckReturn(cudaMalloc((void **) &dev_G, (ni) * (1100) * sizeof(double)));
    
    if (ni >= 1 && nj >= 1 && nk >= 1) {
      cudaCheckReturn(cudaMemcpy(dev_A, A, (ni) * (1000) * sizeof(double), cudaMemcpyHostToDevice));
      cudaCheckReturn(cudaMemcpy(dev_B, B, (nk) * (900) * sizeof(double), cudaMemcpyHostToDevice));
    }
    if (nl >= 1 && nj >= 1 && nm >= 1) {
      cudaCheckReturn(cudaMemcpy(dev_C, C, (nj) * (1200) * sizeof(double), cudaMemcpyHostToDevice));
      cudaCheckReturn(cudaMemcpy(dev_D, D, (nm) * (1100) * sizeof(double), cudaMemcpyHostToDevice));
    }
    if (ni >= 1 && nj >= 1)
      cudaCheckReturn(cudaMemcpy(dev_E, E, (ni) * (900) * sizeof(double), cudaMemcpyHostToDevice));
    if (nl >= 1 && nj >= 1)
      cudaCheckReturn(cudaMemcpy(dev_F, F, (nj) * (1100) * sizeof(double), cudaMemcpyHostToDevice));
    if (ni >= 1 && nl >= 1)
      cudaCheckReturn(cudaMemcpy(dev_G, G, (ni) * (1100) * sizeof(double), cudaMemcpyHostToDevice));
    if (nl >= 1 && nj >= 1)
      {
        dim3 k0_dimBlock(16, 32);
        dim3 k0_dimGrid(ppcg_min(35, (nl + 31) / 32), ppcg_min(256, (nj + 31) / 32));
        kernel0 <<<k0_dimGrid, k0_dimBlock>>> (dev_C, dev_D, dev_F, ni, nl, nj, nm, nk);
        cudaCheckKernel();
      }
      
    if (ni >= 1 && nj >= 1)
      {
        dim3 k1_dimBlock(16, 32);
        dim3 k1_dimGrid(ppcg_min(29, (nj + 31) / 32), ppcg_min(256, (ni + 31) / 32));
        kernel1 <<<k1_dimGrid, k1_dimBlock>>> (dev_A, dev_B, dev_E, ni, nl, nj, nm, nk);
        cudaCheckKernel();
      }
      
    if (ni >= 1 && nl >= 1)
      {
        dim3 k2_dimBlock(16, 32);
        dim3 k2_dimGrid(ppcg_min(35, (nl + 31) / 32), ppcg_min(256, (ni + 31) / 32));
        kernel2 <<<k2_dimGrid, k2_dimBlock>>> (dev_E, dev_F, dev_G, ni, nl, nj, nm, nk);
        cudaCheckKernel();
      }
      
    if (ni >= 1 && nj >= 1)
      cudaCheckReturn(cudaMemcpy(E, dev_E, (ni) * (900) * sizeof(double), cudaMemcpyDeviceToHost));
    if (nl >= 1 && nj >= 1)
      cudaCheckReturn(cudaMemcpy(F, dev_F, (nj) * (1100) * sizeof(double), cudaMemcpyDeviceToHost));
    if (ni >= 1 && nl >= 1)
      cudaCheckReturn(cudaMemcpy(G, dev_G, (ni) * (1100) * sizeof(double), cudaMemcpyDeviceToHost));
    cudaCheckReturn(cudaFree(dev_A));
    cudaCheckReturn(cudaFree(dev_B));
    cudaCheckReturn(cudaFree(dev_C));
    cudaCheckReturn(cudaFree(dev_D));
    cudaCheckReturn(cudaFree(dev_E));
    cudaCheckReturn(cudaFree(dev_F));
    cudaCheckReturn(cudaFree(dev_G));
  }
}

int main(int argc, char **argv)
{
  int ni = NI;
  int nj = NJ;
  int nk = NK;
  int nl = NL;
  int nm = NM;
  POLYBENCH_2D_ARRAY_DECL(E, DATA_TYPE, NI, NJ, ni, nj);
  POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, NI, NK, ni, nk);
  POLYBENCH_2D_ARRAY_DECL(B, DATA_TYPE, NK, NJ, nk, nj);
  POLYBENCH_2D_ARRAY_DECL(F, DATA_TYPE, NJ, NL, nj, nl);
  POLYBENCH_2D_ARRAY_DECL(C, DATA_TYPE, NJ, NM, nj, nm);
  POLYBENCH_2D_ARRAY_DECL(D, DATA_TYPE, NM, NL, nm, nl);
  POLYBENCH_2D_ARRAY_DECL(G, DATA_TYPE, NI, NL, ni, nl);

  init_array(ni, nj, nk, nl, nm,
             POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B),
             POLYBENCH_ARRAY(C), POLYBENCH_ARRAY(D));

  polybench_start_instruments;
  kernel_3mm(ni, nj, nk, nl, nm,
             POLYBENCH_ARRAY(E), POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B),
             POLYBENCH_ARRAY(F), POLYBENCH_ARRAY(C), POLYBENCH_ARRAY(D),
             POLYBENCH_ARRAY(G));
  polybench_stop_instruments;
  polybench_print_instruments;

  polybench_prevent_dce(print_array(ni, nj, nl, POLYBENCH_ARRAY(G),
                                    POLYBENCH_ARRAY(E), POLYBENCH_ARRAY(F)));

  POLYBENCH_FREE_ARRAY(E);
  POLYBENCH_FREE_ARRAY(A);
  POLYBENCH_FREE_ARRAY(B);
  POLYBENCH_FREE_ARRAY(F);
  POLYBENCH_FREE_ARRAY(C);
  POLYBENCH_FREE_ARRAY(D);
  POLYBENCH_FREE_ARRAY(G);
  return 0;
}
