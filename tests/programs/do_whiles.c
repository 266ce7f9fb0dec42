/* `do ... while` in a region: the `do { ... } while (0)` of macros (a
 * swap, a clamp, one left by `break` and one by `continue`, which leave
 * the `do` and not the loop around it), and loops whose test comes last
 * (halving until small, counting with a `continue` that goes to the
 * test, a `break` out, one without braces, one inside another). */
#include <stdio.h>

#define SWAP(x, y) do { double t_ = (x); (x) = (y); (y) = t_; } while (0)
#define CLAMP(v, hi) do { if ((v) > (hi)) (v) = (hi); } while (0)

#define N 64

double a[N], b[N], c[N];
int steps[N], sums[N], tail[N];

int main(void)
{
    for (int i = 0; i < N; i++) {
        a[i] = i - 20;
        b[i] = 3 * i % 17;
        c[i] = i * i + 1;
    }
#pragma scop
    for (int i = 0; i < N; i++) {
        SWAP(a[i], b[i]);
        CLAMP(a[i], 10);
        do {
            if (b[i] < 0)
                break;
            b[i] = b[i] * 2;
        } while (0);
        do {
            if (i % 3 == 0)
                continue;
            c[i] = c[i] + 1;
        } while (0);
        tail[i] = i % 3;
    }
    for (int i = 0; i < N; i++) {
        int k = 0;
        do {
            c[i] = c[i] / 2;
            k = k + 1;
        } while (c[i] > 1);
        steps[i] = k;
        int s = 0, j = 0;
        do {
            j = j + 1;
            if (j % 3 == 0)
                continue;
            if (j > i % 11 + 4)
                break;
            s = s + j;
        } while (j < 12);
        do
            s = s * 2;
        while (s < 100);
        int m = 0;
        do {
            int r = 0;
            do {
                r = r + 1;
            } while (r < m);
            m = m + r;
        } while (m < i % 7);
        sums[i] = s + 1000 * m;
    }
#pragma endscop
    for (int i = 0; i < N; i++)
        printf("%g %g %g %d %d %d\n", a[i], b[i], c[i], steps[i], sums[i], tail[i]);
    return 0;
}
