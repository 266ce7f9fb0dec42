#include "nussinov_kernel.hu"
typedef char base;
__global__ void kernel0(base *seq, int *table, int n, int c0)
{
    int b0 = blockIdx.x;
    int t0 = threadIdx.x;
    int private_table_0[1][1];
    __shared__ int shared_table_5[32][32];

    #define ppcg_min(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x < _y ? _x : _y; })
    #define ppcg_max(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x > _y ? _x : _y; })
    if (n >= 32 * b0 + c0 + 1) {
      if (n >= 32 * b0 + t0 + c0 + 1 && 32 * b0 + t0 + c0 <= 2499)
        private_table_0[0][0] = table[(32 * b0 + t0) * 2500 + (32 * b0 + t0 + c0)];
      if (32 * b0 + c0 >= 2500) {
        if (32 * b0 + t0 <= 2499)
          for (int c3 = 0; c3 <= ppcg_min(31, -32 * b0 + 2500); c3 += 1)
            shared_table_5[c3][t0] = table[(32 * b0 + c3) * 2500 + (32 * b0 + t0)];
        __syncthreads();
        if (32 * b0 + t0 <= 2498 && n >= 32 * b0 + t0 + c0 + 1) {
          private_table_0[0][0] = ((private_table_0[0][0] >= table[(32 * b0 + t0) * 2500 + (32 * b0 + t0 + c0 - 1)]) ? private_table_0[0][0] : table[(32 * b0 + t0) * 2500 + (32 * b0 + t0 + c0 - 1)]);
          private_table_0[0][0] = ((private_table_0[0][0] >= table[(32 * b0 + t0 + 1) * 2500 + (32 * b0 + t0 + c0)]) ? private_table_0[0][0] : table[(32 * b0 + t0 + 1) * 2500 + (32 * b0 + t0 + c0)]);
          if (32 * b0 + t0 <= 2497)
            private_table_0[0][0] = ((private_table_0[0][0] >= (table[(32 * b0 + t0 + 1) * 2500 + (32 * b0 + t0 + c0 - 1)] + (((seq[32 * b0 + t0] + seq[32 * b0 + t0 + c0]) == 3) ? 1 : 0))) ? private_table_0[0][0] : (table[(32 * b0 + t0 + 1) * 2500 + (32 * b0 + t0 + c0 - 1)] + (((seq[32 * b0 + t0] + seq[32 * b0 + t0 + c0]) == 3) ? 1 : 0)));
        }
        __syncthreads();
      } else {
        for (int c2 = 32 * b0; c2 <= ppcg_min(ppcg_min(ppcg_min(2498, n - 2), 32 * b0 + 32 * c0 - 32), 32 * b0 + c0 + 30); c2 += 32) {
          if (t0 + c2 <= 2499)
            for (int c3 = 0; c3 <= ppcg_min(ppcg_min(31, n - 32 * b0 - 1), -32 * b0 + 2500); c3 += 1)
              shared_table_5[c3][t0] = table[(32 * b0 + c3) * 2500 + (t0 + c2)];
          __syncthreads();
          if (32 * b0 + t0 <= 2498 && n >= 32 * b0 + t0 + c0 + 1 && c2 == 32 * b0) {
            private_table_0[0][0] = ((private_table_0[0][0] >= table[(32 * b0 + t0) * 2500 + (32 * b0 + t0 + c0 - 1)]) ? private_table_0[0][0] : table[(32 * b0 + t0) * 2500 + (32 * b0 + t0 + c0 - 1)]);
            private_table_0[0][0] = ((private_table_0[0][0] >= table[(32 * b0 + t0 + 1) * 2500 + (32 * b0 + t0 + c0)]) ? private_table_0[0][0] : table[(32 * b0 + t0 + 1) * 2500 + (32 * b0 + t0 + c0)]);
            if (32 * b0 + t0 <= 2497 && c0 >= 2) {
              private_table_0[0][0] = ((private_table_0[0][0] >= (table[(32 * b0 + t0 + 1) * 2500 + (32 * b0 + t0 + c0 - 1)] + (((seq[32 * b0 + t0] + seq[32 * b0 + t0 + c0]) == 3) ? 1 : 0))) ? private_table_0[0][0] : (table[(32 * b0 + t0 + 1) * 2500 + (32 * b0 + t0 + c0 - 1)] + (((seq[32 * b0 + t0] + seq[32 * b0 + t0 + c0]) == 3) ? 1 : 0)));
            } else if (c0 == 1) {
              private_table_0[0][0] = ((private_table_0[0][0] >= table[(32 * b0 + t0 + 1) * 2500 + (32 * b0 + t0)]) ? private_table_0[0][0] : table[(32 * b0 + t0 + 1) * 2500 + (32 * b0 + t0)]);
            }
          }
          if (n >= 32 * b0 + t0 + c0 + 1 && 32 * b0 + t0 + c0 <= 2499)
            for (int c4 = ppcg_max(0, 32 * b0 + t0 - c2 + 1); c4 <= ppcg_min(31, 32 * b0 + t0 + c0 - c2 - 1); c4 += 1)
              private_table_0[0][0] = ((private_table_0[0][0] >= (shared_table_5[t0][c4] + table[(c2 + c4 + 1) * 2500 + (32 * b0 + t0 + c0)])) ? private_table_0[0][0] : (shared_table_5[t0][c4] + table[(c2 + c4 + 1) * 2500 + (32 * b0 + t0 + c0)]));
          __syncthreads();
        }
      }
      if (n >= 32 * b0 + t0 + c0 + 1 && 32 * b0 + t0 + c0 <= 2499)
        table[(32 * b0 + t0) * 2500 + (32 * b0 + t0 + c0)] = private_table_0[0][0];
    }
}
