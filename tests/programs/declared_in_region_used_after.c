/* Names that a region declares at its top and the code after it uses:
 * their scope is the rest of the function's block, which the versions
 * of the region (each in a block of its own) would end. */
#include <stdio.h>

#define N 50

static double sums(int n, double A[N]) {
#pragma scop
  int i;
  double t = 0;
  for (i = 0; i < n; i++)
    t += A[i];
#pragma endscop
  return t + i;
}

static int scaled(int n, double A[N]) {
  int k = 2;
#pragma scop
  int last = -1;
  for (int i = 0; i < n; i++) {
    A[i] = A[i] * k;
    last = i;
  }
#pragma endscop
  {
    int k = last;
    return k + 1;
  }
}

/* A later region reads it: the first keeps its code, the second is
 * compiled with `t` as a value from before it. */
static void two_regions(int n, double A[N], double B[N]) {
#pragma scop
  int t = n / 2;
  for (int i = 0; i < n; i++)
    A[i] += t;
#pragma endscop
#pragma scop
  for (int i = 0; i < n; i++)
    B[i] = A[i] * t;
#pragma endscop
}

int main(void) {
  double B[N];
  double A[N];
  for (int i = 0; i < N; i++)
    A[i] = (i * 7) % 9;
  printf("%.1f\n", sums(N, A));
  printf("%d\n", scaled(N - 3, A));
  two_regions(N - 7, A, B);
  for (int i = 0; i < N; i++)
    printf("%.1f\n", A[i]);
  for (int i = 0; i < N - 7; i++)
    printf("%.1f\n", B[i]);
  return 0;
}
