/* Loop starts and steps that C converts into the iterator's type (red
 * team, 2026-12-04): an `int` iterator started from an `unsigned` or a
 * `long` value starts at the converted value, which the model did not
 * hold (the buffers' extents came out empty, and a kernel wrote past
 * one); `a += 0xFFFFFFFFu` steps an `int` by -1 and `m += 1u - 2` a
 * `long` by 4294967295, which the model took as +4294967295 and -1. */
#include <stdio.h>

int main(void)
{
    volatile long big = 4294967299L;
    unsigned U = (unsigned) -3;
    long L = big;
    int n = 5;
    double A[4] = {0, 0, 0, 0};
    int H[8] = {0};
    int j, a;
    long m;
#pragma scop
    for (j = U; j < 10; j++)
        A[3] += 1;
    for (j = L; j < 10; j++)
        A[2] += 1;
    a = n;
    while (a > 0) {
        H[a] += 1;
        a += 0xFFFFFFFFu;
    }
    for (m = 0; m < n; m += 1u - 2)
        H[0] += 1;
#pragma endscop
    printf("%.6f %.6f %.6f %.6f %d %d %ld\n", A[0], A[1], A[2], A[3], j, a, m);
    for (int t = 0; t < 8; t++)
        printf("%d ", H[t]);
    printf("\n");
    return 0;
}
