/* Variables written before they are read in each iteration of the loops
 * around them (issue 30, privatisation): each iteration may have its own
 * copy, and the value left after the region is the last iteration's.
 * Also variables that must not be privatised (a value read before it is
 * written in an iteration), and one variable reused by two loop nests. */
#include <stdio.h>

#define N 37
#define M 29
#define P 6

/* symm's shape: `t` is declared outside the region and live after it. */
static double shared_scalar(int n, int m, double A[N][M], double B[N][M]) {
  double t;
  int i, j, k;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++) {
      t = 0;
      for (k = 0; k < i; k++)
        t += A[k][j] * (k + 1);
      B[i][j] = t + A[i][j];
    }
#pragma endscop
  return t;
}

/* doitgen's shape: a small array, a parameter (so live after the region),
 * filled and read in each (r, q) iteration. */
static void shared_array(int nr, int nq, double A[N][M][P], double C[P][P], double sum[P]) {
#pragma scop
  for (int r = 0; r < nr; r++)
    for (int q = 0; q < nq; q++) {
      for (int p = 0; p < P; p++) {
        sum[p] = 0;
        for (int s = 0; s < P; s++)
          sum[p] += A[r][q][s] * C[s][p];
      }
      for (int p = 0; p < P; p++)
        A[r][q][p] = sum[p];
    }
#pragma endscop
}

/* One scalar for two nests (deriche's `ym1`), the second's last value
 * left in it; the first nest's value is overwritten by the second's. */
static double two_nests(int n, int m, double A[N][M], double B[N][M], double C[N][M]) {
  double y;
#pragma scop
  for (int i = 0; i < n; i++) {
    y = 0;
    for (int j = 0; j < m; j++) {
      y = 0.5 * y + A[i][j];
      B[i][j] = y;
    }
  }
  for (int j = 0; j < m; j++) {
    y = 1;
    for (int i = 0; i < n; i++) {
      y = 0.25 * y + B[i][j];
      C[i][j] = y;
    }
  }
#pragma endscop
  return y;
}

/* Not privatisable: in odd iterations `t` keeps the previous iteration's
 * value, so the loop stays ordered. */
static double carried(int n, double a[N], double b[N]) {
  double t = 3;
#pragma scop
  for (int i = 0; i < n; i++) {
    if (i % 2 == 0)
      t = a[i];
    b[i] = t * 2;
  }
#pragma endscop
  return t;
}

/* The last write of `t` is conditional: which statement leaves its value
 * depends on the parity of the last iteration. */
static double last_write_under_condition(int n, int m, double A[N][M], double B[N][M]) {
  double t;
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      t = A[i][j];
      if (j % 3 == 1)
        t = 2 * A[i][j] + i;
      B[i][j] = t - j;
    }
#pragma endscop
  return t;
}

static double A[N][M], B[N][M], C[N][M], A3[N][M][P], C6[P][P], sum[P], a[N], b[N];

static void init(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) {
      A[i][j] = (i * 7 + j * 3) % 11 - 5;
      B[i][j] = 0;
      C[i][j] = 0;
      for (int p = 0; p < P; p++)
        A3[i][j][p] = (i + 2 * j + 3 * p) % 7;
    }
  for (int s = 0; s < P; s++)
    for (int p = 0; p < P; p++)
      C6[s][p] = (s * p) % 5 - 2;
  for (int i = 0; i < N; i++) {
    a[i] = i % 9;
    b[i] = 0;
  }
}

static double checksum(double X[N][M]) {
  double s = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      s += X[i][j] * ((i + j) % 13 + 1);
  return s;
}

int main(void) {
  init();
  double t = shared_scalar(N, M, A, B);
  printf("shared_scalar %.6f %.6f\n", t, checksum(B));
  t = shared_scalar(1, M, A, B);
  printf("shared_scalar one row %.6f %.6f\n", t, checksum(B));
  shared_array(N, M, A3, C6, sum);
  double s3 = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      for (int p = 0; p < P; p++)
        s3 += A3[i][j][p] * (p + 1);
  printf("shared_array %.6f %.6f %.6f %.6f\n", s3, sum[0], sum[3], sum[P - 1]);
  t = two_nests(N, M, A, B, C);
  printf("two_nests %.6f %.6f %.6f\n", t, checksum(B), checksum(C));
  t = carried(N, a, b);
  double sb = 0;
  for (int i = 0; i < N; i++)
    sb += b[i] * (i + 1);
  printf("carried %.6f %.6f\n", t, sb);
  t = last_write_under_condition(N, M, A, B);
  printf("last_write_under_condition %.6f %.6f\n", t, checksum(B));
  t = last_write_under_condition(N, 5, A, B);
  printf("last_write_under_condition 5 %.6f %.6f\n", t, checksum(B));
  return 0;
}
