/* Initializer lists of a region's own arrays: `{0.f}` (Rodinia's lud),
 * nested lists with elements left out, elided braces. The elements a
 * list leaves out are zero; an unsized array has as many rows as its list
 * reaches. A const array's list is its only store. */
#include <stdio.h>
#define BS 4
int main(void)
{
  static float a[40][BS], out[40][BS];
  static int w[40][6];
  static double smooth[40];
  for (int i = 0; i < 40; i++) for (int j = 0; j < BS; j++) a[i][j] = (i * 3 + j) % 7;
#pragma scop
  for (int i = 0; i < 40; i++) {
    float sum[BS] = {0.f};
    int m[2][3] = {{1, 2}, {i, 5, 6}};
    int f[2][3] = {1, 2, 3, 4};
    int u[] = {3, 1, 4, 1, 5};
    int g[][3] = {{1, 2, 3}, {i}};

    for (int k = 0; k <= i % 3; k++)
      for (int j = 0; j < BS; j++)
        sum[j] += a[(i + k) % 40][j];
    for (int j = 0; j < BS; j++)
      out[i][j] = sum[j];
    for (int r = 0; r < 2; r++)
      for (int c = 0; c < 3; c++)
        w[i][r * 3 + c] = m[r][c] + 10 * f[r][c] + 100 * g[r][c] + 1000 * u[(r + c + i) % 5];
  }
#pragma endscop
#pragma scop
  for (int i = 0; i < 40; i++) {
    const double k[3] = {0.25, 0.5, 0.25};
    smooth[i] = k[0] * out[(i + 39) % 40][0] + k[1] * out[i][1] + k[2] * out[(i + 1) % 40][2];
  }
#pragma endscop
  for (int i = 0; i < 40; i++) printf("%g\n", smooth[i]);
  for (int i = 0; i < 40; i++) { for (int j = 0; j < BS; j++) printf("%g ", out[i][j]); for (int j = 0; j < 6; j++) printf("%d ", w[i][j]); printf("\n"); }
  return 0;
}
