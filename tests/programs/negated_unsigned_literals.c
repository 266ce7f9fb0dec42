/* A negated unsigned literal is C's unary minus applied to it: `-1u` is
 * 4294967295. The C grammar reads the sign into the literal, and the
 * model took `-1u` for -1: `if (-1u > 5u)` was false and its branch
 * dropped (every version printed 2 where C prints 1), directly and
 * through a scalar. */
#include <stdio.h>

static void f(int n, int D[8], int E[8], long F[8])
{
  unsigned c;
#pragma scop
  for (int i = 0; i < n; i++) {
    if (-1u > 5u)
      D[i] = 1;
    else
      D[i] = 2;
    c = -1u;
    if (c > 5u)
      E[i] = 3;
    else
      E[i] = 4;
    F[i] = -2u + i;
  }
#pragma endscop
}

int main(void)
{
  int D[8] = {0}, E[8] = {0};
  long F[8] = {0};
  f(8, D, E, F);
  for (int i = 0; i < 8; i++)
    printf("%d %d %ld\n", D[i], E[i], F[i]);
  return 0;
}
