/* A floating-point minimum or maximum written with `?:` gives, in C, a
 * result that depends on the order where a NaN or zeros of both signs
 * meet (`m < x ? m : x` keeps the later of two equal values): by default
 * it is reordered like a sum (and `-v` says so); with `--reductions
 * exact` it stays in order and every version prints what the sequential
 * program prints. `fmin` and `fmax` ignore NaNs in any order and run as
 * reductions in both modes. */
#include <math.h>
#include <stdio.h>

#define N 4096

static double x[N], z[N];

static void extremes(int n, double r[6])
{
  double m = 1e9, M = -1e9, zm = 1e9, zM = -1e9, fm = 1e9, fM = -1e9;
#pragma scop
  for (int i = 0; i < n; i++) {
    m = m < x[i] ? m : x[i];
    M = x[i] > M ? x[i] : M;
  }
  for (int i = 0; i < n; i++) {
    zm = z[i] < zm ? z[i] : zm;
    zM = zM > z[i] ? zM : z[i];
  }
  for (int i = 0; i < n; i++) {
    fm = fmin(fm, x[i]);
    fM = fmax(fM, x[i]);
  }
#pragma endscop
  r[0] = m;
  r[1] = M;
  r[2] = zm;
  r[3] = zM;
  r[4] = fm;
  r[5] = fM;
}

int main(void)
{
  double r[6];
  for (int i = 0; i < N; i++) {
    x[i] = (i * 37) % 101;
    z[i] = (i % 2) ? -0.0 : 0.0;
  }
  x[N - 10] = NAN;
  extremes(N, r);
  printf("%g %g %g %g %g %g\n", r[0], r[1], r[2], r[3], r[4], r[5]);
  return 0;
}
