/* Structs that are one object, not arrays of structs, declared outside
 * the region (issue 33: pet's struct1, struct10, struct11, struct7): a
 * local, a parameter passed by value, a global, nested members. The model
 * holds each as an array of its members; host code copies the object by
 * its address. Every version must print what the sequential program
 * prints. */
#include <stdio.h>

#define N 300

struct coef {
  double a;
  double b;
};

struct cplx {
  double re;
  double im;
};

struct pair {
  struct cplx u;
  struct cplx v;
};

struct stats {
  double lo;
  double hi;
  double sum;
};

static struct stats g;

/* Coefficients by value: read only. */
static void affine(int n, struct coef k, double A[N], double B[N]) {
#pragma scop
  for (int i = 0; i < n; i++)
    B[i] = k.a * A[i] + k.b;
#pragma endscop
}

/* A parameter written in the region, read after it. */
static double scaled(int n, struct coef k, double A[N]) {
#pragma scop
  k.a = k.a * 2;
  for (int i = 0; i < n; i++)
    A[i] = A[i] * k.a;
  k.b = A[0] + A[n - 1];
#pragma endscop
  return k.a + k.b;
}

/* A local struct with nested members, written and read. */
static double nested(int n, double A[N], double B[N]) {
  struct pair p;
  p.u.re = 1.5;
  p.u.im = -0.5;
  p.v.im = 0;
#pragma scop
  p.v.re = p.u.re + p.u.im;
  for (int i = 0; i < n; i++)
    B[i] = A[i] * p.v.re - p.u.im;
  p.v.im = B[n / 2];
#pragma endscop
  return p.v.re + p.v.im + p.u.re;
}

/* A global struct: the first and last elements and a sum in a loop. */
static void summary(int n, double A[N]) {
#pragma scop
  g.lo = A[0];
  g.hi = A[n - 1];
  g.sum = 0;
  for (int i = 0; i < n; i++)
    g.sum += A[i];
#pragma endscop
}

static double A[N], B[N];

static double check(void) {
  double s = 0;
  for (int i = 0; i < N; i++)
    s += (A[i] + 2 * B[i]) * (i % 7 + 1);
  return s;
}

int main(void) {
  for (int i = 0; i < N; i++) {
    A[i] = (double)(i % 13) / 4 - 1;
    B[i] = 0;
  }
  struct coef k = {0.5, 2.0};
  affine(N, k, A, B);
  printf("affine %.6f %.3f %.3f\n", check(), k.a, k.b);
  double r = scaled(N - 1, k, A);
  printf("scaled %.6f %.6f %.3f\n", r, check(), k.a);
  r = nested(N, A, B);
  printf("nested %.6f %.6f\n", r, check());
  summary(N, A);
  printf("summary %.6f %.6f %.6f\n", g.lo, g.hi, g.sum);
  return 0;
}
