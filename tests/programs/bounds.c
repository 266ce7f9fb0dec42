/* Affine bounds with min, max, ?:, C division and remainder of possibly
 * negative values, downward and strided loops, if/else, VLA parameters. */
#include <stdio.h>
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
static void kernel(int n, int m, double A[n][m], double x[n], double y[m]) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = max(0, i - 3); j < min(m, i + 5); j++)
      A[i][j] = A[i][j] + i - j;
  for (i = n - 1; i >= 0; i -= 2)
    x[i] = x[i] * 2 + (i - 7) / 3 + (i - 7) % 3;
  for (j = 0; j < m; j++)
    if (j % 4 == 1 || j > (m - 9) / 2)
      y[j] = y[j] + 1;
    else
      y[j] = -y[j];
  for (i = (-n + 1) / 4; i < n / 3; i++)
    x[i + n / 2] += i;
#pragma endscop
}
int main(void) {
  int n = 29, m = 23;
  static double A[29][23], x[29], y[23];
  for (int i = 0; i < n; i++) { x[i] = i % 5; for (int j = 0; j < m; j++) A[i][j] = (i * j) % 13; }
  for (int j = 0; j < m; j++) y[j] = j % 3;
  kernel(n, m, A, x, y);
  double s = 0;
  for (int i = 0; i < n; i++) { s += x[i] * (i + 1); for (int j = 0; j < m; j++) s += A[i][j] * (i - j); }
  for (int j = 0; j < m; j++) s += y[j] * j;
  printf("%.10g\n", s);
  return 0;
}
