/* Calls in expressions of functions the file declares without a body
 * (issue 33): pet and PPCG take them as pure functions of their
 * arguments, and so does pencilc, with a warning. The definition is the
 * program's own (here under `#ifndef __PENCIL__`, as another file would
 * hold it); kernels call it where the device code given with
 * --opencl-include-file defines it (assumed_pure.cl), and otherwise the
 * region keeps the original code on the OpenCL and CUDA targets. */
#include <stdio.h>

int f(int);
double g(double x, int k);
/* Reads p[0..2]: the model reads all of the array passed. */
double avg3(const double *p);
/* A row of a 2-D array, passed as C passes it: the address of its first
 * element (flat device buffers printed the element until 2026-12-06, and
 * the kernels did not build). */
int rowsum(const int *row);

#define N 300

static void region(int n, int A[static const restrict N], int B[static const restrict N],
                   double C[static const restrict N], double E[static const restrict N])
{
#pragma scop
  for (int i = 0; i < n; i++)
    A[i] = f(i) + B[i];
  for (int i = 0; i < n; i++)
    if (f(B[i]) > 3)
      B[i] = f(A[i]) - 1;
  for (int i = 1; i < n; i++)
    C[i] = g(C[i], f(i % 5)) + C[i] / 2;
  for (int i = 0; i < n - 2; i++)
    E[i] = avg3(&C[i]);
#pragma endscop
}

static void rows(int n, int R[static const restrict N][4], int D[static const restrict N])
{
#pragma scop
  for (int i = 0; i < n; i++)
    D[i] = rowsum(R[i]) + 1;
#pragma endscop
}

#ifndef __PENCIL__
int f(int x)
{
  return x * 3 % 7;
}

double g(double x, int k)
{
  return x * 0.25 + k;
}

double avg3(const double *p)
{
  return (p[0] + p[1] + p[2]) / 3;
}

int rowsum(const int *row)
{
  return row[0] + 2 * row[1] + 3 * row[2] + 4 * row[3];
}
#endif

int main(void)
{
  static int A[N], B[N];
  static double C[N], E[N];
  static int R[N][4], D[N];
  for (int i = 0; i < N; i++) {
    B[i] = (i * 5) % 11;
    C[i] = i % 9;
    for (int j = 0; j < 4; j++)
      R[i][j] = (i + 3 * j) % 13;
  }
  region(N, A, B, C, E);
  rows(N, R, D);
  long s = 0;
  double t = 0;
  for (int i = 0; i < N; i++) {
    s += A[i] * (i % 4 + 1) + B[i];
    t += C[i] * (i % 3) + E[i];
    s += D[i] * (i % 5 + 1);
  }
  printf("%ld %.4f\n", s, t);
  return 0;
}
