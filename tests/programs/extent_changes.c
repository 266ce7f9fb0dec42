/* A variable that a parameter's declared size reads, changed in the
 * region (a fuzz mutant of the PENCIL paper's early exit: `m++` in the
 * loop): C keeps the size the array was declared with, while the
 * generated subscripts read `m` itself (the kernels did not build; a
 * host version would have indexed with the new `m`). The region keeps
 * the user's code; every version prints what the sequential program
 * prints. */
#include <stdio.h>

#define N 12
#define M 9

static int grow(int n, int m, int A[n][m][m], int B[n][m][m]) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < 3; j++)
      for (int k = 0; k < 4; k++) {
        B[i][j][k] = A[i][j][k] + m;
        m = m + (k == 3);
      }
#pragma endscop
  return m;
}

int main(void) {
  static int A[N][M][M], B[N][M][M];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      for (int k = 0; k < M; k++) {
        A[i][j][k] = (i + 23 * k + j) % 23;
        B[i][j][k] = 7;
      }
  int m = grow(N, M, A, B);
  long check = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      for (int k = 0; k < M; k++)
        check += (long)B[i][j][k] * (k + 1 + j);
  printf("%d %ld\n", m, check);
  return 0;
}
