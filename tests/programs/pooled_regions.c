/* Regions run many times with sizes that grow, shrink and repeat (issue
 * 34): the device's buffers come from a pool and the copies from staging
 * buffers, so each execution must see only its own data. A pooled buffer
 * is larger than the one asked for, or was last written by another
 * region; a copy in chunks has a short last chunk. `scale` reads a
 * footprint that starts inside its array (a pointer buffer with an
 * offset), `smooth` rows 1 to n-2 of a declared 2-d array, `total` is a
 * reduction (partial buffers per launch). */
#include <stdio.h>
#include <stdlib.h>

static void scale(int n, double *y, const double *x, double f)
{
#pragma scop
  for (int i = 3; i < n; i++)
    y[i] = x[i - 3] * f + x[i];
#pragma endscop
}

static void smooth(int n, int m, double B[n][m], const double A[n][m])
{
#pragma scop
  for (int i = 1; i < n - 1; i++)
    for (int j = 0; j < m; j++)
      B[i][j] = (A[i - 1][j] + A[i][j] + A[i + 1][j]) / 3.0 + j;
#pragma endscop
}

static double total(int n, const double *y)
{
  double s = 0;
#pragma scop
#pragma pencil independent reduction(+: s)
  for (int i = 0; i < n; i++)
    s += y[i];
#pragma endscop
  return s;
}

int main(void)
{
  static const int sizes[] = { 2000, 40, 300000, 5, 300000, 123457, 40, 700, 250000, 2000 };
  const int runs = (int) (sizeof sizes / sizeof sizes[0]);
  for (int r = 0; r < runs; r++) {
    int n = sizes[r], m = 7 + r;
    int rows = n / 50 + 3;
    double *x = malloc(sizeof(double) * n), *y = malloc(sizeof(double) * n);
    double (*A)[m] = malloc(sizeof(double) * rows * m);
    double (*B)[m] = malloc(sizeof(double) * rows * m);
    for (int i = 0; i < n; i++) {
      x[i] = (i * 7 + r) % 13 - 6;
      y[i] = -1;
    }
    for (int i = 0; i < rows; i++)
      for (int j = 0; j < m; j++) {
        A[i][j] = (i + 3 * j + r) % 5;
        B[i][j] = -2;
      }
    scale(n, y, x, 0.25 * (r + 1));
    smooth(rows, m, B, (const double (*)[m]) A);
    double s = total(n, y), b = 0;
    for (int i = 0; i < rows; i++)
      for (int j = 0; j < m; j++)
        b += B[i][j] * (i + 1);
    printf("%d: %.10g %.10g %.10g %.10g\n", n, s, y[0], y[n - 1], b);
    free(x);
    free(y);
    free(A);
    free(B);
  }
  return 0;
}
