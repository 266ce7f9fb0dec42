/* Accumulations with a parallel loop of their own, split in partial
 * results (scop::partials): gramschmidt's products (the partials reused
 * by every iteration of `k`, too many for one each), a matrix-vector
 * product written as a chain, a difference over a loop that counts down,
 * a product, an integer sum, a triangular loop whose rows have fewer
 * terms than lanes, a scalar with a copy per row, a loop beside another
 * statement (not split), a forward substitution whose terms read other
 * elements of the variable, a loop of step 3 whose iterator the caller
 * reads after the region, and an unsigned iterator. Every value is a small multiple of a
 * power of two, so any order of the terms gives the sequential result
 * exactly. The arrays are declared at sizes at which the GPU model splits
 * gramschmidt's (--gpu-model-params) and the program runs small ones. */
#include <stdio.h>
#define M 1000
#define N 1200

static double A[M][N], R[N][N], Q[M][N];
static double B[300][300], x[300], y[300], z[300], p[300], t[300], o[300], v[300];
static long c[300], D[300][300];

static void gramschmidt(int m, int n, double A[M][N], double R[N][N], double Q[M][N])
{
#pragma scop
  for (int k = 0; k < n; k++) {
    for (int i = 0; i < m; i++)
      Q[i][k] = A[i][k] * 0.5;
    for (int j = k + 1; j < n; j++) {
      R[k][j] = 0.0;
      for (int i = 0; i < m; i++)
        R[k][j] += Q[i][k] * A[i][j];
      for (int i = 0; i < m; i++)
        A[i][j] = A[i][j] - Q[i][k] * (R[k][j] > 10.0 ? 0.25 : 0.5);
    }
  }
#pragma endscop
}

static void forms(int n, double B[300][300], double x[300], double y[300], double z[300],
                  double p[300], long c[300], long D[300][300])
{
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      y[i] = y[i] + B[i][j] * x[j];
  for (int i = 0; i < n; i++)
    for (int j = n - 1; j >= 0; j--)
      z[i] -= B[j][i] * 2;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < 40; j++)
      p[i] *= 1.0 + (B[i][j] > 2.0 ? 1.0 : 0.0);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      c[i] += D[j][i] * (j + 1);
#pragma endscop
}

static void shapes(int n, double B[300][300], double t[300], double o[300], double v[300])
{
  double s;
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = i; j < n; j++)
      t[i] += B[i][j];
  for (int i = 0; i < n; i++) {
    s = 0.0;
    for (int j = 0; j < n; j++)
      s += B[j][i] * B[i][j];
    o[i] = s * 0.5;
  }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      v[i] += B[i][j];
      B[i][j] = B[i][j] + 0.25;
    }
#pragma endscop
}

static int steps(int n, double B[300][300], double x[300], double y[300], double z[300])
{
  int j = -5;
#pragma scop
  for (int i = 0; i < n; i++) {
    x[i] = B[i][i];
    for (int k = 0; k < i; k++)
      x[i] -= B[i][k] * x[k] * 0.125;
  }
  for (int i = 0; i < n; i++)
    for (j = 1; j < n; j += 3)
      y[i] += B[j][i] * 0.5;
  for (int i = 0; i < n; i++)
    for (unsigned u = 0; u < (unsigned) n; u++)
      z[i] += B[i][u] * u;
#pragma endscop
  return j;
}

/* Parameters named like the compiler's own variables, and a sum of
 * negative zeros, which stays -0.0. */
static void names(int n, int q, int r, long D[300][300], long c[300], double B[300][300], double o[300])
{
#pragma scop
  for (int a = 0; a < q; a++)
    c[a] = c[a] + r;
  for (int a = 0; a < n; a++)
    for (int j = 0; j < n; j++)
      c[a] += D[a][j];
  for (int a = 0; a < n; a++)
    for (int j = 0; j < n; j++)
      o[a] += -(B[a][j] * 0.0);
#pragma endscop
}

int main(void)
{
  int m = 50, n = 37, k = 45;
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      A[i][j] = ((i * 3 + j * 5) % 9) * 0.25;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      R[i][j] = -1;
  for (int i = 0; i < 300; i++) {
    for (int j = 0; j < 300; j++) {
      B[i][j] = ((i * 7 + j * 3) % 11) * 0.5;
      D[i][j] = (i * j) % 13 - 6;
    }
    x[i] = (i % 5) * 0.25;
    y[i] = i;
    z[i] = -i;
    p[i] = 1.0 + (i % 3);
    c[i] = 1000 * i;
    t[i] = 0.5 * i;
    o[i] = -3;
    v[i] = i % 4;
  }
  gramschmidt(m, n, A, R, Q);
  forms(k, B, x, y, z, p, c, D);
  forms(3, B, x, y, z, p, c, D);
  shapes(k, B, t, o, v);
  shapes(2, B, t, o, v);
  int j1 = steps(k, B, x, y, z);
  int j2 = steps(1, B, x, y, z);
  printf("j %d %d\n", j1, j2);
  for (int i = 0; i < 300; i++)
    o[i] = -0.0;
  names(k, 7, 2, D, c, B, o);
  double a = 0, r = 0;
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      a += A[i][j] * (1 + (i + j) % 7);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      r += R[i][j] * (1 + (i * j) % 5);
  printf("A %.6f R %.6f\n", a, r);
  printf("o %.1f %.1f\n", o[0], o[k - 1]);
  for (int i = 0; i < 48; i++)
    printf("%d x %.6f y %.4f z %.4f p %.4f c %ld t %.4f o %.4f v %.4f\n", i, x[i], y[i], z[i], p[i], c[i], t[i], o[i], v[i]);
  return 0;
}
