/* The address of an array element passed to a function without a summary
 * (issue 15, item 2) is an access to that element: read, and may-written
 * by the callee. Each iteration updates its own element, so the loop is
 * parallel; the kernel calls the device definition of `bump` given with
 * --opencl-include-file (address_args.cl). */
#include <stdio.h>

void bump(int *p, int v);
void bump(int *p, int v) { *p = *p * 2 + v; }

#define N 100

static void update(int n, int h[N], int g[N]) {
#pragma scop
  for (int i = 0; i < n; i++) {
    bump(&h[i], i);
    g[i] = h[i] + 1;
  }
#pragma endscop
}

int main(void) {
  static int h[N], g[N];
  for (int i = 0; i < N; i++) h[i] = i * 3;
  update(N, h, g);
  for (int i = 0; i < N; i++) printf("%d %d\n", h[i], g[i]);
  return 0;
}
