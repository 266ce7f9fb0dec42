/* A loop whose instances read what one of its own instances writes:
 * `a[i] = a[m] * 2 + b[i]` reads `a[m]` before instance `m` writes it
 * for `i < m` and after for `i > m`. Split around that instance, each
 * piece is a parallel loop (TSVC s1113 and s293 ran on one GPU thread).
 * The pivot at the first, a middle and the last element. */
#include <stdio.h>

static void pivot(int n, int m, float a[n], float b[n], float c[n])
{
#pragma scop
    for (int i = 0; i < n; i++)
        a[i] = a[m] * 2 + b[i];
    for (int i = 1; i < n; i++)
        c[i] = c[n - 1] + b[i - 1];
    for (int i = 0; i < n; i++)
        b[i] = b[0] - a[i];
#pragma endscop
}

int main(void)
{
    enum { N = 3000 };
    static float a[N], b[N], c[N];
    for (int i = 0; i < N; i++) {
        a[i] = i % 7;
        b[i] = i % 5;
        c[i] = i % 3;
    }
    pivot(N, 1234, a, b, c);
    pivot(N, N - 1, a, b, c);
    pivot(N, 0, a, b, c);
    double s = 0;
    for (int i = 0; i < N; i++)
        s += a[i] * (i % 13) + b[i] * (i % 7) + c[i] * (i % 11);
    printf("%.10g\n", s);
    return 0;
}
