/* Math functions get C's prototype conversions in kernels: an int or
 * long long argument of `sqrt`/`floor`/`pow` is converted to double (OpenCL
 * overloads them, and rejects the ambiguous integer calls), a float
 * argument of `sqrt` is computed in double, a double argument of `sqrtf`
 * in float; `long long` data is OpenCL's `long`; a floating-point
 * condition of `?:`, which OpenCL C refuses, is compared with zero. */
#include <stdio.h>
#include <math.h>
#define N 50
static void kern(int n, double A[N], long long L[N], double B[N], float F[N],
                 double D[N], unsigned long long U[N]) {
#pragma scop
  for (int i = 0; i < n; i++) {
    A[i] = sqrt(i) + fabs(i - 7) + exp(F[i] / 16);
    B[i] = floor(L[i]) + pow(i, 2) + ceil(L[i] / 2);
    D[i] = sqrt(F[i]) + sqrtf(D[i]) + F[i] * F[i];
    U[i] = U[i] * 3 + (unsigned long long) floor(sqrt(U[i]));
    B[i] = (F[i] - 1.1f) ? B[i] : -B[i];
  }
#pragma endscop
}
int main(void) {
  static double A[N], B[N], D[N];
  static long long L[N];
  static float F[N];
  static unsigned long long U[N];
  for (int i = 0; i < N; i++) {
    L[i] = i * 3 - 70;
    F[i] = i / 7.0f + 0.1f;
    D[i] = i * 1.1 + 0.123456789;
    U[i] = 4000000000ULL + i * 77;
  }
  kern(N, A, L, B, F, D, U);
  double s = 0, t = 0, u = 0;
  unsigned long long w = 0;
  for (int i = 0; i < N; i++) {
    s += A[i] * (i + 1);
    t += B[i] * (i + 1);
    u += D[i] * (i + 1);
    w = w * 31 + U[i];
  }
  printf("%.17g %.17g %.17g %llu\n", s, t, u, w);
  return 0;
}
