/* Pointers to structs (issue 33: pet's struct6 was E0104, and
 * `struct pt *p` indexed as `p[i].x` was refused as a one-dimensional
 * array accessed with two subscripts): a pointer to structs indexes like
 * an array of them of unknown extent, and `p->m` is `p[0].m`. Parameters
 * that may overlap get the run-time overlap check. Every version must
 * print what the sequential program prints. */
#include <stdio.h>

#define N 96

struct pt {
  double x, y;
};

struct img {
  double scale;
  double data[N];
};

struct grid {
  float v[8][8];
  float total;
};

/* `p[i].x`: the points in parallel. */
void scale(int n, struct pt *p, double f)
{
#pragma scop
  for (int i = 0; i < n; i++) {
    p[i].x = p[i].x * f;
    p[i].y = p[i].y + f * i;
  }
#pragma endscop
}

/* `im->data[i]` read, `im->scale` read and then written once. */
void blur(struct img *im, double *out, int n)
{
#pragma scop
  for (int i = 1; i < n - 1; i++)
    out[i] = im->scale * (im->data[i - 1] + im->data[i] + im->data[i + 1]) / 3.0;
  im->scale = im->scale + 1.0;
#pragma endscop
}

/* A 2-d member through `->`, and a sum into another member. */
void sum_grid(struct grid *g)
{
#pragma scop
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < 8; j++)
      g->v[i][j] = g->v[i][j] * 2.0f + i - j;
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < 8; j++)
      g->total += g->v[i][j];
#pragma endscop
}

/* Two pointers to the same structs, one shifted: they overlap. */
void shift(int n, struct pt *dst, struct pt *src)
{
#pragma scop
  for (int i = 0; i < n; i++)
    dst[i].x = src[i].x + src[i].y;
#pragma endscop
}

int main(void)
{
  static struct pt p[N];
  static struct img im;
  static struct grid g;
  static double out[N];
  double s = 0;
  for (int i = 0; i < N; i++) {
    p[i].x = i;
    p[i].y = 2 * i + 1;
    im.data[i] = (i * 7) % 13;
  }
  im.scale = 2.0;
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < 8; j++)
      g.v[i][j] = (float) (i * 8 + j) / 4.0f;
  g.total = 1.0f;

  scale(N, p, 3.0);
  scale(N - 2, p + 1, 0.5);
  blur(&im, out, N);
  blur(&im, out, N / 2);
  sum_grid(&g);
  shift(N - 1, p + 1, p);
  shift(N - 1, p, p + 1);

  for (int i = 0; i < N; i++)
    s += p[i].x * (i + 1) + p[i].y + out[i] * 0.5;
  printf("points and image %.6f scale %.1f\n", s, im.scale);
  printf("grid total %.3f v[7][7] %.3f\n", g.total, g.v[7][7]);
  return 0;
}
