/* A nest that never runs (`j` from `i + 1` to below `i + 1`) beside one
 * that does: its kernel has no instances, and memory planning must give
 * it nothing rather than stop with an internal error (differential test,
 * random cases 36 and 94). */
#include <stdio.h>
static double A[8][10][10], B[12][12], C[46][12];
static void run(int n, int m) {
#pragma scop
  for (int i = 0; i <= 5; i++)
    for (int j = 0; j <= 7; j++)
      for (int k = 0; k <= (m - 1 < 22 ? m - 1 : 22); k++)
        A[i][i + 1][8 - i] = 0.5 * A[i][i + 1][8 - i] + 0.5 * B[j + 1][i] * C[2 * k][j];
  for (int i = 2; i <= 5; i++)
    for (int j = i + 1; j < i + 1; j++)
      if (j <= m - 2)
        for (int k = 1; k <= (n - 1 < i + 3 ? n - 1 : i + 3); k++)
          C[2 * i][j + 1] = 0.25 * C[10 - i][j - 1];
#pragma endscop
}
int main(void) {
  for (int i = 0; i < 12; i++)
    for (int j = 0; j < 12; j++) B[i][j] = (i * 3 + j) % 7 * 0.125;
  for (int i = 0; i < 46; i++)
    for (int j = 0; j < 12; j++) C[i][j] = (i + 5 * j) % 9 * 0.25;
  run(20, 33);
  for (int i = 0; i < 8; i++) printf("%.12g %.12g\n", A[i][i + 1 < 10 ? i + 1 : 9][8 - i > 0 ? 8 - i : 0], C[2 * i][i]);
  return 0;
}
