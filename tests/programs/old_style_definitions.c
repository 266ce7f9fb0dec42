#include <stdio.h>
/* Old-style (K&R) function definitions, still C99: the parameters are
 * declared between the declarator and the body. The region reads them as
 * it reads parameters of a prototype ("`n` is not declared" before). */
static void scale(a, b, n, m)
double a[100][100];
const double *b;
int n, m;
{
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      a[i][j] = 2.0 * a[i][j] + b[j];
#pragma endscop
}
int main(void)
{
  static double a[100][100], b[100];
  for (int i = 0; i < 100; i++) {
    b[i] = i % 3;
    for (int j = 0; j < 100; j++)
      a[i][j] = (i * j) % 7;
  }
  scale(a, b, 90, 80);
  double s = 0;
  for (int i = 0; i < 100; i++)
    for (int j = 0; j < 100; j++)
      s += a[i][j] * (i + 2 * j + 1);
  printf("%.10g\n", s);
  return 0;
}
