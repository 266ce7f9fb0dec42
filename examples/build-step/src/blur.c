/* A five-point integer blur: a 2-D parallel kernel. */
#include <stdio.h>
#include "blur.h"

static void blur(int in[H][W], int out[H][W]) {
#pragma scop
  for (int i = 1; i < H - 1; i++)
    for (int j = 1; j < W - 1; j++)
      out[i][j] = (in[i - 1][j] + in[i + 1][j] + in[i][j - 1] + in[i][j + 1] + 4 * in[i][j]) / 8;
#pragma endscop
}

int main(void) {
  static int in[H][W], out[H][W];
  for (int i = 0; i < H; i++)
    for (int j = 0; j < W; j++)
      in[i][j] = (i * 31 + j * 17) % 256;
  blur(in, out);
  long sum = 0;
  for (int i = 0; i < H; i++)
    for (int j = 0; j < W; j++)
      sum += (long)out[i][j] * (i + 2 * j + 1);
  printf("blur %dx%d checksum=%ld\n", W, H, sum);
  return 0;
}
