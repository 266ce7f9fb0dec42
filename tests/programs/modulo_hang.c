/* A subscript isl's dependence analysis cannot finish on in any time a
 * user would wait (its basis reduction on the 10^9 coefficient counts no
 * operation, so the operation budget does not stop it): pencilc must stop
 * it itself and keep this region's own code, and parallelize the other. */
#include <stdio.h>
static void kernel(int n, double A[3000], double B[64]) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      A[(1000000007 * i + 3 * j) % 2999] = A[(1000000007 * i + 3 * j) % 2999] + 1.0;
#pragma endscop
#pragma scop
  for (int i = 0; i < 64; i++)
    B[i] = B[i] * 2 + i;
#pragma endscop
}
int main(void) {
  static double A[3000], B[64];
  for (int i = 0; i < 3000; i++) A[i] = i % 7;
  for (int i = 0; i < 64; i++) B[i] = i % 5;
  kernel(40, A, B);
  double s = 0;
  for (int i = 0; i < 3000; i++) s += A[i] * (i % 11 + 1);
  for (int i = 0; i < 64; i++) s += B[i] * (i + 1);
  printf("%.1f\n", s);
  return 0;
}
