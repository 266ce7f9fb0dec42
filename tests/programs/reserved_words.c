/* C names that OpenCL C or CUDA C++ reserve, or that pencilc's kernels
 * call (issue 32): OpenCL's address spaces, qualifiers and types, vector
 * and image types, its fence flags and builtins, CUDA's built-in
 * variables and types, and C++'s keywords, each a variable of the
 * region. Kernels printed them unchanged and did not build; the region
 * has tiles in local memory (barriers), a min reduction (an infinity as
 * its identity) and `_Bool` stores, where pencilc's own code names
 * OpenCL's and CUDA's identifiers beside the user's. */
#include <stdio.h>
#define N 40

static void kernel(int n, double global[N][N], double local[N][N], double constant, int private,
                   int kernel, unsigned int uint, unsigned char uchar, float half, double float2,
                   int image2d_t, int sampler_t, int read_only, int barrier, int get_local_id,
                   int CLK_LOCAL_MEM_FENCE, double INFINITY, double HUGE_VAL, int new, int class,
                   int this, int threadIdx, int blockIdx, int dim3, int warpSize, int int2,
                   int imin, _Bool flags[N], double lowest[1]) {
  int i, j, k;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      for (k = 0; k < n; k++)
        global[i][j] += local[i][k] * local[k][j] * constant;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      global[i][j] += private + kernel + uint + uchar + half + float2 + image2d_t + sampler_t
                      + read_only + barrier + get_local_id + CLK_LOCAL_MEM_FENCE + INFINITY
                      + HUGE_VAL + new + class + this + threadIdx + blockIdx + dim3 + warpSize
                      + int2 + imin;
  for (i = 0; i < n; i++)
    flags[i] = global[i][i] > global[i][0] + constant;
#pragma pencil independent reduction(min: lowest)
  for (i = 0; i < n; i++)
    lowest[0] = global[i][n - 1 - i] < lowest[0] ? global[i][n - 1 - i] : lowest[0];
#pragma endscop
}

int main(void) {
  static double A[N][N], B[N][N], lowest[1] = {1e300};
  static _Bool flags[N];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      A[i][j] = (i * 3 + j) % 11;
      B[i][j] = (i + 2 * j) % 7 - 3;
    }
  kernel(N - 3, A, B, 0.5, 1, 2, 3u, 4, 0.25f, 0.125, 5, 6, 7, 8, 9, 10, 0.75, 1.5, 11, 12, 13,
         14, 15, 16, 17, 18, 19, flags, lowest);
  double s = 0;
  int f = 0;
  for (int i = 0; i < N; i++) {
    f = 2 * f + flags[i];
    f %= 1000003;
    for (int j = 0; j < N; j++)
      s += A[i][j] * (i + 1) - j;
  }
  printf("%.10g %d %.10g\n", s, f, lowest[0]);
  return 0;
}
