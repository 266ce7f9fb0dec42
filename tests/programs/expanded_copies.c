/* Privatised arrays with a copy per iteration in device memory
 * (scop::expand): doitgen's `sum`, a nest whose loop counts down (the
 * last values come from r = 0), elements written in some iterations only
 * (the others keep the values from before the region), a caller's local
 * array read after the region, and one array reused by two nests of a
 * region. The arrays are declared at PolyBench's LARGE sizes, which the
 * GPU model is given (--gpu-model-params), and the program runs small
 * ones. `down`'s parameters hide `exit` and `free`, which neither the
 * host code's checks nor its heap arrays may then call. */
#include <stdio.h>
#define NR 150
#define NQ 140
#define NP 160

static double A[NR][NQ][NP], C4[NP][NP], sum[NP];
static double B[NR][NP], t[NP], C[NR][NP], u[NP], D[NR][NP], E[NR][NP], w[NP], x[NP], y[NP];

static void doitgen(int nr, int nq, int np, double A[NR][NQ][NP], double C4[NP][NP], double sum[NP])
{
#pragma scop
  for (int r = 0; r < nr; r++)
    for (int q = 0; q < nq; q++) {
      for (int p = 0; p < np; p++) {
        sum[p] = 0.0;
        for (int s = 0; s < np; s++)
          sum[p] += A[r][q][s] * C4[s][p];
      }
      for (int p = 0; p < np; p++)
        A[r][q][p] = sum[p];
    }
#pragma endscop
}

static void down(int n, int m, double B[NR][NP], double t[NP], double exit, int free)
{
#pragma scop
  for (int r = n - 1; r >= 0; r--) {
    for (int p = 0; p < m; p++)
      t[p] = B[r][p] * exit + r + free;
    for (int p = 0; p < m; p++)
      B[r][p] = t[p] + 0.5 * t[m - 1 - p];
  }
#pragma endscop
}

static void partial(int n, double C[NR][NP], double u[NP])
{
#pragma scop
  for (int r = 0; r < n; r++) {
    for (int p = 0; p <= r && p < NP; p++)
      u[p] = C[r][p] + 1.0;
    for (int p = 0; p <= r && p < NP; p++)
      C[r][p] = u[p] * u[p] - C[r][p];
  }
#pragma endscop
}

static double local_after(int n, int m, double D[NR][NP])
{
  double v[NP];
  for (int p = 0; p < NP; p++)
    v[p] = -p;
#pragma scop
  for (int r = 0; r < n; r++) {
    for (int p = 0; p < m; p++)
      v[p] = D[r][p] * 3.0;
    for (int p = 0; p < m; p++)
      D[r][p] = v[p] - 0.25 * v[m - 1 - p];
  }
#pragma endscop
  double s = 0;
  for (int p = 0; p < NP; p++)
    s += v[p] * (p + 1);
  return s;
}

static void two_nests(int n, int m, double D[NR][NP], double E[NR][NP], double w[NP])
{
#pragma scop
  for (int r = 0; r < n; r++) {
    for (int p = 0; p < m; p++)
      w[p] = D[r][p] + E[r][p];
    for (int p = 0; p < m; p++)
      D[r][p] = w[p] * w[p];
  }
  for (int r = 0; r < n; r++) {
    for (int p = 0; p < m; p++)
      w[p] = E[r][p] - 1.0;
    for (int p = 0; p < m; p++)
      E[r][p] = w[p] + w[m - 1 - p];
  }
#pragma endscop
}

/* Not expanded (the store of the last values would go after the whole
 * nest): another write of the array after the web's in each iteration,
 * and two webs of one array in one nest. */
static void other_writes(int n, int m, double B[NR][NP], double C[NR][NP], double x[NP], double y[NP])
{
#pragma scop
  for (int r = 0; r < n; r++) {
    for (int p = 0; p < m; p++)
      x[p] = B[r][p] + 1.0;
    for (int p = 0; p < m; p++)
      C[r][p] = x[p] * x[m - 1 - p];
    x[r] = -1.0;
  }
  for (int r = 0; r < n; r++) {
    for (int p = 0; p < m; p++)
      y[p] = B[r][p];
    for (int p = 0; p < m; p++)
      C[r][p] += y[p] * y[m - 1 - p];
    for (int p = 0; p < m; p++)
      y[p] = -B[r][p] - r;
    for (int p = 0; p < m; p++)
      C[r][p] += y[p] * y[m - 1 - p];
  }
#pragma endscop
}

int main(void)
{
  int nr = 13, nq = 11, np = 9, n = 12, m = 7;
  for (int i = 0; i < nr; i++)
    for (int j = 0; j < nq; j++)
      for (int k = 0; k < np; k++)
        A[i][j][k] = ((i * j + k) % np) / (double) np;
  for (int i = 0; i < np; i++)
    for (int j = 0; j < np; j++)
      C4[i][j] = ((i * j) % np) / (double) np;
  for (int k = 0; k < NP; k++) {
    sum[k] = -1;
    t[k] = 100 + k;
    u[k] = -7 - k;
    w[k] = 3 * k;
    x[k] = y[k] = 0.5 * k;
  }
  for (int i = 0; i < NR; i++)
    for (int k = 0; k < NP; k++) {
      B[i][k] = i - k;
      C[i][k] = i * 0.5 + k;
      D[i][k] = (i * k) % 5;
      E[i][k] = i + 2 * k;
    }
  doitgen(nr, nq, np, A, C4, sum);
  down(n, m, B, t, 2.0, 1);
  partial(5, C, u);
  double s = local_after(n, m, D);
  two_nests(n, m, D, E, w);
  other_writes(n, m, B, E, x, y);
  double a = 0;
  for (int i = 0; i < nr; i++)
    for (int j = 0; j < nq; j++)
      for (int k = 0; k < np; k++)
        a += A[i][j][k] * (1 + (i + j + k) % 7);
  printf("A %.10f local %.6f\n", a, s);
  for (int k = 0; k < 12; k++)
    printf("sum %.10f t %.3f u %.3f w %.3f x %.3f y %.3f\n", sum[k], t[k], u[k], w[k], x[k], y[k]);
  for (int i = 0; i < 14; i++) {
    for (int k = 0; k < 10; k++)
      printf(" %g %g %g %g", B[i][k], C[i][k], D[i][k], E[i][k]);
    printf("\n");
  }
  return 0;
}
