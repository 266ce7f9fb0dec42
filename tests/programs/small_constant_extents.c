/* Parallel loops with a few constant values mapped to threads: three
 * colour channels beside a loop of n pixels, and rows 2 to 5 of a
 * recurrence along n. The channels' blocks have as many threads as the
 * loop has values, rounded up to a power of two (32 x 4), not the
 * default 32 x 16 with three quarters of them idle at every launch; the
 * rows are the innermost thread dimension, which keeps a warp's 32
 * (differential seed 60, case 130: 2,520 launches of 512 threads for 2
 * values each, which emulated CUDA could not finish in 30 s). */
#include <stdio.h>
#define N 300
static void filter(int n, double img[3][N], double out[N][3], double B[8][N]) {
#pragma scop
  for (int c = 0; c < 3; c++)
    for (int j = 0; j < n; j++)
      out[j][c] = 0.5 * img[c][j] + c;
  for (int t = 1; t < n; t++)
    for (int l = 2; l <= 5; l++)
      B[l][t] = 0.5 * B[l][t - 1] + out[t][l % 3];
#pragma endscop
}
int main(void) {
  static double img[3][N], out[N][3], B[8][N];
  for (int c = 0; c < 3; c++)
    for (int j = 0; j < N; j++)
      img[c][j] = (double) ((7 * c + 13 * j) % 29) / 29.0;
  for (int l = 0; l < 8; l++)
    for (int j = 0; j < N; j++)
      B[l][j] = (double) ((5 * l + 3 * j) % 17) / 17.0;
  filter(N, img, out, B);
  filter(N / 3, img, out, B);
  double s = 0;
  for (int j = 0; j < N; j++) {
    for (int c = 0; c < 3; c++)
      s += out[j][c] * (c + 1);
    for (int l = 0; l < 8; l++)
      s += B[l][j] * (l + 1);
  }
  printf("%.17g\n", s);
  return 0;
}
