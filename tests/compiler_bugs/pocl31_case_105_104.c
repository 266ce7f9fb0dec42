#include <stdio.h>

#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define m1 0.5

double A[7][72];
double B[11];
double C[10];

static void init(void)
{
  for (int x0 = 0; x0 < 7; x0++) for (int x1 = 0; x1 < 72; x1++) A[x0][x1] = (double)((3 + 7 * x0 + 13 * x1) % 37) / 37.0 - 0.25;
  for (int x0 = 0; x0 < 11; x0++) B[x0] = (double)((5 + 7 * x0) % 37) / 37.0 - 0.25;
  for (int x0 = 0; x0 < 10; x0++) C[x0] = (double)((7 + 7 * x0) % 37) / 37.0 - 0.25;
}

static void dump(void)
{
  printf("A\n");
  for (int x0 = 0; x0 < 7; x0++) for (int x1 = 0; x1 < 72; x1++) printf("%.17g\n", A[x0][x1]);
  printf("B\n");
  for (int x0 = 0; x0 < 11; x0++) printf("%.17g\n", B[x0]);
  printf("C\n");
  for (int x0 = 0; x0 < 10; x0++) printf("%.17g\n", C[x0]);
}

static void kernel(int n, int m)
{
#pragma scop
  for (int i = 0; i <= 4; i++) {
    for (int j = 1; j <= m - 1; j++) {
      A[i + 2][j + 2] = 0.25 * C[i];
      for (int k = i; k <= MIN(i, j); k++) {
        for (int l = 1; l <= 5; l++) {
          if (j <= 32) {
            C[k] = 0.375 * C[k] - 0.5 * C[i + l] - 0.125 * B[11 - l];
          }
          C[2 * i] = 0.5 * B[i + l - 1];
        }
      }
    }
  }
#pragma endscop
}

int main(void)
{
#pragma omp parallel for ordered schedule(static, 1) num_threads(2)
  for (int t = 0; t < 2; t++) {
#pragma omp ordered
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
  }
  }
  return 0;
}
