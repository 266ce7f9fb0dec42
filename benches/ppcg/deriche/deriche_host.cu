#include <assert.h>
#include <stdio.h>
#include "deriche_kernel.hu"
/*
 * deriche.c -- Deriche recursive edge-detection filter on a W x H image:
 *              horizontal causal/anti-causal passes, then vertical ones.
 *
 * Part of the pencilc PolyBench test suite: our own implementation of the
 * PolyBench/C 4.2.1 "deriche" benchmark (same algorithm, loop structure,
 * initialisation and dataset sizes; the element type defaults to float).
 */
#include <stdio.h>
#include <math.h>

#include <polybench.h>
#include "deriche.h"

/* Deterministic input data: a grey-scale image with pixels in [0, 1]. */
static void init_array(int w, int h,
                       DATA_TYPE *alpha,
                       DATA_TYPE POLYBENCH_2D(imgIn, W, H, w, h),
                       DATA_TYPE POLYBENCH_2D(imgOut, W, H, w, h))
{
  int i, j;

  *alpha = 0.25;
  for (i = 0; i < w; i++)
    for (j = 0; j < h; j++)
      imgIn[i][j] = (DATA_TYPE) ((313 * i + 991 * j) % 65536) / 65535.0f;
}

/* Dump the live-out data: the result imgOut, then the work images y1, y2. */
static void print_array(int w, int h,
                        DATA_TYPE POLYBENCH_2D(imgOut, W, H, w, h),
                        DATA_TYPE POLYBENCH_2D(y1, W, H, w, h),
                        DATA_TYPE POLYBENCH_2D(y2, W, H, w, h))
{
  int i, j;

  POLYBENCH_DUMP_START;
  POLYBENCH_DUMP_BEGIN("imgOut");
  for (i = 0; i < w; i++)
    for (j = 0; j < h; j++) {
      if ((i * h + j) % 20 == 0)
        fprintf(POLYBENCH_DUMP_TARGET, "\n");
      fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, imgOut[i][j]);
    }
  POLYBENCH_DUMP_END("imgOut");
  POLYBENCH_DUMP_BEGIN("y1");
  for (i = 0; i < w; i++)
    for (j = 0; j < h; j++) {
      if ((i * h + j) % 20 == 0)
        fprintf(POLYBENCH_DUMP_TARGET, "\n");
      fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, y1[i][j]);
    }
  POLYBENCH_DUMP_END("y1");
  POLYBENCH_DUMP_BEGIN("y2");
  for (i = 0; i < w; i++)
    for (j = 0; j < h; j++) {
      if ((i * h + j) % 20 == 0)
        fprintf(POLYBENCH_DUMP_TARGET, "\n");
      fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, y2[i][j]);
    }
  POLYBENCH_DUMP_END("y2");
  POLYBENCH_DUMP_FINISH;
}

