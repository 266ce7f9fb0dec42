/* A loop whose start is a double converted to its int iterator, the
 * iterator read after the loop (fuzz case 35004201, trmm shrunk): the
 * final value `lb < m ? m : lb` must compare and index with the
 * converted start, `(int)(alpha + 1)`, not the double (which no
 * subscript may be). */
#include <stdio.h>

#define N 64

double B[N][N];

static void shift(int m, double alpha)
{
  int i, k;
#pragma scop
  for (i = 0; i < m; i++) {
    for (k = alpha + 1; k < m; k++)
      B[i][k] += 1.0;
    B[i][0] = B[i][k - 1] + k;
  }
#pragma endscop
}

int main(void)
{
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      B[i][j] = (i * 7 + j) % 5;
  shift(30, 2.5);
  shift(30, 29.9);
  shift(40, -0.7);
  double s = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      s += B[i][j] * (j + 1);
  printf("%.1f\n", s);
  return 0;
}
