/* Loops over `size_t` and `unsigned` counters bounded by `int` values, as
 * code generators write them. C converts a negative bound to a huge
 * unsigned one, so the model of each loop is exact only for some values
 * of the parameters (E0117 before, and each loop ran as one statement on
 * one thread): now the region checks those values when it is entered and
 * runs its original code at the others. Each region is called at values
 * on both sides of its check. */
#include <stddef.h>
#include <stdio.h>

#define N 64

static double A[N * N], B[N * N], x[N], y[N];

/* Exact for n >= 0 (a negative n would run about 2^64 times). */
static void scale(int n, double *restrict a, const double *restrict b)
{
#pragma scop
    for (size_t i = 0; i < (size_t)n; i++)
        a[i] = 2.0 * b[i] + 1.0;
#pragma endscop
}

/* A linearised matrix product over pointers: exact for n, m >= 0. */
static void matvec(int n, int m, const double *restrict a, const double *restrict v,
                   double *restrict out)
{
#pragma scop
    for (size_t i = 0; i < (size_t)n; i++) {
        out[i] = 0.0;
        for (size_t j = 0; j < (size_t)m; j++)
            out[i] += a[i * (size_t)m + j] * v[j];
    }
#pragma endscop
}

/* A negative `lo` starts `i` near 2^64, past `hi`: no iteration in C,
 * where the model would count from `lo`. Exact for lo >= 0. */
static void window(int lo, int hi)
{
#pragma scop
    for (size_t i = lo; i < (size_t)hi; i++)
        y[i] = y[i] + 3.0 * x[i];
#pragma endscop
}

/* `n - 1` wraps for n == 0: `i` starts at UINT_MAX, which fails the
 * condition at once. Exact for n >= 1. */
static void tail(unsigned n, unsigned m)
{
#pragma scop
    for (unsigned i = n - 1; i < m; i++)
        x[i] = x[i] * 0.5 + y[i];
#pragma endscop
}

int main(void)
{
    for (int i = 0; i < N * N; i++) {
        A[i] = (i % 17) * 0.25;
        B[i] = (i % 5) - 1.0;
    }
    for (int i = 0; i < N; i++) {
        x[i] = i % 7;
        y[i] = (i * 3) % 11;
    }
    scale(N * N, A, B);
    scale(0, A, B);
    scale(10, B, A);
    matvec(N, N, A, x, y);
    matvec(N / 2, N, B, y, x);
    matvec(0, N, A, x, y);
    window(3, N);
    window(-3, 10);
    window(-1, 0);
    window(N, N);
    tail(5, N);
    tail(0, N);
    tail(N, N);
    double s = 0;
    for (int i = 0; i < N * N; i++)
        s += (A[i] - B[i]) * (i % 13 + 1);
    for (int i = 0; i < N; i++)
        s += (x[i] + 2 * y[i]) * (i % 7 + 1);
    printf("%.6f\n", s);
    return 0;
}
