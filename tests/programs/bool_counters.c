/* Loops counted by a `_Bool`: `b += 2` stores 1, as every assignment to
 * a `_Bool` stores whether the value is non-zero. A `while` loop whose
 * counter is one, and `for` loops over one (of the function, declared
 * by the loop, through a typedef), run as C runs them. */
#include <stdio.h>

typedef _Bool flag;
int A[8];

void f(int n)
{
  _Bool b;
  flag c;
#pragma scop
  b = 0;
  while (b < 1) { A[b] += n; b += 2; }
  A[2] = b;
  for (b = 0; A[3] < n; b += 2) A[3] += 1;
  A[4] = b;
  for (_Bool e = 0; e < 1; e += 2) A[e + 5] += n;
  for (c = 1; c != 0; c -= 1) A[c + 5] += 1;
  for (flag d = 0; d <= 0; d++) A[d + 6] += 7;
#pragma endscop
  printf("%d %d\n", b, c);
}

int main(void)
{
  f(2);
  f(5);
  for (int t = 0; t < 8; t++)
    printf("%d\n", A[t]);
  return 0;
}
