/* Arrays far larger than what a region touches, and than a device holds
 * (issue 32): a region that reads and writes 15 elements of
 * `double A[20000][20000]` (3.2 GB) copies the rows it touches, not the
 * array; one that touches the first and the last row of a 12.8 GB array
 * needs it all, which no test device holds (PoCL's CPU device and
 * fakecuda have less), so it runs its original code; the region after it
 * runs on the device as usual. Only the touched pages of the arrays are
 * ever used (calloc'ed memory is mapped on first write). */
#include <stdio.h>
#include <stdlib.h>
#define N 20000L
#define M 40000L

static void ends(int n, double B[M][M])
{
#pragma scop
  for (int j = 0; j < n; j++) {
    B[0][j] = B[0][j] + j;
    B[M - 1][j] = B[M - 1][j] * 2 + B[0][j];
  }
#pragma endscop
}

static void touch(int n, double A[N][N])
{
#pragma scop
  for (int i = 0; i < n; i++)
    A[3 * i + 2][7] = A[3 * i + 2][7] * 2 + i;
#pragma endscop
}

static void small(int n, double x[64], const double y[64])
{
#pragma scop
  for (int i = 0; i < n; i++)
    x[i] = y[i] * 3 + 1;
#pragma endscop
}

int main(void)
{
  double (*A)[N] = calloc((size_t) N * N, sizeof(double));
  double (*B)[M] = calloc((size_t) M * M, sizeof(double));
  static double x[64], y[64];
  if (!A || !B) {
    printf("no memory for the arrays\n");
    return 0;
  }
  for (int j = 0; j < 20; j++)
    B[M - 1][j] = j % 3;
  for (int i = 0; i < 15; i++)
    A[3 * i + 2][7] = i;
  for (int i = 0; i < 64; i++)
    y[i] = i % 5;
  ends(20, B);
  touch(15, A);
  small(60, x, y);
  double s = 0, t = 0, u = 0;
  for (int j = 0; j < 20; j++)
    s += B[0][j] + 3 * B[M - 1][j];
  for (int i = 0; i < 15; i++)
    t += A[3 * i + 2][7] * (i + 1);
  for (int i = 0; i < 64; i++)
    u += x[i] * (i + 1);
  printf("%g %g %g\n", s, t, u);
  return 0;
}
