/* Loop iterators of types that wrap around (pet's unsigned2, tobi1): C's
 * arithmetic takes them past the top of their type and back to 0, which
 * the model's mathematical integers cannot (these were E0117). The loops
 * run as written, as one statement each; loops around them stay
 * parallel. Every version prints what the sequential program prints. */
#include <stdio.h>

static double A[256], B[32], D[8][256];

/* 252, 253, 254, 255, then 0 to 5. */
static unsigned char modulo_condition(void) {
  unsigned char k;
#pragma scop
  for (k = 252; (k % 9) <= 5; ++k)
    A[k] = A[k] + 1;
#pragma endscop
  return k;
}

/* 65 is odd: i reaches 16 after wrapping many times. */
static void odd_step(void) {
  unsigned char i;
#pragma scop
  for (i = 0; i != 16; i += 65)
    B[i % 32] = B[i % 32] + i;
#pragma endscop
}

/* A declared iterator that wraps, inside a parallel loop. */
static void rows(int n) {
#pragma scop
  for (int r = 0; r < n; r++)
    for (unsigned char x = 250; x != 4; x += 2)
      D[r][x] = D[r][x] + r + x;
#pragma endscop
}

/* Endless for n > 255 only: at the n it is called with, the loop ends. */
static void bounded(int n) {
#pragma scop
  for (unsigned char k = 0; k < n; k++)
    A[k] = A[k] * 0.5;
#pragma endscop
}

/* Wraps before it ends (240, then 4, 24, ..., 252): the value after the
   loop is no formula's (the model read 260, converted to 4), and the
   elements it reaches are not between the bounds (the device buffer held
   A[240..249] only). */
static int read_after(void) {
  unsigned char k;
  int r;
#pragma scop
  for (k = 240; k < 250; k += 20)
    A[k] = A[k] + 1;
  r = k;
#pragma endscop
  return r;
}

/* A loop kept as one statement (its `break`) whose 64-bit iterator wraps
   below 0 and so ends: 3, 2, 1, 0. */
static void down_past_zero(void) {
#pragma scop
  for (unsigned long k = 3; k < 10; k -= 1) {
    if (A[k] < 0)
      break;
    B[k] = B[k] + A[k];
  }
#pragma endscop
}

int main(void) {
  for (int i = 0; i < 256; i++) {
    A[i] = i % 7;
    for (int r = 0; r < 8; r++)
      D[r][i] = (r * i) % 5;
  }
  for (int i = 0; i < 32; i++)
    B[i] = i;
  unsigned char k = modulo_condition();
  odd_step();
  rows(8);
  bounded(100);
  int after = read_after();
  down_past_zero();
  double s = 0;
  for (int i = 0; i < 256; i++) {
    s += A[i] * (i + 1);
    for (int r = 0; r < 8; r++)
      s += D[r][i] * (r + 1);
  }
  for (int i = 0; i < 32; i++)
    s += B[i] * (i + 3);
  printf("%d %d %.1f\n", k, after, s);
  return 0;
}
