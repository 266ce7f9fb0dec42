/* Regions in a header that the file includes, twice, under different
 * macros (see included_regions.h): pencilc compiles each inclusion's
 * region and pastes the header there. */
#include <math.h>
#include <stdio.h>
#include <pencil.h>

#define N 203
#define BINS 13
#define GROUPS ((N + 7) / 8)

#define WEIGHTED 0
#include "included_regions.h"
#undef WEIGHTED
#define WEIGHTED 1
#include "included_regions.h"
#undef WEIGHTED

int main(void)
{
  static float v[N], w[N], h1[GROUPS][BINS], h2[GROUPS][BINS];
  for (int i = 0; i < N; i++) {
    v[i] = (float)((i * 37) % 101) / 100.0f - 0.05f;
    w[i] = (float)(i % 7) * 0.25f;
  }
  histogram(N, BINS, v, h1);
  histogram_weighted(N - 5, BINS - 2, v, w, h2);
  for (int g = 0; g < GROUPS; g++) {
    for (int b = 0; b < BINS; b++)
      printf(" %g/%g", h1[g][b], h2[g][b]);
    printf("\n");
  }
  return 0;
}
