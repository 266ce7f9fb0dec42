/* OpenMP directives around and right before regions, as Rodinia's
 * OpenMP codes write them. `#pragma omp parallel for` on the line before
 * `#pragma scop` applies to the region's first loop: the region takes it
 * (the generated code's `if` once followed it, which C does not allow).
 * A region inside `#pragma omp parallel { ... }` whose loops carry
 * `#pragma omp for` is run by every thread of the team, each taking its
 * share: it keeps the original code (pencilc's ran all of it in each of
 * the three threads, adding three times). A region with a team of its own
 * (`parallel` around its `for`) and `#pragma pencil independent` before
 * `#pragma scop` are compiled. */
#include <stdio.h>

static void scale(int n, double *a)
{
  #pragma omp parallel for
#pragma scop
  for (int i = 0; i < n; i++)
    a[i] = 2.0 * a[i] + 1.0;
#pragma endscop
}

static void bump(int n, double *a, double *b)
{
#pragma omp parallel
  {
#pragma scop
#pragma omp for
    for (int i = 0; i < n; i++)
      a[i] = a[i] + 1.0;
#pragma omp for
    for (int i = 0; i < n; i++)
      b[i] = b[i] + a[i];
#pragma endscop
  }
}

static void own_team(int n, double *a, double *b)
{
#pragma scop
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < n; i++)
      b[i] = b[i] + 3.0 * a[i];
  }
#pragma endscop
}

static void gather(int n, int idx[1000], double a[1000], double b[1000])
{
#pragma pencil independent
#pragma scop
  for (int i = 0; i < n; i++)
    b[idx[i]] = a[i] * 0.5;
#pragma endscop
}

/* An orphaned `omp for` in a function the region calls, the region run
   from every thread of a team of the caller's: it keeps its code. */
static void helper(int n, double a[1000])
{
#pragma omp for
  for (int i = 0; i < n; i++)
    a[i] = a[i] + i + 1;
}

static void called(int n, double a[1000])
{
#pragma scop
  helper(n, a);
#pragma endscop
}

int main(void)
{
  static double a[1000], b[1000];
  static int idx[1000];
  for (int i = 0; i < 1000; i++) {
    a[i] = i % 17;
    b[i] = 2 * (i % 5);
    idx[i] = (i * 7) % 1000;
  }
  scale(1000, a);
  bump(1000, a, b);
  own_team(1000, a, b);
  gather(1000, idx, b, a);
#pragma omp parallel
  called(1000, b);
  double s = 0;
  for (int i = 0; i < 1000; i++)
    s += (a[i] + 3 * b[i]) * (i % 11 + 1);
  printf("%.10g\n", s);
  return 0;
}
