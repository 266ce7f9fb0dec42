/* Subscripts of a variable-length array compute in the index type (`long`
 * here, from `m`), also where its extent is an `int`: `i * n` in `int`
 * overflows for arrays of more than 2^31 elements. */
#include <stdio.h>

void fill(long m, int n, double C[m][n]) {
#pragma scop
  for (long i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      C[i][j] = i * 100.0 - j;
#pragma endscop
}

int main(void) {
  static double C[30][40];
  fill(30, 40, C);
  double s = 0;
  for (int i = 0; i < 30; i++)
    for (int j = 0; j < 40; j++)
      s += C[i][j] * (i + 1);
  printf("%.1f %.1f\n", C[3][4], s);
  return 0;
}
