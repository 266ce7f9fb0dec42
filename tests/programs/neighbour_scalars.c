/* Scalars that choose a neighbour, as Rodinia's hotspot3D writes them:
 * `w = (x == 0) ? c : c - 1;` and `tIn[w]`, in a flat 3-d grid; also a
 * 2-d array read through a chosen row (`B[r][j]` with `r = i == 0 ? i :
 * i - 1`) and a choice in a stored element's subscript (`A[k]` with `k =
 * i > 3 ? i : 3 - i`, where the store stays as written). Every read
 * becomes one of two elements the model can name, and the nest a 3-d
 * kernel. */
#include <stdio.h>

static void step(int nx, int ny, int nz, const float *tIn, float *tOut, const float *pIn)
{
  int c, w, e, n, s, b, t;
#pragma scop
  for (int z = 0; z < nz; z++)
    for (int y = 0; y < ny; y++)
      for (int x = 0; x < nx; x++) {
        c = x + y * nx + z * nx * ny;
        w = (x == 0) ? c : c - 1;
        e = (x == nx - 1) ? c : c + 1;
        n = (y == 0) ? c : c - nx;
        s = (y == ny - 1) ? c : c + nx;
        b = (z == 0) ? c : c - nx * ny;
        t = (z == nz - 1) ? c : c + nx * ny;
        tOut[c] = 0.5f * tIn[c] + 0.1f * (tIn[n] + tIn[s] + tIn[e] + tIn[w]) + 0.05f * (tIn[t] + tIn[b]) + pIn[c];
      }
#pragma endscop
}

static void rows(int m, float B[16][16], float C[16][16], float A[32])
{
#pragma scop
  for (int i = 0; i < m; i++)
    for (int j = 0; j < m; j++) {
      int r = i == 0 ? i : i - 1;
      C[i][j] = B[r][j] + B[i][j];
    }
  for (int i = 0; i < m; i++) {
    int k = i > 3 ? i : 3 - i + 16;
    A[k] = i;
  }
#pragma endscop
}

int main(void)
{
  enum { NX = 20, NY = 12, NZ = 6 };
  static float tin[NX * NY * NZ], tout[NX * NY * NZ], p[NX * NY * NZ];
  static float B[16][16], C[16][16], A[32];
  for (int i = 0; i < NX * NY * NZ; i++) {
    tin[i] = (i * 7) % 13;
    p[i] = (i % 5) * 0.25f;
  }
  for (int i = 0; i < 16; i++)
    for (int j = 0; j < 16; j++)
      B[i][j] = (i * 3 + j) % 7;
  step(NX, NY, NZ, tin, tout, p);
  rows(16, B, C, A);
  double sum = 0;
  for (int i = 0; i < NX * NY * NZ; i++)
    sum += tout[i] * (i % 17 + 1);
  for (int i = 0; i < 16; i++)
    for (int j = 0; j < 16; j++)
      sum += C[i][j] * (i + 2 * j + 1);
  for (int i = 0; i < 32; i++)
    sum += A[i] * (i + 1);
  printf("%.8g\n", sum);
  return 0;
}
