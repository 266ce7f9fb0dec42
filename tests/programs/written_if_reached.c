/* What a region may leave unwritten keeps the value it had: a scalar
 * assigned in a loop that runs no iteration at some sizes, and an element
 * that a register tile holds while a loop that may run no iteration
 * writes it (differential test, seed 1001: cases 488, 740, 816 and 330
 * copied the scalar back from a device buffer never written; case 750
 * wrote the tile back under a condition the AST builder took as already
 * checked, which it checks only inside the tile's loop). */
#include <stdio.h>
static double A[23][24], B[24][70];
static double run(int n, int m) {
  double s = 3.0 / 37.0 - 0.25;
#pragma scop
  for (int i = 1; i <= n - 1; i++)
    s = -0.125 * B[2 * i][i];
  for (int i = 1; i <= 2; i++) {
    for (int j = 0; j <= 8; j++)
      B[0][9 - i] = 0.375 * B[i][0];
    for (int j = 0; j < 12; j++)
      B[1][2 * j] += 0.3 * B[3][j] * B[j + 2][69 - j];
  }
  for (int i = 2; i <= 8; i++)
    for (int j = 1; j <= n / 3; j++) {
      A[13 - i][0] = 0.3 * B[i + 2][i + j + 2] - 0.375 * B[j][j] * B[i][2 * j + 1] + 0.3 * B[j][i];
      if (i <= m - 2)
        A[i][j] = 0.125 * A[i][j] + 0.2 * A[j - 1][j];
    }
#pragma endscop
  return s;
}
int main(void) {
  const int sizes[4][2] = {{1, 33}, {11, 70}, {2, 1}, {12, 31}};
  for (int t = 0; t < 4; t++) {
    for (int i = 0; i < 23; i++)
      for (int j = 0; j < 24; j++) A[i][j] = (double) ((3 + 7 * i + 13 * j) % 37) / 37.0 - 0.25;
    for (int i = 0; i < 24; i++)
      for (int j = 0; j < 70; j++) B[i][j] = (double) ((5 + 7 * i + 13 * j) % 37) / 37.0 - 0.25;
    double s = run(sizes[t][0], sizes[t][1]);
    printf("n = %d, m = %d: s = %.17g\n", sizes[t][0], sizes[t][1], s);
    for (int i = 0; i < 23; i++)
      for (int j = 0; j < 24; j++) printf("%.17g\n", A[i][j]);
    for (int i = 0; i < 24; i++)
      for (int j = 0; j < 70; j++) printf("%.17g\n", B[i][j]);
  }
  return 0;
}
