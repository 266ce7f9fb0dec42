/* Colour conversion RGB -> grey and YCbCr-style chroma, static-affine;
 * the output's old contents are killed, so it is not copied in. */
#include <pencil.h>
#include <stdio.h>

static void rgb_to_ycc(int rows, int cols, const unsigned char rgb[pencil_array rows][cols][3],
                       unsigned char ycc[pencil_array rows][cols][3])
{
  __pencil_kill(ycc);
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) {
      ycc[i][j][0] = (unsigned char)((77 * rgb[i][j][0] + 150 * rgb[i][j][1] + 29 * rgb[i][j][2]) >> 8);
      ycc[i][j][1] = (unsigned char)(((-43 * rgb[i][j][0] - 85 * rgb[i][j][1] + 128 * rgb[i][j][2]) >> 8) + 128);
      ycc[i][j][2] = (unsigned char)(((128 * rgb[i][j][0] - 107 * rgb[i][j][1] - 21 * rgb[i][j][2]) >> 8) + 128);
    }
}

int main(void)
{
  enum { R = 240, C = 320 };
  static unsigned char rgb[R][C][3], ycc[R][C][3];
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      for (int c = 0; c < 3; c++)
        rgb[i][j][c] = (unsigned char)((i * 3 + j * 5 + c * 101) % 256);
  rgb_to_ycc(R, C, rgb, ycc);
  long check = 0;
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      for (int c = 0; c < 3; c++)
        check += (long)ycc[i][j][c] * ((i + j + c) % 7 + 1);
  printf("check=%ld\n", check);
  return 0;
}
