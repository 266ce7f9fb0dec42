/* Reductions into one element per launch (`x[i] -= A[i][j] * x[j]`,
 * j > i) into arrays whose sizes the program knows at run time only: a
 * VLA parameter, a row of a two-dimensional VLA, and a pointer whose
 * buffer on the device starts after it (the region touches x[off..]). The
 * host computes the element's place in the device buffer from the
 * extents and the buffer's offset; the launch combines its products in a
 * tree, where atomic updates of one address from every thread take turns
 * on a GPU. Every version must print what the sequential program
 * prints. */
#include <stdio.h>
#include <stdlib.h>

static void solve_vla(int n, double A[n][n], double x[n])
{
#pragma scop
  for (int i = n - 1; i >= 0; i--) {
    for (int j = i + 1; j < n; j++)
      x[i] -= A[i][j] * x[j];
    x[i] = x[i] / A[i][i];
  }
#pragma endscop
}

static void solve_row(int n, int m, double A[n][n], double X[m][n])
{
#pragma scop
  for (int i = n - 1; i >= 0; i--) {
    for (int j = i + 1; j < n; j++)
      X[1][i] -= A[i][j] * X[1][j];
    X[1][i] = X[1][i] / A[i][i] + X[0][i];
  }
#pragma endscop
}

static void solve_ptr(int n, int off, double *A, double *x)
{
#pragma scop
  for (int i = n - 1; i >= 0; i--) {
    for (int j = i + 1; j < n; j++)
      x[i + off] -= A[i * n + j] * x[j + off];
    x[i + off] = x[i + off] / A[i * n + i];
  }
#pragma endscop
}

int main(void)
{
  int n = 1500;
  double (*A)[n] = malloc(sizeof(double[n][n]));
  double *x = malloc(sizeof(double) * n);
  double (*X)[n] = malloc(sizeof(double[2][n]));
  int off = 100;
  double *y = malloc(sizeof(double) * (n + off));
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++)
      A[i][j] = (i == j) ? 4.0 + (i % 5) : ((i * 7 + j * 3) % 11) / (11.0 * n);
    x[i] = 1.0 + (i % 13) / 13.0;
    X[0][i] = (i % 3) / 7.0;
    X[1][i] = 2.0 - (i % 11) / 11.0;
    y[i + off] = x[i];
  }
  for (int i = 0; i < off; i++)
    y[i] = -1.0;
  solve_vla(n, A, x);
  solve_row(n, 2, A, X);
  solve_ptr(n, off, &A[0][0], y);
  double sx = 0.0, sX = 0.0, sy = 0.0;
  for (int i = 0; i < n; i++) {
    sx += x[i] * (1 + i % 7);
    sX += X[1][i] * (1 + i % 5) + X[0][i];
    sy += y[i + off] * (1 + i % 3);
  }
  printf("%.9e %.9e %.9e %g\n", sx, sX, sy, y[0] + y[off - 1]);
  printf("%.12e %.12e %.12e\n", x[0], X[1][n / 2], y[off]);
  free(A);
  free(x);
  free(X);
  free(y);
  return 0;
}
