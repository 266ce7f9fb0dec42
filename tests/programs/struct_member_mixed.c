/* Accumulations with different operators into the members of one struct
 * in one loop (issue 31: a struct's updates had to share one operator,
 * so these loops stayed sequential), and minima and maxima into elements
 * that vary with the iteration, which the host's OpenMP loop now updates
 * with compare-and-swap loops (they kept the loop sequential). Also an
 * integer chain into a varying member (`g[k].c = g[k].c - v[i] - 1`),
 * whose `#pragma omp atomic` did not compile, and two operators on one
 * member, which is no reduction and stays in order, and a sum beside reads
 * of the struct's other members. The terms are binary
 * fractions and integers: every order gives the same result. */
#include <math.h>
#include <stdio.h>

struct stats { double sum, sq, cnt, hi, lo; };
struct bin { double count, lo, hi; };
struct ibin { int c, m, x, a; };

#define N 2000

static void run(int n, const int v[N], const double x[N], struct stats *s,
                struct bin h[16], struct ibin g[8], struct stats *t,
                struct stats *u, double out[N]) {
#pragma scop
  for (int i = 0; i < n; i++) {
    s->sum += x[i];
    s->sq += x[i] * x[i];
    s->cnt += 1;
    s->hi = s->hi > x[i] ? s->hi : x[i];
    s->lo = fmin(s->lo, x[i]);
  }
  for (int i = 0; i < n; i++) {
    h[v[i] % 16].count += 1;
    h[v[i] % 16].lo = h[v[i] % 16].lo < x[i] ? h[v[i] % 16].lo : x[i];
    h[v[i] % 16].hi = fmax(h[v[i] % 16].hi, x[i]);
  }
  for (int i = 0; i < n; i++) {
    g[v[i] % 8].c = g[v[i] % 8].c - v[i] - 1;
    g[v[i] % 8].m = g[v[i] % 8].m > v[i] ? v[i] : g[v[i] % 8].m;
    g[v[i] % 8].x ^= v[i];
    g[3].a += v[i];
  }
  for (int i = 0; i < n; i++) {
    t->sum += x[i];
    t->sum = fmax(t->sum, 2 * x[i]);
  }
  for (int i = 0; i < n; i++) {
    u->sum += x[i] * u->lo;
    out[i] = u->hi + x[i];
  }
#pragma endscop
}

int main(void) {
  static int v[N];
  static double x[N], out[N];
  struct stats s = {1, 0, 0, -100, 100}, t = {0, 0, 0, 0, 0},
               u = {0, 0, 0, 0.5, 0.25};
  static struct bin h[16];
  static struct ibin g[8];
  for (int i = 0; i < N; i++) {
    v[i] = (i * 7919 + 13) % 1013;
    x[i] = (double) ((i * 37 + 11) % 64) / 8.0 - 3.0;
  }
  for (int k = 0; k < 16; k++) {
    h[k].lo = 1000;
    h[k].hi = -1000;
  }
  for (int k = 0; k < 8; k++)
    g[k].m = 5000;
  run(N, v, x, &s, h, g, &t, &u, out);
  printf("%.4f %.4f %.4f %.4f %.4f\n", s.sum, s.sq, s.cnt, s.hi, s.lo);
  for (int k = 0; k < 16; k++)
    printf("%.4f %.4f %.4f\n", h[k].count, h[k].lo, h[k].hi);
  for (int k = 0; k < 8; k++)
    printf("%d %d %d %d\n", g[k].c, g[k].m, g[k].x, g[k].a);
  printf("%.4f\n", t.sum);
  double o = 0;
  for (int i = 0; i < N; i++)
    o += out[i] * (i % 7);
  printf("%.4f %.4f\n", u.sum, o);
  return 0;
}
