#include <assert.h>
#include <stdio.h>
#include "gramschmidt_kernel.hu"
/*
 * gramschmidt.c -- QR decomposition of A (M x N) by the modified
 *                  Gram-Schmidt process: Q (M x N) and R (N x N).
 *
 * Part of the pencilc PolyBench test suite: our own implementation of the
 * PolyBench/C 4.2.1 "gramschmidt" benchmark (same algorithm, loop structure,
 * initialisation and dataset sizes).
 */
#include <stdio.h>
#include <math.h>

#include <polybench.h>
#include "gramschmidt.h"

/* Deterministic input data. */
static void init_array(int m, int n,
                       DATA_TYPE POLYBENCH_2D(A, M, N, m, n),
                       DATA_TYPE POLYBENCH_2D(R, N, N, n, n),
                       DATA_TYPE POLYBENCH_2D(Q, M, N, m, n))
{
  int i, j;

  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
      A[i][j] = (((DATA_TYPE) ((i * j) % m) / m) * 100) + 10;
      Q[i][j] = 0.0;
    }
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      R[i][j] = 0.0;
}

/* Dump the live-out data: R and Q, then A (overwritten by the kernel). */
static void print_array(int m, int n,
                        DATA_TYPE POLYBENCH_2D(A, M, N, m, n),
                        DATA_TYPE POLYBENCH_2D(R, N, N, n, n),
                        DATA_TYPE POLYBENCH_2D(Q, M, N, m, n))
{
  int i, j;

  POLYBENCH_DUMP_START;
  POLYBENCH_DUMP_BEGIN("R");
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      if ((i * n + j) % 20 == 0)
        fprintf(POLYBENCH_DUMP_TARGET, "\n");
      fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, R[i][j]);
    }
  POLYBENCH_DUMP_END("R");
  POLYBENCH_DUMP_BEGIN("Q");
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
      if ((i * n + j) % 20 == 0)
        fprintf(POLYBENCH_DUMP_TARGET, "\n");
      fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, Q[i][j]);
    }
  POLYBENCH_DUMP_END("Q");
  POLYBENCH_DUMP_BEGIN("A");
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
      if ((i * n + j) % 20 == 0)
        fprintf(POLYBENCH_DUMP_TARGET, "\n");
      fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, A[i][j]);
    }
  POLYBENCH_DUMP_END("A");
  POLYBENCH_DUMP_FINISH;
}

