/* Scalars written in ways other than assignments (found by the third
 * red-team round, each a wrong result or code that did not build):
 *  - only through `&x` in a call: `x` was taken for a parameter of the
 *    region, a value fixed at entry, so `out[r] = best` read no variable
 *    (the host version ran every call first, then copied the last value
 *    to every row; the kernels read an undeclared `best`);
 *  - the same for a loop bound (`setb(&m, n / 2); for (i < m)`);
 *  - a set-up loop over a variable declared before it, ended by `break`
 *    or `continue` (`for (i = 0; ...) if (...) break;`), which the host
 *    runs before the device code: it was printed over a new `int i`, so
 *    the variable kept its old value (`B[-1]` written after it);
 *  - the same over a local of the region (`int i;` in the region), which
 *    the kernels took from the host, where it was never declared.
 * A search per row over a variable of the function (`rows`) sets it
 * before reading it in every row: each row gets a copy, the rows run on
 * threads, and the last row's values are left in the variables. */
#include <stdio.h>

static int g;

static void setb(int *b, int v) { b[0] = v; }
static void maxb(int *b, int v) { if (v > b[0]) b[0] = v; }

static void by_call(int m, int out[restrict const static 64])
{
  int best = 0;
#pragma scop
  for (int r = 0; r < m; r++) {
    setb(&best, r * 3);
    out[r] = best;
  }
#pragma endscop
}

static void by_call_global(int m, int out[restrict const static 64])
{
#pragma scop
  for (int r = 0; r < m; r++) {
    maxb(&g, (r * 7) % 11);
    out[r] = g + r;
  }
#pragma endscop
}

static void bound_by_call(int n, int B[restrict const static 64])
{
  int m = 0;
#pragma scop
  {
    setb(&m, n / 2);
    for (int i = 0; i < m; i++)
      B[i] = B[i] + 1;
    setb(&n, n / 3);
    for (int i = 0; i < n; i++)
      B[i] = B[i] + 10;
  }
#pragma endscop
}

static void setup_break(int n, double A[restrict const static 64],
                        double B[restrict const static 64], int *fin)
{
  int i = -1;
#pragma scop
  {
    for (i = 0; i < n; i++)
      if (A[i] > 50.0)
        break;
    for (int j = i; j < n; j++)
      B[j] = B[j] + 1.0;
  }
#pragma endscop
  *fin = i;
}

static void setup_continue(int n, double A[restrict const static 64],
                           double B[restrict const static 64], int *fin)
{
  int i = -1;
  int c = 0;
#pragma scop
  {
    for (i = 0; i < n; i++) {
      if (A[i] < 30.0)
        continue;
      c = c + 1;
    }
    for (int j = c; j < n; j++)
      B[j] = B[j] + 2.0;
  }
#pragma endscop
  *fin = i * 100 + c;
}

static void local_break(int n, double A[restrict const static 64],
                        double B[restrict const static 64])
{
#pragma scop
  {
    int i;
    for (i = 0; i < n; i++)
      if (A[i] > 50.0)
        break;
    for (int j = i; j < n; j++)
      B[j] = B[j] + 4.0;
  }
#pragma endscop
}

static void rows(int m, int n, double A[restrict const static 64],
                 int out[restrict const static 64], int *fin)
{
  int i = -5, j = -3;
#pragma scop
  for (int r = 0; r < m; r++) {
    for (i = 0; i < n; i++)
      if (A[(r + i) % 64] > 40.0)
        break;
    for (j = 0; j < n; j++) {
      if (A[(r * 3 + j) % 64] < 5.0)
        continue;
      if (A[(r * 3 + j) % 64] > 55.0)
        break;
    }
    out[r] = i + 100 * j;
  }
#pragma endscop
  *fin = i * 1000 + j;
}

int main(void)
{
  static int out[64], IB[64];
  static double A[64], B[64];
  int sizes[4] = {64, 37, 1, 0};
  for (int i = 0; i < 64; i++) {
    A[i] = (i * 37) % 61;
    B[i] = 0;
    IB[i] = 0;
  }
  for (int z = 0; z < 4; z++) {
    int n = sizes[z], fin;
    long s = 0;
    for (int r = 0; r < 64; r++)
      out[r] = -1;
    by_call(n, out);
    for (int r = 0; r < 64; r++)
      s += out[r] * (r % 7 + 1);
    printf("by_call %d: %ld\n", n, s);
    g = z;
    by_call_global(n, out);
    s = 0;
    for (int r = 0; r < 64; r++)
      s += out[r] * (r % 5 + 1);
    printf("by_call_global %d: %ld %d\n", n, s, g);
    bound_by_call(n, IB);
    setup_break(n, A, B, &fin);
    printf("setup_break %d: %d\n", n, fin);
    setup_continue(n, A, B, &fin);
    printf("setup_continue %d: %d\n", n, fin);
    local_break(n, A, B);
    rows(n, sizes[3 - z], A, out, &fin);
    s = 0;
    for (int r = 0; r < 64; r++)
      s += out[r] * (r % 3 + 1);
    printf("rows %d: %ld %d\n", n, s, fin);
  }
  for (int i = 0; i < 64; i++)
    printf("%d %g\n", IB[i], B[i]);
  return 0;
}
