/* One variable, the iterator of several loops: after the region it holds
 * what the loop that ran last left there, which is not always the
 * textually last loop (one under a condition, or deeper in a nest that
 * stops earlier). */
#include <stdio.h>
static double A[16][16], B[32];
static void run(int n, int c) {
  int i = -7, k = -7, j = -7;
#pragma scop
  for (i = 1; i <= n; i++) {
    for (k = 0; k <= 3; k++)
      A[i][k] = 0.5 * A[i][k] + 1.0;
    if (i <= c)
      for (k = 2; k < 9; k++)
        B[k] = 0.5 * B[k] + 1.0;
  }
  for (i = n; i >= 0; i -= 2) {
    if (i % 4 == 0)
      for (j = i; j < n; j++)
        A[i][j] += 1.0;
    for (k = 0; k < i; k++)
      B[k] += 0.25;
  }
  for (j = 0; j < c; j++)
    B[j + 8] += 2.0;
#pragma endscop
  printf("n=%d c=%d: i=%d k=%d j=%d\n", n, c, i, k, j);
}
int main(void) {
  for (int n = 0; n < 12; n += 3)
    for (int c = -1; c <= n + 1; c += 2)
      run(n, c);
  double s = 0;
  for (int i = 0; i < 16; i++) for (int j = 0; j < 16; j++) s += A[i][j] * (i + 2 * j);
  for (int i = 0; i < 32; i++) s += B[i] * i;
  printf("%.4f\n", s);
  return 0;
}
