/* A loop bounded by `(unsigned) n` of an `int` n: for n < 0 the bound is
 * n + 2^32 (C's conversion), for n = 0 nothing runs. The launch's grid
 * is a piecewise count of tiles that isl defines only where some launch
 * has tiles; at n = 0 the generated count took the n < 0 piece (2^27
 * blocks, each finding nothing to run). */
#include <stdio.h>
#define N 100
static void scale(int n, double A[N]) {
#pragma scop
  for (unsigned i = 0; i < (unsigned) n; i++)
    A[i] = A[i] * 2 + i;
#pragma endscop
}
int main(void) {
  static double A[N];
  for (int i = 0; i < N; i++)
    A[i] = i;
  scale(N, A);
  scale(0, A);
  scale(37, A);
  double s = 0;
  for (int i = 0; i < N; i++)
    s += A[i] * (i % 7 + 1);
  printf("%.1f\n", s);
  return 0;
}
