/* A statement call of a function the file only declares (external inputs
 * of 2026-12-06, pet's arg.c, array.c, write.c): kernels called it
 * without a warning and did not build. It keeps the original code unless
 * the device code given with --opencl-include-file defines it
 * (declared_statement_calls.cl). The definition is the program's own,
 * here under `#ifndef __PENCIL__`, as another file would hold it. */
#include <stdio.h>

#define N 200

void bump(int *x, int by);

static void region(int n, int b[static const restrict N])
{
#pragma scop
  for (int i = 0; i < n; i++)
    bump(&b[i], i % 3);
#pragma endscop
}

#ifndef __PENCIL__
void bump(int *x, int by)
{
  *x = *x * 2 + by;
}
#endif

int main(void)
{
  static int b[N];
  for (int i = 0; i < N; i++)
    b[i] = (i * 7) % 11;
  region(N, b);
  long s = 0;
  for (int i = 0; i < N; i++)
    s += b[i] * (i % 4 + 1);
  printf("%ld\n", s);
  return 0;
}
