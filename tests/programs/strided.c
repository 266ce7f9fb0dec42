/* Strided subscripts in shared tiles: x[2j] and y[3j + 1] are read by
 * every row of a block, B[i][2j] is read and written with stride 2 (not
 * coalesced), so all three go to shared memory with the stride divided
 * out of the tile (32 places per row, not 63 or 94). */
#include <stdio.h>
#define N 45
#define M 70
static double A[N][M], B[N][2 * M], x[2 * M], y[3 * M + 1];
static void kernel(void) {
  int i, j;
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++) {
      A[i][j] = A[i][j] * x[2 * j] + y[3 * j + 1] * i;
      B[i][2 * j] = B[i][2 * j] * 0.5 + x[2 * j] - j;
    }
#pragma endscop
}
int main(void) {
  for (int j = 0; j < 2 * M; j++) x[j] = (j % 7) - 3;
  for (int j = 0; j < 3 * M + 1; j++) y[j] = (j % 5) + 0.25;
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < M; j++) A[i][j] = (i * j) % 11;
    for (int j = 0; j < 2 * M; j++) B[i][j] = (i + j) % 9;
  }
  kernel();
  double s = 0;
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < M; j++) s += A[i][j] * (i + 2 * j + 1);
    for (int j = 0; j < 2 * M; j++) s += B[i][j] * (j % 13 + 1);
  }
  printf("%.6f\n", s);
  return 0;
}
