/* `register` scalars (old C, and some generators, still write them) used
 * by a region: host code may not take their addresses, so the device
 * version copies them through locals of its own. Reductions found in the
 * code, a declared one, a scalar written last in the region and read
 * after it, and a `register` parameter. */
#include <stdio.h>
#include <math.h>
#define N 64
static void kernel(register int n, float A[N], float B[N][N], float *out)
{
  int i, j;
  register float prod = 1.0f, s = 0.0f, mx = -1.0f;
  register double last = -3.0;
  register int count = 0;
#pragma scop
#pragma pencil independent reduction(*: prod)
  for (i = 0; i < n; i++)
    prod *= A[i];
  for (i = 0; i < n; i++) {
    s += A[i];
    mx = fmaxf(mx, A[i]);
    if (A[i] > 1.05f)
      count += 1;
  }
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      B[i][j] = A[i] - A[j] + s;
  last = B[n - 1][0] * 2.0;
#pragma endscop
  out[0] = prod;
  out[1] = s;
  out[2] = mx;
  out[3] = (float) last;
  out[4] = (float) count;
}

int main(void)
{
  static float A[N], B[N][N], out[5];
  for (int i = 0; i < N; i++)
    A[i] = 1.0f + (i % 4) * 0.0625f;
  kernel(N - 5, A, B, out);
  double b = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      b += B[i][j] * (i + 2 * j);
  printf("%.4g %.6g %.6g %.6g %.6g %.6g\n", out[0], out[1], out[2], out[3], out[4], b);
  return 0;
}
