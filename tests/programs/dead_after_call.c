/* Arrays that nothing reads after the region need not come back from the
 * device: a temporary that main allocates, passes to a static kernel and
 * frees (PolyBench's 2mm `tmp`, deriche's `y1`), an automatic array of
 * the caller, a local of the function that holds the region. Every other
 * array here is read after the region by a route the proof must see: a
 * print, a pointer kept by a function of the file, a pointer into it,
 * a call in a loop, a caller in another file. Each of those must come
 * back, or its printed values differ. */
#include <stdio.h>
#include <stdlib.h>

#define N 24

static double *kept_by_stash;

/* Keeps its argument: what the region leaves there is read later. */
static void stash(double *p) { kept_by_stash = p; }

/* Uses its argument as whole elements only. */
static void fill(int n, double A[N][N], double s)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            A[i][j] = s * i - j;
}

static void kernel_dead(int n, double out[N][N], double tmp[N][N], double scratch[N],
                        double kept[N][N], double seen[N], double alias[N][N])
{
#pragma scop
    for (int i = 0; i < n; i++) {
        scratch[i] = 0.5 * i;
        seen[i] = scratch[i] + 1;
        for (int j = 0; j < n; j++)
            tmp[i][j] = i + 0.25 * j;
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            out[i][j] = tmp[i][j] * tmp[j][i] + scratch[j];
            kept[i][j] = kept[i][j] + tmp[i][j];
            alias[i][j] = tmp[j][i] - seen[j];
        }
#pragma endscop
}

/* Called in a loop: what one call leaves, the code before the next reads. */
static void kernel_looped(int n, double t[N][N])
{
#pragma scop
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            t[i][j] = 2.0 * i + j;
#pragma endscop
}

/* Not static: another file may call it and read what it leaves. */
void kernel_extern(int n, double t[N][N])
{
#pragma scop
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            t[i][j] = i - 3.0 * j;
#pragma endscop
}

static double checksum(int n, double A[N][N])
{
    double s = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            s += A[i][j] * (i + 1) + j;
    return s;
}

int main(void)
{
    int n = N;
    double (*out)[N][N] = (double (*)[N][N]) malloc(sizeof(double) * N * N);
    double (*tmp)[N][N] = (double (*)[N][N]) malloc(sizeof(double) * N * N);
    double scratch[N];
    double (*kept)[N][N] = malloc(sizeof(double) * N * N);
    double *seen = malloc(sizeof(double) * N);
    double (*alias)[N][N];
    alias = malloc(sizeof(double) * N * N);
    double *inside = &(*alias)[2][0];
    fill(n, *kept, 0.5);
    fill(n, *tmp, 2.0);
    stash(seen);
    kernel_dead(n, *out, *tmp, scratch, *kept, seen, *alias);
    printf("out %.6f kept %.6f\n", checksum(n, *out), checksum(n, *kept));
    printf("seen %.6f %.6f alias %.6f %.6f\n", kept_by_stash[3], kept_by_stash[N - 1], inside[5],
           inside[N + 7]);
    free(tmp);
    free((void *) out);

    double (*t)[N][N] = malloc(sizeof(double) * N * N);
    double acc = 0;
    for (int r = 0; r < 3; r++) {
        if (r > 0)
            acc += (*t)[r][r + 1];
        fill(n, *t, 1.0);
        kernel_looped(n - r, *t);
    }
    printf("looped %.6f\n", acc);
    free(t);

    double (*e)[N][N] = malloc(sizeof(double) * N * N);
    kernel_extern(n, *e);
    free(e);

    /* A region in main: `work` is dead after it, `res` is printed. */
    double work[N], res[N];
#pragma scop
    for (int i = 0; i < n; i++)
        work[i] = i * 1.5;
    for (int i = 0; i < n; i++)
        res[i] = work[i] * work[n - 1 - i];
#pragma endscop
    printf("main %.6f %.6f\n", res[1], res[N - 2]);
    free(kept);
    free(seen);
    free(alias);
    return 0;
}
