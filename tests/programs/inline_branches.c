/* Functions whose bodies assign locals and parameters under `if`s and
 * return from several places (Rodinia nw's `maximum`, a clamp with early
 * returns, updates with `+=` and `*=`, returns of an `int` and an
 * `unsigned` converted to the return type each) are pure functions of
 * their arguments: they are inlined as conditional expressions (E0109
 * "not known to be pure" before), and the nw-style wavefront runs as a
 * kernel. */
#include <stdio.h>
int maximum(int a, int b, int c)
{
  int k;
  if (a <= b)
    k = b;
  else
    k = a;
  if (k <= c)
    return (c);
  else
    return (k);
}
static double clampd(double x, double lo, double hi)
{
  if (x < lo)
    return lo;
  if (x > hi)
    return hi;
  return x;
}
static int steps(int x)
{
  int s = 0;
  if (x > 3) {
    s += 2;
    x = x - 3;
  } else if (x < -3) {
    s -= 1;
  }
  s *= 3;
  if (x % 2 == 0)
    return s + x;
  return s - x;
}
static unsigned mixed(int a)
{
  if (a > 0)
    return -1;
  return 5u;
}
static void f(int n, int A[64][64], double D[64], int E[64], long F[64])
{
#pragma scop
  for (int i = 1; i < n; i++)
    for (int j = 1; j < n; j++)
      A[i][j] = maximum(A[i - 1][j - 1] + 1, A[i][j - 1] - 2, A[i - 1][j] - 2) % 1000;
  for (int i = 0; i < n; i++) {
    D[i] = clampd(D[i] * 3.0 - 20.0, -5.0, 17.5);
    E[i] = steps(E[i] - 32);
    F[i] = (long) mixed(i - 30);
  }
#pragma endscop
}
int main(void)
{
  static int A[64][64], E[64];
  static double D[64];
  static long F[64];
  for (int i = 0; i < 64; i++) {
    D[i] = i % 13;
    E[i] = (i * 7) % 64;
    for (int j = 0; j < 64; j++)
      A[i][j] = (i * 31 + j * 17) % 23;
  }
  f(64, A, D, E, F);
  long s = 0;
  for (int i = 0; i < 64; i++) {
    s += (long) (D[i] * 8) * (i + 1) + E[i] * (i + 2) + F[i] % 1000003 * (i + 3);
    for (int j = 0; j < 64; j++)
      s += A[i][j] * (i + j + 1);
  }
  printf("%ld\n", s);
  return 0;
}
