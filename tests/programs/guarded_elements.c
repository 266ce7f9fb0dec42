/* Accumulations into array elements and struct members under conditions
 * on the data (issue 31: only a scalar's guarded updates were found, so
 * a conditional histogram stayed sequential): a histogram of the
 * positive values, an element updated in both branches, struct members
 * through a pointer (atomic updates inside the `if` on the host), a
 * guarded minimum of varying members (a compare-and-swap loop), and a
 * condition that reads the histogram, which keeps its loop in order. */
#include <stdio.h>

struct acc { double pos, neg; };
struct rng { int lo, hi; };

#define N 3000

static void run(int n, const int v[N], const double x[N], int h[16], double s[4],
                struct acc *a, struct rng r[8], int g[16]) {
#pragma scop
  for (int i = 0; i < n; i++)
    if (x[i] > 0)
      h[v[i] % 16] += 1;
  for (int i = 0; i < n; i++) {
    if (v[i] % 3 == 0)
      s[1] += x[i];
    else
      s[1] -= 0.5;
  }
  for (int i = 0; i < n; i++) {
    if (x[i] > 0)
      a->pos += x[i];
    if (x[i] < 0)
      a->neg += x[i];
  }
  for (int i = 0; i < n; i++)
    if (v[i] % 5 != 0)
      r[v[i] % 8].lo = r[v[i] % 8].lo < v[i] ? r[v[i] % 8].lo : v[i];
  for (int i = 0; i < n; i++)
    if (g[v[i] % 16] < 40)
      g[v[i] % 16] += 1;
#pragma endscop
}

int main(void) {
  static int v[N], h[16], g[16];
  static double x[N];
  double s[4] = {0, 0, 0, 0};
  struct acc a = {0, 0};
  struct rng r[8];
  for (int i = 0; i < N; i++) {
    v[i] = (i * 7919 + 5) % 1009;
    x[i] = (double) ((i * 37 + 11) % 64) / 8.0 - 3.0;
  }
  for (int k = 0; k < 8; k++) {
    r[k].lo = 100000;
    r[k].hi = 0;
  }
  run(N, v, x, h, s, &a, r, g);
  for (int k = 0; k < 16; k++)
    printf("%d %d\n", h[k], g[k]);
  printf("%.4f %.4f %.4f\n", s[1], a.pos, a.neg);
  for (int k = 0; k < 8; k++)
    printf("%d\n", r[k].lo);
  return 0;
}
