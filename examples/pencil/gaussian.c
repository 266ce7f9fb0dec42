/* Separable gaussian smoothing in two passes through a local array
 * (after the PENCIL specification's example): temp is declared in the
 * region, so it is never copied between host and device. */
#include <pencil.h>
#include <stdio.h>

static void gaussian(int rows, int cols, int kn, const float kx[pencil_array kn],
                     const float ky[pencil_array kn],
                     const float src[pencil_array rows][cols],
                     float dst[pencil_array rows][cols])
{
  __pencil_assume(kn <= 15 && kn >= 1);
  float temp[rows][cols];
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) {
      float s = 0.0f;
      for (int k = 0; k < kn; k++)
        s += kx[k] * src[i][clamp(j + k - kn / 2, 0, cols - 1)];
      temp[i][j] = s;
    }
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) {
      float s = 0.0f;
      for (int k = 0; k < kn; k++)
        s += ky[k] * temp[clamp(i + k - kn / 2, 0, rows - 1)][j];
      dst[i][j] = s;
    }
}

int main(void)
{
  enum { R = 200, C = 256, K = 5 };
  static float src[R][C], dst[R][C];
  float kx[K] = { 1 / 16.f, 4 / 16.f, 6 / 16.f, 4 / 16.f, 1 / 16.f };
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      src[i][j] = (float)((i * 7 + j * 3) % 29);
  gaussian(R, C, K, kx, kx, src, dst);
  double check = 0;
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      check += dst[i][j] * ((i + j) % 5);
  printf("check=%.1f\n", check);
  return 0;
}
