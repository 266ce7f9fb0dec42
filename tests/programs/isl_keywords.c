/* C names that are isl keywords (isl spells them `mod_`, `min_`, ...):
 * in bounds, conditions and statements, the generated code must name the
 * user's variables again. isl compares its keywords without case and has
 * `infinity`, `floord` and `ceild` too: `INFINITY`, `Max` and `floord`
 * stopped pencilc with an internal error (issue 32). */
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
static void g(int INFINITY, int floord, double A[100]) {
  int Max;
#pragma scop
  for (Max = 0; Max < INFINITY; Max++)
    A[Max] = A[Max] * 0.5 + floord + (Max < floord ? Max : floord);
#pragma endscop
  printf("Max after the region: %d\n", Max);
}
int main(void) {
  static double A[100], B[100];
  for (int i = 0; i < 100; i++) { A[i] = i; B[i] = 100 - i; }
  f(37, 2, 5, 11, A, B);
  f(0, 1, 3, 99, A, B);
  g(60, 7, A);
  double s = 0;
  for (int i = 0; i < 100; i++) s += A[i] * (i + 1) + B[i] * (i % 7);
  printf("%.1f\n", s);
  return 0;
}
