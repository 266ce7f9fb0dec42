/* Comparisons in a 64-bit unsigned type (`size_t`, `unsigned long`,
 * `sizeof`) of values that may be negative: C converts them, so -3 is
 * 2^64 - 3 and `-3 < sizeof(short)` is false; a loop from a negative
 * start under such a condition does not run at all. Beside them, the
 * comparisons that stay what they look like (`i < n` of an `int i` from
 * 0 and a `size_t n`). */
#include <stdio.h>
#include <stddef.h>

#define N 16

int b[N], c[N], d[N], e[N];

static void run(size_t n, int m)
{
#pragma scop
    for (int i = -3; i < 5; i++)
        if (i < sizeof(short))
            b[i + 3] = 1;
    for (long k = -2; k < m; k++)
        if (k < sizeof(int) && k * sizeof(int) < 12)
            c[k + 2] += 1;
    for (int i = 0; i < n; i++)
        d[i] = i;
    for (int i = -4; i < 2UL; i++)
        e[i + 4] = 7;
    for (int i = 0; i < 8; i++)
        if (i - 4 >= n - 8)
            e[i + 8] = i;
#pragma endscop
}

int main(void)
{
    run(10, 6);
    for (int i = 0; i < N; i++)
        printf("%d %d %d %d\n", b[i], c[i], d[i], e[i]);
    return 0;
}
