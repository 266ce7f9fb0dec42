#include <stdio.h>
#include <limits.h>
/* Loops whose bounds are within a tile of INT_MAX: the sequential code
 * is fine; generated loops that step by tiles past the bound overflowed
 * (and ran for ever). Such sizes run the original code, the others the
 * generated versions. */
static void f(int n, int m, double B[40][50]) {
#pragma scop
  for (int i = n - 40; i < n; i++)
    for (int j = m - 50; j < m; j++)
      B[i - n + 40][j - m + 50] = 0.5 * (i - n) + 0.25 * (j - m);
#pragma endscop
}
int main(void) {
  static double B[40][50];
  double s = 0;
  int ns[4] = {INT_MAX, INT_MAX - 7, 1000, 2000};
  for (int k = 0; k < 4; k++) {
    f(ns[k], ns[(k + 1) % 4], B);
    for (int i = 0; i < 40; i++) for (int j = 0; j < 50; j++) s += B[i][j] * (i + 2 * j + k);
  }
  printf("%.3f\n", s);
  return 0;
}
