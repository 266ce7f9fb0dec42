/* Accumulations into single elements that an OpenMP `reduction` clause
 * cannot name: a minimum and a maximum into struct members through a
 * pointer (`r->lo`, written with `?:` and with `fmax`), a sum and a count
 * into the members of another struct, and a sum through a pointer
 * parameter (`total[0]`). Each element is read into a local before its
 * loop, the clause reduces the local, and the element gets its value
 * after the loop (before, the minimum and maximum stayed sequential and
 * the sums were atomic updates of one address from every thread). The
 * terms are binary fractions and integers, so every order gives the
 * same result. Where a loop does not run, no element is read: the
 * pointers may then be null. */
#include <math.h>
#include <stdio.h>

struct range { double lo, hi; };
struct totals { long sum, count; };

#define N 4000

static void scan(int n, const double a[N], const int v[N], struct range *r,
                 struct totals *t, double *total) {
#pragma scop
  for (int i = 0; i < n; i++)
    r->lo = r->lo < a[i] ? r->lo : a[i];
  for (int i = 0; i < n; i++)
    r->hi = fmax(r->hi, a[i]);
  for (int i = 0; i < n; i++) {
    t->sum += v[i];
    t->count += v[i] > 3;
  }
  for (int i = 0; i < n; i++)
    total[0] += a[i] * 0.5;
#pragma endscop
}

int main(void) {
  static double a[N];
  static int v[N];
  for (int i = 0; i < N; i++) {
    a[i] = (double) ((i * 37 + 11) % 64) / 8.0 - 3.0;
    v[i] = (i * 7919) % 11;
  }
  struct range r = {100.0, -100.0};
  struct totals t = {5, 1};
  double total = 0.25;
  scan(N, a, v, &r, &t, &total);
  printf("%.17g %.17g %ld %ld %.17g\n", r.lo, r.hi, t.sum, t.count, total);
  scan(0, a, v, &r, &t, &total);
  /* No iteration reads an element: null pointers are fine in C. */
  scan(0, a, v, NULL, NULL, NULL);
  printf("%.17g %.17g %ld %ld %.17g\n", r.lo, r.hi, t.sum, t.count, total);
  scan(N / 3, a, v, &r, &t, &total);
  printf("%.17g %.17g %ld %ld %.17g\n", r.lo, r.hi, t.sum, t.count, total);
  return 0;
}
