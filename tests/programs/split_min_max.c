/* Minima and maxima with a parallel loop of their own, split in partial
 * results (scop::partials): each lane starts from the variable's value
 * before the loop and the lanes combine with the user's own expression,
 * so the functions' types decide as they do in the sequential program:
 * PENCIL's `umin` orders negative `int`s as unsigned, its `int` `min`
 * truncates a `long` variable whose value starts outside `int`, `lmax`
 * widens. Also a `?:` maximum of doubles, `fmin`, a triangular loop
 * whose rows have fewer terms than lanes, rows with no term at all, a
 * term that reads another element of the variable (one the region does
 * not write: `w[i + 1]` would make `i` sequential, and no split applies
 * to a loop of one thread), and a few long rows, which the
 * GPU model splits at the sizes the arrays are declared with
 * (--gpu-model-params m=200000). Every value is an integer: any order
 * gives the sequential result exactly. */
#include <pencil.h>
#include <math.h>
#include <stdio.h>

#define N 300
#define ROWS 64
#define COLS 200000

static int mx[N], u[N], w[N + 1], tri[N], I[N][N], big_max[ROWS], Sx[N][2], mn[N];
static long y[N], lw[N], L[N][N];
static double d[N], f[N], E[N][N];
static int Big[ROWS][COLS];

static void typed(int n, int I[N][N], long L[N][N], int mx[N], int u[N], long y[N], long lw[N])
{
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      mx[i] = max(mx[i], I[j][i]);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      u[i] = umin(u[i], I[i][j]);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      y[i] = min(y[i], L[i][j]);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      lw[i] = lmax(lw[i], L[j][i] * 4294967296L);
#pragma endscop
}

static void shapes(int n, double E[N][N], double d[N], double f[N], int I[N][N], int tri[N], int w[N + 1])
{
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      d[i] = d[i] > E[i][j] ? d[i] : E[i][j];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      f[i] = fmin(f[i], E[j][i] - 100.0);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++)
      tri[i] = tri[i] < I[i][j] ? tri[i] : I[i][j];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      w[i] = max(w[i], w[n] - I[i][j]);
#pragma endscop
}

static void rows(int r, int m, int Big[ROWS][COLS], int big_max[ROWS])
{
#pragma scop
  for (int i = 0; i < r; i++)
    for (int j = 0; j < m; j++)
      big_max[i] = max(big_max[i], Big[i][j]);
#pragma endscop
}

/* The term prints as a subscript of the accumulator (red team round
 * 10): the lanes combine as `Sx[i][0] = max(Sx[i][0], P[r][i])`, the
 * subscript left as it is. */
static void subscripts(int n, int m, int Sx[N][2], int mn[N])
{
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      Sx[i][0] = max(Sx[i][0], 0);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      mn[i] = mn[i] < i ? mn[i] : i;
#pragma endscop
}

int main(void)
{
  int n = 77, m = 1000;
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < N; j++) {
      I[i][j] = (i * 37 + j * 11) % 101 - 50;
      L[i][j] = (i * 13 + j * 7) % 29 - 14;
      E[i][j] = (i * 5 + j * 3) % 17 - 8;
    }
    mx[i] = -1000;
    u[i] = i % 7 == 0 ? -1 : 60;
    y[i] = i % 2 ? 5 - 4294967296L : 3;
    lw[i] = -3;
    d[i] = i % 4 - 12;
    f[i] = i % 5;
    tri[i] = 100 - i;
    w[i] = i % 9;
    Sx[i][0] = i % 3 - 1;
    Sx[i][1] = 50 + i;
    mn[i] = i % 5 * 20 - 30;
  }
  w[N] = 4;
  for (int i = 0; i < ROWS; i++) {
    for (int j = 0; j < m; j++)
      Big[i][j] = (i * 31 + j * 17) % 1009 - 500;
    big_max[i] = i % 3 ? -2000 : 600;
  }
  typed(n, I, L, mx, u, y, lw);
  typed(0, I, L, mx, u, y, lw);
  shapes(n, E, d, f, I, tri, w);
  shapes(1, E, d, f, I, tri, w);
  rows(ROWS, m, Big, big_max);
  rows(5, 40, Big, big_max);
  subscripts(n, 3, Sx, mn);
  for (int i = 0; i < n + 1; i++)
    printf("%d mx %d u %d y %ld lw %ld d %.1f f %.1f tri %d w %d S %d %d mn %d\n", i, mx[i], u[i], y[i], lw[i], d[i], f[i], tri[i], w[i], Sx[i][0], Sx[i][1], mn[i]);
  for (int i = 0; i < ROWS; i++)
    printf("big %d %d\n", i, big_max[i]);
  return 0;
}
