#include "covariance_kernel.hu"
__global__ void kernel0(double *data, double *mean, int m, int n)
{
    int b0 = blockIdx.x;
    int t0 = threadIdx.x;
    double private_mean[1];

    #define ppcg_min(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x < _y ? _x : _y; })
    for (int c0 = 32 * b0; c0 < m; c0 += 1048576) {
      if (m >= t0 + c0 + 1) {
        private_mean[0] = 0.;
        for (int c1 = 0; c1 < n; c1 += 32)
          for (int c3 = 0; c3 <= ppcg_min(31, n - c1 - 1); c3 += 1)
            private_mean[0] += data[(c1 + c3) * 1200 + (t0 + c0)];
        mean[t0 + c0] = private_mean[0];
      }
      __syncthreads();
    }
}
__global__ void kernel1(double float_n, double *mean, int m, int n)
{
    int b0 = blockIdx.x;
    int t0 = threadIdx.x;

    for (int c0 = 32 * b0; c0 < m; c0 += 1048576)
      if (m >= t0 + c0 + 1)
        mean[t0 + c0] /= float_n;
}
__global__ void kernel2(double *data, double *mean, int m, int n)
{
    int b0 = blockIdx.y, b1 = blockIdx.x;
    int t0 = threadIdx.y, t1 = threadIdx.x;
    __shared__ double shared_mean[32];

    #define ppcg_min(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x < _y ? _x : _y; })
    {
      if (t0 == 0)
        for (int c0 = t1; c0 <= ppcg_min(31, m - 32 * b1 - 1); c0 += 16)
          shared_mean[c0] = mean[32 * b1 + c0];
      __syncthreads();
      for (int c0 = 32 * b0; c0 < n; c0 += 8192)
        if (n >= t0 + c0 + 1)
          for (int c3 = t1; c3 <= ppcg_min(ppcg_min(31, m - 32 * b1 - 1), -32 * b1 + 1199); c3 += 16)
            data[(t0 + c0) * 1200 + (32 * b1 + c3)] -= shared_mean[c3];
    }
}
__global__ void kernel3(double *cov, int m, int n)
{
    int b0 = blockIdx.y, b1 = blockIdx.x;
    int t0 = threadIdx.y, t1 = threadIdx.x;

    #define ppcg_min(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x < _y ? _x : _y; })
    #define ppcg_max(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x > _y ? _x : _y; })
    for (int c3 = ppcg_max(t1, -((t0 - t1 + 15) % 16) + 32 * b0 - 32 * b1 + t0 + 15); c3 <= ppcg_min(ppcg_min(31, m - 32 * b1 - 1), -32 * b1 + 1199); c3 += 16)
      cov[(32 * b0 + t0) * 1200 + (32 * b1 + c3)] = 0.;
}
__global__ void kernel4(double *cov, double *data, double float_n, int m, int n)
{
    int b0 = blockIdx.y, b1 = blockIdx.x;
    int t0 = threadIdx.y, t1 = threadIdx.x;
    __shared__ double shared_data_0[32][32];

    #define ppcg_min(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x < _y ? _x : _y; })
    #define ppcg_max(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x > _y ? _x : _y; })
    for (int c1 = -(32 * ((b0 - b1 + 255) % 256)) + 32 * b0 + 8160; c1 < m; c1 += 8192) {
      if (c1 >= 32 * b1 + 8192) {
        if (n >= 1 && n % 32 >= t0 + 1)
          for (int c4 = t1; c4 <= ppcg_min(31, -32 * b0 + 1199); c4 += 16)
            shared_data_0[t0][c4] = data[(-(n % 32) + n + t0) * 1200 + (32 * b0 + c4)];
        __syncthreads();
        if (32 * b0 + t0 <= 1199)
          for (int c4 = t1; c4 <= ppcg_min(31, m - c1 - 1); c4 += 16)
            cov[(c1 + c4) * 1200 + (32 * b0 + t0)] = cov[(32 * b0 + t0) * 1200 + (c1 + c4)];
        __syncthreads();
      } else {
        if (n <= 0) {
          __syncthreads();
          if (32 * b0 + t0 <= 1199)
            for (int c4 = ppcg_max(t1, -((t0 - t1 + 15) % 16) + 32 * b0 - 32 * b1 + t0 + 15); c4 <= ppcg_min(31, m - 32 * b1 - 1); c4 += 16) {
              if (32 * b1 + c4 <= 1199)
                cov[(32 * b0 + t0) * 1200 + (32 * b1 + c4)] /= (float_n - 1.);
              cov[(32 * b1 + c4) * 1200 + (32 * b0 + t0)] = cov[(32 * b0 + t0) * 1200 + (32 * b1 + c4)];
            }
          __syncthreads();
        }
        if (b1 <= 37) {
          for (int c2 = 0; c2 < n; c2 += 32) {
            if (n >= t0 + c2 + 1)
              for (int c4 = t1; c4 <= ppcg_min(31, -32 * b0 + 1199); c4 += 16)
                shared_data_0[t0][c4] = data[(t0 + c2) * 1200 + (32 * b0 + c4)];
            __syncthreads();
            if (m >= 32 * b0 + t0 + 1 && 32 * b0 + t0 <= 1199 && m >= 32 * b1 + t1 + 1 && 32 * b1 + t1 + 16 >= 32 * b0 + t0) {
              for (int c4 = ppcg_max(t1, -((t0 - t1 + 15) % 16) + 32 * b0 - 32 * b1 + t0 + 15); c4 <= ppcg_min(ppcg_min(31, m - 32 * b1 - 1), -32 * b1 + 1199); c4 += 16) {
                for (int c5 = 0; c5 <= ppcg_min(31, n - c2 - 1); c5 += 1)
                  cov[(32 * b0 + t0) * 1200 + (32 * b1 + c4)] += (shared_data_0[c5][t0] * data[(c2 + c5) * 1200 + (32 * b1 + c4)]);
                if (c2 + 31 >= n) {
                  cov[(32 * b0 + t0) * 1200 + (32 * b1 + c4)] /= (float_n - 1.);
                  cov[(32 * b1 + c4) * 1200 + (32 * b0 + t0)] = cov[(32 * b0 + t0) * 1200 + (32 * b1 + c4)];
                }
              }
              if (b1 == 37 && m >= t1 + 1201 && c2 + 31 >= n)
                cov[(t1 + 1200) * 1200 + (32 * b0 + t0)] = cov[(32 * b0 + t0) * 1200 + (t1 + 1200)];
            }
            __syncthreads();
          }
          if (n >= 32 && n % 32 == 0) {
            __syncthreads();
            if (32 * b0 + t0 <= 1199)
              for (int c4 = ppcg_max(t1, -((t0 - t1 + 15) % 16) + 32 * b0 - 32 * b1 + t0 + 15); c4 <= ppcg_min(31, m - 32 * b1 - 1); c4 += 16) {
                if (32 * b1 + c4 <= 1199)
                  cov[(32 * b0 + t0) * 1200 + (32 * b1 + c4)] /= (float_n - 1.);
                cov[(32 * b1 + c4) * 1200 + (32 * b0 + t0)] = cov[(32 * b0 + t0) * 1200 + (32 * b1 + c4)];
              }
            __syncthreads();
          }
        } else if (n >= 1) {
          if (n % 32 >= t0 + 1)
            for (int c4 = t1; c4 <= ppcg_min(31, -32 * b0 + 1199); c4 += 16)
              shared_data_0[t0][c4] = data[(-(n % 32) + n + t0) * 1200 + (32 * b0 + c4)];
          __syncthreads();
          if (32 * b0 + t0 <= 1199)
            for (int c4 = t1; c4 <= ppcg_min(31, m - 32 * b1 - 1); c4 += 16)
              cov[(32 * b1 + c4) * 1200 + (32 * b0 + t0)] = cov[(32 * b0 + t0) * 1200 + (32 * b1 + c4)];
          __syncthreads();
        }
      }
    }
}
