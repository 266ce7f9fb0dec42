/* Included twice by included_regions.c, first with WEIGHTED 0, then with
 * WEIGHTED 1 (a template by the preprocessor, as PENCIL image code
 * writes its variants): each inclusion has its own region, and the macros
 * change the code inside it. The histogram of each group of 8 values is
 * a reduction of one row, `reduction(+: hist[g])`; the bin of a value is
 * computed from the data. */
#if WEIGHTED
static void histogram_weighted(int n, int bins, const float v[N], const float w[N], float hist[GROUPS][BINS])
#else
static void histogram(int n, int bins, const float v[N], float hist[GROUPS][BINS])
#endif
{
#pragma scop
  __pencil_assume(n >= 1 && n <= N);
  __pencil_assume(bins >= 1 && bins <= BINS);
  for (int g = 0; g <= (n - 1) / 8; g++)
    for (int b = 0; b < bins; b++)
      hist[g][b] = 0.0f;
#pragma pencil independent
  for (int g = 0; g <= (n - 1) / 8; g++) {
#pragma pencil independent reduction(+: hist[g])
    for (int i = 8 * g; i <= 8 * g + 7 && i < n; i++) {
      int b = (int)floorf(v[i] * bins);
      int c = b < 0 ? 0 : (b >= bins ? bins - 1 : b);
#if WEIGHTED
      hist[g][c] += w[i];
#else
      hist[g][c] += 1.0f;
#endif
    }
  }
#pragma endscop
}
