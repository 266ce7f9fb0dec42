/* Functions of the file that regions call as statements (issue 33): the
 * kernels call device copies of them, which pencilc writes into the kernel
 * file. Rows of 2-d arrays are passed as arguments (`copy(n, a[k + 1],
 * a[k])`), with a summary and without one; a function calls another; a
 * 2-d array parameter is indexed in the callee; a callee has a local array
 * and calls a math function. */
#include <math.h>
#include <stdio.h>
#include <pencil.h>

#define K 12
#define N 70

static void copy_summary(int n, double b[const restrict static n],
                         const double a[const restrict static n])
{
  for (int i = 0; i < n; i++) {
    __pencil_use(a[i]);
    __pencil_def(b[i]);
  }
}

/* Under `#ifdef pencil_access`, as code written for pet has it. */
static void copy(int n, double b[const restrict static n],
                 const double a[const restrict static n])
#ifdef pencil_access
    __attribute__((pencil_access(copy_summary)))
#endif
    ;

static void copy(int n, double b[const restrict static n],
                 const double a[const restrict static n])
{
  for (int i = 0; i < n; i++)
    b[i] = a[i] * 0.5 + 1;
}

/* No summary: the model takes it to read and write all of the row. */
static void scale(int n, double b[n], double f)
{
  for (int i = 0; i < n; i++)
    b[i] *= f;
}

static void scale_twice(int n, double b[n])
{
  scale(n, b, 2.0);
  scale(n, b, 1.5);
  return;
}

/* A 2-d parameter, indexed in the callee; a local array; a math call. */
static void smooth_row(int n, int m, double d[n][m], int i)
{
  double w[3];
  w[0] = 0.25;
  w[1] = 0.5;
  w[2] = 0.25;
  for (int j = 1; j < m - 1; j++) {
    double s = 0;
    for (int t = 0; t < 3; t++)
      s += w[t] * sqrt(d[i][j - 1 + t] + 1.0);
    d[i][j] = s;
  }
}

static void kernels(int n, int m, double a[static const restrict K][n],
                    double c[static const restrict K][n],
                    double d[static const restrict n][m],
                    double e[static const restrict K][n])
{
#pragma scop
  /* A chain through rows: sequential. */
  for (int k = 0; k < K - 1; k++)
    copy(n, a[k + 1], a[k]);
  /* Independent rows: parallel. */
  for (int k = 0; k < K; k++)
    copy(n, c[k], a[k]);
  for (int k = 0; k < K; k++)
    scale_twice(n, c[k]);
  /* Parallel only through the summary, which says `a` is only read. The
   * summary's own loop iterator is `i` too: it must not capture this `i`
   * (all of row `e[i]` is written, not `e[i][i]`). */
  for (int i = 0; i < K; i++)
    copy(n, e[i], a[3]);
  for (int i = 0; i < n; i++)
    smooth_row(n, m, d, i);
#pragma endscop
}

int main(void)
{
  static double a[K][N], c[K][N], d[N][N - 9], e[K][N];
  for (int i = 0; i < N; i++) {
    a[0][i] = i % 13;
    for (int j = 0; j < N - 9; j++)
      d[i][j] = (i * 7 + j * 3) % 11;
  }
  kernels(N, N - 9, a, c, d, e);
  double s = 0;
  for (int k = 0; k < K; k++)
    for (int i = 0; i < N; i++)
      s += a[k][i] * (k + 1) + c[k][i] * (i % 3) + e[k][i] * (k % 4);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N - 9; j++)
      s += d[i][j] * ((i + j) % 5);
  printf("%.6f\n", s);
  return 0;
}
