#include "adi_kernel.hu"
__global__ void kernel0(double *a, double *b, double *c, double *d, double *f, double *p, double *q, double *u, double *v, int tsteps, int n, int c0)
{
    int b0 = blockIdx.x;
    int t0 = threadIdx.x;
    __shared__ double shared_a;
    __shared__ double shared_b;
    __shared__ double shared_c;
    __shared__ double shared_d;
    __shared__ double shared_f;
    double private_v[1][1];

    #define ppcg_min(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x < _y ? _x : _y; })
    #define ppcg_max(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x > _y ? _x : _y; })
    {
      if (t0 == 0) {
        shared_a = *a;
        shared_b = *b;
        shared_c = *c;
        shared_d = *d;
        shared_f = *f;
      }
      __syncthreads();
      for (int c2 = 0; c2 <= ppcg_min(999, n - 2); c2 += 32) {
        if (n >= 32 * b0 + t0 + 3 && 32 * b0 + t0 <= 998 && c2 == 0) {
          private_v[0][0] = 1.;
          q[(32 * b0 + t0 + 1) * 1000 + 0] = private_v[0][0];
          p[(32 * b0 + t0 + 1) * 1000 + 0] = 0.;
        }
        if (n >= 32 * b0 + t0 + 3 && 32 * b0 + t0 <= 998)
          for (int c4 = ppcg_max(0, -c2 + 1); c4 <= ppcg_min(ppcg_min(31, n - c2 - 2), -c2 + 999); c4 += 1) {
            p[(32 * b0 + t0 + 1) * 1000 + (c2 + c4)] = ((-shared_c) / ((shared_a * p[(32 * b0 + t0 + 1) * 1000 + (c2 + c4 - 1)]) + shared_b));
            q[(32 * b0 + t0 + 1) * 1000 + (c2 + c4)] = ((((((-shared_d) * u[(c2 + c4) * 1000 + (32 * b0 + t0)]) + ((1. + (2. * shared_d)) * u[(c2 + c4) * 1000 + (32 * b0 + t0 + 1)])) - (shared_f * u[(c2 + c4) * 1000 + (32 * b0 + t0 + 2)])) - (shared_a * q[(32 * b0 + t0 + 1) * 1000 + (c2 + c4 - 1)])) / ((shared_a * p[(32 * b0 + t0 + 1) * 1000 + (c2 + c4 - 1)]) + shared_b));
          }
        __syncthreads();
      }
      if (n >= 32 * b0 + t0 + 3 && 32 * b0 + t0 <= 998)
        v[0 * 1000 + (32 * b0 + t0 + 1)] = private_v[0][0];
    }
}
__global__ void kernel1(double *p, double *q, double *v, int tsteps, int n, int c0)
{
    int b0 = blockIdx.x;
    int t0 = threadIdx.x;
    __shared__ double shared_p[32][32];

    #define ppcg_min(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x < _y ? _x : _y; })
    #define ppcg_max(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x > _y ? _x : _y; })
    for (int c2 = 0; c2 < n - 1; c2 += 32) {
      if (n + t0 >= c2 + 32 && c2 + 1031 >= n + t0)
        for (int c3 = 0; c3 <= ppcg_min(31, n - 32 * b0 - 3); c3 += 1)
          shared_p[c3][t0] = p[(32 * b0 + c3 + 1) * 1000 + (n + t0 - c2 - 32)];
      __syncthreads();
      if (n >= 32 * b0 + t0 + 3 && 32 * b0 + t0 <= 998 && c2 == 0)
        v[(n - 1) * 1000 + (32 * b0 + t0 + 1)] = 1.;
      if (n >= 32 * b0 + t0 + 3 && 32 * b0 + t0 <= 998)
        for (int c4 = ppcg_max(0, -c2 + 1); c4 <= ppcg_min(31, n - c2 - 2); c4 += 1)
          v[(n - c2 - c4 - 1) * 1000 + (32 * b0 + t0 + 1)] = ((shared_p[t0][-c4 + 31] * v[(n - c2 - c4) * 1000 + (32 * b0 + t0 + 1)]) + q[(32 * b0 + t0 + 1) * 1000 + (n - c2 - c4 - 1)]);
      __syncthreads();
    }
}
__global__ void kernel2(double *a, double *c, double *d, double *e, double *f, double *p, double *q, double *u, double *v, int tsteps, int n, int c0)
{
    int b0 = blockIdx.x;
    int t0 = threadIdx.x;
    __shared__ double shared_a;
    __shared__ double shared_c;
    __shared__ double shared_d;
    __shared__ double shared_e;
    __shared__ double shared_f;
    double private_u[1][1];

    #define ppcg_min(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x < _y ? _x : _y; })
    #define ppcg_max(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x > _y ? _x : _y; })
    {
      if (t0 == 0) {
        shared_a = *a;
        shared_c = *c;
        shared_d = *d;
        shared_e = *e;
        shared_f = *f;
      }
      __syncthreads();
      for (int c1 = 32 * b0; c1 < n - 2; c1 += 1048576) {
        for (int c2 = 0; c2 <= ppcg_min(999, n - 2); c2 += 32) {
          if (n >= t0 + c1 + 3 && c2 == 0) {
            private_u[0][0] = 1.;
            q[(t0 + c1 + 1) * 1000 + 0] = private_u[0][0];
            p[(t0 + c1 + 1) * 1000 + 0] = 0.;
          }
          if (n >= t0 + c1 + 3)
            for (int c4 = ppcg_max(0, -c2 + 1); c4 <= ppcg_min(ppcg_min(31, n - c2 - 2), -c2 + 999); c4 += 1) {
              p[(t0 + c1 + 1) * 1000 + (c2 + c4)] = ((-shared_f) / ((shared_d * p[(t0 + c1 + 1) * 1000 + (c2 + c4 - 1)]) + shared_e));
              q[(t0 + c1 + 1) * 1000 + (c2 + c4)] = ((((((-shared_a) * v[(t0 + c1) * 1000 + (c2 + c4)]) + ((1. + (2. * shared_a)) * v[(t0 + c1 + 1) * 1000 + (c2 + c4)])) - (shared_c * v[(t0 + c1 + 2) * 1000 + (c2 + c4)])) - (shared_d * q[(t0 + c1 + 1) * 1000 + (c2 + c4 - 1)])) / ((shared_d * p[(t0 + c1 + 1) * 1000 + (c2 + c4 - 1)]) + shared_e));
            }
          __syncthreads();
        }
        if ((c0 == tsteps && n >= t0 + c1 + 3) || (n >= 32 * b0 + t0 + 3 && 32 * b0 + t0 <= 998 && tsteps >= c0 + 1 && c1 == 32 * b0))
          u[(t0 + c1 + 1) * 1000 + 0] = private_u[0][0];
      }
    }
}
__global__ void kernel3(double *p, double *q, double *u, int tsteps, int n, int c0)
{
    int b0 = blockIdx.x;
    int t0 = threadIdx.x;
    __shared__ double shared_p[32][32];

    #define ppcg_min(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x < _y ? _x : _y; })
    #define ppcg_max(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x > _y ? _x : _y; })
    for (int c1 = 32 * b0; c1 < n - 1; c1 += 1048576)
      for (int c2 = ppcg_max(0, -((n + 25) % 32) + n - 999); c2 < n; c2 += 32) {
        if (n + t0 >= c2 + 31 && c2 + 1030 >= n + t0)
          for (int c3 = 0; c3 <= ppcg_min(31, n - c1 - 2); c3 += 1)
            shared_p[c3][t0] = p[(c1 + c3) * 1000 + (n + t0 - c2 - 31)];
        __syncthreads();
        if (n <= 1000 && n >= 32 * b0 + t0 + 2 && 32 * b0 + t0 >= 1 && c1 == 32 * b0 && c2 == 0)
          u[(32 * b0 + t0) * 1000 + (n - 1)] = 1.;
        if (n >= t0 + c1 + 2 && t0 + c1 >= 1)
          for (int c4 = ppcg_max(ppcg_max(0, n - c2 - 999), -c2 + 2); c4 <= ppcg_min(31, n - c2 - 1); c4 += 1)
            u[(t0 + c1) * 1000 + (n - c2 - c4)] = ((shared_p[t0][-c4 + 31] * u[(t0 + c1) * 1000 + (n - c2 - c4 + 1)]) + q[(t0 + c1) * 1000 + (n - c2 - c4)]);
        __syncthreads();
      }
}
