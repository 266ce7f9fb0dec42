/* Maximum, minimum and mean of an image: scalar reductions (max, min, +)
 * over a 2-D loop nest, both loops parallel. Each work-group reduces its
 * threads' private values with a tree in local memory; a second kernel
 * combines the work-groups' results. */
#include <pencil.h>
#include <stdio.h>

static void image_stats(int rows, int cols, const float img[pencil_array rows][cols],
                        float stats[pencil_array 3])
{
  float hi = -1e30f;
  float lo = 1e30f;
  float sum = 0.0f;
#pragma pencil independent reduction(max: hi) reduction(min: lo) reduction(+: sum)
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) {
      hi = fmaxf(hi, img[i][j]);
      lo = fminf(lo, img[i][j]);
      sum += img[i][j];
    }
  stats[0] = hi;
  stats[1] = lo;
  stats[2] = sum / (rows * cols);
}

#ifndef ROWS
#define ROWS 1607
#endif
#ifndef COLS
#define COLS 2880
#endif

int main(void)
{
  static float img[ROWS][COLS];
  float stats[3];
  for (int i = 0; i < ROWS; i++)
    for (int j = 0; j < COLS; j++)
      img[i][j] = (float)((i * 37 + j * 101 + (i * j) % 89) % 1000) / 7.0f - 50.0f;
  img[ROWS / 3][COLS / 5] = 999.5f;
  img[ROWS - 1][COLS - 1] = -321.25f;
  image_stats(ROWS, COLS, img, stats);
  printf("max=%.7e min=%.7e mean=%.7e\n", stats[0], stats[1], stats[2]);
  return 0;
}
