/* The generated versions of a region go into a function of their own
 * (back::outline), called with the user's variables: scalars by value,
 * scalars the region writes by address, arrays and pointers as declared
 * (run-time extents included). The user's iterators get their final
 * values after the call, also where a loop runs no iteration. A region
 * that names a variable no parameter can stand for (a struct, a
 * `volatile`) keeps its versions in the user's function. */
#include <stdio.h>

struct pair {
  double a, b;
};

double scale = 0.5;

/* Run-time extents, a written scalar, iterators left after the region. */
static double rows(int n, int m, double A[n][m], const double B[restrict n][m],
                   double *restrict out) {
  double last = -1.0;
  int i = -7, j = -9;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      A[i][j] = B[i][j] * scale + i;
  for (i = 0; i < n; i++)
    out[i] = A[i][m - 1];
  if (n > 0)
    last = A[n - 1][0];
#pragma endscop
  return last + 1000 * i + j;
}

/* Two regions in one function, one inside a loop reading its iterator,
 * and a local array. */
static double twice(int n, double x[100]) {
  double t[100];
  int k;
  for (int step = 0; step < 3; step++) {
#pragma scop
    for (k = 0; k < n; k++)
      t[k] = x[k] + step;
    for (k = 0; k < n; k++)
      x[k] = t[k] * 0.5;
#pragma endscop
  }
  double sum = 0;
#pragma scop
  for (k = 0; k < n; k++)
    sum += x[k];
#pragma endscop
  return sum + k;
}

/* An array of structs: the versions stay in the function. */
static double with_struct(int n, double y[100]) {
  struct pair p[2];
  p[0].a = 2.0;
  p[1].b = 3.0;
  int k;
#pragma scop
  for (k = 0; k < n; k++)
    y[k] = y[k] * p[0].a + p[1].b;
#pragma endscop
  return y[n - 1] + k;
}

/* A parameter that hides a global of the same name. */
static double shadow(int n, double scale, double z[100]) {
  int k;
#pragma scop
  for (k = 0; k < n; k++)
    z[k] = z[k] * scale;
#pragma endscop
  return z[0] + k;
}

int main(void) {
  static double A[6][5], B[6][5], out[6], x[100], y[100], z[100];
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 5; j++)
      B[i][j] = i * 5 + j;
  for (int k = 0; k < 100; k++) {
    x[k] = k;
    y[k] = 100 - k;
    z[k] = k % 7;
  }
  printf("%.3f\n", rows(6, 5, A, B, out));
  printf("%.3f\n", rows(0, 5, A, B, out));
  for (int i = 0; i < 6; i++)
    printf("%.3f ", out[i]);
  printf("\n%.3f\n", twice(90, x));
  printf("%.3f\n", twice(0, x));
  printf("%.3f\n", with_struct(80, y));
  printf("%.3f\n", shadow(50, 3.0, z));
  return 0;
}
