/* y = a*x + y on the device: one region, one parallel loop. */
#include <stdio.h>
#include "params.h"

static void saxpy(int n, float a, float x[N], float y[N]) {
#pragma scop
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
#pragma endscop
}

int main(void) {
  static float x[N], y[N];
  for (int i = 0; i < N; i++) {
    x[i] = (float)(i % 7);
    y[i] = (float)(i % 5);
  }
  saxpy(N, SCALE, x, y);
  double sum = 0;
  for (int i = 0; i < N; i++)
    sum += y[i] * (i % 3 + 1);
  printf("saxpy n=%d checksum=%.1f\n", N, sum);
  return 0;
}
