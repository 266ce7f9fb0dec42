/* Dot product and sum of squares: scalar float reductions over a 1-D loop
 * (`reduction(+: dot, sq)`). On a device each thread sums its own
 * elements, each work-group combines its threads' sums with a tree in
 * local memory, and a second kernel adds the work-groups' results: the
 * result is the same on every run, and differs from the sequential sum
 * only by the order of the additions (compared with a tolerance; the
 * tree is in fact the more accurate: the sequential float sum drifts once
 * it is large). */
#include <pencil.h>
#include <stdio.h>

static void dot(int n, const float x[pencil_array n], const float y[pencil_array n],
                float out[pencil_array 2])
{
  float d = 0.0f;
  float sq = 0.0f;
#pragma pencil independent reduction(+: d, sq)
  for (int i = 0; i < n; i++) {
    d += x[i] * y[i];
    sq += x[i] * x[i];
  }
  out[0] = d;
  out[1] = sq;
}

#ifndef N
#define N 100000
#endif

int main(void)
{
  static float x[N], y[N];
  float out[2];
  for (int i = 0; i < N; i++) {
    x[i] = (float)(i % 17) / 17.0f;
    y[i] = (float)(i % 5 + 1) / 5.0f;
  }
  dot(N, x, y, out);
  printf("dot=%.7e sumsq=%.7e\n", out[0], out[1]);
  return 0;
}
