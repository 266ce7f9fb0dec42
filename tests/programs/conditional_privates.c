/* Scalars that each iteration of a loop sets before it reads them, and then
 * changes under conditions on the data (`best = -1; for (i ...) if (A[r][i]
 * > t) best = i;`): every row has its own copy, so the rows run on threads
 * (`deps::privatise`: a may-write keeps the value before it, which must be
 * its row's own). `reset` leaves its last values to the caller, `rowmax`
 * keeps a running maximum (in order under `--reductions exact`), `whiles`
 * counts in a `while` loop, `twonests` reuses one scalar in two nests.
 * `carried` (never reset), `halfreset` (reset on one branch only) and
 * `readfirst` (read before the reset) carry values from row to row and
 * keep their rows in order. Each runs at three sizes, empty loops too. */
#include <stdio.h>
#define M 70
#define N 40
static double A[M][N];
static int out[M], out2[M], out3[M];
static double val[M];
/* 1: not reset per row: carries across rows */
void carried(int m, int n, double A[M][N], int out[M], double t, int *fin) {
  int best = -5;
#pragma scop
  for (int r = 0; r < m; r++) {
    for (int i = 0; i < n; i++)
      if (A[r][i] > t) best = i + r;
    out[r] = best;
  }
#pragma endscop
  *fin = best;
}
/* 2: reset per row, live out after the region */
void reset(int m, int n, double A[M][N], int out[M], double val[M], double t, int *fin, double *fv) {
  int best = -3; double v = -4.0;
#pragma scop
  for (int r = 0; r < m; r++) {
    best = -1; v = -2.0;
    for (int i = 0; i < n; i++)
      if (A[r][i] > t) { best = i; v = A[r][i] * 2.0; }
    out[r] = best;
    val[r] = v;
  }
#pragma endscop
  *fin = best; *fv = v;
}
/* 3: running max read in the condition (exact reductions keep it in order) */
void rowmax(int m, int n, double A[M][N], double val[M], int out[M]) {
  double mx; int at;
#pragma scop
  for (int r = 0; r < m; r++) {
    mx = A[r][0]; at = 0;
    for (int i = 1; i < n; i++)
      if (A[r][i] > mx) { mx = A[r][i]; at = i; }
    val[r] = mx; out[r] = at;
  }
#pragma endscop
}
/* 4: while loop in the compound */
void whiles(int m, int n, double A[M][N], int out[M]) {
  int k;
#pragma scop
  for (int r = 0; r < m; r++) {
    k = 0;
    while (k < n && A[r][k] < 50.0) k++;
    out[r] = k;
  }
#pragma endscop
}
/* 5: count and a second conditional, two webs of one scalar in two nests */
void twonests(int m, int n, double A[M][N], int out[M], int out2[M], double t) {
  int c;
#pragma scop
  for (int r = 0; r < m; r++) {
    c = 0;
    for (int i = 0; i < n; i++)
      if (A[r][i] > t) c = c + 1;
    out[r] = c;
  }
  for (int r = 0; r < m; r++) {
    c = 100;
    for (int i = 0; i < n; i++)
      if (A[r][i] < t) c = c - 1; else c = c + 2;
    out2[r] = c;
  }
#pragma endscop
}
/* 6: written only under the condition at the row start (must-write missing on one branch) */
void halfreset(int m, int n, double A[M][N], int out[M], double t) {
  int b = 7;
#pragma scop
  for (int r = 0; r < m; r++) {
    if (A[r][0] > t) b = 0;
    for (int i = 0; i < n; i++)
      if (A[r][i] > t) b = b + i;
    out[r] = b;
  }
#pragma endscop
}
/* 7: read before the reset in the same row */
void readfirst(int m, int n, double A[M][N], int out[M], int out2[M], double t) {
  int b = 3;
#pragma scop
  for (int r = 0; r < m; r++) {
    out2[r] = b;
    b = r;
    for (int i = 0; i < n; i++)
      if (A[r][i] > t) b = i;
    out[r] = b;
  }
#pragma endscop
}
int main(void) {
  for (int r = 0; r < M; r++) for (int i = 0; i < N; i++) A[r][i] = (double)((r * 37 + i * 11) % 101);
  int fin; double fv; long s;
  int sizes[3][2] = {{M, N}, {M, 0}, {0, N}};
  for (int z = 0; z < 3; z++) {
    int m = sizes[z][0], n = sizes[z][1];
    for (int r = 0; r < M; r++) { out[r] = out2[r] = out3[r] = -9; val[r] = -9; }
    carried(m, n, A, out, 90.0, &fin);
    s = 0; for (int r = 0; r < M; r++) s += out[r] * (r % 7 + 1);
    printf("carried %ld %d\n", s, fin);
    reset(m, n, A, out, val, 90.0, &fin, &fv);
    s = 0; double sv = 0; for (int r = 0; r < M; r++) { s += out[r] * (r % 7 + 1); sv += val[r]; }
    printf("reset %ld %f %d %f\n", s, sv, fin, fv);
    if (n > 0) {
      rowmax(m, n, A, val, out);
      s = 0; sv = 0; for (int r = 0; r < M; r++) { s += out[r] * (r % 7 + 1); sv += val[r]; }
      printf("rowmax %ld %f\n", s, sv);
    }
    whiles(m, n, A, out);
    s = 0; for (int r = 0; r < M; r++) s += out[r] * (r % 7 + 1);
    printf("whiles %ld\n", s);
    twonests(m, n, A, out, out2, 60.0);
    s = 0; for (int r = 0; r < M; r++) s += out[r] * (r % 7 + 1) + out2[r] * (r % 5);
    printf("twonests %ld\n", s);
    halfreset(m, n, A, out, 60.0);
    s = 0; for (int r = 0; r < M; r++) s += out[r] * (r % 7 + 1);
    printf("halfreset %ld\n", s);
    readfirst(m, n, A, out, out2, 60.0);
    s = 0; for (int r = 0; r < M; r++) s += out[r] * (r % 7 + 1) + out2[r] * (r % 5);
    printf("readfirst %ld\n", s);
  }
  return 0;
}
