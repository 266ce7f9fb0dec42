/* Index-set splitting (scop::split): floyd-warshall's row and column k,
 * and Gauss-Jordan's pivot row and column, are slices that the other
 * instances of iteration k read. Split along them, the rest of each k
 * step runs in parallel; the results must be the original's exactly.
 * A negative diagonal makes row and column k change within their step
 * (in doubles: the negative cycles grow past any int, where C's signed
 * overflow would be undefined). */
#include <stdio.h>
#include <stdlib.h>

#define N 61

static void shortest(int n, double path[N][N])
{
#pragma scop
  for (int k = 0; k < n; k++)
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
        path[i][j] = path[i][j] < path[i][k] + path[k][j] ? path[i][j] : path[i][k] + path[k][j];
#pragma endscop
}

static void eliminate(int n, double A[N][N])
{
#pragma scop
  for (int k = 0; k < n; k++)
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
        A[i][j] = A[i][j] - A[i][k] * A[k][j] / (A[k][k] + 100.0);
#pragma endscop
}

/* A C99 array parameter and a body with a local and a data-dependent
 * `if` (may-writes): the GPU model cannot size the buffer, but both
 * versions leave out the same, and the split is still chosen. */
static void shortest_vla(int n, double p[n][n])
{
#pragma scop
  for (int k = 0; k < n; k++)
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) {
        double t = p[i][k] + p[k][j];
        if (t < p[i][j])
          p[i][j] = t;
      }
#pragma endscop
}

int main(void)
{
  static double path[N][N];
  static double A[N][N];
  int sizes[] = {0, 1, 2, 7, 33, N};
  for (int s = 0; s < 6; s++) {
    int n = sizes[s];
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++) {
        path[i][j] = (i * 7 + j * 13) % 23 - (i == j ? 0.5 : 0.0);
        A[i][j] = (double)((i * 5 + j * 3) % 11) / 7.0 + (i == j ? 2.0 : 0.0);
      }
    shortest(n, path);
    eliminate(n, A);
    double (*q)[n > 0 ? n : 1] = malloc(sizeof(double) * (n > 0 ? n : 1) * (n > 0 ? n : 1));
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
        q[i][j] = (i * 11 + j * 5) % 17 - (i == j ? 0.75 : 0.0);
    shortest_vla(n, q);
    double qsum = 0;
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
        qsum += q[i][j] * (2 * i + j + 1);
    free(q);
    double sum = 0, dsum = 0;
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++) {
        sum += path[i][j] * (i + 2 * j + 1);
        dsum += A[i][j] * (i + 1);
      }
    printf("n=%d %.17g %.17g %.17g %.17g %.17g\n", n, sum, dsum, path[N - 1][0], A[n > 0 ? n - 1 : 0][0], qsum);
  }
  return 0;
}
