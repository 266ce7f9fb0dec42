/* Loops that the model keeps as one statement (a `break` of their own, a
 * data-dependent bound) over variables declared outside the region leave
 * C's final value in them, also mixed with affine loops over the same
 * variable, in both orders. pencilc's output used to leave the value the
 * variable had before the region. */
#include <stdio.h>
static double A[100], B[4] = {1.0, 9.5, 3.0, 4.0};
static int first_above(int n, double t) {
  int i;
#pragma scop
  for (i = 0; i < n; i++) {
    if (A[i] > t)
      break;
    A[i] = A[i] + 1.0;
  }
#pragma endscop
  return i;
}
static int affine_then_search(int n) {
  int i = -5, k = 0;
#pragma scop
  for (i = 0; i < n; i++)
    A[i] = A[i] * 0.5;
  for (i = 0; i < n; i++) {
    if (A[i] > 20.0)
      break;
  }
  for (k = 0; k < (int)B[1]; k++)
    A[k] += 1.0;
#pragma endscop
  return i * 1000 + k;
}
static int search_then_affine(int n) {
  int i = 7;
#pragma scop
  for (i = 0; i < n; i++) {
    if (A[i] > 2.0)
      break;
  }
  for (i = 2; i < n; i += 3)
    A[i] = A[i] + 0.25;
#pragma endscop
  return i;
}
int main(void) {
  for (int k = 0; k < 100; k++)
    A[k] = k;
  int a = first_above(90, 50.0);
  int b = first_above(40, 500.0);
  int c = affine_then_search(80);
  int d = search_then_affine(60);
  double s = 0;
  for (int k = 0; k < 100; k++)
    s += A[k] * (k + 1);
  printf("%d %d %d %d %.4f\n", a, b, c, d, s);
  return 0;
}
