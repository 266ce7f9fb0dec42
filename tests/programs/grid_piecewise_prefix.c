/* A parallel member that is negative (`-i` below) with a piecewise
 * minimum: see tests/programs.rs,
 * negative_parallel_members_with_piecewise_minimum_launch_few_blocks. */
#include <stdio.h>
double A[11][9][2], B[13][11], C[14][11], D[11][2][6];
int main(void)
{
  for (int x = 0; x < 13; x++) for (int y = 0; y < 11; y++) B[x][y] = (x * y) % 5 * 0.25;
  for (int x = 0; x < 14; x++) for (int y = 0; y < 11; y++) C[x][y] = (x + y) % 7 * 0.125;
#pragma scop
  for (int i = 0; i <= 5; i++) {
    if (i <= 3)
      for (int j = 1; j < 9; j++) {
        D[11 - j][1][i] = 0.5 * C[i + j - 1][i] * C[i + j][i + 2];
        for (int k = 0; k <= 5; k++)
          for (int l = 2; l <= k; l++)
            A[2 * i][j][1] += 0.3 * B[j + k - 1][2 * k];
      }
    for (int j = i; j <= 10; j++)
      for (int k = 1; k < 8; k++)
        B[i][k] += 0.25 * C[i][j] * C[j][k];
  }
#pragma endscop
  double s = 0;
  for (int x = 0; x < 11; x++) for (int y = 0; y < 9; y++) s += A[x][y][1] * (x + 2 * y);
  for (int x = 0; x < 13; x++) for (int y = 0; y < 11; y++) s += B[x][y] * (x + 3 * y);
  for (int x = 0; x < 11; x++) for (int y = 0; y < 6; y++) s += D[x][1][y] * (x + 5 * y);
  printf("%.17g\n", s);
  return 0;
}
