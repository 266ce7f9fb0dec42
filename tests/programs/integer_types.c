/* Iterators keep their C types: a `long` loop beyond INT_MAX (with `int`
 * generated iterators it never ended), `long long` bounds in a parameter,
 * `size_t` and `unsigned` (increasing and decreasing to 0), `short`, a
 * wide outer loop around an `int` inner one, and a `long` iterator live
 * after the region. The wide loops carry a dependence, so that they run
 * in order in one thread: as parallel kernels they would launch 2^26
 * mostly empty work-groups. */
#include <stddef.h>
#include <stdio.h>
static long A[16];
static long long B[24];
static int C[32], D[16][8];
static long E[8];
static void kernel(long long base, size_t n, int m, long *last) {
  long q = 5;
#pragma scop
  for (long i = 2147483640L; i < 2147483650L; i++)
    A[0] = A[0] * 3 + i % 1000;
  for (long long j = base; j < base + 20; j += 3)
    B[j - base] = j / 7;
  for (size_t k = 0; k < n; k++)
    C[k] = C[k] + (int)k;
  for (unsigned u = 9; u >= 1; u--)
    C[u + 16] = C[u + 16] * 2 + (int)u;
  for (short s = 0; s < 8; s++)
    E[s] = E[s] + s * 3;
  for (long r = 4294967296L; r < 4294967296L + 16; r++)
    for (int c = 0; c < m; c++)
      D[0][c] = D[0][c] * 2 + (r - 4294967296L) + c + 1;
  for (q = 3000000000L; q < 3000000000L + m; q++)
    E[0] = E[0] * 2 + (q - 3000000000L);
#pragma endscop
  *last = q;
}
int main(void) {
  long last = 0;
  long long s = 0;
  kernel(3000000123LL, 13, 5, &last);
  s += last;
  kernel(5000000000LL, 0, 0, &last);
  s += last;
  for (int i = 0; i < 16; i++) s = s * 3 + A[i] % 1000003;
  for (int i = 0; i < 24; i++) s = s * 5 + B[i] % 1000003;
  for (int i = 0; i < 32; i++) s = s * 7 + C[i];
  for (int i = 0; i < 16; i++)
    for (int j = 0; j < 8; j++) s = s * 3 + D[i][j];
  for (int i = 0; i < 8; i++) s = s * 11 + E[i];
  printf("%lld %ld\n", s, last);
  return 0;
}
