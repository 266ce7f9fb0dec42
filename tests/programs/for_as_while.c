/* `for` loops outside PENCIL's form (issue 33: pet's for_while_inc2-4,
 * inc4, inc5): no initialiser, no condition, an increment that is not a
 * constant step, a `continue` that must still run the increment, a
 * floating-point iterator, a condition that reads what the body changes. Each is the `while` loop C makes of it, one
 * statement of dynamic control in the model; the loops around it stay
 * parallel where they can. Every version must print what the sequential
 * program prints. */
#include <stdio.h>

#define N 200

static int step[N];
static double A[N], B[N], C[N][N];

/* A data-dependent increment and a `continue`. */
static void strided(int n) {
  int i;
#pragma scop
  for (i = 0; i < n; i += step[i]) {
    if (A[i] < 0)
      continue;
    B[i] = B[i] + A[i];
  }
#pragma endscop
}

/* No initialiser: the iterator starts where the code before left it. */
static int resumed(int n) {
  int i = 3;
#pragma scop
  for (; i < n; i += 2)
    B[i] = B[i] * 2;
#pragma endscop
  return i;
}

/* No condition: a `break` ends it; a multiplicative step. */
static void powers(int n) {
#pragma scop
  for (int j = 1;; j *= 2) {
    if (j >= n)
      break;
    B[j] = B[j] + 1;
  }
#pragma endscop
}

/* Rows in parallel, each with a loop of its own that is not canonical. */
static void rows(int n) {
#pragma scop
  for (int r = 0; r < n; r++)
    for (int c = r % 3; c < n; c += 1 + (r % 4))
      C[r][c] = C[r][c] + r - c;
#pragma endscop
}

/* An increment in which the iterator cancels out: a constant step, so
 * a canonical (parallel) loop. */
static void cancelled(int n) {
#pragma scop
  for (int i = 0; i < n; i += (i + 3) - (i + 2))
    B[i] = B[i] + 0.5 * i;
#pragma endscop
}

/* A `double` iterator. */
static double fractions(void) {
  double acc = 0;
#pragma scop
  for (double x = 0; x < 1.0; x += 0.125)
    acc = acc + x * x;
#pragma endscop
  return acc;
}

/* A condition that reads what the body changes (pet's for_while_init):
 * C reads `m` anew each time, so the loop is a `while` loop; an
 * initialiser that reads what the body changes runs once, before it. */
static int shrinking(int n) {
  int m = n, k = 3;
#pragma scop
  for (int i = 0; i < m; i++) {
    B[i] = B[i] + i * 2;
    if (step[i] % 3 == 0)
      m--;
  }
  for (int i = k; i < n; i++) {
    B[i] = B[i] + k;
    k = i % 4;
  }
  for (int i = 0; i < n; i++)
    C[i][0] = B[i] + m;
#pragma endscop
  return m * 100 + k;
}

/* The first loop's declared iterator becomes a variable of the region
   (`int i = 1; while (...)`); the second loop's `int i` is another (a
   fuzz mutant's kernel read the first one's buffer, `i[0]`, and did not
   build). */
static double redeclared(int n) {
  double d = 0;
#pragma scop
  for (int i = 1; i < n; i = 2 * i + 1)
    B[i] = B[i] + 2;
  for (int i = 0; i < n; i++)
    d += B[i] * i;
#pragma endscop
  return d;
}

/* The same the other way round: a loop run as written (its bound changes
   in the body) declares `i`, then a declaration statement of that name
   (`int i = 1; while (...)`, a region variable) follows; the first loop
   read the second's buffer (a fuzz mutant's kernel did not build). */
static int declared_after(int n) {
  int m = n;
#pragma scop
  for (int i = 0; i < m; i++) {
    B[i] = B[i] * 0.5;
    if (step[i] % 4 == 0)
      m--;
  }
  for (int i = 1; i < n; i = 3 * i)
    B[i] = B[i] + i;
#pragma endscop
  return m;
}

static double sum(int n) {
  double s = 0;
  for (int i = 0; i < N; i++) {
    s += B[i] * (i % 5 + 1);
    for (int j = 0; j < N; j++)
      s += C[i][j] * ((i + j) % 3);
  }
  return s + n;
}

int main(void) {
  for (int i = 0; i < N; i++) {
    step[i] = 1 + (i * 7) % 5;
    A[i] = (i % 9) - 3;
    B[i] = i;
    for (int j = 0; j < N; j++)
      C[i][j] = (i * j) % 11;
  }
  strided(N);
  printf("strided %.3f\n", sum(0));
  int last = resumed(N - 1);
  printf("resumed %d %.3f\n", last, sum(0));
  powers(N);
  printf("powers %.3f\n", sum(0));
  rows(N - 7);
  printf("rows %.3f\n", sum(0));
  printf("fractions %.6f\n", fractions());
  cancelled(N - 1);
  printf("cancelled %.3f\n", sum(0));
  int left = shrinking(N - 5);
  printf("shrinking %d %.3f\n", left, sum(0));
  printf("redeclared %.3f\n", redeclared(N - 3));
  int after = declared_after(N - 2);
  printf("declared_after %d %.3f\n", after, sum(0));
  return 0;
}
