/* Loop iterators read after their loops inside the region (issue 33), as
 * PPCG's and pet's test programs do: C leaves each at its final value. Run
 * at sizes where the loops run, run once, and do not run at all. */
#include <stdio.h>
#include <pencil.h>

#define M 40

static void region(int n, int m, double A[static const restrict M],
                   double D[static const restrict M][M], long E[static const restrict 8])
{
  int i, j, k, t;
  unsigned u;
#pragma scop
  /* Without it, `(unsigned) n` wraps for a negative `n` in the model,
   * and the unsigned loop's grid is sized for that. */
  __pencil_assume(n >= 0);
  for (i = 0; i < n; i++)
    A[i] = A[i] * 2 + 1;
  A[0] += i;
  for (j = 1; j <= n; j += 3)
    A[j] += 0.5;
  E[0] = j;
  for (k = n - 1; k >= 2; k -= 2)
    A[k] -= 1;
  E[1] = k;
  /* An inner loop's value in the outer loop's body: j == t after it. */
  for (t = 0; t < m; t++) {
    for (j = 0; j < t; j++)
      D[t][j] = t + j;
    D[t][j] = -1;
  }
  /* The last loop's value as the next loop's lower bound. */
  for (j = i; j < m; j++)
    A[j] += 3;
  E[2] = j;
  for (u = 2; u < (unsigned) n; u++)
    A[u] *= 0.5;
  E[3] = u;
  for (i = n; i > 3; i--)
    A[i - 1] += 2;
  E[4] = i;
#pragma endscop
  E[5] = i + j + k + t;
}

int main(void)
{
  static double A[M], D[M][M];
  static long E[8];
  double s = 0;
  for (int n = 0; n <= 12; n += 3) {
    for (int x = 0; x < M; x++) {
      A[x] = x % 7;
      for (int y = 0; y < M; y++)
        D[x][y] = 0;
    }
    for (int x = 0; x < 8; x++)
      E[x] = 0;
    region(n, n + 5 < M ? n + 5 : M, A, D, E);
    for (int x = 0; x < M; x++) {
      s += A[x] * (x + 1);
      for (int y = 0; y < M; y++)
        s += D[x][y] * ((x + y) % 3);
    }
    for (int x = 0; x < 6; x++)
      printf("%ld ", E[x]);
    printf("\n");
  }
  printf("%.3f\n", s);
  return 0;
}
