/* Bands whose only parallel row leaves each GPU thread a long chain of
 * work, where another row of the band, put outside as a host loop, leaves
 * two parallel rows inside (pencilc's GPU model chooses it: `-v` says "a
 * sequential loop runs outside the parallel ones it was inside"). */
#include <stdio.h>

#define M 480
#define N 512

static double A[M][M], B[M][N], C[M][N], D[M][N];

/* trmm: B = alpha * A^T B with A unit lower triangular, in place: `j`
 * alone parallel as scheduled, `k` sequential, `i` parallel once `k` is
 * fixed. */
static void trmm(double alpha)
{
#pragma scop
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            for (int k = i + 1; k < M; k++)
                B[i][j] += A[k][i] * B[k][j];
            B[i][j] = alpha * B[i][j];
        }
#pragma endscop
}

/* The same update with a second statement that reads each finished
 * element, and a scalar live after the region. */
static double upper(void)
{
    double last = 0.0;
#pragma scop
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            for (int k = i + 1; k < M; k++)
                C[i][j] = C[i][j] - A[k][i] * C[k][j] * 0.5;
            D[i][j] = C[i][j] + D[i][j];
            last = D[i][j];
        }
#pragma endscop
    return last;
}

int main(void)
{
    for (int i = 0; i < M; i++)
        for (int k = 0; k < M; k++)
            A[i][k] = (double) ((i * 7 + k * 3) % 11) / 64.0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            B[i][j] = (double) ((i * 5 + j) % 13) / 8.0;
            C[i][j] = (double) ((i + j * 3) % 7) / 4.0;
            D[i][j] = (double) (i - j) / 16.0;
        }
    trmm(1.5);
    double last = upper();
    double s = 0.0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++)
            s += B[i][j] * (i + 1) + C[i][j] * (j + 2) + D[i][j];
    printf("%.10e %.10e %.10e %.10e\n", s, B[M - 1][N - 1], C[0][0], last);
    return 0;
}
