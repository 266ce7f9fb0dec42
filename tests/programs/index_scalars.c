/* Scalars that hold an index (Rodinia's `c = i * cols + j;` and block
 * bounds `int b_start = blk * 8;`): their reads become the index's
 * expression where the value is the same, so the subscripts are affine
 * and the loops parallel; everywhere else the scalar stays. Each case
 * below is one of the rules: a value read after the region, a name of
 * the expression written before a read, a conditional redefinition, a
 * read before the definition in the next iteration, conversions that
 * change the value (unsigned wrap-around, `short`), `long` from `int`
 * (whose product with a constant would become an `int` product). */
#include <stdio.h>

static void linear(int n, int m, float A[n * m], float B[n * m])
{
  int i, j, c;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++) {
      c = i * m + j;
      B[c] = 2.0f * A[c] + 1.0f;
    }
#pragma endscop
}

static void blocks(int n, float *x, float *y)
{
#pragma scop
  for (int blk = 0; blk < n / 8; ++blk) {
    int b_start = blk * 8;
    int b_end = b_start + 8;
    for (int i = b_start; i < b_end; ++i)
      y[i] = 2.0f * x[i] + (float) b_start;
  }
#pragma endscop
}

static int live_after(int n, double D[64])
{
  int c = -1;
#pragma scop
  for (int i = 0; i < n; i++) {
    c = 2 * i + 1;
    D[c] = D[c] + i;
  }
#pragma endscop
  return c;
}

static void rewritten(int n, double D[64], double E[64])
{
  int k, c;
#pragma scop
  for (int i = 0; i < n; i++) {
    k = i;
    c = k * 2;
    k = k + 1;
    D[c] = D[c] + k;
    c = i;
    if (i % 3 == 0)
      c = i + 1;
    E[c] = E[c] + 1;
  }
#pragma endscop
}

static void next_iteration(int n, double D[64])
{
  int c = 0;
#pragma scop
  for (int i = 0; i < n; i++) {
    D[c] = D[c] + 10 * i;
    c = i;
  }
#pragma endscop
}

static void conversions(int n, double D[64], double E[64], double F[64])
{
#pragma scop
  for (int i = 0; i < n; i++) {
    unsigned u = i - 1;
    if (u < 32)
      D[u] = D[u] + 1;
    short s = i * 1000;
    E[s & 63] = E[s & 63] + i;
    long w = i * 2;
    F[w] = F[w] + 3;
  }
#pragma endscop
}

/* `long c = i;` in place of `c` would make `c * 1000000000` an `int`
   product, which overflows: the scalar stays. */
static void long_product(int n, long X[64])
{
#pragma scop
  for (int i = 0; i < n; i++) {
    long c = i;
    X[i] = c * 1000000000;
  }
#pragma endscop
}

int main(void)
{
  static float A[48 * 40], B[48 * 40], x[64], y[64];
  static double D[64], E[64], F[64];
  static long X[64];
  for (int i = 0; i < 48 * 40; i++)
    A[i] = i % 13;
  for (int i = 0; i < 64; i++) {
    x[i] = i % 7;
    D[i] = E[i] = F[i] = i % 5;
  }
  linear(48, 40, A, B);
  blocks(64, x, y);
  int c = live_after(30, D);
  rewritten(30, D, E);
  next_iteration(40, D);
  conversions(32, D, E, F);
  long_product(64, X);
  double s = c;
  for (int i = 0; i < 48 * 40; i++)
    s += B[i] * (i % 7 + 1);
  for (int i = 0; i < 64; i++)
    s += y[i] * (i + 1) + D[i] * (i + 2) + E[i] * (i + 3) + F[i] * (i + 5) + X[i] % 1000003;
  printf("%.10g\n", s);
  return 0;
}
