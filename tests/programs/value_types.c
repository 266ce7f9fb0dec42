/* Integer variables that a region reads keep their C types in the kernels:
 * with a `long` index type, `int n` passed as `long` made `u + n` signed
 * (4 instead of 4294967295), a `long` scalar used only in a statement was
 * truncated to the `int` index type, and `short`/`unsigned char` values
 * must reach the kernel with their own sizes. Variable-length array
 * parameters are not C++, so they are in value_types_vla.c, which is not
 * built as CUDA. */
#include <stdio.h>

void mixed(long m, int n, unsigned u, double A[100]) {
#pragma scop
  for (long i = 0; i < m; i++)
    A[i] = (double)(u + n) + i;
#pragma endscop
}

void wide(int m, long big, double B[100]) {
#pragma scop
  for (int i = 0; i < m; i++)
    B[i] = (double)(big + i);
#pragma endscop
}

void narrow(long m, short s, unsigned char c, int n, double C[20][20]) {
#pragma scop
  for (long i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      C[i][j] = (double)(s * s) + (double)(unsigned char)(c + 1) + (c + 1) * 1000.0 + i - j;
#pragma endscop
}

int main(void) {
  static double A[100], B[100], C[20][20];
  mixed(100, -1, 0u, A);
  wide(100, 5000000000L, B);
  narrow(20, 2000, 255, 20, C);
  double s = 0;
  for (int i = 0; i < 100; i++)
    s += A[i] + B[i];
  for (int i = 0; i < 20; i++)
    for (int j = 0; j < 20; j++)
      s += C[i][j];
  printf("%.1f %.1f %.1f %.1f\n", A[7], B[7], C[3][4], s);
  return 0;
}
