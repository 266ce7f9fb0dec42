/* Sums of negative zeros are -0.0 in C, and `+0.0 + -0.0` is +0.0: a
 * reduction whose copies start at +0.0 (OpenMP's `+`, a tree's identity)
 * prints "0" where the sequential program prints "-0". Scalars of both
 * floating types, an array, and a sum with one +0.0 term (+0.0 either
 * way); enough terms for several blocks and threads. */
#include <stdio.h>
#define N 5000

static double x[N], y[N], v[4];
static float xf[N];

static void sums(int n, double x[N], double y[N], float xf[N], double out[3], float outf[1], double v[4])
{
  double s = -0.0, t = -0.0;
  float sf = -0.0f;
#pragma scop
  for (int i = 0; i < n; i++)
    s += x[i];
  for (int i = 0; i < n; i++)
    sf += xf[i];
  for (int i = 0; i < n; i++)
    t += y[i];
  for (int i = 0; i < n; i++)
    v[i % 4] += x[i];
#pragma endscop
  out[0] = s;
  out[1] = t;
  outf[0] = sf;
}

int main(void)
{
  double out[3];
  float outf[1];
  for (int i = 0; i < N; i++) {
    x[i] = -0.0;
    xf[i] = -0.0f;
    y[i] = i == 1234 ? 0.0 : -0.0;
  }
  for (int i = 0; i < 4; i++)
    v[i] = -0.0;
  sums(N, x, y, xf, out, outf, v);
  printf("s %g t %g sf %g v %g %g %g %g\n", out[0], out[1], (double) outf[0], v[0], v[1], v[2], v[3]);
  sums(3, x, y, xf, out, outf, v);
  printf("s %g t %g sf %g v %g %g %g %g\n", out[0], out[1], (double) outf[0], v[0], v[1], v[2], v[3]);
  return 0;
}
