/* Dilate with a structuring element (PENCIL paper, Fig. 5): the `if` on
 * se[e][r] is data-dependent, so it and its body are one statement and the
 * write to sup is a may-write; sup is declared in the loop body, so each
 * (i, j) has its own, and the i and j loops stay parallel. */
#include <pencil.h>
#include <stdio.h>

static void dilate(int rows, int cols, int sr, int sc,
                   const unsigned char img[pencil_array rows][cols],
                   const unsigned char se[pencil_array sr][sc],
                   unsigned char out[pencil_array rows][cols])
{
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) {
      int sup = 0;
      for (int e = 0; e < sr; e++)
        for (int r = 0; r < sc; r++) {
          int cand_row = clamp(i + e - sr / 2, 0, rows - 1);
          int cand_col = clamp(j + r - sc / 2, 0, cols - 1);
          if (se[e][r] != 0)
            sup = max(sup, img[cand_row][cand_col]);
        }
      out[i][j] = (unsigned char)sup;
    }
}

int main(void)
{
  enum { ROWS = 300, COLS = 400, SR = 5, SC = 5 };
  static unsigned char img[ROWS][COLS], out[ROWS][COLS], se[SR][SC];
  for (int i = 0; i < ROWS; i++)
    for (int j = 0; j < COLS; j++)
      img[i][j] = (unsigned char)((i * 31 + j * 17 + i * j) % 251);
  for (int e = 0; e < SR; e++)
    for (int r = 0; r < SC; r++)
      se[e][r] = (unsigned char)((e + r) % 2);
  dilate(ROWS, COLS, SR, SC, img, se, out);
  long check = 0;
  for (int i = 0; i < ROWS; i++)
    for (int j = 0; j < COLS; j++)
      check += (long)out[i][j] * ((i + 3 * j) % 101);
  printf("check=%ld\n", check);
  return 0;
}
