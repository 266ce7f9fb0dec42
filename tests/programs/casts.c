/* Pointer-to-array casts of flat buffers, as stencil DSLs write them
 * (issue 16, item 2): inside the region and just before it, with
 * run-time and constant extents, a pointer to rows as a parameter, and a
 * buffer read both through its cast and with a linearised subscript of
 * the same shape. Each is a multi-dimensional array of the cast's
 * shape, with parallel kernels. */
#include <stdio.h>
#include <stdlib.h>

/* A 3-d 7-point stencil: casts inside the region. */
static void heat(int nx, int ny, int nz, float *u_vec, float *restrict v_vec)
{
#pragma scop
  float (*restrict u)[ny][nz] = (float (*)[ny][nz]) u_vec;
  float (*restrict v)[ny][nz] = (float (*)[ny][nz]) v_vec;
  for (int i = 1; i < nx - 1; i++)
    for (int j = 1; j < ny - 1; j++)
      for (int k = 1; k < nz - 1; k++)
        v[i][j][k] = 0.4f * u[i][j][k] + 0.1f * (u[i - 1][j][k] + u[i + 1][j][k] + u[i][j - 1][k]
                     + u[i][j + 1][k] + u[i][j][k - 1] + u[i][j][k + 1]) - 0.05f * u_vec[(i * ny + j) * nz + k];
#pragma endscop
}

/* A cast before the region, with a constant row length. */
static void transpose(int n, const double *in_vec, double *out_vec)
{
  const double (*restrict in)[64] = (const double (*)[64]) in_vec;
  double (*restrict out)[64] = (double (*)[64]) out_vec;
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      out[j][i] = in[i][j] * 2.0;
#pragma endscop
}

/* A pointer to rows as a parameter. */
static void scale_rows(int rows, int cols, float (*restrict mat)[cols], const float *restrict w)
{
#pragma scop
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++)
      mat[i][j] = mat[i][j] * w[i] + w[j % 3];
#pragma endscop
}

int main(void)
{
  int nx = 20, ny = 23, nz = 37;
  float *u = (float *) malloc(sizeof(float) * nx * ny * nz);
  float *v = (float *) malloc(sizeof(float) * nx * ny * nz);
  for (int i = 0; i < nx * ny * nz; i++) {
    u[i] = (float) ((i * 7) % 13);
    v[i] = -1.0f;
  }
  heat(nx, ny, nz, u, v);
  double s = 0;
  for (int i = 0; i < nx * ny * nz; i++) s += v[i] * (i % 17);
  printf("heat %.4f\n", s);

  static double a[64 * 64], b[64 * 64];
  for (int i = 0; i < 64 * 64; i++) { a[i] = i % 29; b[i] = 0; }
  transpose(50, a, b);
  s = 0;
  for (int i = 0; i < 64 * 64; i++) s += b[i] * (i % 31);
  printf("transpose %.4f\n", s);

  float rows[13][17], w[17];
  for (int i = 0; i < 13; i++)
    for (int j = 0; j < 17; j++) rows[i][j] = (float) ((i * 3 + j) % 5);
  for (int j = 0; j < 17; j++) w[j] = 1.0f + j * 0.125f;
  scale_rows(11, 17, rows + 1, w);
  s = 0;
  for (int i = 0; i < 13; i++)
    for (int j = 0; j < 17; j++) s += rows[i][j] * (i + j);
  printf("rows %.6f\n", s);
  free(u); free(v);
  return 0;
}
