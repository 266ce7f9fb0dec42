/* Scalars that loops assign only under a condition (searches for the
 * last or first match), then read after the loops: the loops find the
 * matching iteration, the assignments run once after them
 * (scop::last_writes). Each function prints what it leaves. */
#include <math.h>
#include <stdio.h>

#define N 3000
#define R 40

static double A[N][4], B[R], C[R][N];
static double u, w, z;
static int last, first, hits, row_last[R];

/* The last match of an increasing loop: two scalars, one the iterator. */
static void last_match(int n, double t)
{
#pragma scop
    for (int i = 0; i < n; i++) {
        if (A[i][0] > t) {
            u = A[i][1] * 2.0 + i;
            last = i;
        }
        A[i][3] = A[i][2] + 1.0;
    }
#pragma endscop
}

/* The first match, found by a loop that counts down in steps of 3 from
 * a parameter, a pure call in the value; a second `if` beside it. */
static void first_match(int n, double t)
{
#pragma scop
    for (int i = n - 1; i >= -7; i -= 3) {
        if (i >= 0 && A[i < 0 ? 0 : i][1] < t) {
            first = i;
            w = sqrt(A[i < 0 ? 0 : i][2]) + 0.5;
        }
        if (i >= 0)
            if (A[i < 0 ? 0 : i][2] > 0.9)
                z = i * 0.25;
    }
#pragma endscop
}

/* One search per row: `bi` reset before each, so rows are independent;
 * and a search whose value carries over from row to row when a row has
 * no match (`carry`). */
static void per_row(int m, int n, double t)
{
    int bi, carry = -3;
#pragma scop
    for (int k = 0; k < m; k++) {
        bi = -1;
        for (int j = 0; j < n; j++)
            if (C[k][j] > t)
                bi = j;
        row_last[k] = bi;
        for (int j = 0; j < n; j += 2) {
            if (C[k][j] > t + 0.05) {
                carry = j + k;
            }
        }
        B[k] = carry * 0.5;
    }
#pragma endscop
}

/* `hits` is read in the loop: a count, not rewritten. `z`'s value reads
 * an element the loop writes, but each iteration writes its own before
 * the `if` reads it: rewritten. */
static void not_searches(int n, double t)
{
#pragma scop
    for (int i = 1; i < n; i++) {
        if (A[i][0] > t) {
            hits = hits + 1;
        }
        A[i][2] = A[i - 1][2] * 0.5 + 0.25;
        if (A[i][1] > t)
            z = A[i][2];
    }
#pragma endscop
}

/* Not rewritten: `y[i]` changes after the `if` reads it (the value after
 * the loop is not the one the iteration assigned), and `got` reads a
 * pointer whose extent is not declared. */
static double best, got;
static int at, got_at;
static void written_after(int n, double x[N][4], double *y, double t)
{
#pragma scop
    for (int i = 0; i < n; i++) {
        x[i][3] = x[i][0] * 2.0;
        if (x[i][3] > t) {
            best = x[i][1] + y[i] + x[i][3];
            at = i;
        }
        y[i] = y[i] + 1.0;
    }
#pragma endscop
}

static void through_pointer(int n, int lo, const double *x, const double *y, double t)
{
#pragma scop
    for (int i = lo; i < n; i += 2)
        if (x[i] > t) {
            got = y[i] * 3.0;
            got_at = i;
        }
#pragma endscop
}

static double V[N];

static void show(const char *what)
{
    double s = 0;
    for (int i = 0; i < N; i++)
        s += A[i][2] * (i % 7 + 1) + A[i][3];
    long r = 0;
    for (int k = 0; k < R; k++)
        r += (long) row_last[k] * (k + 1);
    double b = 0;
    for (int k = 0; k < R; k++)
        b += B[k] * (k + 2);
    double v = 0;
    for (int i = 0; i < N; i++)
        v += V[i] * (i % 5 + 1);
    printf("%s: u %.17g last %d first %d w %.17g z %.17g hits %d rows %ld %.17g sum %.17g\n",
           what, u, last, first, w, z, hits, r, b, s);
    printf("    best %.17g at %d got %.17g at %d v %.17g\n", best, at, got, got_at, v);
}

int main(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < 4; j++)
            A[i][j] = ((i * 37 + j * 11 + (i * i) % 13) % 101) / 100.0;
    for (int k = 0; k < R; k++)
        for (int j = 0; j < N; j++)
            C[k][j] = ((k * 17 + j * 29 + (j * k) % 7) % 97) / 96.0;
    for (int i = 0; i < N; i++)
        V[i] = (i % 11) * 0.125;
    u = -1; w = -1; z = -1; last = -9; first = -9; hits = 0;
    best = -1; got = -1; at = -9; got_at = -9;
    int sizes[] = {N, 1, 0, 57, N - 1};
    double limits[] = {0.5, 2.0, 0.99, 0.0, 0.97};
    for (int c = 0; c < 5; c++) {
        last_match(sizes[c], limits[c]);
        show("last");
        first_match(sizes[c], limits[c] - 0.45);
        show("first");
        per_row(c == 2 ? 0 : R, sizes[c], limits[c] - 0.03);
        show("rows");
        not_searches(sizes[c], limits[c]);
        show("not");
        written_after(sizes[c], A, V, 2.0 * limits[c] - 0.1);
        through_pointer(sizes[c], c, &C[1][0], V, 0.2 * c + 0.1);
        show("others");
    }
    return 0;
}
