/* Reductions into one element per step of a sequential loop, whose
 * values read the array's other elements (ludcmp's back substitution,
 * `x[i] -= A[i][j] * x[j]`, j > i): each step's launch adds its products
 * into x[i] alone, so it combines them in a tree like a scalar's and a
 * combining kernel adds the sum into x[i], where atomic updates of that
 * one address from every thread serialise on a GPU. A double sum, a long
 * sum (exact either way) and a double minimum (`fmin`), each reading the
 * elements that earlier steps finished. N = 2000: at a few hundred steps
 * the GPU model keeps one thread per sum. Every version must print what
 * the sequential program prints. */
#include <math.h>
#include <stdio.h>

#define N 2000

static double A[N][N], x[N], d[N];
static long c[N];
static int w[N][N];

void solve(int n)
{
#pragma scop
  for (int i = n - 1; i >= 0; i--) {
    for (int j = i + 1; j < n; j++)
      x[i] -= A[i][j] * x[j];
    x[i] = x[i] / A[i][i];
  }
  for (int i = n - 1; i >= 0; i--) {
    for (int j = i + 1; j < n; j++)
      c[i] += (c[j] & 7) + w[i][j];
  }
  for (int i = n - 2; i >= 0; i--) {
    for (int j = i + 1; j < n; j++)
      d[i] = fmin(d[i], A[i][j] + d[j]);
  }
#pragma endscop
}

int main(void)
{
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < N; j++) {
      A[i][j] = (i == j) ? 4.0 + (i % 5) : ((i * 7 + j * 3) % 11) / (11.0 * N);
      w[i][j] = (i * 5 + j) % 9;
    }
    x[i] = 1.0 + (i % 13) / 13.0;
    c[i] = i % 3;
    d[i] = (i == N - 1) ? 0.0 : 1.0e9;
  }
  solve(N);
  double sx = 0.0, sd = 0.0;
  long sc = 0;
  for (int i = 0; i < N; i++) {
    sx += x[i] * (1 + i % 7);
    sd += d[i];
    sc += c[i] % 1000003;
  }
  printf("%.9e %.9e %ld\n", sx, sd, sc);
  printf("%.12e %.12e %.12e %ld\n", x[0], x[N / 2], d[0], c[0]);
  return 0;
}
