#include "trisolv_kernel.hu"
__global__ void kernel0(double *b, double *x, int n)
{
    int b0 = blockIdx.x;
    int t0 = threadIdx.x;

    for (int c0 = 32 * b0; c0 < n; c0 += 1048576)
      if (n >= t0 + c0 + 1)
        x[t0 + c0] = b[t0 + c0];
}
__global__ void kernel1(double *L, double *x, int n, int c0)
{

    x[c0] = (x[c0] / L[c0 * 2000 + c0]);
}
__global__ void kernel2(double *L, double *x, int n, int c0)
{
    int b0 = blockIdx.x;
    int t0 = threadIdx.x;
    __shared__ double shared_x_1[1];

    {
      if (t0 == 0)
        shared_x_1[0] = x[c0];
      __syncthreads();
      for (int c1 = -((-32 * b0 + c0 + 1048544) % 1048576) + c0 + 1048544; c1 < n - 1; c1 += 1048576)
        if (n >= t0 + c1 + 2 && t0 + c1 >= c0)
          x[t0 + c1 + 1] -= (L[(t0 + c1 + 1) * 2000 + c0] * shared_x_1[0]);
    }
}
