/* pet's and PENCIL's builtins called without pencil.h (issue 33): pet
 * knows __pencil_assume, __pencil_kill, min, max, imin, imax, umin, floord,
 * ceild and Omega's intCeil and intMod whether or not a file declares them. This program defines them
 * for its own build only (a C compiler needs them); pencilc, which
 * defines __PENCIL__, sees the calls alone. The test also builds it with
 * that block removed: then the host files pencilc writes define them. */
#include <stdio.h>

#ifndef __PENCIL__
#define __pencil_assume(e) ((void)0)
#define __pencil_kill(...) ((void)0)
static int min(int a, int b) { return a < b ? a : b; }
static int max(int a, int b) { return a > b ? a : b; }
static int imin(int a, int b) { return a < b ? a : b; }
static int imax(int a, int b) { return a > b ? a : b; }
static int floord(int n, int d) { return n < 0 ? -((-n + d - 1) / d) : n / d; }
static int ceild(int n, int d) { return -floord(-n, d); }
static unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }
static int intCeil(int n, int d) { return -floord(-n, d); }
static int intMod(int n, int d) { return n - d * floord(n, d); }
#endif

#define N 97

static void run(int n, int m, double A[static const restrict n],
                int B[static const restrict n], int C[static const restrict n][m])
{
#pragma scop
  __pencil_assume(n > 2);
  __pencil_assume(m >= 1);
  /* As values: every sign of the dividend. */
  for (int i = 0; i < n; i++)
    A[i] = A[i] * 2 + imax(i, 3) + floord(i - 50, 7) + ceild(i - 40, 3)
           + min(i, 20) + max(i, 80) + imin(-i, -5) + (int) umin(i, 9)
           + intCeil(i - 30, 4) + intMod(i - 33, 6);
  /* In loop bounds and subscripts: affine for a constant divisor. */
  for (int i = 0; i <= floord(n - 1, 2); i++)
    B[i] = ceild(i, 4) - floord(-i, 3) + 10 * intMod(-i, 4);
  for (int i = 0; i < n; i++)
    if (i >= ceild(n, 3) && i < floord(2 * n, 3) && intMod(i, 3) != 1)
      B[i] += 1;
  for (int i = 0; i < n; i++)
    for (int j = max(0, i - 3); j < min(m, i + 3); j++)
      C[i][j] = floord(i + j, 4) + ceild(i - j, 5);
  __pencil_kill(A[0]);
#pragma endscop
}

int main(void)
{
  static double A[N];
  static int B[N], C[N][N];
  for (int i = 0; i < N; i++) {
    A[i] = i;
    B[i] = -i;
    for (int j = 0; j < N; j++)
      C[i][j] = i - j;
  }
  run(N, N - 20, A, B, C);
  double s = 0;
  long t = 0;
  for (int i = 1; i < N; i++) {
    s += A[i] * (i % 7);
    t += B[i] * (i % 5 + 1);
    for (int j = 0; j < N; j++)
      t += C[i][j] * ((i + 2 * j) % 3);
  }
  printf("%.1f %ld\n", s, t);
  return 0;
}
