/* Loops whose bounds are far from zero (red team of 2026-12-06). isl
 * prints a tile count `floor((hi - lo + 31) / 32)` as
 * `-lo + floord(hi + 31 * lo + 31, 32)`: `31 * lo` overflowed `int` from
 * lo = 69,273,667, and `long` near time stamps in nanoseconds, and the
 * generated loops ran no iteration or the wrong ones. Numerators that can
 * outgrow their identifiers are computed in `long`; a 64-bit parameter
 * beyond what `long` then holds runs the original code. Each region is
 * called with offsets on both sides of those limits. */
#include <stdio.h>

#define N 64

static long A[N], B[N][N];

static void stamps_int(int lo, int hi)
{
#pragma scop
    for (int t = lo; t < hi; t++)
        A[t - lo] = A[t - lo] + t % 1000;
#pragma endscop
}

static void stamps_long(long lo, long hi)
{
#pragma scop
    for (long t = lo; t < hi; t++)
        A[t - lo] = A[t - lo] + t % 997;
#pragma endscop
}

/* Two dimensions, a triangle: tiles in both. */
static void triangle(long lo, int n)
{
#pragma scop
    for (long i = lo; i < lo + n; i++)
        for (long j = i; j < lo + n; j++)
            B[i - lo][j - lo] = B[i - lo][j - lo] + (i + j) % 101;
#pragma endscop
}

int main(void)
{
    static const int ints[] = { 0, 1000000, 69273667, 1000000000, 2000000000, -2000000000 };
    static const long longs[] = { 0L, 100000000000L, 1700000000000000L,
                                  1700000000000000000L, -1700000000000000000L,
                                  9223372036854775000L };
    for (int k = 0; k < (int) (sizeof ints / sizeof ints[0]); k++)
        stamps_int(ints[k], ints[k] + N - 3);
    for (int k = 0; k < (int) (sizeof longs / sizeof longs[0]); k++) {
        stamps_long(longs[k], longs[k] + N - 5);
        triangle(longs[k], N - 7);
    }
    long s = 0;
    for (int i = 0; i < N; i++) {
        s += A[i] * (i % 7 + 1);
        for (int j = 0; j < N; j++)
            s += B[i][j] * ((i + 2 * j) % 5 + 1);
    }
    printf("%ld\n", s);
    return 0;
}
