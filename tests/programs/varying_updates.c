/* Varying elements of a struct of unsigned members accumulated with a
 * minimum, a maximum (arms the other way round), `^=` and `|=` in one
 * loop, a declared `reduction(min: m)` of varying elements, and a product
 * chain (`w[k] = w[k] * 3 * ...`): the host version updates them with
 * compare-and-swap loops and `omp atomic` updates in forms it takes. */
#include <stdio.h>
struct ub { unsigned lo, hi, x, o; };
#define N 500
static void run(int n, unsigned v[N], struct ub b[8], unsigned long w[4], long m[16]) {
#pragma scop
  for (int i = 0; i < n; i++) {
    b[v[i] % 8].lo = b[v[i] % 8].lo < v[i] ? b[v[i] % 8].lo : v[i];
    b[v[i] % 8].hi = v[i] > b[v[i] % 8].hi ? v[i] : b[v[i] % 8].hi;
    b[v[i] % 8].x ^= v[i] * 2654435761u;
    b[v[i] % 8].o |= 1u << (v[i] % 32);
  }
#pragma pencil independent reduction(min: m)
  for (int i = 0; i < n; i++)
    m[v[i] % 16] = m[v[i] % 16] < (long) v[i] - 300 ? m[v[i] % 16] : (long) v[i] - 300;
  for (int i = 0; i < n; i++)
    w[v[i] % 4] = w[v[i] % 4] * 3 * (v[i] % 5 + 1);
#pragma endscop
}
int main(void) {
  static unsigned v[N]; struct ub b[8]; unsigned long w[4] = {1, 1, 1, 1}; long m[16];
  for (int i = 0; i < N; i++) v[i] = (i * 7919u + 17u) % 100003u;
  for (int k = 0; k < 8; k++) { b[k].lo = 4000000000u; b[k].hi = 0; b[k].x = 0; b[k].o = 0; }
  for (int k = 0; k < 16; k++) m[k] = 1000000;
  run(N, v, b, w, m);
  for (int k = 0; k < 8; k++) printf("%u %u %u %u\n", b[k].lo, b[k].hi, b[k].x, b[k].o);
  for (int k = 0; k < 4; k++) printf("%lu ", w[k]); printf("\n");
  for (int k = 0; k < 16; k++) printf("%ld ", m[k]); printf("\n");
  return 0;
}
