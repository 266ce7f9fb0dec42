/* A name the region declares, used after it by a declaration that
 * declares the name again (red team, 2026-12-04): in `int a = t, t = 5;`
 * the first `t` is still the region's, and so is the `t` of `for (int b
 * = t, t = 0; ...)`; pencilc took the declaration as hiding it, put the
 * region's versions in a block of their own, and the reads after it saw
 * the global `t`. */
#include <stdio.h>

int t = 100;

int main(void)
{
    int n = 7;
    double A[8] = {0};
#pragma scop
    int t = n;
    for (int i = 0; i < 8; i++)
        A[i] = i * t;
#pragma endscop
    {
        int a = t, t = 5;
        printf("%d %d %.6f\n", a, t, A[7]);
    }
    for (int b = t, t = 0; t < 2; t++)
        printf("%d %d\n", b, t);
    return 0;
}
