/* Basic image histogram (PENCIL paper, Table 1: `independent` required).
 * The update hist[img[i][j]] += 1 has a data-dependent subscript, so it is
 * a may-write to all of hist; the reduction clause makes it an atomic
 * update and lets both loops run in parallel. */
#include <pencil.h>
#include <stdio.h>

static void histogram(int rows, int cols, int bins,
                      const unsigned char img[pencil_array rows][cols],
                      int hist[pencil_array bins])
{
  for (int b = 0; b < bins; b++)
    hist[b] = 0;
#pragma pencil independent reduction(+: hist)
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++)
      hist[img[i][j]] += 1;
}

int main(void)
{
  enum { ROWS = 480, COLS = 640, BINS = 256 };
  static unsigned char img[ROWS][COLS];
  static int hist[BINS];
  for (int i = 0; i < ROWS; i++)
    for (int j = 0; j < COLS; j++)
      img[i][j] = (unsigned char)((i * 7 + j * 13 + (i * j) % 31) % 256);
  histogram(ROWS, COLS, BINS, img, hist);
  long check = 0;
  for (int b = 0; b < BINS; b++)
    check += (long)hist[b] * (b + 1);
  printf("hist[0]=%d hist[255]=%d check=%ld\n", hist[0], hist[255], check);
  return 0;
}
