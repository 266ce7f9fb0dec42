/* A program that includes no header (issue 33: the C target's entry check
 * used size_t, which nothing declared, and the output did not compile):
 * printf declared by hand, arrays passed as pointers that the entry check
 * compares. */
int printf(const char *, ...);

#define N 100

static void kernel(int n, double *a, double *b)
{
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      a[i * N + j] = b[j] * 2.0 + i;
#pragma endscop
}

int main(void)
{
  static double a[N * N], b[N];
  for (int i = 0; i < N; i++)
    b[i] = i % 7;
  kernel(N - 3, a, b);
  double s = 0;
  for (int i = 0; i < N * N; i++)
    s += a[i] * (i % 13);
  printf("%.10g\n", s);
  return 0;
}
