/* A separable 5-tap binomial filter on an 8-bit image, as image-processing
 * PENCIL code writes it: uint8_t pixels, a uint16_t intermediate image,
 * the tap loops marked as reductions (`#pragma pencil independent
 * reduction(+: acc)`), integer rounding and clamping back to 8 bits. */
#include <stdint.h>
#include <stdio.h>
#include <pencil.h>

static void blur5(int h, int w, const uint8_t src[pencil_array h][w], uint16_t tmp[pencil_array h][w],
                  uint8_t dst[pencil_array h][w], const int taps[pencil_array 5])
{
  for (int y = 0; y < h; y++)
    for (int x = 2; x < w - 2; x++) {
      int acc = 0;
#pragma pencil independent reduction(+: acc)
      for (int k = 0; k < 5; k++)
        acc += taps[k] * src[y][x + k - 2];
      tmp[y][x] = (uint16_t)acc;
    }
  for (int y = 2; y < h - 2; y++)
    for (int x = 2; x < w - 2; x++) {
      int acc = 0;
#pragma pencil independent reduction (+: acc);
      for (int k = 0; k < 5; k++)
        acc += taps[k] * tmp[y + k - 2][x];
      int v = (acc + 128) >> 8;
      dst[y][x] = (uint8_t)(v > 255 ? 255 : v);
    }
}

#define H 61
#define W 83

int main(void)
{
  static uint8_t src[H][W], dst[H][W];
  static uint16_t tmp[H][W];
  static const int taps[5] = {1, 4, 6, 4, 1};
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      src[y][x] = (uint8_t)((y * 29 + x * x * 3 + (x ^ y)) & 255);
  blur5(H, W, src, tmp, dst, taps);
  unsigned long sum = 0;
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      sum = sum * 31 + dst[y][x];
  printf("%lu %u %u %u\n", sum, dst[2][2], dst[H / 2][W / 2], dst[H - 3][W - 3]);
  return 0;
}
