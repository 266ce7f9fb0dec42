/* A schedule of isl's own with coefficients near 500,000 (found by the
 * differential tests, seed 52, case 132): isl's scheduler, or pencilc's
 * when its ILP runs out of time and takes isl's schedule, gave the five
 * statements bands such as `480300i + 34200j`, and the generated loop
 * bounds (`2719 * c0 + 14480527`) overflowed `int`: 95 of 145 values
 * wrong in every version, exit status 0. Such a schedule is now refused
 * (`valid::MAX_COEFFICIENT`) and the region falls back to a simpler one.
 * Every target and version prints the sequential results. */
#include <stdio.h>

#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

double A[12];
double B[12][11];

static void init(void)
{
  for (int x0 = 0; x0 < 12; x0++) A[x0] = (double)((3 + 7 * x0) % 37) / 37.0 - 0.25;
  for (int x0 = 0; x0 < 12; x0++) for (int x1 = 0; x1 < 11; x1++) B[x0][x1] = (double)((5 + 7 * x0 + 13 * x1) % 37) / 37.0 - 0.25;
}

static void dump(void)
{
  printf("A\n");
  for (int x0 = 0; x0 < 12; x0++) printf("%.9g\n", A[x0]);
  printf("B\n");
  for (int x0 = 0; x0 < 12; x0++) for (int x1 = 0; x1 < 11; x1++) printf("%.9g\n", B[x0][x1]);
}

static void kernel(int n, int m)
{
  (void)n;
  (void)m;
#pragma scop
  for (int i = 1; i <= 10; i++) {
    for (int j = 1; j <= i - 1; j++) {
      for (int k = 2; k <= MIN(5, i + 1); k++) {
        A[i] = 0.3 * A[i] + 0.3 * A[i - 1] + 0.3 * A[i + 1];
      }
      for (int k = j - 1; k <= 4; k++) {
        { double n = 0.5 * A[1] - 0.375 * B[i][j + 1] + 1.0; A[1] = n; }
      }
    }
    for (int j = 2; j < 10; j++) {
      for (int k = 0; k <= MIN(i - 1, i); k++) {
        { double m = 0.5 * B[j][k] * B[k][i]; B[j][i] += m; }
      }
      for (int k = 1; k <= 3; k++) {
        if ((i + j) % 2 == 0) {
          B[i][j] = 0.2 * B[i][j] + 0.2 * B[i - 1][j] + 0.2 * B[i + 1][j] + 0.2 * B[i][j - 1] + 0.2 * B[i][j + 1];
        }
        if ((j + k) % 2 == 0) {
          B[10 - j][j] = 0.25 * A[i - 1] - 0.375 * B[2][0] - 0.125 * A[j];
        }
      }
    }
  }
#pragma endscop
}

int main(void)
{
  init();
  printf("n = 1, m = 33\n");
  kernel(1, 33);
  dump();
  return 0;
}
