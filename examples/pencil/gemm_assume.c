/* gemm with __pencil_assume(n % 32 == 0): with 32x32 tiles, no boundary
 * guards are left in the kernels (PENCIL paper, Table 4). */
#include <pencil.h>
#include <stdio.h>

static void gemm(int n, float alpha, float beta, float C[pencil_array n][n],
                 const float A[pencil_array n][n], const float B[pencil_array n][n])
{
  __pencil_assume(n % 32 == 0 && n > 0);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      C[i][j] *= beta;
      for (int k = 0; k < n; k++)
        C[i][j] += alpha * A[i][k] * B[k][j];
    }
}

int main(void)
{
  enum { N = 256 };
  static float A[N][N], B[N][N], C[N][N];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      A[i][j] = (float)((i * j + 1) % 7) / 7.0f;
      B[i][j] = (float)((i + 2 * j) % 5) / 5.0f;
      C[i][j] = (float)((i + j) % 3);
    }
  gemm(N, 1.5f, 0.5f, C, A, B);
  double check = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      check += C[i][j] * ((i * 3 + j) % 11);
  printf("check=%.1f\n", check);
  return 0;
}
