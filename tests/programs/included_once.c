/* Regions in headers: a `#pragma once` header included twice (pasted
 * once; the second `#include` dropped as the preprocessor would skip it),
 * and a region two inclusions deep, which stays as it is. */
#include <stdio.h>
#include "included_once.h"
#include "included_outer.h"
#include "included_once.h"

int main(void)
{
  static double A[40][40], B[40];
  for (int i = 0; i < 40; i++) {
    B[i] = i * 0.5;
    for (int j = 0; j < 40; j++)
      A[i][j] = (i * 3 + j) % 7;
  }
  scale_rows(37, A, 0.5);
  shift(33, B);
  for (int i = 0; i < 40; i++)
    printf("%g %g %g\n", A[i][i], A[i][39 - i], B[i]);
  return 0;
}
