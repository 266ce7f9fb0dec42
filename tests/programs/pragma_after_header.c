/* `#pragma pencil independent` between a loop's header and its body, as
 * PENCIL writes it and C compilers accept (issue 32: rejected with
 * "expected `;`"): a braced body, a single statement, nested loops each
 * with their own, one continued on the next line, a reduction. Each means
 * what the pragma before the loop means. */
#include <stdio.h>
#define N 64
static void kernel(int n, double A[N][N], const double B[N], long C[N], long *out)
{
  long s = 0;
#pragma scop
  for (int i = 0; i < n; i++)
#pragma pencil independent
  {
    for (int j = 0; j < n; j++)
#pragma pencil \
      independent
      A[i][j] = B[i] * 2.0 - B[j];
  }
  for (int i = 0; i < n; i++) /* each element once */
#pragma pencil independent
    C[i] = C[i] * 3 + i;
  for (int i = 0; i < n; i++)
#pragma pencil independent reduction(+: s)
    s += C[i] % 7;
#pragma endscop
  *out = s;
}

int main(void)
{
  static double A[N][N], B[N];
  static long C[N];
  long s = 0;
  for (int i = 0; i < N; i++) {
    B[i] = (i * 5) % 9;
    C[i] = i % 4;
  }
  kernel(N - 3, A, B, C, &s);
  double a = 0;
  long c = 0;
  for (int i = 0; i < N; i++) {
    c += C[i] * (i + 1);
    for (int j = 0; j < N; j++)
      a += A[i][j] * (i + 2 * j);
  }
  printf("%.10g %ld %ld\n", a, c, s);
  return 0;
}