/* The timed kernel. */
static void kernel_gramschmidt(int m, int n,
                               DATA_TYPE POLYBENCH_2D(A, M, N, m, n),
                               DATA_TYPE POLYBENCH_2D(R, N, N, n, n),
                               DATA_TYPE POLYBENCH_2D(Q, M, N, m, n))
{
  int i, j, k;
  DATA_TYPE nrm;

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
    double *dev_Q;
    double *dev_R;
    double *dev_nrm;
    
    cudaCheckReturn(cudaMalloc((void **) &dev_A, (m) * (1200) * sizeof(double)));
    cudaCheckReturn(cudaMalloc((void **) &dev_Q, (m) * (1200) * sizeof(double)));
    cudaCheckReturn(cudaMalloc((void **) &dev_R, (ppcg_min(1200, n)) * (1200) * sizeof(double)));
    cudaCheckReturn(cudaMalloc((void **) &dev_nrm, sizeof(double)));
    
    if (m >= 1) {
      cudaCheckReturn(cudaMemcpy(dev_A, A, (m) * (1200) * sizeof(double), cudaMemcpyHostToDevice));
      cudaCheckReturn(cudaMemcpy(dev_Q, Q, (m) * (1200) * sizeof(double), cudaMemcpyHostToDevice));
    }
    cudaCheckReturn(cudaMemcpy(dev_R, R, (ppcg_min(1200, n)) * (1200) * sizeof(double), cudaMemcpyHostToDevice));
    if (n >= 2)
      {
        dim3 k0_dimBlock(16, 32);
        dim3 k0_dimGrid(ppcg_min(38, (n + 30) / 32), ppcg_min(38, (n + 30) / 32));
        kernel0 <<<k0_dimGrid, k0_dimBlock>>> (dev_R, n, m);
        cudaCheckKernel();
      }
      
    for (int c0 = 0; c0 < n; c0 += 1) {
      {
        dim3 k1_dimBlock;
        dim3 k1_dimGrid;
        kernel1 <<<k1_dimGrid, k1_dimBlock>>> (dev_nrm, n, m, c0);
        cudaCheckKernel();
      }
      
      if (m >= 1)
        {
          dim3 k2_dimBlock;
          dim3 k2_dimGrid;
          kernel2 <<<k2_dimGrid, k2_dimBlock>>> (dev_A, dev_nrm, n, m, c0);
          cudaCheckKernel();
        }
        
      {
        dim3 k3_dimBlock;
        dim3 k3_dimGrid;
        kernel3 <<<k3_dimGrid, k3_dimBlock>>> (dev_R, dev_nrm, n, m, c0);
        cudaCheckKernel();
      }
      
      if (m >= 1 && c0 <= 1199) {
        {
          dim3 k4_dimBlock(32);
          dim3 k4_dimGrid(ppcg_min(32768, (m + 31) / 32));
          kernel4 <<<k4_dimGrid, k4_dimBlock>>> (dev_A, dev_Q, dev_R, n, m, c0);
          cudaCheckKernel();
        }
        
        if (n >= c0 + 2 && c0 <= 1198) {
          {
            dim3 k5_dimBlock(32);
            dim3 k5_dimGrid(ppcg_min(38, (n + 30) / 32));
            kernel5 <<<k5_dimGrid, k5_dimBlock>>> (dev_A, dev_Q, dev_R, n, m, c0);
            cudaCheckKernel();
          }
          
          {
            dim3 k6_dimBlock(16, 32);
            dim3 k6_dimGrid(ppcg_min(256, (m + 31) / 32), ppcg_min(256, (n + 30) / 32));
            kernel6 <<<k6_dimGrid, k6_dimBlock>>> (dev_A, dev_Q, dev_R, n, m, c0);
            cudaCheckKernel();
          }
          
        }
      }
    }
    if (m >= 1) {
      cudaCheckReturn(cudaMemcpy(A, dev_A, (m) * (1200) * sizeof(double), cudaMemcpyDeviceToHost));
      cudaCheckReturn(cudaMemcpy(Q, dev_Q, (m) * (1200) * sizeof(double), cudaMemcpyDeviceToHost));
    }
    cudaCheckReturn(cudaMemcpy(R, dev_R, (ppcg_min(1200, n)) * (1200) * sizeof(double), cudaMemcpyDeviceToHost));
    cudaCheckReturn(cudaFree(dev_A));
    cudaCheckReturn(cudaFree(dev_Q));
    cudaCheckReturn(cudaFree(dev_R));
    cudaCheckReturn(cudaFree(dev_nrm));
  }
}

int main(int argc, char **argv)
{
  int m = M;
  int n = N;
  POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, M, N, m, n);
  POLYBENCH_2D_ARRAY_DECL(R, DATA_TYPE, N, N, n, n);
  POLYBENCH_2D_ARRAY_DECL(Q, DATA_TYPE, M, N, m, n);

  init_array(m, n, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(R),
             POLYBENCH_ARRAY(Q));

  polybench_start_instruments;
  kernel_gramschmidt(m, n, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(R),
                     POLYBENCH_ARRAY(Q));
  polybench_stop_instruments;
  polybench_print_instruments;

  polybench_prevent_dce(print_array(m, n, POLYBENCH_ARRAY(A),
                                    POLYBENCH_ARRAY(R), POLYBENCH_ARRAY(Q)));

  POLYBENCH_FREE_ARRAY(A);
  POLYBENCH_FREE_ARRAY(R);
  POLYBENCH_FREE_ARRAY(Q);
  return 0;
}
