/* Found by the differential test (seed 20261123, case 17, shrunk): a
 * launch whose tile bound ast cannot express launched the API's limit,
 * 2^31 - 1 blocks, which the C target runs one after another (a hang) and
 * OpenCL cannot allocate. Grids are capped at the wrap-around size. */
#include <stdio.h>

#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

double A[70][70];

static void init(void)
{
  for (int x0 = 0; x0 < 70; x0++) for (int x1 = 0; x1 < 70; x1++) A[x0][x1] = (double)((3 + 7 * x0 + 13 * x1) % 37) / 37.0 - 0.25;
}

static void dump(void)
{
  printf("A\n");
  for (int x0 = 0; x0 < 70; x0++) for (int x1 = 0; x1 < 70; x1++) printf("%.17g\n", A[x0][x1]);
}

static void kernel(int n, int m)
{
  double B = 5.0 / 37.0 - 0.25;
#pragma scop
  for (int i = 0; i <= 8; i++) {
    for (int j = 0; j <= m - 1; j++) {
      B = 0.3 * A[j][j];
      for (int k = 1; k <= 5; k++) {
        A[i][k] += 0.25 * A[i][j] * A[j][k];
      }
    }
  }
#pragma endscop
  printf("B\n%.17g\n", B);
}

int main(void)
{
  init();
  printf("n = 1, m = 33\n");
  kernel(1, 33);
  dump();
  init();
  printf("n = 31, m = 70\n");
  kernel(31, 70);
  dump();
  init();
  printf("n = 33, m = 1\n");
  kernel(33, 1);
  dump();
  init();
  printf("n = 70, m = 31\n");
  kernel(70, 31);
  dump();
  return 0;
}
