/* Loop conditions as C evaluates them: tested at the lower bound and
 * after every step, the loop stops at the first value where the
 * condition fails (conditions that are false at first and true later,
 * `||`, `!=`, decreasing loops, strides, conditions of the enclosing
 * iterators and of parameters). */
#include <pencil.h>
#include <stdio.h>
#define N 40
static int A[12][N];
static void kernel(int m, int n, int p) {
  int i, j;
  __pencil_assume(n >= 0);
#pragma scop
  for (i = 0; i >= 10 && i < 20; i++)
    A[0][i] = A[0][i] + i + 1;
  for (i = 0; i < 5 || i > 10; i++)
    A[1][i] = A[1][i] + i + 1;
  for (i = 0; i != n; i++)
    A[2][i] = A[2][i] + i + 1;
  for (i = 3; i != 15; i += 3)
    A[3][i] = A[3][i] + i + 1;
  for (i = 20; i > 3 && i != 12; i -= 2)
    A[4][i] = A[4][i] + i + 1;
  for (i = p; i >= 0 && i % 5 != 2; i--)
    A[5][i] = A[5][i] + i + 1;
  for (i = 0; i < 10; i++)
    for (j = i; j < 8 && j >= 3; j++)
      A[6][i + j] = A[6][i + j] + 10 * i + j + 1;
  for (i = 1; i < 30 && i != 13; i += 4)
    A[7][i] = A[7][i] + i + 1;
  for (i = 0; !(i >= 6); i++)
    A[8][i] = A[8][i] + i + 1;
  for (i = m; i > 5 && i < 12; i++)
    A[9][i] = A[9][i] + i + 1;
  for (i = 30; i >= m && i != 2 * m; i -= 3)
    A[10][i] = A[10][i] + i + 1;
  for (i = 0; i < 4; i++)
    for (j = 2 * i; j < 20 && j != 6; j += 2)
      A[11][j] = A[11][j] + 10 * i + j + 1;
#pragma endscop
}
int main(void) {
  for (int m = 0; m < 12; m += 7) {
    for (int k = 0; k < 12; k++)
      for (int i = 0; i < N; i++) A[k][i] = 0;
    kernel(m, 7, 13 + m);
    for (int k = 0; k < 12; k++) {
      printf("%d:", k);
      for (int i = 0; i < N; i++) printf(" %d", A[k][i]);
      printf("\n");
    }
  }
  return 0;
}
