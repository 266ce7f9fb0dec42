/* Enumeration constants as PENCIL image code uses them (issue 15): scale
 * factors and shifts of a fixed-point colour conversion, an enumerator as
 * an array extent and a loop bound, implicit values (one more than the
 * previous), values computed from other enumerators, a negative one, an
 * enum declared inside the function, and a local variable that hides an
 * enumerator of the same name. Constant extents: the CUDA host file is
 * C++, which has no variable-length array parameters. */
#include <stdio.h>
#include <stdint.h>

enum channel { BLUE, GREEN, RED, CHANNELS };
enum { SHIFT = 14, ROUND = 1 << (SHIFT - 1), WR = 4899, WG = 9617, WB = (1 << SHIFT) - WR - WG };
enum { BIAS = -3 };

#define ROWS 37
#define COLS 45

static void to_gray(int rows, int cols, const uint8_t src[ROWS][COLS][CHANNELS], uint8_t dst[ROWS][COLS],
                    int out[ROWS][CHANNELS])
{
  enum { LOCAL_STEP = 2 };
#pragma scop
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++)
      dst[i][j] = (src[i][j][RED] * WR + src[i][j][GREEN] * WG + src[i][j][BLUE] * WB + ROUND) >> SHIFT;
  for (int i = 0; i < rows; i++)
    for (int c = BLUE; c < CHANNELS; c += 1) {
      int WR = c * LOCAL_STEP; /* hides the enumerator */
      out[i][c] = src[i][c % cols][c] + WR + BIAS;
    }
#pragma endscop
}

int main(void)
{
  static uint8_t src[ROWS][COLS][CHANNELS], dst[ROWS][COLS];
  static int out[ROWS][CHANNELS];
  for (int i = 0; i < ROWS; i++)
    for (int j = 0; j < COLS; j++)
      for (int c = 0; c < CHANNELS; c++)
        src[i][j][c] = (uint8_t)((i * 37 + j * 11 + c * 101) % 256);
  to_gray(ROWS, COLS, src, dst, out);
  for (int i = 0; i < ROWS; i++) {
    for (int j = 0; j < COLS; j += 3)
      printf("%d ", dst[i][j]);
    printf("| %d %d %d\n", out[i][0], out[i][1], out[i][2]);
  }
  return 0;
}
