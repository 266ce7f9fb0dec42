/* `static` variables are one object for the whole program, initialised
 * once (issue 32): a counter declared `static` in the function before the
 * region keeps its value from one call to the next, and the region reads
 * and updates that one object in every version; a `static const` local
 * of the region is its constant; a file-scope static is updated by a
 * region called several times. (A `static` declared inside a region is
 * an error: tests/diagnostics.rs.) */
#include <stdio.h>
#define N 120

static long calls_total;

static void running(int n, long A[N])
{
  static long cnt = 0;
#pragma scop
  for (int i = 0; i < n; i++) {
    cnt += i;
    A[i] = cnt;
  }
#pragma endscop
}

static void scaled(int n, double B[N], const double C[N])
{
#pragma scop
  for (int i = 0; i < n; i++) {
    static const double scale = 0.25;
    static const int shift = 3;
    B[i] = C[i] * scale + shift;
  }
  for (int i = 0; i < n; i++)
    calls_total += i % 5;
#pragma endscop
}

int main(void)
{
  static long A[N];
  static double B[N], C[N];
  for (int i = 0; i < N; i++)
    C[i] = (i * 7) % 11;
  for (int r = 0; r < 4; r++) {
    running(N - 10 * r, A);
    scaled(N - r, B, C);
  }
  long s = 0;
  double t = 0;
  for (int i = 0; i < N; i++) {
    s += A[i] * (i % 7 + 1);
    t += B[i] * (i + 1);
  }
  printf("%ld %.10g %ld\n", s, t, calls_total);
  return 0;
}
