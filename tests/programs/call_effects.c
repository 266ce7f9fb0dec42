/* Calls whose effects reach past their arguments (found while adding
 * pet's call7): the model sees a call's arguments only, so these were
 * parallel loops that ran wrong. `next` indexes past the element whose
 * address it gets (`p[1]`), so `neighbours`' inner loop is sequential
 * (`bump`, which uses `p[0]` only, stays parallel); `count` and `note` use
 * variables of the file, `tick` keeps a `static` local between calls,
 * `show` prints: `effects` keeps the original code. */
#include <stdio.h>

#define N 48

double G[N + 1];
int calls;

static void next(float *p) { p[1] = p[1] + p[0]; }
static void count(int i) { G[i + 1] = G[i] * 0.5 + i; }
static void note(int i, int a[N]) { a[i] = calls++; }
static void tick(int a[N], int i) {
  static int t = 0;
  a[i] = t;
  t += i;
}
static void show(int i) { printf("%d ", i); }
static void bump(int *p, int v) { p[0] += v; }
static void twice(int i) { count(i); }

static void neighbours(float A[N][N], int c[N]) {
#pragma scop
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N - 1; ++j)
      next(&A[i][j]);
  for (int i = 0; i < N; ++i)
    bump(&c[i], i);
#pragma endscop
}

static void effects(int a[N], int b[N]) {
#pragma scop
  for (int i = 0; i < N; ++i)
    twice(i);
  for (int i = 0; i < N; ++i)
    note(i, a);
  for (int i = 0; i < N; ++i)
    tick(b, i);
  for (int i = 0; i < N; ++i)
    show(i);
#pragma endscop
}

int main(void) {
  static float A[N][N];
  static int a[N], b[N], c[N];
  for (int i = 0; i < N; ++i) {
    c[i] = i * 3;
    for (int j = 0; j < N; ++j)
      A[i][j] = (i + j) % 3;
  }
  G[0] = 1.0;
  neighbours(A, c);
  effects(a, b);
  double s = 0;
  long t = 0;
  for (int i = 0; i < N; ++i) {
    s += G[i] * (i + 1);
    t += (long) a[i] * (i + 1) + (long) b[i] * (i + 2) + c[i];
    for (int j = 0; j < N; ++j)
      s += A[i][j] * (j + 1);
  }
  printf("\n%.3f %ld\n", s, t);
  return 0;
}
