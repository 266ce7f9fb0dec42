/* Pointers that point at scalars the region reads or writes (red team,
 * 2026-12-04): pencilc's run-time overlap check compared arrays only,
 * so a region writing `p[0]` where p is `&x`, or `p[0]` where p is the
 * address of a global the region reads, ran its parallel versions on
 * copies that C does not have. The check now compares such scalars too
 * (the caller's own, where the region is outlined), and the original
 * code runs. */
#include <stdio.h>

#define N 20
double g = 1.0;

static void f(int n, double *p, double A[N])
{
#pragma scop
    for (int i = 0; i < n; i++) {
        A[i] = A[i] + g;
        p[0] = p[0] * 2;
    }
#pragma endscop
}

int main(void)
{
    int n = 5;
    double A[4] = {0, 0, 0, 0};
    static double G[N];
    int x;
    int *p = &x;
#pragma scop
    x = n;
    p[0] = 1;
    A[0] = x;
#pragma endscop
    printf("%.6f %d\n", A[0], x);
    for (int k = 0; k < N; k++)
        G[k] = k;
    f(N, &g, G);
    for (int k = 0; k < N; k++)
        printf("%.6f\n", G[k]);
    printf("%.6f\n", g);
    return 0;
}
