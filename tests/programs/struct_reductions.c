/* Accumulations into struct members (issue 31: they stayed sequential,
 * since an OpenMP `reduction` clause cannot name a member): a histogram
 * of structs (`h[v[i] % 16].count += 1`), one through a pointer to a
 * struct with an array member (`g->c[v[i] % 16] += 2`), and the two
 * members of a complex sum (`acc->re += ...`). The loops are parallel:
 * OpenMP updates the members with `omp atomic`, kernels with atomics.
 * The terms are binary fractions, so every order sums them exactly. */
#include <stdio.h>

struct bin { int count; int sum; };
struct hist { int c[16]; };
struct cplx { double re, im; };

#define N 1000

static void run(int v[N], double x[N], struct bin h[16], struct hist *g, struct cplx *acc) {
#pragma scop
  for (int i = 0; i < N; ++i) {
    h[v[i] % 16].count += 1;
    h[v[i] % 16].sum += v[i];
  }
  for (int i = 0; i < N; ++i)
    g->c[v[i] % 16] += 2;
  for (int i = 0; i < N; ++i) {
    acc->re += x[i] * 0.5;
    acc->im += x[i] * x[i];
  }
#pragma endscop
}

int main(void) {
  static int v[N];
  static double x[N];
  static struct bin h[16];
  static struct hist g;
  struct cplx acc = {1, 2};
  for (int i = 0; i < N; ++i) {
    v[i] = (i * 7919) % 1013;
    x[i] = (i % 8) * 0.25;
  }
  run(v, x, h, &g, &acc);
  for (int i = 0; i < 16; ++i)
    printf("%d %d %d\n", h[i].count, h[i].sum, g.c[i]);
  printf("%.6f %.6f\n", acc.re, acc.im);
  return 0;
}
