/* Array parameters may overlap in C: `kern(n, X + 1, X)` makes each
 * iteration read what the previous one wrote, so the region must run as
 * written; a call with distinct arrays may still run in parallel. */
#include <stdio.h>
#define N 100
static void kern(int n, double A[N], double B[N]) {
#pragma scop
  for (int i = 0; i < n; i++)
    A[i] = B[i] + 1;
#pragma endscop
}
int main(void) {
  static double X[N + 1], Y[N], Z[N];
  for (int i = 0; i <= N; i++) X[i] = i % 3;
  kern(N, X + 1, X);
  for (int i = 0; i < N; i++) Z[i] = i * 2;
  kern(N, Y, Z);
  double s = 0; for (int i = 0; i <= N; i++) s += X[i] * (i + 1);
  double t = 0; for (int i = 0; i < N; i++) t += Y[i] * (i + 1);
  printf("%.10g %.10g\n", s, t);
  return 0;
}
