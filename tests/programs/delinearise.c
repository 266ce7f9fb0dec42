/* Linearised subscripts, and calls that break what their delinearised
 * shapes need (issue 16, item 3). Every call must give the sequential
 * result: where the inner subscripts leave their rows at run time the
 * generated code is not entered and the user's code runs. */
#include <stdio.h>
#include <stdlib.h>

/* Rows of `mm` elements, `m` of them used: each row is updated from the
 * row before. With m > mm the rows overlap, and mm == 0 makes every row
 * the same memory. */
static void rows(int n, int m, int mm, double *restrict A)
{
#pragma scop
  for (int i = 1; i < n; i++)
    for (int j = 0; j < m; j++)
      A[i * mm + j] = A[(i - 1) * mm + j] * 0.5 + j;
#pragma endscop
}

/* Constant rows of 64 elements, `nj` used: nj <= 64 is checked. */
static void crows(int ni, int nj, float *restrict B)
{
#pragma scop
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nj; j++)
      B[i * 64 + j] = B[i * 64 + j] * 2.0f + (float) i;
#pragma endscop
}

/* Three dimensions, parametric, with offsets and reversed rows. */
static void cube(int n, int p, int q, const float *restrict in, float *restrict out)
{
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 1; j < p; j++)
      for (int k = 0; k < q - 1; k++)
        out[((n - 1 - i) * p + j - 1) * q + k + 1] = in[(i * p + j) * q + k] + in[(i * p + j - 1) * q + k + 1];
#pragma endscop
}

/* The last element of a row is the next row's first: `A[i][m]` is
 * `A[i + 1][0]`, which C allows for a flat buffer. No shape holds. */
static void cross(int n, int m, double *restrict A)
{
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= m; j++)
      A[i * m + j] = A[i * m + j] + i;
#pragma endscop
}

/* Without restrict: may overlap, checked on the bytes touched. */
static void add(int n, int m, double *dst, const double *src)
{
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      dst[i * m + j] = src[i * m + j] + src[i * m + j] * 0.25;
#pragma endscop
}

static double sum(const double *a, int n)
{
  double s = 0;
  for (int i = 0; i < n; i++) s += a[i] * (i % 13 + 1);
  return s;
}

int main(void)
{
  double *A = (double *) malloc(sizeof(double) * 4096);
  for (int i = 0; i < 4096; i++) A[i] = i % 11;
  rows(20, 30, 40, A);                  /* valid */
  rows(20, 50, 40, A);                  /* rows overlap */
  rows(10, 30, 0, A);                   /* every row the same */
  rows(10, 0, 40, A);                   /* no columns */
  printf("rows %.6f\n", sum(A, 4096));

  float *B = (float *) malloc(sizeof(float) * 64 * 40);
  for (int i = 0; i < 64 * 40; i++) B[i] = (float) (i % 7);
  crows(40, 60, B);                     /* valid */
  crows(30, 70, B);                     /* nj > 64 */
  double s = 0;
  for (int i = 0; i < 64 * 40; i++) s += B[i] * (i % 5);
  printf("crows %.3f\n", s);

  float *in = (float *) malloc(sizeof(float) * 7 * 9 * 11);
  float *out = (float *) malloc(sizeof(float) * 7 * 9 * 11);
  for (int i = 0; i < 7 * 9 * 11; i++) { in[i] = (float) (i % 5); out[i] = 0; }
  cube(7, 9, 11, in, out);
  s = 0;
  for (int i = 0; i < 7 * 9 * 11; i++) s += out[i] * (i % 9);
  printf("cube %.3f\n", s);

  for (int i = 0; i < 4096; i++) A[i] = i % 11;
  cross(20, 30, A);
  printf("cross %.6f\n", sum(A, 4096));

  for (int i = 0; i < 4096; i++) A[i] = i % 11;
  add(10, 20, A + 2000, A);             /* disjoint */
  add(10, 20, A + 1, A);                /* overlapping */
  add(10, 20, A, A);                    /* in place: same elements */
  printf("add %.6f\n", sum(A, 4096));
  free(A); free(B); free(in); free(out);
  return 0;
}
