/* Reduction corner cases, each checked against the sequential build:
 * a reduction inside a sequential outer loop (one tree and one combine per
 * launch), a conditional update (the `if` makes the loop body one compound
 * statement), integer and double scalars, a product, and a per-row
 * reduction into an array element under an independent inner loop. */
#include <pencil.h>
#include <stdio.h>

static void reductions(int n, int steps, const float x[pencil_array n],
                       const int k[pencil_array n], float rows[pencil_array 8][n],
                       float fout[pencil_array steps], int iout[pencil_array 2],
                       double dout[pencil_array 2], float rowsum[pencil_array 8])
{
  float s;
  for (int t = 0; t < steps; t++) {
    s = 0.0f;
#pragma pencil independent reduction(+: s)
    for (int i = 0; i < n; i++)
      s += x[i] * (float)(t + 1);
    fout[t] = s;
  }
  int count = 0;
  int kmin = 1 << 30;
  double pos = 0.0;
  double prod = 1.0;
#pragma pencil independent reduction(+: count, pos) reduction(min: kmin) reduction(*: prod)
  for (int i = 0; i < n; i++) {
    if (x[i] > 0.5f) {
      count += 1;
      pos += x[i];
    }
    kmin = min(kmin, k[i]);
    prod *= 1.0 + x[i] / (double)n;
  }
  iout[0] = count;
  iout[1] = kmin;
  dout[0] = pos;
  dout[1] = prod;
  for (int r = 0; r < 8; r++) {
    rowsum[r] = 0.0f;
#pragma pencil independent reduction(+: rowsum)
    for (int j = 0; j < n; j++)
      rowsum[r] += rows[r][j];
  }
}

#ifndef N
#define N 50000
#endif

int main(void)
{
  enum { STEPS = 4 };
  static float x[N], rows[8][N];
  static int k[N];
  float fout[STEPS], rowsum[8];
  int iout[2];
  double dout[2];
  for (int i = 0; i < N; i++) {
    x[i] = (float)((i * 13) % 101) / 100.0f;
    k[i] = (i * 7919) % 100003 - 50000;
    for (int r = 0; r < 8; r++)
      rows[r][i] = (float)((i + r) % 9) / 8.0f;
  }
  reductions(N, STEPS, x, k, rows, fout, iout, dout, rowsum);
  for (int t = 0; t < STEPS; t++)
    printf("s[%d]=%.6e\n", t, fout[t]);
  printf("count=%d kmin=%d pos=%.9e prod=%.9e\n", iout[0], iout[1], dout[0], dout[1]);
  for (int r = 0; r < 8; r++)
    printf("row[%d]=%.6e\n", r, rowsum[r]);
  return 0;
}
