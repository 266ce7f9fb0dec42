/* C names that are isl keywords (isl spells them `mod_`, `min_`, ...):
 * in bounds, conditions and statements, the generated code must name the
 * user's variables again. */
#include <stdio.h>
static void f(int mod, int exists, int and, int min, double A[100], double B[100]) {
  int i;
#pragma scop
  for (i = 0; i < mod; i++)
    A[i] = A[i] + exists * i + and;
  for (i = min; i < mod + min && i < 100; i++)
    if (i % 3 != exists)
      B[i] = B[i] * 2 + min;
#pragma endscop
  printf("i after the region: %d\n", i);
}
int main(void) {
  static double A[100], B[100];
  for (int i = 0; i < 100; i++) { A[i] = i; B[i] = 100 - i; }
  f(37, 2, 5, 11, A, B);
  f(0, 1, 3, 99, A, B);
  double s = 0;
  for (int i = 0; i < 100; i++) s += A[i] * (i + 1) + B[i] * (i % 7);
  printf("%.1f\n", s);
  return 0;
}
