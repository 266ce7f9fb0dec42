#include <assert.h>
#include <stdio.h>
#include "adi_kernel.hu"
/*
 * adi.c -- alternating direction implicit solver for a 2-D heat equation:
 *          each time step does a column sweep then a row sweep, each a set
 *          of independent tridiagonal solves (Thomas algorithm).
 *
 * Part of the pencilc PolyBench test suite: our own implementation of the
 * PolyBench/C 4.2.1 "adi" benchmark (same algorithm, loop structure,
 * initialisation and dataset sizes).
 */
#include <stdio.h>
#include <math.h>

#include <polybench.h>
#include "adi.h"

/* Deterministic input data.  Only u is an input; v, p and q are work
   arrays that the kernel writes only partly, so they are cleared here to
   make the dump of every written array reproducible. */
static void init_array(int n,
                       DATA_TYPE POLYBENCH_2D(u, N, N, n, n),
                       DATA_TYPE POLYBENCH_2D(v, N, N, n, n),
                       DATA_TYPE POLYBENCH_2D(p, N, N, n, n),
                       DATA_TYPE POLYBENCH_2D(q, N, N, n, n))
{
  int i, j;

  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      u[i][j] = (DATA_TYPE) (i + n - j) / n;
      v[i][j] = 0;
      p[i][j] = 0;
      q[i][j] = 0;
    }
}

/* Dump the live-out data: the result u, then the work arrays v, p, q. */
static void print_array(int n,
                        DATA_TYPE POLYBENCH_2D(u, N, N, n, n),
                        DATA_TYPE POLYBENCH_2D(v, N, N, n, n),
                        DATA_TYPE POLYBENCH_2D(p, N, N, n, n),
                        DATA_TYPE POLYBENCH_2D(q, N, N, n, n))
{
  int i, j;

  POLYBENCH_DUMP_START;
  POLYBENCH_DUMP_BEGIN("u");
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      if ((i * n + j) % 20 == 0)
        fprintf(POLYBENCH_DUMP_TARGET, "\n");
      fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, u[i][j]);
    }
  POLYBENCH_DUMP_END("u");
  POLYBENCH_DUMP_BEGIN("v");
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      if ((i * n + j) % 20 == 0)
        fprintf(POLYBENCH_DUMP_TARGET, "\n");
      fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, v[i][j]);
    }
  POLYBENCH_DUMP_END("v");
  POLYBENCH_DUMP_BEGIN("p");
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      if ((i * n + j) % 20 == 0)
        fprintf(POLYBENCH_DUMP_TARGET, "\n");
      fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, p[i][j]);
    }
  POLYBENCH_DUMP_END("p");
  POLYBENCH_DUMP_BEGIN("q");
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      if ((i * n + j) % 20 == 0)
        fprintf(POLYBENCH_DUMP_TARGET, "\n");
      fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, q[i][j]);
    }
  POLYBENCH_DUMP_END("q");
  POLYBENCH_DUMP_FINISH;
}

