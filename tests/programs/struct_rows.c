/* Rows of an array of structs and of a struct's member arrays passed to
 * functions (issue 33: pet's inline7-9, struct9 and call_struct were
 * rejected): the callee may read and write all of what it gets, so each
 * iteration's row, struct or member is its own and the loops are
 * parallel. `rows` calls functions that take structs, which kernels cannot
 * (the device version keeps the original code); `members` passes member
 * arrays to functions of `int` arrays, which kernels call through their
 * device copies. Host code passes the user's own types. */
#include <stdio.h>

struct cell {
  int a[6][8];
  int b[5];
};

static void fill(struct cell *u, int v) {
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 8; ++j)
      u->a[i][j] = v + i * j;
  u->b[2] = v;
}

static void fill_row(struct cell t[7], int v) {
  for (int k = 0; k < 7; ++k)
    fill(&t[k], v + k);
}

static void scale(int n, int a[n], int v) {
  for (int k = 0; k < n; ++k)
    a[k] = a[k] * 3 + v;
}

static void shift(int a[6][8]) {
  for (int i = 5; i > 0; --i)
    for (int j = 0; j < 8; ++j)
      a[i][j] = a[i - 1][j] + j;
}

#define N 9
#define M 7

static void rows(struct cell s[N][M], int out[N]) {
#pragma scop
  for (int i = 0; i < N; ++i)
    fill_row(s[i], i * 10);
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j)
      fill(&s[i][j], s[i][j].b[2] + 1);
  for (int i = 0; i < N; ++i) {
    out[i] = 0;
    for (int j = 0; j < M; ++j)
      out[i] += s[i][j].a[5][7] - s[i][j].b[2];
  }
#pragma endscop
}

static void members(struct cell s[N][M]) {
#pragma scop
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j) {
      scale(8, s[i][j].a[(i + j) % 6], i - j);
      scale(5, s[i][j].b, j);
    }
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j)
      shift(s[i][j].a);
#pragma endscop
}

int main(void) {
  static struct cell s[N][M];
  static int out[N];
  rows(s, out);
  members(s);
  long sum = 0;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j)
      for (int k = 0; k < 6; ++k)
        for (int l = 0; l < 8; ++l)
          sum += s[i][j].a[k][l] * (k + 1) * (l + 3) + s[i][j].b[l % 5] * (i + 1);
  for (int i = 0; i < N; ++i)
    printf("%d ", out[i]);
  printf("\n%ld\n", sum);
  return 0;
}
