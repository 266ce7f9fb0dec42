/* Regions called from the program's own OpenMP threads at once (issue
 * 32): every thread runs the same regions on its own data, with its own
 * row length (OpenCL builds a program per row length, at most four kept:
 * threads meet the cache building, full and shared), a reduction (partial
 * buffers per launch) and a scalar written back. The device's setup, the
 * program cache and the chooser's state are shared by the threads; the
 * results must be what the threads compute one after another. Built
 * without -fopenmp, the threads' loop runs in order. */
#include <stdio.h>
#include <stdlib.h>
#define THREADS 8
#define ROUNDS 6

static void rows(int n, int m, double A[n][m], const double B[n][m], double f)
{
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      A[i][j] = B[i][j] * f + i - 2 * j;
#pragma endscop
}

static double total(int n, int m, const double A[n][m])
{
  double s = 0;
#pragma scop
  for (int i = 0; i < n; i++) {
#pragma pencil independent reduction(+: s)
    for (int j = 0; j < m; j++)
      s += A[i][j];
  }
#pragma endscop
  return s;
}

int main(void)
{
  double sums[THREADS][ROUNDS];
#pragma omp parallel for num_threads(THREADS) schedule(static, 1)
  for (int t = 0; t < THREADS; t++) {
    int n = 40 + 3 * t, m = 17 + t;
    double (*A)[m] = malloc(sizeof(double) * n * m);
    double (*B)[m] = malloc(sizeof(double) * n * m);
    for (int i = 0; i < n; i++)
      for (int j = 0; j < m; j++)
        B[i][j] = (i * 3 + j * 5 + t) % 11;
    for (int r = 0; r < ROUNDS; r++) {
      rows(n, m, A, B, 0.5 * (r + 1));
      sums[t][r] = total(n, m, (const double (*)[m]) A);
    }
    free(A);
    free(B);
  }
  for (int t = 0; t < THREADS; t++) {
    for (int r = 0; r < ROUNDS; r++)
      printf(" %.10g", sums[t][r]);
    printf("\n");
  }
  return 0;
}
