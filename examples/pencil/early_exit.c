/* The PENCIL paper's Fig. 6: the `break` makes the k loop one statement
 * (its write to B is a may-write); the i and j loops stay parallel. */
#include <pencil.h>
#include <stdio.h>

static void early_exit(int n, int m, const int A[pencil_array n][m][m],
                       int B[pencil_array n][m][m])
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      for (int k = 0; k < m; k++) {
        B[i][j][k] = 0;
        if (A[i][j][k] == 0)
          break;
      }
}

int main(void)
{
  enum { N = 40, M = 50 };
  static int A[N][M][M], B[N][M][M];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      for (int k = 0; k < M; k++) {
        A[i][j][k] = (i + 2 * j + 3 * k) % 23;
        B[i][j][k] = 7;
      }
  early_exit(N, M, A, B);
  long check = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      for (int k = 0; k < M; k++)
        check += (long)B[i][j][k] * (k + 1);
  printf("check=%ld\n", check);
  return 0;
}
