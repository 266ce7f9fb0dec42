/* A sum in each step of a sequential loop whose launch also writes an
 * array (d), and a statement of one thread after it that reads d and the
 * sum (durbin's shape). OpenCL runs that statement in the combining
 * kernel, after the launch; CUDA's combining code runs in the launch's
 * last block, whose plain loads need not see what other blocks of the
 * launch wrote, so there it keeps a launch of its own. Every version
 * must print what the sequential program prints. */
#include <stdio.h>

#define N 1000

static double a[N], b[N], c[N], d[N];

void steps(int n)
{
  double s;
#pragma scop
  for (int k = 1; k < n; k++) {
    s = 0.0;
    for (int i = 0; i < k; i++) {
      s += a[i] * b[k - i];
      d[i] = a[i] + k;
    }
    c[k] = s / (k + 1.0) + d[k - 1] * 1e-3;
    for (int i = 0; i < k; i++)
      a[i] = a[i] + c[k] * 0.001;
  }
#pragma endscop
}

int main(void)
{
  for (int i = 0; i < N; i++) {
    a[i] = (i % 17) / 17.0 + 1.0;
    b[i] = (i % 5) / 5.0;
  }
  steps(N);
  double sc = 0.0, sd = 0.0;
  for (int k = 0; k < N; k++) {
    sc += c[k] * (1 + k % 3);
    sd += d[k];
  }
  printf("%.9e %.9e %.12e\n", sc, sd, a[N - 1]);
  return 0;
}
