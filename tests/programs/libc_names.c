/* Names the C library declares, defined by the program itself (issue 33:
 * a user function `select` clashed with the <sys/select.h> that the host
 * file's <stdlib.h> includes on glibc, and the host file did not build):
 * a function `select`, arrays `index` and `random`, a scalar `time`, and a
 * `static` prototype of `puts` (the fuzzer's case: internal linkage
 * against <stdio.h>'s declaration; never used, so never defined). The
 * program includes no header, so it is valid C on its own. */
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

static void kernel(int n)
{
#pragma scop
  for (int i = 0; i < n; i++)
    random[i] = index[select(i, 3)] * time + i;
#pragma endscop
}

int main(void)
{
  for (int i = 0; i < N; i++)
    index[i] = i % 5;
  kernel(N - 1);
  double s = 0;
  for (int i = 0; i < N; i++)
    s += random[i] * (i + 1);
  printf("%.10g\n", s);
  return 0;
}