/* The timed kernel. */
static void kernel_deriche(int w, int h,
                           DATA_TYPE alpha,
                           DATA_TYPE POLYBENCH_2D(imgIn, W, H, w, h),
                           DATA_TYPE POLYBENCH_2D(imgOut, W, H, w, h),
                           DATA_TYPE POLYBENCH_2D(y1, W, H, w, h),
                           DATA_TYPE POLYBENCH_2D(y2, W, H, w, h))
{
  int i, j;
  DATA_TYPE xm1, tm1, ym1, ym2;
  DATA_TYPE xp1, xp2;
  DATA_TYPE tp1, tp2;
  DATA_TYPE yp1, yp2;
  DATA_TYPE k;
  DATA_TYPE a1, a2, a3, a4, a5, a6, a7, a8;
  DATA_TYPE b1, b2, c1, c2;

  #define ppcg_min(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x < _y ? _x : _y; })
  {
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

    float *dev_a1;
    float *dev_a2;
    float *dev_a3;
    float *dev_a4;
    float *dev_a5;
    float *dev_a6;
    float *dev_a7;
    float *dev_a8;
    float *dev_b1;
    float *dev_b2;
    float *dev_c1;
    float *dev_c2;
    float *dev_imgIn;
    float *dev_imgOut;
    float *dev_k;
    float *dev_y1;
    float *dev_y2;
    
    cudaCheckReturn(cudaMalloc((void **) &dev_a1, sizeof(float)));
    cudaCheckReturn(cudaMalloc((void **) &dev_a2, sizeof(float)));
    cudaCheckReturn(cudaMalloc((void **) &dev_a3, sizeof(float)));
    cudaCheckReturn(cudaMalloc((void **) &dev_a4, sizeof(float)));
    cudaCheckReturn(cudaMalloc((void **) &dev_a5, sizeof(float)));
    cudaCheckReturn(cudaMalloc((void **) &dev_a6, sizeof(float)));
    cudaCheckReturn(cudaMalloc((void **) &dev_a7, sizeof(float)));
    cudaCheckReturn(cudaMalloc((void **) &dev_a8, sizeof(float)));
    cudaCheckReturn(cudaMalloc((void **) &dev_b1, sizeof(float)));
    cudaCheckReturn(cudaMalloc((void **) &dev_b2, sizeof(float)));
    cudaCheckReturn(cudaMalloc((void **) &dev_c1, sizeof(float)));
    cudaCheckReturn(cudaMalloc((void **) &dev_c2, sizeof(float)));
    cudaCheckReturn(cudaMalloc((void **) &dev_imgIn, (w) * (2160) * sizeof(float)));
    cudaCheckReturn(cudaMalloc((void **) &dev_imgOut, (w) * (2160) * sizeof(float)));
    cudaCheckReturn(cudaMalloc((void **) &dev_k, sizeof(float)));
    cudaCheckReturn(cudaMalloc((void **) &dev_y1, (w) * (2160) * sizeof(float)));
    cudaCheckReturn(cudaMalloc((void **) &dev_y2, (w) * (2160) * sizeof(float)));
    
    k = (((1.F - expf(-alpha)) * (1.F - expf(-alpha))) / ((1.F + ((2.F * alpha) * expf(-alpha))) - expf(2.F * alpha)));
    a3 = (a7 = ((k * expf(-alpha)) * (alpha + 1.F)));
    a4 = (a8 = ((-k) * expf((-2.F) * alpha)));
    b1 = powf(2.F, -alpha);
    b2 = (-expf((-2.F) * alpha));
    cudaCheckReturn(cudaMemcpy(dev_a3, &a3, sizeof(float), cudaMemcpyHostToDevice));
    cudaCheckReturn(cudaMemcpy(dev_a4, &a4, sizeof(float), cudaMemcpyHostToDevice));
    cudaCheckReturn(cudaMemcpy(dev_a7, &a7, sizeof(float), cudaMemcpyHostToDevice));
    cudaCheckReturn(cudaMemcpy(dev_a8, &a8, sizeof(float), cudaMemcpyHostToDevice));
    cudaCheckReturn(cudaMemcpy(dev_b1, &b1, sizeof(float), cudaMemcpyHostToDevice));
    cudaCheckReturn(cudaMemcpy(dev_b2, &b2, sizeof(float), cudaMemcpyHostToDevice));
    if (w >= 1 && h >= 1) {
      cudaCheckReturn(cudaMemcpy(dev_imgIn, imgIn, (w) * (2160) * sizeof(float), cudaMemcpyHostToDevice));
      cudaCheckReturn(cudaMemcpy(dev_imgOut, imgOut, (w) * (2160) * sizeof(float), cudaMemcpyHostToDevice));
    }
    cudaCheckReturn(cudaMemcpy(dev_k, &k, sizeof(float), cudaMemcpyHostToDevice));
    if (w >= 1 && h >= 1) {
      cudaCheckReturn(cudaMemcpy(dev_y1, y1, (w) * (2160) * sizeof(float), cudaMemcpyHostToDevice));
      cudaCheckReturn(cudaMemcpy(dev_y2, y2, (w) * (2160) * sizeof(float), cudaMemcpyHostToDevice));
      {
        dim3 k0_dimBlock(32);
        dim3 k0_dimGrid(ppcg_min(32768, (w + 31) / 32));
        kernel0 <<<k0_dimGrid, k0_dimBlock>>> (dev_a3, dev_a4, dev_b1, dev_b2, dev_imgIn, dev_y2, w, h);
        cudaCheckKernel();
      }
      
      {
        dim3 k1_dimBlock;
        dim3 k1_dimGrid;
        kernel1 <<<k1_dimGrid, k1_dimBlock>>> (dev_c1, dev_c2, w, h);
        cudaCheckKernel();
      }
      
    }
    {
      dim3 k2_dimBlock;
      dim3 k2_dimGrid;
      kernel2 <<<k2_dimGrid, k2_dimBlock>>> (dev_a1, dev_a2, dev_a5, dev_a6, alpha, dev_k, w, h);
      cudaCheckKernel();
    }
    
    if (w >= 1 && h >= 1) {
      {
        dim3 k3_dimBlock(32);
        dim3 k3_dimGrid(ppcg_min(32768, (w + 31) / 32));
        kernel3 <<<k3_dimGrid, k3_dimBlock>>> (dev_a1, dev_a2, dev_b1, dev_b2, dev_imgIn, dev_y1, w, h);
        cudaCheckKernel();
      }
      
      {
        dim3 k4_dimBlock(16, 32);
        dim3 k4_dimGrid(ppcg_min(68, (h + 31) / 32), ppcg_min(256, (w + 31) / 32));
        kernel4 <<<k4_dimGrid, k4_dimBlock>>> (dev_c1, dev_imgOut, dev_y1, dev_y2, w, h);
        cudaCheckKernel();
      }
      
      {
        dim3 k5_dimBlock(32);
        dim3 k5_dimGrid(ppcg_min(68, (h + 31) / 32));
        kernel5 <<<k5_dimGrid, k5_dimBlock>>> (dev_a7, dev_a8, dev_b1, dev_b2, dev_imgOut, dev_y2, w, h);
        cudaCheckKernel();
      }
      
      {
        dim3 k6_dimBlock(32);
        dim3 k6_dimGrid(ppcg_min(68, (h + 31) / 32));
        kernel6 <<<k6_dimGrid, k6_dimBlock>>> (dev_a5, dev_a6, dev_b1, dev_b2, dev_imgOut, dev_y1, w, h);
        cudaCheckKernel();
      }
      
      {
        dim3 k7_dimBlock(16, 32);
        dim3 k7_dimGrid(ppcg_min(68, (h + 31) / 32), ppcg_min(256, (w + 31) / 32));
        kernel7 <<<k7_dimGrid, k7_dimBlock>>> (dev_c2, dev_imgOut, dev_y1, dev_y2, w, h);
        cudaCheckKernel();
      }
      
      cudaCheckReturn(cudaMemcpy(imgOut, dev_imgOut, (w) * (2160) * sizeof(float), cudaMemcpyDeviceToHost));
      cudaCheckReturn(cudaMemcpy(y1, dev_y1, (w) * (2160) * sizeof(float), cudaMemcpyDeviceToHost));
      cudaCheckReturn(cudaMemcpy(y2, dev_y2, (w) * (2160) * sizeof(float), cudaMemcpyDeviceToHost));
    }
    cudaCheckReturn(cudaFree(dev_a1));
    cudaCheckReturn(cudaFree(dev_a2));
    cudaCheckReturn(cudaFree(dev_a3));
    cudaCheckReturn(cudaFree(dev_a4));
    cudaCheckReturn(cudaFree(dev_a5));
    cudaCheckReturn(cudaFree(dev_a6));
    cudaCheckReturn(cudaFree(dev_a7));
    cudaCheckReturn(cudaFree(dev_a8));
    cudaCheckReturn(cudaFree(dev_b1));
    cudaCheckReturn(cudaFree(dev_b2));
    cudaCheckReturn(cudaFree(dev_c1));
    cudaCheckReturn(cudaFree(dev_c2));
    cudaCheckReturn(cudaFree(dev_imgIn));
    cudaCheckReturn(cudaFree(dev_imgOut));
    cudaCheckReturn(cudaFree(dev_k));
    cudaCheckReturn(cudaFree(dev_y1));
    cudaCheckReturn(cudaFree(dev_y2));
  }
}

