/* A header with `#pragma once` and a region, included twice by
 * included_once.c: the second inclusion is skipped by the preprocessor,
 * and must stay skipped once pencilc pastes the first. */
#pragma once

static void scale_rows(int n, double A[40][40], double s)
{
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      A[i][j] = A[i][j] * s + (double)(i - j);
#pragma endscop
}
