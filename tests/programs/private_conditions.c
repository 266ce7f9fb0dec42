/* Variables written before they are read in each iteration, read under
 * conditions on the data (`u = A[i] - 0.5; if (u > 0.0) ...`): each
 * thread gets a copy (a statement under such a condition may read the
 * copy), the values they leave are stored back by the last iteration. In
 * `mods`, `w` is written where `i % 3 == 1`: its values flow from
 * `S[i]` to `T[i']` with `i <= i' <= i + 2` and both 1 mod 3, so
 * `i' = i`, which only the integer points show; the loop is parallel.
 * `B[i] += w` over `i` updates an element of its own in each iteration:
 * no reduction (and no atomics) for it. */
#include <stdio.h>

#define N 1000
#define M 200

static double A[N], B[N], C[M][M], D[M][M], S[M];
double u;
int w, cnt;

void conds(int n, int m)
{
  double v, z;
  int k;
#pragma scop
  for (int i = 0; i < n; i++) {
    u = A[i] - 0.5;
    if (u > 0.0)
      B[i] = B[i] + u;
    else
      B[i] = B[i] - u * 0.25;
  }
  for (int i = 0; i < m; i++) {
    S[i] = 0.0;
    for (int j = 0; j < m; j++) {
      v = C[i][j] * 2.0 - 1.0;
      if (v > 0.25)
        S[i] += v;
    }
  }
  for (int i = 0; i < m; i++)
    for (int j = 0; j < m; j++) {
      z = C[i][j] - 0.5;
      k = (int) (C[i][j] * 10.0);
      if (z < 0.0 && k % 2 == 0)
        D[i][j] = D[i][j] + z * k;
      if (k > 7)
        C[i][j] = z;
    }
  for (int i = 0; i < n; i++) {
    cnt = i % 7;
    if (A[i] > 0.5 && cnt > 2)
      B[i] = B[i] * cnt;
  }
#pragma endscop
}

void mods(int n)
{
#pragma scop
  for (int i = 0; i < n; i++) {
    u = A[i] - 0.25;
    if (u > 0.0)
      B[i] = B[i] + u;
  }
  for (int i = 0; i < n; i++) {
    if (i % 3 == 1 && i < n - 5) {
      w = i * 2;
      B[i] += w;
    }
  }
#pragma endscop
}

int main(void)
{
  for (int i = 0; i < N; i++) {
    A[i] = ((i * 7919) % 1000) / 1000.0;
    B[i] = i * 0.001;
  }
  for (int i = 0; i < M; i++)
    for (int j = 0; j < M; j++)
      C[i][j] = ((i * 31 + j * 17) % 100) / 100.0;
  u = -7;
  w = -1;
  cnt = -1;
  conds(N, M);
  double s = 0;
  for (int i = 0; i < N; i++)
    s += B[i] * (i % 11);
  for (int i = 0; i < M; i++) {
    s += S[i];
    for (int j = 0; j < M; j++)
      s += C[i][j] * ((i + j) % 5) + D[i][j] * 3;
  }
  printf("%.10e %.10e %d\n", s, u, cnt);
  mods(N);
  mods(N - 1);
  s = 0;
  for (int i = 0; i < N; i++)
    s += B[i] * (i % 13);
  printf("%.10e %.10e %d\n", s, u, w);
  return 0;
}
