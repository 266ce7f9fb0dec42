/* Unsigned arithmetic in loop bounds, conditions, subscripts and
 * statements wraps around as C's does: `n - 1` with `n == 0` is
 * UINT_MAX, `m - n` of an `int` and an `unsigned` is unsigned, a cast
 * to `unsigned char` or `int` converts modulo 2^bits. pencilc used to
 * take them as mathematical integers (0 iterations instead of 40). */
#include <stddef.h>
#include <stdio.h>
static double A[64], B[64], C[64];
static void run(unsigned n, int m, size_t s) {
#pragma scop
  for (unsigned i = 0; i < n - 1 && i < 40; i++)
    A[i] += 1.0;
  for (int i = 0; i < m - n && i < 30; i++)
    A[i + 2] += 2.0;
  for (int i = 0; i < 20; i++)
    B[i] = (double)(n - i) + (double)(i - m + n);
  for (int i = 0; i < (unsigned char)(m + 250) && i < 10; i++)
    C[i] += 3.0;
  for (int i = 0; i < (int)(n - 1) + 3; i++)
    C[i + 10] += 4.0;
  for (size_t i = 0; i < s - 1 && i < 20; i++)
    C[i + 30] += 5.0;
  for (unsigned i = n; i < n + 5; i++)
    if (i - n < 3u)
      B[i - n + 40] += 6.0;
#pragma endscop
}
int main(void) {
  run(0, 3, 0);
  run(5, 10, 7);
  run(2, 1, 1);
  for (int i = 0; i < 64; i++)
    printf("%d %.17g %.17g %.17g\n", i, A[i], B[i], C[i]);
  return 0;
}
