/* A variable declared in a region's loop body that a loop inside the
 * body runs, read after that loop: the value the loop left (a search
 * ended by `break`, a loop that ran to its end, one that never ran),
 * per row. pencilc said "`i` is not declared" for the first. */
#include <stdio.h>

#define N 37

static void first_negative(int n, int m, int pos[N], double x[N][N])
{
#pragma scop
  for (int r = 0; r < n; r++) {
    int i;
    for (i = 0; i < m; i++)
      if (x[r][i] < 0)
        break;
    pos[r] = i * 10 + r;
  }
#pragma endscop
}

static void counted(int n, int m, int pos[N], double x[N][N])
{
#pragma scop
  for (int r = 0; r < n; r++) {
    int i, c = 0;
    for (i = r % 3; i < m; i++)
      c += x[r][i] > 2;
    pos[r] = c * 100 + i;
  }
#pragma endscop
}

static void two_searches(int n, int m, int pos[N], double x[N][N])
{
#pragma scop
  for (int r = 0; r < n; r++) {
    int i, j;
    for (i = 0; i < m; i++)
      if (x[r][i] > 3)
        break;
    for (j = m - 1; j > i; j--)
      if (x[r][j] < -2)
        break;
    pos[r] = j - i;
    i = i + 1;
    pos[r] += i * 1000;
  }
#pragma endscop
}

int main(void)
{
  static double x[N][N];
  static int pos[N];
  for (int r = 0; r < N; r++)
    for (int i = 0; i < N; i++)
      x[r][i] = ((r * 7 + i * 13) % 23) - 8.5 + (i > r ? 3 : 0);
  int sizes[4][2] = { { N, N }, { 5, 1 }, { 1, 0 }, { 0, 4 } };
  for (int s = 0; s < 4; s++) {
    int n = sizes[s][0], m = sizes[s][1];
    for (int r = 0; r < N; r++)
      pos[r] = -1;
    first_negative(n, m, pos, x);
    for (int r = 0; r < N; r++)
      printf("f %d %d\n", r, pos[r]);
    counted(n, m, pos, x);
    for (int r = 0; r < N; r++)
      printf("c %d %d\n", r, pos[r]);
    two_searches(n, m, pos, x);
    for (int r = 0; r < N; r++)
      printf("t %d %d\n", r, pos[r]);
  }
  return 0;
}
