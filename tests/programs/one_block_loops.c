/* Time loops over short arrays: every kernel of a step is small, so with
 * --target cuda the whole loop runs as one block (`ast::one_block`), its
 * threads taking each launch in turn; over long arrays, a launch per
 * kernel and step as before. The arguments choose: n (default 100) and
 * the steps (default 20). The steps' variable is named as pencilc's fused
 * thread id would be, and a local as its virtual block. */
#include <stdio.h>
#include <stdlib.h>

static void smooth(int ft0, int n, int m, double A[n], double B[n], double C[m][n])
{
#pragma scop
    for (int t = 0; t < ft0; t++) {
        for (int i = 1; i < n - 1; i++)
            B[i] = 0.25 * (A[i - 1] + 2.0 * A[i] + A[i + 1]);
        for (int i = 1; i < n - 1; i++)
            A[i] = B[i] + 0.001 * t;
        /* A grid of two dimensions, and rows that start half-way (a
         * launch whose first block is not block 0). */
        for (int j = 0; j < m; j++)
            for (int i = 0; i < n; i++)
                C[j][i] = C[j][i] * 0.5 + (i + j) * 0.001 * t;
        for (int i = n / 2; i < n; i++)
            A[i] = A[i] + C[m - 1][i] * 0.01;
    }
#pragma endscop
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100;
    int steps = argc > 2 ? atoi(argv[2]) : 20;
    int m = 40;
    double *A = malloc(sizeof(double) * n);
    double *B = malloc(sizeof(double) * n);
    double (*C)[n] = malloc(sizeof(double) * n * m);
    for (int i = 0; i < n; i++) {
        A[i] = (i % 17) * 0.5;
        B[i] = 0;
        for (int j = 0; j < m; j++)
            C[j][i] = (i + j) % 5;
    }
    int fv0 = 0;
    smooth(steps, n, m, A, B, C);
    double sa = 0, sc = 0;
    for (int i = 0; i < n; i++) {
        sa += A[i];
        for (int j = 0; j < m; j++)
            sc += C[j][i];
    }
    printf("%.10e %.10e\n", sa, sc);
    for (int i = 0; i < n; i += 1 + n / 16, fv0++)
        printf("%d A[%d] = %.10e B = %.10e C = %.10e\n", fv0, i, A[i], B[i], C[m - 1][i]);
    free(A);
    free(B);
    free(C);
    return 0;
}
