#include "cholesky_kernel.hu"
__global__ void kernel0(double *A, int n, int c0)
{

    A[c0 * 2000 + c0] = sqrt(A[c0 * 2000 + c0]);
}
__global__ void kernel1(double *A, int n, int c0)
{
    int b0 = blockIdx.x;
    int t0 = threadIdx.x;
    double private_A_0[1][1];
    __shared__ double shared_A_1[1][1];

    {
      if (t0 == 0)
        shared_A_1[0][0] = A[c0 * 2000 + c0];
      __syncthreads();
      for (int c1 = -((-32 * b0 + c0 + 1048544) % 1048576) + c0 + 1048544; c1 < n - 1; c1 += 1048576)
        if (n >= t0 + c1 + 2 && t0 + c1 >= c0) {
          private_A_0[0][0] = A[(t0 + c1 + 1) * 2000 + c0];
          private_A_0[0][0] /= shared_A_1[0][0];
          if (32 * b0 + t0 <= 1998 && c1 == 32 * b0)
            A[(32 * b0 + t0 + 1) * 2000 + (32 * b0 + t0 + 1)] -= (private_A_0[0][0] * private_A_0[0][0]);
          A[(t0 + c1 + 1) * 2000 + c0] = private_A_0[0][0];
        }
    }
}
__global__ void kernel2(double *A, int n, int c0)
{
    int b0 = blockIdx.y, b1 = blockIdx.x;
    int t0 = threadIdx.y, t1 = threadIdx.x;
    __shared__ double shared_A_1[32][1];
    __shared__ double shared_A_2[32][1];

    #define ppcg_min(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x < _y ? _x : _y; })
    #define ppcg_max(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x > _y ? _x : _y; })
    {
      if (n >= 32 * b1 + t0 + 2 && t1 == 0)
        shared_A_2[t0][0] = A[(32 * b1 + t0 + 1) * 2000 + c0];
      if (32 * b1 + 31 >= c0)
        for (int c1 = 32 * ((b0 - b1 + 256) % 256) + 32 * b1; c1 < n - 2; c1 += 8192) {
          if (t1 == 0 && n >= t0 + c1 + 3)
            shared_A_1[t0][0] = A[(t0 + c1 + 2) * 2000 + c0];
          __syncthreads();
          if (n >= t0 + c1 + 3)
            for (int c4 = ppcg_max(t1, -((-t1 + c0 + 15) % 16) - 32 * b1 + c0 + 15); c4 <= ppcg_min(ppcg_min(31, -32 * b1 + 1998), -32 * b1 + t0 + c1); c4 += 16)
              A[(t0 + c1 + 2) * 2000 + (32 * b1 + c4 + 1)] -= (shared_A_1[t0][0] * shared_A_2[c4][0]);
          __syncthreads();
        }
    }
}
