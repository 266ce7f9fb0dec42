/* `__pencil_assume` holds only where it is reached: under an `if` or in
 * a loop it says nothing about the parameter values at which it is not
 * reached (n = 33 with m = 0 must not lose element 32). */
#include <pencil.h>
#include <stdio.h>
#define N 100
static double A[N], B[N], C[N];
static void kernel(int n, int m) {
#pragma scop
  if (m > 0)
    __pencil_assume(n % 32 == 0);
  for (int i = 0; i < n; i++)
    A[i] = A[i] + i + 1;
  for (int k = 0; k < m - 2; k++) {
    __pencil_assume(n % 16 == 0);
    C[k] = C[k] + k;
  }
  for (int i = 0; i < n; i++)
    B[i] = B[i] + 2 * i + 1;
#pragma endscop
}
int main(void) {
  int ns[] = {33, 64, 48, 0, 7};
  int ms[] = {0, 1, 2, 0, -3};
  for (int t = 0; t < 5; t++) {
    kernel(ns[t], ms[t]);
    double s = 0;
    for (int i = 0; i < N; i++) s += A[i] + 3 * B[i] + 7 * C[i];
    printf("n=%d m=%d: %.1f\n", ns[t], ms[t], s);
  }
  return 0;
}
