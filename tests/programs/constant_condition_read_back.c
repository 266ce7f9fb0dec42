/* Differential seed 167, case 21 (2026-12-04): the OpenMP target's read back
 * of its CPU version (ast::executed) met a constant condition, `Int(1)`,
 * and stopped with an internal error; the region fell back to isl's
 * scheduler. C's truth of any value now reads back: where it is not zero. */
#include <stdio.h>

#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

double B[5][6][12];
double C[11][12];

static void init(void)
{
  for (int x0 = 0; x0 < 5; x0++) for (int x1 = 0; x1 < 6; x1++) for (int x2 = 0; x2 < 12; x2++) B[x0][x1][x2] = (double)((5 + 7 * x0 + 13 * x1 + 5 * x2) % 37) / 37.0 - 0.25;
  for (int x0 = 0; x0 < 11; x0++) for (int x1 = 0; x1 < 12; x1++) C[x0][x1] = (double)((7 + 7 * x0 + 13 * x1) % 37) / 37.0 - 0.25;
}

static void dump(void)
{
  printf("B\n");
  for (int x0 = 0; x0 < 5; x0++) for (int x1 = 0; x1 < 6; x1++) for (int x2 = 0; x2 < 12; x2++) printf("%.17g\n", B[x0][x1][x2]);
  printf("C\n");
  for (int x0 = 0; x0 < 11; x0++) for (int x1 = 0; x1 < 12; x1++) printf("%.17g\n", C[x0][x1]);
}

static void kernel(int n, int m)
{
  static double A = 3.0 / 37.0 - 0.25;
  (void)n;
  (void)m;
#pragma scop
  for (int i = 2; i < 6; i++) {
    for (int j = i - 1; j < 6; j++) {
      for (int k = j - 1; k <= 4; k++) {
        for (int l = j + 1; l < 10; l++) {
          { double m = 0.2 * A * C[0][i + k + 2]; A += m; }
        }
        { double n = 0.2 * C[i][j] + 0.2 * C[i - 1][j] + 0.2 * C[i + 1][j] + 0.2 * C[i][j - 1] + 0.2 * C[i][j + 1]; C[i][j] = n; }
      }
      for (int k = MAX(2, i); k <= 5; k++) {
        for (int l = 1; l < 10; l++) {
          { double m = 0.25 * C[j][2 * j] + 0.25 * B[j - 1][k][2 * k + 1] + 0.5 * C[0][2] * C[2 * j][j + k]; C[j][2 * j] = m; }
        }
      }
    }
  }
#pragma endscop
  printf("A\n%.17g\n", A);
}

int main(void)
{
  init();
  printf("n = 1, m = 33\n");
  kernel(1, 33);
  dump();
  return 0;
}
