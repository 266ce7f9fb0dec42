/* Six pointers without `restrict`, three written: twelve pairs may
 * overlap, which the generated code checks on entry from a table of
 * pairs over the six ranges (`pencilc_disjoint`) rather than twelve
 * comparisons written out. Calls on disjoint arrays run the generated
 * code; a call where only the last pair overlaps (r writes what c reads
 * next) and one where only the first does (p writes over a) run the
 * user's code, whose chains of reads after writes the parallel code
 * would break. */
#include <stdio.h>

static void blend(int n, double *p, double *q, double *r, const double *a,
                  const double *b, const double *c)
{
#pragma scop
  for (int i = 0; i < n; i++) {
    p[i + 1] = a[i] + b[i] * 0.5;
    q[i] = b[i] * 2 - a[i];
    r[i + 1] = c[i] + c[i + 1] * 0.25;
  }
#pragma endscop
}

int main(void)
{
  static double X[200], P[64], Q[64], R[64], A[64], B[64], C[64];
  for (int i = 0; i < 64; i++) {
    A[i] = i % 5;
    B[i] = (i * 3) % 7;
    C[i] = (i * 11) % 13;
    P[i] = Q[i] = R[i] = 0;
  }
  for (int i = 0; i < 200; i++)
    X[i] = (i * 7) % 9;
  blend(60, P, Q, R, A, B, C);
  /* r (X[101..140]) overlaps c (X[100..140]) alone. */
  blend(40, X, X + 50, X + 100, A, B, X + 100);
  /* p (X[1..30]) overlaps a (X[0..29]) alone. */
  blend(30, X, Q, R, X, B, C);
  /* Disjoint again. */
  blend(20, X + 150, X + 175, P, A, B, C);
  double s = 0;
  for (int i = 0; i < 200; i++)
    s += X[i] * (i + 1);
  for (int i = 0; i < 64; i++)
    s += (P[i] + 2 * Q[i] + 3 * R[i]) * (i + 1);
  printf("%.10g\n", s);
  return 0;
}
