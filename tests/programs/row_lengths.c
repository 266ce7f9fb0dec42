/* Kernels whose arrays have run-time row lengths are built for the values
 * each region runs with (back::specialise): a product over linearised
 * `restrict` pointers and a stencil over variable-length array parameters,
 * each called with more sets of row lengths than the generated program
 * keeps builds for, repeats included, and sizes that are not multiples of
 * the tile (1, 31, 33, 70). A row length named `min` (PoCL defines a `min`
 * macro) is specialised like the others. */
#include <stdio.h>

#define MAX 80

static void product(int n, int m, int k, float *restrict C, const float *restrict A,
                    const float *restrict B) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      C[i * m + j] = 0.0f;
      for (int l = 0; l < k; l++)
        C[i * m + j] += A[i * k + l] * B[l * m + j];
    }
#pragma endscop
}

static void smooth(int n, int m, double out[n][m], const double in[n][m]) {
#pragma scop
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < m - 1; j++)
      out[i][j] = 0.2 * (in[i][j] + in[i - 1][j] + in[i + 1][j] + in[i][j - 1] + in[i][j + 1]);
#pragma endscop
}

static void rows(int n, int min, float R[n][min]) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < min; j++)
      R[i][j] = R[i][j] * 0.5f + (float) (i - j);
#pragma endscop
}

static float A[MAX * MAX], B[MAX * MAX], C[MAX * MAX];
static double X[MAX * MAX], Y[MAX * MAX];

int main(void) {
  static const int sizes[][3] = {{31, 33, 7}, {70, 1, 33}, {33, 31, 70}, {31, 33, 7}, {1, 70, 31},
                                 {64, 64, 64}, {5, 70, 3}, {70, 33, 1}, {31, 33, 7}};
  for (int s = 0; s < (int) (sizeof sizes / sizeof sizes[0]); s++) {
    int n = sizes[s][0], m = sizes[s][1], k = sizes[s][2];
    for (int i = 0; i < MAX * MAX; i++) {
      A[i] = (float) ((i * 7 + s) % 13) / 8.0f;
      B[i] = (float) ((i * 3 + 2 * s) % 11) / 4.0f;
      C[i] = -1.0f;
      X[i] = (double) ((i * 5 + s) % 17);
      Y[i] = -1.0;
    }
    product(n, m, k, C, A, B);
    smooth(n, m, (double (*)[m]) Y, (const double (*)[m]) X);
    rows(k, n, (float (*)[n]) B);
    double sum = 0.0;
    for (int i = 0; i < MAX * MAX; i++)
      sum += (double) C[i] * (i % 7 + 1) + Y[i] * (i % 5 + 1) + (double) B[i] * (i % 3);
    printf("%d %d %d: %.6f\n", n, m, k, sum);
  }
  return 0;
}
