/* Image processing as PENCIL users write it (issue 15, item 1): <stdint.h>
 * pixels, `unsigned char`, `signed char`, `short`, `unsigned short`,
 * `_Bool`, `size_t`, `ptrdiff_t` and the 64-bit fixed-width types, as array
 * elements and scalars. C's integer promotions and wrap-around must hold
 * in the kernels exactly: `uint8_t` arithmetic is done in `int` and cast
 * back (wrapping modulo 256), `unsigned` arithmetic wraps, a store to a
 * `_Bool` keeps 0 or 1, and a narrow cast in a subscript is not affine. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <pencil.h>

/* A user's typedef: `(pixel)(x)` is a cast, which tree-sitter reads as a
 * call unless the front end knows `pixel` names a type. */
typedef uint8_t pixel;

#define H 37
#define W 45

static void brighten(int h, int w, const uint8_t src[static const restrict h][w],
                     uint8_t dst[static const restrict h][w], int8_t delta[static const restrict h][w],
                     uint16_t wide[static const restrict h][w], short diff[static const restrict h][w],
                     bool mask[static const restrict h][w], unsigned char gain, signed char bias) {
  for (int i = 0; i < h; i++)
    for (int j = 0; j < w; j++) {
      /* `src * gain + 7` is an int; the cast wraps modulo 256. */
      dst[i][j] = (uint8_t)(src[i][j] * gain + 7);
      /* int8_t wraps to [-128, 127] (two's complement on every target). */
      delta[i][j] = (int8_t)(src[i][j] - 100 + bias);
      /* unsigned short arithmetic promotes to int: no wrap before the cast. */
      wide[i][j] = (uint16_t)(src[i][j] * src[i][j] * 3u);
      diff[i][j] = (short)(src[i][j] - dst[i][j]);
      /* A store to a _Bool is 0 or 1, never the value stored. */
      mask[i][j] = src[i][j] & 6;
    }
}

static void sums(int h, int w, const uint8_t src[static const restrict h][w],
                 const bool mask[static const restrict h][w], uint32_t rowsum[static const restrict h],
                 uint64_t hash[static const restrict h], int64_t signed_sum[static const restrict h],
                 size_t count[static const restrict h], ptrdiff_t offset[static const restrict h]) {
  for (int i = 0; i < h; i++) {
    rowsum[i] = 4294967000u;
    hash[i] = 14695981039346656037ull;
    signed_sum[i] = -5000000000ll;
    count[i] = 0;
    offset[i] = -i;
    for (int j = 0; j < w; j++) {
      /* Wraps past 2^32; the cast to `pixel` wraps modulo 256. */
      rowsum[i] += src[i][j] * 7u + (pixel)(src[i][j] * 5);
      /* Wraps past 2^64. */
      hash[i] = (hash[i] ^ src[i][j]) * 1099511628211ull;
      signed_sum[i] += (int64_t)src[i][j] * 3000000;
      count[i] += mask[i][j];
      offset[i] -= (ptrdiff_t)mask[i][j] * 3;
    }
  }
}

int main(void) {
  static uint8_t src[H][W], dst[H][W];
  static int8_t delta[H][W];
  static uint16_t wide[H][W];
  static short diff[H][W];
  static bool mask[H][W];
  static uint32_t rowsum[H];
  static uint64_t hash[H];
  static int64_t signed_sum[H];
  static size_t count[H];
  static ptrdiff_t offset[H];
  for (int i = 0; i < H; i++)
    for (int j = 0; j < W; j++) src[i][j] = (uint8_t)(i * 7 + j * 13 + i * j);
  brighten(H, W, src, dst, delta, wide, diff, mask, 3, -20);
  sums(H, W, src, mask, rowsum, hash, signed_sum, count, offset);
  unsigned long t = 0;
  for (int i = 0; i < H; i++)
    for (int j = 0; j < W; j++)
      t = t * 31 + dst[i][j] + 7u * (unsigned)delta[i][j] + 11u * wide[i][j] + 13u * (unsigned)diff[i][j] +
          17u * mask[i][j];
  printf("%lu\n", t);
  for (int i = 0; i < H; i++)
    printf("%u %llu %lld %zu %td\n", rowsum[i], (unsigned long long)hash[i], (long long)signed_sum[i], count[i],
           offset[i]);
  return 0;
}
