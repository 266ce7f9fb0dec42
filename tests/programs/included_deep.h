/* A region two inclusions deep (included_once.c includes
 * included_outer.h, which includes this): left as it is, with a warning. */
#ifndef INCLUDED_DEEP_H
#define INCLUDED_DEEP_H
static void shift(int n, double B[40])
{
#pragma scop
  for (int i = 1; i < n; i++)
    B[i] = B[i - 1] + B[i];
#pragma endscop
}
#endif
