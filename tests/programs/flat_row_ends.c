#include <stdio.h>
#include <stdlib.h>
#include <pencil.h>
/* Flat subscripts that count back from the end of a row (`i * m + m - 2 - j`,
 * `(i + 1) * m - 1 - j`, `i * m - 1 - j`): each is one element of a row of
 * `p[*][m]`, which pencilc must find to give `p` a device buffer. */
static void f(int n, int m, double *p, double *q) {
#pragma scop
  __pencil_assume(m >= 8 && n >= 4);
  for (int i = 1; i < n; i++)
    for (int j = 0; j < m - 2; j++)
      q[i * m + j] = p[i * m + m - 2 - j] + 0.5 * p[(i + 1) * m - 1 - j] - p[i * m - 1 - j];
  for (int i = 0; i < n; i++)
    q[i * m + m - 1] = p[i * m + m - 1] * 2.0 + p[i * m];
#pragma endscop
}
int main(void) {
  int n = 37, m = 53;
  double *p = malloc(sizeof(double) * n * m), *q = calloc(n * m, sizeof(double));
  for (int k = 0; k < n * m; k++) p[k] = (k * 7919 % 1000) / 100.0;
  f(n, m, p, q);
  double s = 0;
  for (int k = 0; k < n * m; k++) s += q[k] * (k % 17 + 1);
  printf("%.6f\n", s);
  return 0;
}
