/* Scalars written before they are read in each iteration of the loops
 * around them, where pencilc's scheduler interleaves their live ranges
 * (the accumulation loop outermost): isl's scheduler, with the order
 * between live ranges as conditional validity (PPCG's live-range
 * reordering), keeps each live range whole in one thread, so the loops
 * around it run in parallel. Also ludcmp's row recurrence, whose copies
 * are given up (its first loop orders the second), for correctness. */
#include <stdio.h>

#define N 41
#define M 23

/* Doolittle's update of the upper triangle, row by row (ludcmp's second
 * loop alone); `w`'s last value is live after the region. */
static double upper_rows(int n, double A[N][N]) {
  double w = -1;
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = i; j < n; j++) {
      w = A[i][j];
      for (int k = 0; k < i; k++)
        w -= A[i][k] * A[k][j];
      A[i][j] = w;
    }
#pragma endscop
  return w;
}

/* A product through a temporary, its sum started from the old value. */
static void product(int n, int m, double A[N][M], double B[M][N], double C[N][N]) {
  double s;
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      s = C[i][j] * 0.5;
      for (int k = 0; k < m; k++)
        s += A[i][k] * B[k][j];
      C[i][j] = s;
    }
#pragma endscop
}

/* ludcmp's rows: both loops, the first of which orders the second. */
static double rows(int n, double A[N][N]) {
  double w = 0;
#pragma scop
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < i; j++) {
      w = A[i][j];
      for (int k = 0; k < j; k++)
        w -= A[i][k] * A[k][j];
      A[i][j] = w / A[j][j];
    }
    for (int j = i; j < n; j++) {
      w = A[i][j];
      for (int k = 0; k < i; k++)
        w -= A[i][k] * A[k][j];
      A[i][j] = w;
    }
  }
#pragma endscop
  return w;
}

static double A[N][N], B[N][N], P[N][M], Q[M][N], C[N][N];

static double sum(double X[N][N]) {
  double s = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      s += X[i][j] * ((i + 2 * j) % 7 + 1);
  return s;
}

int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      A[i][j] = (double)((i * j + 3) % N) / N + (i == j ? N : 0);
      B[i][j] = A[i][j];
      C[i][j] = (double)((i + j) % 5) / 4;
    }
  for (int i = 0; i < N; i++)
    for (int k = 0; k < M; k++) {
      P[i][k] = (double)((i * k + 1) % 9) / 8;
      Q[k][i] = (double)((i + 3 * k) % 11) / 10;
    }
  double w = upper_rows(N, A);
  printf("upper_rows %.12e %.12e\n", w, sum(A));
  product(N - 3, M, P, Q, C);
  printf("product %.12e\n", sum(C));
  double v = rows(N, B);
  printf("rows %.12e %.12e\n", v, sum(B));
  w = upper_rows(0, A);
  printf("upper_rows(0) %.12e\n", w);
  return 0;
}
