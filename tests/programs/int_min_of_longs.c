/* PENCIL's `min`, `max` and `clamp`, and C's `abs`, are the `int`
 * ones: called with `long` values they truncate them, in C and on every
 * device. CUDA overloads its own `min`, `max` and `abs` for `long` and
 * kept 64 bits (red team round 9). */
#include <pencil.h>
#include <stdio.h>
#include <stdlib.h>

static long A[100][100], y[100], z[100], w[100], v[100];

static void f(int n, long A[100][100], long y[100], long z[100], long w[100], long v[100])
{
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      y[i] = min(y[i], A[i][j]);
      z[i] = max(z[i], A[i][j] - 8589934592L);
    }
  for (int i = 0; i < n; i++)
    w[i] = clamp(A[i][0] + 4294967296L, -3, 20);
  for (int i = 0; i < n; i++)
    v[i] = abs(A[i][1] - 4294967296L * 2 - 30);
#pragma endscop
}

int main(void)
{
  for (int i = 0; i < 100; i++) {
    y[i] = 5 - 4294967296L;
    z[i] = -7;
    w[i] = 0;
    v[i] = 0;
    for (int j = 0; j < 100; j++)
      A[i][j] = 10 + j - i;
  }
  f(40, A, y, z, w, v);
  for (int i = 0; i < 40; i++)
    printf("%d %ld %ld %ld %ld\n", i, y[i], z[i], w[i], v[i]);
  return 0;
}
