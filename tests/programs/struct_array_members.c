/* Structs with array members (issues 31 and 33): `b[i][j].c[k]` is an
 * access to the element's place `k` (one place per element of `c`, as C
 * lays the struct out), with scalar members beside array members, 2-d
 * array members, a nested struct's array member, literal places, and an
 * accumulation into an array member. */
#include <stdio.h>

#define N 23

struct cell {
  int c[10];
};

struct particle {
  float w;
  float v[3];
  float t[2][2];
};

struct cloud {
  float id;
  struct particle p;
};

static void region(int n, struct cell b[static const restrict N][N],
                   struct particle p[static const restrict N],
                   struct cloud q[static const restrict N],
                   struct particle acc[static const restrict 1])
{
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int k = 0; k < 10; k++)
        b[i][j].c[k] = i + j * k - b[i][j].c[9 - k] / 2;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      b[i][j].c[3] += b[j][i].c[0] > 5;
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < 3; k++)
      p[i].v[k] = p[i].v[k] * p[i].w + k;
    for (int a = 0; a < 2; a++)
      for (int c = 0; c < 2; c++)
        p[i].t[a][c] = p[i].v[a + c] - p[i].t[c][a];
    q[i].p.v[i % 3] = q[i].id + q[i].p.t[1][0];
  }
  for (int i = 0; i < n; i++)
    for (int k = 0; k < 3; k++)
      acc[0].v[k] += p[i].v[k];
#pragma endscop
}

int main(void)
{
  static struct cell b[N][N];
  static struct particle p[N], acc[1];
  static struct cloud q[N];
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < N; j++)
      for (int k = 0; k < 10; k++)
        b[i][j].c[k] = (i * 3 + j * 5 + k) % 17;
    p[i].w = 0.5f + i % 4;
    q[i].id = i;
    for (int k = 0; k < 3; k++) {
      p[i].v[k] = (i + k) % 5;
      q[i].p.v[k] = k;
    }
    for (int a = 0; a < 4; a++) {
      p[i].t[a / 2][a % 2] = a - i % 3;
      q[i].p.t[a / 2][a % 2] = a;
    }
  }
  region(N, b, p, q, acc);
  long s = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      for (int k = 0; k < 10; k++)
        s += b[i][j].c[k] * (k + 1);
  double f = 0;
  for (int i = 0; i < N; i++) {
    f += p[i].w + q[i].p.v[0] + q[i].p.v[1] * 2 + q[i].p.v[2] * 3;
    for (int k = 0; k < 3; k++)
      f += p[i].v[k] * (k + 1);
    for (int a = 0; a < 4; a++)
      f += p[i].t[a / 2][a % 2] * (a + 2);
  }
  printf("%ld %.3f %.3f %.3f %.3f\n", s, f, acc[0].v[0], acc[0].v[1], acc[0].v[2]);
  return 0;
}
