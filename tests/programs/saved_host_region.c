/* Two regions: a time-iterated 3-d stencil that needs far more isl work
 * than a copy loop, so that under a small isl budget the first stays on
 * the host and the second is compiled. Its saved schedule file must still
 * give the second region its own schedule when loaded (tests/scheduler.rs). */
#include <stdio.h>
#define N 40

void heavy(int n, double A[N][N][N], double B[N][N][N])
{
#pragma scop
  for (int t = 1; t <= 10; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        for (int k = 1; k < n - 1; k++)
          B[i][j][k] = 0.125 * (A[i + 1][j][k] - 2.0 * A[i][j][k] + A[i - 1][j][k])
                     + 0.125 * (A[i][j + 1][k] - 2.0 * A[i][j][k] + A[i][j - 1][k])
                     + A[i][j][k];
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        for (int k = 1; k < n - 1; k++)
          A[i][j][k] = 0.125 * (B[i + 1][j][k] - 2.0 * B[i][j][k] + B[i - 1][j][k]) + B[i][j][k];
  }
#pragma endscop
}

void light(int n, double X[N], double Y[N])
{
#pragma scop
  for (int i = 0; i < n; i++)
    Y[i] = 2.0 * X[i];
#pragma endscop
}

static double A[N][N][N], B[N][N][N], X[N], Y[N];

int main(void)
{
  for (int i = 0; i < N; i++) {
    X[i] = i;
    for (int j = 0; j < N; j++)
      for (int k = 0; k < N; k++)
        A[i][j][k] = (i + j * k) % 7;
  }
  heavy(N, A, B);
  light(N, X, Y);
  for (int i = 0; i < N; i++)
    printf("%.6f %.6f\n", Y[i], A[i][(i * 3) % N][(i * 7) % N]);
  return 0;
}
