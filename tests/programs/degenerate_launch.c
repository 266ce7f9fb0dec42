/* A launch at a host loop that takes one value: isl's AST generator drops
 * the loop (`c2 = 6 - floor((4 * c1 + 6) / 9)`) from the launch's build,
 * so the launch's own set, not its schedule's function, must say which
 * instances run there. Found by the differential test (random case 5,
 * isl's schedule), where every launch of that kernel ran all of its
 * instances at once. Values print with 12 digits: PoCL contracts
 * `a += b * c` into a fused multiply-add. */
#include <stdio.h>

#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

double B[7][12];
double C[5][6][2];
double D[11][5][6];

static void init(void)
{
  for (int x0 = 0; x0 < 7; x0++) for (int x1 = 0; x1 < 12; x1++) B[x0][x1] = (double)((5 + 7 * x0 + 13 * x1) % 37) / 37.0 - 0.25;
  for (int x0 = 0; x0 < 5; x0++) for (int x1 = 0; x1 < 6; x1++) for (int x2 = 0; x2 < 2; x2++) C[x0][x1][x2] = (double)((7 + 7 * x0 + 13 * x1 + 5 * x2) % 37) / 37.0 - 0.25;
  for (int x0 = 0; x0 < 11; x0++) for (int x1 = 0; x1 < 5; x1++) for (int x2 = 0; x2 < 6; x2++) D[x0][x1][x2] = (double)((9 + 7 * x0 + 13 * x1 + 5 * x2) % 37) / 37.0 - 0.25;
}

static void dump(void)
{
  printf("B\n");
  for (int x0 = 0; x0 < 7; x0++) for (int x1 = 0; x1 < 12; x1++) printf("%.12g\n", B[x0][x1]);
  printf("C\n");
  for (int x0 = 0; x0 < 5; x0++) for (int x1 = 0; x1 < 6; x1++) for (int x2 = 0; x2 < 2; x2++) printf("%.12g\n", C[x0][x1][x2]);
  printf("D\n");
  for (int x0 = 0; x0 < 11; x0++) for (int x1 = 0; x1 < 5; x1++) for (int x2 = 0; x2 < 6; x2++) printf("%.12g\n", D[x0][x1][x2]);
}

static void kernel(int n, int m)
{
  int i = -7, j = -7, k = -7, l = -7;
  (void)n;
  (void)m;
#pragma scop
  for (i = 1; i <= 4; i++) {
    for (j = 2; j < 6; j++) {
      for (k = 2; k <= MIN(j, i + 2); k++) {
        for (l = 2; l <= 10; l++) {
          B[3][k] += 0.3 * D[2 * i + 2][i][1];
          B[k][l] = 0.2 * B[k][l] + 0.2 * B[k - 1][l] + 0.2 * B[k + 1][l] + 0.2 * B[k][l - 1] + 0.2 * B[k][l + 1];
        }
        B[j][k] += 0.25 * B[j][i] * B[i][k];
        for (l = k + 1; l < k + 2; l++) {
          C[i][j][1] = 0.5 * B[i - 1][l] - 0.375 * D[k][0][8 - l];
        }
        for (l = 0; l < k; l++) {
          if ((k) % 2 == 0) {
            B[i][k] += 0.25 * B[i][l] * B[l][k];
          }
        }
      }
    }
  }
#pragma endscop
  printf("iterators\n%d %d %d %d\n", i, j, k, l);
}

int main(void)
{
  init();
  printf("n = 1, m = 33\n");
  kernel(1, 33);
  dump();
  return 0;
}
