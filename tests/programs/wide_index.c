#include <stdio.h>
#include <stdlib.h>
#include <pencil.h>

/* Arrays of more than INT_MAX elements (53700 x 40000 bytes, 2.15 GB) of
 * which the regions read the first and the last rows: the row-major index
 * of the last row, about 2.1e9, is past `int`. Only what is read is ever
 * written by the program, so the rest of each array is never backed by
 * memory; the device buffers hold the rows from the first read to the
 * last, the whole array. */
static void ends(int n, int m, const char A[n][m], int S[2][64])
{
#pragma scop
    for (int k = 0; k < 2; k++)
        for (int j = 0; j < 64; j++)
            S[k][j] = A[k * (n - 1)][j * 7] + 2 * A[k * (n - 1)][m - 1 - j];
#pragma endscop
}

/* The same through a flat pointer that the user indexes in `long`. */
static void ends_flat(int n, int m, const char *p, int T[3][64])
{
#pragma scop
    __pencil_assume(m >= 400 && n >= 3);
    for (int j = 0; j < 64; j++)
        T[0][j] = p[j * 5] - p[j + 390];
    for (int i = n - 2; i < n; i++)
        for (int j = 0; j < 64; j++)
            T[i - n + 3][j] = p[(long) i * m + j * 5] - 3 * p[(long) i * m + j + 390];
#pragma endscop
}

int main(void)
{
    int n = 53700, m = 40000;
    char (*A)[m] = malloc((size_t) n * m);
    char *p = malloc((size_t) n * m);
    int (*S)[64] = malloc(sizeof(int[2][64]));
    int (*T)[64] = malloc(sizeof(int[3][64]));
    if (!A || !p || !S || !T)
        return 1;
    for (int j = 0; j < m; j++) {
        A[0][j] = (char) (j % 5);
        A[n - 1][j] = (char) (j % 3 + 1);
        p[j] = (char) (j % 7);
        p[(size_t) (n - 2) * m + j] = (char) (j % 13);
        p[(size_t) (n - 1) * m + j] = (char) (j % 11 + 2);
    }
    ends(n, m, A, S);
    ends_flat(n, m, p, T);
    long sum = 0;
    for (int j = 0; j < 64; j++) {
        sum += (S[0][j] + 2 * S[1][j]) * (j + 1);
        sum += (T[0][j] + 3 * T[1][j] + 5 * T[2][j]) * (j + 7);
    }
    printf("%ld\n", sum);
    return 0;
}
