/* Loops over variables that the region itself declares, C89 style
 * (`int i; for (i = 0; ...)`), with and without a first value, read
 * after their loops, left by `break`, and in a nest; and a small array
 * that a parallel loop writes, one element per iteration; the value a
 * local's loop leaves, from a start that converts to the local's type. */
#include <stdio.h>

#define N 300
#define M 40

static void kernels(int n, int m, double A[N], double B[N], double C[N],
                    double G[M][M], double D[64], double x, int out[4]) {
#pragma scop
  int i;
  for (i = 0; i < n; i++)
    A[i] = B[i] * 2 + i;
  int j = 7;
  for (j = 1; j < n - 1; j++)
    C[j] = A[j - 1] + A[j + 1];
  int k;
  for (k = 3; k < n; k += 4)
    B[k] = C[k] - 1;
  out[0] = k;
  int s;
  for (s = 0; s < n; s++) {
    if (A[s] > 500)
      break;
    C[s] = C[s] + 1;
  }
  out[1] = s;
  int r, c;
  for (r = 0; r < m; r++)
    for (c = 0; c < m; c++)
      G[r][c] = G[r][c] * 0.5 + r - c;
  out[2] = r;
  for (int q = 0; q < 64; q++)
    D[q] = B[q] + A[q];
  /* The value left is the local's: the start truncated to an int. */
  int t;
  for (t = x * 0.5; t < 3; t++)
    D[t] += 1;
  out[3] = t * 2;
#pragma endscop
}

int main(void) {
  static double A[N], B[N], C[N], G[M][M], D[64];
  int out[4] = {0, 0, 0, 0};
  for (int i = 0; i < N; i++) {
    A[i] = 0;
    B[i] = (i * 7 + 3) % 13;
    C[i] = i % 5;
  }
  for (int r = 0; r < M; r++)
    for (int c = 0; c < M; c++)
      G[r][c] = (r * 3 + c) % 11;
  kernels(N, M, A, B, C, G, D, 3.0, out);
  printf("%d\n", out[3]);
  kernels(N - 17, M - 3, A, B, C, G, D, 9.0, out);
  for (int i = 0; i < N; i++)
    printf("%d %.1f %.1f %.1f\n", i, A[i], B[i], C[i]);
  for (int r = 0; r < M; r++)
    for (int c = 0; c < M; c++)
      printf("%.2f\n", G[r][c]);
  for (int q = 0; q < 64; q++)
    printf("%.1f\n", D[q]);
  printf("%d %d %d %d\n", out[0], out[1], out[2], out[3]);
  return 0;
}
