/* Differential seed 67, case 269 (shrunk): under pluto's schedule, isl printed
   the host code of the second nest with S_4 before S_2 where the tree runs
   S_2 first (tests/programs.rs: statements_isl_would_print_out_of_order). */
#include <stdio.h>

#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

double A[6][12][6];
double B[72][70];

static void init(void)
{
  for (int x0 = 0; x0 < 6; x0++) for (int x1 = 0; x1 < 12; x1++) for (int x2 = 0; x2 < 6; x2++) A[x0][x1][x2] = (double)((3 + 7 * x0 + 13 * x1 + 5 * x2) % 37) / 37.0 - 0.25;
  for (int x0 = 0; x0 < 72; x0++) for (int x1 = 0; x1 < 70; x1++) B[x0][x1] = (double)((5 + 7 * x0 + 13 * x1) % 37) / 37.0 - 0.25;
}

static void dump(void)
{
  printf("A\n");
  for (int x0 = 0; x0 < 6; x0++) for (int x1 = 0; x1 < 12; x1++) for (int x2 = 0; x2 < 6; x2++) printf("%.17g\n", A[x0][x1][x2]);
  printf("B\n");
  for (int x0 = 0; x0 < 72; x0++) for (int x1 = 0; x1 < 70; x1++) printf("%.17g\n", B[x0][x1]);
}

static void kernel(int n, int m)
{
#pragma scop
  for (int i = 1; i <= 1; i++) {
    for (int j = 0; j <= 1; j++) {
      A[i][2][3] = 0.375 * B[i - 1][i - 1];
    }
  }
  for (int i = 0; i <= m - 1; i++) {
    for (int j = 0; j <= 3; j++) {
      A[j + 2][8 - j][j + 2] = 0.125 * A[j + 2][8 - j][j + 2];
      A[j + 1][11 - j][j] += 0.25 * B[j + 1][i];
      B[69 - i][j + 1] += 0.125 * B[i + 2][i];
      B[i + 1][j + 1] = 0.2 * B[i + 1][j + 1] + 0.2 * B[i][j + 1] + 0.2 * B[i + 2][j + 1] + 0.2 * B[i + 1][j] + 0.2 * B[i + 1][j + 2];
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
