/* Final values of loop iterators read later in the region (red team,
 * 2026-12-04): pencilc stands a formula of the bounds for such a read,
 * which holds only while its inputs keep their values and where C
 * compares and counts in the iterator's type. Each case here broke one
 * of those: a bound or start changed after the loop, a bound of type
 * `double` or `size_t`, a `long long` counter whose formula overflowed
 * `int`, a `<=` bound at INT_MAX. */
#include <stdio.h>

int main(void)
{
    int P[2] = {3, 2147483647};
    double x = 2.5;
    int B[3];
    double D[8] = {0};
    int i, j, k, m, q;
    long long c;
    long w;
#pragma scop
    /* The bound changes after the loop. */
    m = P[0];
    for (i = 0; i < m; i++)
        D[1] += i;
    m = 5;
    D[0] = i;
    /* The start changes after a counted while. */
    k = P[0];
    j = k;
    while (j < 10) {
        D[2] += j;
        j++;
    }
    k = 100;
    D[3] = j;
    /* A bound of a floating type: the loop stops at 3. */
    for (q = 0; q < x; q++)
        D[4] += q;
    D[4] += q;
    /* A bound of type size_t: j - 10 is negative in `int`. */
    for (j = 0; j < sizeof(B) / sizeof(B[0]); j++)
        B[j] = j;
    D[5] = j - 10;
    /* A `long long` counter past int's range, to a bound at INT_MAX. */
    c = 5;
    while (c <= P[1]) {
        D[6] += 1;
        c += 1000000000;
    }
    D[6] += c;
    for (w = 0; w < P[1]; w += 1000000)
        D[7] += 1;
    D[7] += w;
#pragma endscop
    for (int t = 0; t < 8; t++)
        printf("D[%d] = %.6f\n", t, D[t]);
    printf("%d %d %d %d %d %lld %ld %d\n", i, j, k, m, q, c, w, B[2]);
    return 0;
}
