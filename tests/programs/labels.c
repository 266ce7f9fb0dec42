/* A statement label in a region (issue 33: pet and PPCG ignore labels;
 * pencilc rejected them, E0105): a label that no `goto` names is only a
 * name; `g`'s own label and goto, outside the region, stay as written. */
#include <stdio.h>
static void f(int n, double a[100]) {
#pragma scop
  for (int i = 0; i < n; i++) {
  L1:
    a[i] = a[i] * 2 + i;
  }
#pragma endscop
}
static int g(int n) {
  int k = 0;
again:
  k++;
  if (k < n) goto again;
  return k;
}
int main(void) {
  static double a[100];
  for (int i = 0; i < 100; i++) a[i] = i % 3;
  f(90, a);
  double s = 0;
  for (int i = 0; i < 100; i++) s += a[i] * (i + 1);
  printf("%g %d\n", s, g(3));
  return 0;
}
