/* Steps that open with scalar work (sched::pluto::rotate): under a
 * sequential loop whose body starts with statements that have no loop
 * left and ends with a parallel loop, the scalar work of each step runs
 * one step early, inside the previous step's parallel kernel, by the
 * thread whose results it reads. Every version must print what the
 * sequential program prints (to 9 digits: durbin's sums are
 * reductions, reassociated). */
#include <stdio.h>

#define N 40

/* trisolv: x[i] /= L[i][i] by the thread that updated x[i] last. */
static void lower(int n, double L[restrict const static N][N], double x[restrict const static N], double b[restrict const static N]) {
#pragma scop
  for (int i = 0; i < n; i++) {
    x[i] = b[i];
    for (int j = 0; j < i; j++)
      x[i] -= L[i][j] * x[j];
    x[i] = x[i] / L[i][i];
  }
#pragma endscop
}

/* Back substitution, the steps counting down. */
static void upper(int n, double U[restrict const static N][N], double x[restrict const static N]) {
#pragma scop
  for (int i = n - 1; i >= 0; i--) {
    x[i] = x[i] / U[i][i];
    for (int r = 0; r < i; r++)
      x[r] -= U[r][i] * x[i];
  }
#pragma endscop
}

/* cholesky: the square root joins the 2-d update of the step before. */
static void chol(int n, double A[restrict const static N][N]) {
#pragma scop
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < i; j++) {
      for (int k = 0; k < j; k++)
        A[i][j] -= A[i][k] * A[j][k];
      A[i][j] /= A[j][j];
    }
    for (int k = 0; k < i; k++)
      A[i][i] -= A[i][k] * A[i][k];
    A[i][i] = A[i][i] > 0 ? A[i][i] * 0.5 + 1.0 / (A[i][i] + 1.0) : 1.0;
  }
#pragma endscop
}

/* A step that reads one thread's result of the step before. */
static void one_thread(int n, double B[restrict const static N][N], double C[restrict const static N][N], double y[restrict const static N], double s[restrict const static N]) {
#pragma scop
  for (int i = 1; i < n; i++) {
    s[i] = y[0] * 0.5 + 0.25 * s[i - 1];
    for (int j = 0; j < n; j++)
      y[j] = B[i][j] + s[i];
    for (int j = 0; j < n; j++)
      C[i][j] = y[j] * 0.5 + 0.5 * C[i - 1][j];
  }
#pragma endscop
}

/* A step that reads two threads' results: it keeps its own kernel. */
static void two_threads(int n, double B[restrict const static N][N], double s[restrict const static N]) {
#pragma scop
  for (int i = 1; i < n; i++) {
    s[i] = 0.5 * (B[i - 1][0] + B[i - 1][n - 1]);
    for (int j = 0; j < n; j++)
      B[i][j] = s[i] * 0.01 * (j + 1) - 0.5 * B[i - 1][j];
  }
#pragma endscop
}

/* A step's scalar that the previous step's threads all read (a
 * write-after-read from every thread): it keeps its own kernel. */
static void war(int n, double B[restrict const static N][N], double t[restrict const static N]) {
  double s = 1.0;
#pragma scop
  for (int i = 1; i < n; i++) {
    s = s * 0.25 + 0.1 * B[i - 1][0];
    for (int j = 0; j < n; j++)
      B[i][j] = B[i - 1][j] * 0.25 + s;
  }
  t[0] = s;
#pragma endscop
}

/* Scalar work put on a thread that the step's own loop (`j > k`) never
 * reaches (the scheduler fuses `t[k]` into the band at `j = 0`): the
 * launches must still run it. */
static void first_thread_gone(int n, double B[restrict const static N][N], double t[restrict const static N]) {
#pragma scop
  for (int k = 2; k < n; k++) {
    t[k] = t[k - 1] * 0.5 + B[k - 2][k];
    for (int j = k + 1; j < n; j++)
      B[k][j] = B[k - 1][j] * 0.5 + t[k];
  }
#pragma endscop
}

/* Steps of two: the scalar work of a step lands where no other runs. */
static void stride(int n, double L[restrict const static N][N], double x[restrict const static N]) {
#pragma scop
  for (int i = 0; i < n; i += 2) {
    x[i] = x[i] / L[i][i];
    for (int r = i + 1; r < n; r++)
      x[r] -= L[r][i] * x[i];
  }
#pragma endscop
}

/* durbin's scalars: several statements per step, one of them reading
 * what the others of its step wrote. */
static void scalars(int n, double r[restrict const static N], double y[restrict const static N], double z[restrict const static N]) {
  double alpha, beta, sum;
#pragma scop
  y[0] = -r[0];
  beta = 1.0;
  alpha = -r[0];
  for (int k = 1; k < n; k++) {
    beta = (1 - alpha * alpha) * beta;
    sum = 0.0;
    for (int i = 0; i < k; i++)
      sum += r[k - i - 1] * y[i];
    alpha = -(r[k] + sum) / beta;
    for (int i = 0; i < k; i++)
      z[i] = y[i] + alpha * y[k - i - 1];
    for (int i = 0; i < k; i++)
      y[i] = z[i];
    y[k] = alpha;
  }
#pragma endscop
}

static double L[N][N], U[N][N], A[N][N], B[N][N], C[N][N];
static double x[N], b[N], y[N], s[N], r[N], z[N];

static double sum2(double M[N][N]) {
  double t = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      t += M[i][j] * (1 + (i * 7 + j) % 5);
  return t;
}

static double sum1(double *v) {
  double t = 0;
  for (int i = 0; i < N; i++)
    t += v[i] * (1 + i % 3);
  return t;
}

int main(void) {
  for (int i = 0; i < N; i++) {
    b[i] = 1.0 + i % 7;
    r[i] = 0.5 / (i + 2);
    for (int j = 0; j < N; j++) {
      L[i][j] = i == j ? 2.0 + i % 3 : (j < i ? 0.01 * ((i + j) % 5) : 0);
      U[i][j] = i == j ? 3.0 + i % 2 : (j > i ? 0.02 * ((i * j) % 3) : 0);
      A[i][j] = i == j ? N + 1.0 : 1.0 / (1 + i + j);
      B[i][j] = 0.1 * ((i + 2 * j) % 9);
      C[i][j] = 0;
    }
  }
  lower(N, L, x, b);
  printf("lower %.8e\n", sum1(x));
  upper(N, U, x);
  printf("upper %.8e\n", sum1(x));
  chol(N, A);
  printf("chol %.8e\n", sum2(A));
  for (int j = 0; j < N; j++)
    y[j] = j * 0.25;
  s[0] = 1.0;
  one_thread(N, B, C, y, s);
  printf("one_thread %.8e %.8e %.8e\n", sum2(C), sum1(y), sum1(s));
  two_threads(N, B, s);
  printf("two_threads %.8e %.8e\n", sum2(B), sum1(s));
  first_thread_gone(N, C, r);
  printf("first_thread_gone %.8e %.8e\n", sum2(C), sum1(r));
  war(N, B, z);
  printf("war %.8e %.8e\n", sum2(B), z[0]);
  for (int i = 0; i < N; i++)
    x[i] = 1.0 + i % 4;
  stride(N, L, x);
  printf("stride %.8e\n", sum1(x));
  scalars(N, r, y, z);
  printf("scalars %.8e\n", sum1(y));
  return 0;
}
