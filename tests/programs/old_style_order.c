#include <stdio.h>
/* Old-style (K&R) definitions declare their parameters in any order: the
 * list of names says which argument each takes. `shift` declares `k`
 * before `x` and is inlined into the region, whose call binds `b[i]` to
 * `x`; `run` declares its three parameters last to first. */
static double shift(x, k)
int k;
double x;
{
  return x - 3 * k;
}

static void run(n, a, b)
double *b;
double *a;
int n;
{
#pragma scop
  for (int i = 0; i < n; i++)
    a[i] = shift(b[i], i % 4) * 2 + a[i];
#pragma endscop
}

int main(void)
{
  static double a[64], b[64];
  for (int i = 0; i < 64; i++) {
    a[i] = i % 5;
    b[i] = 100 + i;
  }
  run(50, a, b);
  double s = 0;
  for (int i = 0; i < 64; i++)
    s += a[i] * (i + 1);
  printf("%.10g\n", s);
  return 0;
}
