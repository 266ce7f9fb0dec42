/* Minima and maxima written as `if` statements (`if (x[i] > m) m =
 * x[i];`: the assignment `m = x[i] > m ? x[i] : m`, the same value in
 * every case), and a count in one branch of an `if` whose other branch
 * updates another array (`if (Z[k][i] > q) Z[k][i] -= q; else cnt +=
 * 1;`): reductions, their loops in parallel. An arg-max (`m` and its
 * index, under a condition that reads `m`) stays in order, as does a
 * count beside a write of an element that other iterations write too
 * (`else h[i % 4] = x[i]`): a reduction frees every pair of its
 * statement's instances. */
#include <stdio.h>

#define N 1500
#define R 40

static double x[N], Z[R][N], M[R], h[4];
static int v[N];
double m, m2, am;
int lo, idx, cnt, cnt2;

void forms(int n, int r)
{
  double q;
#pragma scop
  m = -1.0;
  for (int i = 0; i < n; i++)
    if (x[i] * 3.0 - 1.0 > m)
      m = x[i] * 3.0 - 1.0;
  lo = 1000;
  m2 = 0.0;
  for (int i = 0; i < n; i++) {
    if (v[i] < lo)
      lo = v[i];
    if (m2 <= x[i] + v[i])
      m2 = x[i] + v[i];
  }
  for (int k = 0; k < r; k++) {
    M[k] = -5.0;
    for (int i = 0; i < n; i++)
      if (Z[k][i] * x[i] > M[k])
        M[k] = Z[k][i] * x[i];
  }
  am = -1.0;
  idx = -1;
  for (int i = 0; i < n; i++)
    if (x[i] > am) {
      am = x[i];
      idx = i;
    }
  cnt = 0;
  for (int k = 0; k < r; k++) {
    q = M[k] * 0.25;
    for (int i = 0; i < n; i++) {
      if (Z[k][i] > q)
        Z[k][i] = Z[k][i] - q;
      else
        cnt += 1;
    }
  }
  cnt2 = 0;
  for (int i = 0; i < n; i++) {
    if (x[i] > 0.5)
      cnt2 += 1;
    else
      h[i % 4] = x[i] * i;
  }
#pragma endscop
}

int main(void)
{
  for (int i = 0; i < N; i++) {
    x[i] = ((i * 7919) % 1000) / 1000.0;
    v[i] = (i * 37) % 211 - 100;
  }
  for (int k = 0; k < R; k++)
    for (int i = 0; i < N; i++)
      Z[k][i] = ((k * 13 + i * 7) % 101) / 101.0;
  forms(N, R);
  double z = 0;
  for (int k = 0; k < R; k++) {
    z += M[k] * (k % 3 + 1);
    for (int i = 0; i < N; i++)
      z += Z[k][i] * ((k + i) % 3);
  }
  printf("%.10e %.10e %d %.10e %d %d %.10e\n", m, m2, lo, am, idx, cnt, z);
  printf("%d %.10e %.10e %.10e %.10e\n", cnt2, h[0], h[1], h[2], h[3]);
  return 0;
}
