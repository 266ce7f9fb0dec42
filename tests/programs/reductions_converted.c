/* Accumulations that C converts back to the variable's type at every
 * step (issue 31's exactness: an `int` summing `double` terms truncates
 * each partial sum, a `float` summing `double` ones rounds it): no other
 * order gives C's result, so they are no reductions and stay in order on
 * every target. Beside them, conversions that are exact in any order (an
 * `unsigned` summing `long` terms wraps alike, a `double` summing
 * `float`s) run as reductions. Every version prints what the sequential
 * program prints. */
#include <stdio.h>

#define N 4096

static double x[N];
static float y[N];
static int a[N];
static long w[N];

static void conversions(int n, int ri[3], long rl[1], float rf[1])
{
  int s = 1, p = 1000000, t = 3;
  long l = 0;
  float f = 0.5f;
#pragma scop
  for (int i = 0; i < n; i++)
    s = s + x[i];
  for (int i = 0; i < n; i++)
    p *= (x[i] > 0 ? 1.01 : 0.99);
  for (int i = 0; i < n; i++)
    l -= x[i] * 0.5;
  for (int i = 0; i < n; i++)
    f += x[i] * 1e-3;
  for (int i = 0; i < n; i++)
    t = t < x[i] ? t : x[i] + 0.5;
#pragma endscop
  ri[0] = s;
  ri[1] = p;
  ri[2] = t;
  rl[0] = l;
  rf[0] = f;
}

static void exact(int n, unsigned ru[1], double rd[1])
{
  unsigned u = 7;
  double d = 0;
#pragma scop
  for (int i = 0; i < n; i++)
    u += w[i];
  for (int i = 0; i < n; i++)
    d += y[i];
#pragma endscop
  ru[0] = u;
  rd[0] = d;
}

int main(void)
{
  int ri[3];
  long rl[1];
  float rf[1];
  unsigned ru[1];
  double rd[1];
  for (int i = 0; i < N; i++) {
    x[i] = (i * 5) % 17 - 8.3;
    y[i] = (float)((i * 3) % 11) * 0.25f;
    a[i] = (i * 7) % 23 - 11;
    w[i] = 3000000000L + i * 977L;
  }
  conversions(N, ri, rl, rf);
  exact(N, ru, rd);
  printf("%d %d %d %ld %.9g %u %.9g\n", ri[0], ri[1], ri[2], rl[0], rf[0], ru[0], rd[0]);
  return 0;
}
