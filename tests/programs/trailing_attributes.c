/* GNU attributes after declarators, as Rodinia's lud and nw declare
 * their tiles: C compilers accept them, and so does pencilc (a syntax
 * error before). The tile is each iteration's own; the attribute says
 * nothing the generated code needs. */
#include <stdio.h>

#define BS 16

static double scale __attribute__((unused)) = 0.5;

static void tiles(int n, double a[64][BS * BS], double out[64])
{
#pragma scop
  for (int b = 0; b < n; b++) {
    double t[BS * BS] __attribute__ ((aligned (64)));
    for (int i = 0; i < BS * BS; i++)
      t[i] = a[b][i] * scale;
    double s __attribute__((unused)) = 0;
    for (int i = 0; i < BS * BS; i++)
      s += t[i] * (i % 3);
    out[b] = s;
  }
#pragma endscop
}

int main(void)
{
  static double a[64][BS * BS], out[64];
  for (int b = 0; b < 64; b++)
    for (int i = 0; i < BS * BS; i++)
      a[b][i] = (b * 7 + i) % 11;
  tiles(64, a, out);
  double s = 0;
  for (int b = 0; b < 64; b++)
    s += out[b] * (b + 1);
  printf("%.10g\n", s);
  return 0;
}
