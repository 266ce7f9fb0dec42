/* Accumulations under conditions on the data (issue 31): `if (v[i] % 3
 * == 0) c += v[i]`, an `else` that updates the same scalar, a minimum
 * under a condition, an integer sum of both branches. Each runs as a
 * reduction. And the shapes that are none, which stay in order: a
 * condition that reads the accumulator, an update whose value reads it,
 * two operators, two accumulators in one statement, another write beside
 * the update. Every version prints the sequential results. */
#include <stdio.h>

#define N 4096

static int v[N];
static double x[N], y[N];

static void guarded(int n, long rl[3], double rd[2])
{
  long c = 0, k = 0, m = 1000000;
  double t = 0, u = 0;
#pragma scop
  for (int i = 0; i < n; i++)
    if (v[i] % 3 == 0)
      c += v[i];
  for (int i = 0; i < n; i++) {
    if (x[i] > 2)
      t += x[i];
    else
      t -= 1;
  }
  for (int i = 0; i < n; i++)
    if (v[i] > 100)
      m = v[i] < m ? v[i] : m;
  for (int i = 0; i < n; i++) {
    if (v[i] % 2)
      k += v[i];
    else if (v[i] % 5)
      k += 3;
  }
  for (int i = 0; i < n; i++)
    if (x[i] < 0)
      u = u + x[i] * 0.5;
#pragma endscop
  rl[0] = c;
  rl[1] = k;
  rl[2] = m;
  rd[0] = t;
  rd[1] = u;
}

static void not_reductions(int n, long rl[4], double rd[1])
{
  long a = 0, b = 0, p = 1, q = 0, r = 0;
  double h = 1;
#pragma scop
  for (int i = 0; i < n; i++)
    if (a < 5000000)
      a += v[i];
  for (int i = 0; i < n; i++)
    if (v[i] % 7 == 0)
      h += h * 0.001;
  for (int i = 0; i < n; i++) {
    if (v[i] % 2)
      p += v[i] % 5;
    else
      p *= 2;
    p = p % 1000003;
  }
  for (int i = 0; i < n; i++) {
    if (v[i] % 2)
      q += 1;
    else
      r += 1;
  }
  for (int i = 0; i < n; i++)
    if (v[i] % 4 == 1) {
      b += v[i];
      y[i] = b;
    }
#pragma endscop
  rl[0] = a;
  rl[1] = p;
  rl[2] = q * 1000 + r;
  rl[3] = b;
  rd[0] = h;
}

int main(void)
{
  long rl[3], sl[4];
  double rd[2], sd[1], sy = 0;
  for (int i = 0; i < N; i++) {
    v[i] = (i * 7919) % 10007;
    x[i] = (i * 5) % 17 - 8;
  }
  guarded(N, rl, rd);
  not_reductions(N, sl, sd);
  for (int i = 0; i < N; i++)
    sy += y[i] * (i % 3 + 1);
  printf("%ld %ld %ld %.1f %.1f\n", rl[0], rl[1], rl[2], rd[0], rd[1]);
  printf("%ld %ld %ld %ld %.9e %.9e\n", sl[0], sl[1], sl[2], sl[3], sd[0], sy);
  return 0;
}
