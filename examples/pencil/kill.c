/* The PENCIL paper's kill example (§2.6): A is only partly (may-)written,
 * so without the kill it must be copied in as well as out. */
#include <pencil.h>
#include <stdio.h>

static void kill_example(int n, float A[pencil_array n], const float B[pencil_array n])
{
#ifndef NO_KILL
  __pencil_kill(A);
#endif
  for (int i = 0; i < n; i++) {
    if (B[i] > 0)
      A[i] = B[i];
  }
}

int main(void)
{
  enum { N = 1 << 20 };
  static float A[N], B[N];
  for (int i = 0; i < N; i++) {
    B[i] = (float)(i % 5) - 1.0f;
    A[i] = 0.0f;
  }
  kill_example(N, A, B);
  double check = 0;
  /* Only the elements the region wrote are defined after the kill. */
  for (int i = 0; i < N; i++)
    if (B[i] > 0)
      check += A[i] * (i % 13);
  printf("check=%.1f\n", check);
  return 0;
}
