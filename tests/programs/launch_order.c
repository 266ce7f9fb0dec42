/* Two kernels whose order matters: the second reads what the first wrote,
 * reversed, so they cannot be fused into one launch. The test runs it with
 * `--debug-fault misorder:full`, which swaps the two launches in the
 * device version's host code as isl's AST generator could print them:
 * the read back must find it (tests/programs.rs). */
#include <stdio.h>

#define N 1000

double A[N], B[N];

void reverse_after_scale(int n)
{
#pragma scop
  for (int i = 0; i < n; i++)
    A[i] = 2.0 * i;
  for (int i = 0; i < n; i++)
    B[i] = A[n - 1 - i] + 1.0;
#pragma endscop
}

int main(void)
{
  reverse_after_scale(N);
  double s = 0;
  for (int i = 0; i < N; i++)
    s += B[i] * (i + 1);
  printf("%.1f\n", s);
  return 0;
}
