/* Two regions in one file: a matrix product, whose shared tiles serve
 * many threads, and matrix-vector products, whose row tiles each thread
 * reads once. The GPU model keeps the first kernel's tiles and drops the
 * second region's (kernels are numbered across the file). */
#include <stdio.h>

#define N 192
#define M 160

static double A[N][N], B[N][N], C[N][N];
static double P[M][N], x[N], y[M], w[M], z[N];

static void product(int n)
{
#pragma scop
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            for (int k = 0; k < n; k++)
                C[i][j] += A[i][k] * B[k][j];
#pragma endscop
}

static void matvec(int m, int n)
{
#pragma scop
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            y[i] += P[i][j] * x[j];
    for (int j = 0; j < n; j++) {
        z[j] = 0.5 * z[j];
        for (int i = 0; i < m; i++)
            z[j] += P[i][j] * w[i];
    }
#pragma endscop
}

int main(void)
{
    for (int i = 0; i < N; i++) {
        x[i] = (i % 7) * 0.25;
        z[i] = (i % 5) - 2.0;
        for (int j = 0; j < N; j++) {
            A[i][j] = ((i * j) % 11) * 0.125;
            B[i][j] = ((i + 2 * j) % 13) * 0.0625;
            C[i][j] = (i == j);
        }
    }
    for (int i = 0; i < M; i++) {
        w[i] = (i % 3) * 0.5 - 0.5;
        y[i] = (i % 2) * 0.25;
        for (int j = 0; j < N; j++)
            P[i][j] = ((3 * i + j) % 17) * 0.03125;
    }
    product(N);
    matvec(M, N);
    matvec(M - 33, N - 7);
    double s = 0.0, t = 0.0, u = 0.0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            s += C[i][j] * ((i + j) % 3);
    for (int i = 0; i < M; i++)
        t += y[i] * (i % 4);
    for (int j = 0; j < N; j++)
        u += z[j] * (j % 5);
    printf("%.6f %.6f %.6f\n", s, t, u);
    return 0;
}
