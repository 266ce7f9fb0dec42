/* A loop iterator the region also uses outside its loops (issue 33:
 * pet's loop7; an iterator read after a loop that may leave by `break`):
 * the loops over it run as written, one after the other, and the
 * variable is a scalar like any other; the loops over other iterators
 * stay parallel. Every version must print what the sequential program
 * prints. */
#include <stdio.h>

#define N 64

static double A[N], B[N][N];

static int start(void) { return 3; }

/* pet's loop7: the iterator's value comes from before the loop. */
static int from_before(void) {
  int i, a = 0;
#pragma scop
  i = start();
  for (i = i; i < 10; ++i)
    a = a + i;
  A[0] = a;
#pragma endscop
  return i;
}

/* Read after a loop that may leave early. */
static int after_break(int n) {
  int i;
#pragma scop
  for (i = 0; i < n; i++) {
    if (A[i] > 40)
      break;
    A[i] = A[i] + 1;
  }
  A[1] = i;
  for (int j = 0; j < n; j++)
    for (int k = 0; k < n; k++)
      B[j][k] = B[j][k] + A[1] * k;
#pragma endscop
  return i;
}

/* One variable, two loops and uses between them. */
static int two_loops(int n) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[i] = A[i] * 0.5;
  A[2] = A[2] + i;
  for (i = i - 10; i < n; i += 3)
    A[i] = A[i] + i;
#pragma endscop
  return i;
}

/* A subscript after a loop under a condition (a fuzz mutant: the
   variable was both the loop's iterator and a parameter of the model,
   an internal error in isl's parser). */
static int subscript_after(int n) {
  int i = 5;
#pragma scop
  if (n > 2)
    for (i = 1; i < n - 4; i++)
      B[i][0] = B[i][0] + 1;
  for (int j = 0; j < n; j++)
    B[i][j] = B[i][j] + B[i - 1][j];
#pragma endscop
  return i;
}

int main(void) {
  for (int i = 0; i < N; i++) {
    A[i] = i;
    for (int j = 0; j < N; j++)
      B[i][j] = (i * j) % 7;
  }
  int r1 = from_before();
  int r2 = after_break(N);
  int r3 = two_loops(N);
  int r4 = subscript_after(N) + subscript_after(2);
  double s = 0;
  for (int i = 0; i < N; i++) {
    s += A[i] * (i % 5 + 1);
    for (int j = 0; j < N; j++)
      s += B[i][j] * ((i + j) % 3);
  }
  printf("%d %d %d %d %.3f\n", r1, r2, r3, r4, s);
  return 0;
}
