/* Stores of one value in any order (Rodinia's bfs: `stop = true` from
 * every iteration that updates): no statement reads the flag, every store
 * is the same literal, so their order decides nothing and the loop is
 * parallel. Where a store is of another value, an update (`+=`) or the
 * flag is read in the region, the order matters and stays; where no
 * iteration stores, the old value stays. */
#include <stdio.h>
#include <stdbool.h>

static bool update(int n, bool mask[256], bool updating[256], int seen[64], int idx[256])
{
  bool stop = false;
#pragma scop
  for (int tid = 0; tid < n; tid++) {
    if (updating[tid] == true) {
      mask[tid] = true;
      stop = true;
      updating[tid] = false;
      seen[idx[tid]] = 7;
    }
  }
#pragma endscop
  return stop;
}

static int none_store(int n, double x[256])
{
  int flag = 5;
#pragma scop
  for (int i = 0; i < n; i++)
    if (x[i] > 100.0)
      flag = 1;
#pragma endscop
  return flag;
}

static int two_values(int n, double x[256])
{
  int flag = 0;
#pragma scop
  for (int i = 0; i < n; i++) {
    if (x[i] > 3.0)
      flag = 1;
    else
      flag = 2;
  }
#pragma endscop
  return flag;
}

static int read_back(int n, double x[256], double y[256])
{
  int flag = 0;
#pragma scop
  for (int i = 0; i < n; i++) {
    if (flag == 1)
      y[i] = 1.0;
    if (x[i] > 3.0)
      flag = 1;
  }
#pragma endscop
  return flag;
}

static double counted(int n, double x[256])
{
  double c = 0.5;
#pragma scop
  for (int i = 0; i < n; i++)
    if (x[i] > 3.0)
      c += 0.5;
#pragma endscop
  return c;
}

/* `-1` and `-1u` are other values stored into a `long` and a `double`:
   the last iteration's store decides, and the order stays (the last
   iteration in another block than the others, as red-teaming found). */
static void minus_one(int n, long L[1], double M[1])
{
#pragma scop
  for (int i = 0; i < n; i++) {
    if (i == n - 1) {
      L[0] = -1u;
      M[0] = -1u;
    } else {
      L[0] = -1;
      M[0] = -1;
    }
  }
#pragma endscop
}

int main(void)
{
  static bool mask[256], updating[256];
  static int seen[64], idx[256];
  static double x[256], y[256];
  for (int i = 0; i < 256; i++) {
    updating[i] = (i % 7) == 3;
    idx[i] = (i * 5) % 64;
    x[i] = (i * 3) % 8;
  }
  int s = update(256, mask, updating, seen, idx);
  s = 10 * s + update(256, mask, updating, seen, idx);
  s = 10 * s + none_store(256, x);
  s = 10 * s + two_values(256, x);
  s = 10 * s + two_values(0, x);
  s = 10 * s + read_back(256, x, y);
  double t = counted(256, x);
  for (int i = 0; i < 256; i++)
    t += (mask[i] + 2 * updating[i] + 3 * y[i]) * (i % 9 + 1);
  for (int i = 0; i < 64; i++)
    t += seen[i] * (i + 1);
  static long L[1];
  static double M[1];
  minus_one(993, L, M);
  printf("%d %.10g %ld %.17g\n", s, t, L[0], M[0]);
  return 0;
}
