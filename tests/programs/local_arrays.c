/* DSL-style code with arrays declared inside loop bodies (issue 15, item
 * 3): each iteration gets its own array, so there is no loop-carried
 * dependence through it and the loops are parallel; in a kernel each
 * thread has its own (private) copy. A 3-tap filter per pixel with a
 * per-pixel window, a per-row scratch buffer of constant size, and one of
 * run-time size `m`, which kernels declare with the constant bound the
 * region assumes (OpenCL C has no variable-length arrays), and one of
 * run-time size `r` with no bound, which each thread keeps in its own
 * slice of a device buffer. */
#include <stdint.h>
#include <stdio.h>
#include <pencil.h>

#define H 40
#define W 50
#define K 8

/* Fixed extents (not C99's `[static const restrict h]`), so that the CUDA
 * output also builds as C++. */
static void filter(int h, int w, int m, int r, const float in[H][W], float out[H][W], float rows[H][K],
                   float pre[H][10], float sum3[H]) {
#pragma scop
  __pencil_assume(m <= 12);
  for (int i = 1; i < h - 1; i++)
    for (int j = 1; j < w - 1; j++) {
      float win[3][3];
      for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) win[a][b] = in[i + a - 1][j + b - 1];
      float s = 0.0f;
      for (int a = 0; a < 3; a++) s += win[a][0] * 0.25f + win[a][1] * 0.5f + win[a][2] * 0.25f;
      out[i][j] = s / 3.0f;
    }
  for (int i = 0; i < h; i++) {
    float accum[K];
    for (int k = 0; k < K; k++) accum[k] = in[i][k] * 0.5f;
    for (int k = 1; k < K; k++) accum[k] += accum[k - 1];
    for (int k = 0; k < K; k++) rows[i][k] = accum[k] + accum[K - 1 - k];
  }
  for (int i = 0; i < h; i++) {
    float prefix[m][2];
    for (int k = 0; k < m; k++) {
      prefix[k][0] = in[i][k] + (k > 0 ? prefix[k - 1][0] : 0.0f);
      prefix[k][1] = in[i][k] * in[i][k];
    }
    for (int k = 0; k < m; k++) pre[i][k] = prefix[m - 1 - k][0] - prefix[k][1];
  }
  for (int i = 0; i < h; i++) {
    float tmp[r][3];
    for (int k = 0; k < r; k++)
      for (int c = 0; c < 3; c++) tmp[k][c] = in[i][k + c] * (c + 1);
    float s = 0.0f;
    for (int k = 0; k < r; k++) s += tmp[r - 1 - k][k % 3];
    sum3[i] = s;
  }
#pragma endscop
}

/* Two arrays of one name and two run-time sizes, one after the other's
   block has ended: two variables (the second is renamed, issue 32; this
   was E0111, as their slices would have shared one device buffer). */
static void two_sizes(int n, int m, float A[H][W]) {
#pragma scop
  for (int i = 0; i < n; i++) {
    {
      float t[m];
      for (int j = 0; j < m; j++) t[j] = A[i][j] * 2.0f;
      A[i][0] = t[1] + t[m - 1];
    }
    for (int j = 0; j < m; j++) {
      float t[n];
      for (int k = 0; k < n; k++) t[k] = A[k][j];
      A[i][j] = A[i][j] + t[n - 1 - i] * 0.5f;
    }
  }
#pragma endscop
}

int main(void) {
  static float in[H][W], out[H][W], rows[H][K], pre[H][10], sum3[H];
  for (int i = 0; i < H; i++)
    for (int j = 0; j < W; j++) in[i][j] = (float)((i * 17 + j * 5) % 23) * 0.125f;
  filter(H, W, 10, 6, in, out, rows, pre, sum3);
  for (int i = 0; i < H; i++)
    for (int j = 0; j < W; j += 7) printf("%.6f\n", out[i][j]);
  for (int i = 0; i < H; i++)
    for (int k = 0; k < K; k++) printf("%.6f\n", rows[i][k]);
  for (int i = 0; i < H; i++)
    for (int k = 0; k < 10; k++) printf("%.6f\n", pre[i][k]);
  for (int i = 0; i < H; i++) printf("%.6f\n", sum3[i]);
  two_sizes(H, W, in);
  for (int i = 0; i < H; i++)
    for (int j = 0; j < W; j += 3) printf("%.6f\n", in[i][j]);
  return 0;
}
