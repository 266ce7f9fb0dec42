/* The user's names drawn from the generated code's own vocabulary (issue
 * 32): array extents named like the kernels' thread and block ids, loop
 * iterators and host values (t0, b1, c2, h0: kernels declared their own
 * over the arguments), an array named like a device buffer (dev_A: the
 * host copied the buffer's handle into A), scalars named like the launch
 * code's temporaries (arg, kernel0: the launch read the temporary) and a
 * macro named like a loop iterator (c0, a stencil's coefficient: it
 * expanded in the generated `for (int c0 ...)`). */
#include <stdio.h>
#define N 24
#define c0 0.5
static void kernel(int n, int t0, int b1, int c2, int h0, double A[t0][c2], double dev_A[b1][h0],
                   double arg, int kernel0) {
  int i, j, t;
#pragma scop
  for (t = 0; t < 3; t++) {
    for (i = 1; i < n; i++)
      for (j = 0; j < n; j++)
        A[i][j] = c0 * A[i - 1][j] + dev_A[j][i] * arg + kernel0;
    for (i = 0; i < n; i++)
      for (j = 0; j < n; j++)
        dev_A[i][j] = dev_A[i][j] * 0.25 + A[i][j] * 0.125;
  }
#pragma endscop
}

int main(void) {
  static double A[N][N], B[N][N];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      A[i][j] = (i * 3 + j) % 11;
      B[i][j] = (i + 7 * j) % 5;
    }
  kernel(N - 2, N, N, N, N, A, B, 2.5, 7);
  double s = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      s += (A[i][j] + 2 * B[i][j]) * (i + 1) - j;
  printf("%.10g\n", s);
  return 0;
}
