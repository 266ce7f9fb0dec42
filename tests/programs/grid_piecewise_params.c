/* A parallel member that is negative (`-i` below) with a piecewise
 * minimum: see tests/programs.rs,
 * negative_parallel_members_with_piecewise_minimum_launch_few_blocks. */
#include <stdio.h>
#define MIN(a, b) ((a) < (b) ? (a) : (b))
double A[5][5], B[12][36], C[11][73][36];
static void kernel(int n)
{
#pragma scop
  for (int i = 0; i <= 4; i++) {
    A[i][i] += 0.25 * C[2 * i][11 - i][0] * B[8 - i][2];
    for (int j = 1; j <= MIN(n - 1, 35); j++)
      for (int k = i; k <= 9; k++)
        C[k][2 * j + 2][j] = 0.5 * C[k][2 * j + 2][j] + 0.375 * C[k + 1][10 - k][35 - j] - 0.125 * B[k + 2][j - 1] + 1.0;
  }
#pragma endscop
}
int main(void)
{
  for (int x = 0; x < 11; x++) for (int y = 0; y < 73; y++) for (int z = 0; z < 36; z++) C[x][y][z] = (x + y + z) % 7 * 0.125;
  for (int x = 0; x < 12; x++) for (int y = 0; y < 36; y++) B[x][y] = (x * y) % 5 * 0.25;
  kernel(70);
  double s = 0;
  for (int x = 0; x < 11; x++) for (int y = 0; y < 73; y++) for (int z = 0; z < 36; z++) s += C[x][y][z] * (x + 2 * y + 3 * z);
  printf("%.17g\n", s);
  return 0;
}
