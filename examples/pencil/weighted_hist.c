/* A weighted histogram: a float array reduction `hist[bin] += w` with a
 * data-dependent bin. Float atomics would make the result depend on the
 * order of the updates; the 64 bins are few enough for each thread to keep
 * a private copy, combined per work-group by a tree in local memory and
 * across work-groups by a second kernel. */
#include <pencil.h>
#include <stdio.h>

#ifndef BINS
#define BINS 64
#endif

static void weighted_histogram(int n, const unsigned char v[pencil_array n],
                               const float w[pencil_array n], float hist[pencil_array BINS])
{
  for (int b = 0; b < BINS; b++)
    hist[b] = 0.0f;
#pragma pencil independent reduction(+: hist)
  for (int i = 0; i < n; i++)
    hist[v[i] % BINS] += w[i];
}

#ifndef N
#define N 100000
#endif

int main(void)
{
  static unsigned char v[N];
  static float w[N];
  static float hist[BINS];
  for (int i = 0; i < N; i++) {
    v[i] = (unsigned char)((i * 7 + (i / 13) * 3) % 251);
    w[i] = (float)(i % 10 + 1) / 10.0f;
  }
  weighted_histogram(N, v, w, hist);
  for (int b = 0; b < BINS; b += BINS / 7)
    printf("hist[%d]=%.7e\n", b, hist[b]);
  double total = 0;
  for (int b = 0; b < BINS; b++)
    total += hist[b];
  printf("total=%.7e\n", total);
  return 0;
}
