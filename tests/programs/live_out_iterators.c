/* After the region, the variables the loops used as iterators hold what C
 * leaves there: one step past the last iteration, the lower bound after a
 * loop that ran zero times, the value of the last run of an inner loop's
 * header (decreasing outer loops, triangular and zero-trip inner loops),
 * the last of several loops sharing an iterator, and the old value where
 * a loop's header never runs. */
#include <stdio.h>
#define N 32
static int A[N][N];
static long B[N];
static void kernel(int n, int m, int res[8]) {
  int i = -5, j = -6, k = -7, l = -8, p = -9;
  long q = -10;
  unsigned u = 3;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < i; j += 3)
      A[i][j] = A[i][j] + i + j;
  for (k = n - 1; k >= m; k--)
    for (l = k; l < n - 2; l += 2)
      A[k][l] = A[k][l] * 2 + 1;
  if (m > 3)
    for (p = 1; p <= m; p += 5)
      A[0][p] = A[0][p] + p;
  for (q = 30; q > 2 * m; q -= 4)
    B[q] = B[q] + q;
  for (q = 0; q < m; q += 2)
    B[q] = B[q] + 1;
  for (u = 4; u < n; u++)
    B[u] = B[u] * 3;
#pragma endscop
  res[0] = i, res[1] = j, res[2] = k, res[3] = l, res[4] = p, res[5] = (int)q;
  res[6] = (int)u;
}
int main(void) {
  int ns[] = {0, 1, 7, 20};
  int ms[] = {0, 4, 9, 30};
  for (int a = 0; a < 4; a++)
    for (int b = 0; b < 4; b++) {
      int res[8] = {0};
      kernel(ns[a], ms[b], res);
      printf("n=%d m=%d:", ns[a], ms[b]);
      for (int r = 0; r < 7; r++) printf(" %d", res[r]);
      printf("\n");
    }
  long s = 0;
  for (int i = 0; i < N; i++) {
    s += B[i] * (i + 1);
    for (int j = 0; j < N; j++) s += (long)A[i][j] * (i + 2 * j + 1);
  }
  printf("%ld\n", s);
  return 0;
}
