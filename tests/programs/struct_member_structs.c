/* Members that are arrays of structs, and C11's anonymous struct members
 * (pet's struct4, struct5, struct8, struct14): the model lays a struct
 * out as its members' places side by side, an array of structs as its
 * elements' places one element after the other, so `s.f[i].a[j]` is the
 * place `10 * i + j` of `s`. Every version must print what the
 * sequential program prints. */
#include <stdio.h>

#define N 24

struct grid {
  struct {
    int a[10];
  } f[10];
};

typedef struct scomplex {
  float re;
  float im;
} scomplex;

struct pair {
  scomplex c[2];
};

struct cell {
  struct inner {
    double x[3];
    double w;
  } u[4];
  double z;
};

struct anon {
  struct {
    struct {
      int a[6];
    } f[5];
    int b;
  };
};

static void fill(struct grid *g_out) {
  struct grid g;
#pragma scop
  for (int i = 0; i < 10; ++i)
    for (int j = 0; j < 10; ++j)
      g.f[i].a[j] = i * j + (i ^ j);
  for (int i = 1; i < 10; ++i)
    for (int j = 0; j < 10; ++j)
      g.f[i].a[j] += g.f[i - 1].a[9 - j];
#pragma endscop
  *g_out = g;
}

static void pairs(int n, struct pair P[restrict const static N]) {
#pragma scop
  for (int i = 0; i < n; i++) {
    P[i].c[0].re = P[i].c[1].im * 2.0f + (float)i;
    P[i].c[1].re = P[i].c[0].im - P[i].c[0].re;
  }
#pragma endscop
}

static void cells(int n, struct cell C[restrict const static N]) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < 4; j++) {
      for (int k = 0; k < 3; k++)
        C[i].u[j].x[k] = C[i].u[j].x[k] * C[i].u[3 - j].w + k;
      C[i].z += C[i].u[j].x[j % 3];
    }
#pragma endscop
}

static int anonymous(void) {
  struct anon s;
  int out;
#pragma scop
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 6; ++j)
      s.f[i].a[j] = i * 7 + j;
  s.b = 1;
  for (int i = 0; i < 5; ++i)
    s.b += s.f[i].a[5 - i];
  out = s.b;
#pragma endscop
  return out;
}

static struct pair P[N];
static struct cell C[N];

int main(void) {
  struct grid g;
  fill(&g);
  long t = 0;
  for (int i = 0; i < 10; i++)
    for (int j = 0; j < 10; j++)
      t += (long)g.f[i].a[j] * (1 + (i + 3 * j) % 7);
  printf("grid %ld\n", t);
  for (int i = 0; i < N; i++) {
    P[i].c[0].re = i * 0.5f;
    P[i].c[0].im = 1.0f + i % 3;
    P[i].c[1].re = -i;
    P[i].c[1].im = 0.25f * i;
    C[i].z = i;
    for (int j = 0; j < 4; j++) {
      C[i].u[j].w = 0.5 + j;
      for (int k = 0; k < 3; k++)
        C[i].u[j].x[k] = i + j * 0.25 + k * 0.125;
    }
  }
  pairs(N, P);
  cells(N, C);
  double s = 0;
  for (int i = 0; i < N; i++) {
    s += P[i].c[0].re + 2 * P[i].c[0].im + 3 * P[i].c[1].re + 4 * P[i].c[1].im;
    s += C[i].z;
    for (int j = 0; j < 4; j++)
      for (int k = 0; k < 3; k++)
        s += C[i].u[j].x[k] * (1 + k + j);
  }
  printf("pairs and cells %.6f\n", s);
  printf("anonymous %d\n", anonymous());
  return 0;
}
