/* A histogram with atomics, as PENCIL code for GPUs writes it (issue 15,
 * item 2): `atomic_add(&hist[pixel], 1)` updates one element, and updates
 * of one array commute, so the pixel loops are parallel (device atomics).
 * The sequential build uses the definitions below. Also `atomic_inc` on a
 * scalar counter, `atomic_sub` on 64-bit elements, and a read of the
 * histogram after the updates (which must see all of them). */
#include <stdint.h>
#include <stdio.h>
#include <pencil.h>

static void atomic_add(unsigned *p, unsigned v) { *p += v; }
static void atomic_inc(int *p) { *p += 1; }
static void atomic_sub(long *p, long v) { *p -= v; }

#define H 53
#define W 61

/* Fixed extents (not C99's `[static const restrict h]`), so that the CUDA
 * output also builds as C++. */
static void histogram(int h, int w, const uint8_t img[H][W], unsigned hist[256], long weight[16], unsigned cum[256],
                      int *bright) {
  int count = 0;
#pragma scop
  for (int b = 0; b < 256; b++)
    hist[b] = 0;
  for (int i = 0; i < h; i++)
    for (int j = 0; j < w; j++) {
      atomic_add(&hist[img[i][j]], 1);
      if (img[i][j] > 200)
        atomic_inc(&count);
      atomic_sub(&weight[img[i][j] % 16], img[i][j] * 1000000000L);
    }
  for (int b = 0; b < 256; b++)
    cum[b] = hist[b] * 3 + hist[255 - b];
#pragma endscop
  *bright = count;
}

int main(void) {
  static uint8_t img[H][W];
  static unsigned hist[256], cum[256];
  static long weight[16];
  int bright = 0;
  for (int i = 0; i < H; i++)
    for (int j = 0; j < W; j++) img[i][j] = (uint8_t)(i * 31 + j * j * 7 + (i ^ j));
  for (int k = 0; k < 16; k++) weight[k] = k;
  histogram(H, W, img, hist, weight, cum, &bright);
  for (int b = 0; b < 256; b++) printf("%u %u\n", hist[b], cum[b]);
  for (int k = 0; k < 16; k++) printf("%ld\n", weight[k]);
  printf("%d\n", bright);
  return 0;
}
