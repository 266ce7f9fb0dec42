/* Small functions of the file called in a region: their calls become
 * the returned expression, converted as C's calls convert (a double
 * argument of an int parameter is truncated; an int function's double
 * expression too), with the reads their bodies make (`at` reads a row
 * of a 2-d array its caller passes). */
#include <stdio.h>
#include <math.h>
#define N 70
#define M 40

static double scale = 0.5;
static double A[N][M], B[N][M], C[N], D[N];
static int I[N];

static inline double sq(double x) { return x * x; }
static inline int trunc_half(int v) { return v / 2; }
static inline int rounded(double x) { return x + 0.5; }
static inline double at(const double row[M], int j)
{
  double v = row[j];
  int k = j + 1;
  return k < M ? v + row[k] : v;
}
static inline float mix(float a, float b, float t) { float d = b - a; return a + t * d; }
static inline double scaled(double x) { return scale * sq(x); }
static inline long nested(int i) { return trunc_half(trunc_half(i) + i) + 1L; }

void kernel(int n, int m)
{
#pragma scop
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < m; j++)
      B[i][j] = sq(A[i][j]) + at(A[i], j) + mix(A[i][j], 1.0, 0.25);
    C[i] = scaled(A[i][0] + 1.5) + trunc_half(A[i][1] * 7.0) + rounded(A[i][2] * 3.0);
    I[i] = nested(i) + trunc_half(i * 3);
    D[nested(i) % N] += sqrt(sq(C[i]));
  }
#pragma endscop
}

int main(void)
{
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < M; j++)
      A[i][j] = ((i * 7 + j * 13) % 23) / 7.0 - 1.2;
    D[i] = 0;
  }
  kernel(N - 3, M - 1);
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < M; j += 7)
      printf("%.12g ", B[i][j]);
    printf("%.12g %d %.12g\n", C[i], I[i], D[i]);
  }
  return 0;
}
