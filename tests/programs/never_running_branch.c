/* Statements that never run (the `else` of `if (1)`, the `then` of
 * `if (0)`) inside a data-dependent `if`: no access of theirs reaches an
 * element, and the memory placement of their arrays must not ask for
 * one (an internal error sent the region to its fallback without
 * shared-memory or register tiles, TSVC s2710). */
#include <stdio.h>

#define N 96

float a[N], c[N], d[N], e[N];

int main(void)
{
    for (int i = 0; i < N; i++) {
        a[i] = i % 3 - 1;
        d[i] = i % 5;
        c[i] = 1;
        e[i] = 2;
    }
#pragma scop
    for (int i = 0; i < N; i++) {
        if (a[i] > 0) {
            if (1)
                c[i] += d[i];
            else
                c[i] = d[i];
        }
        if (a[i] < 0) {
            if (0)
                e[i] = d[i];
            else
                e[i] += c[i];
        }
    }
#pragma endscop
    for (int i = 0; i < N; i++)
        printf("%.9g %.9g\n", c[i], e[i]);
    return 0;
}
