/* Accumulations without a `reduction` clause (issue 30: no loop on one
 * thread; issue 31): sums, products, minima and maxima of scalars and of
 * elements, updates that read other elements of their own array
 * (trisolv's triangular solve), and a prefix sum, which is no reduction.
 * The values are small integers held in doubles, so every order of the
 * additions gives the same result. */
#include <stdio.h>

#define N 300
#define K 8

static long int_sum(int n, int a[N]) {
  long s = 0;
#pragma scop
  for (int i = 0; i < n; i++)
    s += a[i] * 3;
#pragma endscop
  return s;
}

/* Chains that start from the accumulator: `(c - a[i]) - 1` and
   `(a[i] + c2) + i`; and a product chain `(m * 3) * ...`, kept small.
   The kernels combine `(long) 0 - a[i] - 1` and the like; an update the
   model took for a reduction once ran as written in every thread at
   once (the back end's recogniser did not know chains). */
static long chained(int n, int a[N], long r[2]) {
  long c = 7, c2 = 0, m = 1;
#pragma scop
  for (int i = 0; i < n; i++) {
    c = c - a[i] - 1;
    c2 = a[i] + c2 + i;
  }
  for (int i = 0; i < 20; i++)
    m = m * 3 * (i % 2 + 1);
#pragma endscop
  r[0] = c2;
  r[1] = m;
  return c;
}

/* An update whose value reads another element of its array, which the
   loop does not write: the model found a reduction, the back end's
   recogniser did not (it refused any mention of the array), and the
   kernel ran the statement as written in every thread at once. */
static double other_element(int n, int k, double x[N], double acc[8]) {
#pragma scop
  for (int i = 0; i < n; i++)
    acc[k] = acc[k] + (x[i] + 9) * acc[k + 1];
#pragma endscop
  return acc[k];
}

static double dot_then_scale(int n, double x[N], double y[N], double z[N]) {
  double d;
#pragma scop
  d = 0;
  for (int i = 0; i < n; i++)
    d = d + x[i] * y[i];
  for (int i = 0; i < n; i++)
    z[i] = y[i] * d;
#pragma endscop
  return d;
}

static double extremes(int n, double x[N], double *hi) {
  double lo = 1e9, h = -1e9;
#pragma scop
  for (int i = 0; i < n; i++) {
    lo = x[i] < lo ? x[i] : lo;
    h = h > x[i] - 7 ? h : x[i] - 7;
  }
#pragma endscop
  *hi = h;
  return lo;
}

/* x[i] = b[i] - sum_{j<i} L[i][j] x[j]: each row's sum is a reduction
 * into x[i] that reads the x[j] of earlier rows. */
static void triangular(int n, double L[K * 8][K * 8], double b[K * 8], double x[K * 8]) {
#pragma scop
  for (int i = 0; i < n; i++) {
    x[i] = b[i];
    for (int j = 0; j < i; j++)
      x[i] -= L[i][j] * x[j];
  }
#pragma endscop
}

/* A prefix sum reads the element the previous update wrote. */
static void prefix(int n, long p[N]) {
#pragma scop
  for (int i = 1; i < n; i++)
    p[i] += p[i - 1];
#pragma endscop
}

/* Products of a column, one per row k, under a condition. */
static void column_products(int n, double A[K][N], double prod[K]) {
#pragma scop
  for (int k = 0; k < K; k++) {
    prod[k] = 1;
    for (int i = 0; i < n; i++)
      if (i % 37 == 0)
        prod[k] *= A[k][i];
  }
#pragma endscop
}

/* Bitwise accumulations (`&=`, `|=`, `^=`), exact in any order: a parity
 * word, the bits any element has and the bits all have; an `unsigned char`
 * checksum that wraps; and an XOR into the element of a small table that
 * each iteration picks (atomics on the device). */
static unsigned bits(int n, unsigned u[N], unsigned out[3], unsigned table[K]) {
  unsigned parity = 0, any = 0, all = ~0u;
  unsigned char sum = 200;
#pragma scop
  for (int i = 0; i < n; i++) {
    parity ^= u[i];
    any |= u[i] >> 3;
    all &= u[i] | 0x0f0f0f0fu;
  }
  for (int i = 0; i < n; i++)
    sum += (unsigned char) (u[i] * 7u);
  for (int i = 0; i < n; i++)
    table[i % K] ^= u[i] << (i % 5);
#pragma endscop
  out[0] = any;
  out[1] = all;
  out[2] = sum;
  return parity;
}

static int a[N];
static unsigned u[N], table[K];
static double x[N], y[N], z[N], L[K * 8][K * 8], bb[K * 8], xx[K * 8], A[K][N], prod[K];
static long p[N];

int main(void) {
  for (int i = 0; i < N; i++) {
    a[i] = (i * 7) % 23 - 11;
    x[i] = (i * 5) % 17 - 8;
    y[i] = (i * 3) % 13 - 6;
    p[i] = i % 5;
    for (int k = 0; k < K; k++)
      A[k][i] = (i + k) % 3 + 1;
  }
  for (int i = 0; i < K * 8; i++) {
    bb[i] = i % 4;
    for (int j = 0; j < K * 8; j++)
      L[i][j] = (i - j == 3 || (i - j == 5 && i % 4 == 0)) ? 1 : 0;
  }
  for (int i = 0; i < N; i++)
    u[i] = (unsigned) i * 2654435761u;
  for (int k = 0; k < K; k++)
    table[k] = k * 0x01010101u;
  unsigned out[3];
  unsigned parity = bits(N, u, out, table);
  printf("bits %u %u %u %u", parity, out[0], out[1], out[2]);
  for (int k = 0; k < K; k++)
    printf(" %u", table[k]);
  printf("\n");
  printf("int_sum %ld\n", int_sum(N, a));
  long r[2];
  long c = chained(N, a, r);
  printf("chained %ld %ld %ld\n", c, r[0], r[1]);
  double acc[8] = {1, 1, 1, 1, 0.5, 2, 1, 1};
  printf("other_element %.3f\n", other_element(N, 4, x, acc));
  double d = dot_then_scale(N, x, y, z);
  double sz = 0;
  for (int i = 0; i < N; i++)
    sz += z[i] * (i % 7);
  printf("dot %.1f %.1f\n", d, sz);
  double hi;
  double lo = extremes(N, x, &hi);
  printf("extremes %.1f %.1f\n", lo, hi);
  triangular(K * 8, L, bb, xx);
  double sx = 0;
  for (int i = 0; i < K * 8; i++)
    sx += xx[i] * (i + 1);
  printf("triangular %.1f\n", sx);
  prefix(N, p);
  printf("prefix %ld %ld\n", p[N / 2], p[N - 1]);
  column_products(N, A, prod);
  for (int k = 0; k < K; k++)
    printf("prod %d %.1f\n", k, prod[k]);
  return 0;
}
