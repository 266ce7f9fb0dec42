/* Arrays the region writes before it reads them: their old values need
 * not reach the device where the region writes every element that the
 * host copies back (whole rows of a declared array, the first to the last
 * element of a pointer's), and must where it does not. Called at sizes on
 * both sides of that line, with other old values each time, so that an
 * element copied back without its old value shows. */
#include <stdio.h>

#define N 40
#define M 30

static double A[N][M], B[N][M + 1], C[N][M], D[N][M], U[N][M], t[N], P[N], Q[2 * N];

static void region(int n, int m, int lo, int hi, double *p, double *q)
{
#pragma scop
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            A[i][j] = i * 0.5 + j;
            /* Column 0 is never written: B always needs its old values. */
            B[i][j + 1] = A[i][j] * 2;
            C[i][j] = 1;
            C[i][j] = C[i][j] + A[i][j];
        }
    for (int i = 0; i < n; i++)
        for (int j = lo; j < hi; j++)
            D[i][j] = i - j;
    /* An upper triangle: the rows below the diagonal keep theirs. */
    for (int i = 0; i < n; i++)
        for (int j = i; j < m; j++)
            U[i][j] = C[i][j] + i;
    for (int i = 0; i < n; i++) {
        t[i] = 0;
        for (int j = 0; j < m; j++)
            t[i] = t[i] + C[i][j];
        p[i] = t[i] * 0.25;
        /* Every second element: the ones between keep theirs. */
        q[2 * i] = i + 0.5;
    }
#pragma endscop
}

static void fill(double old)
{
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < M; j++) {
            A[i][j] = old + i;
            C[i][j] = old - j;
            D[i][j] = old * 2 + i * j;
            U[i][j] = old + i * M + j;
        }
        for (int j = 0; j <= M; j++)
            B[i][j] = old + j;
        t[i] = old + 3 * i;
        P[i] = old - i;
    }
    for (int i = 0; i < 2 * N; i++)
        Q[i] = old + 7 * i;
}

static double weighted(const double *x, int count)
{
    double s = 0;
    for (int k = 0; k < count; k++)
        s += x[k] * (k % 97 + 1);
    return s;
}

static void report(const char *what)
{
    printf("%s: A %.6f B %.6f C %.6f D %.6f U %.6f t %.6f P %.6f Q %.6f\n", what,
           weighted(&A[0][0], N * M), weighted(&B[0][0], N * (M + 1)), weighted(&C[0][0], N * M),
           weighted(&D[0][0], N * M), weighted(&U[0][0], N * M), weighted(t, N), weighted(P, N),
           weighted(Q, 2 * N));
}

int main(void)
{
    static const int calls[][4] = {
        { N, M, 0, M },      /* every copied element written */
        { N, M - 1, 0, M },  /* the last column of A, C, U is not */
        { N, M, 2, M },      /* D's first columns are not */
        { N, M, 0, M - 3 },  /* nor its last */
        { 3, 2, 0, 2 },      /* few rows, few columns */
        { 1, M, 0, M },      /* one row: U's is whole */
        { 1, M - 1, 0, M },  /* but not one column short */
        { 2, M, 1, M },      /* Q's second element, D's first column */
        { 3, 1, 0, 1 },      /* one column */
        { 0, M, 0, M },      /* nothing runs */
        { N, M, 0, M },      /* all again, the buffers reused */
    };
    for (int c = 0; c < (int) (sizeof calls / sizeof calls[0]); c++) {
        char what[32];
        fill(100.0 * (c + 1));
        region(calls[c][0], calls[c][1], calls[c][2], calls[c][3], P, Q);
        snprintf(what, sizeof what, "call %d", c);
        report(what);
    }
    return 0;
}
