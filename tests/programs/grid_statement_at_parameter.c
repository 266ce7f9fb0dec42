/* A band whose statements start at tile 0 but for one statement placed
 * at `n` (isl's schedule puts the statement before the nest at the
 * nest's last `l`), with `n` any `int`: for n < 0 that tile index is
 * negative, so the tiles wrap around the grid. The launch's grid is
 * still the tiles' count wherever every index is non-negative; before,
 * every launch had the wrap-around size (32,768 blocks) and emulated
 * CUDA ran for minutes (differential seed 58, case 34, shrunk). */
#include <stdio.h>
static void kernel(int n, int m, double A[23][6], double B[47]) {
#pragma scop
  A[3][3] = 0.125 * A[3][2] - 0.2 * A[0][1];
  for (int i = 0; i <= 5; i++)
    for (int j = i - 1; j <= 3; j++)
      for (int k = 1; k <= m / 3; k++)
        for (int l = 1; l < n; l++)
          A[k - 1][j + 2] = 0.375 * B[j + 1] + 0.25 * B[2 * k] + 0.125 * B[k];
#pragma endscop
}
int main(void) {
  static double A[23][6], B[47];
  static const int runs[][2] = {{1, 33}, {31, 70}, {33, 1}, {70, 31}, {0, 9}};
  for (int r = 0; r < 5; r++) {
    for (int i = 0; i < 23; i++)
      for (int j = 0; j < 6; j++)
        A[i][j] = (double) ((3 + 7 * i + 13 * j) % 37) / 37.0 - 0.25;
    for (int i = 0; i < 47; i++)
      B[i] = (double) ((5 + 7 * i) % 37) / 37.0 - 0.25;
    kernel(runs[r][0], runs[r][1], A, B);
    double s = 0;
    for (int i = 0; i < 23; i++)
      for (int j = 0; j < 6; j++)
        s += A[i][j] * (i % 7 + j + 1);
    printf("n = %d, m = %d: %.17g\n", runs[r][0], runs[r][1], s);
  }
  return 0;
}
