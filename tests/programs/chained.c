/* Chained assignments, as PolyBench's deriche writes its coefficients
 * (`a1 = a5 = k;`): each link is a statement of its own, innermost first,
 * and the value passed on is what the inner left-hand side holds (here
 * converted to int, then to float). Also chains through array elements
 * (with a float-to-int conversion in the middle), and a compound
 * assignment whose right-hand side is a parenthesized assignment. */
#include <stdio.h>
#define N 16
static void kernel(int n, float k, float A[N], float B[N], int C[N], float out[1]) {
  int i;
  float a1, a5;
  int c1;
  float c2;
#pragma scop
  a1 = a5 = k * 2.0f;
  c2 = c1 = k * 3.0f;
  for (i = 0; i < n; i++)
    A[i] = B[i] = C[i] = i * 7 % 5 + a1 * c2;
  for (i = 0; i < n; i++)
    B[i] += (A[i] = A[i] * a5);
  out[0] = a1 + a5 + c1 + c2;
#pragma endscop
}
int main(void) {
  static float A[N], B[N];
  static int C[N];
  float out[1];
  kernel(N - 1, 1.25f, A, B, C, out);
  double s = 0;
  for (int i = 0; i < N; i++)
    s += A[i] * (i + 1) + B[i] * (2 * i + 1) + C[i];
  printf("%.9g %.9g\n", s, out[0]);
  return 0;
}