int main(int argc, char **argv)
{
  int w = W;
  int h = H;
  DATA_TYPE alpha;
  POLYBENCH_2D_ARRAY_DECL(imgIn, DATA_TYPE, W, H, w, h);
  POLYBENCH_2D_ARRAY_DECL(imgOut, DATA_TYPE, W, H, w, h);
  POLYBENCH_2D_ARRAY_DECL(y1, DATA_TYPE, W, H, w, h);
  POLYBENCH_2D_ARRAY_DECL(y2, DATA_TYPE, W, H, w, h);

  init_array(w, h, &alpha, POLYBENCH_ARRAY(imgIn), POLYBENCH_ARRAY(imgOut));

  polybench_start_instruments;
  kernel_deriche(w, h, alpha, POLYBENCH_ARRAY(imgIn), POLYBENCH_ARRAY(imgOut),
                 POLYBENCH_ARRAY(y1), POLYBENCH_ARRAY(y2));
  polybench_stop_instruments;
  polybench_print_instruments;

  polybench_prevent_dce(print_array(w, h, POLYBENCH_ARRAY(imgOut),
                                    POLYBENCH_ARRAY(y1), POLYBENCH_ARRAY(y2)));

  POLYBENCH_FREE_ARRAY(imgIn);
  POLYBENCH_FREE_ARRAY(imgOut);
  POLYBENCH_FREE_ARRAY(y1);
  POLYBENCH_FREE_ARRAY(y2);
  return 0;
}
