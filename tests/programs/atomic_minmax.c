/* `atomic_min` and `atomic_max` on image statistics, as PENCIL code for
 * GPUs writes them (issue 15): per-bin darkest and brightest pixel, a
 * global maximum of a float, all updates of one array by one operator,
 * so the pixel loops are parallel (device atomics). In the last nest
 * `atomic_add` and `atomic_max` update the same elements: they do not
 * commute, so that loop keeps its order. The sequential build uses the
 * definitions below. */
#include <stdint.h>
#include <stdio.h>
#include <pencil.h>

static void atomic_min(int *p, int v) { if (v < *p) *p = v; }
static void atomic_max(int *p, int v) { if (v > *p) *p = v; }
static void atomicMax(float *p, float v) { if (v > *p) *p = v; }
static void atomic_add(int *p, int v) { *p += v; }

#define H 47
#define W 67

static void stats(int h, int w, const uint8_t img[H][W], int lo[16], int hi[16], float top[1],
                  int mixed[8]) {
#pragma scop
  for (int b = 0; b < 16; b++) {
    lo[b] = 1000;
    hi[b] = -1000;
  }
  top[0] = -1.0f;
  for (int i = 0; i < h; i++)
    for (int j = 0; j < w; j++) {
      atomic_min(&lo[img[i][j] % 16], img[i][j] - i);
      atomic_max(&hi[img[i][j] % 16], img[i][j] + j);
      atomicMax(&top[0], img[i][j] * 0.5f - (float)(i * j % 7));
    }
  for (int i = 0; i < h; i++)
    for (int j = 0; j < w; j++) {
      atomic_add(&mixed[(i + j) % 8], img[i][j] % 5);
      atomic_max(&mixed[(i * j) % 8], 3 * i);
    }
#pragma endscop
}

int main(void) {
  static uint8_t img[H][W];
  static int lo[16], hi[16], mixed[8];
  static float top[1];
  for (int i = 0; i < H; i++)
    for (int j = 0; j < W; j++) img[i][j] = (uint8_t)(i * 37 + j * j * 5 + (i ^ j));
  stats(H, W, img, lo, hi, top, mixed);
  for (int b = 0; b < 16; b++) printf("%d %d\n", lo[b], hi[b]);
  for (int k = 0; k < 8; k++) printf("%d\n", mixed[k]);
  printf("%.9g\n", top[0]);
  return 0;
}
