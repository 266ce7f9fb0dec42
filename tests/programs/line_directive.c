/* A `#line` directive before the region renames the file and renumbers
 * its lines; the region must still be found and replaced at its own
 * lines. */
#include <stdio.h>
#define N 40
#line 500 "renamed.c"
static void kernel(int n, float A[N][N], float B[N][N]) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      B[i][j] = A[i][j] * 2.0f + i - j;
#pragma endscop
}
#line 20
int main(void) {
  static float A[N][N], B[N][N];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      A[i][j] = (i * 7 + j) % 13;
  kernel(N - 3, A, B);
  double s = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      s += B[i][j] * (i + 1);
  printf("%.6g\n", s);
  return 0;
}
