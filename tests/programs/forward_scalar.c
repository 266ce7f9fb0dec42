/* Scalar forwarding (scop::forward): a scalar whose values each live from
 * `w = ...` to a store into one element, where nothing else touches that
 * element, keeps them in the element, and one scalar no longer orders
 * every iteration (ludcmp). The variants after the first two must keep
 * the scalar: each breaks one condition of the proof (the model's own
 * conditions have unit tests in src/scop/forward.rs). Every version must
 * print what the sequential program prints: to 9 digits, as the kept
 * scalars' sums are reductions, reassociated (rounding may differ). */
#include <stdio.h>

#define N 36

/* PolyBench's ludcmp, with `w`'s type and an affine guard on the
 * first updates as parameters: every value of `w` ends in `A[i][j]`,
 * `y[i]` or `x[i]`. */
#define LUDCMP(T, GUARD)                                                       \
  for (int i = 0; i < n; i++) {                                                \
    for (int j = 0; j < i; j++) {                                              \
      w = A[i][j];                                                             \
      for (int k = 0; k < j; k++)                                              \
        if (GUARD)                                                             \
          w -= A[i][k] * A[k][j];                                              \
      A[i][j] = w / A[j][j];                                                   \
    }                                                                          \
    for (int j = i; j < n; j++) {                                              \
      w = A[i][j];                                                             \
      for (int k = 0; k < i; k++)                                              \
        w -= A[i][k] * A[k][j];                                                \
      A[i][j] = w;                                                             \
    }                                                                          \
  }                                                                            \
  for (int i = 0; i < n; i++) {                                                \
    w = b[i];                                                                  \
    for (int j = 0; j < i; j++)                                                \
      w -= A[i][j] * y[j];                                                     \
    y[i] = w;                                                                  \
  }                                                                            \
  for (int i = n - 1; i >= 0; i--) {                                           \
    w = y[i];                                                                  \
    for (int j = i + 1; j < n; j++)                                            \
      w -= A[i][j] * x[j];                                                     \
    x[i] = w / A[i][i];                                                        \
  }

#define PARAMS int n, double A[N][N], double b[N], double x[N], double y[N]

/* `w` is dead after the region: forwarded. */
static void ludcmp(PARAMS) {
  double w;
#pragma scop
  LUDCMP(double, 1)
#pragma endscop
}

/* The same with updates on even `k` only: forwarded. */
static void ludcmp_even(PARAMS) {
  double w;
#pragma scop
  LUDCMP(double, k % 2 == 0)
#pragma endscop
}

/* `w`'s last value is returned: kept. */
static double returned(PARAMS) {
  double w = 0;
#pragma scop
  LUDCMP(double, 1)
#pragma endscop
  return w;
}

/* The region is in a loop whose next iteration reads `w` before the
 * region: kept. */
static void in_a_loop(PARAMS, double seen[2]) {
  double w = 0;
  for (int t = 0; t < 2; t++) {
    seen[t] = w;
#pragma scop
    LUDCMP(double, 1)
#pragma endscop
  }
}

/* A pointer to `w` reads it after the region: kept. */
static double through_a_pointer(PARAMS) {
  double w = 0;
  double *p = &w;
#pragma scop
  LUDCMP(double, 1)
#pragma endscop
  return *p;
}

/* An `int` scalar stored into `double` elements: kept (its values would
 * not be truncated at each update). */
static void narrow(PARAMS) {
  int w;
#pragma scop
  LUDCMP(int, 1)
#pragma endscop
}

static double A[N][N], b[N], x[N], y[N];

static void init(void) {
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < N; j++)
      A[i][j] = (double)((i * j + 3) % N) / N + (i == j ? N : 0);
    b[i] = (double)(i % 7) / 7 + 1;
    x[i] = y[i] = 0;
  }
}

static double sum(void) {
  double s = 0;
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < N; j++)
      s += A[i][j] * ((i + 2 * j) % 7 + 1);
    s += (x[i] + 2 * y[i]) * (i % 5 + 1);
  }
  return s;
}

int main(void) {
  double seen[2];
  init();
  ludcmp(N, A, b, x, y);
  printf("ludcmp %.8e\n", sum());
  init();
  ludcmp(0, A, b, x, y);
  printf("ludcmp(0) %.8e\n", sum());
  init();
  ludcmp_even(N - 1, A, b, x, y);
  printf("ludcmp_even %.8e\n", sum());
  init();
  double r = returned(N, A, b, x, y);
  printf("returned %.8e %.8e\n", r, sum());
  init();
  in_a_loop(N - 4, A, b, x, y, seen);
  printf("in_a_loop %.8e %.8e %.8e\n", seen[0], seen[1], sum());
  init();
  r = through_a_pointer(N, A, b, x, y);
  printf("through_a_pointer %.8e %.8e\n", r, sum());
  init();
  narrow(N, A, b, x, y);
  printf("narrow %.8e\n", sum());
  return 0;
}
