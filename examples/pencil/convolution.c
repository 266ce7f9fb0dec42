/* General 2-D convolution (PENCIL paper, Fig. 2): prod, row and col are
 * declared in the (i, j) body, so they are private to each (i, j); the
 * assumptions bound the filter to 15x15. */
#include <pencil.h>
#include <stdio.h>

static void convolution(int rows, int cols, int kr, int kc,
                        const float src[pencil_array rows][cols],
                        const float kern_mat[pencil_array kr][kc],
                        float conv[pencil_array rows][cols])
{
  __pencil_assume(kr <= 15 && kc <= 15);
  __pencil_assume(kr >= 1 && kc >= 1);
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) {
      float prod = 0.0f;
      for (int e = 0; e < kr; e++)
        for (int r = 0; r < kc; r++) {
          int row = clamp(i + e - kr / 2, 0, rows - 1);
          int col = clamp(j + r - kc / 2, 0, cols - 1);
          prod += src[row][col] * kern_mat[e][r];
        }
      conv[i][j] = prod;
    }
}

int main(void)
{
  enum { ROWS = 256, COLS = 320, KR = 7, KC = 5 };
  static float src[ROWS][COLS], conv[ROWS][COLS], k[KR][KC];
  for (int i = 0; i < ROWS; i++)
    for (int j = 0; j < COLS; j++)
      src[i][j] = (float)((i * 13 + j * 7) % 17) / 16.0f;
  for (int e = 0; e < KR; e++)
    for (int r = 0; r < KC; r++)
      k[e][r] = (float)(e + r + 1) / 64.0f;
  convolution(ROWS, COLS, KR, KC, src, k, conv);
  double check = 0;
  for (int i = 0; i < ROWS; i++)
    for (int j = 0; j < COLS; j++)
      check += conv[i][j] * ((i + j) % 7);
  printf("check=%.2f\n", check);
  return 0;
}
