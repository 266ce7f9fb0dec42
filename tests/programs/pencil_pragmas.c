/* `#pragma pencil` written as people write it: spaces before the clause's
 * parenthesis, commas between clauses, clauses before `independent`,
 * trailing semicolons; and a misspelt one, which is ignored (warning). */
#include <stdio.h>
#include <math.h>
#define N 64
static void kernel(int n, float A[N], float B[N][N], float *out) {
  int i, j;
  float prod1 = 1.0f, s = 0.0f, mx = -1.0f, t = 0.0f;
#pragma scop
#pragma pencil independent reduction (*: prod1);
  for (i = 0; i < n; i++)
    prod1 *= A[i];
#pragma pencil reduction( + : s ) , reduction(max:mx), independent ;;
  for (i = 0; i < n; i++) {
    s += A[i];
    mx = fmaxf(mx, A[i]);
  }
#pragma   pencil   independent
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      B[i][j] = A[i] - A[j];
#pragma pencil indepenent reduction(+: t)
  for (i = 0; i < n; i++)
    t = t * 0.5f + A[i];
#pragma endscop
  out[0] = prod1;
  out[1] = s;
  out[2] = mx;
  out[3] = t;
}
int main(void) {
  static float A[N], B[N][N], out[4];
  for (int i = 0; i < N; i++)
    A[i] = 1.0f + (i % 4) * 0.0625f;
  kernel(N - 5, A, B, out);
  double b = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      b += B[i][j] * (i + 2 * j);
  printf("%.4g %.6g %.6g %.6g %.6g\n", out[0], out[1], out[2], out[3], b);
  return 0;
}
