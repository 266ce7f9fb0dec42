/* Reads that C makes only under a condition: the boundary idioms
 * `i < n - 1 ? x[i + 1] : 0`, `i > 0 && x[i - 1] > ...`, `i == 0 || ...`.
 * A device version copies what the region reads; counted for every
 * instance, those reads reached one element before or past an array, and
 * the copy crashed. Every array here fills whole pages between pages the
 * program may not touch (PROT_NONE), so such a copy faults. */
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

static void rightwards(int n, double y[n], const double x[n])
{
#pragma scop
  for (int i = 0; i < n; i++)
    y[i] = x[i] + (i < n - 1 ? x[i + 1] : 0.5);
#pragma endscop
}

static void leftwards(int n, double y[n], const double x[n])
{
#pragma scop
  for (int i = 0; i < n; i++)
    y[i] = (i > 0 ? x[i - 1] : -1.0) * 2.0 + (i >= 1 ? 0.0 : x[i]);
#pragma endscop
}

static void drops(int n, int c[n], const double x[n])
{
#pragma scop
  for (int i = 0; i < n; i++) {
    c[i] = 0;
    if (i > 0 && x[i - 1] > x[i])
      c[i] = 1;
    if (i == n - 1 || x[i + 1] < x[i])
      c[i] += 2;
    c[i] += !(i < 1 || x[i - 1] != 3.0) ? 4 : 0;
  }
#pragma endscop
}

static void rows(int n, int m, double B[n][m], const double A[n][m])
{
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      B[i][j] = (i + 1 < n ? A[i + 1][j] : 0.0) + (i > 0 ? A[i - 1][j] : 0.0)
                + (j < m - 1 && i < n - 1 ? A[i + 1][j + 1] : 1.0);
#pragma endscop
}

/* Writes under a condition on data with an affine conjunct, and a search
 * whose loop condition has one: neither touches y[n] or x[n]. */
static void marks(int n, double y[n], const double x[n], int found[1])
{
#pragma scop
  for (int i = 0; i < n; i++)
    if (i < n - 1 && x[i] > 3.0)
      y[i + 1] = x[i] * 10.0;
  for (int r = 0; r < 1; r++) {
    int i;
    for (i = 0; i < n && x[i] != 4.0; i++)
      y[i] += 0.25;
    found[r] = i;
  }
#pragma endscop
}

/* `pages` pages a program may use, between two it may not. */
static void *fenced(long pages)
{
  long p = sysconf(_SC_PAGESIZE);
  char *m = mmap(0, (pages + 2) * p, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED || mprotect(m, p, PROT_NONE) || mprotect(m + (pages + 1) * p, p, PROT_NONE))
    return 0;
  return m + p;
}

int main(void)
{
  long page = sysconf(_SC_PAGESIZE);
  int n = (int)(page / sizeof(double));
  double *x = fenced(1), *y = fenced(1);
  int *c = fenced(1);
  if (!x || !y || !c)
    return 1;
  for (int i = 0; i < n; i++)
    x[i] = (i * 7) % 5;
  rightwards(n, y, x);
  for (int i = 0; i < n; i += 37)
    printf("r %d %.2f\n", i, y[i]);
  printf("r last %.2f\n", y[n - 1]);
  leftwards(n, y, x);
  for (int i = 0; i < n; i += 37)
    printf("l %d %.2f\n", i, y[i]);
  drops(n, c, x);
  long sum = 0;
  for (int i = 0; i < n; i++)
    sum += (long)c[i] * (i % 7 + 1);
  printf("d %ld %d %d\n", sum, c[0], c[n - 1]);
  for (int i = 0; i < n; i++)
    y[i] = -1.0;
  int found[1] = { -7 };
  marks(n, y, x, found);
  double t = 0;
  for (int i = 0; i < n; i++)
    t += y[i] * (i % 3 + 1);
  printf("m %.2f %d %.2f\n", t, found[0], y[n - 1]);
  /* Never 4: the search runs to n. */
  for (int i = 0; i < n; i++)
    x[i] = (i * 7) % 4;
  marks(n, y, x, found);
  printf("m %.2f %d\n", y[n - 1], found[0]);
  for (int i = 0; i < n; i++)
    x[i] = (i * 7) % 5;
  /* Rows of 32 filling 2 pages at the end of the fence. */
  int m = 32, r = (int)(2 * page / sizeof(double)) / m;
  double (*A)[m] = fenced(2), (*B)[m] = fenced(2);
  if (!A || !B)
    return 1;
  for (int i = 0; i < r; i++)
    for (int j = 0; j < m; j++)
      A[i][j] = (i * 3 + j) % 11;
  rows(r, m, B, A);
  double s = 0;
  for (int i = 0; i < r; i++)
    for (int j = 0; j < m; j++)
      s += B[i][j] * ((i + j) % 3 + 1);
  printf("b %.2f %.2f %.2f\n", s, B[0][0], B[r - 1][m - 1]);
  return 0;
}
