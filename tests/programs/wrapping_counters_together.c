/* Counters of narrow types, each of which may wrap around, in one region
 * (red team, 2026-12-04): together their loops' conditions left no value
 * of `n` at which the model held, every check passed vacuously, the loops
 * were modelled as loops that never run, and pencilc warned that `A[c]`
 * was out of bounds wherever it ran. Each wrapping loop runs as written,
 * as it does alone. */
#include <stdio.h>

#define N 300

static double A[N], B[N], D[N];

static void region(int n)
{
    unsigned char c;
    signed char sc;
    unsigned short us;
#pragma scop
    c = n;
    while (c != 0) {
        A[c] += 1;
        c += 255;
    }
    sc = n;
    while (sc > -100) {
        B[sc + 128] += 2;
        sc -= 3;
    }
    us = n;
    while (us != 65530) {
        D[(us + 10) % N] += 1;
        us -= 2;
    }
#pragma endscop
    printf("n %d: c %d sc %d us %d\n", n, c, sc, us);
}

int main(void)
{
    /* Even values: an odd `us` never meets 65530. */
    static const int ns[] = { 20, 0, 100, 254, 2 };
    for (int t = 0; t < N; t++)
        A[t] = B[t] = D[t] = t;
    for (int k = 0; k < (int) (sizeof ns / sizeof ns[0]); k++)
        region(ns[k]);
    double s = 0;
    for (int t = 0; t < N; t++)
        s += (A[t] + 2 * B[t] + 3 * D[t]) * (t % 13 + 1);
    printf("%.3f\n", s);
    return 0;
}
