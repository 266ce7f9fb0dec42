/* `while` loops that count (`i = 0; while (i < n) { ...; i++; }`): as
 * `for` loops, nested ones a 2-d kernel; and those that do not, which
 * run as written: a `continue` that skips the increment, a body that
 * changes the counter, an unsigned counter that wraps, `!=` with a step
 * of 3, `break`, a parameter and a global as counters. */
#include <stdio.h>
#define N 64
static int g;
void f(int n, int m, int p, double A[N][N], double B[N], int out[10]) {
  int i, j, k, u;
  unsigned char c;
#pragma scop
  /* nested counted whiles */
  i = 0;
  while (i < n) {
    j = 0;
    while (j < m) {
      A[i][j] = A[i][j] * 2 + i - j;
      j++;
    }
    i++;
  }
  out[0] = i;
  /* counting down with i = i - 2 */
  k = n - 1;
  while (k >= 0) {
    B[k] = B[k] + k;
    k = k - 2;
  }
  out[2] = k;
  /* a while with continue: stays as written */
  u = 0;
  while (u < n) {
    u++;
    if (u % 3 == 0) continue;
    B[u - 1] += 1;
  }
  out[3] = u;
  /* body writes the counter: stays */
  int w = 0;
  while (w < n) {
    B[w] += 2;
    if (B[w] > 40) w++;
    w++;
  }
  out[4] = w;
  /* unsigned char that wraps: 250.. wraps to 0..4 */
  c = 250;
  while (c != 5) {
    B[c % N] += 1;
    c++;
  }
  out[5] = c;
  /* != condition with step 3 */
  int s = 1;
  while (s != 31) {
    B[s] -= 1;
    s += 3;
  }
  out[6] = s;
  /* break inside */
  int b = 0;
  while (b < n) {
    if (B[b] > 50) break;
    B[b] += 0.5;
    b++;
  }
  out[7] = b;
  /* a parameter and a global as counters */
  p = 1;
  while (p < n) {
    B[p] = B[p - 1] + 1;
    p++;
  }
  g = 0;
  while (g < n) {
    B[g] = B[g] * 2;
    g += 2;
  }
#pragma endscop
  out[8] = p;
  out[9] = g;
}
int main(void) {
  static double A[N][N], B[N];
  int out[10] = {0};
  for (int i = 0; i < N; i++) { B[i] = (i * 5) % 17; for (int j = 0; j < N; j++) A[i][j] = (i + 2 * j) % 7; }
  f(N, N - 3, 0, A, B, out);
  f(N - 10, 5, 0, A, B, out);
  for (int i = 0; i < N; i++) { printf("%.1f\n", B[i]); for (int j = 0; j < N; j++) printf("%.1f ", A[i][j]); printf("\n"); }
  for (int i = 0; i < 10; i++) printf("%d\n", out[i]);
  return 0;
}
