/* Pointers without `restrict` may point into the same buffer (issue 16):
 * the region runs in parallel only where the ranges it touches do not
 * overlap, which the generated code checks on entry; an in-place call
 * (`smooth(50, X + 1, X)`, each output read by the next iteration) runs
 * the user's code, and calls on disjoint or merely adjacent ranges run
 * the generated code. */
#include <stdio.h>

static void smooth(int n, double *out, const double *in)
{
#pragma scop
  for (int i = 1; i < n - 1; i++)
    out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3.0;
#pragma endscop
}

int main(void)
{
  static double X[100], Y[100];
  for (int i = 0; i < 100; i++) {
    X[i] = i % 7;
    Y[i] = 0;
  }
  smooth(100, Y, X);
  smooth(50, X + 1, X);
  /* out touches X[61..98], in X[20..59]: disjoint. */
  smooth(40, X + 60, X + 20);
  /* out touches X[41..78], in X[40..79]: they overlap although the
   * pointers' whole extents would not be compared. */
  smooth(40, X + 40, X + 40);
  double s = 0, t = 0;
  for (int i = 0; i < 100; i++) {
    s += X[i] * (i + 1);
    t += Y[i] * (i + 1);
  }
  printf("%.10g %.10g\n", s, t);
  return 0;
}
