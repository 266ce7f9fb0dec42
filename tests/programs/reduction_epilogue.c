/* A scalar statement right after a reduction, in every step of a
 * sequential loop (durbin's `alpha = -(r[k] + sum) / beta`): it runs in
 * the reduction's combining kernel, on its work-item 0 once the sum is
 * there, not in a kernel of one thread launched per step. A float sum, an
 * integer maximum and two reductions before one statement. Every version
 * must print what the sequential program prints. */
#include <stdio.h>

#define N 300

static double a[N], b[N], c[N];
static int v[N], m[N];

void steps(int n)
{
  double s, t;
  int best;
#pragma scop
  for (int k = 1; k < n; k++) {
    s = 0.0;
    for (int i = 0; i < k; i++)
      s += a[i] * b[k - i];
    c[k] = s / (k + 1.0);
    for (int i = 0; i < k; i++)
      a[i] = a[i] + c[k] * 0.001;
  }
  for (int k = 1; k < n; k++) {
    best = -1000000;
    for (int i = 0; i < k; i++)
      best = best > v[i] + k ? best : v[i] + k;
    m[k] = best % 97;
    for (int i = 0; i < k; i++)
      v[i] = v[i] - m[k] % 5;
  }
  for (int k = 1; k < n; k++) {
    s = 0.0;
    t = 0.0;
    for (int i = 0; i < k; i++) {
      s += b[i];
      t += a[i] * 0.5;
    }
    c[k] = c[k] + s - t;
    for (int i = 0; i < k; i++)
      b[i] = b[i] * 0.999;
  }
#pragma endscop
}

int main(void)
{
  double sum = 0;
  long isum = 0;
  for (int i = 0; i < N; i++) {
    a[i] = (i % 17) * 0.25;
    b[i] = ((i * 7) % 11) * 0.5 - 2.0;
    v[i] = (i * 31) % 101 - 50;
  }
  steps(N);
  for (int i = 0; i < N; i++) {
    sum += c[i] * (i % 7 + 1) + a[i] + b[i];
    isum += m[i] * (i % 5 + 1) + v[i];
  }
  printf("%.9e %ld\n", sum, isum);
  return 0;
}
