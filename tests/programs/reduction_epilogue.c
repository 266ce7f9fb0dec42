/* A scalar statement right after a reduction, in every step of a
 * sequential loop (durbin's `alpha = -(r[k] + sum) / beta`): it runs in
 * the reduction's combining kernel, on its work-item 0 once the sum is
 * there, not in a kernel of one thread launched per step. A float sum, an
 * integer maximum and two reductions before one statement; and, as in
 * gramschmidt, a statement that runs in every step after a reduction that
 * runs only where its loop is not empty (`m >= 1`): in the combining
 * kernel where the reduction runs, on its own elsewhere (the region runs
 * with m = 0 first). Every version must print what the sequential program
 * prints. N = 1000: at a few hundred steps the GPU model prices one thread
 * per sum below a reduction's two launches per step, and keeps it. */
#include <stdio.h>

#define N 1000

static double a[N], b[N], c[N];
static int v[N], m[N];
static double A[300][30], R[30];

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

void columns(int n, int rows)
{
  double nrm;
#pragma scop
  for (int k = 0; k < n; k++) {
    nrm = 0.0;
    for (int i = 0; i < rows; i++)
      nrm += A[i][k] * A[i][k];
    R[k] = nrm * 0.5 + k + 1.0;
    for (int i = 0; i < rows; i++)
      for (int j = k + 1; j < n; j++)
        A[i][j] = A[i][j] - A[i][k] / R[k] * 0.01;
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
  for (int i = 0; i < 300; i++)
    for (int j = 0; j < 30; j++)
      A[i][j] = ((i * 13 + j * 7) % 23) * 0.125 - 1.0;
  columns(30, 0);
  for (int k = 0; k < 30; k++)
    sum += R[k] * (k % 3 + 1);
  columns(30, 300);
  for (int k = 0; k < 30; k++)
    sum += R[k] * (k % 5 + 1) + A[k][k];
  for (int i = 0; i < N; i++) {
    sum += c[i] * (i % 7 + 1) + a[i] + b[i];
    isum += m[i] * (i % 5 + 1) + v[i];
  }
  printf("%.9e %ld\n", sum, isum);
  return 0;
}