/* The timed kernel. */
static void kernel_adi(int tsteps, int n,
                       DATA_TYPE POLYBENCH_2D(u, N, N, n, n),
                       DATA_TYPE POLYBENCH_2D(v, N, N, n, n),
                       DATA_TYPE POLYBENCH_2D(p, N, N, n, n),
                       DATA_TYPE POLYBENCH_2D(q, N, N, n, n))
{
  int t, i, j;
  DATA_TYPE DX, DY, DT;
  DATA_TYPE B1, B2;
  DATA_TYPE mul1, mul2;
  DATA_TYPE a, b, c, d, e, f;

  #define ppcg_min(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x < _y ? _x : _y; })
  if (tsteps >= 1 && n >= 3) {
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

    double *dev_a;
    double *dev_b;
    double *dev_c;
    double *dev_d;
    double *dev_e;
    double *dev_f;
    double *dev_p;
    double *dev_q;
    double *dev_u;
    double *dev_v;
    
    cudaCheckReturn(cudaMalloc((void **) &dev_a, sizeof(double)));
    cudaCheckReturn(cudaMalloc((void **) &dev_b, sizeof(double)));
    cudaCheckReturn(cudaMalloc((void **) &dev_c, sizeof(double)));
    cudaCheckReturn(cudaMalloc((void **) &dev_d, sizeof(double)));
    cudaCheckReturn(cudaMalloc((void **) &dev_e, sizeof(double)));
    cudaCheckReturn(cudaMalloc((void **) &dev_f, sizeof(double)));
    cudaCheckReturn(cudaMalloc((void **) &dev_p, (n - 1) * (1000) * sizeof(double)));
    cudaCheckReturn(cudaMalloc((void **) &dev_q, (n - 1) * (1000) * sizeof(double)));
    cudaCheckReturn(cudaMalloc((void **) &dev_u, (n - 1) * (1000) * sizeof(double)));
    cudaCheckReturn(cudaMalloc((void **) &dev_v, (n) * (1000) * sizeof(double)));
    
    B1 = 2.;
    DT = (1. / ((double) (tsteps)));
    DX = (1. / ((double) (n)));
    mul1 = ((B1 * DT) / (DX * DX));
    a = ((-mul1) / 2.);
    DY = (1. / ((double) (n)));
    B2 = 1.;
    mul2 = ((B2 * DT) / (DY * DY));
    d = ((-mul2) / 2.);
    f = d;
    c = a;
    e = (1. + mul2);
    b = (1. + mul1);
    cudaCheckReturn(cudaMemcpy(dev_a, &a, sizeof(double), cudaMemcpyHostToDevice));
    cudaCheckReturn(cudaMemcpy(dev_b, &b, sizeof(double), cudaMemcpyHostToDevice));
    cudaCheckReturn(cudaMemcpy(dev_c, &c, sizeof(double), cudaMemcpyHostToDevice));
    cudaCheckReturn(cudaMemcpy(dev_d, &d, sizeof(double), cudaMemcpyHostToDevice));
    cudaCheckReturn(cudaMemcpy(dev_e, &e, sizeof(double), cudaMemcpyHostToDevice));
    cudaCheckReturn(cudaMemcpy(dev_f, &f, sizeof(double), cudaMemcpyHostToDevice));
    cudaCheckReturn(cudaMemcpy(dev_p, p, (n - 1) * (1000) * sizeof(double), cudaMemcpyHostToDevice));
    cudaCheckReturn(cudaMemcpy(dev_q, q, (n - 1) * (1000) * sizeof(double), cudaMemcpyHostToDevice));
    cudaCheckReturn(cudaMemcpy(dev_u, u, (n - 1) * (1000) * sizeof(double), cudaMemcpyHostToDevice));
    cudaCheckReturn(cudaMemcpy(dev_v, v, (n) * (1000) * sizeof(double), cudaMemcpyHostToDevice));
    for (int c0 = 1; c0 <= tsteps; c0 += 1) {
      {
        dim3 k0_dimBlock(32);
        dim3 k0_dimGrid(ppcg_min(32, (n + 29) / 32));
        kernel0 <<<k0_dimGrid, k0_dimBlock>>> (dev_a, dev_b, dev_c, dev_d, dev_f, dev_p, dev_q, dev_u, dev_v, tsteps, n, c0);
        cudaCheckKernel();
      }
      
      {
        dim3 k1_dimBlock(32);
        dim3 k1_dimGrid(ppcg_min(32, (n + 29) / 32));
        kernel1 <<<k1_dimGrid, k1_dimBlock>>> (dev_p, dev_q, dev_v, tsteps, n, c0);
        cudaCheckKernel();
      }
      
      {
        dim3 k2_dimBlock(32);
        dim3 k2_dimGrid(ppcg_min(32768, (n + 29) / 32));
        kernel2 <<<k2_dimGrid, k2_dimBlock>>> (dev_a, dev_c, dev_d, dev_e, dev_f, dev_p, dev_q, dev_u, dev_v, tsteps, n, c0);
        cudaCheckKernel();
      }
      
      {
        dim3 k3_dimBlock(32);
        dim3 k3_dimGrid(ppcg_min(32768, (n + 30) / 32));
        kernel3 <<<k3_dimGrid, k3_dimBlock>>> (dev_p, dev_q, dev_u, tsteps, n, c0);
        cudaCheckKernel();
      }
      
    }
    cudaCheckReturn(cudaMemcpy(p, dev_p, (n - 1) * (1000) * sizeof(double), cudaMemcpyDeviceToHost));
    cudaCheckReturn(cudaMemcpy(q, dev_q, (n - 1) * (1000) * sizeof(double), cudaMemcpyDeviceToHost));
    cudaCheckReturn(cudaMemcpy(u, dev_u, (n - 1) * (1000) * sizeof(double), cudaMemcpyDeviceToHost));
    cudaCheckReturn(cudaMemcpy(v, dev_v, (n) * (1000) * sizeof(double), cudaMemcpyDeviceToHost));
    cudaCheckReturn(cudaFree(dev_a));
    cudaCheckReturn(cudaFree(dev_b));
    cudaCheckReturn(cudaFree(dev_c));
    cudaCheckReturn(cudaFree(dev_d));
    cudaCheckReturn(cudaFree(dev_e));
    cudaCheckReturn(cudaFree(dev_f));
    cudaCheckReturn(cudaFree(dev_p));
    cudaCheckReturn(cudaFree(dev_q));
    cudaCheckReturn(cudaFree(dev_u));
    cudaCheckReturn(cudaFree(dev_v));
  }
}

int main(int argc, char **argv)
{
  int n = N;
  int tsteps = TSTEPS;
  POLYBENCH_2D_ARRAY_DECL(u, DATA_TYPE, N, N, n, n);
  POLYBENCH_2D_ARRAY_DECL(v, DATA_TYPE, N, N, n, n);
  POLYBENCH_2D_ARRAY_DECL(p, DATA_TYPE, N, N, n, n);
  POLYBENCH_2D_ARRAY_DECL(q, DATA_TYPE, N, N, n, n);

  init_array(n, POLYBENCH_ARRAY(u), POLYBENCH_ARRAY(v), POLYBENCH_ARRAY(p),
             POLYBENCH_ARRAY(q));

  polybench_start_instruments;
  kernel_adi(tsteps, n, POLYBENCH_ARRAY(u), POLYBENCH_ARRAY(v),
             POLYBENCH_ARRAY(p), POLYBENCH_ARRAY(q));
  polybench_stop_instruments;
  polybench_print_instruments;

  polybench_prevent_dce(print_array(n, POLYBENCH_ARRAY(u), POLYBENCH_ARRAY(v),
                                    POLYBENCH_ARRAY(p), POLYBENCH_ARRAY(q)));

  POLYBENCH_FREE_ARRAY(u);
  POLYBENCH_FREE_ARRAY(v);
  POLYBENCH_FREE_ARRAY(p);
  POLYBENCH_FREE_ARRAY(q);
  return 0;
}
