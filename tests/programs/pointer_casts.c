/* Casts of a call's argument to the pointer type it already has (issue
 * 33: pet's call7, `foo((int *) &s)` of an `int s`, was E0104). Such a
 * cast changes nothing, so the region is the one written without it: a
 * scalar's address, an element's, a row, a whole array, through a typedef
 * and with `const` added. */
#include <stdio.h>

typedef double real;

static void bump(int a[static 1]) { a[0] = a[0] * 2 + 1; }

static void axpy(int n, real y[n], const real x[n], real a) {
  for (int k = 0; k < n; ++k)
    y[k] += a * x[k];
}

static void twice(float *p) { p[0] = 2.0f * p[0] - 1.0f; }

#define N 16

static void scalar(int c[N], int last[1]) {
  int s;
#pragma scop
  for (int i = 0; i < N; ++i) {
    s = c[i] + i;
    bump((int *) &s);
    bump((int *)(&c[i]));
    c[i] += s;
  }
  bump((int *) last);
#pragma endscop
}

static void arrays(real x[N], real y[N][N], float A[N][N]) {
#pragma scop
  for (int i = 0; i < N; ++i)
    axpy(N, (real *) y[i], (const double *) x, (double) i);
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      twice((float *) &A[i][j]);
#pragma endscop
}

int main(void) {
  static real x[N], y[N][N];
  static float A[N][N];
  static int c[N];
  for (int i = 0; i < N; ++i) {
    x[i] = 0.5 * i - 3.0;
    c[i] = 3 * i - 7;
    for (int j = 0; j < N; ++j) {
      y[i][j] = (i * j) % 5 - 2.0;
      A[i][j] = 0.25f * (i - j);
    }
  }
  int last[1] = {5};
  scalar(c, last);
  arrays(x, y, A);
  double sum = 0;
  long isum = 0;
  for (int i = 0; i < N; ++i) {
    isum += (long) c[i] * (i + 1);
    for (int j = 0; j < N; ++j)
      sum += y[i][j] * (j + 1) + A[i][j] * (i + 2);
  }
  printf("%ld %d %.6f\n", isum, last[0], sum);
  return 0;
}
