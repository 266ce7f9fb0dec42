/* Loop nests a GPU runs as a wavefront of points or as launches whose
 * tiles start far from tile 0 (each launch's grid starts at its first
 * tile): in-place Gauss-Seidel sweeps in one, two and three dimensions,
 * one over a transposed array (the step that stays on a row is then
 * another iterator), and triangular updates inside a sequential loop
 * whose rows start at the pivot, at a stride, or at the larger of two
 * bounds. */
#include <stdio.h>

#define T 9
#define N 70
#define M 23

static double S1[N], S2[N][N], S2T[N][N], S3[M][M][M];
static double L[N][N], U[N][N];

static void seidel_1d(void)
{
#pragma scop
    for (int t = 0; t < T; t++)
        for (int i = 1; i < N - 1; i++)
            S1[i] = (S1[i - 1] + S1[i] + S1[i + 1]) / 3.0;
#pragma endscop
}

/* Five points; W = 3t + 2i + j or the like. */
static void seidel_2d(void)
{
#pragma scop
    for (int t = 0; t < T; t++)
        for (int i = 1; i < N - 1; i++)
            for (int j = 1; j < N - 1; j++)
                S2[i][j] = (S2[i - 1][j] + S2[i][j - 1] + S2[i][j] + S2[i][j + 1] + S2[i + 1][j]) * 0.2;
#pragma endscop
}

/* The nine points of seidel-2d on an array stored by column. */
static void seidel_2d_transposed(void)
{
#pragma scop
    for (int t = 0; t < T; t++)
        for (int i = 1; i < N - 1; i++)
            for (int j = 1; j < N - 1; j++)
                S2T[j][i] = (S2T[j - 1][i - 1] + S2T[j][i - 1] + S2T[j + 1][i - 1]
                             + S2T[j - 1][i] + S2T[j][i] + S2T[j + 1][i]
                             + S2T[j - 1][i + 1] + S2T[j][i + 1] + S2T[j + 1][i + 1]) / 9.0;
#pragma endscop
}

static void seidel_3d(void)
{
#pragma scop
    for (int t = 0; t < 4; t++)
        for (int i = 1; i < M - 1; i++)
            for (int j = 1; j < M - 1; j++)
                for (int k = 1; k < M - 1; k++)
                    S3[i][j][k] = (S3[i - 1][j][k] + S3[i][j - 1][k] + S3[i][j][k - 1] + S3[i][j][k]
                                   + S3[i + 1][j][k] + S3[i][j + 1][k] + S3[i][j][k + 1]) / 7.0;
#pragma endscop
}

/* Rows below the pivot, columns right of it; then rows from the larger
 * of k / 2 + 5 and 2k - 40, every third column from the pivot. */
static void triangles(void)
{
#pragma scop
    for (int k = 0; k < N; k++) {
        for (int i = k + 1; i < N; i++)
            for (int j = k + 1; j < N; j++)
                L[i][j] = L[i][j] - L[i][k] * L[k][j] * 0.01;
        for (int i = (k / 2 + 5 > 2 * k - 40 ? k / 2 + 5 : 2 * k - 40); i < N; i++)
            for (int j = k; j < N; j += 3)
                U[i][j] = U[i][j] * 0.5 + U[k][j] * 0.25 + (double) (i - j) / 64.0;
    }
#pragma endscop
}

int main(void)
{
    for (int i = 0; i < N; i++) {
        S1[i] = (double) ((i * 7) % 11) / 4.0;
        for (int j = 0; j < N; j++) {
            S2[i][j] = (double) ((i * 5 + j * 3) % 13) / 8.0;
            S2T[i][j] = (double) ((i * 3 + j * 7) % 17) / 8.0;
            L[i][j] = (double) ((i + 2 * j) % 9) / 16.0;
            U[i][j] = (double) ((3 * i + j) % 5) / 2.0;
        }
    }
    for (int i = 0; i < M; i++)
        for (int j = 0; j < M; j++)
            for (int k = 0; k < M; k++)
                S3[i][j][k] = (double) ((i * 3 + j * 5 + k) % 7) / 2.0;
    seidel_1d();
    seidel_2d();
    seidel_2d_transposed();
    seidel_3d();
    triangles();
    double s1 = 0, s2 = 0, s2t = 0, s3 = 0, l = 0, u = 0;
    for (int i = 0; i < N; i++) {
        s1 += S1[i] * (i + 1);
        for (int j = 0; j < N; j++) {
            s2 += S2[i][j] * (i + 2 * j + 1);
            s2t += S2T[i][j] * (2 * i + j + 1);
            l += L[i][j] * (i + 1);
            u += U[i][j] * (j + 1);
        }
    }
    for (int i = 0; i < M; i++)
        for (int j = 0; j < M; j++)
            for (int k = 0; k < M; k++)
                s3 += S3[i][j][k] * (i + j + k + 1);
    printf("%.12e %.12e %.12e %.12e %.12e %.12e\n", s1, s2, s2t, s3, l, u);
    return 0;
}
