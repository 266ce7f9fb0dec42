/* Variables named like pencilc's generated names (c1, b0, t0, h0) must not
 * be shadowed by generated loops or ids. */
#include <stdio.h>
#define N 37
static void kernel(int n, double c1, double b0, double A[N][N], double B[N][N], double out[1]) {
  int i, j, t;
  double t0, h0;
#pragma scop
  t0 = c1 * 2.0;
  h0 = b0 + 1.0;
  for (t = 0; t < 3; t++)
    for (i = 0; i < n; i++)
      for (j = 0; j < n; j++)
        A[i][j] = A[i][j] * 0.5 + t0 * B[j][i] + h0;
  out[0] = t0 + h0;
#pragma endscop
}
int main(void) {
  static double A[N][N], B[N][N], out[1];
  for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) { A[i][j] = (i * 3 + j) % 11; B[i][j] = (i + 2 * j) % 7; }
  kernel(N - 2, 1.25, 3.5, A, B, out);
  double s = 0; for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) s += A[i][j] * (i + 1) - j;
  printf("%.10g %.10g\n", s, out[0]);
  return 0;
}
