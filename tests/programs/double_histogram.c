/* A `reduction(+)` clause on a double array too large for a private copy
 * per thread: its updates stay atomic, the hardware's own double atomic
 * add from compute capability 6.0 on (a compare-and-swap loop on older
 * GPUs). Weights are multiples of 0.5: every order of the additions gives
 * the same sums, so every version must print what the sequential program
 * prints. */
#include <stdio.h>

#define N 100000
#define B 4096

static double h[B], w[N];
static int idx[N];

void hist(int n)
{
#pragma scop
#pragma pencil independent reduction(+: h)
  for (int i = 0; i < n; i++)
    h[idx[i]] += w[i];
#pragma endscop
}

int main(void)
{
  for (int i = 0; i < N; i++) {
    idx[i] = (i * 7) % B;
    w[i] = (i % 10) * 0.5;
  }
  hist(N);
  double s = 0;
  for (int b = 0; b < B; b++)
    s += h[b] * (b % 3);
  printf("%.6f %.6f %.6f\n", s, h[0], h[B - 1]);
  return 0;
}
