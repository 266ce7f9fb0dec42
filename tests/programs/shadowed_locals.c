/* Declarations in a region that hide a variable of the same name (issue
 * 32): an inner `double t` hiding the outer scalar `t` that the region
 * writes (kernels printed the inner one as the outer's buffer, `t[0]`,
 * and did not build), a block's local hiding a parameter and read after
 * the block by the outer name (the front end flattened the block: the
 * later read took the local's value, on every target), a loop that
 * declares its iterator over a variable of the function (which must keep
 * its value), hiding in a loop kept as one statement, a local hiding the
 * global that an inlined function reads, and arrays of run-time size, one
 * hiding the other. */
#include <stdio.h>
#define N 32

static double scale = 0.5;
static inline double scaled(double x) { return scale * x; }

static void kernel(int n, int m, double s, double A[N][N], double B[N][N], int idx[N],
                   double out[3]) {
  int i = 77, j;
  double t = 0.5;
#pragma scop
  for (i = 0; i < n; i++) {
    for (j = 0; j < n; j++) {
      double t = A[i][j] * 2;
      B[i][j] = t + 1;
    }
    {
      double s = B[i][1] * 3;
      B[i][0] = s;
    }
    B[i][2] = s + t;
    t = t + B[i][0] * 0.001;
  }
  for (int i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      double acc = 0;
      for (int j = 0; j < idx[i]; j++) {
        double i = A[j][0];
        acc += i * j;
      }
      A[i][j] = acc + j;
    }
  for (i = 0; i < n; i++) {
    double scale = 3.0;
    B[i][3] = scaled(A[i][3]) + scale;
  }
  for (i = 0; i < n; i++) {
    double w[m];
    for (j = 0; j < m; j++)
      w[j] = A[i][j] * 0.5;
    for (j = 0; j < m; j++) {
      double w[n];
      for (int k = 0; k < n; k++)
        w[k] = B[k][j];
      B[i][j] = w[i] + w[0] + j;
    }
    B[i][4] = w[m - 1];
  }
  out[0] = t;
#pragma endscop
  out[1] = i;
  out[2] = j;
}

int main(void) {
  static double A[N][N], B[N][N], out[3];
  static int idx[N];
  for (int i = 0; i < N; i++) {
    idx[i] = (i * 5) % 9;
    for (int j = 0; j < N; j++)
      A[i][j] = (i * 3 + j) % 11;
  }
  kernel(N - 2, N - 7, 1.5, A, B, idx, out);
  double s = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      s += (A[i][j] + B[i][j]) * (i + 1) - j;
  printf("%.10g %.10g %g %g\n", s, out[0], out[1], out[2]);
  return 0;
}
