/* A 3-D parallel nest (three thread dimensions), float data, a reduction
 * into a scalar that is live out, and a triangular nest. */
#include <stdio.h>
#include <math.h>
#define N 20
static float kernel(int n, float A[N][N][N], float B[N][N]) {
  int i, j, k;
  float acc;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      for (k = 0; k < n; k++)
        A[i][j][k] = sqrtf(A[i][j][k] + i) * 0.5f + j - k;
  for (i = 0; i < n; i++)
    for (j = 0; j <= i; j++)
      B[i][j] = B[i][j] + A[i][j][j];
  acc = 0.0f;
  for (i = 0; i < n; i++)
    acc += B[i][i];
#pragma endscop
  return acc;
}
int main(void) {
  static float A[N][N][N], B[N][N];
  for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) { B[i][j] = i - j; for (int k = 0; k < N; k++) A[i][j][k] = (i + j * k) % 9; }
  float acc = kernel(N - 1, A, B);
  double s = 0; for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) s += B[i][j] * (j + 1);
  printf("%.6g %.6g\n", s, acc);
  return 0;
}
