/* Pointer parameters as DSL compilers write them (issue 16): `restrict`
 * pointers indexed with linearised subscripts (gemm), a pointer read
 * before where it points (`x[i - 2]`, passed as `buf + 5`) and written
 * after an offset, and a pointer local to the function. Each region's buffers hold exactly the elements
 * it touches. */
#include <stdio.h>
#include <stdlib.h>

static void gemm(int n, int m, int k, float alpha, float *restrict C,
                 const float *restrict A, const float *restrict B)
{
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      C[i * m + j] *= alpha;
      for (int l = 0; l < k; l++)
        C[i * m + j] += A[i * k + l] * B[l * m + j];
    }
#pragma endscop
}

static void shift(int n, double *restrict y, const double *restrict x)
{
#pragma scop
  for (int i = 1; i < n; i++)
    y[i + 2] = x[i - 2] * 2.0 + x[i];
#pragma endscop
}

static double total(int n, double *data)
{
  double *restrict upper = data + n / 2;
  double s = 0;
#pragma scop
  for (int i = 0; i < n / 2; i++)
    upper[i] = upper[i] + i;
  for (int i = 0; i < n / 2; i++)
    s += upper[i];
#pragma endscop
  return s;
}

int main(void)
{
  int n = 37, m = 45, k = 29;
  float *A = (float *) malloc(sizeof(float) * n * k), *B = (float *) malloc(sizeof(float) * k * m);
  float *C = (float *) malloc(sizeof(float) * n * m);
  for (int i = 0; i < n * k; i++) A[i] = (i % 7) * 0.5f;
  for (int i = 0; i < k * m; i++) B[i] = (i % 5) * 0.25f;
  for (int i = 0; i < n * m; i++) C[i] = (float) (i % 3);
  gemm(n, m, k, 1.5f, C, A, B);
  double s = 0;
  for (int i = 0; i < n * m; i++) s += C[i] * (i % 11);
  printf("gemm %.6f\n", s);

  double buf[64], out[64];
  for (int i = 0; i < 64; i++) { buf[i] = i * 0.5; out[i] = -1; }
  shift(40, out + 3, buf + 5);
  for (int i = 0; i < 64; i += 3) printf("%g ", out[i]);
  printf("\n");

  double d[30];
  for (int i = 0; i < 30; i++) d[i] = i;
  printf("total %.3f %.3f %.3f\n", total(30, d), d[14], d[15]);
  free(A); free(B); free(C);
  return 0;
}
