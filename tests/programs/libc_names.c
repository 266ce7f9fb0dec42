/* Names the C library declares, defined by the program itself (issue 33:
 * a user function `select` clashed with the <sys/select.h> that the host
 * file's <stdlib.h> includes on glibc, and the host file did not build):
 * a function `select`, arrays `index` and `random`, a scalar `time`, and a
 * `static` prototype of `puts` (the fuzzer's case: internal linkage
 * against <stdio.h>'s declaration; never used, so never defined), and an
 * array `uint` (a type of glibc's <sys/types.h>) that a function with a
 * region takes as a parameter of that name (fuzz case 733003602: the
 * region's outlined prototype named the parameter, and the host file took
 * it for a use of the library's `uint`). The program includes no header,
 * so it is valid C on its own. */
int printf(const char *, ...);
static int puts(const char *);

#define N 64

double index[N];
double random[N];
double time = 0.25;

static int select(int a, int b)
{
  return a > b ? a : b;
}

double uint[N];

static double scaled_sum(int n, double uint[N])
{
  double s = 0;
#pragma scop
  for (int i = 0; i < n; i++)
    s += 0.5 * uint[i];
#pragma endscop
  return s;
}

static void kernel(int n)
{
#pragma scop
  for (int i = 0; i < n; i++)
    random[i] = index[select(i, 3)] * time + i;
#pragma endscop
}

int main(void)
{
  for (int i = 0; i < N; i++) {
    index[i] = i % 5;
    uint[i] = i % 7;
  }
  kernel(N - 1);
  printf("%.10g\n", scaled_sum(N, uint));
  double s = 0;
  for (int i = 0; i < N; i++)
    s += random[i] * (i + 1);
  printf("%.10g\n", s);
  return 0;
}
