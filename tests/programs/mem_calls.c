/* `memcpy`, `memmove` and `memset` in a region, as loops over elements:
 * whole arrays (`sizeof A`), rows of parametric arrays (`A[i]`, `m *
 * sizeof(double)`), an element's address and a count inside one row,
 * a pointer with an offset, a flat buffer copied into a 2-d array, a
 * row cleared to 0 and to -1, bytes of a `char` array, a scalar, types
 * spelled two ways, and a copy whose result a later loop reads. */
#include <stdio.h>
#include <string.h>

#define N 12
#define M 10

static void rows(int n, int m, double A[n][m], double B[n][m], double *flat, double *p)
{
#pragma scop
    for (int i = 0; i < n; i++)
        if (i % 2 == 0)
            memcpy(A[i], B[i], m * sizeof(double));
        else
            memset(A[i], 0, sizeof(double) * m);
    memcpy(p + 4, flat, 6 * sizeof *p);
    memmove(flat, B, n * m * sizeof(double));
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            B[i][j] = A[i][j] + flat[i * m + j];
#pragma endscop
}

int main(void)
{
    static double A[N][M], B[N][M], flat[N * M], p[16];
    int W[4][8], V[4][8];
    unsigned char bytes[20];
    signed char sc[6];
    char name[8] = "kernels", copy[8];
    size_t len = sizeof name;
    int x = 1, y = 7;
    unsigned us[4] = {1, 2, 3, 4}, ut[4];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++) {
            A[i][j] = -1;
            B[i][j] = i * 100 + j;
            flat[i * M + j] = (i + j) % 7;
        }
    for (int k = 0; k < 16; k++)
        p[k] = -k;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 8; j++) {
            W[i][j] = i * 8 + j;
            V[i][j] = 0;
        }
    rows(N, M, A, B, flat, p);
#pragma scop
    memcpy(V, W, sizeof W);
    memset(W[2], -1, sizeof W[2]);
    memcpy(&V[1][2], &W[0][5], 3 * sizeof(V[0][0]));
    memset(bytes, 0x5a, 12);
    memset(bytes + 12, 200, 8 * sizeof(unsigned char));
    memset(sc, 200, sizeof sc);
    memcpy(copy, name, len);
    memcpy(&x, &y, sizeof x);
    memcpy(ut, us, sizeof(unsigned int) * 4);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 8; j++)
            V[i][j] += W[i][j];
#pragma endscop
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            printf("%g %g %g\n", A[i][j], B[i][j], flat[i * M + j]);
    for (int k = 0; k < 16; k++)
        printf("%g ", p[k]);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 8; j++)
            printf("%d %d ", V[i][j], W[i][j]);
    for (int k = 0; k < 20; k++)
        printf("%u ", bytes[k]);
    for (int k = 0; k < 6; k++)
        printf("%d ", sc[k]);
    printf("%s %d %u %u\n", copy, x, ut[0], ut[3]);
    return 0;
}
