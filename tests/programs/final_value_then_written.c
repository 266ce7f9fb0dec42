/* An iterator read after its loop, where a statement between may assign
 * it (`if (n > 5) i = 2;`): the read is of that assignment or of the
 * loop's final value, and the substitution of the final value stops at
 * the statement that may write it (the assignment became one to an
 * expression before: E0104 on valid C), and so does a loop whose body
 * writes it (a loop's initialiser, which runs first, still reads the
 * final value). */
#include <stdio.h>
static void f(int n, double A[100], double B[4])
{
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[i] = i;
  if (n > 5)
    i = 2;
  B[0] = i;
#pragma endscop
}
/* A loop over another iterator that reads and then writes it. */
static void g(int n, double A[100], double B[4])
{
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[i] = i;
  for (int j = 0; j < 3; j++) {
    B[j] = i;
    i = j;
  }
  A[99] = i;
#pragma endscop
}

int main(void)
{
  static double A[100], B[4];
  f(10, A, B);
  printf("%g %g\n", B[0], A[3]);
  f(3, A, B);
  printf("%g %g\n", B[0], A[2]);
  g(10, A, B);
  printf("%g %g %g %g\n", B[0], B[1], B[2], A[99]);
  return 0;
}
